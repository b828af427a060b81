//! Parallel iteration over the live elements with rayon (feature `rayon`).
//!
//! Each iterator runs over the id space in chunks of [`PAR_CHUNK`] ids and yields the live
//! elements in id order: `collect()` gives exactly what the sequential iterator gives, whatever
//! the thread count, and reductions that depend on order (`find_first`, `collect`) are
//! deterministic.

use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;

mod parts;
pub(crate) use parts::PartsScratch;
pub use parts::{MeshPart, PartError};

/// Ids per rayon work item: large enough that scheduling costs nothing next to the work,
/// small enough to balance 16+ threads on a 100k-element mesh.
pub const PAR_CHUNK: usize = 4096;

impl Mesh {
    /// All live vertices, in parallel (id order when collected).
    ///
    /// ```
    /// use quadedge::{Mesh, shapes};
    /// use rayon::prelude::*;
    /// let (n, t) = shapes::icosahedron_grid(8);
    /// let m = Mesh::from_triangles(n, &t).unwrap();
    /// let degrees: Vec<usize> = m.par_vertices().map(|v| m.degree(v)).collect();
    /// assert_eq!(degrees, m.vertices().map(|v| m.degree(v)).collect::<Vec<_>>());
    /// ```
    pub fn par_vertices(&self) -> impl ParallelIterator<Item = Vertex> + '_ {
        (0..self.vertex_edge.len() as u32)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .filter(move |&i| self.vertex_edge[i as usize] != DEAD_VERTEX)
            .map(Vertex::new)
    }

    /// All live faces, in parallel (id order when collected).
    pub fn par_faces(&self) -> impl ParallelIterator<Item = Face> + '_ {
        (0..self.face_edge.len() as u32)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .filter(move |&i| self.face_edge[i as usize].is_valid())
            .map(Face::new)
    }

    /// The base edge of every live quad-edge, in parallel (id order when collected): what
    /// [`undirected_edges`](Self::undirected_edges) yields.
    pub fn par_undirected_edges(&self) -> impl ParallelIterator<Item = Edge> + '_ {
        (0..(self.primal_origin.len() / 2) as u32)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .filter(move |&q| self.primal_origin[2 * q as usize].is_valid())
            .map(Edge::of_quad)
    }

    /// All live primal directed edges, in parallel (id order when collected): what
    /// [`directed_edges`](Self::directed_edges) yields.
    pub fn par_directed_edges(&self) -> impl ParallelIterator<Item = Edge> + '_ {
        (0..self.primal_origin.len() as u32)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .filter(move |&i| self.primal_origin[(i & !1) as usize].is_valid())
            .map(Edge::primal)
    }

    /// [`check`](Self::check) on all cores: the same checks, and the same first error
    /// whatever the thread count (every chunk finds its first error, the lowest index wins;
    /// the stages that walk shared state stay sequential).
    ///
    /// # Errors
    /// Exactly what [`check`](Self::check) returns.
    pub fn check_par(&self) -> Result<(), crate::MeshError> {
        self.check_with(true)
    }
}

/// Runs `f` on `0..n` in parallel chunks; returns the error of the lowest failing index.
pub(crate) fn first_error<E: Send>(
    n: usize,
    f: impl Fn(usize) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let chunks = n.div_ceil(PAR_CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| (c * PAR_CHUNK..n.min((c + 1) * PAR_CHUNK)).try_for_each(&f))
        .find_first(|r| r.is_err())
        .unwrap_or(Ok(()))
}

#[cfg(test)]
mod tests;
