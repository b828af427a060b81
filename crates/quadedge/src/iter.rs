//! Allocation-free iterators over rings and over all live elements.

use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, Vertex};

/// Edges leaving one vertex (or one face, for dual rings), counter-clockwise or clockwise.
#[derive(Clone)]
pub struct Ring<'m> {
    mesh: &'m Mesh,
    /// The `origin_next` array of the ring's kind (primal or dual), chosen once up front so
    /// the counter-clockwise step is a single load.
    ring_next: &'m [Edge],
    start: Edge,
    next: Edge,
    clockwise: bool,
}

impl<'m> Ring<'m> {
    fn new(mesh: &'m Mesh, start: Edge, clockwise: bool) -> Self {
        let ring_next = if start.is_dual() {
            &mesh.dual_next
        } else {
            &mesh.primal_next
        };
        Self {
            mesh,
            ring_next,
            start,
            next: start,
            clockwise,
        }
    }
}

impl Iterator for Ring<'_> {
    type Item = Edge;

    #[inline]
    fn next(&mut self) -> Option<Edge> {
        let e = self.next;
        if !e.is_valid() {
            return None;
        }
        let n = if self.clockwise {
            self.mesh.origin_prev(e)
        } else {
            // Same kind as `start`: every edge of a ring shares its primal/dual kind.
            self.ring_next[e.index()]
        };
        self.next = if n == self.start { Edge::INVALID } else { n };
        Some(e)
    }
}

impl core::iter::FusedIterator for Ring<'_> {}

/// Neighbour vertices of a vertex, counter-clockwise.
///
/// Walks the primal arrays directly (no primal/dual dispatch per step): this is the hot loop
/// of most generators, and each step is one dependent load, so every instruction saved counts.
#[derive(Clone)]
pub struct Neighbors<'m> {
    next: &'m [Edge],
    origin: &'m [Vertex],
    start: Edge,
    cur: Edge,
}

impl Iterator for Neighbors<'_> {
    type Item = Vertex;
    #[inline]
    fn next(&mut self) -> Option<Vertex> {
        let e = self.cur;
        if !e.is_valid() {
            return None;
        }
        let i = e.index();
        let n = self.next[i];
        self.cur = if n == self.start { Edge::INVALID } else { n };
        Some(self.origin[i ^ 1])
    }
}

impl core::iter::FusedIterator for Neighbors<'_> {}

/// Faces around a vertex counter-clockwise (the corners of its Voronoi cell); holes skipped.
#[derive(Clone)]
pub struct VertexFaces<'m>(Ring<'m>);

impl Iterator for VertexFaces<'_> {
    type Item = Face;
    #[inline]
    fn next(&mut self) -> Option<Face> {
        loop {
            let e = self.0.next()?;
            let f = self.0.mesh.left(e);
            if f.is_valid() {
                return Some(f);
            }
        }
    }
}

/// All live vertices in id order. Its length is known (the live count), holes or not.
#[derive(Clone)]
pub struct Vertices<'m> {
    slots: core::iter::Enumerate<core::slice::Iter<'m, Edge>>,
    /// Live vertices not yet yielded.
    remaining: usize,
}

impl Iterator for Vertices<'_> {
    type Item = Vertex;
    #[inline]
    fn next(&mut self) -> Option<Vertex> {
        let v = self
            .slots
            .find(|(_, e)| **e != DEAD_VERTEX)
            .map(|(i, _)| Vertex::new(i as u32));
        self.remaining = if v.is_some() {
            self.remaining.saturating_sub(1)
        } else {
            0
        };
        v
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Vertices<'_> {}
impl core::iter::FusedIterator for Vertices<'_> {}

/// All live faces in id order. Its length is known (the live count), holes or not.
#[derive(Clone)]
pub struct Faces<'m> {
    slots: core::iter::Enumerate<core::slice::Iter<'m, Edge>>,
    /// Live faces not yet yielded.
    remaining: usize,
}

impl Iterator for Faces<'_> {
    type Item = Face;
    #[inline]
    fn next(&mut self) -> Option<Face> {
        let f = self
            .slots
            .find(|(_, e)| e.is_valid())
            .map(|(i, _)| Face::new(i as u32));
        self.remaining = if f.is_some() {
            self.remaining.saturating_sub(1)
        } else {
            0
        };
        f
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Faces<'_> {}
impl core::iter::FusedIterator for Faces<'_> {}

/// All live primal directed edges (both directions), or the base edge of each live
/// quad-edge, in id order. Its length is known (from the live count), holes or not.
#[derive(Clone)]
pub struct Edges<'m> {
    origins: &'m [Vertex],
    i: usize,
    step: usize,
    /// Edges not yet yielded.
    remaining: usize,
}

impl Iterator for Edges<'_> {
    type Item = Edge;
    #[inline]
    fn next(&mut self) -> Option<Edge> {
        while self.i < self.origins.len() {
            let i = self.i;
            self.i += self.step;
            if self.origins[i & !1].is_valid() {
                self.remaining = self.remaining.saturating_sub(1);
                return Some(Edge::primal(i as u32));
            }
        }
        self.remaining = 0;
        None
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Edges<'_> {}
impl core::iter::FusedIterator for Edges<'_> {}

impl Mesh {
    /// Outgoing primal edges of `v`, counter-clockwise. Empty for an isolated vertex.
    ///
    /// On a boundary vertex the ring also passes the gap: the edge with the hole on its left
    /// is followed by the edge with the hole on its right.
    #[inline]
    pub fn outgoing(&self, v: Vertex) -> Ring<'_> {
        Ring::new(self, self.vertex_edge(v), false)
    }

    /// Outgoing primal edges of `v`, clockwise.
    #[inline]
    pub fn outgoing_cw(&self, v: Vertex) -> Ring<'_> {
        Ring::new(self, self.vertex_edge(v), true)
    }

    /// The ring of edges sharing the origin of `e` (primal or dual), counter-clockwise from `e`.
    #[inline]
    pub fn ring(&self, e: Edge) -> Ring<'_> {
        Ring::new(self, e, false)
    }

    /// Dual edges leaving face `f` counter-clockwise: each crosses one edge of the triangle,
    /// leading to the Voronoi corner of a neighbour face.
    #[inline]
    pub fn face_dual_edges(&self, f: Face) -> Ring<'_> {
        Ring::new(self, self.face_edge(f).rot(), false)
    }

    /// Neighbour vertices of `v`, counter-clockwise.
    #[inline]
    pub fn neighbors(&self, v: Vertex) -> Neighbors<'_> {
        let start = self.vertex_edge(v);
        Neighbors {
            next: &self.primal_next,
            origin: &self.primal_origin,
            start,
            cur: start,
        }
    }

    /// Faces around `v`, counter-clockwise: the Voronoi corners of the cell of `v`.
    #[inline]
    pub fn vertex_faces(&self, v: Vertex) -> VertexFaces<'_> {
        VertexFaces(self.outgoing(v))
    }

    /// Number of edges at `v`.
    #[inline]
    pub fn degree(&self, v: Vertex) -> usize {
        self.outgoing(v).count()
    }

    /// All live vertices, in id order.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// m.remove_face(Face::new(0)).unwrap();
    /// m.remove_vertex(Vertex::new(1)).unwrap();
    /// // Exact lengths, holes or not.
    /// assert_eq!(m.vertices().len(), 3);
    /// assert_eq!(m.faces().len(), 1);
    /// assert_eq!(m.undirected_edges().len(), 3);
    /// assert_eq!(m.directed_edges().len(), 6);
    /// ```
    #[inline]
    pub fn vertices(&self) -> Vertices<'_> {
        Vertices {
            slots: self.vertex_edge.iter().enumerate(),
            remaining: self.vertex_count(),
        }
    }

    /// All live faces, in id order.
    #[inline]
    pub fn faces(&self) -> Faces<'_> {
        Faces {
            slots: self.face_edge.iter().enumerate(),
            remaining: self.face_count(),
        }
    }

    /// All live primal directed edges (each undirected edge twice), in id order.
    #[inline]
    pub fn directed_edges(&self) -> Edges<'_> {
        Edges {
            origins: &self.primal_origin,
            i: 0,
            step: 1,
            remaining: self.directed_edge_count(),
        }
    }

    /// The base edge of every live quad-edge (each undirected edge once), in id order.
    #[inline]
    pub fn undirected_edges(&self) -> Edges<'_> {
        Edges {
            origins: &self.primal_origin,
            i: 0,
            step: 2,
            remaining: self.undirected_edge_count(),
        }
    }
}
