//! When a journal makes a layer ask to be removed: the type-free half of the replay.

use crate::info::{Interpolation, OnChange};
use crate::kind::ElementKind;
use quadedge::{Change, Edge, Face, Vertex};

/// Would replaying `changes` into a layer of `kind` with these policies trigger
/// [`OnChange::RemoveLayer`] or [`Interpolation::DropLayer`]?
///
/// The type-free half of [`Layer::apply_changes`](crate::Layer::apply_changes): an owner holding a layer it has not decoded
/// yet (a world loaded from a file) uses it to drop the layer exactly when a decoded one would
/// be dropped.
pub fn journal_removes_layer(
    kind: ElementKind,
    on_change: OnChange,
    interpolation: Interpolation,
    changes: &[Change],
) -> bool {
    let oc = on_change == OnChange::RemoveLayer;
    let ip = interpolation == Interpolation::DropLayer;
    (oc || ip) && changes.iter().any(|c| removes(kind, oc, ip, c))
}

fn removes(kind: ElementKind, oc: bool, ip: bool, c: &Change) -> bool {
    let edge = |e: &Edge| kind.is_edge() && e.is_valid();
    let face = |f: &Face| kind == ElementKind::Face && f.is_valid();
    let vertex = |v: &Vertex| kind == ElementKind::Vertex && v.is_valid();
    match c {
        Change::VertexRemoved(v) => oc && vertex(v),
        Change::FaceRemoved(f) => oc && face(f),
        Change::EdgeRemoved(e) => oc && edge(e),
        Change::Flip(r) => oc && (r.faces.iter().any(face) || edge(&r.edge)),
        Change::VertexMoved(r) => {
            oc && (face(&r.closed) || r.faces.iter().any(face) || r.spokes.iter().any(edge))
        }
        Change::Split(_) | Change::FaceSplit(_) => ip,
        Change::VertexDissolved(r) => {
            oc && (vertex(&r.vertex)
                || face(&r.face)
                || r.removed_faces.iter().any(face)
                || r.removed_edges.iter().any(edge))
        }
        Change::Collapse(r) => {
            (ip && vertex(&r.survivor))
                || oc
                    && (vertex(&r.removed)
                        || r.removed_faces.iter().any(face)
                        || r.removed_edges.iter().any(edge))
        }
        Change::Stitch(r) => oc && (r.removed.iter().any(vertex) || edge(&r.removed_edge)),
        Change::Unstitch(r) => ip && edge(&r.new_edge),
        Change::VertexSplit(r) => ip && vertex(&r.vertex),
        _ => false,
    }
}
