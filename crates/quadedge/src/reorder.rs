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
        let rebuilt = self.sweep(order)?;
        // The whole topology is rewritten: an undo log keeps it as one before/after copy.
        let before = self.begin_bulk_write();
        let remap = Remap {
            vertices,
            faces: rebuilt.faces,
            quads: rebuilt.quads,
        };
        self.vertex_edge = rebuilt.vertex_edge;
        self.primal_origin = rebuilt.primal_origin;
        self.primal_next = rebuilt.primal_next;
        self.dual_origin = rebuilt.dual_origin;
        // Faces keep their entry edges; the dual rings follow from the primal ones:
        // onext(rot x) = inv_rot(oprev x).
        let mut face_edge = vec![Edge::INVALID; self.live_faces as usize];
        for (old, &new) in remap.faces.iter().enumerate() {
            if new != Remap::DEAD {
                face_edge[new as usize] = remap.edge(self.face_edge[old]).unwrap_or(Edge::INVALID);
            }
        }
        self.face_edge = face_edge;
        let mut dual_next = vec![Edge::INVALID; self.primal_next.len()];
        for (i, n) in self.primal_next.iter().enumerate() {
            if let Some(d) = dual_next.get_mut(n.index()) {
                *d = Edge::dual((i ^ 1) as u32);
            }
        }
        self.dual_next = dual_next;
        self.free_vertices.clear();
        self.free_faces.clear();
        self.free_quads.clear();
        self.end_bulk_write(before);
        self.log(|| Change::Compact(remap.clone()));
        Ok(remap)
    }

    /// One sweep over the rings of `order`'s vertices (old ids): numbers quad-edges and faces
    /// by first visit and writes the new primal arrays on the way, so the old arrays are read
    /// once, in ring order, and the new ones are written where the sweep is. Nothing of `self`
    /// changes, so a corrupt ring can still be reported with the mesh untouched.
    fn sweep(&self, order: &[u32]) -> Result<Rebuilt, ReorderError> {
        let quad_slots = self.primal_origin.len() / 2;
        let ne = 2 * self.live_quads as usize;
        let mut out = Rebuilt {
            quads: vec![Remap::DEAD; quad_slots],
            faces: vec![Remap::DEAD; self.face_edge.len()],
            vertex_edge: Vec::with_capacity(order.len()),
            primal_origin: vec![Vertex::INVALID; ne],
            primal_next: vec![Edge::INVALID; ne],
            dual_origin: vec![Face::INVALID; ne],
        };
        let (mut nq, mut nf) = (0u32, 0u32);
        // Every directed edge lies in exactly one ring: more steps means a corrupt ring.
        let mut budget = ne;
        // Rings are walked `LANES` at a time, interleaved: each step of a ring waits for a
        // (likely missed) load, so independent rings let the misses overlap. The numbering
        // then runs over the gathered edges in sweep order.
        let mut lanes: [Vec<Edge>; LANES] = Default::default();
        for (chunk_index, chunk) in order.chunks(LANES).enumerate() {
            let mut start = [Edge::INVALID; LANES];
            let mut cur = [Edge::INVALID; LANES];
            for (k, &old) in chunk.iter().enumerate() {
                lanes[k].clear();
                start[k] = self.vertex_edge[old as usize];
                cur[k] = start[k];
            }
            let mut walking = true;
            while walking {
                walking = false;
                for k in 0..chunk.len() {
                    let e = cur[k];
                    if !e.is_valid() {
                        continue;
                    }
                    let next = match self.primal_next.get(e.index()) {
                        Some(&n) if budget > 0 && e.is_primal() => n,
                        _ => return Err(ReorderError::Corrupt),
                    };
                    budget -= 1;
                    lanes[k].push(e);
                    cur[k] = if next == start[k] {
                        Edge::INVALID
                    } else {
                        next
                    };
                    walking = true;
                }
            }
            for (k, ring) in lanes[..chunk.len()].iter().enumerate() {
                let new_v = Vertex::new((chunk_index * LANES + k) as u32);
                let mut prev = Edge::INVALID;
                let mut first = Edge::INVALID;
                for &e in ring {
                    let (q, &left) = match (
                        out.quads.get_mut(e.quad()),
                        self.dual_origin.get(e.index() ^ 1),
                    ) {
                        (Some(q), Some(left)) if *q != Remap::DEAD || nq < self.live_quads => {
                            (q, left)
                        }
                        _ => return Err(ReorderError::Corrupt),
                    };
                    if *q == Remap::DEAD {
                        *q = nq;
                        nq += 1;
                    }
                    let new_e = Edge::primal(2 * *q + (e.raw() & 1));
                    let i = new_e.index();
                    out.primal_origin[i] = new_v;
                    if left.is_valid() {
                        let f = out
                            .faces
                            .get_mut(left.index())
                            .ok_or(ReorderError::Corrupt)?;
                        if *f == Remap::DEAD {
                            *f = nf;
                            nf += 1;
                        }
                        out.dual_origin[i ^ 1] = Face::new(*f);
                    }
                    if prev.is_valid() {
                        out.primal_next[prev.index()] = new_e;
                    } else {
                        first = new_e;
                    }
                    prev = new_e;
                }
                if prev.is_valid() {
                    out.primal_next[prev.index()] = first;
                }
                out.vertex_edge.push(first);
            }
        }
        // A valid mesh reaches every live element exactly once per directed edge.
        if budget != 0 || nq != self.live_quads || nf != self.live_faces {
            return Err(ReorderError::Corrupt);
        }
        Ok(out)
    }
}

/// Rings walked at once by [`Mesh::sweep`].
const LANES: usize = 8;

/// What [`Mesh::sweep`] builds: the maps and the new arrays.
struct Rebuilt {
    quads: Vec<u32>,
    faces: Vec<u32>,
    vertex_edge: Vec<Edge>,
    primal_origin: Vec<Vertex>,
    primal_next: Vec<Edge>,
    dual_origin: Vec<Face>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes;

    #[test]
    fn corrupt_rings_are_reported_and_change_nothing() {
        let (n, t) = shapes::octahedron();
        let good = Mesh::from_triangles(n, &t).unwrap();
        let order: Vec<u32> = (0..n as u32).rev().collect();
        let corruptions: [fn(&mut Mesh); 4] = [
            // A ring that never returns to its start.
            |m| m.primal_next[0] = m.primal_next[m.primal_next[0].index()],
            // An entry edge past the end, or a dual one.
            |m| m.vertex_edge[2] = Edge::primal(1000),
            |m| m.vertex_edge[2] = m.vertex_edge[2].rot(),
            // A face id past the end.
            |m| m.dual_origin[1] = Face::new(77),
        ];
        for corrupt in corruptions {
            let mut m = good.clone();
            corrupt(&mut m);
            let before = m.clone();
            assert_eq!(m.reorder_vertices(&order), Err(ReorderError::Corrupt));
            assert_eq!(m, before);
        }
    }
}
