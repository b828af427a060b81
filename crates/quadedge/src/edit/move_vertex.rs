//! Moving a vertex of degree 3 into another face in one edit: its triangle is closed and the
//! target face split by it. A relocation that walks a vertex through many triangles would
//! otherwise make two flips per triangle crossed; this is one edit whatever the distance,
//! with no id taken or freed.

use crate::journal::{Change, MoveRecord};
use crate::{Face, Mesh, MeshError, Vertex};

impl Mesh {
    /// Moves an interior vertex `v` of degree 3 into face `f`: the three faces around `v`
    /// merge into the triangle of its neighbours, and `f` is split into three by `v`. What
    /// [`Mesh::dissolve_vertex`] then [`Mesh::split_face`] would do, but `v` keeps its id
    /// (and so its data in every layer) and no id is freed or taken: the spokes and faces are
    /// rewired.
    ///
    /// With `v`'s spokes `s0, s1, s2` counter-clockwise from [`Mesh::vertex_edge`] and
    /// `f`'s corners `[d0, d1, d2]` as [`Mesh::face_vertices`] gives them: the face left of
    /// `s0` becomes the closed triangle of the old neighbours ([`MoveRecord::closed`]);
    /// `s_i` becomes `v → d_i`; `f` keeps its id as `(v, d0, d1)` and the faces that were
    /// left of `s1` and `s2` become `(v, d1, d2)` and `(v, d2, d0)`. Returns the
    /// [`MoveRecord`], also logged as [`Change::VertexMoved`]. Geometry is the caller's: on
    /// a triangulation, `f` should hold `v`'s new position.
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadVertex`] for a dead or out-of-range vertex,
    /// [`MeshError::NotDissolvable`] when it does not have exactly three edges with a face
    /// between each two, [`MeshError::FaceExists`] when its neighbours already form a face
    /// (the closed triangle would be there twice), [`MeshError::DeadFace`] for a dead or
    /// out-of-range `f`, [`MeshError::FaceOfVertex`] when `f` is one of `v`'s own faces.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, Vertex, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let s = m.split_face(Face::new(0), [0.4, 0.3, 0.3]).unwrap();
    /// let target = Face::new(7);
    /// let corners = m.face_vertices(target);
    /// let r = m.move_vertex(s.vertex, target).unwrap();
    /// assert_eq!((r.from, r.to), (s.corners, corners));
    /// assert_eq!(m.face_vertices(r.closed), s.corners);
    /// let mut ring: Vec<Vertex> = m.neighbors(s.vertex).collect();
    /// ring.sort();
    /// let mut want = corners.to_vec();
    /// want.sort();
    /// assert_eq!(ring, want);
    /// m.check().unwrap();
    /// ```
    pub fn move_vertex(&mut self, v: Vertex, f: Face) -> Result<MoveRecord, MeshError> {
        if self.undo.rec.is_some() {
            self.move_vertex_with::<true>(v, f)
        } else {
            self.move_vertex_with::<false>(v, f)
        }
    }

    /// [`Mesh::move_vertex`], with the undo log (`LOG`) or without: one branch per edit.
    fn move_vertex_with<const LOG: bool>(
        &mut self,
        v: Vertex,
        f: Face,
    ) -> Result<MoveRecord, MeshError> {
        let spokes = self.degree3_star(v)?;
        if !self.is_face_alive(f) {
            return Err(MeshError::DeadFace(f));
        }
        let old_faces = spokes.map(|s| self.left(s));
        if old_faces.contains(&f) {
            return Err(MeshError::FaceOfVertex { vertex: v, face: f });
        }
        let from = spokes.map(|s| self.primal_origin[s.index() ^ 1]);
        // sides[i] = from_i → from_i+1, the edge of old face i opposite v.
        let sides = spokes.map(|s| self.left_next(s));
        // targets[i] = to_i → to_i+1, the edges of f.
        let targets = self.face_edges(f);
        let to = targets.map(|e| self.primal_origin[e.index()]);

        // Write: nothing below can fail. The old triangle closes (as `dissolve_vertex`
        // does), then f opens around v (as `split_face` does): the two touch disjoint ring
        // entries (a side of v's faces is never an edge of f), and v's own ring (s0, s1, s2)
        // stays as it is.
        let closed = old_faces[0];
        self.close_star::<LOG>(spokes, sides, closed);
        // v's faces keep their places around it but f takes the closed one's: the face left
        // of s0 and right of s1 becomes f; the sides of f and its entry edge stay f's.
        let faces = [f, old_faces[1], old_faces[2]];
        self.set_dual_origin::<LOG>(spokes[0].index() ^ 1, f);
        self.set_dual_origin::<LOG>(spokes[1].index(), f);
        for i in 0..3 {
            let (s, side) = (spokes[i], targets[i]);
            self.set_primal_origin::<LOG>(s.index() ^ 1, to[i]);
            // Around to_i: the spoke's sym goes between to_i → to_i+1 and to_i → to_i-1.
            self.set_next::<LOG>(side, s.sym());
            self.set_next::<LOG>(s.sym(), targets[(i + 2) % 3].sym());
            if i > 0 {
                self.set_dual_origin::<LOG>(side.index() ^ 1, faces[i]);
                self.set_face_edge::<LOG>(faces[i].index(), side);
            }
        }
        debug_assert!((0..3).all(|i| self.left(spokes[i]) == faces[i]
            && self.right(spokes[i]) == faces[(i + 2) % 3]
            && self.left(targets[i]) == faces[i]));
        let rec = MoveRecord {
            vertex: v,
            from,
            closed,
            to,
            spokes,
            faces,
        };
        self.log_rewire(|| Change::VertexMoved(rec));
        Ok(rec)
    }
}
