//! The mesh edits the simulation needs, as calls to the world's own operations: move (with
//! the exact Delaunay restore), remove, insert, resample onto a fresh sphere, nearest vertex,
//! a Fibonacci world. Each is all or nothing on the whole world.

use delaunay::RestoreStats;
use glam::{DQuat, DVec3};
use quadedge::{Face, Vertex};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::fmt;
use std::sync::{Arc, OnceLock};
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

/// A fresh sphere kept from one resample to the next (cloning shares it): every resample
/// lands on it turned by another rotation instead of triangulating a new sphere. Keyed by its
/// settings, so a change of settings builds another. [`KeptSphere::prepare`] builds it ahead,
/// on a thread of its own, while the steps run; the resample waits for that build (or makes
/// it, if the thread has not started). The sphere is the same whichever thread builds it.
#[derive(Clone, Debug, Default)]
pub struct KeptSphere(Option<Kept>);

/// One sphere's settings and its build, shared by the clones and the building thread.
#[derive(Clone, Debug)]
struct Kept {
    n: usize,
    jitter: u64,
    seed: u64,
    built: Arc<OnceLock<Result<FreshSphere, String>>>,
}

impl Kept {
    fn new(n: usize, jitter: f64, seed: u64) -> Self {
        Self {
            n,
            jitter: jitter.to_bits(),
            seed,
            built: Arc::default(),
        }
    }

    fn is(&self, n: usize, jitter: f64, seed: u64) -> bool {
        (self.n, self.jitter, self.seed) == (n, jitter.to_bits(), seed)
    }

    /// The sphere, built here unless another thread has built it or is building it (then
    /// this waits for it).
    fn get(&self) -> Result<FreshSphere, OpsError> {
        let (n, jitter, seed) = (self.n, f64::from_bits(self.jitter), self.seed);
        self.built
            .get_or_init(|| build(n, jitter, seed))
            .clone()
            .map_err(|e| OpsError(format!("fresh sphere: {e}")))
    }
}

/// A unit sphere: the resample scales it to the world's radius.
fn build(n: usize, jitter: f64, seed: u64) -> Result<FreshSphere, String> {
    FreshSphere::fibonacci(n, 1.0, jitter, seed).map_err(|e| e.to_string())
}

impl KeptSphere {
    /// Starts building the sphere of these settings on a thread of its own (with a pool of
    /// one thread, to use a core the caller's pool leaves idle), unless it is kept or under
    /// way already, or the caller runs on one thread (then the resample builds it, on the
    /// caller's pool, as without this call). The thread holds the build only: a keeper
    /// dropped meanwhile lets it finish and free the sphere; a build that fails is the
    /// resample's error; a thread that cannot start leaves the build to the resample.
    pub fn prepare(&mut self, n: usize, jitter: f64, seed: u64) {
        if self.0.as_ref().is_some_and(|k| k.is(n, jitter, seed)) {
            return;
        }
        let kept = Kept::new(n, jitter, seed);
        if rayon::current_num_threads() > 1 {
            let cell = Arc::downgrade(&kept.built);
            let ahead = move || {
                // Gone or built already: nothing to do.
                let Some(cell) = cell.upgrade() else { return };
                if cell.get().is_some() {
                    return;
                }
                let one = rayon::ThreadPoolBuilder::new().num_threads(1).build();
                match one {
                    Ok(pool) => pool.install(|| cell.get_or_init(|| build(n, jitter, seed))),
                    Err(_) => cell.get_or_init(|| build(n, jitter, seed)),
                };
            };
            // A thread that cannot start leaves the build to the resample.
            let _ = std::thread::Builder::new()
                .name("kept-sphere".into())
                .spawn(ahead);
        }
        self.0 = Some(kept);
    }

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
        let kept = match &self.0 {
            Some(k) if k.is(n, jitter, seed) => k,
            _ => self.0.insert(Kept::new(n, jitter, seed)),
        };
        let fresh = kept.get()?;
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

    #[test]
    fn a_sphere_built_ahead_is_the_one_built_at_the_resample() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let base = fibonacci_world(1500, 6371.0, 0.3, 3).unwrap();
            let mut plain = base.clone();
            KeptSphere::default()
                .resample(&mut plain, 1300, 0.3, 8, 4)
                .unwrap();
            // Built ahead, and shared by a clone made while it builds.
            let mut kept = KeptSphere::default();
            kept.prepare(1300, 0.3, 8);
            let mut twin = kept.clone();
            let (mut a, mut b) = (base.clone(), base.clone());
            kept.resample(&mut a, 1300, 0.3, 8, 4).unwrap();
            twin.resample(&mut b, 1300, 0.3, 8, 4).unwrap();
            assert!(a == plain && b == plain);
            // Settings changed after the build started: the resample builds the right one.
            let mut other = KeptSphere::default();
            other.prepare(1300, 0.3, 8);
            let mut c = base.clone();
            other.resample(&mut c, 1100, 0.3, 8, 4).unwrap();
            assert_eq!(c.mesh().vertex_count(), 1100);
            // A keeper dropped while its sphere builds, and one asked twice: no hang.
            let mut gone = KeptSphere::default();
            gone.prepare(1400, 0.3, 8);
            gone.prepare(1400, 0.3, 8);
            drop(gone);
        });
    }

    #[test]
    fn a_sphere_that_fails_ahead_fails_at_the_resample() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let base = fibonacci_world(1200, 6371.0, 0.3, 1).unwrap();
            let mut kept = KeptSphere::default();
            kept.prepare(1000, 2.5, 5);
            let mut a = base.clone();
            let ahead = kept.resample(&mut a, 1000, 2.5, 5, 9).unwrap_err();
            let plain = KeptSphere::default()
                .resample(&mut a, 1000, 2.5, 5, 9)
                .unwrap_err();
            assert_eq!(ahead.0, plain.0);
            assert!(a == base);
        });
    }

    #[test]
    fn a_simulation_cloned_or_dropped_while_its_sphere_builds_goes_on_the_same() {
        use crate::tectonics::{Params, Tectonics};
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let params = Params::earth(1500, 5);
            let mut world = fibonacci_world(1500, params.radius_km, 0.3, 5).unwrap();
            let mut t = Tectonics::new(&mut world, params).unwrap();
            t.step(&mut world).unwrap();
            // The sphere is under way: a clone shares it, the original is dropped.
            let (mut twin, mut twin_world) = (t.clone(), world.clone());
            drop(t);
            for _ in 1..16 {
                twin.step(&mut twin_world).unwrap(); // a resample at step 15
            }
            // The same run on one thread (the resample builds the sphere itself).
            let one = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            let plain = one.install(|| {
                let params = Params::earth(1500, 5);
                let mut w = fibonacci_world(1500, params.radius_km, 0.3, 5).unwrap();
                let mut t = Tectonics::new(&mut w, params).unwrap();
                for _ in 0..16 {
                    t.step(&mut w).unwrap();
                }
                w
            });
            assert!(twin_world == plain);
        });
    }
}
