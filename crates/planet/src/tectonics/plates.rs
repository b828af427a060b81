//! Plates as regions: every plate one connected piece, and rifting.
//!
//! The clean-up keeps each plate's largest connected piece; a stray piece (a vertex or a
//! sliver cut off by subduction or collision) joins the plate it borders most, and moves with
//! it from then on, like a captured terrane. Rifting splits a large plate along a
//! ragged great circle through its middle; the new plate turns away from the old one so a
//! ridge opens between them.

use super::band;
use super::init::direction;
use super::noise::{derive, fbm};
use super::stats;
#[cfg(test)]
use super::write;
use super::{PLATE, Params, Plate, Tectonics, TectonicsError, slice, world_err, world_ops};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rand::Rng;
use rayon::prelude::*;
use world::World;

mod near;
pub(super) use near::clean_up_from_band;

/// Least area (km²) of a piece of a plate that holds on its own: a piece cut off its plate
/// (a plate pinched in two as it is consumed) at least this large stays on the plate as a
/// terrane and goes on moving with it, as it would on a finer mesh where the neck has not
/// broken yet; a smaller piece (a stray cell, a sliver, or the last remnant of a consumed
/// plate) joins the plate it borders most. About 250 km across, ten cells at 100k vertices:
/// an area, so every mesh decides alike (a count of cells would not). Where a neck breaks
/// depends on the mesh, so each piece handed over is a jump one sampling makes and another
/// does not: at 300,000 km² such jumps of 0.17–0.24 million km² (0.05% of the sphere) made
/// half of the largest difference between two samplings of one resolution
/// (docs/benchmark-notes.md, "Plate areas VII").
pub const TERRANE_MIN_KM2: f64 = 50_000.0;

/// Fewest vertices of a terrane: on a coarse mesh a piece must also be resolved by a few
/// cells (a sampling guard, like [`Params::spacing_km`]: a lone vertex is a stray whatever
/// its cell's area).
const TERRANE_MIN_VERTICES: usize = 3;

/// Makes every plate one connected region or a main piece with its terranes (pieces of at
/// least [`TERRANE_MIN_KM2`]); returns how many vertices changed plate. The layer is copied
/// and written only when a piece moves. Searches from the plates' boundary
/// ([`clean_up_from_band`]): one pass over the edges to find it, then the cost of the band.
///
/// # Errors
/// When the world lacks the plate layer.
pub(super) fn clean_up(world: &mut World, params: &Params) -> Result<usize, TectonicsError> {
    let mut edges = band::boundary_edges(world.mesh(), slice(world, &PLATE)?);
    clean_up_from_band(world, params, &mut edges)
}

/// [`clean_up`] by a union–find over every edge: the reference the band's searches are
/// tested against.
#[cfg(test)]
fn clean_up_everywhere(world: &mut World, params: &Params) -> Result<usize, TectonicsError> {
    let mut plate: Option<Vec<u32>> = None;
    let mut changed = 0;
    // Two rounds: a piece that joins a neighbour may itself have been cut off.
    for _ in 0..2 {
        let pos = world_ops::positions(world);
        let targets = match &plate {
            Some(p) => strays(world.mesh(), pos, p, params.radius_km),
            None => strays(world.mesh(), pos, slice(world, &PLATE)?, params.radius_km),
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

/// Pieces that the clean-up would move now: neither a plate's largest piece nor a terrane
/// (0 after [`super::Tectonics::clean_up`]).
pub fn loose_pieces(world: &World, radius_km: f64) -> usize {
    let Some(plate) = world.layer(&PLATE) else {
        return 0;
    };
    let (comp, pieces) = components(world.mesh(), plate.as_slice());
    let pos = world_ops::positions(world);
    held(world.mesh(), pos, &comp, &pieces, radius_km)
        .iter()
        .filter(|&&h| !h)
        .count()
}

/// Per piece, whether it holds on its own ([`holds`]). Areas are measured (barycentric
/// cells) only for pieces that could be under the threshold.
fn held(mesh: &Mesh, pos: &[DVec3], comp: &[u32], pieces: &[Piece], radius: f64) -> Vec<bool> {
    let sure = sure_size(mesh, radius);
    let measure = |p: &Piece| p.size >= TERRANE_MIN_VERTICES && p.size <= sure;
    let mut area = vec![0.0; pieces.len()];
    if pieces.iter().any(measure) {
        for v in mesh.vertices() {
            let c = comp[v.index()] as usize;
            if measure(&pieces[c]) {
                area[c] += cell_area(mesh, pos, v, radius);
            }
        }
    }
    pieces
        .iter()
        .zip(&area)
        .map(|(p, &a)| holds(p.size, a, sure))
        .collect()
}

/// Whether a piece of `size` vertices and `area` km² (measured only when `size` is at most
/// `sure`) holds on its own: at least [`TERRANE_MIN_KM2`] and [`TERRANE_MIN_VERTICES`],
/// whether it is its plate's largest piece or a terrane (a smaller plate is the remnant of a
/// consumed one).
fn holds(size: usize, area: f64, sure: usize) -> bool {
    size >= TERRANE_MIN_VERTICES && (size > sure || area >= TERRANE_MIN_KM2)
}

/// A piece of more vertices than this is taken as large enough without measuring: twice the
/// threshold's worth of mean cells (the meshes' cells vary by far less than a factor of two:
/// fresh spheres, and new crust no denser than the lattice).
fn sure_size(mesh: &Mesh, radius: f64) -> usize {
    let sphere = 4.0 * std::f64::consts::PI * radius * radius;
    let mean_cell = sphere / mesh.vertex_count().max(1) as f64;
    (2.0 * TERRANE_MIN_KM2 / mean_cell).ceil() as usize
}

/// A vertex's barycentric cell (km²): a third of each triangle round it (the cells tile the
/// sphere).
fn cell_area(mesh: &Mesh, pos: &[DVec3], v: Vertex, radius: f64) -> f64 {
    mesh.vertex_faces(v)
        .map(|f| {
            let [a, b, c] = mesh.face_vertices(f).map(|u| pos[u.index()]);
            sphere::geometry::spherical_triangle_area(a, b, c, radius) / 3.0
        })
        .sum()
}

#[cfg(test)]
/// Every vertex of a loose piece (see [`held`]) with the plate that piece borders most (ties:
/// the lowest id), in vertex order.
fn strays(mesh: &Mesh, pos: &[DVec3], plate: &[u32], radius: f64) -> Vec<(Vertex, u32)> {
    let (comp, pieces) = components(mesh, plate);
    let main = held(mesh, pos, &comp, &pieces, radius);
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
/// the pieces in the order a scan of every vertex finds them (of their lowest vertex). A
/// union–find over the edge arrays (each edge joining two vertices of one plate links their
/// sets), not a search round every vertex's ring: at 1M vertices a third of the time.
fn components(mesh: &Mesh, plate: &[u32]) -> (Vec<u32>, Vec<Piece>) {
    let n = mesh.vertex_slots();
    let mut root: Vec<u32> = (0..n as u32).collect();
    let find = |root: &mut [u32], mut x: u32| {
        while root[x as usize] != x {
            // Path halving.
            let up = root[root[x as usize] as usize];
            root[x as usize] = up;
            x = up;
        }
        x
    };
    for q in 0..mesh.quad_slots() as u32 {
        let e = Edge::of_quad(q);
        if !mesh.is_edge_alive(e) {
            continue;
        }
        let (a, b) = (mesh.origin(e).raw(), mesh.dest(e).raw());
        if plate[a as usize] != plate[b as usize] {
            continue;
        }
        let (ra, rb) = (find(&mut root, a), find(&mut root, b));
        if ra != rb {
            // The lower index becomes the root: the sets' labels do not depend on the order.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            root[hi as usize] = lo;
        }
    }
    let mut comp = vec![u32::MAX; n];
    let mut pieces: Vec<Piece> = Vec::new();
    for v in mesh.vertices() {
        let r = find(&mut root, v.raw()) as usize;
        // A root is its set's lowest vertex, so it is labelled first.
        if comp[r] == u32::MAX {
            comp[r] = pieces.len() as u32;
            pieces.push(Piece {
                size: 0,
                plate: plate[r],
            });
        }
        let c = comp[r];
        comp[v.index()] = c;
        pieces[c as usize].size += 1;
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
    // The triangles' areas do not change with the plates: measured once for before and
    // after (the Voronoi measure of `measure_areas` was most of a rift's cost).
    let r = t.params.radius_km;
    let faces = stats::face_areas(world);
    let areas = stats::plate_areas_from_faces(world, &faces, t.plates.len(), r);
    for (p, a) in t.plates.iter_mut().zip(areas) {
        p.area_km2 = a;
    }
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
    let pos = world_ops::positions(world);
    let mesh = world.mesh();
    let plate = slice(world, &PLATE)?;
    let members = |v: &Vertex| plate[v.index()] == big;
    // Weighed by area (a third of each triangle to its corners), not by vertex: the mesh's
    // density varies (new crust, consumed fronts) differently at each resolution, and a
    // centre by vertex count moved the rift by up to half a percent of the sphere between
    // 100k and 1M vertices.
    let centre = stats::fold_face_chunks(
        mesh,
        || DVec3::ZERO,
        |sum, f| {
            let third = faces[f.index()] / 3.0;
            for v in mesh.face_vertices(f).iter().filter(|v| members(v)) {
                *sum += pos[v.index()] * third;
            }
        },
    )
    .into_iter()
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
    // The half beyond the ragged circle, on all cores (the noise is most of the cost).
    let moved: Vec<Vertex> = (0..mesh.vertex_slots() as u32)
        .into_par_iter()
        .with_min_len(4096)
        .map(Vertex::new)
        .filter(|v| mesh.is_vertex_alive(*v) && members(v))
        .filter(|v| {
            let d = pos[v.index()].normalize();
            let wobble = 0.12 * fbm(seed, d, r, 900.0, 4, 0.5);
            d.dot(normal) + wobble > 0.0
        })
        .collect();
    let mut g = world.lock_layer(&PLATE).map_err(world_err("plate"))?;
    let plate = g.as_mut_slice();
    for v in &moved {
        plate[v.index()] = new;
    }
    g.commit().map_err(world_err("plate"))?;
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
    let areas = stats::plate_areas_from_faces(world, &faces, t.plates.len(), r);
    for (p, a) in t.plates.iter_mut().zip(areas) {
        p.area_km2 = a;
    }
    Ok(Some(new))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_cut_off_piece_stays_a_terrane_and_small_pieces_join_their_neighbour() {
        let r = 6371.0;
        let n = 60_000;
        let mut world = World::fibonacci_sphere(n, r, 0.3, 4).unwrap();
        // Caps by angular radius: 800 km (2.0M km²) and 150 km (71,000 km², about eight
        // cells) are terranes, 110 km (38,000 km², about four cells) a stray piece, and a
        // whole plate that is a remnant.
        let cap = |p: DVec3, axis: DVec3, km: f64| p.normalize().dot(axis) > (km / r).cos();
        let plate: Vec<u32> = world
            .positions()
            .iter()
            .map(|&p| {
                if (p.z / r).abs() < 0.2
                    || cap(p, DVec3::Z, 800.0)
                    || cap(p, -DVec3::Z, 110.0)
                    || cap(p, DVec3::new(0.8, 0.0, 0.6), 150.0)
                {
                    1
                } else if cap(p, DVec3::new(0.0, 0.6, 0.8), 110.0) {
                    2
                } else {
                    0
                }
            })
            .collect();
        write(&mut world, &PLATE, &plate).unwrap();
        let small = |p: DVec3| cap(p, -DVec3::Z, 110.0) || cap(p, DVec3::new(0.0, 0.6, 0.8), 110.0);
        let strays = world.positions().iter().filter(|&&p| small(p)).count();
        assert!(strays >= 6, "{strays}");
        assert_eq!(loose_pieces(&world, r), 2);
        let moved = clean_up(&mut world, &Params::earth(n, 1)).unwrap();
        assert_eq!(moved, strays);
        assert_eq!(loose_pieces(&world, r), 0);
        let after = slice(&world, &PLATE).unwrap();
        for (p, (&a, &b)) in world.positions().iter().zip(after.iter().zip(&plate)) {
            assert_eq!(a, if small(*p) { 0 } else { b });
        }
        // The terranes are still plate 1's second and third pieces (plate 0 lies north and
        // south of the band: two pieces, each far over the threshold).
        assert_eq!(pieces_per_plate(world.mesh(), after, 3), [2, 3, 0]);
    }
}
