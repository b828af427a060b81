//! Dynamic construction by stitching, after PathEngine's `addTri` / `connectEdges` /
//! `disconnectEdges`: free triangles with their own vertices, boundary edges glued into one
//! interior edge (merging the vertices that meet), interior edges cut apart again (splitting
//! the vertices that come apart). Vertex connectivity is right after every call: there is no
//! initialisation pass.
//!
//! A boundary *half-edge* here is a primal edge with its face on the left and a hole on the
//! right, the quad-edge counterpart of a half-edge without a twin.

use crate::journal::{Change, StitchRecord, UnstitchRecord};
use crate::{Edge, Face, Mesh, MeshError, Vertex};

/// How one end of a stitch is wired: edge `keep` takes the place of edge `gone` in `gone`'s
/// origin ring, whose vertex `merged` (when not `keep`'s origin already) is merged away.
#[derive(Clone, Copy)]
struct End {
    keep: Edge,
    gone: Edge,
    survivor: Vertex,
    merged: Vertex,
}

impl Mesh {
    /// Adds a triangle with three new vertices of its own (ids from the free lists first),
    /// counter-clockwise in the order of [`Mesh::face_vertices`]. Logs one
    /// [`Change::VerticesAdded`] per vertex, then what [`Mesh::add_face`] logs.
    ///
    /// # Errors
    /// [`MeshError::TooManyElements`] when the id spaces are full, changing nothing.
    ///
    /// PathEngine's square: two free triangles stitched along one edge, 6 vertices created and
    /// 2 of them merged away, vertex connectivity right at once.
    ///
    /// ```
    /// use quadedge::Mesh;
    /// let mut m = Mesh::new();
    /// let f1 = m.add_free_triangle().unwrap();
    /// let f2 = m.add_free_triangle().unwrap();
    /// let e1 = m.face_edges(f1)[2]; // prev(first edge of f1): v2 -> v0
    /// let e2 = m.face_edges(f2)[1]; // next(first edge of f2): v4 -> v5
    /// m.connect_edges(e1, e2).unwrap();
    /// assert_eq!((m.vertex_count(), m.vertex_slots() - m.vertex_count()), (4, 2));
    /// // The first edge of vertex 2's fan is f2's third edge, which started at v5.
    /// assert_eq!(m.vertex_edge(quadedge::Vertex::new(2)), m.face_edges(f2)[2]);
    /// m.check().unwrap();
    /// m.disconnect_edge(e1).unwrap();
    /// assert_eq!(m.vertex_count(), 6);
    /// m.check().unwrap();
    /// ```
    pub fn add_free_triangle(&mut self) -> Result<Face, MeshError> {
        if self.undo.rec.is_some() {
            self.add_free_triangle_with::<true>()
        } else {
            self.add_free_triangle_with::<false>()
        }
    }

    fn add_free_triangle_with<const LOG: bool>(&mut self) -> Result<Face, MeshError> {
        if !self.can_alloc_vertices(3) || !self.can_alloc_quads(3) || !self.can_alloc_faces(1) {
            return Err(MeshError::TooManyElements);
        }
        let vs = [(); 3].map(|_| {
            let v = self.alloc_vertex::<LOG>();
            self.log(|| Change::VerticesAdded { first: v, count: 1 });
            v
        });
        // Three fresh, distinct, isolated vertices and room for the ids: cannot fail.
        self.add_face_with::<LOG>(vs[0], vs[1], vs[2])
    }

    /// Stitches boundary half-edge `b` onto boundary half-edge `a`: afterwards `a` has `b`'s
    /// face on its right, `b`'s quad-edge is gone, and `b`'s endpoints are merged into `a`'s
    /// (`b`'s destination into `a`'s origin, `b`'s origin into `a`'s destination) where they
    /// differ; the merged-away vertices are marked dead. Returns `a`. Logs
    /// [`Change::Stitch`].
    ///
    /// Both edges must have a face on the left and a hole on the right. The merge must keep
    /// every vertex manifold: two different vertices merge only when both are boundary
    /// vertices of a single fan, and a vertex stitched to itself only closes the hole between
    /// the two edges (zipping).
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadEdge`], [`MeshError::WrongEdgeKind`],
    /// [`MeshError::SameEdge`], [`MeshError::NotBoundaryEdge`] (faces on both sides: already
    /// stitched), [`MeshError::WrongOrientation`] (face on the right: pass `sym()`),
    /// [`MeshError::NonManifoldVertex`], [`MeshError::WouldDuplicateEdge`] (the merge would
    /// join two vertices twice or make a loop).
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError};
    /// let mut m = Mesh::new();
    /// let f = m.add_free_triangle().unwrap();
    /// let [e0, e1, _] = m.face_edges(f);
    /// // Two edges of one triangle: the merge would fold the third edge into a loop.
    /// assert!(matches!(m.connect_edges(e0, e1), Err(MeshError::WouldDuplicateEdge { .. })));
    /// assert_eq!(m.connect_edges(e0, e0), Err(MeshError::SameEdge(e0)));
    /// assert_eq!(m.connect_edges(e0.sym(), e1), Err(MeshError::WrongOrientation(e0.sym())));
    /// ```
    pub fn connect_edges(&mut self, a: Edge, b: Edge) -> Result<Edge, MeshError> {
        if self.undo.rec.is_some() {
            self.connect_edges_with::<true, true>(a, b)
        } else {
            self.connect_edges_with::<false, true>(a, b)
        }
    }

    /// Stitches every pair `(a, b)` as [`Mesh::connect_edges`] would, in order, all or
    /// nothing. The graph need only be simple once all pairs are stitched: closing the last
    /// hole of a surface stitches two pairs whose edges, with only one of them stitched, would
    /// form a slit (two edges between the same two vertices), which one call cannot do.
    ///
    /// # Errors
    /// The first error of a pair (as [`Mesh::connect_edges`], except that
    /// [`MeshError::WouldDuplicateEdge`] is only reported for the graph at the end), with the
    /// mesh and the journal as they were.
    ///
    /// ```
    /// use quadedge::{Mesh, shapes};
    /// // An octahedron from eight free triangles, all twelve edges stitched in one call.
    /// let (_, tris) = shapes::octahedron();
    /// let mut m = Mesh::new();
    /// let mut half = std::collections::BTreeMap::new();
    /// for t in &tris {
    ///     let f = m.add_free_triangle().unwrap();
    ///     for (k, e) in m.face_edges(f).into_iter().enumerate() {
    ///         half.insert((t[k], t[(k + 1) % 3]), e);
    ///     }
    /// }
    /// let pairs: Vec<_> = half.iter().filter(|((u, v), _)| u < v)
    ///     .map(|(&(u, v), &e)| (e, half[&(v, u)])).collect();
    /// m.connect_edge_pairs(&pairs).unwrap();
    /// assert_eq!((m.vertex_count(), m.face_count()), (6, 8));
    /// assert!(m.is_closed());
    /// m.check().unwrap();
    /// ```
    pub fn connect_edge_pairs(&mut self, pairs: &[(Edge, Edge)]) -> Result<(), MeshError> {
        self.atomically(|m| {
            for &(a, b) in pairs {
                m.connect_edges_with::<true, false>(a, b)?;
            }
            for &(a, _) in pairs {
                m.simple_ring(a)?;
                m.simple_ring(a.sym())?;
            }
            Ok(())
        })
    }

    /// No two edges of the origin ring of `e` end at the same vertex.
    fn simple_ring(&self, e: Edge) -> Result<(), MeshError> {
        let v = self.origin(e);
        let mut around: Vec<u32> = self.ring(e).map(|x| self.dest(x).raw()).collect();
        around.sort_unstable();
        match around.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(MeshError::WouldDuplicateEdge {
                from: v,
                to: Vertex::new(w[0]),
            }),
            None => Ok(()),
        }
    }

    fn connect_edges_with<const LOG: bool, const SIMPLE: bool>(
        &mut self,
        a: Edge,
        b: Edge,
    ) -> Result<Edge, MeshError> {
        for e in [a, b] {
            self.boundary_half_edge(e)?;
        }
        if a == b {
            return Err(MeshError::SameEdge(a));
        }
        let (oa, ob) = (self.origin(a), self.origin(b));
        if oa == ob || self.dest(a) == self.dest(b) {
            // Both ends of `a` would merge into one vertex.
            return Err(MeshError::WouldDuplicateEdge { from: oa, to: oa });
        }
        // Origin side: `a` replaces `b.sym()`; destination side: `a.sym()` replaces `b`.
        let ends = [
            End {
                keep: a,
                gone: b.sym(),
                survivor: self.origin(a),
                merged: self.dest(b),
            },
            End {
                keep: a.sym(),
                gone: b,
                survivor: self.dest(a),
                merged: self.origin(b),
            },
        ];
        let rename = |v: Vertex| {
            if v == ends[0].merged {
                ends[0].survivor
            } else if v == ends[1].merged {
                ends[1].survivor
            } else {
                v
            }
        };
        for end in ends {
            self.check_stitch_end(end, &rename, SIMPLE)?;
        }

        // Writes: nothing below can fail.
        let fb = self.left(b);
        // Origin side: b.sym()'s predecessor now leads to a; a's predecessor to b.sym()'s
        // successor (unless that is a itself: the hole closes).
        let [o, d] = ends;
        let (p, n, q) = (self.oprev(o.gone), self.onext(o.gone), self.oprev(o.keep));
        // Destination side: a.sym() leads to b's successor; b's predecessor to a.sym()'s old
        // successor (unless that is b itself).
        let (r1, rz, m1) = (self.onext(d.gone), self.oprev(d.gone), self.onext(d.keep));
        self.set_next::<LOG>(p, o.keep);
        if q != o.gone {
            self.set_next::<LOG>(q, n);
        }
        self.set_next::<LOG>(d.keep, r1);
        if rz != d.keep {
            self.set_next::<LOG>(rz, m1);
        }
        self.set_dual_origin::<LOG>(a.index(), fb);
        if self.face_edge[fb.index()].quad() == b.quad() {
            self.set_face_edge::<LOG>(fb.index(), a.sym());
        }
        let mut removed = [Vertex::INVALID; 2];
        for (k, end) in ends.iter().enumerate() {
            if end.merged != end.survivor {
                self.relabel_ring::<LOG>(end.keep, end.survivor);
                self.free_vertex::<LOG>(end.merged);
                removed[k] = end.merged;
            }
            let first = self.fan_first(end.keep);
            if self.vertex_edge[end.survivor.index()] != first {
                self.set_vertex_edge::<LOG>(end.survivor.index(), first);
            }
        }
        self.free_quad::<LOG>(b);
        self.log(|| {
            Change::Stitch(StitchRecord {
                edge: a,
                removed_edge: b.base(),
                removed,
            })
        });
        Ok(a)
    }

    /// Validates a boundary half-edge: live, primal, face on the left, hole on the right.
    fn boundary_half_edge(&self, e: Edge) -> Result<(), MeshError> {
        self.live_primal(e)?;
        match (self.left(e).is_valid(), self.right(e).is_valid()) {
            (true, false) => Ok(()),
            (false, true) => Err(MeshError::WrongOrientation(e)),
            _ => Err(MeshError::NotBoundaryEdge(e)),
        }
    }

    /// Would stitching keep this end's vertex manifold and the graph simple? With `simple`
    /// off, only loops are refused (a batch may pass through parallel edges).
    fn check_stitch_end(
        &self,
        end: End,
        rename: &impl Fn(Vertex) -> Vertex,
        simple: bool,
    ) -> Result<(), MeshError> {
        let v = end.survivor;
        if end.merged == v {
            // One ring already: only the hole between the two edges may close.
            if end.keep != self.across_hole(end) || self.ring_gaps(end.keep) > 2 {
                return Err(MeshError::NonManifoldVertex(v));
            }
        } else if self.ring_gaps(end.keep) != 1 || self.ring_gaps(end.gone) != 1 {
            let bad = if self.ring_gaps(end.keep) != 1 {
                v
            } else {
                end.merged
            };
            return Err(MeshError::NonManifoldVertex(bad));
        }
        // Neighbours after the merge, `gone` left out: no loop, nothing twice.
        let mut around: Vec<u32> = Vec::new();
        let rings = if end.merged == v { 1 } else { 2 };
        for start in [end.keep, end.gone].into_iter().take(rings) {
            for x in self.ring(start) {
                if x != end.gone {
                    around.push(rename(self.dest(x)).raw());
                }
            }
        }
        around.sort_unstable();
        for w in around.windows(2) {
            if simple && w[0] == w[1] {
                let to = Vertex::new(w[0]);
                return Err(MeshError::WouldDuplicateEdge { from: v, to });
            }
        }
        if around.binary_search(&v.raw()).is_ok() {
            return Err(MeshError::WouldDuplicateEdge { from: v, to: v });
        }
        Ok(())
    }

    /// For an end whose two edges share a vertex: the edge across the hole next to `gone`
    /// (after it on the origin side, before it on the destination side), which must be `keep`
    /// for the stitch to close exactly that hole.
    fn across_hole(&self, end: End) -> Edge {
        if self.left(end.gone).is_valid() {
            // `gone` has its face on the left: the hole is clockwise of it.
            self.oprev(end.gone)
        } else {
            self.onext(end.gone)
        }
    }

    /// Sets the origin of every edge in the ring of `e` to `v`.
    fn relabel_ring<const LOG: bool>(&mut self, e: Edge, v: Vertex) {
        let mut x = e;
        loop {
            if self.primal_origin[x.index()] != v {
                self.set_primal_origin::<LOG>(x.index(), v);
            }
            x = self.onext(x);
            if x == e {
                break;
            }
        }
    }

    /// Cuts interior edge `e` apart: `e` keeps its left face and gets a hole on its right, a
    /// new edge (returned) runs the other way with the former right face on its left. An end
    /// that was a boundary vertex comes apart in two fans and is split: the fan on the new
    /// edge's side moves to a new vertex. Logs [`Change::Unstitch`], then one
    /// [`Change::VertexSplit`] per split end.
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadEdge`], [`MeshError::WrongEdgeKind`],
    /// [`MeshError::BoundaryEdge`] (no face on one side), [`MeshError::WouldDuplicateEdge`]
    /// when both ends are interior vertices (the cut would leave two edges between them, a
    /// slit this simple-graph mesh does not represent), [`MeshError::TooManyElements`].
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    /// let n = m.disconnect_edge(e).unwrap();
    /// assert_eq!((m.vertex_count(), m.undirected_edge_count()), (6, 6));
    /// assert!(m.is_boundary_edge(e) && m.is_boundary_edge(n));
    /// m.check().unwrap();
    /// assert_eq!(m.disconnect_edge(e), Err(MeshError::BoundaryEdge(e)));
    /// ```
    pub fn disconnect_edge(&mut self, e: Edge) -> Result<Edge, MeshError> {
        if self.undo.rec.is_some() {
            self.disconnect_edge_with::<true>(e)
        } else {
            self.disconnect_edge_with::<false>(e)
        }
    }

    fn disconnect_edge_with<const LOG: bool>(&mut self, e: Edge) -> Result<Edge, MeshError> {
        self.live_primal(e)?;
        if self.is_boundary_edge(e) {
            return Err(MeshError::BoundaryEdge(e));
        }
        let (a, b) = (self.origin(e), self.dest(e));
        let (ga, gb) = (self.ring_gaps(e), self.ring_gaps(e.sym()));
        if ga == 0 && gb == 0 {
            return Err(MeshError::WouldDuplicateEdge { from: a, to: b });
        }
        if !self.can_alloc_quads(1) || !self.can_alloc_vertices(ga + gb) {
            return Err(MeshError::TooManyElements);
        }
        let fr = self.right(e);
        let n = self.alloc_quad::<LOG>(b, a);
        // At a: p, n.sym(), [hole], e. At b: e.sym(), [hole], n, old successor.
        let p = self.oprev(e);
        let after = self.onext(e.sym());
        self.set_next::<LOG>(p, n.sym());
        self.set_next::<LOG>(n.sym(), e);
        self.set_next::<LOG>(n, after);
        self.set_next::<LOG>(e.sym(), n);
        self.set_dual_origin::<LOG>(e.index(), Face::INVALID);
        self.set_dual_origin::<LOG>(n.index() ^ 1, fr);
        if self.face_edge[fr.index()] == e.sym() {
            self.set_face_edge::<LOG>(fr.index(), n);
        }
        self.log(|| {
            Change::Unstitch(UnstitchRecord {
                edge: e,
                new_edge: n,
            })
        });
        self.split_fans::<LOG>(a, e);
        self.split_fans::<LOG>(b, e.sym());
        Ok(n)
    }
}
