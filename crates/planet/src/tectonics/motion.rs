//! The motion stage: every plate turns rigidly about its Euler pole, the world kept exactly
//! Delaunay where plates meet.

use glam::DQuat;

use super::{PLATE, Tectonics, TectonicsError, read, world_err};
use world::World;

impl Tectonics {
    /// Turns every vertex with its plate by `omega · dt` about the plate's pole, and leaves in
    /// `band` the vertices with a neighbour on another plate (the subduction's starting set).
    pub(super) fn motion(
        &self,
        world: &mut World,
        band: &mut Vec<quadedge::Vertex>,
    ) -> Result<delaunay::RestoreStats, TectonicsError> {
        let dt = self.params.time_step_myr;
        let radius = self.params.radius_km;
        // In sub-steps of at most `SUB_STEP_CELLS` cells of relative motion: the restore then
        // repairs short folds instead of relocating vertices across many cells (which costs
        // more than the extra sub-steps on fine meshes).
        let fastest = self.plates.iter().map(|p| p.omega).fold(0.0, f64::max);
        let reach = 2.0 * fastest * radius * dt;
        let subs = (reach / (SUB_STEP_CELLS * self.params.spacing_km))
            .ceil()
            .clamp(1.0, 64.0) as usize;
        let turns: Vec<DQuat> = self
            .plates
            .iter()
            .map(|p| DQuat::from_axis_angle(p.pole, p.omega * dt / subs as f64))
            .collect();
        // Plates do not change during the motion (a merged vertex dies, no id is reused).
        let plate = read(world, &PLATE)?;
        let options = world::MoveOptions {
            tolerance: 0.0,
            merge_collisions: true,
        };
        // Each plate turns rigidly: the world repairs only where plates meet, sub-step by
        // sub-step, in one edit (one journal replay into the layers).
        // No edit report: nothing here refreshes derived data from it. The band comes back for
        // the subduction, which then does not scan every edge.
        world
            .turn_regions_in_steps_banded(&plate, &turns, subs, &options, band)
            .map_err(world_err("motion"))
    }
}

/// Most relative motion (cells) of two plates in one motion sub-step. With the restore
/// working only where plates meet, each sub-step still pays one pass over the positions and
/// one count of the covering, and a vertex folded in one sub-step often folds again in the
/// next. Since a relocation moves its vertex in one edit (the walk only reads), sixteen cells
/// measured cheaper than eight at 1M (one sub-step instead of two: a quarter fewer flips and
/// relocations) and the same at 500k and below, where one sub-step already covers a step
/// (docs/benchmark-notes.md "Motion III" and "The merged main after the eighth session").
const SUB_STEP_CELLS: f64 = 16.0;
