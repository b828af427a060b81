//! Id allocation and release: new elements take ids from the per-kind free lists (LIFO) or
//! are appended; removed ones are marked dead and pushed on the lists. Also the ring helpers
//! that construction and edits share.

use crate::mesh::DEAD_VERTEX;
use crate::undo::Target;
use crate::{Edge, Face, Mesh, Vertex};

impl Mesh {
    /// Clockwise predecessor of primal edge `e` in its origin ring, found by walking the ring
    /// (valid even while the dual rings are being rebuilt).
    #[inline]
    pub(crate) fn ring_prev(&self, e: Edge) -> Edge {
        let mut p = e;
        loop {
            let n = self.primal_next[p.index()];
            if n == e {
                return p;
            }
            p = n;
        }
    }

    /// Recomputes the dual `origin_next` of every edge in the primal ring that contains `e`:
    /// `onext(rot(x)) = inv_rot(oprev(x))`, so the dual rings follow from the primal ones.
    #[inline]
    pub(crate) fn refresh_dual_ring<const LOG: bool>(&mut self, e: Edge) {
        let mut prev = e;
        loop {
            let cur = self.primal_next[prev.index()];
            self.set_dual_next::<LOG>(cur.index(), Edge::dual((prev.index() ^ 1) as u32));
            if cur == e {
                break;
            }
            prev = cur;
        }
    }

    /// Takes a vertex id from the free list or appends one.
    pub(crate) fn alloc_vertex<const LOG: bool>(&mut self) -> Vertex {
        self.set_live::<LOG>(Target::FreeVertices, self.live_vertices + 1);
        if let Some(i) = self.pop_free::<LOG>(Target::FreeVertices) {
            self.set_vertex_edge::<LOG>(i as usize, Edge::INVALID);
            Vertex::new(i)
        } else {
            self.push_vertex_edge::<LOG>(Edge::INVALID);
            Vertex::new(self.vertex_edge.len() as u32 - 1)
        }
    }

    /// Takes a face id from the free list or appends one.
    pub(crate) fn alloc_face<const LOG: bool>(&mut self, edge: Edge) -> Face {
        self.set_live::<LOG>(Target::FreeFaces, self.live_faces + 1);
        if let Some(i) = self.pop_free::<LOG>(Target::FreeFaces) {
            self.set_face_edge::<LOG>(i as usize, edge);
            Face::new(i)
        } else {
            self.push_face_edge::<LOG>(edge);
            Face::new(self.face_edge.len() as u32 - 1)
        }
    }

    /// Takes a quad-edge from the free list or appends one; returns its base primal edge
    /// `a → b`. Rings are left as self-loops and faces as holes for the caller to wire.
    pub(crate) fn alloc_quad<const LOG: bool>(&mut self, a: Vertex, b: Vertex) -> Edge {
        self.set_live::<LOG>(Target::FreeQuads, self.live_quads + 1);
        // A lone edge: onext(e) = e, onext(rot e) = inv_rot(e).
        if let Some(q) = self.pop_free::<LOG>(Target::FreeQuads) {
            let e = Edge::of_quad(q);
            let i = e.index();
            self.set_primal_origin::<LOG>(i, a);
            self.set_primal_origin::<LOG>(i + 1, b);
            self.set_primal_next::<LOG>(i, e);
            self.set_primal_next::<LOG>(i + 1, e.sym());
            self.set_dual_origin::<LOG>(i, Face::INVALID);
            self.set_dual_origin::<LOG>(i + 1, Face::INVALID);
            self.set_dual_next::<LOG>(i, Edge::dual(i as u32 + 1));
            self.set_dual_next::<LOG>(i + 1, Edge::dual(i as u32));
            e
        } else {
            let e = Edge::primal(self.primal_origin.len() as u32);
            let i = e.index();
            self.push_primal_origin::<LOG>(a);
            self.push_primal_origin::<LOG>(b);
            self.push_primal_next::<LOG>(e);
            self.push_primal_next::<LOG>(e.sym());
            self.push_dual_origin::<LOG>(Face::INVALID);
            self.push_dual_origin::<LOG>(Face::INVALID);
            self.push_dual_next::<LOG>(Edge::dual(i as u32 + 1));
            self.push_dual_next::<LOG>(Edge::dual(i as u32));
            e
        }
    }

    /// Can `n` new vertices get ids (free ones first)? Ids stay below the dead-vertex marker.
    pub(crate) fn can_alloc_vertices(&self, n: usize) -> bool {
        let fresh = n.saturating_sub(self.free_vertices.len());
        self.vertex_edge.len().saturating_add(fresh) < DEAD_VERTEX.raw() as usize
    }

    /// Can `n` new faces get ids (free ones first)? Ids stay below `Face::INVALID`.
    pub(crate) fn can_alloc_faces(&self, n: usize) -> bool {
        let fresh = n.saturating_sub(self.free_faces.len());
        self.face_edge.len().saturating_add(fresh) < u32::MAX as usize
    }

    /// How many quad-edges `n` new ones would need beyond the free list, checked against the
    /// 31-bit index space.
    pub(crate) fn can_alloc_quads(&self, n: usize) -> bool {
        let fresh = n.saturating_sub(self.free_quads.len());
        fresh <= crate::ids::MAX_DIRECTED_EDGES / 2
            && self.primal_origin.len() + 2 * fresh <= crate::ids::MAX_DIRECTED_EDGES
    }

    /// Marks quad-edge `e` dead and pushes it on the free list.
    pub(crate) fn free_quad<const LOG: bool>(&mut self, e: Edge) {
        let i = e.index() & !1;
        for j in [i, i + 1] {
            self.set_primal_origin::<LOG>(j, Vertex::INVALID);
            self.set_primal_next::<LOG>(j, Edge::INVALID);
            self.set_dual_origin::<LOG>(j, Face::INVALID);
            self.set_dual_next::<LOG>(j, Edge::INVALID);
        }
        self.push_free::<LOG>(Target::FreeQuads, (i / 2) as u32);
        self.set_live::<LOG>(Target::FreeQuads, self.live_quads - 1);
    }

    /// Marks face `f` dead and pushes it on the free list.
    pub(crate) fn free_face<const LOG: bool>(&mut self, f: Face) {
        self.set_face_edge::<LOG>(f.index(), Edge::INVALID);
        self.push_free::<LOG>(Target::FreeFaces, f.raw());
        self.set_live::<LOG>(Target::FreeFaces, self.live_faces - 1);
    }

    /// Marks vertex `v` dead and pushes it on the free list.
    pub(crate) fn free_vertex<const LOG: bool>(&mut self, v: Vertex) {
        self.set_vertex_edge::<LOG>(v.index(), DEAD_VERTEX);
        self.push_free::<LOG>(Target::FreeVertices, v.raw());
        self.set_live::<LOG>(Target::FreeVertices, self.live_vertices - 1);
    }
}
