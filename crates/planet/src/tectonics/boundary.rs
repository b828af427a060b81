//! Where plates meet: subduction and collision, decided before the plates move; new crust in
//! the gaps, after they moved.
//!
//! Before a motion step, each vertex near a boundary asks where it will be: turned by its own
//! plate and seen from the plate across the boundary (turned back by that plate's rotation),
//! is that point in the other plate's territory now (its nearest vertex on the other plate)?
//! If so, the two crusts will overlap there. Oceanic crust under continental crust, or the
//! older of two oceans, is consumed: those vertices are removed, so the overriding plate
//! moves into the room they leave and the boundary stays clean. Continent against continent
//! is a collision: the smaller plate's crust at the contact is sutured onto the other plate
//! (it changes plate and moves with it from now on), and a collision range rises around the
//! contact. The test is exact geometry in km: no edge counts.

use super::distance::{Source, nearest_sources};
use super::ridge;
use super::{
    AGE, CONTINENTAL, CRUST, ELEVATION, OCEANIC, OROGENY, PLATE, Params, Plate, TectonicsError,
    orogeny, read, world_ops, write,
};
use glam::{DQuat, DVec3};
use quadedge::Vertex;
use rayon::prelude::*;
use std::collections::BTreeMap;
use world::World;

/// Depth of new crust at a ridge (m).
pub const RIDGE_DEPTH_M: f32 = -2600.0;
/// Collision range: uplift (m/Myr) at the contact of a collision closing at 5 cm/yr, and the
/// range's half-width (km).
const COLLISION_UPLIFT_M_PER_MYR: f32 = 140.0;
const COLLISION_RADIUS_KM: f64 = 700.0;

/// Rounds of new crust per step: a gap opened by fast plates on a fine mesh is several
/// cells wide, and each round fills one row.
const ROUNDS: usize = 12;

/// What the front stage did.
pub(super) struct Fronts {
    pub subducted: usize,
    pub sutured: usize,
}

/// One vertex that will overlap another plate after the coming motion.
#[derive(Clone, Copy)]
struct Overlap {
    vertex: Vertex,
    other: u32,
    other_continental: bool,
    other_age: f32,
}

/// Decides and applies subduction and collision for the coming motion (see the module docs).
///
/// # Errors
/// When the world lacks a layer or refuses the removal.
pub(super) fn subduct_and_collide(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
) -> Result<Fronts, TectonicsError> {
    let plate = read(world, &PLATE)?;
    let crust = read(world, &CRUST)?;
    let age = read(world, &AGE)?;
    let overlaps = find_overlaps(world, plates, params, &plate);
    // Ocean against ocean: per pair of plates, the one whose overlapping crust is older on
    // average dives (one decision per pair, so both sides never both go).
    let mut ages: BTreeMap<(u32, u32), (f64, f64, f64, f64)> = BTreeMap::new();
    for o in &overlaps {
        let a = plate[o.vertex.index()];
        if crust[o.vertex.index()] == OCEANIC && !o.other_continental {
            let (key, mine_first) = if a < o.other {
                ((a, o.other), true)
            } else {
                ((o.other, a), false)
            };
            let e = ages.entry(key).or_default();
            let x = f64::from(age[o.vertex.index()]);
            if mine_first {
                e.0 += x;
                e.1 += 1.0;
            } else {
                e.2 += x;
                e.3 += 1.0;
            }
        }
    }
    let older_dives = |a: u32, b: u32| -> bool {
        let (key, mine_first) = if a < b {
            ((a, b), true)
        } else {
            ((b, a), false)
        };
        let (sa, na, sb, nb) = ages.get(&key).copied().unwrap_or_default();
        let (ma, mb) = (sa / na.max(1.0), sb / nb.max(1.0));
        // `a` dives when it is the older side (ties: the lower id).
        if mine_first { ma >= mb } else { mb < ma }
    };
    let mut doomed = Vec::new();
    let mut contacts: BTreeMap<(u32, u32), Vec<Vertex>> = BTreeMap::new();
    for o in &overlaps {
        let v = o.vertex.index();
        let a = plate[v];
        let mine_continental = crust[v] == CONTINENTAL;
        match (mine_continental, o.other_continental) {
            (false, true) => doomed.push(o.vertex),
            (false, false) if older_dives(a, o.other) => doomed.push(o.vertex),
            (true, true) => contacts.entry((a, o.other)).or_default().push(o.vertex),
            _ => {}
        }
        let _ = o.other_age;
    }
    doomed.sort_unstable();
    world_ops::remove_vertices(world, &doomed)?;
    let sutured = suture(world, plates, params, &contacts)?;
    Ok(Fronts {
        subducted: doomed.len(),
        sutured,
    })
}

/// The vertices that the coming motion puts into another plate's present territory.
fn find_overlaps(world: &World, plates: &[Plate], params: &Params, plate: &[u32]) -> Vec<Overlap> {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let dt = params.time_step_myr;
    let fastest = plates.iter().map(|p| p.omega).fold(0.0, f64::max);
    // The farthest any two plates can approach in a step, plus a cell.
    let reach = 2.0 * fastest * params.radius_km * dt + 2.0 * params.spacing_km;
    // Boundary vertices where the plate across closes in (only there can crust overlap).
    // One pass over every vertex's ring, on all cores (in vertex order whatever the threads).
    let sources: Vec<Source> = (0..mesh.vertex_slots())
        .into_par_iter()
        .filter_map(|i| {
            let v = Vertex::new(i as u32);
            if !mesh.is_vertex_alive(v) {
                return None;
            }
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
    // Spread within each plate: every vertex learns the nearest plate across a boundary.
    let (dist, across) = nearest_sources(mesh, pos, params.radius_km, &sources, reach, Some(plate));
    let turn = |p: &Plate| DQuat::from_axis_angle(p.pole, p.omega * dt);
    let turns: Vec<DQuat> = plates.iter().map(turn).collect();
    let crust = world.layer(&CRUST).map(|l| l.as_slice()).unwrap_or(&[]);
    let age = world.layer(&AGE).map(|l| l.as_slice()).unwrap_or(&[]);
    // Only vertices nearer to the boundary than the two plates close in on each other there
    // (plus a cell) can cross it.
    let candidates: Vec<Vertex> = (0..mesh.vertex_slots())
        .into_par_iter()
        .map(|i| Vertex::new(i as u32))
        .filter(|&v| {
            let (i, b) = (v.index(), across[v.index()] as usize);
            let Some(pb) = plates.get(b) else {
                return false;
            };
            let x = pos[i];
            let closing = (plates[plate[i] as usize].velocity(x) - pb.velocity(x)).length() * dt;
            f64::from(dist[i]) <= closing + params.spacing_km
        })
        .collect();
    candidates
        .par_iter()
        .filter_map(|&v| {
            let (a, b) = (plate[v.index()] as usize, across[v.index()] as usize);
            let q = turns[b].inverse() * (turns[a] * pos[v.index()]);
            let hint = mesh.vertex_faces(v).next();
            let (w, _) = delaunay::nearest_vertex(&delaunay::Sphere, mesh, pos, q, hint).ok()?;
            (plate[w.index()] as usize == b).then_some(Overlap {
                vertex: v,
                other: b as u32,
                other_continental: crust[w.index()] == CONTINENTAL,
                other_age: age[w.index()],
            })
        })
        .collect()
}

/// For each pair of plates in continental contact, the continental crust of the smaller
/// plate that the coming motion would push into the larger one joins the larger plate (it
/// stops there and piles up: crustal shortening), and a collision range rises around the
/// contact. The plate boundary thus moves into the smaller plate at the closing speed, like
/// an indenter. Returns the vertices that changed plate.
fn suture(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    contacts: &BTreeMap<(u32, u32), Vec<Vertex>>,
) -> Result<usize, TectonicsError> {
    if contacts.is_empty() {
        return Ok(0);
    }
    let mut plate = read(world, &PLATE)?;
    let crust = read(world, &CRUST)?;
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let mut moved = 0;
    let mut range_sources = Vec::new();
    for (&(a, b), touch) in contacts {
        let (pa, pb) = (plates[a as usize], plates[b as usize]);
        // Only the smaller plate's crust is sutured (ties: the higher id's).
        if pa.area_km2 > pb.area_km2 || (pa.area_km2 == pb.area_km2 && a < b) {
            continue;
        }
        for &v in touch {
            if plate[v.index()] != a {
                continue;
            }
            plate[v.index()] = b;
            moved += 1;
            let x = pos[v.index()];
            let speed = (pa.velocity(x) - pb.velocity(x)).length();
            range_sources.push(Source {
                vertex: v,
                point: x,
                tag: (speed * 1000.0) as u32,
            });
        }
    }
    let (dist, tag) = nearest_sources(
        mesh,
        pos,
        params.radius_km,
        &range_sources,
        COLLISION_RADIUS_KM,
        None,
    );
    let mut elevation = read(world, &ELEVATION)?;
    let mut kind = read(world, &OROGENY)?;
    let dt = params.time_step_myr as f32;
    for v in mesh.vertices() {
        let i = v.index();
        let d = f64::from(dist[i]);
        if d.is_finite() && crust[i] == CONTINENTAL {
            let speed = f64::from(tag[i]) / 1000.0;
            let x = 1.0 - (d / COLLISION_RADIUS_KM).powi(2);
            let k = (speed / 50.0).clamp(0.2, 1.5) as f32;
            elevation[i] += COLLISION_UPLIFT_M_PER_MYR * dt * k * (x * x) as f32;
            kind[i] = orogeny::HIMALAYAN;
        }
    }
    write(world, &PLATE, &plate)?;
    write(world, &ELEVATION, &elevation)?;
    write(world, &OROGENY, &kind)?;
    Ok(moved)
}

/// New oceanic crust where the plates moved apart: every triangle joining two plates whose
/// circumradius exceeds the mesh spacing gets a vertex at its centre (on the plate of the
/// nearest corner), age 0, ridge depth; up to [`ROUNDS`] rounds, so wide gaps fill in rows.
/// Returns the vertices made.
///
/// # Errors
/// When the world refuses the insertion.
pub(super) fn new_crust(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
) -> Result<usize, TectonicsError> {
    let mut made = 0;
    // The first round looks at every face; the next ones only round what changed: the new
    // vertices and the wide faces a crowded round skipped.
    let mut focus: Option<Vec<quadedge::Face>> = None;
    for _ in 0..ROUNDS {
        let found = gaps(world, plates, params, focus.as_deref())?;
        if found.points.is_empty() {
            break;
        }
        let new = world_ops::insert_points(world, &found.points)?;
        set(world, &PLATE, &new, |i| found.owners[i])?;
        set(world, &CRUST, &new, |_| OCEANIC)?;
        set(world, &AGE, &new, |i| found.ages[i])?;
        set(world, &ELEVATION, &new, |_| RIDGE_DEPTH_M)?;
        set(world, &OROGENY, &new, |_| orogeny::NONE)?;
        made += new.len();
        let mesh = world.mesh();
        let mut around: Vec<quadedge::Face> = new
            .iter()
            .chain(&found.skipped)
            .filter(|v| mesh.is_vertex_alive(**v))
            .flat_map(|&v| mesh.vertex_faces(v))
            .collect();
        around.sort_unstable();
        around.dedup();
        focus = Some(around);
    }
    Ok(made)
}

/// Sets a vertex layer at the listed vertices to `value(k)` for the k-th.
fn set<T: layers::LayerValue + Copy>(
    world: &mut World,
    info: &layers::LayerInfo<T, layers::VertexKind>,
    vertices: &[Vertex],
    value: impl Fn(usize) -> T,
) -> Result<(), TectonicsError> {
    let mut g = world
        .lock_layer(info)
        .map_err(|e| TectonicsError::World(format!("{}: {e}", info.name())))?;
    let s = g.as_mut_slice();
    for (k, v) in vertices.iter().enumerate() {
        if let Some(x) = s.get_mut(v.index()) {
            *x = value(k);
        }
    }
    g.commit()
        .map_err(|e| TectonicsError::World(format!("{}: {e}", info.name())))
}

/// What one round of [`gaps`] found.
struct Gaps {
    /// Where new crust goes, and the plate of each.
    points: Vec<DVec3>,
    owners: Vec<u32>,
    /// The age of each (Myr): see [`super::ridge`].
    ages: Vec<f32>,
    /// Corners of wide faces left for the next round (a neighbour was filled first).
    skipped: Vec<Vertex>,
}

/// The centres of the wide triangles across plate boundaries, at most one per vertex's
/// star per round (so two new points never crowd), and the plate each joins.
fn gaps(
    world: &World,
    plates: &[Plate],
    params: &Params,
    focus: Option<&[quadedge::Face]>,
) -> Result<Gaps, TectonicsError> {
    let layer = |name: &str| TectonicsError::World(format!("no `{name}` layer"));
    let plate = world
        .layer(&PLATE)
        .ok_or_else(|| layer("plate"))?
        .as_slice();
    let crust = world
        .layer(&CRUST)
        .ok_or_else(|| layer("crust"))?
        .as_slice();
    let age = world
        .layer(&AGE)
        .ok_or_else(|| layer("crust_age"))?
        .as_slice();
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let r = params.radius_km;
    // A gap is a triangle across a boundary with room for a vertex: twice the area of a
    // lattice triangle ((√3/4)·spacing², and a lattice has two triangles per vertex, so new
    // crust gets the lattice's density), its centre at least 0.45 spacing from each corner
    // (so thin slivers along a barely opening boundary wait until they widen).
    let s2 = params.spacing_km * params.spacing_km;
    let min_area = 2.0 * 0.25 * 3f64.sqrt() * s2;
    let min_reach2 = 0.45 * 0.45 * s2;
    let all: Vec<quadedge::Face>;
    let faces = match focus {
        Some(f) => f,
        None => {
            all = mesh.faces().collect();
            &all
        }
    };
    let wide: Vec<(quadedge::Face, DVec3)> = faces
        .par_iter()
        .filter_map(|&f| {
            let [a, b, c] = mesh.face_vertices(f);
            let (pa, pb, pc) = (plate[a.index()], plate[b.index()], plate[c.index()]);
            if pa == pb && pb == pc {
                return None;
            }
            let (x, y, z) = (pos[a.index()], pos[b.index()], pos[c.index()]);
            if 0.5 * (y - x).cross(z - x).length() < min_area {
                return None;
            }
            let centre = (x + y + z).normalize() * r;
            if [x, y, z]
                .iter()
                .any(|p| p.distance_squared(centre) < min_reach2)
            {
                return None;
            }
            // Only where the plates move apart (not along transforms or fronts): some edge
            // of the triangle joining two plates opens.
            let opens = [(a, b), (b, c), (c, a)].iter().any(|&(u, v)| {
                let (pu, pv) = (plate[u.index()] as usize, plate[v.index()] as usize);
                if pu == pv || pu >= plates.len() || pv >= plates.len() {
                    return false;
                }
                let (xu, xv) = (pos[u.index()], pos[v.index()]);
                (plates[pv].velocity(xv) - plates[pu].velocity(xu)).dot(xv - xu) > 0.0
            });
            opens.then_some((f, centre))
        })
        .collect();
    let mut used = vec![false; mesh.vertex_slots()];
    let (mut points, mut owners, mut ages, mut skipped) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (f, centre) in wide {
        let corners = mesh.face_vertices(f);
        if corners.iter().any(|v| used[v.index()]) {
            skipped.extend(corners);
            continue;
        }
        // The centroid: inside the triangle, so the insertion always finds it.
        let point = centre;
        let nearest = corners
            .iter()
            .min_by(|u, v| {
                pos[u.index()]
                    .distance_squared(point)
                    .total_cmp(&pos[v.index()].distance_squared(point))
            })
            .copied()
            .unwrap_or(corners[0]);
        for v in corners {
            used[v.index()] = true;
            for u in mesh.neighbors(v) {
                used[u.index()] = true;
            }
        }
        let corner = |v: Vertex| ridge::Corner {
            point: pos[v.index()],
            plate: plate[v.index()],
            crust: crust[v.index()],
            age: age[v.index()],
        };
        let (owner, dated) = ridge::new_floor(point, &corners.map(corner), plates, corner(nearest));
        points.push(point);
        owners.push(owner);
        ages.push(dated);
    }
    Ok(Gaps {
        points,
        owners,
        ages,
        skipped,
    })
}
