//! Edge collapse, guarded by the link condition.

use crate::journal::{Change, CollapseRecord};
use crate::{Edge, Mesh, MeshError, Vertex};
use smallvec::SmallVec;

impl Mesh {
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
    /// edge of a tetrahedron, which would collapse to fewer than 4 vertices). These keep the
    /// graph simple: no loops, no parallel edges, no face on fewer than 3 vertices.
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::CollapseNotManifold`] as above;
    /// [`MeshError::DeadEdge`] / [`MeshError::WrongEdgeKind`] for a dead or dual edge;
    /// [`MeshError::BadWeight`] for `t` outside `0.0..=1.0` (or NaN).
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
        if self.undo.rec.is_some() {
            self.collapse_with::<true>(e, t)
        } else {
            self.collapse_with::<false>(e, t)
        }
    }

    /// [`Mesh::collapse`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn collapse_with<const LOG: bool>(
        &mut self,
        e: Edge,
        t: f32,
    ) -> Result<CollapseRecord, MeshError> {
        let e = self.live_primal(e)?;
        if !(0.0..=1.0).contains(&t) {
            return Err(MeshError::BadWeight);
        }
        let site = self.collapse_site(e);
        if !self.collapse_keeps_manifold(&site) {
            return Err(MeshError::CollapseNotManifold(e));
        }
        let removed_edges = self.rewire_collapse::<LOG>(&site);
        let (b, fl, fr) = (site.b, site.fl, site.fr);
        self.free_vertex::<LOG>(b);
        for q in removed_edges {
            if q.is_valid() {
                self.free_quad::<LOG>(q);
            }
        }
        for f in [fl, fr] {
            if f.is_valid() {
                self.free_face::<LOG>(f);
            }
        }
        let rec = CollapseRecord {
            origin: site.a,
            dest: b,
            t,
            survivor: site.a,
            removed: b,
            removed_edges,
            removed_faces: [fl, fr],
        };
        self.log(|| Change::Collapse(rec));
        Ok(rec)
    }

    /// The edge `a → b` to collapse and what surrounds it, read before any write.
    fn collapse_site(&self, e: Edge) -> CollapseSite {
        let es = e.sym();
        let fl = self.left(e);
        let fr = self.right(e);
        let a_prev = self.oprev(e);
        let a_next = self.onext(e);
        let corner = |face: crate::Face, x: Edge| {
            if face.is_valid() {
                self.primal_origin[x.index() ^ 1]
            } else {
                Vertex::INVALID
            }
        };
        CollapseSite {
            e,
            a: self.primal_origin[e.index()],
            b: self.primal_origin[es.index()],
            fl,
            fr,
            a_prev,
            a_next,
            b_prev: self.oprev(es),
            b_next: self.onext(es),
            c: corner(fl, a_next),
            d: corner(fr, a_prev),
        }
    }

    /// The link condition (see [`Mesh::collapse`]): the endpoints' common neighbours are
    /// exactly the opposite corners, no pinch between two boundary endpoints, no ear, no
    /// tetrahedron.
    fn collapse_keeps_manifold(&self, s: &CollapseSite) -> bool {
        let (e, es, fl, fr) = (s.e, s.e.sym(), s.fl, s.fr);
        // Vertex part. Both rings are walked in one loop so that their memory reads overlap.
        let mut around_a: SmallVec<[Vertex; 16]> = SmallVec::new();
        let mut around_b: SmallVec<[Vertex; 16]> = SmallVec::new();
        let (mut a_boundary, mut b_boundary) = (false, false);
        let (mut x, mut y) = (s.a_next, s.b_next);
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
            return false;
        }
        if fl.is_valid() && fr.is_valid() {
            // Both endpoints on the boundary but not the edge: the result pinches.
            if a_boundary && b_boundary {
                return false;
            }
            // Edge part: triangles (a, c, d) and (b, c, d) both present (tetrahedron).
            let acd = self.left(s.a_next).is_valid()
                && self.primal_origin[self.oprev(s.a_next.sym()).index() ^ 1] == s.d;
            let bcd = self.right(s.b_prev).is_valid()
                && self.primal_origin[self.oprev(s.b_prev).index() ^ 1] == s.d;
            !(acd && bcd)
        } else if fl.is_valid() {
            // Ear: a → c and b → c on the boundary as well.
            !(self.is_boundary_edge(s.a_next) && self.is_boundary_edge(s.b_prev))
        } else {
            !(self.is_boundary_edge(s.a_prev) && self.is_boundary_edge(s.b_next))
        }
    }

    /// Moves `b`'s edges to `a` and lets the side edges at `a` take over the faces beyond the
    /// removed ones; returns the quad-edges to free (collapsed, left side, right side).
    fn rewire_collapse<const LOG: bool>(&mut self, s: &CollapseSite) -> [Edge; 3] {
        let CollapseSite {
            e,
            a,
            fl,
            fr,
            a_prev,
            a_next,
            b_prev,
            b_next,
            c,
            d,
            ..
        } = *s;
        let es = e.sym();
        // Reads for the rewiring at c and d, before b's edges move.
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
            self.set_primal_origin::<LOG>(x.index(), a);
            last = x;
            x = self.primal_next[x.index()];
        }
        if last.is_valid() {
            self.set_next::<LOG>(a_prev, seg_start);
            self.set_next::<LOG>(last, a_next);
        } else {
            self.set_next::<LOG>(a_prev, a_next);
        }
        if self.vertex_edge[a.index()] == e {
            self.set_vertex_edge::<LOG>(a.index(), a_next);
        }
        let mut removed_edges = [e.base(), Edge::INVALID, Edge::INVALID];
        if fl.is_valid() {
            // c → a takes over c → b: its left face is the one beyond b → c.
            let lp = a_next.sym();
            let gl = self.dual_origin[b_prev.index()];
            self.set_next::<LOG>(lp, c_after);
            self.set_dual_origin::<LOG>(a_next.index(), gl);
            if gl.is_valid() && self.face_edge[gl.index()] == b_prev.sym() {
                self.set_face_edge::<LOG>(gl.index(), lp);
            }
            if self.vertex_edge[c.index()] == b_prev.sym() {
                self.set_vertex_edge::<LOG>(c.index(), lp);
            }
            removed_edges[1] = b_prev.base();
        }
        if fr.is_valid() {
            // a → d takes over b → d: its left face is the one beyond d → b.
            let gr = self.dual_origin[b_next.index() ^ 1];
            self.set_next::<LOG>(d_before, a_prev.sym());
            self.set_dual_origin::<LOG>(a_prev.index() ^ 1, gr);
            if gr.is_valid() && self.face_edge[gr.index()] == b_next {
                self.set_face_edge::<LOG>(gr.index(), a_prev);
            }
            if self.vertex_edge[d.index()] == b_next.sym() {
                self.set_vertex_edge::<LOG>(d.index(), a_prev.sym());
            }
            removed_edges[2] = b_next.base();
        }
        removed_edges
    }
}

/// An edge `a → b` about to collapse into `a`, with its faces (`fl` left, `fr` right, either
/// may be missing on a boundary), the edges beside it around both ends and the opposite
/// corners (`c` left, `d` right; `INVALID` without the face).
#[derive(Clone, Copy)]
struct CollapseSite {
    e: Edge,
    a: Vertex,
    b: Vertex,
    fl: crate::Face,
    fr: crate::Face,
    /// a → d when `fr` exists.
    a_prev: Edge,
    /// a → c when `fl` exists.
    a_next: Edge,
    /// b → c when `fl` exists.
    b_prev: Edge,
    /// b → d when `fr` exists.
    b_next: Edge,
    c: Vertex,
    d: Vertex,
}
