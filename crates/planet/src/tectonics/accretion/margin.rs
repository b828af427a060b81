//! Where the continental budget accretes: the shores, and the ocean floor nearest to them.

use super::{CONTINENTAL, MARGIN_AGE_MYR, OCEANIC, Shore, flat_cell};
use crate::tectonics::band;
use crate::tectonics::distance::{Source, Sweep};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rayon::iter::Either;
use rayon::prelude::*;

/// The shores: each ocean vertex (at least [`MARGIN_AGE_MYR`] old) next to a continental
/// vertex of its plate, with the midpoint of their edge (km), by continental vertex in
/// increasing order and around it counter-clockwise. Each shore's edge comes from one pass
/// over the edge arrays on all cores ([`shore_edges`]); only the ring of a continental vertex
/// with two shores or more is walked, to put them in its order, and only up to its last
/// shore (a ring walk is a chain of scattered reads).
pub(super) fn shores(
    mesh: &Mesh,
    pos: &[DVec3],
    plate: &[u32],
    crust: &[u8],
    age: &[f32],
) -> Vec<Shore> {
    let mut edges = shore_edges(mesh, plate, crust, age);
    edges.par_sort_unstable();
    edges
        .par_chunk_by(|x, y| x.0 == y.0)
        .flat_map_iter(|coast| {
            let v = Vertex::new(coast[0].0);
            let ring = match coast {
                [(_, e)] => Either::Left(std::iter::once(*e)),
                _ => Either::Right(
                    mesh.outgoing(v)
                        .filter(|e| coast.iter().any(|c| c.1 == *e))
                        .take(coast.len()),
                ),
            };
            let p = pos[v.index()];
            ring.map(move |e| {
                let u = mesh.dest(e);
                (u, (p + pos[u.index()]) * 0.5)
            })
        })
        .collect()
}

/// Each shore's edge, from its continental vertex, with that vertex, in edge order
/// ([`band::scan_live_edges`]).
fn shore_edges(mesh: &Mesh, plate: &[u32], crust: &[u8], age: &[f32]) -> Vec<(u32, Edge)> {
    let shore = |i: usize, u: usize| {
        crust[u] == OCEANIC && plate[u] == plate[i] && age[u] >= MARGIN_AGE_MYR
    };
    band::scan_live_edges(mesh, |e, found| {
        let (a, b) = (mesh.origin(e).index(), mesh.dest(e).index());
        // Most edges join crust of one kind: one test, well predicted.
        if crust[a] == crust[b] {
            return;
        }
        if crust[a] == CONTINENTAL && shore(a, b) {
            found.push((a as u32, e));
        } else if crust[b] == CONTINENTAL && shore(b, a) {
            found.push((b as u32, e.sym()));
        }
    })
}

/// The shores as the sweep's sources: each at its edge's midpoint on the sphere of
/// `radius_km`, tagged with its index.
pub(super) fn sources(shores: &[Shore], radius_km: f64) -> Vec<Source> {
    (shores.iter().enumerate())
        .map(|(k, &(vertex, mid))| Source {
            vertex,
            point: mid.normalize() * radius_km,
            tag: k as u32,
        })
        .collect()
}

/// The ocean vertices the last sweep reached, nearest first (distance in km, then id).
pub(super) fn nearest_first(sweep: &Sweep, crust: &[u8]) -> Vec<(f32, u32)> {
    let mut found: Vec<(f32, u32)> = sweep
        .reached()
        .par_iter()
        .filter(|&&i| crust[i as usize] == OCEANIC)
        .map(|&i| (sweep.dist(i as usize), i))
        .collect();
    found.par_sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    found
}

/// Whole cells of `found` (nearest first), the last one taken when it is at least half
/// wanted: the area placed follows `target_km2` within half a cell, without drift. Returns
/// the vertices and the area placed, or `None` when `found` runs out before the target and
/// is not `whole` (farther floor, not swept, may come next; taken only when the choice ends
/// at a distance below the farthest found, which no farther floor can tie).
pub(super) fn pick(
    mesh: &Mesh,
    pos: &[DVec3],
    found: &[(f32, u32)],
    target_km2: f64,
    whole: bool,
) -> Option<(Vec<Vertex>, f64)> {
    let farthest = found.last().map_or(f32::INFINITY, |f| f.0);
    let mut placed = 0.0;
    let mut chosen = Vec::new();
    // The cells in chunks (growing) on all cores, added in order.
    let (mut from, mut chunk) = (0, 1024);
    while from < found.len() {
        let part = &found[from..found.len().min(from + chunk)];
        let cells: Vec<f64> = part
            .par_iter()
            .with_min_len(64)
            .map(|&(_, i)| flat_cell(mesh, pos, Vertex::new(i)))
            .collect();
        for (&(d, i), cell) in part.iter().zip(cells) {
            if placed + 0.5 * cell > target_km2 {
                return (whole || d < farthest).then_some((chosen, placed));
            }
            placed += cell;
            chosen.push(Vertex::new(i));
        }
        from += part.len();
        chunk *= 2;
    }
    whole.then_some((chosen, placed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tectonics::{AGE, CRUST, PLATE, Params, Tectonics, slice, world_ops};
    use world::World;

    /// A planet a few steps in: a mesh edited by the motion, subduction and new crust.
    fn planet() -> (World, Params) {
        let n = 40_000;
        let params = Params::earth(n, 11);
        let mut world = world_ops::fibonacci_world(n, params.radius_km, 0.3, 11).unwrap();
        let mut t = Tectonics::new(&mut world, params.clone()).unwrap();
        for _ in 0..3 {
            t.step(&mut world).unwrap();
        }
        (world, params)
    }

    /// The plate, crust and age layers.
    fn layers(world: &World) -> (&[u32], &[u8], &[f32]) {
        let plate = slice(world, &PLATE).unwrap();
        (
            plate,
            slice(world, &CRUST).unwrap(),
            slice(world, &AGE).unwrap(),
        )
    }

    #[test]
    fn cells_from_the_ring_are_the_face_sums_to_the_bit() {
        let (world, _) = planet();
        let (mesh, pos) = (world.mesh(), world_ops::positions(&world));
        for v in mesh.vertices() {
            let faces: f64 = mesh
                .vertex_faces(v)
                .map(|f| {
                    let [a, b, c] = mesh.face_vertices(f).map(|u| pos[u.index()]);
                    (b - a).cross(c - a).length() / 6.0
                })
                .sum();
            assert_eq!(flat_cell(mesh, pos, v).to_bits(), faces.to_bits(), "{v:?}");
        }
    }

    /// The pass in pieces finds the edges a filter of every live edge in both directions finds,
    /// in edge order: over several pieces, past the dead quads of the planet's edits.
    #[test]
    fn shore_edges_are_every_live_edge_filtered() {
        let (world, _) = planet();
        let mesh = world.mesh();
        let (plate, crust, age) = layers(&world);
        let quads = mesh.quad_slots() as u32;
        assert!(quads > 4 * band::SCAN_PIECE, "{quads} quads");
        let dead = (0..quads).filter(|&q| !mesh.is_edge_alive(Edge::of_quad(q)));
        assert!(dead.count() > 0, "no dead quad");
        let every: Vec<(u32, Edge)> = (0..quads)
            .map(Edge::of_quad)
            .filter(|&e| mesh.is_edge_alive(e))
            .flat_map(|e| [e, e.sym()])
            .filter_map(|e| {
                let (a, b) = (mesh.origin(e).index(), mesh.dest(e).index());
                let shore = crust[a] == CONTINENTAL
                    && crust[b] == OCEANIC
                    && plate[a] == plate[b]
                    && age[b] >= MARGIN_AGE_MYR;
                shore.then_some((a as u32, e))
            })
            .collect();
        assert!(every.len() > 100, "{} shore edges", every.len());
        assert_eq!(shore_edges(mesh, plate, crust, age), every);
    }

    #[test]
    fn shores_are_those_of_every_continental_ring_in_order() {
        let (world, _) = planet();
        let (mesh, pos) = (world.mesh(), world_ops::positions(&world));
        let (plate, crust, age) = layers(&world);
        let mut every = Vec::new();
        for i in mesh.vertices().filter(|v| crust[v.index()] == CONTINENTAL) {
            for u in mesh.neighbors(i) {
                let (i, k) = (i.index(), u.index());
                if crust[k] == OCEANIC && plate[k] == plate[i] && age[k] >= MARGIN_AGE_MYR {
                    every.push((u, (pos[i] + pos[k]) * 0.5));
                }
            }
        }
        assert!(every.len() > 100, "{} shores", every.len());
        assert_eq!(shores(mesh, pos, plate, crust, age), every);
    }

    /// The floor within a cell's width (the accretion's first sweep) picks what the whole
    /// width does whenever it holds the area wanted, and says so when it does not. Not so in
    /// principle: a narrower sweep may reach a vertex by other paths (at half a cell's width
    /// a few vertices of this planet come out in another order); at a cell's width, every
    /// choice measured was the same.
    #[test]
    fn the_near_floor_picks_what_the_whole_width_picks() {
        let (world, params) = planet();
        let (mesh, pos) = (world.mesh(), world_ops::positions(&world));
        let (plate, crust, age) = layers(&world);
        let r = params.radius_km;
        let sources = sources(&shores(mesh, pos, plate, crust, age), r);
        let mut sweep = Sweep::default();
        let mut found = |km: f64| {
            sweep.run(mesh, pos, r, &sources, km, Some(plate));
            nearest_first(&sweep, crust)
        };
        let (near, whole) = (
            found(params.spacing_km),
            found(super::super::MARGIN_WIDTH_KM),
        );
        assert!(near.len() < whole.len());
        let (mut agreed, mut declined) = (0, 0);
        for target in [0.0, 1e3, 1e4, 1e5, 3e5, 1e6, 3e6, 1e7, 1e9] {
            let all = pick(mesh, pos, &whole, target, true).unwrap();
            match pick(mesh, pos, &near, target, false) {
                Some(picked) => {
                    assert_eq!(picked.0, all.0, "{target} km²");
                    assert_eq!(picked.1.to_bits(), all.1.to_bits());
                    agreed += 1;
                }
                None => declined += 1,
            }
        }
        assert!(
            agreed >= 3 && declined >= 1,
            "{agreed} agreed, {declined} declined"
        );
    }

    /// The shores, the margin and the cells chosen are the same on one and on two threads.
    #[test]
    fn the_choice_is_the_same_on_any_thread_count() {
        let (world, params) = planet();
        let (mesh, pos) = (world.mesh(), world_ops::positions(&world));
        let (plate, crust, age) = layers(&world);
        let choose = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let shores = shores(mesh, pos, plate, crust, age);
                let sources = sources(&shores, params.radius_km);
                let mut sweep = Sweep::default();
                let width = super::super::MARGIN_WIDTH_KM;
                sweep
                    .unordered()
                    .run(mesh, pos, params.radius_km, &sources, width, Some(plate));
                let found = nearest_first(&sweep, crust);
                let (chosen, placed) = pick(mesh, pos, &found, 2e6, true).unwrap();
                (shores, found, chosen, placed.to_bits())
            })
        };
        let one = choose(1);
        assert!(one.2.len() > 100, "{} chosen", one.2.len());
        assert_eq!(one, choose(2));
    }
}
