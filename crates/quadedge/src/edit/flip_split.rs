//! Flip and split of a primal edge.

use crate::journal::{Change, FlipRecord, SplitRecord};
use crate::undo::Write;
use crate::{Edge, Face, Mesh, MeshError, Vertex};

impl Mesh {
    // ---------------------------------------------------------------- flip

    /// Flips an interior edge: the diagonal `a → b` of the two triangles `(a, b, c)` (left) and
    /// `(b, a, d)` (right) becomes `d → c`.
    ///
    /// Any of the four edges of the quad-edge may be passed; a dual edge stands for the primal
    /// edge `e.rot()`. The quad-edge keeps its id and the returned primal edge points from `d` to
    /// `c` (the passed primal edge rotated counter-clockwise). Both faces keep their ids: the
    /// old left face becomes `(d, c, a)`, left of the returned edge, the old right face becomes
    /// `(c, d, b)`, right of it. Logs [`Change::Flip`].
    ///
    /// # Errors
    /// Changing nothing, naming the edge as passed: [`MeshError::DeadEdge`] for a dead edge,
    /// [`MeshError::BoundaryEdge`] for a boundary edge, [`MeshError::FlipWouldDuplicate`] when
    /// the opposite corners are already connected (or are the same vertex, on a pillow): the
    /// flip would make parallel edges.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError, Vertex};
    /// // A square 0-1-2-3 cut along 0-2.
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    /// let f = m.flip(e).unwrap();
    /// assert_eq!(f.quad(), e.quad());
    /// assert_eq!((m.origin(f), m.dest(f)), (Vertex::new(1), Vertex::new(3)));
    /// assert_eq!(m.find_edge(Vertex::new(0), Vertex::new(2)), None);
    /// m.check().unwrap();
    /// // Boundary edges cannot be flipped.
    /// let b = m.find_edge(Vertex::new(0), Vertex::new(1)).unwrap();
    /// assert_eq!(m.flip(b), Err(MeshError::BoundaryEdge(b)));
    /// ```
    pub fn flip(&mut self, edge: Edge) -> Result<Edge, MeshError> {
        if self.undo.rec.is_some() {
            self.flip_with::<true, true>(edge)
        } else {
            self.flip_with::<false, true>(edge)
        }
    }

    /// [`Mesh::flip`] for a caller that already knows the opposite corners `c` and `d` are not
    /// connected (for example because it tracks the star of the vertex the flip joins, as
    /// Delaunay insertion does): the walk around `c`'s ring that [`Mesh::flip`] makes to refuse
    /// parallel edges is skipped; every other check stays. Same result, ids and journal record
    /// as [`Mesh::flip`].
    ///
    /// Contract: when `c` and `d` are in fact connected, the flip is still made and the mesh
    /// gets two parallel edges, which [`Mesh::check`](crate::Mesh::check) reports (memory
    /// stays safe; debug builds assert instead).
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadEdge`], [`MeshError::BoundaryEdge`], and
    /// [`MeshError::FlipWouldDuplicate`] when `c == d` (a pillow), as for [`Mesh::flip`].
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    /// let mut twin = m.clone();
    /// // 1 and 3 are not connected: the known-fresh flip equals the checked one.
    /// assert_eq!(m.flip_fresh(e), twin.flip(e));
    /// assert_eq!(m, twin);
    /// m.check().unwrap();
    /// ```
    pub fn flip_fresh(&mut self, edge: Edge) -> Result<Edge, MeshError> {
        if self.undo.rec.is_some() {
            self.flip_with::<true, false>(edge)
        } else {
            self.flip_with::<false, false>(edge)
        }
    }

    /// [`Mesh::flip`], with the undo log (`LOG`) or without: one branch per edit, not per write;
    /// with the ring walk that refuses parallel edges (`RING`) or without.
    fn flip_with<const LOG: bool, const RING: bool>(
        &mut self,
        edge: Edge,
    ) -> Result<Edge, MeshError> {
        if !self.is_edge_alive(edge) {
            return Err(MeshError::DeadEdge(edge));
        }
        let e = if edge.is_dual() { edge.rot() } else { edge };
        let fl = self.left(e);
        let fr = self.right(e);
        if !fl.is_valid() || !fr.is_valid() {
            return Err(MeshError::BoundaryEdge(edge));
        }
        let es = e.sym();
        let ln = self.oprev(es); // b → c
        let lp = self.onext(e).sym(); // c → a
        let rn = self.oprev(e); // a → d
        let rp = self.onext(es).sym(); // d → b
        let a = self.primal_origin[e.index()];
        let b = self.primal_origin[es.index()];
        let c = self.primal_origin[lp.index()];
        let d = self.primal_origin[rp.index()];
        if c == d || (RING && self.ring_reaches(ln.sym(), lp, d)) {
            return Err(MeshError::FlipWouldDuplicate(edge));
        }
        debug_assert!(
            RING || !self.ring_reaches(ln.sym(), lp, d),
            "flip_fresh of {edge:?}: its opposite corners are connected"
        );

        if LOG {
            // One record stands for the flip's twenty writes: the rest of the old state is
            // read back off the flipped quad when it is undone (`Mesh::apply_unflip`).
            let moves = [
                self.vertex_edge[a.index()] == e,
                self.vertex_edge[b.index()] == es,
            ];
            let faces = [self.face_edge[fl.index()], self.face_edge[fr.index()]];
            self.record(Write::flip(e, faces, moves));
        }
        self.flip_writes(e, [ln, lp, rn, rp], [a, b], [fl, fr]);
        self.log_rewire(|| {
            Change::Flip(FlipRecord {
                edge: e,
                old: [a, b],
                new: [d, c],
                faces: [fl, fr],
            })
        });
        Ok(e)
    }

    /// The writes of a flip of the primal edge `e` (a → b) whose quad is `[ln, lp, rn, rp]`
    /// (b → c, c → a, a → d, d → b) between faces `[fl, fr]`; not logged, not journaled.
    #[inline(always)]
    pub(crate) fn flip_writes(&mut self, e: Edge, quad: [Edge; 4], ab: [Vertex; 2], f: [Face; 2]) {
        let [ln, lp, rn, rp] = quad;
        let ([a, b], [fl, fr], es) = (ab, f, e.sym());
        let (c, d) = (
            self.primal_origin[lp.index()],
            self.primal_origin[rp.index()],
        );
        // a and b lose the edge, c and d gain it.
        self.set_next::<false>(rn, lp.sym());
        self.set_next::<false>(ln, rp.sym());
        self.set_next::<false>(lp, es);
        self.set_next::<false>(es, ln.sym());
        self.set_next::<false>(rp, e);
        self.set_next::<false>(e, rn.sym());
        self.set_primal_origin::<false>(e.index(), d);
        self.set_primal_origin::<false>(es.index(), c);
        // b → c moves to the right face, a → d to the left one.
        self.set_dual_origin::<false>(ln.index() ^ 1, fr);
        self.set_dual_origin::<false>(rn.index() ^ 1, fl);
        self.set_face_edge::<false>(fl.index(), e);
        self.set_face_edge::<false>(fr.index(), es);
        if self.vertex_edge[a.index()] == e {
            self.set_vertex_edge::<false>(a.index(), rn);
        }
        if self.vertex_edge[b.index()] == es {
            self.set_vertex_edge::<false>(b.index(), ln);
        }
    }

    // ---------------------------------------------------------------- split

    /// Splits primal edge `origin → dest` by a new vertex at weight `t` (of `dest`).
    ///
    /// The edge keeps its quad-edge id but now ends at the new vertex; a new quad-edge
    /// `vertex → dest` (same orientation) is the other half, and each face beside the edge is cut
    /// in two by a new edge from the vertex to its opposite corner. An interior edge gains
    /// 1 vertex, 3 quad-edges and 2 faces; a boundary edge 1 vertex, 2 quad-edges and 1 face.
    /// The old faces keep their ids and the halves touching `origin`; the new faces hold the
    /// halves touching `dest`.
    ///
    /// New ids are taken from the free lists (LIFO) in this order: the vertex; the quad-edges
    /// `new_edge`, left cross edge, right cross edge; the left face, then the right one.
    /// Returns the [`SplitRecord`] (also logged as [`Change::Split`]).
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadEdge`] / [`MeshError::WrongEdgeKind`] for a dead or
    /// dual edge; [`MeshError::BadWeight`] for `t` outside `0.0..=1.0` (or NaN);
    /// [`MeshError::SplitWouldDuplicate`] for an edge of a pillow (both faces share their
    /// third corner, which the new vertex would join twice); [`MeshError::TooManyElements`]
    /// when the id spaces are full.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    /// let r = m.split(e, 0.5).unwrap();
    /// assert_eq!(r.vertex, Vertex::new(4));
    /// assert_eq!((m.origin(r.edge), m.dest(r.edge)), (Vertex::new(0), r.vertex));
    /// assert_eq!((m.origin(r.new_edge), m.dest(r.new_edge)), (r.vertex, Vertex::new(2)));
    /// assert_eq!(m.degree(r.vertex), 4);
    /// assert_eq!((m.vertex_count(), m.undirected_edge_count(), m.face_count()), (5, 8, 4));
    /// m.check().unwrap();
    /// // A boundary edge: one new face only.
    /// let b = m.find_edge(Vertex::new(0), Vertex::new(1)).unwrap();
    /// let r = m.split(b, 0.25).unwrap();
    /// assert_eq!(r.faces[1], (Face::INVALID, Face::INVALID));
    /// m.check().unwrap();
    /// ```
    pub fn split(&mut self, e: Edge, t: f32) -> Result<SplitRecord, MeshError> {
        if self.undo.rec.is_some() {
            self.split_with::<true>(e, t)
        } else {
            self.split_with::<false>(e, t)
        }
    }

    /// [`Mesh::split`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn split_with<const LOG: bool>(&mut self, e: Edge, t: f32) -> Result<SplitRecord, MeshError> {
        let e = self.live_primal(e)?;
        if !(0.0..=1.0).contains(&t) {
            return Err(MeshError::BadWeight);
        }
        let fl = self.left(e);
        let fr = self.right(e);
        let new_faces = fl.is_valid() as usize + fr.is_valid() as usize;
        if !self.can_alloc_vertices(1)
            || !self.can_alloc_quads(1 + new_faces)
            || !self.can_alloc_faces(new_faces)
        {
            return Err(MeshError::TooManyElements);
        }
        let es = e.sym();
        let a = self.primal_origin[e.index()];
        let b = self.primal_origin[es.index()];
        let pred_b = self.oprev(es);
        let next_b = self.onext(es);
        // Left side: ln = b → c (= pred_b), lp = c → a. Right side: rn = a → d, rp = d → b.
        let (ln, lp) = (pred_b, self.onext(e).sym());
        let (rn, rp) = (self.oprev(e), next_b.sym());
        let c = self.primal_origin[lp.index()];
        let d = self.primal_origin[rp.index()];
        if fl.is_valid() && fr.is_valid() && c == d {
            // The two faces share their third corner (a pillow): both cross edges would join
            // the new vertex to it.
            return Err(MeshError::SplitWouldDuplicate(e));
        }

        let v = self.alloc_vertex::<LOG>();
        let n = self.alloc_quad::<LOG>(v, b);
        let cl = if fl.is_valid() {
            self.alloc_quad::<LOG>(v, c)
        } else {
            Edge::INVALID
        };
        let cr = if fr.is_valid() {
            self.alloc_quad::<LOG>(v, d)
        } else {
            Edge::INVALID
        };
        let gl = if fl.is_valid() {
            self.alloc_face::<LOG>(n)
        } else {
            Face::INVALID
        };
        let gr = if fr.is_valid() {
            self.alloc_face::<LOG>(n.sym())
        } else {
            Face::INVALID
        };

        let parts = SplitParts {
            e,
            v,
            b,
            n,
            cross: [cl, cr],
            old_faces: [fl, fr],
            new_faces: [gl, gr],
            left: [ln, lp],
            right: [rn, rp],
        };
        self.wire_split::<LOG>(&parts);

        let rec = SplitRecord {
            origin: a,
            dest: b,
            t,
            vertex: v,
            edge: e,
            new_edge: n,
            cross_edges: [cl, cr],
            faces: [
                (gl, if gl.is_valid() { fl } else { Face::INVALID }),
                (gr, if gr.is_valid() { fr } else { Face::INVALID }),
            ],
        };
        self.log(|| Change::Split(rec));
        Ok(rec)
    }

    /// Joins the parts of a split: `e` now ends at `v`, `n` continues it to `b`, and each
    /// existing face is cut by its cross edge (the old face keeps the half at `a`).
    fn wire_split<const LOG: bool>(&mut self, p: &SplitParts) {
        let SplitParts { e, v, b, n, .. } = *p;
        let ([cl, cr], [fl, fr], [gl, gr]) = (p.cross, p.old_faces, p.new_faces);
        let ([ln, lp], [rn, rp]) = (p.left, p.right);
        let es = e.sym();
        let (pred_b, next_b) = (ln, rp.sym());
        self.set_primal_origin::<LOG>(es.index(), v);
        // b: n.sym takes the place of e.sym.
        self.set_next::<LOG>(pred_b, n.sym());
        self.set_next::<LOG>(n.sym(), next_b);
        if self.vertex_edge[b.index()] == es {
            self.set_vertex_edge::<LOG>(b.index(), n.sym());
        }
        // v: n, (cl), e.sym, (cr), counter-clockwise.
        self.set_vertex_edge::<LOG>(v.index(), n);
        self.set_dual_origin::<LOG>(n.index(), gr);
        self.set_dual_origin::<LOG>(n.index() ^ 1, gl);
        if fl.is_valid() {
            self.set_next::<LOG>(n, cl);
            self.set_next::<LOG>(cl, es);
            // c: cl.sym goes between c → a and c → b.
            self.set_next::<LOG>(lp, cl.sym());
            self.set_next::<LOG>(cl.sym(), ln.sym());
            self.set_dual_origin::<LOG>(cl.index() ^ 1, fl);
            self.set_dual_origin::<LOG>(cl.index(), gl);
            self.set_dual_origin::<LOG>(ln.index() ^ 1, gl);
            self.set_face_edge::<LOG>(fl.index(), e);
        } else {
            self.set_next::<LOG>(n, es);
        }
        if fr.is_valid() {
            self.set_next::<LOG>(es, cr);
            self.set_next::<LOG>(cr, n);
            // d: cr.sym goes between d → b and d → a.
            self.set_next::<LOG>(rp, cr.sym());
            self.set_next::<LOG>(cr.sym(), rn.sym());
            self.set_dual_origin::<LOG>(cr.index() ^ 1, gr);
            self.set_dual_origin::<LOG>(cr.index(), fr);
            self.set_dual_origin::<LOG>(rp.index() ^ 1, gr);
            self.set_face_edge::<LOG>(fr.index(), es);
        } else {
            self.set_next::<LOG>(es, n);
        }
    }
}

/// What a split of `e` (a → b) joins: the new vertex `v`, the new edge `n` (v → b), the cross
/// edges to the opposite corners, the old and new faces (left, right; `INVALID` on a missing
/// side), and the side edges `[b → c, c → a]` (left) and `[a → d, d → b]` (right).
#[derive(Clone, Copy)]
struct SplitParts {
    e: Edge,
    v: Vertex,
    b: Vertex,
    n: Edge,
    cross: [Edge; 2],
    old_faces: [Face; 2],
    new_faces: [Face; 2],
    left: [Edge; 2],
    right: [Edge; 2],
}
