//! The initial planet, from the seed and places on the sphere only.
//!
//! Plates: seed points drawn on the sphere, each vertex on the plate whose seed is nearest
//! by great-circle distance times a per-plate weight, measured from a noise-warped position
//! (ragged, uneven plates rather than straight bisectors). Continents: the top
//! `continental_fraction` of a fractal noise with continent-sized features, with shelves
//! along their coasts. Ocean floor: dated by its drift time from the plates' opening
//! boundaries (the initial plates have been moving as they do now, so their ridges are where
//! they separate), depths from the ages.

use super::distance::{Source, Sweep};
use super::noise::{derive, fbm, fbm_vector};
use super::relief::ocean_depth;
use super::{
    AGE, CONTINENTAL, CRUST, ELEVATION, NO_PLATE, OCEANIC, OROGENY, PLATE, Params, Plate, RIDGE,
    TectonicsError, orogeny, world_ops, write,
};
use glam::DVec3;
use rand::Rng;
use rand_pcg::Pcg64;
use rayon::prelude::*;
use world::World;

/// A uniform direction on the sphere.
pub(super) fn direction(rng: &mut Pcg64) -> DVec3 {
    let z: f64 = rng.random_range(-1.0..=1.0);
    let phi: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let s = (1.0 - z * z).max(0.0).sqrt();
    DVec3::new(s * phi.cos(), s * phi.sin(), z)
}

/// Each plate's Euler pole (uniform on the sphere) and speed (uniform in the range, cm/yr).
pub(super) fn motions(params: &Params, rng: &mut Pcg64) -> Vec<Plate> {
    let (lo, hi) = params.speed_cm_per_yr;
    (0..params.plates)
        .map(|_| {
            let pole = direction(rng);
            let cm = if hi > lo {
                rng.random_range(lo..hi)
            } else {
                lo
            };
            Plate {
                pole,
                // cm/yr → km/Myr (×10) → rad/Myr.
                omega: cm * 10.0 / params.radius_km,
                area_km2: 0.0,
                parent: None,
            }
        })
        .collect()
}

/// Seed points of the plates (kept apart) and their weights, from the seed alone.
fn plate_seeds(params: &Params) -> (Vec<DVec3>, Vec<f64>) {
    use rand::SeedableRng;
    let mut rng = Pcg64::seed_from_u64(derive(params.seed, 0x5eed));
    let k = params.plates;
    // Seeds at least half a mean plate's radius apart (a few tries, then anything).
    let apart = 0.5 * (4.0 / k as f64).sqrt();
    let mut seeds: Vec<DVec3> = Vec::with_capacity(k);
    let mut tries = 0;
    while seeds.len() < k {
        let d = direction(&mut rng);
        tries += 1;
        if tries > 200 * k || seeds.iter().all(|s| s.angle_between(d) > apart) {
            seeds.push(d);
        }
    }
    let weights = (0..k).map(|_| rng.random_range(0.75..1.25)).collect();
    (seeds, weights)
}

/// Fills the plate, crust, age, elevation and orogeny layers.
///
/// # Errors
/// When the world refuses a layer.
pub(super) fn lay_out(
    world: &mut World,
    params: &Params,
    plates: &[Plate],
) -> Result<(), TectonicsError> {
    let (seeds, weights) = plate_seeds(params);
    let r = params.radius_km;
    let (warp_seed, land_seed, detail_seed, age_seed) = (
        derive(params.seed, 1),
        derive(params.seed, 2),
        derive(params.seed, 3),
        derive(params.seed, 4),
    );
    let pos = world_ops::positions(world);
    let slots = world.mesh().vertex_slots();
    let mut live = vec![false; slots];
    for v in world.mesh().vertices() {
        live[v.index()] = true;
    }
    let plate: Vec<u32> = (0..slots)
        .into_par_iter()
        .map(|i| {
            if !live[i] {
                return super::NO_PLATE;
            }
            let d = pos[i].normalize();
            let w = (d + 0.35 * fbm_vector(warp_seed, d, r, 1800.0, 4)).normalize();
            let mut best = (f64::INFINITY, 0u32);
            for (p, (s, k)) in seeds.iter().zip(&weights).enumerate() {
                let x = s.angle_between(w) * k;
                if x < best.0 {
                    best = (x, p as u32);
                }
            }
            best.1
        })
        .collect();
    let land: Vec<f64> = (0..slots)
        .into_par_iter()
        .map(|i| {
            if live[i] {
                fbm(land_seed, pos[i].normalize(), r, 3200.0, 6, 0.5)
            } else {
                f64::NEG_INFINITY
            }
        })
        .collect();
    // The threshold leaving `continental_fraction` of the (evenly spread) vertices above.
    let mut sorted: Vec<f64> = land.iter().copied().filter(|x| x.is_finite()).collect();
    let n = sorted.len();
    let k = (((1.0 - params.continental_fraction) * n as f64) as usize).min(n.saturating_sub(1));
    let (_, &mut threshold, _) = sorted.select_nth_unstable_by(k, f64::total_cmp);
    let (ridge_age, partner) = drift_times(world, params, plates, &plate);
    let fields: Vec<(u8, f32, f32)> = (0..slots)
        .into_par_iter()
        .map(|i| {
            if !live[i] {
                return (OCEANIC, 0.0, 0.0);
            }
            let d = pos[i].normalize();
            let detail = fbm(detail_seed, d, r, 600.0, 5, 0.55);
            let margin = land[i] - threshold;
            if margin >= 0.0 {
                // A shelf along the coast, then lowlands and uplands inland.
                let inland = (margin / 0.12).min(1.0);
                let z = -180.0 + 900.0 * inland + 350.0 * detail;
                (CONTINENTAL, 200.0, z as f32)
            } else {
                // Floor far from any ridge (a plate with no opening boundary) is old.
                let drift = f64::from(ridge_age[i]);
                let age = if drift.is_finite() {
                    (drift * (1.0 + 0.15 * fbm(age_seed, d, r, 2500.0, 3, 0.5))).clamp(0.5, 180.0)
                } else {
                    (60.0 + 70.0 * fbm(age_seed, d, r, 2500.0, 3, 0.5)).clamp(5.0, 180.0)
                } as f32;
                (OCEANIC, age, ocean_depth(age) + (200.0 * detail) as f32)
            }
        })
        .collect();
    let crust: Vec<u8> = fields.iter().map(|f| f.0).collect();
    let age: Vec<f32> = fields.iter().map(|f| f.1).collect();
    let elevation: Vec<f32> = fields.iter().map(|f| f.2).collect();
    let ridge: Vec<u32> = (0..slots)
        .map(|i| {
            if crust[i] == OCEANIC {
                partner[i]
            } else {
                NO_PLATE
            }
        })
        .collect();
    write_new(world, &PLATE, plate)?;
    write_new(world, &CRUST, crust)?;
    write_new(world, &AGE, age)?;
    write_new(world, &ELEVATION, elevation)?;
    write_new(world, &OROGENY, vec![orogeny::NONE; slots])?;
    write_new(world, &RIDGE, ridge)?;
    let _ = CONTINENTAL;
    Ok(())
}

/// Each vertex's drift time (Myr) from its plate's nearest opening boundary (the distance
/// from the boundary (km) over that boundary's half opening rate; infinite on a plate with no
/// opening boundary) and the plate across that boundary ([`NO_PLATE`] when none). A boundary edge opens when its plates move apart across it faster than
/// [`MIN_OPENING`] and mostly across it (a transform makes no floor).
fn drift_times(
    world: &World,
    params: &Params,
    plates: &[Plate],
    plate: &[u32],
) -> (Vec<f32>, Vec<u32>) {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let r = params.radius_km;
    let sources: Vec<Source> = mesh
        .vertices()
        .filter_map(|v| {
            let (i, p) = (v.index(), plate[v.index()]);
            let mine = plates.get(p as usize)?;
            // The fastest opening edge of the vertex's ring.
            let (half, mid, across) = mesh
                .neighbors(v)
                .filter_map(|u| {
                    let theirs = plates.get(plate[u.index()] as usize)?;
                    if plate[u.index()] == p {
                        return None;
                    }
                    let mid = ((pos[i] + pos[u.index()]) * 0.5).normalize() * r;
                    let rel = theirs.velocity(mid) - mine.velocity(mid);
                    let opening = rel.dot((pos[u.index()] - pos[i]).normalize());
                    (opening > MIN_OPENING && opening > 0.7 * rel.length()).then_some((
                        0.5 * rel.length(),
                        mid,
                        plate[u.index()],
                    ))
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))?;
            Some(Source {
                vertex: v,
                point: mid,
                // The half rate in units of 10 m/Myr (high 16 bits) and the plate across.
                tag: (((half * 100.0) as u32).clamp(1, 0xfffe) << 16) | (across & 0xffff),
            })
        })
        .collect();
    let mut sweep = Sweep::default();
    sweep.run(
        mesh,
        pos,
        r,
        &sources,
        std::f64::consts::PI * r,
        Some(plate),
    );
    (0..mesh.vertex_slots())
        .map(|i| {
            let (d, t) = (sweep.dist(i), sweep.tag(i));
            if d.is_finite() && t != u32::MAX {
                (d / ((t >> 16) as f32 / 100.0), t & 0xffff)
            } else {
                (f32::INFINITY, NO_PLATE)
            }
        })
        .unzip()
}

/// Slowest opening (km/Myr, 1 cm/yr) of a boundary that makes floor.
const MIN_OPENING: f64 = 10.0;

/// Creates (or overwrites) a whole vertex layer.
fn write_new<T: layers::LayerValue + Copy>(
    world: &mut World,
    info: &layers::LayerInfo<T, layers::VertexKind>,
    values: Vec<T>,
) -> Result<(), TectonicsError> {
    write(world, info, &values)
}

/// The pairs of plates (the faster, the slower: the order [`super::boundary`] weighs
/// collisions in) whose continents already meet across their boundary in the initial state.
/// The initial plates are cut across the continents without regard to them, so such a
/// boundary is a collision under way, not a terrane arriving: it shortens from the first
/// step. Weighed as arrivals, the initial cuts re-plated the faster plate's fragment of each
/// continent whole when it measured under [`super::SUTURE_MAX_KM2`]: 3.9 million km² at the
/// first step (seed 3), the fragments differing between 100k and 1M vertices by up to
/// 0.7 million km² per pair (a plate's fragment sutured at one size only), which set small
/// plates 5–25% apart and changed which crust met at their boundaries for the rest of the
/// run (docs/benchmark-notes.md "Plate areas IV").
pub(super) fn collisions_at_start(
    world: &World,
    plates: &[Plate],
) -> Result<super::suture::Collisions, TectonicsError> {
    let plate = super::slice(world, &PLATE)?;
    let crust = super::slice(world, &CRUST)?;
    let mesh = world.mesh();
    let faster = |a: u32, b: u32| super::suture::faster(plates, a, b);
    let mut pairs = super::suture::Collisions::new();
    for e in mesh.undirected_edges() {
        let (u, v) = (mesh.origin(e).index(), mesh.dest(e).index());
        let (a, b) = (plate[u], plate[v]);
        if a == b || (a as usize) >= plates.len() || (b as usize) >= plates.len() {
            continue;
        }
        if crust[u] == CONTINENTAL && crust[v] == CONTINENTAL {
            pairs.insert(if faster(a, b) { (a, b) } else { (b, a) });
        }
    }
    Ok(pairs)
}
