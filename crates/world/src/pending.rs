//! Load-time bounds on the change batches a saved layer still has to replay.
//!
//! A layer saved before it was ever decoded carries the journal batches that reached it. They
//! come from the file, so before anything is allocated or replayed they must be shown to be
//! cheap: every size fits the u32 id space, the last batch ends at the mesh's sizes, no batch
//! removes the layer (a saving world would have dropped it), and an upper bound of the replay's
//! work and memory is within what the section's bytes and the mesh justify.

use crate::slot::Batch;
use layers::{ElementKind, Interpolation, OnChange, Sizes, journal_removes_layer};
use quadedge::{Change, Remap};

/// The largest slot count of any kind (ids are u32).
const MAX_SLOTS: usize = 1 << 32;

/// Work units (values touched) allowed per byte of the section, on top of the mesh's size:
/// a legitimate batch pays for each value it makes the replay touch with at least a few bytes
/// of journal or remap, or with elements the mesh still has.
const WORK_PER_BYTE: u128 = 16;
const WORK_PER_SLOT: u128 = 4;
const WORK_SLACK: u128 = 1 << 16;

pub(crate) struct Policies {
    pub kind: ElementKind,
    pub on_change: OnChange,
    pub interpolation: Interpolation,
}

/// Checks `pending` for a layer of `len` stored values; `Err` says why it is refused.
pub(crate) fn check(
    p: &Policies,
    len: usize,
    pending: &[Batch],
    mesh: Sizes,
    section_bytes: usize,
) -> Result<(), String> {
    let kind = p.kind;
    let Some(last) = pending.last() else {
        return if len == kind.slots(mesh) {
            Ok(())
        } else {
            Err(format!(
                "{len} values for {} mesh {kind}s",
                kind.slots(mesh)
            ))
        };
    };
    if last.sizes() != mesh {
        return Err("the pending batches do not end at the mesh's sizes".into());
    }
    let budget = WORK_PER_BYTE * section_bytes as u128
        + WORK_PER_SLOT * kind.slots(mesh) as u128
        + WORK_SLACK;
    let per = kind.per_quad() as u128;
    let mut work: u128 = 0;
    let mut cur = len as u128;
    for batch in pending {
        let s = batch.sizes();
        if s.vertices > MAX_SLOTS || s.faces > MAX_SLOTS || s.quads > MAX_SLOTS {
            return Err("a pending batch has sizes past the id space".into());
        }
        let target = kind.slots(s) as u128;
        match batch {
            Batch::Reset(_) | Batch::Resize(_) => work += cur + target,
            Batch::Changes(changes, _) => {
                if journal_removes_layer(kind, p.on_change, p.interpolation, changes) {
                    return Err("a pending batch removes the layer".into());
                }
                let remaps = changes.iter().filter_map(|c| match c {
                    Change::Compact(r) => Some(remap_len(kind, r) as u128 * per),
                    _ => None,
                });
                let limit = remaps.fold(cur.max(target), u128::max);
                // Growth (up front or by writes), one step per change, the resets of
                // `VerticesAdded`, and one pass over the layer and the remap per compaction.
                work += limit - cur.min(limit) + changes.len() as u128;
                for c in changes.iter() {
                    match c {
                        Change::VerticesAdded { count, .. } => {
                            work += (*count as u128).min(limit);
                        }
                        Change::Compact(r) => work += limit + remap_len(kind, r) as u128,
                        _ => {}
                    }
                }
            }
        }
        if work > budget {
            return Err(format!(
                "the pending batches ask for {work} steps, the file justifies {budget}"
            ));
        }
        cur = target;
    }
    Ok(())
}

fn remap_len(kind: ElementKind, r: &Remap) -> usize {
    match kind {
        ElementKind::Vertex => r.vertices.len(),
        ElementKind::Face => r.faces.len(),
        _ => r.quads.len(),
    }
}
