//! What a removal's plan reads of a star, from the whole mesh or from a part of it.

use glam::DVec3;
use quadedge::{Edge, Mesh, MeshPart, Vertex};

/// The reads of [`super::plan_removal`]: a vertex's ring, the faces beside it, and whether
/// two corners are joined.
pub(super) trait StarRead {
    /// The ring's first edge out of `v` ([`Mesh::vertex_edge`]), [`Edge::INVALID`] when
    /// there is none (or none this reader may read).
    fn first_out(&self, v: Vertex) -> Edge;
    fn onext(&self, e: Edge) -> Edge;
    fn dest(&self, e: Edge) -> Vertex;
    /// [`Mesh::left_next`].
    fn lnext(&self, e: Edge) -> Edge;
    /// Is there a face left of `e`?
    fn has_left(&self, e: Edge) -> bool;
    /// Does an edge join `a` to `b`?
    fn joined(&self, a: Vertex, b: Vertex) -> bool;
    /// May the plan go on past the spoke `e` out of the vertex, whose destination lies at
    /// `p`? Always on the whole mesh; in a part (on a closed surface: no boundary), when it
    /// owns the destination and `p` is finite.
    fn may_plan(&self, e: Edge, p: DVec3) -> bool;
}

impl StarRead for Mesh {
    #[inline]
    fn first_out(&self, v: Vertex) -> Edge {
        self.vertex_edge(v)
    }
    #[inline]
    fn onext(&self, e: Edge) -> Edge {
        self.origin_next(e)
    }
    #[inline]
    fn dest(&self, e: Edge) -> Vertex {
        Mesh::dest(self, e)
    }
    #[inline]
    fn lnext(&self, e: Edge) -> Edge {
        self.left_next(e)
    }
    #[inline]
    fn has_left(&self, e: Edge) -> bool {
        self.left(e).is_valid()
    }
    #[inline]
    fn joined(&self, a: Vertex, b: Vertex) -> bool {
        self.find_edge(a, b).is_some()
    }
    #[inline(always)]
    fn may_plan(&self, _: Edge, _: DVec3) -> bool {
        true
    }
}

/// A part reads the rings of the vertices it owns: it plans only a vertex it owns, and
/// [`StarRead::may_plan`] stops at the first neighbour it does not own.
impl<O: Fn(Vertex) -> u8 + Sync> StarRead for MeshPart<'_, O> {
    #[inline]
    fn first_out(&self, v: Vertex) -> Edge {
        self.vertex_edge(v).unwrap_or(Edge::INVALID)
    }
    #[inline]
    fn onext(&self, e: Edge) -> Edge {
        self.origin_next(e)
    }
    #[inline]
    fn dest(&self, e: Edge) -> Vertex {
        MeshPart::dest(self, e)
    }
    #[inline]
    fn lnext(&self, e: Edge) -> Edge {
        self.origin_prev(e.sym())
    }
    #[inline]
    fn has_left(&self, e: Edge) -> bool {
        self.left(e).is_valid()
    }
    #[inline]
    fn may_plan(&self, e: Edge, p: DVec3) -> bool {
        self.owns(MeshPart::dest(self, e)) && p.is_finite()
    }
    fn joined(&self, a: Vertex, b: Vertex) -> bool {
        let Some(first) = self.vertex_edge(a) else {
            // Not owned: the caller owns every corner it asks about.
            return false;
        };
        let mut e = first;
        loop {
            if MeshPart::dest(self, e) == b {
                return true;
            }
            e = self.origin_next(e);
            if e == first {
                return false;
            }
        }
    }
}
