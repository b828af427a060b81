//! [`EditReport`]: what a geometric world operation changed, so derived data (edge lengths,
//! face areas, boundary flags) can be refreshed in time proportional to the change.

use quadedge::internals::set_bits;
use quadedge::{Change, Edge, Face, Mesh, Vertex};

/// What an operation changed, read off the mesh's change journal. Each list is sorted and
/// holds each id once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditReport {
    /// Vertices whose position was set by the caller (moves).
    pub moved: Vec<Vertex>,
    /// Live vertices made by the operation, or that absorbed a removed one (a collapse's
    /// survivor): their data came from their layers' policies.
    pub created: Vec<Vertex>,
    /// Vertices removed by the operation (their ids are dead now; a later edit may reuse them).
    pub removed: Vec<Vertex>,
    /// Live faces made or re-cornered by the operation.
    pub faces: Vec<Face>,
    /// Faces removed by the operation.
    pub removed_faces: Vec<Face>,
    /// Live undirected edges (base edge of each quad-edge) made or flipped.
    pub edges: Vec<Edge>,
    /// Undirected edges removed.
    pub removed_edges: Vec<Edge>,
    /// Every id may have changed (a compaction, or the whole mesh replaced by a resample):
    /// recompute all derived data; the lists above are then empty.
    pub renumbered: bool,
}

impl EditReport {
    /// The report of a journal, against the mesh as it is after the edit.
    pub(crate) fn from_journal(changes: &[Change], mesh: &Mesh) -> EditReport {
        // A compaction (or anything unknown) renumbers: the catch-all arm below.
        let (mut v, mut f, mut e) = (Vec::new(), Vec::new(), Vec::new());
        for c in changes {
            match c {
                Change::VerticesAdded { first, count } => {
                    v.extend((0..*count).map(|k| Vertex::new(first.index() as u32 + k)));
                }
                Change::FaceAdded(x) | Change::FaceRemoved(x) => f.push(*x),
                Change::EdgeAdded(x) | Change::EdgeRemoved(x) => e.push(*x),
                Change::VertexRemoved(x) => v.push(*x),
                Change::Flip(x) => {
                    e.push(x.edge);
                    f.extend(x.faces);
                }
                Change::Split(x) => {
                    v.push(x.vertex);
                    e.extend([x.edge, x.new_edge]);
                    e.extend(x.cross_edges);
                    f.extend(x.faces.iter().flat_map(|&(a, b)| [a, b]));
                }
                Change::Collapse(x) => {
                    v.extend([x.survivor, x.removed]);
                    e.extend(x.removed_edges);
                    f.extend(x.removed_faces);
                }
                Change::FaceSplit(x) => {
                    v.push(x.vertex);
                    e.extend(x.spokes);
                    f.push(x.face);
                    f.extend(x.faces);
                }
                Change::VertexMoved(x) => {
                    // The vertex itself is reported as moved by the caller.
                    e.extend(x.spokes);
                    f.push(x.closed);
                    f.extend(x.faces);
                }
                Change::VertexDissolved(x) => {
                    v.push(x.vertex);
                    e.extend(x.removed_edges);
                    f.push(x.face);
                    f.extend(x.removed_faces);
                }
                #[allow(unreachable_patterns)]
                _ => return EditReport::renumbered(),
            }
        }
        let base = |x: &Edge| Edge::of_quad(x.quad() as u32);
        let e: Vec<Edge> = e.iter().filter(|x| x.is_valid()).map(base).collect();
        v.retain(|x| x.is_valid());
        f.retain(|x| x.is_valid());
        let v = sorted_unique(v, Vertex::index, |i| Vertex::new(i as u32));
        let f = sorted_unique(f, Face::index, |i| Face::new(i as u32));
        let e = sorted_unique(e, Edge::quad, |q| Edge::of_quad(q as u32));
        let (created, removed) = v.into_iter().partition(|&x| mesh.is_vertex_alive(x));
        let (faces, removed_faces) = f.into_iter().partition(|&x| mesh.is_face_alive(x));
        let (edges, removed_edges) = e.into_iter().partition(|&x| mesh.is_edge_alive(x));
        EditReport {
            moved: Vec::new(),
            created,
            removed,
            faces,
            removed_faces,
            edges,
            removed_edges,
            renumbered: false,
        }
    }

    /// Records the moved vertices (those still alive: a merged one is in `removed`).
    pub(crate) fn set_moved(&mut self, mut moved: Vec<Vertex>, mesh: &Mesh) {
        moved.retain(|&v| mesh.is_vertex_alive(v));
        moved.sort_unstable();
        moved.dedup();
        // A survivor of a merge appears in the journal's collapse, not as new.
        self.created.retain(|v| moved.binary_search(v).is_err());
        self.moved = moved;
    }

    /// The report of a resample or a replaced mesh: everything is new.
    pub(crate) fn renumbered() -> EditReport {
        EditReport {
            renumbered: true,
            ..EditReport::default()
        }
    }
}

/// Lists shorter than this are sorted (a bitmap's pass over the slots would cost more).
const BITMAP_MIN: usize = 1 << 12;

/// `ids` in increasing order, each once, where `index` orders them as `Ord` does and `id`
/// inverts it. A long list (a motion's journal: hundreds of thousands of flips) is marked in
/// a bitmap over the slots it names and read back in one pass, when the bitmap is not much
/// longer than the list; a short one is sorted.
fn sorted_unique<T: Copy + Ord>(
    mut ids: Vec<T>,
    index: impl Fn(T) -> usize,
    id: impl Fn(usize) -> T,
) -> Vec<T> {
    let top = ids.iter().map(|&x| index(x)).max().unwrap_or(0);
    if ids.len() < BITMAP_MIN || top / 64 > 4 * ids.len() {
        ids.sort_unstable();
        ids.dedup();
        return ids;
    }
    let mut bits = vec![0u64; top / 64 + 1];
    for &x in &ids {
        let i = index(x);
        bits[i / 64] |= 1 << (i % 64);
    }
    ids.clear();
    ids.extend(set_bits(bits.iter().copied()).map(id));
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_and_short_lists_come_out_sorted_once() {
        let mut rng = testkit::Rng::new(3);
        for (n, range) in [(10, 50), (5000, 3000), (20_000, 1_000_000), (9000, 70_000)] {
            let ids: Vec<Edge> = (0..n)
                .map(|_| Edge::of_quad(rng.next_u32() % range))
                .collect();
            let mut expected = ids.clone();
            expected.sort_unstable();
            expected.dedup();
            let got = sorted_unique(ids, Edge::quad, |q| Edge::of_quad(q as u32));
            assert_eq!(got, expected, "{n} in {range}");
        }
    }
}
