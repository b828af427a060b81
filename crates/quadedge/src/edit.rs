//! Local edits: flip, split, collapse, face removal.
//!
//! Every operation reads and validates first and writes afterwards, so a rejected operation
//! leaves the mesh bit-identical (free lists included). Removed elements are marked dead, skipped
//! by every iterator and their ids pushed on the per-kind free lists (LIFO), from which later
//! additions take them; [`Mesh::compact`](crate::Mesh::compact) squeezes the holes out.
//!
//! All rings are rewired through one primitive that sets a primal `origin_next` and the dual
//! `origin_next` it implies (`onext(rot n) = inv_rot(p)` when `onext(p) = n`), so the dual rings
//! stay exact without walking whole rings.

use crate::journal::{Change, CollapseRecord, FlipRecord, SplitRecord};
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, MeshError, Vertex};
use smallvec::SmallVec;

impl Mesh {
    /// Reserves room for about `vertices` more vertices of a closed triangle mesh (2 faces and
    /// 3 quad-edges each), e.g. before many splits, so that the arrays grow once.
    ///
    /// # Errors
    /// Changing nothing visible (capacity may have grown for some arrays):
    /// [`MeshError::TooManyElements`] when that many elements would not fit the id spaces,
    /// [`MeshError::OutOfMemory`] when the memory cannot be reserved.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError};
    /// let mut m = Mesh::from_triangles(3, &[[0, 1, 2]]).unwrap();
    /// m.reserve(1000).unwrap();
    /// assert!(m.heap_bytes() >= 1000 * 108);
    /// assert_eq!(m.reserve(usize::MAX), Err(MeshError::TooManyElements));
    /// ```
    pub fn reserve(&mut self, vertices: usize) -> Result<(), MeshError> {
        let fits = |len: usize, extra: Option<usize>, limit: usize| matches!(extra.and_then(|x| x.checked_add(len)), Some(n) if n <= limit);
        let max_edges = crate::ids::MAX_DIRECTED_EDGES;
        if !fits(
            self.vertex_edge.len(),
            Some(vertices),
            DEAD_VERTEX.raw() as usize - 1,
        ) || !fits(
            self.face_edge.len(),
            vertices.checked_mul(2),
            u32::MAX as usize - 1,
        ) || !fits(self.primal_origin.len(), vertices.checked_mul(6), max_edges)
        {
            return Err(MeshError::TooManyElements);
        }
        let oom = |_| MeshError::OutOfMemory;
        self.vertex_edge.try_reserve(vertices).map_err(oom)?;
        self.face_edge.try_reserve(2 * vertices).map_err(oom)?;
        self.primal_origin.try_reserve(6 * vertices).map_err(oom)?;
        self.primal_next.try_reserve(6 * vertices).map_err(oom)?;
        self.dual_origin.try_reserve(6 * vertices).map_err(oom)?;
        self.dual_next.try_reserve(6 * vertices).map_err(oom)?;
        Ok(())
    }

    // ---------------------------------------------------------------- primitives

    /// Sets `onext(p) = n` for primal edges and keeps the dual ring consistent.
    #[inline(always)]
    pub(crate) fn set_next(&mut self, p: Edge, n: Edge) {
        self.primal_next[p.index()] = n;
        self.dual_next[n.index()] = Edge::dual((p.index() ^ 1) as u32);
    }

    /// `onext` of a primal edge.
    #[inline(always)]
    pub(crate) fn onext(&self, e: Edge) -> Edge {
        self.primal_next[e.index()]
    }

    /// `oprev` of a primal edge, in O(1) through the dual ring.
    #[inline(always)]
    pub(crate) fn oprev(&self, e: Edge) -> Edge {
        self.dual_next[e.index()].rot()
    }

    /// Marks quad-edge `e` dead and pushes it on the free list.
    pub(crate) fn free_quad(&mut self, e: Edge) {
        let i = e.index() & !1;
        self.primal_origin[i] = Vertex::INVALID;
        self.primal_origin[i + 1] = Vertex::INVALID;
        self.primal_next[i] = Edge::INVALID;
        self.primal_next[i + 1] = Edge::INVALID;
        self.dual_origin[i] = Face::INVALID;
        self.dual_origin[i + 1] = Face::INVALID;
        self.dual_next[i] = Edge::INVALID;
        self.dual_next[i + 1] = Edge::INVALID;
        self.free_quads.push((i / 2) as u32);
        self.live_quads -= 1;
    }

    /// Marks face `f` dead and pushes it on the free list.
    pub(crate) fn free_face(&mut self, f: Face) {
        self.face_edge[f.index()] = Edge::INVALID;
        self.free_faces.push(f.raw());
        self.live_faces -= 1;
    }

    /// Marks vertex `v` dead and pushes it on the free list.
    pub(crate) fn free_vertex(&mut self, v: Vertex) {
        self.vertex_edge[v.index()] = DEAD_VERTEX;
        self.free_vertices.push(v.raw());
        self.live_vertices -= 1;
    }

    /// Takes primal edge `x` out of its origin ring (the ring stays consistent).
    fn unlink(&mut self, x: Edge) {
        let o = self.primal_origin[x.index()];
        let n = self.onext(x);
        if n == x {
            self.vertex_edge[o.index()] = Edge::INVALID;
        } else {
            let p = self.oprev(x);
            self.set_next(p, n);
            if self.vertex_edge[o.index()] == x {
                self.vertex_edge[o.index()] = n;
            }
        }
    }

    /// Does an edge of the ring strictly between `from` and `until` (counter-clockwise, with
    /// `onext(until) == from`) end at `w`? Walks from both ends at once, which halves the chain
    /// of dependent memory reads on large meshes.
    #[inline]
    fn ring_reaches(&self, from: Edge, until: Edge, w: Vertex) -> bool {
        let mut f = self.onext(from);
        if f == until {
            return false;
        }
        let mut b = self.oprev(until);
        loop {
            if self.primal_origin[f.index() ^ 1] == w || self.primal_origin[b.index() ^ 1] == w {
                return true;
            }
            if f == b {
                return false;
            }
            let nf = self.onext(f);
            if nf == b {
                return false;
            }
            f = nf;
            b = self.oprev(b);
        }
    }

    /// The primal edge an operation works on: validates liveness and kind.
    #[inline]
    fn live_primal(&self, e: Edge) -> Result<Edge, MeshError> {
        if !self.is_edge_alive(e) {
            return Err(MeshError::DeadEdge(e));
        }
        if e.is_dual() {
            return Err(MeshError::WrongEdgeKind(e));
        }
        Ok(e)
    }

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
    /// Rejected, changing nothing: a dead edge ([`MeshError::DeadEdge`]), a boundary edge
    /// ([`MeshError::BoundaryEdge`]) and an edge whose opposite corners are already connected
    /// ([`MeshError::FlipWouldDuplicate`]). Errors name the edge as passed.
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
        if c == d || self.ring_reaches(ln.sym(), lp, d) {
            return Err(MeshError::FlipWouldDuplicate(edge));
        }

        // a and b lose the edge, c and d gain it.
        self.set_next(rn, lp.sym());
        self.set_next(ln, rp.sym());
        self.set_next(lp, es);
        self.set_next(es, ln.sym());
        self.set_next(rp, e);
        self.set_next(e, rn.sym());
        self.primal_origin[e.index()] = d;
        self.primal_origin[es.index()] = c;
        // b → c moves to the right face, a → d to the left one.
        self.dual_origin[ln.index() ^ 1] = fr;
        self.dual_origin[rn.index() ^ 1] = fl;
        self.face_edge[fl.index()] = e;
        self.face_edge[fr.index()] = es;
        if self.vertex_edge[a.index()] == e {
            self.vertex_edge[a.index()] = rn;
        }
        if self.vertex_edge[b.index()] == es {
            self.vertex_edge[b.index()] = ln;
        }
        self.log(|| {
            Change::Flip(FlipRecord {
                edge: e,
                old: [a, b],
                new: [d, c],
                faces: [fl, fr],
            })
        });
        Ok(e)
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

        let v = self.alloc_vertex();
        let n = self.alloc_quad(v, b);
        let cl = if fl.is_valid() {
            self.alloc_quad(v, c)
        } else {
            Edge::INVALID
        };
        let cr = if fr.is_valid() {
            self.alloc_quad(v, d)
        } else {
            Edge::INVALID
        };
        let gl = if fl.is_valid() {
            self.alloc_face(n)
        } else {
            Face::INVALID
        };
        let gr = if fr.is_valid() {
            self.alloc_face(n.sym())
        } else {
            Face::INVALID
        };

        self.primal_origin[es.index()] = v;
        // b: n.sym takes the place of e.sym.
        self.set_next(pred_b, n.sym());
        self.set_next(n.sym(), next_b);
        if self.vertex_edge[b.index()] == es {
            self.vertex_edge[b.index()] = n.sym();
        }
        // v: n, (cl), e.sym, (cr), counter-clockwise.
        self.vertex_edge[v.index()] = n;
        self.dual_origin[n.index()] = gr;
        self.dual_origin[n.index() ^ 1] = gl;
        if fl.is_valid() {
            self.set_next(n, cl);
            self.set_next(cl, es);
            // c: cl.sym goes between c → a and c → b.
            self.set_next(lp, cl.sym());
            self.set_next(cl.sym(), ln.sym());
            self.dual_origin[cl.index() ^ 1] = fl;
            self.dual_origin[cl.index()] = gl;
            self.dual_origin[ln.index() ^ 1] = gl;
            self.face_edge[fl.index()] = e;
        } else {
            self.set_next(n, es);
        }
        if fr.is_valid() {
            self.set_next(es, cr);
            self.set_next(cr, n);
            // d: cr.sym goes between d → b and d → a.
            self.set_next(rp, cr.sym());
            self.set_next(cr.sym(), rn.sym());
            self.dual_origin[cr.index() ^ 1] = gr;
            self.dual_origin[cr.index()] = fr;
            self.dual_origin[rp.index() ^ 1] = gr;
            self.face_edge[fr.index()] = es;
        } else {
            self.set_next(es, n);
        }

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

    // ---------------------------------------------------------------- collapse

    /// Collapses primal edge `origin → dest` into its origin: `origin` survives (its data becomes
    /// `lerp(origin, dest, t)` for layers), `dest` is removed and its edges move to `origin`.
    ///
    /// Removed: the edge, `dest`, the faces beside the edge, and per removed face the side edge
    /// that touched `dest` (the side edge touching `origin` survives and takes over the face
    /// beyond the removed one). Dead ids go to the free lists in this order: vertex; quad-edges
    /// (collapsed, left side, right side); faces (left, right). Logs [`Change::Collapse`].
    ///
    /// Rejected with [`MeshError::CollapseNotManifold`], changing nothing, when the result would
    /// be non-manifold or degenerate (the link condition): the endpoints have a common neighbour
    /// other than the opposite corners of the edge's faces; both endpoints lie on the boundary
    /// but the edge does not; a face beside a boundary edge has its two other edges on the
    /// boundary too (an ear); or both opposite corners form triangles with both endpoints (the
    /// edge of a tetrahedron, which would collapse to fewer than 4 vertices). Also rejected:
    /// dead or dual edges and `t` outside `0.0..=1.0`.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError, Vertex, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    /// let r = m.collapse(e, 0.5).unwrap();
    /// assert_eq!((r.survivor, r.removed), (Vertex::new(0), Vertex::new(2)));
    /// assert_eq!((m.vertex_count(), m.undirected_edge_count(), m.face_count()), (5, 9, 6));
    /// m.check().unwrap();
    ///
    /// let (n, t) = shapes::tetrahedron();
    /// let mut tet = Mesh::from_triangles(n, &t).unwrap();
    /// let e = tet.find_edge(Vertex::new(0), Vertex::new(1)).unwrap();
    /// assert_eq!(tet.collapse(e, 0.5), Err(MeshError::CollapseNotManifold(e)));
    /// ```
    pub fn collapse(&mut self, e: Edge, t: f32) -> Result<CollapseRecord, MeshError> {
        let e = self.live_primal(e)?;
        if !(0.0..=1.0).contains(&t) {
            return Err(MeshError::BadWeight);
        }
        let reject = Err(MeshError::CollapseNotManifold(e));
        let es = e.sym();
        let a = self.primal_origin[e.index()];
        let b = self.primal_origin[es.index()];
        let fl = self.left(e);
        let fr = self.right(e);
        let a_prev = self.oprev(e); // a → d when fr exists
        let a_next = self.onext(e); // a → c when fl exists
        let b_prev = self.oprev(es); // b → c when fl exists
        let b_next = self.onext(es); // b → d when fr exists
        let c = if fl.is_valid() {
            self.primal_origin[a_next.index() ^ 1]
        } else {
            Vertex::INVALID
        };
        let d = if fr.is_valid() {
            self.primal_origin[a_prev.index() ^ 1]
        } else {
            Vertex::INVALID
        };

        // Link condition, vertex part: common neighbours are exactly the opposite corners.
        // Both rings are walked in one loop so that their memory reads overlap.
        let mut around_a: SmallVec<[Vertex; 16]> = SmallVec::new();
        let mut around_b: SmallVec<[Vertex; 16]> = SmallVec::new();
        let (mut a_boundary, mut b_boundary) = (false, false);
        let (mut x, mut y) = (a_next, b_next);
        while x != e || y != es {
            if x != e {
                around_a.push(self.primal_origin[x.index() ^ 1]);
                a_boundary |= !self.dual_origin[x.index() ^ 1].is_valid();
                x = self.primal_next[x.index()];
            }
            if y != es {
                around_b.push(self.primal_origin[y.index() ^ 1]);
                b_boundary |= !self.dual_origin[y.index() ^ 1].is_valid();
                y = self.primal_next[y.index()];
            }
        }
        a_boundary |= !fl.is_valid();
        b_boundary |= !fr.is_valid();
        let common = around_b.iter().filter(|w| around_a.contains(w)).count();
        let faces = fl.is_valid() as usize + fr.is_valid() as usize;
        if common != faces {
            return reject;
        }
        if fl.is_valid() && fr.is_valid() {
            // Both endpoints on the boundary but not the edge: the result pinches.
            if a_boundary && b_boundary {
                return reject;
            }
            // Edge part: triangles (a, c, d) and (b, c, d) both present (tetrahedron).
            let acd = self.left(a_next).is_valid()
                && self.primal_origin[self.oprev(a_next.sym()).index() ^ 1] == d;
            let bcd = self.right(b_prev).is_valid()
                && self.primal_origin[self.oprev(b_prev).index() ^ 1] == d;
            if acd && bcd {
                return reject;
            }
        } else if fl.is_valid() {
            // Ear: a → c and b → c on the boundary as well.
            if self.is_boundary_edge(a_next) && self.is_boundary_edge(b_prev) {
                return reject;
            }
        } else if self.is_boundary_edge(a_prev) && self.is_boundary_edge(b_next) {
            return reject;
        }

        // Reads for the rewiring at c and d.
        let c_after = if fl.is_valid() {
            self.onext(b_prev.sym())
        } else {
            Edge::INVALID
        };
        let d_before = if fr.is_valid() {
            self.oprev(b_next.sym())
        } else {
            Edge::INVALID
        };

        // b's edges (without e.sym and the merged ones) move to a, between a_prev and a_next.
        let seg_start = if fr.is_valid() {
            self.onext(b_next)
        } else {
            b_next
        };
        let stop = if fl.is_valid() { b_prev } else { es };
        let mut last = Edge::INVALID;
        let mut x = seg_start;
        while x != stop {
            self.primal_origin[x.index()] = a;
            last = x;
            x = self.primal_next[x.index()];
        }
        if last.is_valid() {
            self.set_next(a_prev, seg_start);
            self.set_next(last, a_next);
        } else {
            self.set_next(a_prev, a_next);
        }
        if self.vertex_edge[a.index()] == e {
            self.vertex_edge[a.index()] = a_next;
        }
        let mut removed_edges = [e.base(), Edge::INVALID, Edge::INVALID];
        if fl.is_valid() {
            // c → a takes over c → b: its left face is the one beyond b → c.
            let lp = a_next.sym();
            let gl = self.dual_origin[b_prev.index()];
            self.set_next(lp, c_after);
            self.dual_origin[a_next.index()] = gl;
            if gl.is_valid() && self.face_edge[gl.index()] == b_prev.sym() {
                self.face_edge[gl.index()] = lp;
            }
            if self.vertex_edge[c.index()] == b_prev.sym() {
                self.vertex_edge[c.index()] = lp;
            }
            removed_edges[1] = b_prev.base();
        }
        if fr.is_valid() {
            // a → d takes over b → d: its left face is the one beyond d → b.
            let gr = self.dual_origin[b_next.index() ^ 1];
            self.set_next(d_before, a_prev.sym());
            self.dual_origin[a_prev.index() ^ 1] = gr;
            if gr.is_valid() && self.face_edge[gr.index()] == b_next {
                self.face_edge[gr.index()] = a_prev;
            }
            if self.vertex_edge[d.index()] == b_next.sym() {
                self.vertex_edge[d.index()] = a_prev.sym();
            }
            removed_edges[2] = b_next.base();
        }
        self.free_vertex(b);
        for q in removed_edges {
            if q.is_valid() {
                self.free_quad(q);
            }
        }
        for f in [fl, fr] {
            if f.is_valid() {
                self.free_face(f);
            }
        }
        let rec = CollapseRecord {
            origin: a,
            dest: b,
            t,
            survivor: a,
            removed: b,
            removed_edges,
            removed_faces: [fl, fr],
        };
        self.log(|| Change::Collapse(rec));
        Ok(rec)
    }

    // ---------------------------------------------------------------- removal

    /// Removes a face. Its edges that are left without a face on either side are removed too;
    /// vertices left without edges stay as isolated vertices (remove them with
    /// [`Mesh::remove_vertex`]). The face id goes to the free list first, then the removed
    /// quad-edges in the order of [`Mesh::face_edges`]. Logs [`Change::FaceRemoved`], then one
    /// [`Change::EdgeRemoved`] per removed quad-edge.
    ///
    /// The remaining faces may meet at a vertex in several fans afterwards.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, MeshError, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// m.remove_face(Face::new(0)).unwrap();
    /// assert_eq!((m.vertex_count(), m.undirected_edge_count(), m.face_count()), (4, 3, 1));
    /// assert_eq!(m.degree(Vertex::new(1)), 0);
    /// assert_eq!(m.remove_face(Face::new(0)), Err(MeshError::DeadFace(Face::new(0))));
    /// m.check().unwrap();
    /// m.remove_vertex(Vertex::new(1)).unwrap();
    /// m.check().unwrap();
    /// ```
    pub fn remove_face(&mut self, f: Face) -> Result<(), MeshError> {
        if !self.is_face_alive(f) {
            return Err(MeshError::DeadFace(f));
        }
        let es = self.face_edges(f);
        for x in es {
            self.dual_origin[x.index() ^ 1] = Face::INVALID;
        }
        self.free_face(f);
        self.log(|| Change::FaceRemoved(f));
        for x in es {
            if !self.dual_origin[x.index()].is_valid() {
                self.unlink(x);
                self.unlink(x.sym());
                self.free_quad(x);
                self.log(|| Change::EdgeRemoved(x.base()));
            }
        }
        Ok(())
    }
}
