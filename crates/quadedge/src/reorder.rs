//! `reorder_vertices()`: renumbers the mesh in a caller's vertex order (a space-filling curve,
//! usually) so that elements close on the surface sit close in memory.
//!
//! Traversal cost is dominated by cache misses once a mesh outgrows the caches: a sweep over a
//! mesh whose ids follow the input order of random points misses on nearly every step. After
//! reordering, vertices follow the given order, and quad-edges and faces are numbered by their
//! first visit in a sweep over the vertex rings in that order, so a vertex's ring, its faces
//! and its neighbours' rings share cache lines.

use crate::journal::{Change, Remap};
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, Vertex};
use core::fmt;

/// Why [`Mesh::reorder_vertices`] rejected an order. The mesh is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReorderError {
    /// The order must name every live vertex once: its length must be the live vertex count.
    WrongLength {
        /// The live vertex count.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The order names a vertex that is out of range or removed.
    DeadVertex(Vertex),
    /// The order names the same vertex twice.
    RepeatedVertex(Vertex),
    /// The mesh's rings do not cover its edges (a corrupt mesh: run [`Mesh::check`]).
    Corrupt,
}

impl fmt::Display for ReorderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongLength { expected, got } => write!(
                f,
                "vertex order has {got} entries, the mesh has {expected} live vertices"
            ),
            Self::DeadVertex(v) => write!(f, "vertex order names {v:?}, which does not exist"),
            Self::RepeatedVertex(v) => write!(f, "vertex order names {v:?} twice"),
            Self::Corrupt => write!(f, "the mesh's vertex rings are corrupt"),
        }
    }
}

impl std::error::Error for ReorderError {}

impl Mesh {
    /// Renumbers the mesh for locality: new vertex `i` is old vertex `order[i]`; quad-edges
    /// and faces are numbered by their first visit in a sweep over the vertex rings
    /// (counter-clockwise from [`Mesh::vertex_edge`]) in the new vertex order. Removed
    /// elements are compacted away on the way. Edge orientation, ring order, ring entry edges
    /// and face entry edges are kept, so every query answers the same after mapping ids.
    ///
    /// Returns the old → new [`Remap`] and logs it as [`Change::Compact`], so layers follow
    /// exactly as after [`Mesh::compact`]. Reordering an already reordered mesh in the
    /// identity order changes nothing.
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let heights: Vec<f32> = (0..n).map(|i| i as f32 * 10.0).collect();
    /// let order = [5, 4, 3, 2, 1, 0];
    /// let remap = m.reorder_vertices(&order).unwrap();
    /// // A per-vertex array follows the remap.
    /// let mut moved = vec![0.0; n];
    /// for (old, &new) in remap.vertices.iter().enumerate() {
    ///     moved[new as usize] = heights[old];
    /// }
    /// assert_eq!(moved, [50.0, 40.0, 30.0, 20.0, 10.0, 0.0]);
    /// m.check().unwrap();
    /// assert_eq!(m.degree(Vertex::new(0)), 4);
    /// ```
    ///
    /// # Errors
    /// [`ReorderError::WrongLength`] unless `order` has one entry per live vertex;
    /// [`ReorderError::DeadVertex`] for an entry that is out of range or removed;
    /// [`ReorderError::RepeatedVertex`] for an entry given twice; [`ReorderError::Corrupt`]
    /// when the rings do not hold the edges (only on a corrupt mesh). The mesh is unchanged.
    pub fn reorder_vertices(&mut self, order: &[u32]) -> Result<Remap, ReorderError> {
        if order.len() != self.vertex_count() {
            return Err(ReorderError::WrongLength {
                expected: self.vertex_count(),
                got: order.len(),
            });
        }
        let mut vertices = vec![Remap::DEAD; self.vertex_edge.len()];
        for (new, &old) in order.iter().enumerate() {
            let v = Vertex::new(old);
            match vertices.get_mut(old as usize) {
                Some(slot) if self.vertex_edge[old as usize] != DEAD_VERTEX => {
                    if *slot != Remap::DEAD {
                        return Err(ReorderError::RepeatedVertex(v));
                    }
                    *slot = new as u32;
                }
                _ => return Err(ReorderError::DeadVertex(v)),
            }
        }
        let (quads, faces) = self.sweep_numbering(order)?;
        let remap = Remap {
            vertices,
            faces,
            quads,
        };
        self.apply_permutation(order, &remap);
        self.log(|| Change::Compact(remap.clone()));
        Ok(remap)
    }

    /// Numbers quad-edges and faces by first visit, sweeping the rings of `order`'s vertices.
    fn sweep_numbering(&self, order: &[u32]) -> Result<(Vec<u32>, Vec<u32>), ReorderError> {
        let quad_slots = self.primal_origin.len() / 2;
        let mut quads = vec![Remap::DEAD; quad_slots];
        let mut faces = vec![Remap::DEAD; self.face_edge.len()];
        let (mut nq, mut nf) = (0u32, 0u32);
        // Every directed edge lies in exactly one ring: more steps means a corrupt ring.
        let mut budget = self.primal_origin.len();
        for &old in order {
            let start = self.vertex_edge[old as usize];
            if !start.is_valid() {
                continue;
            }
            let mut e = start;
            loop {
                let (q, left) = match (quads.get_mut(e.quad()), self.dual_origin.get(e.index() ^ 1))
                {
                    (Some(q), Some(&left)) if budget > 0 => (q, left),
                    _ => return Err(ReorderError::Corrupt),
                };
                budget -= 1;
                if *q == Remap::DEAD {
                    *q = nq;
                    nq += 1;
                }
                if let Some(f) = faces.get_mut(left.index())
                    && *f == Remap::DEAD
                {
                    *f = nf;
                    nf += 1;
                }
                e = self.primal_next[e.index()];
                if e == start {
                    break;
                }
            }
        }
        // A valid mesh reaches every live element; a bijection is kept whatever happens.
        for q in 0..quad_slots {
            if quads[q] == Remap::DEAD && self.primal_origin[2 * q].is_valid() {
                return Err(ReorderError::Corrupt);
            }
        }
        for f in 0..faces.len() {
            if faces[f] == Remap::DEAD && self.face_edge[f].is_valid() {
                return Err(ReorderError::Corrupt);
            }
        }
        Ok((quads, faces))
    }

    /// Rewrites every array through `remap` (a bijection on live elements).
    fn apply_permutation(&mut self, order: &[u32], remap: &Remap) {
        let edge = |e: Edge| remap.edge(e).unwrap_or(Edge::INVALID);
        let nq = self.live_quads as usize;
        let nf = self.live_faces as usize;
        let vertex_edge = order
            .iter()
            .map(|&old| edge(self.vertex_edge[old as usize]))
            .collect();
        let mut face_edge = vec![Edge::INVALID; nf];
        for (old, &new) in remap.faces.iter().enumerate() {
            if new != Remap::DEAD {
                face_edge[new as usize] = edge(self.face_edge[old]);
            }
        }
        let mut primal_origin = vec![Vertex::INVALID; 2 * nq];
        let mut primal_next = vec![Edge::INVALID; 2 * nq];
        let mut dual_origin = vec![Face::INVALID; 2 * nq];
        let mut dual_next = vec![Edge::INVALID; 2 * nq];
        for (q, &new) in remap.quads.iter().enumerate() {
            if new == Remap::DEAD {
                continue;
            }
            for s in 0..2 {
                let (i, j) = (2 * q + s, 2 * new as usize + s);
                primal_origin[j] = remap
                    .vertex(self.primal_origin[i])
                    .unwrap_or(Vertex::INVALID);
                primal_next[j] = edge(self.primal_next[i]);
                dual_origin[j] = remap.face(self.dual_origin[i]).unwrap_or(Face::INVALID);
                dual_next[j] = edge(self.dual_next[i]);
            }
        }
        self.vertex_edge = vertex_edge;
        self.face_edge = face_edge;
        self.primal_origin = primal_origin;
        self.primal_next = primal_next;
        self.dual_origin = dual_origin;
        self.dual_next = dual_next;
        self.free_vertices.clear();
        self.free_faces.clear();
        self.free_quads.clear();
    }
}
