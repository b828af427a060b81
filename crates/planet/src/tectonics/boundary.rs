//! Where plates meet: subduction and collision, decided before the plates move (new crust in
//! the gaps they leave is [`super::new_crust`]).
//!
//! Before a motion step, each vertex near a boundary asks where it will be: turned by its own
//! plate and seen from the plate across the boundary (turned back by that plate's rotation),
//! is that point in the other plate's territory now (its nearest vertex on the other plate)?
//! If so, the two crusts will overlap there. Oceanic crust under continental crust, or the
//! faster plate's of two oceans, is consumed: those vertices are removed, so the overriding plate
//! moves into the room they leave and the boundary stays clean. Continent against continent
//! is a collision: the faster plate's crust at the contact is sutured onto the other plate
//! (it changes plate and moves with it from now on), and a collision range rises around the
//! contact. The test is exact geometry in km: no edge counts.

use super::band;
use super::distance::{Source, Sweep};
use super::{
    AGE, CONTINENTAL, CRUST, ELEVATION, OCEANIC, OROGENY, PLATE, Params, Plate, TectonicsError,
    orogeny, set, slice, world_ops,
};
use glam::{DQuat, DVec3};
use quadedge::{Edge, Vertex};
use rayon::prelude::*;
use std::collections::BTreeMap;
use world::World;

/// Collision range: uplift (m/Myr) at the contact of a collision closing at 5 cm/yr, and the
/// range's half-width (km).
const COLLISION_UPLIFT_M_PER_MYR: f32 = 140.0;
const COLLISION_RADIUS_KM: f64 = 700.0;

/// Candidates per task of the overlap test (each task's walks start from the previous
/// answer).
const WALK_CHUNK: usize = 1024;

/// What the front stage did.
pub(super) struct Fronts {
    pub subducted: usize,
    pub sutured: usize,
}

/// Which plate of each pair of oceanic plates (lower id first) dives under the other.
pub(super) type Polarity = BTreeMap<(u32, u32), u32>;

/// The key of a pair of plates in a [`Polarity`].
fn pair(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// One vertex that will overlap another plate after the coming motion.
#[derive(Clone, Copy)]
struct Overlap {
    vertex: Vertex,
    other: u32,
    other_continental: bool,
    other_age: f32,
}

/// Decides and applies subduction and collision for the coming motion (see the module docs);
/// `edges` becomes the [`band::boundary_edges`] after it.
///
/// # Errors
/// When the world lacks a layer or refuses the removal.
pub(super) fn subduct_and_collide(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    sweep: &mut Sweep,
    polarity: &mut Polarity,
    edges: &mut Vec<Edge>,
) -> Result<Fronts, TectonicsError> {
    let (doomed, contacts) = {
        let plate = slice(world, &PLATE)?;
        let crust = slice(world, &CRUST)?;
        *edges = band::boundary_edges(world.mesh(), plate);
        let overlaps = find_overlaps(world, plates, params, plate, edges, sweep);
        decide_polarity(&overlaps, plate, crust, plates, polarity);
        decide(&overlaps, plate, crust, polarity)
    };
    let removal = world_ops::remove_vertices(world, &doomed)?;
    let changed = suture(world, plates, params, &contacts, sweep)?;
    // The band after the edit and the suture, from what they touched.
    let mesh = world.mesh();
    let touched = removal.edges.iter().copied();
    let touched = touched.chain(band::around(mesh, &changed));
    band::update(mesh, slice(world, &PLATE)?, edges, touched);
    Ok(Fronts {
        subducted: doomed.len(),
        sutured: changed.len(),
    })
}

/// Continental contacts per (plate, plate across), in vertex order.
type Contacts = BTreeMap<(u32, u32), Vec<Vertex>>;

/// Ocean against ocean: per pair of plates, the faster plate dives, decided when the two
/// first converge and kept, as a subduction zone keeps its polarity. Plates pulled by a
/// sinking slab are the fast ones (slab pull: on Earth the plates with long subduction zones
/// move fastest); speeds are drawn from the seed, so the choice is the same on every mesh.
/// Comparing the two plates' mean floor ages (denser, older floor dives) was not: the
/// initial ages and the floor consumed so far are sampled by the mesh, plates often have
/// nearly equal means, and seed 2026 chose differently at 20k and 100k for three pairs, each
/// sending a few percent of the sphere to the other plate within 60 Myr.
fn decide_polarity(
    overlaps: &[Overlap],
    plate: &[u32],
    crust: &[u8],
    plates: &[Plate],
    polarity: &mut Polarity,
) {
    for o in overlaps {
        if crust[o.vertex.index()] != OCEANIC || o.other_continental {
            continue;
        }
        let (a, b) = pair(plate[o.vertex.index()], o.other);
        let speed = |p: u32| plates.get(p as usize).map_or(0.0, |p| p.omega);
        // Ties: the lower id dives.
        let diver = if speed(a) >= speed(b) { a } else { b };
        polarity.entry((a, b)).or_insert(diver);
    }
}

/// Which overlapping vertices are consumed (in increasing order) and which continental
/// contacts collide.
fn decide(
    overlaps: &[Overlap],
    plate: &[u32],
    crust: &[u8],
    polarity: &Polarity,
) -> (Vec<Vertex>, Contacts) {
    let dives = |a: u32, b: u32| polarity.get(&pair(a, b)) == Some(&a);
    let mut doomed = Vec::new();
    let mut contacts: Contacts = BTreeMap::new();
    for o in overlaps {
        let v = o.vertex.index();
        let a = plate[v];
        let mine_continental = crust[v] == CONTINENTAL;
        match (mine_continental, o.other_continental) {
            (false, true) => doomed.push(o.vertex),
            (false, false) if dives(a, o.other) => doomed.push(o.vertex),
            (true, true) => contacts.entry((a, o.other)).or_default().push(o.vertex),
            _ => {}
        }
        let _ = o.other_age;
    }
    doomed.sort_unstable();
    (doomed, contacts)
}

/// The vertices that the coming motion puts into another plate's present territory.
fn find_overlaps(
    world: &World,
    plates: &[Plate],
    params: &Params,
    plate: &[u32],
    edges: &[Edge],
    sweep: &mut Sweep,
) -> Vec<Overlap> {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let dt = params.time_step_myr;
    let fastest = plates.iter().map(|p| p.omega).fold(0.0, f64::max);
    // The farthest any two plates can approach in a step, plus a cell.
    let reach = 2.0 * fastest * params.radius_km * dt + 2.0 * params.spacing_km;
    // Boundary vertices where the plate across closes in (only there can crust overlap):
    // the band's vertices, on all cores (in vertex order whatever the threads).
    let band = band::ends(mesh, edges);
    let sources: Vec<Source> = band
        .par_iter()
        .filter_map(|&v| {
            let i = v.index();
            let p = plate[i];
            let mine = plates.get(p as usize)?;
            let other = mesh.neighbors(v).find_map(|u| {
                let q = plate[u.index()];
                let theirs = plates.get(q as usize)?;
                let x = pos[i];
                let closing = (theirs.velocity(x) - mine.velocity(x)).dot(pos[u.index()] - x);
                (q != p && closing < 0.0).then_some(q)
            })?;
            Some(Source {
                vertex: v,
                point: pos[i],
                tag: other,
            })
        })
        .collect();
    // Spread within each plate: every vertex learns the nearest plate across a boundary,
    // as far as the two plates can close in on each other anywhere in a step (plus a cell):
    // no farther vertex can pass the candidates' test below.
    let pair_reach = |s: &Source| {
        let (p, q) = (plate[s.vertex.index()] as usize, s.tag as usize);
        let relative = plates[p].pole * plates[p].omega - plates[q].pole * plates[q].omega;
        let far = relative.length() * params.radius_km * dt + params.spacing_km;
        (far * (1.0 + 1e-3)).min(reach)
    };
    sweep.run_limited(
        mesh,
        pos,
        params.radius_km,
        &sources,
        pair_reach,
        Some(plate),
    );
    let turn = |p: &Plate| DQuat::from_axis_angle(p.pole, p.omega * dt);
    let turns: Vec<DQuat> = plates.iter().map(turn).collect();
    let crust = world.layer(&CRUST).map(|l| l.as_slice()).unwrap_or(&[]);
    let age = world.layer(&AGE).map(|l| l.as_slice()).unwrap_or(&[]);
    // Only vertices nearer to the boundary than the two plates close in on each other there
    // (plus a cell) can cross it.
    let sweep = &*sweep;
    let candidates: Vec<Vertex> = sweep
        .reached()
        .par_iter()
        .map(|&i| Vertex::new(i))
        .filter(|&v| {
            let (i, b) = (v.index(), sweep.tag(v.index()) as usize);
            let Some(pb) = plates.get(b) else {
                return false;
            };
            let x = pos[i];
            let closing = (plates[plate[i] as usize].velocity(x) - pb.velocity(x)).length() * dt;
            f64::from(sweep.dist(i)) <= closing + params.spacing_km
        })
        .collect();
    // Where each candidate lands, seen from the plate across: the vertex nearest to it. On a
    // Delaunay mesh a greedy walk finds it from any start, so each walk starts from the
    // previous candidate's answer when that is nearer (neighbours in vertex order land side by
    // side: a step or two instead of the whole way across from the candidate).
    let back: Vec<DQuat> = turns.iter().map(|t| t.inverse()).collect();
    let key =
        |u: Vertex, q: DVec3| delaunay::Surface::distance_key(&delaunay::Sphere, q, pos[u.index()]);
    let (turns, back) = (&turns[..], &back[..]);
    candidates
        .par_chunks(WALK_CHUNK)
        .flat_map_iter(|chunk| {
            let mut last: Option<Vertex> = None;
            chunk.iter().filter_map(move |&v| {
                let (a, b) = (plate[v.index()] as usize, sweep.tag(v.index()) as usize);
                let q = back[b] * (turns[a] * pos[v.index()]);
                let start = last.filter(|&u| key(u, q) < key(v, q)).unwrap_or(v);
                let w = band::nearest_from(mesh, pos, start, q);
                last = Some(w);
                (plate[w.index()] as usize == b).then_some(Overlap {
                    vertex: v,
                    other: b as u32,
                    other_continental: crust[w.index()] == CONTINENTAL,
                    other_age: age[w.index()],
                })
            })
        })
        .collect()
}

/// For each pair of plates in continental contact, the continental crust of the faster
/// plate that the coming motion would push into the slower one joins the slower plate (it
/// stops there and piles up: crustal shortening), and a collision range rises around the
/// contact. The plate boundary thus moves into the faster plate at the closing speed.
/// Returns the vertices that changed plate.
fn suture(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    contacts: &Contacts,
    sweep: &mut Sweep,
) -> Result<Vec<Vertex>, TectonicsError> {
    if contacts.is_empty() {
        return Ok(Vec::new());
    }
    let (changes, rises) = {
        let plate = slice(world, &PLATE)?;
        let crust = slice(world, &CRUST)?;
        let (changes, range_sources) = sutured(world, plates, contacts, plate);
        sweep.run(
            world.mesh(),
            world_ops::positions(world),
            params.radius_km,
            &range_sources,
            COLLISION_RADIUS_KM,
            None,
        );
        let dt = params.time_step_myr as f32;
        // Only the vertices the sweep reached are in range.
        let rises: Vec<(usize, f32)> = sweep
            .reached()
            .par_iter()
            .with_min_len(4096)
            .map(|&i| i as usize)
            .filter(|&i| crust[i] == CONTINENTAL)
            .map(|i| {
                let d = f64::from(sweep.dist(i));
                let speed = f64::from(sweep.tag(i)) / 1000.0;
                let x = 1.0 - (d / COLLISION_RADIUS_KM).powi(2);
                let k = (speed / 50.0).clamp(0.2, 1.5) as f32;
                (i, COLLISION_UPLIFT_M_PER_MYR * dt * k * (x * x) as f32)
            })
            .collect();
        (changes, rises)
    };
    // Only the entries that change are written, in place (a guard would copy each layer
    // for its rollback).
    let moved: Vec<Vertex> = changes.iter().map(|&(v, _)| v).collect();
    set(world, &PLATE, &moved, |k| changes[k].1)?;
    let risen: Vec<Vertex> = rises.iter().map(|&(i, _)| Vertex::new(i as u32)).collect();
    let h = slice(world, &ELEVATION)?;
    let raised: Vec<f32> = rises.iter().map(|&(i, rise)| h[i] + rise).collect();
    set(world, &ELEVATION, &risen, |k| raised[k])?;
    set(world, &OROGENY, &risen, |_| orogeny::HIMALAYAN)?;
    Ok(moved)
}

/// The continental vertices of the smaller plate of each contact that join the larger one
/// (each vertex once, the first contact that names it), and the collision range's sources
/// (tagged with the closing speed in m/Myr).
fn sutured(
    world: &World,
    plates: &[Plate],
    contacts: &Contacts,
    plate: &[u32],
) -> (Vec<(Vertex, u32)>, Vec<Source>) {
    let pos = world_ops::positions(world);
    let mut changes = Vec::new();
    let mut done = std::collections::BTreeSet::new();
    let mut range_sources = Vec::new();
    for (&(a, b), touch) in contacts {
        let (pa, pb) = (plates[a as usize], plates[b as usize]);
        // Only the faster plate's crust is sutured (ties: the higher id's): it is scraped
        // off onto the slower plate, as India's crust onto Asia. Speeds are drawn from the
        // seed, so the choice is the same on every mesh (comparing areas was not, for two
        // plates of nearly equal size).
        if pa.omega < pb.omega || (pa.omega == pb.omega && a < b) {
            continue;
        }
        for &v in touch {
            if plate[v.index()] != a || !done.insert(v) {
                continue;
            }
            changes.push((v, b));
            let x = pos[v.index()];
            let speed = (pa.velocity(x) - pb.velocity(x)).length();
            range_sources.push(Source {
                vertex: v,
                point: x,
                tag: (speed * 1000.0) as u32,
            });
        }
    }
    (changes, range_sources)
}
