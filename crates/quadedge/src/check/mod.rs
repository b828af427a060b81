//! `check()`: verifies every invariant of the structure, one part per concept.
//!
//! - [`elements`]: array lengths, free lists (each removed id exactly once, nothing else) and
//!   live counts;
//! - [`rings`]: edge endpoints and faces, `origin_next` as a permutation whose cycles are the
//!   vertex rings, the dual rings, and simplicity (no loops, no parallel edges);
//! - [`faces`]: every live face a triangle of three distinct corners, named by its edges;
//! - [`euler`]: Euler's formula per connected component.
//!
//! The parts run in this order: each may rely on what the previous ones proved (array lengths
//! before indexing, a valid ring permutation before walking rings).

mod elements;
mod euler;
mod faces;
mod rings;
#[cfg(test)]
mod tests;

use crate::{Mesh, MeshError};

/// Returns `MeshError::Corrupt` with the formatted message when the condition fails.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err($crate::MeshError::Corrupt(format!($($msg)+)));
        }
    };
}
pub(crate) use ensure;

impl Mesh {
    /// Verifies every invariant and returns the first violation.
    ///
    /// Checked: array lengths; the free lists hold every removed id exactly once and nothing
    /// else (no live id, no id out of range, no id twice); the live counts; every live
    /// quad-edge has two distinct live endpoints and at least one face; `origin_next` is a
    /// permutation whose cycles are exactly the vertex rings (one ring per vertex, holding all
    /// its edges, origins agreeing); the dual rings are the ones the primal rings imply; no two
    /// edges join the same two vertices (no parallel edges; loops are excluded above); every
    /// live face is a triangle of three distinct vertices whose edges name it as their left
    /// face; vertex and face entry edges are live and correct; and Euler's formula per
    /// connected component (V − E + F + holes = 2 − 2·genus, so even and at most 2 per
    /// component).
    ///
    /// What this accepts, every edit accepts as input: a closed surface of two triangles on
    /// the same three vertices (a pillow) is valid, a multigraph is not. A vertex may join
    /// several fans of faces ([`Mesh::add_face`] builds such bowties on purpose), so one fan per
    /// boundary vertex is not checked here: the stitching edits and [`Mesh::remove_face`] keep
    /// it, and [`Mesh::fan_count`] reports it. Every accepted edit
    /// leaves a mesh that passes `check()`.
    ///
    /// Costs O(n); meant for tests, debugging and data read from files.
    ///
    /// # Errors
    /// [`MeshError::Corrupt`] naming the first broken invariant.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError};
    /// // A pillow: two triangles glued along all three edges, a valid closed surface.
    /// let pillow = Mesh::from_triangles(3, &[[0, 1, 2], [1, 0, 2]]).unwrap();
    /// pillow.check().unwrap();
    /// assert!(pillow.is_closed());
    /// ```
    pub fn check(&self) -> Result<(), MeshError> {
        self.check_with(false)
    }

    /// The checks, with the per-element scans in parallel chunks when `par` (feature `rayon`).
    pub(crate) fn check_with(&self, par: bool) -> Result<(), MeshError> {
        self.check_array_lengths()?;
        self.check_free_lists()?;
        self.check_live_counts()?;
        let edges_at = self.check_edges(par)?;
        self.check_vertex_rings(&edges_at, par)?;
        self.check_no_parallel_edges()?;
        self.check_faces(par)?;
        self.check_euler()
    }
}

/// Runs `f` on `0..n` and returns the first error in index order: one index after the other,
/// or (`par`, feature `rayon`) in parallel chunks where the lowest failing index wins, which
/// is the same error.
pub(crate) fn scan(
    n: usize,
    par: bool,
    f: impl Fn(usize) -> Result<(), MeshError> + Sync,
) -> Result<(), MeshError> {
    #[cfg(feature = "rayon")]
    if par {
        return crate::par::first_error(n, f);
    }
    let _ = par;
    (0..n).try_for_each(f)
}
