//! Array lengths, free lists and live counts.

use super::ensure;
use crate::mesh::DEAD_VERTEX;
use crate::{Mesh, MeshError};

/// Checks that a free list names every dead slot of its kind exactly once and nothing else.
/// `dead(i)` says whether slot `i` (already known to be in range) is removed.
fn check_free_list(
    kind: &str,
    free: &[u32],
    slots: usize,
    dead: impl Fn(usize) -> bool,
) -> Result<(), MeshError> {
    let mut listed = vec![false; slots];
    for &i in free {
        let i = i as usize;
        ensure!(
            i < slots,
            "free {kind} list holds {i}, past the {slots} {kind} slots"
        );
        ensure!(dead(i), "free {kind} list holds {i}, which is alive");
        ensure!(!listed[i], "free {kind} list holds {i} twice");
        listed[i] = true;
    }
    let dead_count = (0..slots).filter(|&i| dead(i)).count();
    ensure!(
        dead_count == free.len(),
        "free {kind} list holds {} ids, but {dead_count} {kind} slots are dead",
        free.len()
    );
    Ok(())
}

impl Mesh {
    pub(super) fn check_array_lengths(&self) -> Result<(), MeshError> {
        let ne = self.primal_origin.len();
        ensure!(ne.is_multiple_of(2), "odd number of primal edges");
        ensure!(
            self.primal_next.len() == ne
                && self.dual_origin.len() == ne
                && self.dual_next.len() == ne,
            "edge arrays differ in length"
        );
        // Ids must fit below the markers: vertex ids below `DEAD_VERTEX`, face ids below
        // `INVALID`, edge indices below the dual bit.
        ensure!(
            self.vertex_edge.len() < DEAD_VERTEX.raw() as usize,
            "{} vertex slots overflow the id space",
            self.vertex_edge.len()
        );
        ensure!(
            self.face_edge.len() < u32::MAX as usize,
            "{} face slots overflow the id space",
            self.face_edge.len()
        );
        ensure!(
            ne <= crate::ids::MAX_DIRECTED_EDGES,
            "{ne} directed edges overflow the 31-bit edge index"
        );
        Ok(())
    }

    pub(super) fn check_free_lists(&self) -> Result<(), MeshError> {
        check_free_list("vertex", &self.free_vertices, self.vertex_edge.len(), |i| {
            self.vertex_edge[i] == DEAD_VERTEX
        })?;
        check_free_list("face", &self.free_faces, self.face_edge.len(), |i| {
            !self.face_edge[i].is_valid()
        })?;
        check_free_list(
            "quad",
            &self.free_quads,
            self.primal_origin.len() / 2,
            |q| !self.primal_origin[2 * q].is_valid(),
        )
    }

    pub(super) fn check_live_counts(&self) -> Result<(), MeshError> {
        let live_v = self.vertex_edge.len() - self.free_vertices.len();
        let live_f = self.face_edge.len() - self.free_faces.len();
        let live_q = self.primal_origin.len() / 2 - self.free_quads.len();
        ensure!(
            live_v == self.live_vertices as usize,
            "live vertex count {} != {live_v}",
            self.live_vertices
        );
        ensure!(
            live_f == self.live_faces as usize,
            "live face count {} != {live_f}",
            self.live_faces
        );
        ensure!(
            live_q == self.live_quads as usize,
            "live edge count {} != {live_q}",
            self.live_quads
        );
        Ok(())
    }
}
