//! The relocation's walk to the triangle holding a vertex's new position, once for the whole
//! mesh and for a part of it ([`quadedge::MeshPart`]), which may enter only faces whose
//! corners it owns.

use crate::Surface;
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshPart, Vertex};

/// What the walk reads of a mesh.
pub(super) trait WalkRead {
    fn origin(&self, e: Edge) -> Vertex;
    /// Whether `e` has a face on its right (none: the walk left a surface with a boundary).
    fn has_right(&self, e: Edge) -> bool;
    /// The face right of `e` as its two edges after `e.sym()` (counter-clockwise) and its
    /// third corner (read off the first of them: one load less in the walk's chain), or
    /// `None` where the reader may not enter it.
    fn beyond(&self, e: Edge) -> Option<(Edge, Edge, Vertex)>;
}

impl WalkRead for Mesh {
    fn origin(&self, e: Edge) -> Vertex {
        Mesh::origin(self, e)
    }
    fn has_right(&self, e: Edge) -> bool {
        self.right(e).is_valid()
    }
    fn beyond(&self, e: Edge) -> Option<(Edge, Edge, Vertex)> {
        let next = self.left_next(e.sym());
        Some((next, self.left_next(next), self.dest(next)))
    }
}

impl<O: Fn(Vertex) -> u8 + Sync> WalkRead for MeshPart<'_, O> {
    fn origin(&self, e: Edge) -> Vertex {
        MeshPart::origin(self, e)
    }
    fn has_right(&self, e: Edge) -> bool {
        self.right(e).is_valid()
    }
    /// Read off the rings of `e`'s origin and of the third corner (the only rings a part
    /// reads), which must be the part's: the same edges as `left_next` gives.
    fn beyond(&self, e: Edge) -> Option<(Edge, Edge, Vertex)> {
        let next = self.origin_prev(e);
        let third = self.dest(next);
        self.owns(third)
            .then(|| (next, self.origin_prev(next.sym()), third))
    }
}

/// How a walk ended.
pub(super) enum Walked {
    /// The triangle's edges (edge `i` from corner `i` to `i + 1`) and `orient(a, b, p)` for
    /// each edge tested (1 for the edge the walk came through).
    Landed([Edge; 3], [f64; 3]),
    /// Across an edge with no face beyond.
    Outside,
    /// Out of steps, or at a face the reader may not enter.
    Stopped,
}

/// Walks from `v`'s link triangle (`link`) to the triangle of the mesh without `v` that holds
/// `v`'s position, crossing the first edge (from a random start, skipping the one it came
/// through) that the position lies strictly beyond, for at most `limit` steps. Reads only:
/// the triangles crossed are those the vertex would cross flipping its way there.
pub(super) fn walk<S: Surface, R: WalkRead>(
    surface: &S,
    mesh: &R,
    positions: &[DVec3],
    v: Vertex,
    link: [Edge; 3],
    limit: usize,
) -> Walked {
    let p = positions[v.index()];
    let mut rng = crate::locate::Xorshift(v.raw() ^ 0x2545_f491);
    let corners = |outer: [Edge; 3]| outer.map(|e| positions[mesh.origin(e).index()]);
    let (mut outer, mut came) = (link, Edge::INVALID);
    // The positions of the corners `origin(outer[i])`: edge `i` runs from corner `i` to
    // corner `i + 1`. A step across an edge keeps its two ends, so only the new triangle's
    // third corner is read (the walk is memory-bound: one position and one origin per step).
    let mut at = corners(link);
    for _ in 0..limit {
        let start = rng.next3();
        let mut side = [1.0f64; 3];
        let mut crossed = None;
        for k in 0..3 {
            let i = (start + k) % 3;
            if outer[i] == came {
                continue;
            }
            let o = surface.orient(at[i], at[(i + 1) % 3], p);
            if o < 0.0 {
                crossed = Some(i);
                break;
            }
            side[i] = o;
        }
        let Some(i) = crossed else {
            return Walked::Landed(outer, side);
        };
        let e = outer[i];
        if !mesh.has_right(e) {
            return Walked::Outside;
        }
        // Beyond e: v's own triangle again (its faces stand for it), or a face of the mesh.
        came = e.sym();
        if link.contains(&came) {
            outer = link;
            at = corners(link);
        } else {
            let Some((next, after, third)) = mesh.beyond(e) else {
                return Walked::Stopped;
            };
            at = [at[(i + 1) % 3], at[i], positions[third.index()]];
            outer = [came, next, after];
        }
    }
    Walked::Stopped
}
