//! Fans: the runs of faces around a vertex between two holes, and the vertex split that gives
//! each fan its own vertex.
//!
//! A vertex ring walks its outgoing edges counter-clockwise; the wedge after edge `x` is the
//! face on the left of `x`. A *gap* is an edge with a hole on its left, and a *fan* runs from
//! the edge after a gap up to the next gap. An interior vertex has no gap, a manifold boundary
//! vertex exactly one; stitching keeps every vertex at one fan at most, and the edits that
//! could leave several ([`Mesh::disconnect_edge`], [`Mesh::remove_face`]) split the vertex.

use crate::journal::{Change, VertexSplitRecord};
use crate::{Edge, Mesh, Vertex};

impl Mesh {
    /// Number of gaps (holes between two consecutive edges) in the ring of primal edge `e`'s
    /// origin; 0 for an interior vertex, 1 for a manifold boundary vertex.
    pub(crate) fn ring_gaps(&self, e: Edge) -> usize {
        let mut n = 0;
        let mut x = e;
        loop {
            if !self.left(x).is_valid() {
                n += 1;
            }
            x = self.onext(x);
            if x == e {
                return n;
            }
        }
    }

    /// The first edge (counter-clockwise) of the fan holding `e`: the edge after the gap
    /// clockwise of `e`; `e` itself on an interior vertex. PathEngine's "leftmost" start edge.
    pub(crate) fn fan_first(&self, e: Edge) -> Edge {
        let mut x = e;
        loop {
            let p = self.oprev(x);
            if !self.left(p).is_valid() {
                return x;
            }
            x = p;
            if x == e {
                return e;
            }
        }
    }

    /// Number of fans of `v` (its gaps), or 0 for an interior or isolated vertex.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, Vertex, shapes};
    /// let (n, t) = shapes::disk(6);
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// assert_eq!(m.fan_count(Vertex::new(0)), 0);
    /// assert_eq!(m.fan_count(Vertex::new(1)), 1);
    /// m.remove_face(Face::new(0)).unwrap();
    /// assert_eq!(m.fan_count(Vertex::new(0)), 1);
    /// ```
    pub fn fan_count(&self, v: Vertex) -> usize {
        if !self.is_vertex_alive(v) {
            return 0;
        }
        let e = self.vertex_edge(v);
        if e.is_valid() { self.ring_gaps(e) } else { 0 }
    }

    /// Gives every fan of `v` but the one holding `keep` a new vertex of its own (one
    /// [`Change::VertexSplit`] each) and points `v` at the first edge of its fan. The caller
    /// has checked that the new vertex ids fit ([`Mesh::can_alloc_vertices`]).
    pub(crate) fn split_fans<const LOG: bool>(&mut self, v: Vertex, keep: Edge) {
        if self.ring_gaps(keep) == 0 {
            return;
        }
        let first = self.fan_first(keep);
        if self.vertex_edge[v.index()] != first {
            self.set_vertex_edge::<LOG>(v.index(), first);
        }
        let mut start = first;
        loop {
            let mut gap = start;
            while self.left(gap).is_valid() {
                gap = self.onext(gap);
            }
            let next = self.onext(gap);
            if next == first {
                if start != first {
                    // The last fan is closed into its own ring below; the kept one ends here.
                    self.give_fan_a_vertex::<LOG>(v, start, gap);
                }
                break;
            }
            if start == first {
                // Close the kept fan's ring once the others are cut off: remember its gap.
                self.set_next::<LOG>(gap, first);
            } else {
                self.give_fan_a_vertex::<LOG>(v, start, gap);
            }
            start = next;
        }
    }

    /// Moves the fan `start ..= gap` (counter-clockwise) of `v` to a new vertex, closing its
    /// ring.
    fn give_fan_a_vertex<const LOG: bool>(&mut self, v: Vertex, start: Edge, gap: Edge) {
        let w = self.alloc_vertex::<LOG>();
        let mut x = start;
        loop {
            self.set_primal_origin::<LOG>(x.index(), w);
            if x == gap {
                break;
            }
            x = self.onext(x);
        }
        self.set_next::<LOG>(gap, start);
        self.set_vertex_edge::<LOG>(w.index(), start);
        self.log(|| Change::VertexSplit(VertexSplitRecord { from: v, vertex: w }));
    }
}
