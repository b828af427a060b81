//! Freezing a [`Mesh`] and thawing it back.

use super::{
    EVEN, FrozenError, FrozenMesh, HOLE, ID, MAX_FROZEN_VERTICES, RANK_UNKNOWN, ROT_SHIFT,
};
use crate::{Edge, Face, Mesh, Vertex};

impl FrozenMesh {
    /// The frozen copy of `mesh`, which must be valid, without holes, and in sweep order
    /// (as [`Mesh::reorder_vertices`] leaves it). Every id and every query answer is kept:
    /// rings start at the same edge, faces list their corners from the same one.
    ///
    /// ```
    /// use quadedge::{FrozenError, FrozenMesh, Mesh, Vertex, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut mesh = Mesh::from_triangles(n, &t).unwrap();
    /// assert_eq!(FrozenMesh::freeze(&mesh), Err(FrozenError::NotInSweepOrder));
    /// mesh.reorder_vertices(&[0, 1, 2, 3, 4, 5]).unwrap();
    /// let frozen = FrozenMesh::freeze(&mesh).unwrap();
    /// let v = Vertex::new(4);
    /// assert!(frozen.neighbors(v).eq(mesh.neighbors(v)));
    /// assert_eq!(frozen.thaw().unwrap(), mesh);
    /// ```
    ///
    /// # Errors
    /// [`FrozenError::HasHoles`], [`FrozenError::TooLarge`], [`FrozenError::Mesh`] when
    /// [`Mesh::check`] fails, [`FrozenError::NotInSweepOrder`] when quad-edges or faces are
    /// not numbered by first visit in a sweep over the vertices in id order.
    pub fn freeze(mesh: &Mesh) -> Result<FrozenMesh, FrozenError> {
        if mesh.has_holes() {
            return Err(FrozenError::HasHoles);
        }
        let nv = mesh.vertex_slots();
        if nv > MAX_FROZEN_VERTICES {
            return Err(FrozenError::TooLarge);
        }
        mesh.check().map_err(FrozenError::Mesh)?;
        let mut out = FrozenMesh {
            ring_start: Vec::with_capacity(nv + 1),
            dest: Vec::with_capacity(mesh.directed_edge_count()),
            edge_start: Vec::with_capacity(nv + 1),
            face_start: Vec::with_capacity(nv + 1),
            face_corner: vec![0; mesh.face_slots()],
            face_rank: Vec::with_capacity(mesh.directed_edge_count()),
        };
        let (mut nq, mut nf) = (0u32, 0u32);
        for v in 0..nv as u32 {
            out.ring_start.push(out.dest.len() as u32);
            out.edge_start.push(nq);
            out.face_start.push(nf);
            for e in mesh.outgoing(Vertex::new(v)) {
                let q = e.quad() as u32;
                if q > nq {
                    return Err(FrozenError::NotInSweepOrder);
                }
                nq += u32::from(q == nq);
                let w = mesh.dest(e).raw();
                let mut d = w | if e.is_even() { EVEN } else { 0 };
                let f = mesh.left(e);
                let mut rank = 0;
                if !f.is_valid() {
                    d |= HOLE;
                } else if f.raw() > nf {
                    return Err(FrozenError::NotInSweepOrder);
                } else if f.raw() == nf {
                    // First visit: `v` is the smallest corner. Keep where the face starts.
                    let first = mesh.origin(mesh.face_edge(f));
                    let x = mesh.dest(mesh.origin_next(e));
                    let rot = if first.raw() == v {
                        0
                    } else if first.raw() == w {
                        1
                    } else {
                        debug_assert_eq!(first, x);
                        2
                    };
                    out.face_corner[nf as usize] = v | rot << ROT_SHIFT;
                    nf += 1;
                }
                if f.is_valid() {
                    // Visited at its smallest corner already (or just now).
                    let m = out.face_corner[f.index()] & ID;
                    let r = f.raw() - out.face_start[m as usize];
                    rank = r.min(u32::from(RANK_UNKNOWN)) as u8;
                }
                out.dest.push(d);
                out.face_rank.push(rank);
            }
        }
        out.ring_start.push(out.dest.len() as u32);
        out.edge_start.push(nq);
        out.face_start.push(nf);
        Ok(out)
    }

    /// The editable mesh this frozen mesh was made from: the same ids, rings and faces, in
    /// sweep order (`thaw(freeze(m)) == m`).
    ///
    /// # Errors
    /// [`FrozenError::Mesh`] if the result fails [`Mesh::check`]: impossible for a mesh made
    /// by [`FrozenMesh::freeze`] and not expected after [`FrozenMesh::from_parts`], checked
    /// anyway because the arrays may come from a file.
    pub fn thaw(&self) -> Result<Mesh, FrozenError> {
        let nv = self.vertex_count();
        let nh = self.dest.len();
        let nf = self.face_count();
        // Primal edge id of every slot: new quad-edges at their smaller end, in sweep order.
        let mut slot_edge = vec![Edge::INVALID; nh];
        let mut nq = 0u32;
        for v in 0..nv as u32 {
            for j in self.ring(v) {
                let d = self.dest[j];
                let w = d & ID;
                slot_edge[j] = if v < w {
                    nq += 1;
                    Edge::primal(2 * (nq - 1) + u32::from(d & EVEN == 0))
                } else {
                    match self.slot_to(w, v) {
                        Some(k) => slot_edge[k].sym(),
                        None => return Err(corrupt("missing twin")),
                    }
                };
            }
        }
        let mut m = mesh_with! {
            vertex_edge: vec![Edge::INVALID; nv],
            face_edge: vec![Edge::INVALID; nf],
            primal_origin: vec![Vertex::INVALID; nh],
            primal_next: vec![Edge::INVALID; nh],
            dual_origin: vec![Face::INVALID; nh],
            dual_next: vec![Edge::INVALID; nh],
            live_vertices: nv as u32,
            live_faces: nf as u32,
            live_quads: (nh / 2) as u32,
        };
        // Faces are counted at their smallest corner, in ring order: no rank scans needed.
        let mut face_slot = Vec::with_capacity(nf);
        for v in 0..nv as u32 {
            let ring = self.ring(v);
            if !ring.is_empty() {
                m.vertex_edge[v as usize] = slot_edge[ring.start];
            }
            for j in ring.clone() {
                let e = slot_edge[j].index();
                m.primal_origin[e] = Vertex::new(v);
                m.primal_next[e] = slot_edge[Self::next_slot(&ring, j)];
                if self.is_face_corner(v, &ring, j) {
                    face_slot.push(j);
                }
            }
        }
        if face_slot.len() != nf {
            return Err(corrupt("face count"));
        }
        for (f, &j) in face_slot.iter().enumerate() {
            let c = self.face_corner[f];
            let first = c & ID;
            let w = self.dest[j] & ID;
            let x = self.dest[Self::next_slot(&self.ring(first), j)] & ID;
            let (Some(j2), Some(j3)) = (self.slot_to(w, x), self.slot_to(x, first)) else {
                return Err(corrupt("open face corner"));
            };
            let edges = [slot_edge[j], slot_edge[j2], slot_edge[j3]];
            let face = Face::new(f as u32);
            for e in edges {
                m.dual_origin[e.index() ^ 1] = face;
            }
            m.face_edge[f] = edges[(c >> ROT_SHIFT) as usize % 3];
        }
        // Dual rings follow from the primal ones: onext(rot x) = inv_rot(oprev x).
        for i in 0..nh {
            let n = m.primal_next[i];
            if n.is_valid() {
                m.dual_next[n.index()] = Edge::dual((i ^ 1) as u32);
            }
        }
        m.check().map_err(FrozenError::Mesh)?;
        Ok(m)
    }
}

fn corrupt(what: &str) -> FrozenError {
    FrozenError::Corrupt(what.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MeshError, shapes};

    #[test]
    fn freezing_a_corrupt_mesh_is_a_typed_error() {
        let (n, t) = shapes::octahedron();
        let mut good = Mesh::from_triangles(n, &t).unwrap();
        good.reorder_vertices(&[0, 1, 2, 3, 4, 5]).unwrap();
        let corruptions: [fn(&mut Mesh); 4] = [
            |m| m.primal_next[3] = m.primal_next[5],
            |m| m.primal_origin[2] = Vertex::new(99),
            |m| m.dual_origin[1] = Face::new(42),
            |m| m.vertex_edge[0] = Edge::primal(1000),
        ];
        for corrupt in corruptions {
            let mut m = good.clone();
            corrupt(&mut m);
            assert!(matches!(
                FrozenMesh::freeze(&m),
                Err(FrozenError::Mesh(MeshError::Corrupt(_)))
            ));
        }
    }
}
