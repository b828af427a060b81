//! Star edits: a face split by a new vertex (1-to-3) and its inverse, the removal of a vertex
//! of degree 3 (3-to-1). Incremental Delaunay insertion starts with the first; removing a
//! point from a triangulation ends with the second.
//!
//! Both follow the rules of the other local edits: validate
//! everything first, then write; new ids come from the free lists, dead ids go back to them;
//! the journal gets one record.

use crate::journal::{Change, DissolveRecord, FaceSplitRecord};
use crate::{Edge, Face, Mesh, MeshError, Vertex};

/// How far the barycentric weights of [`Mesh::split_face`] may sum away from 1.
pub(crate) const WEIGHT_SUM_TOLERANCE: f32 = 1e-4;

impl Mesh {
    /// Splits face `f` into three by a new vertex joined to its corners.
    ///
    /// With the corners `[a, b, c]` as [`Mesh::face_vertices`] gives them, the new vertex `v`
    /// gets the spokes `v → a`, `v → b`, `v → c` and the faces `(v, a, b)` (keeping the id of
    /// `f`), `(v, b, c)` and `(v, c, a)` (new ids). `weights` are the barycentric weights of
    /// `a, b, c` for the new vertex's data (layers read them from the journal).
    ///
    /// New ids are taken from the free lists (LIFO) in this order: the vertex; the spokes to
    /// `a`, `b`, `c`; the faces `(v, b, c)`, then `(v, c, a)`. Returns the
    /// [`FaceSplitRecord`], also logged as [`Change::FaceSplit`]. The mesh gains 1 vertex,
    /// 3 quad-edges and 2 faces; the new vertex has degree 3.
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadFace`] for a dead or out-of-range face;
    /// [`MeshError::BadWeight`] when a weight is not finite or outside `0.0..=1.0`, or when
    /// they do not sum to 1 within `1e-4`; [`MeshError::TooManyElements`] when the id spaces
    /// are full.
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex, shapes};
    /// let (n, t) = shapes::tetrahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let f = quadedge::Face::new(0);
    /// let corners = m.face_vertices(f);
    /// let r = m.split_face(f, [0.5, 0.25, 0.25]).unwrap();
    /// assert_eq!(r.vertex, Vertex::new(4));
    /// assert_eq!(r.corners, corners);
    /// assert_eq!(m.face_vertices(r.faces[1]), [corners[1], corners[2], r.vertex]);
    /// assert_eq!((m.vertex_count(), m.undirected_edge_count(), m.face_count()), (5, 9, 6));
    /// m.check().unwrap();
    /// ```
    pub fn split_face(&mut self, f: Face, weights: [f32; 3]) -> Result<FaceSplitRecord, MeshError> {
        if self.undo.rec.is_some() {
            self.split_face_with::<true>(f, weights)
        } else {
            self.split_face_with::<false>(f, weights)
        }
    }

    /// [`Mesh::split_face`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn split_face_with<const LOG: bool>(
        &mut self,
        f: Face,
        weights: [f32; 3],
    ) -> Result<FaceSplitRecord, MeshError> {
        if !self.is_face_alive(f) {
            return Err(MeshError::DeadFace(f));
        }
        if weights
            .iter()
            .any(|w| !w.is_finite() || !(0.0..=1.0).contains(w))
            || (weights.iter().sum::<f32>() - 1.0).abs() > WEIGHT_SUM_TOLERANCE
        {
            return Err(MeshError::BadWeight);
        }
        if !self.can_alloc_vertices(1) || !self.can_alloc_quads(3) || !self.can_alloc_faces(2) {
            return Err(MeshError::TooManyElements);
        }
        let sides = self.face_edges(f); // sides[i] = corners[i] → corners[i + 1]
        let corners = sides.map(|e| self.primal_origin[e.index()]);

        // Write: nothing below can fail.
        let v = self.alloc_vertex::<LOG>();
        let spokes = corners.map(|c| self.alloc_quad::<LOG>(v, c));
        let faces = [
            f,
            self.alloc_face::<LOG>(sides[1]),
            self.alloc_face::<LOG>(sides[2]),
        ];
        self.set_vertex_edge::<LOG>(v.index(), spokes[0]);
        for i in 0..3 {
            let (s, side) = (spokes[i], sides[i]);
            // Around v: the face (v, c_i, c_i+1) lies between spokes i and i + 1.
            self.set_next::<LOG>(s, spokes[(i + 1) % 3]);
            // Around c_i: the spoke's sym goes between c_i → c_i+1 and c_i → c_i-1.
            let before = sides[(i + 2) % 3].sym();
            self.set_next::<LOG>(side, s.sym());
            self.set_next::<LOG>(s.sym(), before);
            self.set_dual_origin::<LOG>(s.index() ^ 1, faces[i]);
            self.set_dual_origin::<LOG>(s.index(), faces[(i + 2) % 3]);
            self.set_dual_origin::<LOG>(side.index() ^ 1, faces[i]);
            self.set_face_edge::<LOG>(faces[i].index(), side);
        }
        let rec = FaceSplitRecord {
            face: f,
            corners,
            weights,
            vertex: v,
            spokes,
            faces,
        };
        self.log(|| Change::FaceSplit(rec));
        Ok(rec)
    }

    /// Removes an interior vertex of degree 3 and merges its three faces into one: the inverse
    /// of [`Mesh::split_face`].
    ///
    /// With the spokes `v → c0`, `v → c1`, `v → c2` counter-clockwise from
    /// [`Mesh::vertex_edge`], the face left of `v → c0` keeps its id and becomes
    /// `(c0, c1, c2)`; the other two faces and the three spokes are removed. Dead ids go to the
    /// free lists in this order: the vertex; the spokes (as listed in
    /// [`DissolveRecord::removed_edges`]); the faces (as in
    /// [`DissolveRecord::removed_faces`]). Returns the [`DissolveRecord`], also logged as
    /// [`Change::VertexDissolved`].
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadVertex`] for a dead or out-of-range vertex;
    /// [`MeshError::NotDissolvable`] when the vertex does not have exactly three edges or lies
    /// on the boundary; [`MeshError::FaceExists`] when its neighbours already form a face
    /// (every vertex of a tetrahedron): the result would hold the same triangle twice.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, MeshError, Vertex, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let before = m.clone();
    /// let r = m.split_face(Face::new(3), [0.2, 0.3, 0.5]).unwrap();
    /// let d = m.dissolve_vertex(r.vertex).unwrap();
    /// assert_eq!(d.face, Face::new(3));
    /// m.check().unwrap();
    /// m.compact();
    /// assert_eq!(m, before);
    /// // A vertex of degree 4 cannot be dissolved.
    /// assert_eq!(m.dissolve_vertex(Vertex::new(0)), Err(MeshError::NotDissolvable(Vertex::new(0))));
    /// ```
    pub fn dissolve_vertex(&mut self, v: Vertex) -> Result<DissolveRecord, MeshError> {
        if self.undo.rec.is_some() {
            self.dissolve_vertex_with::<true>(v)
        } else {
            self.dissolve_vertex_with::<false>(v)
        }
    }

    /// [`Mesh::dissolve_vertex`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn dissolve_vertex_with<const LOG: bool>(
        &mut self,
        v: Vertex,
    ) -> Result<DissolveRecord, MeshError> {
        let spokes = self.degree3_star(v)?;
        let faces = spokes.map(|s| self.left(s));
        let corners = spokes.map(|s| self.primal_origin[s.index() ^ 1]);
        // sides[i] = c_i → c_i+1, the edge of face i opposite v.
        let sides = spokes.map(|s| self.lnext(s));

        // Write: nothing below can fail.
        let face = faces[0];
        self.close_star::<LOG>(spokes, sides, face);
        self.free_vertex::<LOG>(v);
        let removed_edges = spokes.map(|s| s.base());
        for q in removed_edges {
            self.free_quad::<LOG>(q);
        }
        let removed_faces = [faces[1], faces[2]];
        for x in removed_faces {
            self.free_face::<LOG>(x);
        }
        let rec = DissolveRecord {
            vertex: v,
            corners,
            face,
            removed_faces,
            removed_edges,
        };
        self.log(|| Change::VertexDissolved(rec));
        Ok(rec)
    }

    /// The spokes of an interior vertex of degree 3, counter-clockwise from its entry edge,
    /// whose three faces may merge into the triangle of its neighbours
    /// ([`Mesh::dissolve_vertex`], [`Mesh::move_vertex`]), or why not.
    pub(crate) fn degree3_star(&self, v: Vertex) -> Result<[Edge; 3], MeshError> {
        if !self.is_vertex_alive(v) {
            return Err(MeshError::DeadVertex(v));
        }
        let not = Err(MeshError::NotDissolvable(v));
        let s0 = self.vertex_edge[v.index()];
        if !s0.is_valid() {
            return not;
        }
        let s1 = self.onext(s0);
        let s2 = self.onext(s1);
        if s1 == s0 || s2 == s0 || self.onext(s2) != s0 {
            return not;
        }
        let spokes = [s0, s1, s2];
        if spokes.iter().any(|&s| !self.left(s).is_valid()) {
            return not;
        }
        let corners = spokes.map(|s| self.primal_origin[s.index() ^ 1]);
        if corners[0] == corners[1] || corners[1] == corners[2] || corners[0] == corners[2] {
            return not; // parallel spokes: `check()` rejects such meshes, but stay safe
        }
        for i in 0..3 {
            // Any other face on the three corners shares one of the sides (reversed).
            let side = self.lnext(spokes[i]);
            let beyond = self.right(side);
            if beyond.is_valid()
                && self.primal_origin[self.lnext(side.sym()).index() ^ 1] == corners[(i + 2) % 3]
            {
                return Err(MeshError::FaceExists(beyond));
            }
        }
        Ok(spokes)
    }

    /// Takes the spokes of a vertex of degree 3 out of its neighbours' rings and makes `face`
    /// the triangle of its `sides` (the far edges of its faces); the spokes themselves are
    /// left as they were, for the caller to free or rewire.
    pub(crate) fn close_star<const LOG: bool>(
        &mut self,
        spokes: [Edge; 3],
        sides: [Edge; 3],
        face: Face,
    ) {
        for i in 0..3 {
            let c = self.primal_origin[sides[i].index()];
            self.set_next::<LOG>(sides[i], sides[(i + 2) % 3].sym());
            if self.vertex_edge[c.index()] == spokes[i].sym() {
                self.set_vertex_edge::<LOG>(c.index(), sides[i]);
            }
            self.set_dual_origin::<LOG>(sides[i].index() ^ 1, face);
        }
        self.set_face_edge::<LOG>(face.index(), sides[0]);
    }

    /// `lnext` of a primal edge through the dual ring, in O(1).
    #[inline(always)]
    fn lnext(&self, e: Edge) -> Edge {
        self.dual_next[e.index() ^ 1].rot()
    }
}
