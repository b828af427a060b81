//! Plates as regions: every plate one connected piece, and rifting.
//!
//! The clean-up keeps each plate's largest connected piece; a stray piece (a vertex or a
//! sliver cut off by subduction or suturing) joins the plate it borders most, and moves with
//! it from then on, like a captured terrane. Rifting splits a large plate along a
//! ragged great circle through its middle; the new plate turns away from the old one so a
//! ridge opens between them.

use super::init::direction;
use super::noise::{derive, fbm};
use super::{PLATE, Params, Plate, Tectonics, TectonicsError, read, slice, world_ops, write};
use glam::DVec3;
use quadedge::{Mesh, Vertex};
use rand::Rng;
use world::World;

/// Makes every plate one connected region; returns how many vertices changed plate. The
/// layer is copied and written only when a piece moves.
///
/// # Errors
/// When the world lacks the plate layer.
pub(super) fn clean_up(world: &mut World, params: &Params) -> Result<usize, TectonicsError> {
    let _ = params;
    let mut plate: Option<Vec<u32>> = None;
    let mut changed = 0;
    // Two rounds: a piece that joins a neighbour may itself have been cut off.
    for _ in 0..2 {
        let targets = match &plate {
            Some(p) => strays(world.mesh(), p),
            None => strays(world.mesh(), slice(world, &PLATE)?),
        };
        if targets.is_empty() {
            break;
        }
        let p = match &mut plate {
            Some(p) => p,
            None => plate.insert(slice(world, &PLATE)?.to_vec()),
        };
        changed += targets.len();
        for (v, to) in targets {
            p[v.index()] = to;
        }
    }
    if let Some(p) = plate {
        write(world, &PLATE, &p)?;
    }
    Ok(changed)
}

/// Every vertex of a stray piece (not its plate's largest; ties: the largest found first,
/// in vertex order) with the plate that piece borders most (ties: the lowest id), in vertex
/// order.
fn strays(mesh: &Mesh, plate: &[u32]) -> Vec<(Vertex, u32)> {
    let (comp, pieces) = components(mesh, plate);
    // The largest piece of each plate.
    let mut best: std::collections::BTreeMap<u32, (usize, usize)> = Default::default();
    for (k, piece) in pieces.iter().enumerate() {
        let e = best.entry(piece.plate).or_insert((piece.size, k));
        if piece.size > e.0 {
            *e = (piece.size, k);
        }
    }
    // Per piece, whether it is its plate's largest (a flat table: no lookup per vertex).
    let mut main = vec![false; pieces.len()];
    for &(_, k) in best.values() {
        main[k] = true;
    }
    if main.iter().all(|&m| m) {
        return Vec::new();
    }
    // Per stray piece, the plate it borders most.
    let mut votes: std::collections::BTreeMap<(u32, u32), usize> = Default::default();
    for v in mesh.vertices() {
        let c = comp[v.index()];
        if main[c as usize] {
            continue;
        }
        for u in mesh.neighbors(v) {
            if comp[u.index()] != c {
                *votes.entry((c, plate[u.index()])).or_default() += 1;
            }
        }
    }
    let mut target: std::collections::BTreeMap<u32, (usize, u32)> = Default::default();
    for (&(c, p), &n) in &votes {
        let e = target.entry(c).or_insert((n, p));
        if n > e.0 {
            *e = (n, p);
        }
    }
    let mut to = vec![None; pieces.len()];
    for (&c, &(_, p)) in &target {
        to[c as usize] = Some(p);
    }
    mesh.vertices()
        .filter_map(|v| to[comp[v.index()] as usize].map(|p| (v, p)))
        .collect()
}

/// One connected piece of equal plate.
struct Piece {
    size: usize,
    plate: u32,
}

/// Connected pieces of equal plate: the piece of each vertex (an index into the pieces), and
/// the pieces in the order a scan of every vertex finds them (of their lowest vertex).
fn components(mesh: &Mesh, plate: &[u32]) -> (Vec<u32>, Vec<Piece>) {
    let mut comp = vec![u32::MAX; mesh.vertex_slots()];
    let mut pieces = Vec::new();
    let mut stack = Vec::new();
    for s in mesh.vertices() {
        if comp[s.index()] != u32::MAX {
            continue;
        }
        let c = pieces.len() as u32;
        let p = plate[s.index()];
        comp[s.index()] = c;
        stack.push(s);
        let mut size = 0;
        while let Some(v) = stack.pop() {
            size += 1;
            for u in mesh.neighbors(v) {
                if comp[u.index()] == u32::MAX && plate[u.index()] == p {
                    comp[u.index()] = c;
                    stack.push(u);
                }
            }
        }
        pieces.push(Piece { size, plate: p });
    }
    (comp, pieces)
}

/// Vertices with no neighbour on their own plate, as a fraction of all.
pub fn lonely_fraction(mesh: &Mesh, plate: &[u32]) -> f64 {
    let lonely = mesh
        .vertices()
        .filter(|&v| {
            mesh.neighbors(v)
                .all(|u| plate[u.index()] != plate[v.index()])
        })
        .count();
    lonely as f64 / mesh.vertex_count().max(1) as f64
}

/// Pieces per plate id (a plate with no vertex has none).
pub fn pieces_per_plate(mesh: &Mesh, plate: &[u32], plates: usize) -> Vec<usize> {
    let (_, pieces) = components(mesh, plate);
    let mut n = vec![0; plates];
    for piece in pieces {
        if let Some(x) = n.get_mut(piece.plate as usize) {
            *x += 1;
        }
    }
    n
}

/// Splits a plate covering more than `rift_min_area` of the surface, drawn at random among
/// those (each plate gets a random rank; the eligible plate of lowest rank rifts); returns
/// the new plate. Which plate rifts is decided by plate ids and the seed, and by areas only
/// through the threshold: choosing the largest plate was not the same plate at every
/// resolution when two plates had nearly the same size. The generator is drawn from the same
/// way either way.
///
/// # Errors
/// When the world lacks the plate layer.
pub(super) fn rift(world: &mut World, t: &mut Tectonics) -> Result<Option<u32>, TectonicsError> {
    let along = direction(&mut t.rng);
    let speed_cm: f64 = t.rng.random_range(2.0..4.0);
    let ranks: Vec<u64> = (0..t.plates.len()).map(|_| t.rng.random()).collect();
    t.measure_areas(world);
    let sphere = 4.0 * std::f64::consts::PI * t.params.radius_km.powi(2);
    if t.plates.len() >= super::MAX_PLATES {
        return Ok(None);
    }
    let big = (0..t.plates.len())
        .filter(|&p| t.plates[p].area_km2 >= t.params.rift_min_area * sphere)
        .min_by_key(|&p| ranks[p])
        .map(|p| p as u32);
    let Some(big) = big else {
        return Ok(None);
    };
    let mut plate = read(world, &PLATE)?;
    let pos = world_ops::positions(world);
    let mesh = world.mesh();
    let members: Vec<Vertex> = mesh
        .vertices()
        .filter(|v| plate[v.index()] == big)
        .collect();
    let centre = members
        .iter()
        .map(|v| pos[v.index()])
        .sum::<DVec3>()
        .try_normalize()
        .unwrap_or(DVec3::Z);
    // The rift's great circle passes through the centre along `along` (made tangent).
    let tangent = (along - centre * along.dot(centre))
        .try_normalize()
        .unwrap_or(centre.any_orthonormal_vector());
    let normal = centre.cross(tangent);
    let seed = derive(t.params.seed, 0x41f7 + t.plates.len() as u64);
    let new = t.plates.len() as u32;
    for v in &members {
        let d = pos[v.index()].normalize();
        let wobble = 0.12 * fbm(seed, d, t.params.radius_km, 900.0, 4, 0.5);
        if d.dot(normal) + wobble > 0.0 {
            plate[v.index()] = new;
        }
    }
    write(world, &PLATE, &plate)?;
    // The new half turns about the rift's tangent at the centre: at the centre it moves
    // along `normal`, away from the old half.
    let parent = t.plates[big as usize];
    let omega_rel = speed_cm * 10.0 / t.params.radius_km;
    let spin = parent.pole * parent.omega - tangent * omega_rel;
    let omega = spin.length();
    t.plates.push(Plate {
        pole: spin.try_normalize().unwrap_or(parent.pole),
        omega,
        area_km2: 0.0,
        parent: Some(big),
    });
    clean_up(world, &t.params)?;
    t.measure_areas(world);
    Ok(Some(new))
}
