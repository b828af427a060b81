//! The mesh edits the simulation needs, as calls to the world's own operations: move (with
//! the exact Delaunay restore), remove, insert, resample onto a fresh sphere, nearest vertex,
//! a Fibonacci world. Each is all or nothing on the whole world.

use delaunay::RestoreStats;
use glam::{DQuat, DVec3};
use quadedge::{Face, Vertex};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::fmt;
use world::{EditError, EditReport, FreshSphere, MoveOptions, World};

/// Why a world operation refused; the world is unchanged.
#[derive(Debug)]
pub struct OpsError(pub String);

impl fmt::Display for OpsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpsError {}

fn fail(what: &str) -> impl Fn(EditError) -> OpsError + '_ {
    move |e| OpsError(format!("{what}: {e}"))
}

/// The world's positions, indexed by vertex index (empty without positions).
pub fn positions(world: &World) -> &[DVec3] {
    world.positions()
}

/// A world on a tangent-jittered Fibonacci sphere of `n` points of `radius`, in Hilbert
/// order, its positions included.
///
/// # Errors
/// What the sphere refuses (too few points, a jitter out of range).
pub fn fibonacci_world(n: usize, radius: f64, jitter: f64, seed: u64) -> Result<World, OpsError> {
    World::fibonacci_sphere(n, radius, jitter, seed).map_err(fail("fibonacci sphere"))
}

/// Moves each listed vertex to its new position (on the sphere) and restores the exact
/// Delaunay triangulation; a moved vertex that lands on another is merged into it.
///
/// # Errors
/// A dead vertex, a non-finite position, or what the restore refuses.
pub fn move_vertices(
    world: &mut World,
    moves: &[(Vertex, DVec3)],
) -> Result<RestoreStats, OpsError> {
    let options = MoveOptions {
        tolerance: 0.0,
        merge_collisions: true,
    };
    let (stats, _) = world.move_vertices(moves, &options).map_err(fail("move"))?;
    Ok(stats)
}

/// Inserts the points (Delaunay insertion); returns the new vertex of each, in input order.
/// Layers other than the positions get the values their policies interpolate.
///
/// # Errors
/// A point on an existing vertex, not finite, or what the insertion refuses.
pub fn insert_points(world: &mut World, points: &[DVec3]) -> Result<Vec<Vertex>, OpsError> {
    if points.is_empty() {
        return Ok(Vec::new());
    }
    let (new, _) = world.insert_points(points).map_err(fail("insert"))?;
    Ok(new)
}

/// [`insert_points`] for points whose face is known: each point's location starts from its
/// face (any face is safe: a wrong or dead one only costs a walk); returns the new vertex of
/// each, in input order.
///
/// # Errors
/// As [`insert_points`] (the world unchanged).
pub fn insert_points_near(
    world: &mut World,
    points: &[(DVec3, Face)],
) -> Result<Vec<Vertex>, OpsError> {
    if points.is_empty() {
        return Ok(Vec::new());
    }
    let (new, _) = world.insert_points_near(points).map_err(fail("insert"))?;
    Ok(new)
}

/// Removes the vertices (Delaunay removal); their data is gone, nothing else changes.
/// Returns what the edit changed (the edges it made or flipped, for derived data).
///
/// # Errors
/// A dead or repeated vertex, a planet left with fewer than four vertices.
pub fn remove_vertices(world: &mut World, vertices: &[Vertex]) -> Result<EditReport, OpsError> {
    if vertices.is_empty() {
        return Ok(EditReport::default());
    }
    world.remove_vertices(vertices).map_err(fail("remove"))
}

/// [`remove_vertices`] without the report, for a caller that knows which edges can have
/// changed (those between the removed vertices' neighbours).
///
/// # Errors
/// As [`remove_vertices`].
pub fn remove_vertices_unreported(world: &mut World, vertices: &[Vertex]) -> Result<(), OpsError> {
    if vertices.is_empty() {
        return Ok(());
    }
    world
        .remove_vertices_unreported(vertices)
        .map_err(fail("remove"))
}

/// A fresh sphere kept from one resample to the next (built on first use; cloning shares
/// it): every resample lands on it turned by another rotation instead of triangulating a new
/// sphere. Keyed by its settings, so a change of settings builds another.
#[derive(Clone, Debug, Default)]
pub struct KeptSphere(Option<(usize, u64, FreshSphere)>);

impl KeptSphere {
    /// The world carried (in place, one undoable step) onto the tangent-jittered Fibonacci
    /// sphere of `n` points with `jitter` and `seed`, turned by the uniformly random rotation
    /// drawn from `turn_seed`, at the world's radius: every layer resampled by its policy,
    /// the positions those of the turned points.
    ///
    /// # Errors
    /// What the sphere, the point location or the resampling refuse (the world is unchanged).
    pub fn resample(
        &mut self,
        world: &mut World,
        n: usize,
        jitter: f64,
        seed: u64,
        turn_seed: u64,
    ) -> Result<(), OpsError> {
        let fresh = match &self.0 {
            Some((m, s, fresh)) if (*m, *s) == (n, seed) => fresh.clone(),
            _ => {
                // A unit sphere: the resample scales it to the world's radius.
                let fresh =
                    FreshSphere::fibonacci(n, 1.0, jitter, seed).map_err(fail("fresh sphere"))?;
                self.0 = Some((n, seed, fresh.clone()));
                fresh
            }
        };
        world
            .resample_onto_turned(&fresh, random_turn(turn_seed))
            .map_err(fail("resample"))?;
        Ok(())
    }
}

/// A rotation drawn uniformly from `seed` (uniform unit quaternion from three uniform numbers,
/// Shoemake's subgroup algorithm).
pub fn random_turn(seed: u64) -> DQuat {
    let mut rng = Pcg64::seed_from_u64(seed);
    let u: [f64; 3] = [rng.random(), rng.random(), rng.random()];
    let (a, b) = ((1.0 - u[0]).sqrt(), u[0].sqrt());
    let (s1, c1) = (std::f64::consts::TAU * u[1]).sin_cos();
    let (s2, c2) = (std::f64::consts::TAU * u[2]).sin_cos();
    DQuat::from_xyzw(a * s1, a * c1, b * s2, b * c2).normalize()
}

/// The vertex nearest to `p` (a walk from `hint`'s face when given); `None` on an empty or
/// degenerate world.
pub fn nearest_vertex(world: &World, p: DVec3, hint: Option<Face>) -> Option<(Vertex, Face)> {
    delaunay::nearest_vertex(&delaunay::Sphere, world.mesh(), world.positions(), p, hint).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_turns_are_unit_seeded_and_spread() {
        let turns: Vec<DQuat> = (0..200).map(random_turn).collect();
        assert_eq!(random_turn(7), turns[7]);
        assert!(turns.iter().all(|q| (q.length() - 1.0).abs() < 1e-12));
        // Uniform rotations: the turned north pole's mean is near the centre.
        let mean: DVec3 = turns.iter().map(|&q| q * DVec3::Z).sum::<DVec3>() / 200.0;
        assert!(mean.length() < 0.15, "{mean}");
    }

    #[test]
    fn a_kept_sphere_serves_its_settings_and_is_rebuilt_for_others() {
        let base = fibonacci_world(1200, 6371.0, 0.3, 1).unwrap();
        let mut kept = KeptSphere::default();
        let mut a = base.clone();
        kept.resample(&mut a, 1000, 0.3, 5, 9).unwrap();
        // The kept sphere again, and a fresh keeper building the same one: the same world.
        let mut b = base.clone();
        kept.resample(&mut b, 1000, 0.3, 5, 9).unwrap();
        let mut c = base.clone();
        KeptSphere::default()
            .resample(&mut c, 1000, 0.3, 5, 9)
            .unwrap();
        assert!(a == b && b == c);
        // Another turn moves the points; other settings build another sphere.
        kept.resample(&mut b, 1000, 0.3, 5, 10).unwrap();
        assert!(positions(&b)[..1000] != positions(&a)[..1000]);
        kept.resample(&mut b, 900, 0.3, 5, 10).unwrap();
        assert_eq!(b.mesh().vertex_count(), 900);
        let r = positions(&b)[0].length();
        assert!((r - 6371.0).abs() < 1e-9 * 6371.0);
    }
}
