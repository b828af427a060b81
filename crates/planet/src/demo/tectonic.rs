//! Relief from plate motion: an `elevation` layer built step by step where plates meet, the
//! mesh refined along plate boundaries and coarsened inside plates, and the world resampled
//! once onto a fresh sphere.
//!
//! The model is a cartoon of plate tectonics, kept to what the API can show in a few steps:
//!
//! * Every plate is continental or oceanic (a draw from the world's generator); continents
//!   start a little above sea level, oceans at abyssal depth, with gentle noise.
//! * Each step, each edge joining two plates compares the plates' velocities there (each
//!   plate turns about its own axis): the closing speed along the edge, in edges per step.
//!   Converging ends rise (mountains on continents, island arcs between oceans) or sink into
//!   a trench (an ocean diving under a continent); separating ends open a rift (continents)
//!   or pull towards a mid-ocean ridge's height (oceans).
//! * A few Laplacian smoothing passes spread the relief (a stand-in for erosion).

use super::motion::PlateMotion;
use super::{DemoError, PLATE, POSITION, err};
use crate::plates::NO_PLATE;
use delaunay::resample::{StencilKinds, stencils};
use delaunay::{AdaptOptions, AdaptStats, Sphere};
use glam::DVec3;
use layers::resample::ResamplePlan;
use layers::{Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Topology, Vertex};
use rand::Rng;
use sphere::Perturbation;
use std::collections::VecDeque;
use world::World;

/// Elevation above sea level, metres; blended barycentrically by splits and resampling.
pub const ELEVATION: LayerInfo<f32, VertexKind> =
    LayerInfo::new("elevation").interpolation(Interpolation::Lerp);

/// Starting elevations (m): continents just above the sea, oceans at abyssal depth.
const CONTINENT: f32 = 400.0;
const OCEAN: f32 = -4000.0;
/// Height of a mid-ocean ridge (m), which separating oceanic plates pull towards.
const RIDGE: f32 = -1800.0;
/// Elevation change (m) per edge of closing (or opening) per step.
const UPLIFT: f32 = 2600.0;
const ARC: f32 = 1200.0;
const TRENCH: f32 = 1500.0;
const RIFT: f32 = 700.0;
/// Smoothing per step: passes and the weight of the neighbours' mean.
pub(super) const SMOOTHING_PASSES: usize = 2;
const SMOOTHING: f32 = 0.2;
/// Elevation bounds (m), a little beyond Earth's extremes.
const LOWEST: f32 = -11_000.0;
const HIGHEST: f32 = 9_000.0;

/// The mean edge angle (radians) of a triangulated sphere of `n` vertices.
pub(super) fn mean_edge_angle(n: usize) -> f64 {
    (8.0 * std::f64::consts::PI / (3f64.sqrt() * n.max(1) as f64)).sqrt()
}

/// Draws which plates are continental (about 45%, at least one of each kind when there are
/// two plates or more) and fills the `elevation` layer with the starting relief. Returns the
/// continental flag per plate.
///
/// # Errors
/// A [`DemoError`] when the world refuses the layer.
pub(super) fn initial_relief(world: &mut World, plates: usize) -> Result<Vec<bool>, DemoError> {
    let (continental, phases) = {
        let mut rng = world.lock_random();
        let mut c: Vec<bool> = (0..plates).map(|_| rng.random_bool(0.45)).collect();
        if plates >= 2 && c.iter().all(|&x| x) {
            c[0] = false;
        }
        if plates >= 2 && !c.iter().any(|&x| x) {
            c[0] = true;
        }
        let phases: Vec<DVec3> = (0..3)
            .map(|_| DVec3::new(rng.random(), rng.random(), rng.random()) * 6.0 - 3.0)
            .collect();
        (c, phases)
    };
    let pos = world
        .layer(&POSITION)
        .expect("made by the first step")
        .to_vec();
    let plate = world
        .layer(&PLATE)
        .expect("made by the plates step")
        .to_vec();
    let mut elevation = world
        .lock_layer(&ELEVATION)
        .map_err(|e| err("elevation")(&e))?;
    for v in 0..pos.len() {
        let p = plate[v];
        if p == NO_PLATE {
            continue;
        }
        let d = pos[v].normalize_or_zero();
        // A few smooth waves of random direction: gentle, seeded noise.
        let noise: f64 = phases
            .iter()
            .enumerate()
            .map(|(k, f)| (d.dot(*f) * (k + 2) as f64 + k as f64).sin() / (k + 1) as f64)
            .sum();
        let base = if continental[p as usize] {
            CONTINENT
        } else {
            OCEAN
        };
        elevation.as_mut_slice()[v] = base + 350.0 * noise as f32;
    }
    drop(elevation);
    smooth(world, 3)?;
    Ok(continental)
}

/// What one relief step found: boundary vertices converging and separating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ReliefStats {
    pub converging: usize,
    pub separating: usize,
}

/// One relief step after the plates moved: uplift, trenches, rifts and ridges at plate
/// boundaries from the plates' relative velocities, then [`SMOOTHING_PASSES`] of smoothing.
///
/// # Errors
/// A [`DemoError`] when the world refuses the layer.
pub(super) fn relief_step(
    world: &mut World,
    motions: &[PlateMotion],
    continental: &[bool],
) -> Result<ReliefStats, DemoError> {
    let mesh = world.mesh().clone();
    let pos = world.layer(&POSITION).expect("kept").to_vec();
    let plate = world.layer(&PLATE).expect("kept").to_vec();
    let edge = mean_edge_angle(mesh.vertex_count());
    let n = mesh.vertex_slots();
    // Per vertex: summed closing speed (edges per step), boundary edges, a continent across.
    let mut closing = vec![0.0f32; n];
    let mut count = vec![0u16; n];
    let mut continent_across = vec![false; n];
    let velocity = |v: Vertex, d: DVec3| {
        let m = motions[plate[v.index()] as usize];
        (m.axis * m.angle_per_step).cross(d)
    };
    for e in mesh.undirected_edges() {
        let (a, b) = (mesh.origin(e), mesh.dest(e));
        let (pa, pb) = (plate[a.index()], plate[b.index()]);
        if pa == pb || pa == NO_PLATE || pb == NO_PLATE {
            continue;
        }
        let (da, db) = (pos[a.index()].normalize(), pos[b.index()].normalize());
        let Some(dir) = (db - da).try_normalize() else {
            continue;
        };
        let c = (-(velocity(b, db) - velocity(a, da)).dot(dir) / edge) as f32;
        for (v, other) in [(a, pb), (b, pa)] {
            closing[v.index()] += c;
            count[v.index()] = count[v.index()].saturating_add(1);
            continent_across[v.index()] |= continental[other as usize];
        }
    }
    let mut stats = ReliefStats::default();
    {
        let mut elevation = world
            .lock_layer(&ELEVATION)
            .map_err(|e| err("relief")(&e))?;
        let h = elevation.as_mut_slice();
        for v in mesh.vertices() {
            let i = v.index();
            if count[i] == 0 {
                continue;
            }
            let c = closing[i] / f32::from(count[i]);
            let cont = continental[plate[i] as usize];
            if c > 0.0 {
                stats.converging += 1;
                h[i] += match (cont, continent_across[i]) {
                    (true, _) => UPLIFT * c,
                    (false, true) => -TRENCH * c,
                    (false, false) => ARC * c,
                };
            } else if c < 0.0 {
                stats.separating += 1;
                let k = (-c).min(1.0);
                h[i] = if cont {
                    h[i] - RIFT * k
                } else {
                    h[i] + (RIDGE - h[i]) * 0.5 * k
                };
            }
            h[i] = h[i].clamp(LOWEST, HIGHEST);
        }
    }
    smooth(world, SMOOTHING_PASSES)?;
    Ok(stats)
}

/// `passes` Laplacian smoothing passes of the `elevation` layer over the mesh's neighbours.
fn smooth(world: &mut World, passes: usize) -> Result<(), DemoError> {
    let mesh = world.mesh().clone();
    let mut elevation = world
        .lock_layer(&ELEVATION)
        .map_err(|e| err("smooth")(&e))?;
    let mut next = elevation.to_vec();
    for _ in 0..passes {
        let h = elevation.as_slice();
        for v in mesh.vertices() {
            let (sum, k) = mesh
                .neighbors(v)
                .fold((0.0f32, 0u32), |(s, k), u| (s + h[u.index()], k + 1));
            if k > 0 {
                let mean = sum / k as f32;
                next[v.index()] = h[v.index()] + SMOOTHING * (mean - h[v.index()]);
            }
        }
        elevation.as_mut_slice().copy_from_slice(&next);
    }
    Ok(())
}

/// Hops from each vertex to the nearest vertex with a neighbour on another plate (a
/// breadth-first search from all of them at once); `u32::MAX` where no boundary is reachable.
pub fn boundary_distance(mesh: &impl Topology, plate: &[u32]) -> Vec<u32> {
    let mut dist = vec![u32::MAX; mesh.vertex_slots()];
    let mut queue = VecDeque::new();
    for v in mesh.vertices() {
        let p = plate.get(v.index()).copied().unwrap_or(NO_PLATE);
        if mesh.neighbors(v).any(|u| plate.get(u.index()) != Some(&p)) {
            dist[v.index()] = 0;
            queue.push_back(v);
        }
    }
    while let Some(v) = queue.pop_front() {
        let d = dist[v.index()] + 1;
        for u in mesh.neighbors(v) {
            if dist[u.index()] == u32::MAX {
                dist[u.index()] = d;
                queue.push_back(u);
            }
        }
    }
    dist
}

/// The target edge length, as a multiple of the mean edge, at `hops` from a plate boundary:
/// 0.6 on the boundary (finer), growing by 0.1 per hop to 1.3 inside plates (coarser), so
/// that the vertex count stays about the same.
pub fn size_factor(hops: u32) -> f64 {
    (0.6 + 0.1 * f64::from(hops.min(64))).min(1.3)
}

/// Refines the mesh near plate boundaries and coarsens it inside plates with
/// [`delaunay::adapt`] (the size field from [`boundary_distance`] and [`size_factor`]),
/// inside the world's mesh-and-positions guard, so every layer follows the splits, collapses
/// and flips. Sizes are relative to the mean edge of a sphere of `reference` vertices (the
/// planet as first built), so adapting again aims at the same density. Returns what `adapt`
/// did.
///
/// # Errors
/// A [`DemoError`] when `adapt` refuses (the mesh is left valid) or the guard fails.
pub(super) fn adapt_to_boundaries(
    world: &mut World,
    radius: f64,
    reference: usize,
) -> Result<AdaptStats, DemoError> {
    let plate = world.layer(&PLATE).expect("kept").to_vec();
    let hops = boundary_distance(world.mesh(), &plate);
    let mean = radius * 2.0 * (0.5 * mean_edge_angle(reference)).sin();
    let size = |v: Vertex, _: DVec3| mean * size_factor(hops.get(v.index()).copied().unwrap_or(0));
    let options = AdaptOptions {
        max_passes: 4,
        ..AdaptOptions::default()
    };
    let mut guard = world
        .lock_mesh_and_positions(&POSITION)
        .map_err(|e| err("adapt")(&e))?;
    let (mesh, positions) = guard.parts();
    let stats =
        delaunay::adapt(&Sphere, mesh, positions, size, &options).map_err(|e| err("adapt")(&e))?;
    guard.commit().map_err(|e| err("adapt")(&e))?;
    Ok(stats)
}

/// The world resampled onto a fresh tangent-jittered Fibonacci sphere of as many vertices
/// (seeded from the world's generator): every layer carried over by `World::resample`, the
/// positions set to the new points.
///
/// # Errors
/// A [`DemoError`] when the sphere, the stencils or the resampling fail.
pub(super) fn resample_onto_fresh_sphere(
    world: &World,
    radius: f64,
    jitter: f64,
) -> Result<World, DemoError> {
    let mut draw = world.clone();
    let seed: u64 = draw.lock_random().random();
    let n = world.mesh().vertex_count();
    let (mesh, points) =
        sphere::perturbed_fibonacci_sphere(n, radius, Perturbation::Tangent(jitter), seed)
            .map_err(|e| err("resample sphere")(&e))?;
    let old_pos = world.layer(&POSITION).expect("kept").to_vec();
    let s = stencils(
        &Sphere,
        world.mesh(),
        &old_pos,
        &mesh,
        &points,
        StencilKinds::ALL,
    )
    .map_err(|e| err("resample stencils")(&e))?;
    let plan = ResamplePlan {
        vertex_corners: &s.corners,
        vertex_weights: &s.weights,
        faces: &s.faces,
        edges: &s.edges,
    };
    // The draw above advanced the generator: resample from the world that made it.
    let mut out = draw
        .resampled(mesh, &plan)
        .map_err(|e| err("resample")(&e))?;
    out.lock_layer(&POSITION)
        .map_err(|e| err("resample positions")(&e))?
        .as_mut_slice()
        .copy_from_slice(&points);
    Ok(out)
}

/// Elevation range over the live vertices (`(0, 0)` without any).
pub(super) fn elevation_range(mesh: &Mesh, elevation: &[f32]) -> (f32, f32) {
    let (lo, hi) = mesh
        .vertices()
        .map(|v| elevation[v.index()])
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), h| {
            (a.min(h), b.max(h))
        });
    if lo <= hi { (lo, hi) } else { (0.0, 0.0) }
}
