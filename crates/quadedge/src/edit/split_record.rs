//! A face split kept in the undo log as one record.
//!
//! [`Mesh::split_face`] records each of its writes (about seventy: the new vertex, three
//! quad-edges and two faces taken from the free lists or appended, and the rings it rewires),
//! about 1.1 KB of log per split. Every slot it writes is either a dead slot, which holds the
//! canonical dead values ([`Mesh::free_quad`] and its kin write them), an appended one, or a
//! slot of the split face's sides whose old value the split's own shape tells (the sides'
//! rings went straight from one side to the next; their left face was the split face). So a
//! split whose reused slots hold the canonical values is one 16-byte record (the face, the new
//! vertex, and how many ids came off each free list), and is undone by reading the rest back
//! off the vertex's star, as a flip's record is.

use crate::journal::FaceSplitRecord;
use crate::mesh::DEAD_VERTEX;
use crate::undo::Write;
use crate::{Edge, Face, Mesh, MeshError, Vertex};

/// Flags of a face-split record: bit 0, the vertex came off the free list; bits 1–2, how many
/// of the three quad-edges did; bits 3–4, how many of the two faces did.
fn flags(vertex: bool, quads: usize, faces: usize) -> u8 {
    u8::from(vertex) | ((quads as u8) << 1) | ((faces as u8) << 3)
}

fn unflags(f: u8) -> (bool, usize, usize) {
    (
        f & 1 != 0,
        usize::from((f >> 1) & 3),
        usize::from((f >> 3) & 3),
    )
}

impl Mesh {
    /// [`Mesh::split_face`], recorded in the undo log (when one is on) as one record instead of
    /// a record per write. The mesh, the ids, the journal and what an undo or redo of the log
    /// does are those of [`Mesh::split_face`]; only the log is smaller (16 bytes instead of
    /// about 1.1 KB). When a reused dead slot does not hold the canonical dead values (a mesh
    /// built by hand), the split is recorded write by write as [`Mesh::split_face`] does.
    ///
    /// # Errors
    /// As [`Mesh::split_face`], changing nothing.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let before = m.clone();
    /// m.start_undo_log().unwrap();
    /// let r = m.split_face_compact(Face::new(2), [0.2, 0.3, 0.5]).unwrap();
    /// let after = m.clone();
    /// let log = m.take_undo_log().unwrap();
    /// assert_eq!(log.len(), 1);
    /// m.undo(&log).unwrap();
    /// assert_eq!(m, before);
    /// m.redo(&log).unwrap();
    /// assert_eq!(m, after);
    /// assert_eq!(m.degree(r.vertex), 3);
    /// ```
    pub fn split_face_compact(
        &mut self,
        f: Face,
        weights: [f32; 3],
    ) -> Result<FaceSplitRecord, MeshError> {
        let Some(flags) = self
            .undo
            .rec
            .as_ref()
            .and_then(|_| self.split_ids_canonical())
        else {
            return self.split_face(f, weights);
        };
        let rec = self.undo.rec.take();
        let r = self.split_face(f, weights);
        self.undo.rec = rec;
        if let Ok(r) = &r {
            self.record(Write::face_split(f, r.vertex, flags));
        }
        r
    }

    /// The flags of the ids a face split takes now, when every dead slot it would reuse holds
    /// the canonical dead values; `None` otherwise.
    fn split_ids_canonical(&self) -> Option<u8> {
        let vertex = self.free_vertices.last().copied();
        if let Some(v) = vertex
            && self.vertex_edge.get(v as usize) != Some(&DEAD_VERTEX)
        {
            return None;
        }
        let quads = self.free_quads.len().min(3);
        let faces = self.free_faces.len().min(2);
        let qs = &self.free_quads[self.free_quads.len() - quads..];
        let fs = &self.free_faces[self.free_faces.len() - faces..];
        (qs.iter().all(|&q| self.quad_is_canonical_dead(q as usize))
            && fs
                .iter()
                .all(|&x| self.face_edge.get(x as usize) == Some(&Edge::INVALID)))
        .then(|| flags(vertex.is_some(), quads, faces))
    }

    /// Do both halves of quad-edge `q` hold the values [`Mesh::free_quad`] writes?
    fn quad_is_canonical_dead(&self, q: usize) -> bool {
        [2 * q, 2 * q + 1].iter().all(|&i| {
            self.primal_origin.get(i) == Some(&Vertex::INVALID)
                && self.primal_next.get(i) == Some(&Edge::INVALID)
                && self.dual_origin.get(i) == Some(&Face::INVALID)
                && self.dual_next.get(i) == Some(&Edge::INVALID)
        })
    }

    /// Redoes a recorded face split if the mesh is in the state it was made from: the face is
    /// alive and the free lists give the recorded vertex and as many ids, canonical.
    pub(crate) fn apply_face_split(&mut self, w: Write) -> bool {
        let (f, v, fl) = w.split_parts();
        let (from_list, _, _) = unflags(fl);
        let next = if from_list {
            self.free_vertices.last().map(|&x| x as usize)
        } else {
            self.free_vertices
                .is_empty()
                .then_some(self.vertex_edge.len())
        };
        if !self.is_face_alive(f)
            || next != Some(v.index())
            || self.split_ids_canonical() != Some(fl)
        {
            return false;
        }
        // Neither logged write by write nor journaled (the caller records `w` itself), and
        // the state stamp is the caller's to set, as for any other record.
        let (rec, journal, stamp) = (self.undo.rec.take(), self.journal.take(), self.undo.stamp);
        let r = self.split_face(f, [1.0, 0.0, 0.0]);
        (self.undo.rec, self.journal, self.undo.stamp) = (rec, journal, stamp);
        r.is_ok_and(|r| r.vertex == v)
    }

    /// Turns a recorded face split back if the mesh is in the state it left: the vertex has
    /// the three spokes and faces the split made, the first face is the split face, and the
    /// ids taken are where the record says (on top of the free lists' order, or last in
    /// their arrays). Every slot gets its old value: dead slots the canonical ones, the sides
    /// their ring and face within the old triangle.
    pub(crate) fn apply_face_unsplit(&mut self, w: Write) -> bool {
        let (f, v, fl) = w.split_parts();
        let Some(star) = self.split_star(f, v, fl) else {
            return false;
        };
        let (from_list, quads, faces) = unflags(fl);
        let (spokes, sides, new_faces) = star;
        // The sides' rings and faces as they were.
        for i in 0..3 {
            let before = sides[(i + 2) % 3].sym();
            self.primal_next[sides[i].index()] = before;
            self.dual_next[before.index()] = Edge::dual((sides[i].index() ^ 1) as u32);
            self.dual_origin[sides[i].index() ^ 1] = f;
        }
        // The faces, the quad-edges and the vertex, in the reverse order of their allocation.
        for (k, &x) in new_faces.iter().enumerate().rev() {
            if k < faces {
                self.face_edge[x.index()] = Edge::INVALID;
                self.free_faces.push(x.raw());
            } else {
                self.face_edge.pop();
            }
        }
        for (k, &s) in spokes.iter().enumerate().rev() {
            let i = s.index() & !1;
            if k < quads {
                for j in [i, i + 1] {
                    self.primal_origin[j] = Vertex::INVALID;
                    self.primal_next[j] = Edge::INVALID;
                    self.dual_origin[j] = Face::INVALID;
                    self.dual_next[j] = Edge::INVALID;
                }
                self.free_quads.push((i / 2) as u32);
            } else {
                self.primal_next.truncate(i);
                self.dual_next.truncate(i);
                self.primal_origin.truncate(i);
                self.dual_origin.truncate(i);
            }
        }
        if from_list {
            self.vertex_edge[v.index()] = DEAD_VERTEX;
            self.free_vertices.push(v.raw());
        } else {
            self.vertex_edge.pop();
        }
        self.live_vertices -= 1;
        self.live_quads -= 3;
        self.live_faces -= 2;
        true
    }

    /// The spokes, the sides and the two new faces of the star a recorded split of `f` made
    /// around `v`, checked against the record; `None` when the mesh is not in that state.
    fn split_star(&self, f: Face, v: Vertex, fl: u8) -> Option<([Edge; 3], [Edge; 3], [Face; 2])> {
        let (from_list, quads, faces) = unflags(fl);
        if quads > 3 || faces > 2 || !self.is_vertex_alive(v) || !self.is_face_alive(f) {
            return None;
        }
        let s0 = self.vertex_edge[v.index()];
        if !s0.is_primal() || !self.is_edge_alive(s0) {
            return None;
        }
        let s1 = self.onext(s0);
        let s2 = self.onext(s1);
        let spokes = [s0, s1, s2];
        if self.onext(s2) != s0 || s1 == s0 || s2 == s0 {
            return None;
        }
        // Each spoke a base edge from v, each face left of its spoke, each side joining the
        // spokes' ends with its face left of it.
        let mut sides = [Edge::INVALID; 3];
        let mut fs = [Face::INVALID; 3];
        for i in 0..3 {
            let s = spokes[i];
            if s.index() & 1 != 0 || self.primal_origin[s.index()] != v || !self.is_edge_alive(s) {
                return None;
            }
            fs[i] = self.left(s);
            let side = self.left_next(s);
            let next = spokes[(i + 1) % 3];
            if !fs[i].is_valid()
                || !side.is_primal()
                || !self.is_edge_alive(side)
                || self.primal_origin[side.index()] != self.primal_origin[s.index() ^ 1]
                || self.primal_origin[side.index() ^ 1] != self.primal_origin[next.index() ^ 1]
                || self.left(side) != fs[i]
                || self.left_next(side) != next.sym()
            {
                return None;
            }
            sides[i] = side;
        }
        let corners = sides.map(|s| self.primal_origin[s.index()]);
        if fs[0] != f
            || fs[1] == fs[0]
            || fs[2] == fs[0]
            || fs[1] == fs[2]
            || corners[0] == corners[1]
            || corners[1] == corners[2]
            || corners[0] == corners[2]
            || self.face_edge.get(f.index()) != Some(&sides[0])
            || self.face_edge.get(fs[1].index()) != Some(&sides[1])
            || self.face_edge.get(fs[2].index()) != Some(&sides[2])
        {
            return None;
        }
        // The ids taken: off the free lists first, then appended (last in their arrays, in
        // their order).
        let quad_ids = spokes.map(|s| s.index() / 2);
        let n = self.primal_origin.len() / 2;
        let appended_quads = (quads..3).all(|k| quad_ids[k] == n - (3 - k));
        let m = self.face_edge.len();
        let appended_faces = (faces..2).all(|k| fs[k + 1].index() == m - (2 - k));
        let vertex_ok = from_list || v.index() + 1 == self.vertex_edge.len();
        let lens = [
            self.primal_next.len(),
            self.dual_origin.len(),
            self.dual_next.len(),
        ];
        let live = self.live_vertices >= 1 && self.live_quads >= 3 && self.live_faces >= 2;
        (appended_quads && appended_faces && vertex_ok && live && lens.iter().all(|&l| l == 2 * n))
            .then_some((spokes, sides, [fs[1], fs[2]]))
    }
}

#[cfg(test)]
mod tests;
