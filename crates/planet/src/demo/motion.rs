//! Plate motion: every plate turns about its own axis by a small angle per step, and after
//! each step the mesh is restored to the exact spherical Delaunay triangulation by flips
//! (folds at converging borders included), through the world's mesh-and-positions guard so
//! every vertex keeps its id and every layer follows the flips.

use super::{DemoError, PLATE, POSITION, Report, err};
use crate::plates::NO_PLATE;
use delaunay::{RestoreOptions, RestoreStats, Sphere};
use glam::{DMat3, DQuat, DVec3};
use quadedge::Vertex;
use rand::Rng;
use world::World;

/// Smallest planet whose plates move: with a handful of vertices, independent rotations soon
/// gather every vertex into one hemisphere, where no closed triangulation of the sphere exists.
pub const MIN_MOVING_VERTICES: usize = 100;

/// Per step, the fastest vertex of a plate (on its equator) moves between these fractions of
/// the mean edge length: enough for folds where plates converge, small enough to stay local.
const SPEED_EDGE_FRACTION: (f64, f64) = (0.35, 0.5);

/// How one plate turns: a unit axis through the centre and an angle per step (radians,
/// counter-clockwise seen from the axis tip).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PlateMotion {
    pub axis: DVec3,
    pub angle_per_step: f64,
}

/// A random motion per plate from the world's generator: a uniform axis on the sphere and a
/// speed such that the plate's fastest vertices move a third to a half of a mean edge per step.
/// Drawn even for zero steps, so the generator ends in the same state whatever the step count.
pub(super) fn plate_motions(world: &mut World, plates: usize) -> Vec<PlateMotion> {
    let n = world.mesh().vertex_count().max(1) as f64;
    // A triangular lattice of n points covers 4π with n cells of (√3/2)·e² each.
    let mean_edge_angle = (8.0 * std::f64::consts::PI / (3f64.sqrt() * n)).sqrt();
    let mut rng = world.lock_random();
    (0..plates)
        .map(|_| {
            let z: f64 = rng.random_range(-1.0..=1.0);
            let phi: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            let s = (1.0 - z * z).max(0.0).sqrt();
            let axis = DVec3::new(s * phi.cos(), s * phi.sin(), z);
            let (lo, hi) = SPEED_EDGE_FRACTION;
            let fraction: f64 = rng.random_range(lo..hi);
            PlateMotion {
                axis,
                angle_per_step: fraction * mean_edge_angle,
            }
        })
        .collect()
}

/// Each plate's turn per step as a matrix.
pub(super) fn turns(motions: &[PlateMotion]) -> Vec<DMat3> {
    motions
        .iter()
        .map(|m| DMat3::from_quat(DQuat::from_axis_angle(m.axis, m.angle_per_step)))
        .collect()
}

/// Moves every plate by one turn and restores the Delaunay mesh (inside the world's
/// mesh-and-positions guard, so vertex ids and layers are kept). Planets under
/// [`MIN_MOVING_VERTICES`] do not move (`None`).
///
/// # Errors
/// A [`DemoError`] naming the step when the restoration fails (a collision it could not
/// merge, a fold it could not undo) or the world refuses the guard.
pub(super) fn move_step(
    world: &mut World,
    turns: &[DMat3],
    radius: f64,
    step: usize,
) -> Result<Option<RestoreStats>, DemoError> {
    if world.mesh().vertex_count() < MIN_MOVING_VERTICES {
        return Ok(None);
    }
    // Read each step: adapting and resampling renumber vertices between steps.
    let plate = world
        .layer(&PLATE)
        .expect("made by the plates step")
        .to_vec();
    let options = RestoreOptions {
        tolerance: 0.0,
        merge_collisions: true,
    };
    let mut guard = world
        .lock_mesh_and_positions(&POSITION)
        .map_err(|e| err("move plates")(&e))?;
    let (mesh, positions) = guard.parts();
    let moved: Vec<Vertex> = mesh
        .vertices()
        .filter(|v| plate[v.index()] != NO_PLATE)
        .collect();
    for v in &moved {
        let p = &mut positions[v.index()];
        let q = turns[plate[v.index()] as usize] * *p;
        // A rotation keeps the length up to rounding; rescaling stops drift over steps.
        *p = q * (radius / q.length());
    }
    let stats = delaunay::restore(&Sphere, mesh, positions, Some(&moved), &options)
        .map_err(|e| DemoError(format!("move plates: step {step}: {e}")))?;
    guard.commit().map_err(|e| err("move plates")(&e))?;
    Ok(Some(stats))
}

/// After the motion: the mesh valid and Delaunay, positions on the sphere, every vertex on a
/// plate; the totals of the steps and the distance from the sphere join the report's facts.
///
/// # Errors
/// A [`DemoError`] naming what [`super::edits::check`] found wrong.
pub(super) fn check_and_report(
    world: &World,
    plates: usize,
    radius: f64,
    report: &mut Report,
) -> Result<(), DemoError> {
    if report.motion.is_empty() {
        return Ok(());
    }
    let max_deviation = super::edits::check(world, plates, radius, true)?;
    let total = |f: fn(&RestoreStats) -> usize| -> usize {
        report.motion.iter().map(|m| f(&m.stats)).sum()
    };
    let facts = [
        ("plate motion steps", report.motion.len()),
        ("flips, all steps", total(|s| s.flips)),
        ("folds, all steps", total(|s| s.folds)),
        ("relocations, all steps", total(|s| s.relocated)),
        ("merged vertices", total(|s| s.merged)),
    ];
    for (what, n) in facts {
        report.facts.push((what.into(), n.to_string()));
    }
    report.facts.push((
        "max |p|/r − 1 after motion".into(),
        format!("{max_deviation:.1e}"),
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motions_are_unit_axes_with_speeds_in_range() {
        let (mesh, _) = sphere::fibonacci_sphere(1000, 1.0, 0.0, 3).unwrap();
        let mut world = World::new(mesh, 3);
        let motions = plate_motions(&mut world, 50);
        assert_eq!(motions.len(), 50);
        let edge = (8.0 * std::f64::consts::PI / (3f64.sqrt() * 1000.0)).sqrt();
        for m in &motions {
            assert!((m.axis.length() - 1.0).abs() < 1e-12, "{m:?}");
            let f = m.angle_per_step / edge;
            assert!((0.35..0.5).contains(&f), "{m:?}");
        }
        // Axes spread over the sphere: not all in one hemisphere of any coordinate.
        assert!(motions.iter().any(|m| m.axis.z > 0.0) && motions.iter().any(|m| m.axis.z < 0.0));
    }
}
