//! `compact()`: squeezes removed elements out of the id spaces.

use crate::ids::DUAL_BIT;
use crate::journal::{Change, Remap};
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, Vertex};

/// Old → new index for one element kind, `Remap::DEAD` for dead slots; returns the map and the
/// number of survivors.
fn build_map(len: usize, alive: impl Fn(usize) -> bool) -> (Vec<u32>, usize) {
    let mut map = Vec::with_capacity(len);
    let mut next = 0u32;
    for i in 0..len {
        if alive(i) {
            map.push(next);
            next += 1;
        } else {
            map.push(Remap::DEAD);
        }
    }
    (map, next as usize)
}

#[inline(always)]
fn map_edge(quads: &[u32], e: Edge) -> Edge {
    if !e.is_valid() {
        return e;
    }
    let raw = e.raw();
    Edge::from_raw((raw & DUAL_BIT) | (quads[e.quad()] << 1) | (raw & 1))
}

impl Mesh {
    /// Removes every hole from the id spaces: survivors are renumbered densely, keeping their
    /// relative order, every stored id is rewritten and the free lists are emptied. Returns the
    /// old → new [`Remap`] and logs it as [`Change::Compact`]. Cheap to call on a mesh without
    /// holes (the identity map, nothing moves). Either way the arrays give their spare capacity
    /// back ([`Mesh::shrink_to_fit`]), e.g. after a [`Mesh::reserve`] that was not used up.
    /// With an undo log on, a compaction that moves anything is recorded as a copy of the whole
    /// topology before and after.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, Vertex};
    /// let mut m = Mesh::from_triangles(5, &[[0, 1, 2], [0, 2, 3], [0, 3, 4]]).unwrap();
    /// m.remove_face(Face::new(0)).unwrap();
    /// m.remove_vertex(Vertex::new(1)).unwrap();
    /// let r = m.compact();
    /// assert_eq!(r.vertices, [0, u32::MAX, 1, 2, 3]);
    /// assert_eq!(r.faces, [u32::MAX, 0, 1]);
    /// assert!(!m.has_holes());
    /// assert_eq!(m.face_vertices(Face::new(0)), [Vertex::new(0), Vertex::new(1), Vertex::new(2)]);
    /// m.check().unwrap();
    /// ```
    pub fn compact(&mut self) -> Remap {
        let (vertices, nv) = build_map(self.vertex_edge.len(), |i| {
            self.vertex_edge[i] != DEAD_VERTEX
        });
        let (faces, nf) = build_map(self.face_edge.len(), |i| self.face_edge[i].is_valid());
        let (quads, nq) = build_map(self.primal_origin.len() / 2, |q| {
            self.primal_origin[2 * q].is_valid()
        });
        let remap = Remap {
            vertices,
            faces,
            quads,
        };
        self.log(|| Change::Compact(remap.clone()));
        if !self.has_holes() {
            self.shrink_to_fit();
            return remap;
        }
        let before = self.begin_bulk_write();

        let qmap = &remap.quads;
        let vmap = &remap.vertices;
        let fmap = &remap.faces;
        // Survivors only move down, so one forward pass can rewrite in place.
        let mut w = 0;
        for i in 0..self.vertex_edge.len() {
            let e = self.vertex_edge[i];
            if e != DEAD_VERTEX {
                self.vertex_edge[w] = map_edge(qmap, e);
                w += 1;
            }
        }
        self.vertex_edge.truncate(nv);
        let mut w = 0;
        for i in 0..self.face_edge.len() {
            let e = self.face_edge[i];
            if e.is_valid() {
                self.face_edge[w] = map_edge(qmap, e);
                w += 1;
            }
        }
        self.face_edge.truncate(nf);
        let mut w = 0;
        for i in 0..self.primal_origin.len() {
            if !self.primal_origin[i & !1].is_valid() {
                continue;
            }
            let o = self.primal_origin[i];
            self.primal_origin[w] = Vertex::new(vmap[o.index()]);
            self.primal_next[w] = map_edge(qmap, self.primal_next[i]);
            let f = self.dual_origin[i];
            self.dual_origin[w] = if f.is_valid() {
                Face::new(fmap[f.index()])
            } else {
                f
            };
            self.dual_next[w] = map_edge(qmap, self.dual_next[i]);
            w += 1;
        }
        self.primal_next.truncate(2 * nq);
        self.dual_next.truncate(2 * nq);
        self.primal_origin.truncate(2 * nq);
        self.dual_origin.truncate(2 * nq);
        self.free_vertices.clear();
        self.free_faces.clear();
        self.free_quads.clear();
        self.shrink_to_fit();
        self.end_bulk_write(before);
        remap
    }
}
