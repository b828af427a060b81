//! Relief at the tectonic time scale: mountains raised by distance to converging fronts,
//! trenches in front of them, ocean floor that sinks as it ages, continents worn down.
//!
//! Each boundary edge whose plates close on each other is a front, with its closing speed
//! (km/Myr). The overriding side (continent over ocean, younger ocean over older) rises by a
//! rate that peaks [`ARC_DISTANCE_KM`] behind the front (a cordillera on a continent, an
//! island arc on an ocean) and scales with the speed; the diving side deepens into a trench
//! within [`TRENCH_WIDTH_KM`]. Oceanic crust relaxes towards the depth of its age
//! (`-2600 m - 350 m·√(age/Myr)`, half-space cooling), so age and depth form bands parallel
//! to the ridges; continents above [`PLATEAU_M`] erode exponentially. Every rate is per Myr
//! and every width in km.

use super::distance::{Source, Sweep};
use super::{
    AGE, CONTINENTAL, CRUST, ELEVATION, OROGENY, PLATE, Params, Plate, TectonicsError, orogeny,
    slice, world_err, world_ops,
};
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;
use world::World;

/// Depth of the ocean floor (m) for crust `age` Myr old.
pub fn ocean_depth(age: f32) -> f32 {
    (-2600.0 - 350.0 * age.max(0.0).sqrt()).max(-6500.0)
}

/// Distance behind a subduction front where the uplift peaks (km), and the profile's width.
pub const ARC_DISTANCE_KM: f64 = 250.0;
const ARC_WIDTH_KM: f64 = 220.0;
/// Farthest reach of a front's uplift (km).
const REACH_KM: f64 = 650.0;
/// Width of a trench in front of a subduction zone (km) and its depth below the age curve.
pub const TRENCH_WIDTH_KM: f64 = 180.0;
const TRENCH_M: f32 = 3500.0;
/// Uplift (m/Myr) behind a front closing at [`REF_SPEED`] km/Myr.
const UPLIFT_M_PER_MYR: f64 = 110.0;
const REF_SPEED: f64 = 50.0;
/// Continents erode towards this height (m) with time constant [`EROSION_MYR`].
pub const PLATEAU_M: f32 = 500.0;
const EROSION_MYR: f32 = 35.0;
/// Oceanic relief anomalies relax with this time constant (Myr).
const DAMPING_MYR: f32 = 15.0;
/// Earth-like bounds (m).
pub const LOWEST_M: f32 = -11_000.0;
/// See [`LOWEST_M`].
pub const HIGHEST_M: f32 = 9_000.0;

/// What the relief stage saw.
pub(super) struct Seen {
    pub converging: usize,
    pub separating: usize,
}

/// Front tags: the source's index into the speeds, and whether the vertex is on the diving
/// side (top bit).
const DIVING: u32 = 1 << 31;

/// One relief step after the motion and the new crust (see the module docs); `edges` are
/// the [`super::band::boundary_edges`]. The three layers it rewrites are written in place
/// (one copy each, the one the world keeps for its rollback).
///
/// # Errors
/// When the world lacks a layer.
pub(super) fn step(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    sweep: &mut Sweep,
    edges: &[Edge],
) -> Result<Seen, TectonicsError> {
    let (speeds, seen) = {
        let layers = Layers::of(world)?;
        let (sources, speeds, seen) = fronts(world, &layers, plates, params, edges);
        let mesh = world.mesh();
        let pos = world_ops::positions(world);
        sweep.unordered().run(
            mesh,
            pos,
            params.radius_km,
            &sources,
            REACH_KM,
            Some(layers.plate),
        );
        (speeds, seen)
    };
    let err = world_err("relief");
    let tx = world.transaction();
    {
        let mesh = tx.mesh().map_err(&err)?;
        let crust = tx.read(&CRUST).map_err(&err)?;
        let mut age = tx.write(&AGE).map_err(&err)?;
        let mut h = tx.write(&ELEVATION).map_err(&err)?;
        let mut kind = tx.write(&OROGENY).map_err(&err)?;
        let out = (age.as_mut_slice(), h.as_mut_slice(), kind.as_mut_slice());
        relieve_all(&mesh, crust.as_slice(), sweep, &speeds, out, params);
    }
    tx.commit().map_err(err)?;
    Ok(seen)
}

/// The world's layers the relief step reads.
struct Layers<'a> {
    plate: &'a [u32],
    crust: &'a [u8],
    age: &'a [f32],
}

impl<'a> Layers<'a> {
    fn of(world: &'a World) -> Result<Self, TectonicsError> {
        Ok(Layers {
            plate: slice(world, &PLATE)?,
            crust: slice(world, &CRUST)?,
            age: slice(world, &AGE)?,
        })
    }
}

/// The converging boundary edges as distance sources (the overriding end's and the diving
/// end's, at the edge's midpoint), their closing speeds (km/Myr), and the edges counted. The
/// edges are classified on all cores, in edge order.
fn fronts(
    world: &World,
    layers: &Layers<'_>,
    plates: &[Plate],
    params: &Params,
    edges: &[Edge],
) -> (Vec<Source>, Vec<f64>, Seen) {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let (plate, crust, age) = (layers.plate, layers.crust, layers.age);
    // Per boundary edge between known plates: the closing speed, and the overriding and
    // diving ends when it converges.
    let classified: Vec<(f64, Vertex, Vertex, glam::DVec3)> = edges
        .par_iter()
        .filter_map(|&e| {
            let (a, b) = (mesh.origin(e), mesh.dest(e));
            let (pa, pb) = (plate[a.index()] as usize, plate[b.index()] as usize);
            if pa >= plates.len() || pb >= plates.len() {
                return None;
            }
            let (xa, xb) = (pos[a.index()], pos[b.index()]);
            let mid = (xa + xb).normalize() * params.radius_km;
            let dir = (xb - xa).try_normalize()?;
            let closing = -(plates[pb].velocity(mid) - plates[pa].velocity(mid)).dot(dir);
            let (ca, cb) = (
                crust[a.index()] == CONTINENTAL,
                crust[b.index()] == CONTINENTAL,
            );
            // Which end overrides: a continent over an ocean, else the younger crust.
            let a_over = match (ca, cb) {
                (true, false) => true,
                (false, true) => false,
                _ => age[a.index()] <= age[b.index()],
            };
            let (over, under) = if a_over { (a, b) } else { (b, a) };
            Some((closing, over, under, mid))
        })
        .collect();
    let mut seen = Seen {
        converging: 0,
        separating: 0,
    };
    let (mut sources, mut speeds) = (Vec::new(), Vec::new());
    for (closing, over, under, mid) in classified {
        if closing <= 0.0 {
            seen.separating += 1;
            continue;
        }
        seen.converging += 1;
        let i = speeds.len() as u32;
        speeds.push(closing);
        sources.push(Source {
            vertex: over,
            point: mid,
            tag: i,
        });
        sources.push(Source {
            vertex: under,
            point: mid,
            tag: i | DIVING,
        });
    }
    (sources, speeds, seen)
}

/// Every live vertex ages by a step and takes its relief step ([`relieve`]), on all cores,
/// in its age, elevation and orogeny (`out`).
fn relieve_all(
    mesh: &Mesh,
    crust: &[u8],
    sweep: &Sweep,
    speeds: &[f64],
    out: (&mut [f32], &mut [f32], &mut [u8]),
    params: &Params,
) {
    let (age, h, kind) = out;
    let dt = params.time_step_myr as f32;
    let decay_ocean = (-dt / DAMPING_MYR).exp();
    let decay_land = (-dt / EROSION_MYR).exp();
    // The diving side beyond a trench takes nothing from its front: no arcsine there.
    let far_dive = sweep.beyond(TRENCH_WIDTH_KM);
    h.par_iter_mut()
        .zip(age.par_iter_mut())
        .zip(kind.par_iter_mut())
        .enumerate()
        .with_min_len(4096)
        .for_each(|(i, ((z, a), k))| {
            if mesh.is_vertex_alive(Vertex::new(i as u32)) {
                *a += dt;
                let (tag, continental) = (sweep.tag(i), crust[i] == CONTINENTAL);
                let dist = if tag & DIVING != 0 && (continental || far_dive(i)) {
                    f64::INFINITY
                } else {
                    f64::from(sweep.dist(i))
                };
                let front = Front { dist, tag, speeds };
                relieve(z, *a, k, continental, front, (decay_land, decay_ocean), dt);
                *z = z.clamp(LOWEST_M, HIGHEST_M);
            }
        });
}

/// The nearest front of a vertex: distance (km; `∞` when none, or when it cannot act: a
/// diving front beyond its trench or under a continent), tag, and the fronts' closing
/// speeds.
struct Front<'a> {
    dist: f64,
    tag: u32,
    speeds: &'a [f64],
}

/// One vertex's relief step: erosion or damping, then its front's uplift or trench.
fn relieve(
    z: &mut f32,
    a: f32,
    k: &mut u8,
    continental: bool,
    front: Front<'_>,
    decay: (f32, f32),
    dt: f32,
) {
    let (decay_land, decay_ocean) = decay;
    // Erosion and damping first, then this step's uplift.
    if continental {
        if *z > PLATEAU_M {
            *z = PLATEAU_M + (*z - PLATEAU_M) * decay_land;
        } else if *z < -200.0 {
            *z = -200.0 + (*z + 200.0) * decay_ocean;
        }
    } else {
        let base = ocean_depth(a);
        *z = base + (*z - base) * decay_ocean;
    }
    let d = front.dist;
    if !d.is_finite() {
        return;
    }
    let t = front.tag;
    let speed = front.speeds[(t & !DIVING) as usize];
    let s = (speed / REF_SPEED).min(2.0);
    if t & DIVING != 0 {
        if !continental && d < TRENCH_WIDTH_KM {
            let x = (1.0 - d / TRENCH_WIDTH_KM) as f32;
            let trench = ocean_depth(a) - TRENCH_M * (s.min(1.0) as f32) * x * x;
            *z = z.min(trench);
        }
        return;
    }
    let bump = (-((d - ARC_DISTANCE_KM) / ARC_WIDTH_KM).powi(2)).exp();
    let up = (UPLIFT_M_PER_MYR * s * bump) as f32 * dt;
    if up > 1.0 {
        *z += up;
        *k = if continental {
            orogeny::ANDEAN
        } else {
            orogeny::ARC
        };
    }
}
