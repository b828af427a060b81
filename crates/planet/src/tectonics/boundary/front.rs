//! Which vertices the coming motion puts into another plate's territory: a flood from the
//! converging boundary into each plate, row by row, that goes on only behind crust found to
//! overlap, and one row behind crust that does not.
//!
//! The crust that overlaps is a strip along the front: a vertex farther from the boundary
//! lands where its neighbour nearer the boundary would, a row further back, so if that
//! neighbour stays on its side, it does too (the plates turn rigidly; locally the motion is a
//! shift). The flood tests the boundary's vertices, then the unvisited neighbours on their
//! plate of those that overlap, and so on: the test runs on the strip and one row around it.
//! No distance filter: one from the row's first vertex (rather than the nearest boundary
//! vertex) dropped deep probes reached along zigzags, more of them on finer meshes.
//! The field of distances to the nearest boundary vertex that earlier versions spread first
//! (every vertex within a step's closing of a converging boundary, ~60k at 500k vertices, and
//! as many landing walks) cost twice the flood and its walks; most of those vertices were far
//! behind a row that stayed put.
//!
//! Rows are processed whole, in vertex order, each vertex's test on all cores (in chunks whose
//! walks start from the previous answer or from the answer of the vertex it was reached
//! from); a vertex reached from two is reached from the lower-numbered. Same overlaps for
//! any thread count.

use super::{OVERLAP_CELLS, Overlap, Polarity, WALK_CHUNK, dives};
use crate::tectonics::{CONTINENTAL, Params, Plate, band, world_ops};
use glam::{DQuat, DVec3};
use normal::Normals;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;
use world::World;

/// Rows a flood goes on behind crust that does not overlap: the strip is ragged (a vertex
/// can overlap behind one that does not). With one row the flood found all but 0.3–0.9% of
/// the overlaps of a full search at 500k vertices; with none 3–5% were missed (1.1% fewer
/// vertices consumed over 6 steps); the misses are consumed a step later.
const MISSES: u32 = 1;

/// One vertex to test: its plate across and where the walk to its landing point starts.
#[derive(Clone, Copy)]
struct Probe {
    vertex: Vertex,
    other: u32,
    hint: Vertex,
    /// Rows since the last overlap on the way here.
    misses: u32,
}

/// The vertices that the coming motion puts into another plate's present territory, in
/// increasing order (see the module docs); `edges` gives the boundary band's edges
/// ([`band::boundary_edges`]) and `ends` are their ends (the vertices with a neighbour on
/// another plate), in increasing order. `edges` runs beside the first row's tests (which
/// need only the ends), on all cores: the band from its vertices there.
pub(super) fn find_overlaps<'e>(
    world: &World,
    plates: &[Plate],
    params: &Params,
    (plate, crust): (&[u32], &[u8]),
    (edges, ends): (impl FnOnce() -> &'e [Edge] + Send, &[Vertex]),
    polarity: &Polarity,
) -> Vec<Overlap> {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let dt = params.time_step_myr;
    let (normals, first) = rayon::join(
        || Normals::new(mesh, pos, plate, edges(), params.spacing_km),
        || first_row(mesh, pos, plates, plate, ends),
    );
    let mut row: Vec<Probe> = first
        .iter()
        .map(|&(v, other, across)| Probe {
            vertex: v,
            other,
            hint: across,
            misses: 0,
        })
        .collect();
    let turns: Vec<DQuat> = plates
        .iter()
        .map(|p| DQuat::from_axis_angle(p.pole, p.omega * dt))
        .collect();
    let back: Vec<DQuat> = turns.iter().map(|t| t.inverse()).collect();
    let (turns, back) = (&turns[..], &back[..]);
    let overlap = OVERLAP_CELLS * params.spacing_km;
    // Whether the stage acts on an overlap of a vertex of plate `a` and crust `mine`: it
    // consumes ocean under a continent or under the ocean it dives beneath (the polarity of
    // a pair not met yet is the one `decide_polarity` gives it), and continents collide.
    // Behind crust that overrides the other plate nothing is done.
    let acts_on = |o: &Overlap, a: u32, mine: u8| match (mine == CONTINENTAL, o.other_continental) {
        (false, true) | (true, true) => true,
        (false, false) => dives(polarity, plates, a, o.other),
        (true, false) => false,
    };
    // Where a probe lands, seen from the plate across: the vertex nearest to it, by a greedy
    // walk (exact on a Delaunay mesh) from the nearest of its hint, the previous answer in
    // its chunk and itself; and whether that is an overlap.
    let land = |p: &Probe, last: Option<Vertex>| {
        let v = p.vertex;
        let (a, b) = (plate[v.index()] as usize, p.other as usize);
        let q = back[b] * (turns[a] * pos[v.index()]);
        let key = |u: Vertex| band::distance_key(pos, u, q);
        let start = [Some(p.hint), last]
            .into_iter()
            .flatten()
            .fold((v, key(v)), |(s, ks), u| {
                let k = key(u);
                if k < ks { (u, k) } else { (s, ks) }
            });
        let w = band::nearest_from_keyed(mesh, pos, start.0, start.1, q);
        // Beyond the other plate's front row (a vertex with no neighbour on this plate), any
        // landing overlaps; within half a cell of it, only where the boundary closes at a
        // scale in km (along a transform the cell-sized zigzag's teeth slide past each other
        // within half a cell).
        let on_b = plate[w.index()] as usize == b;
        let near = on_b
            && (!mesh.neighbors(w).any(|u| plate[u.index()] as usize == a)
                || (pos[w.index()].distance(q) < overlap
                    && normals.closes(mesh, pos, (plate, plates), v, b as u32)));
        let hit = near.then_some(Overlap {
            vertex: v,
            other: b as u32,
            other_continental: crust[w.index()] == CONTINENTAL,
            landed: w,
        });
        let acts = hit.is_some_and(|o| acts_on(&o, a as u32, crust[v.index()]));
        (w, hit, acts)
    };
    let mut seen = vec![0u64; mesh.vertex_slots().div_ceil(64)];
    let mark = |seen: &mut [u64], v: Vertex| {
        let (w, b) = (v.index() / 64, 1u64 << (v.index() % 64));
        let new = seen[w] & b == 0;
        seen[w] |= b;
        new
    };
    for p in &row {
        mark(&mut seen, p.vertex);
    }
    let mut found = Vec::new();
    while !row.is_empty() {
        // Each probe's landing: the vertex nearest to it, the overlap, and whether the stage
        // acts on it; in row order.
        let landed: Vec<(Vertex, Option<Overlap>, bool)> = row
            .par_chunks(WALK_CHUNK)
            .flat_map_iter(|chunk| {
                let mut last: Option<Vertex> = None;
                chunk.iter().map(move |p| {
                    let (w, hit, acts) = land(p, last);
                    last = Some(w);
                    (w, hit, acts)
                })
            })
            .collect();
        found.extend(landed.iter().filter_map(|(_, hit, _)| *hit));
        // The next row: the unvisited neighbours on their plate of the probes whose overlap
        // the stage acts on, or that do not overlap and missed fewer than `MISSES` rows
        // running; each reached from the first of them in row order.
        let seen_now = &seen[..];
        let mut next: Vec<(Vertex, u32)> = row
            .par_iter()
            .zip(&landed)
            .enumerate()
            .filter(|(_, (p, (_, hit, acts)))| *acts || (hit.is_none() && p.misses < MISSES))
            .flat_map_iter(|(k, (p, _))| {
                let a = plate[p.vertex.index()];
                mesh.neighbors(p.vertex)
                    .filter(move |u| {
                        plate[u.index()] == a
                            && seen_now[u.index() / 64] & (1 << (u.index() % 64)) == 0
                    })
                    .map(move |u| (u, k as u32))
            })
            .collect();
        next.par_sort_unstable();
        next.dedup_by_key(|(u, _)| *u);
        let following: Vec<Probe> = next
            .iter()
            .map(|&(u, k)| {
                let (p, (w, _, acts)) = (&row[k as usize], landed[k as usize]);
                Probe {
                    vertex: u,
                    other: p.other,
                    hint: w,
                    misses: if acts { 0 } else { p.misses + 1 },
                }
            })
            .collect();
        for p in &following {
            mark(&mut seen, p.vertex);
        }
        row = following;
    }
    found.par_sort_unstable_by_key(|o| o.vertex);
    found
}

/// The first row: the boundary vertices where the plate across closes in (only there can
/// crust overlap), each with the plate across of the lowest id that closes in and that
/// plate's lowest vertex next to it (its walk starts there, nearer to where it lands); in
/// vertex order whatever the threads. From `ends` (sorted, each once) by a ring each, no
/// sort: each boundary edge's two ends are met once from either side, as a pass over the
/// edges would meet them.
fn first_row(
    mesh: &Mesh,
    pos: &[DVec3],
    plates: &[Plate],
    plate: &[u32],
    ends: &[Vertex],
) -> Vec<(Vertex, u32, Vertex)> {
    ends.par_iter()
        .with_min_len(1024)
        .filter_map(|&v| {
            let a = plate[v.index()];
            let x = pos[v.index()];
            let mine = plates.get(a as usize)?.velocity(x);
            mesh.neighbors(v)
                .filter(|u| plate[u.index()] != a)
                .filter(|u| {
                    plates.get(plate[u.index()] as usize).is_some_and(|theirs| {
                        (theirs.velocity(x) - mine).dot(pos[u.index()] - x) < 0.0
                    })
                })
                .map(|u| (plate[u.index()], u))
                .min()
                .map(|(other, u)| (v, other, u))
        })
        .collect()
}

mod normal;
#[cfg(test)]
mod tests;
