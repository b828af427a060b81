//! The mesh edits the simulation needs, as world operations: move (with the exact Delaunay
//! restore), remove, insert, resample onto a fresh sphere, nearest vertex, a Fibonacci world.
//!
//! An adapter: the signatures are those of the `World` methods being added (issue 22), the
//! bodies are written today with [`World::lock_mesh_and_positions`] and the `delaunay` and
//! `sphere` functions, so the bodies can be swapped for the world's own operations without
//! touching the simulation.

use super::POSITION;
use delaunay::resample::{StencilKinds, stencils};
use delaunay::{RestoreOptions, RestoreStats, Sphere};
use glam::DVec3;
use layers::resample::ResamplePlan;
use quadedge::{Face, Vertex};
use sphere::Perturbation;
use std::fmt;
use world::World;

/// Why a world operation refused; the world is left as the failed operation found it or, for
/// a batch that failed part-way, with the items before the failure done (the adapter's
/// limit: the world's own operations will be all or nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct OpsError(pub String);

impl fmt::Display for OpsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpsError {}

fn fail<E: fmt::Display>(what: &str) -> impl Fn(E) -> OpsError + '_ {
    move |e| OpsError(format!("{what}: {e}"))
}

/// The world's positions, indexed by vertex index (empty without a position layer).
pub fn positions(world: &World) -> &[DVec3] {
    world.layer(&POSITION).map_or(&[], |l| l.as_slice())
}

/// A tangent-jittered Fibonacci sphere of `n` points of `radius`, triangulated with its
/// vertices numbered along a Hilbert curve: neighbours sit near each other in memory, so the
/// walks of every later insertion, removal and point location stay in cache.
fn fresh_sphere(
    n: usize,
    radius: f64,
    jitter: f64,
    seed: u64,
) -> Result<(quadedge::Mesh, Vec<DVec3>), OpsError> {
    let points = sphere::perturbed_fibonacci_points(n, radius, Perturbation::Tangent(jitter), seed)
        .map_err(fail("fibonacci sphere"))?;
    let (mesh, points, _) =
        sphere::sphere_mesh_hilbert(&points).map_err(fail("fibonacci sphere"))?;
    Ok((mesh, points))
}

/// A world on a tangent-jittered Fibonacci sphere of `n` points of `radius` (vertices in
/// Hilbert order), its positions in the `position` layer.
///
/// # Errors
/// What the sphere refuses (too few points, a jitter out of range).
pub fn fibonacci_world(n: usize, radius: f64, jitter: f64, seed: u64) -> Result<World, OpsError> {
    let (mesh, points) = fresh_sphere(n, radius, jitter, seed)?;
    let mut world = World::new(mesh, seed);
    world
        .lock_layer(&POSITION)
        .map_err(fail("positions"))?
        .as_mut_slice()
        .copy_from_slice(&points);
    Ok(world)
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
    let slots = world.mesh().vertex_slots();
    if let Some((v, _)) = moves
        .iter()
        .find(|(v, p)| v.index() >= slots || !world.mesh().is_vertex_alive(*v) || !p.is_finite())
    {
        return Err(OpsError(format!(
            "move: {v:?} is dead or its target not finite"
        )));
    }
    let options = RestoreOptions {
        tolerance: 0.0,
        merge_collisions: true,
    };
    let mut guard = world
        .lock_mesh_and_positions(&POSITION)
        .map_err(fail("move"))?;
    let (mesh, pos) = guard.parts();
    let before: Vec<DVec3> = moves.iter().map(|&(v, _)| pos[v.index()]).collect();
    for &(v, p) in moves {
        pos[v.index()] = p;
    }
    let moved = changed_stars(mesh, pos, moves, &before);
    let stats =
        delaunay::restore(&Sphere, mesh, pos, Some(&moved), &options).map_err(fail("restore"))?;
    guard.commit().map_err(fail("move"))?;
    Ok(stats)
}

/// The moved vertices whose star changed shape: ends of an edge whose length changed.
/// Where a vertex and all its neighbours moved by one rotation (inside a plate), every
/// in-circle test around it is unchanged, so only the changed stars need restoring.
fn changed_stars(
    mesh: &quadedge::Mesh,
    pos: &[DVec3],
    moves: &[(Vertex, DVec3)],
    before: &[DVec3],
) -> Vec<Vertex> {
    let mut old = vec![None; mesh.vertex_slots()];
    for (&(v, _), &b) in moves.iter().zip(before) {
        old[v.index()] = Some(b);
    }
    let mut mark = vec![false; mesh.vertex_slots()];
    for e in mesh.undirected_edges() {
        let (a, b) = (mesh.origin(e).index(), mesh.dest(e).index());
        let (oa, ob) = (old[a].unwrap_or(pos[a]), old[b].unwrap_or(pos[b]));
        let (l0, l1) = (oa.distance_squared(ob), pos[a].distance_squared(pos[b]));
        if (l1 - l0).abs() > 1e-9 * l0 {
            mark[a] = true;
            mark[b] = true;
        }
    }
    moves
        .iter()
        .map(|m| m.0)
        .filter(|v| mark[v.index()])
        .collect()
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
    let mut guard = world
        .lock_mesh_and_positions(&POSITION)
        .map_err(fail("insert"))?;
    let (mesh, pos) = guard.parts();
    let new = delaunay::insert_many(&Sphere, mesh, pos, points).map_err(fail("insert"))?;
    guard.commit().map_err(fail("insert"))?;
    Ok(new)
}

/// Removes the vertices (Delaunay removal); their data is gone, nothing else changes.
///
/// # Errors
/// A dead or repeated vertex, a planet left with fewer than four vertices.
pub fn remove_vertices(world: &mut World, vertices: &[Vertex]) -> Result<(), OpsError> {
    if vertices.is_empty() {
        return Ok(());
    }
    let mut guard = world
        .lock_mesh_and_positions(&POSITION)
        .map_err(fail("remove"))?;
    let (mesh, pos) = guard.parts();
    delaunay::remove_many(&Sphere, mesh, pos, vertices).map_err(fail("remove"))?;
    guard.commit().map_err(fail("remove"))?;
    Ok(())
}

/// The world carried onto a fresh tangent-jittered Fibonacci sphere of `n` points: every
/// layer resampled by its policy (the plate of the heaviest corner, elevations blended), the
/// positions those of the new points. In place; the vertex ids are those of the new sphere.
///
/// # Errors
/// What the sphere, the point location or the resampling refuse (the world is unchanged).
pub fn resample_onto_fresh_sphere(
    world: &mut World,
    n: usize,
    radius: f64,
    jitter: f64,
    seed: u64,
) -> Result<(), OpsError> {
    let (mesh, points) = fresh_sphere(n, radius, jitter, seed)?;
    let s = stencils(
        &Sphere,
        world.mesh(),
        positions(world),
        &mesh,
        &points,
        StencilKinds::ALL,
    )
    .map_err(fail("resample stencils"))?;
    let plan = ResamplePlan {
        vertex_corners: &s.corners,
        vertex_weights: &s.weights,
        faces: &s.faces,
        edges: &s.edges,
    };
    let mut out = world.resample(mesh, &plan).map_err(fail("resample"))?;
    out.lock_layer(&POSITION)
        .map_err(fail("resample positions"))?
        .as_mut_slice()
        .copy_from_slice(&points);
    *world = out;
    Ok(())
}

/// The vertex nearest to `p` (a walk from `hint`'s face when given); `None` on an empty or
/// degenerate world.
pub fn nearest_vertex(world: &World, p: DVec3, hint: Option<Face>) -> Option<(Vertex, Face)> {
    delaunay::nearest_vertex(&Sphere, world.mesh(), positions(world), p, hint).ok()
}
