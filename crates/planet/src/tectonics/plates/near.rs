//! The clean-up from the boundary band, at the cost of the band instead of the mesh.
//!
//! A loose piece is small (at most [`sure_size`] vertices, else it holds) and, unless its
//! plate covers the whole sphere, borders another plate: one of its vertices is an end of a
//! boundary edge. So searches from the band's ends find every loose piece; each search walks
//! its piece and stops as soon as the piece is known to be large (more vertices than any
//! loose piece has, or a vertex already found in a large piece), so the searches from one
//! long boundary cost about its length. What they decide is what the union–find over every
//! edge decides ([`super::strays`]), bit for bit: the same pieces, areas summed in the same
//! order, the same votes.

use super::super::band;
use super::super::set;
use super::{PLATE, Params, TERRANE_MIN_VERTICES, TectonicsError, cell_area, holds, sure_size};
use super::{slice, world_ops};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use world::World;

/// [`super::clean_up`] for plates whose boundary edges are `edges` (the
/// [`band::boundary_edges`]), which it keeps up to date; returns how many vertices changed
/// plate.
///
/// # Errors
/// When the world lacks the plate layer.
pub(in super::super) fn clean_up_from_band(
    world: &mut World,
    params: &Params,
    edges: &mut Vec<Edge>,
) -> Result<usize, TectonicsError> {
    let r = params.radius_km;
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let plate = slice(world, &PLATE)?;
    debug_assert!(
        *edges == band::boundary_edges(mesh, plate),
        "the band is the plates' boundary"
    );
    let mut seeds = band::ends(mesh, edges);
    let first = strays_near(mesh, pos, plate, r, &seeds);
    if first.is_empty() {
        return Ok(0);
    }
    // Written in place at the vertices that change (no copy of the layer).
    let moved = |s: &[(Vertex, u32)]| s.iter().map(|&(v, _)| v).collect::<Vec<Vertex>>();
    set(world, &PLATE, &moved(&first), |k| first[k].1)?;
    // Two rounds, as the whole clean-up: a piece that joined a neighbour may have cut
    // another off. A boundary now runs where one ran or beside a vertex that changed plate.
    let mesh = world.mesh();
    seeds.extend(
        first
            .iter()
            .flat_map(|&(v, _)| std::iter::once(v).chain(mesh.neighbors(v))),
    );
    seeds.sort_unstable();
    seeds.dedup();
    let pos = world_ops::positions(world);
    let second = strays_near(mesh, pos, slice(world, &PLATE)?, r, &seeds);
    set(world, &PLATE, &moved(&second), |k| second[k].1)?;
    let changed: Vec<Vertex> = first.iter().chain(&second).map(|&(v, _)| v).collect();
    let mesh = world.mesh();
    band::update(
        mesh,
        slice(world, &PLATE)?,
        edges,
        band::around(mesh, &changed),
    );
    Ok(first.len() + second.len())
}

/// Not reached by a search yet.
const UNSEEN: u8 = 0;
/// In a piece too large to be loose.
const LARGE: u8 = 1;
/// In a piece walked whole (judged).
const WHOLE: u8 = 2;
/// In the running search.
const SEARCH: u8 = 3;
/// A flag beside the states: the vertex is a seed.
const SEED: u8 = 0x80;

/// Every vertex of a loose piece with the plate that piece borders most (ties: the lowest
/// id), in vertex order: the pieces met by searches from `seeds`, which must include an end
/// of every boundary edge.
pub(super) fn strays_near(
    mesh: &Mesh,
    pos: &[DVec3],
    plate: &[u32],
    radius: f64,
    seeds: &[Vertex],
) -> Vec<(Vertex, u32)> {
    let sure = sure_size(mesh, radius);
    // A piece of more vertices than this holds, whatever its area.
    let limit = sure.max(TERRANE_MIN_VERTICES - 1);
    let mut mark = vec![UNSEEN; mesh.vertex_slots()];
    for &s in seeds {
        mark[s.index()] |= SEED;
    }
    let state = |m: u8| m & !SEED;
    let mut piece: Vec<Vertex> = Vec::new();
    let mut votes: Vec<(u32, usize)> = Vec::new();
    let mut out = Vec::new();
    for &s in seeds {
        if state(mark[s.index()]) != UNSEEN {
            continue;
        }
        let p = plate[s.index()];
        piece.clear();
        piece.push(s);
        mark[s.index()] |= SEARCH;
        let mut large = false;
        let mut head = 0;
        'search: while let Some(&v) = piece.get(head) {
            head += 1;
            for u in mesh.neighbors(v) {
                if plate[u.index()] != p {
                    continue;
                }
                match state(mark[u.index()]) {
                    LARGE => large = true,
                    UNSEEN => {
                        mark[u.index()] |= SEARCH;
                        piece.push(u);
                        large = piece.len() > limit;
                    }
                    _ => {}
                }
                if large {
                    break 'search;
                }
            }
        }
        let m = if large { LARGE } else { WHOLE };
        for v in &piece {
            mark[v.index()] = mark[v.index()] & SEED | m;
        }
        if large {
            // The seeds joined to this piece along the band are in it too: marked now, a
            // walk along the band, so that their own searches (which start wherever the
            // seeds' order puts them) do not each walk a piece's worth of vertices.
            let mut head = 0;
            while let Some(&v) = piece.get(head) {
                head += 1;
                for u in mesh.neighbors(v) {
                    let i = u.index();
                    if plate[i] == p && mark[i] == SEED | UNSEEN {
                        mark[i] = SEED | LARGE;
                        piece.push(u);
                    }
                }
            }
            continue;
        }
        // The whole piece: measured as the union–find's pass measures it (in vertex order).
        piece.sort_unstable();
        let size = piece.len();
        let area = if size >= TERRANE_MIN_VERTICES && size <= sure {
            piece
                .iter()
                .fold(0.0, |a, &v| a + cell_area(mesh, pos, v, radius))
        } else {
            0.0
        };
        if holds(size, area, sure) {
            continue;
        }
        votes.clear();
        for &v in &piece {
            for u in mesh.neighbors(v) {
                let q = plate[u.index()];
                if q == p {
                    continue;
                }
                match votes.iter_mut().find(|e| e.0 == q) {
                    Some(e) => e.1 += 1,
                    None => votes.push((q, 1)),
                }
            }
        }
        let best = votes
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|e| e.0);
        if let Some(to) = best {
            out.extend(piece.iter().map(|&v| (v, to)));
        }
    }
    out.sort_unstable_by_key(|e| e.0);
    out
}

#[cfg(test)]
mod tests {
    use super::super::strays;
    use super::super::write;
    use super::*;

    /// Plates from a few caps and bands, with stray cells sprinkled along their boundaries
    /// and small islands (some a whole remnant plate): the band's searches find what the
    /// union–find over every edge finds, and the whole clean-up ends the same.
    #[test]
    fn the_search_from_the_band_finds_what_the_whole_mesh_finds() {
        let r = 6371.0;
        for seed in 1..4u64 {
            let mut world = World::fibonacci_sphere(20_000, r, 0.3, seed).unwrap();
            let mut rng = testkit::Rng::new(seed);
            let centres: Vec<DVec3> = (0..9)
                .map(|_| DVec3::from_array(rng.unit_vector()))
                .collect();
            let mut plate: Vec<u32> = world
                .positions()
                .iter()
                .map(|&p| {
                    let d = p.normalize();
                    // Nearest centre, with a few tiny caps as islands of plate 7 and 8.
                    if d.dot(centres[7]) > (150.0 / r).cos() {
                        return 7;
                    }
                    if d.dot(centres[8]) > (400.0 / r).cos() {
                        return 8;
                    }
                    (0..7)
                        .max_by(|&a, &b| d.dot(centres[a]).total_cmp(&d.dot(centres[b])))
                        .unwrap() as u32
                })
                .collect();
            let mesh = world.mesh().clone();
            let edges = band::boundary_edges(&mesh, &plate);
            // Stray pieces of one to three cells of plate 9 (on no other plate's side).
            for (k, &e) in edges.iter().step_by(5).enumerate() {
                let a = mesh.origin(e);
                let grow: Vec<Vertex> = std::iter::once(a)
                    .chain(mesh.neighbors(a).take(k % 3))
                    .collect();
                for v in grow {
                    plate[v.index()] = 9;
                }
            }
            write(&mut world, &PLATE, &plate).unwrap();
            let pos = world.positions();
            let edges = band::boundary_edges(&mesh, &plate);
            let seeds = band::ends(&mesh, &edges);
            let near = strays_near(&mesh, pos, &plate, r, &seeds);
            let all = strays(&mesh, pos, &plate, r);
            assert!(all.len() > 20, "{}", all.len());
            assert_eq!(near, all);
            // The whole clean-up, both ways.
            let params = Params::earth(20_000, seed);
            let mut other = world.clone();
            let mut band = edges.clone();
            let moved = clean_up_from_band(&mut world, &params, &mut band).unwrap();
            let moved_all = super::super::clean_up_everywhere(&mut other, &params).unwrap();
            assert_eq!(moved, moved_all);
            let after = slice(&world, &PLATE).unwrap();
            assert_eq!(after, slice(&other, &PLATE).unwrap());
            assert_eq!(band, band::boundary_edges(world.mesh(), after));
            // Nothing is left to clean.
            assert_eq!(
                clean_up_from_band(&mut world, &params, &mut band).unwrap(),
                0
            );
        }
    }
}
