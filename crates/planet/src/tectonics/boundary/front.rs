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
/// increasing order (see the module docs). `ends` are the boundary band's vertices (those
/// with a neighbour on another plate), in increasing order; `band` holds the band's edges
/// ([`band::boundary_edges`]), or is made here from the same rings as the first row when
/// its flag is set. The band's sort and the boundary's normals run beside the first row's
/// walks (which need them only for the landings near the other plate's front row).
pub(super) fn find_overlaps(
    world: &World,
    plates: &[Plate],
    params: &Params,
    (plate, crust): (&[u32], &[u8]),
    ((band, make_band), ends): ((&mut Vec<Edge>, bool), &[Vertex]),
    polarity: &Polarity,
) -> Vec<Overlap> {
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    let dt = params.time_step_myr;
    let (first, found_edges) = first_row(mesh, pos, plates, plate, ends, make_band);
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
    // its chunk and itself; and whether that is an overlap, short of the boundary's
    // normal.
    let walk = |p: &Probe, last: Option<Vertex>| {
        let v = p.vertex;
        let (a, b) = (plate[v.index()] as usize, p.other as usize);
        let q = back[b] * (turns[a] * pos[v.index()]);
        let start = [Some(p.hint), last]
            .into_iter()
            .flatten()
            .fold((v, band::distance_key(pos, v, q)), |(s, ks), u| {
                band::nearer_key(pos, u, q, ks).map_or((s, ks), |k| (u, k))
            });
        let w = band::nearest_from_keyed(mesh, pos, start.0, start.1, q);
        // Beyond the other plate's front row (a vertex with no neighbour on this plate), any
        // landing overlaps; within half a cell of it, only where the boundary closes at a
        // scale in km (along a transform the cell-sized zigzag's teeth slide past each other
        // within half a cell).
        let near = if plate[w.index()] as usize != b {
            Near::No
        } else if !mesh.neighbors(w).any(|u| plate[u.index()] as usize == a) {
            Near::Yes
        } else if pos[w.index()].distance(q) < overlap {
            Near::IfClosing
        } else {
            Near::No
        };
        // The overlap it would be, and whether the stage would act on it (read while the
        // walk's data are at hand; the first row's normals come later).
        let o = Overlap {
            vertex: v,
            other: b as u32,
            other_continental: !matches!(near, Near::No) && crust[w.index()] == CONTINENTAL,
            landed: w,
        };
        let acts = !matches!(near, Near::No) && acts_on(&o, a as u32, crust[v.index()]);
        (near, o, acts)
    };
    // The landing's overlap, and whether the stage acts on it.
    let hit = |p: &Probe, (near, o, acts): (Near, Overlap, bool), normals: &Normals| {
        let near = match near {
            Near::No => false,
            Near::Yes => true,
            Near::IfClosing => normals.closes(mesh, pos, (plate, plates), p.vertex, p.other),
        };
        (o.landed, near.then_some(o), near && acts)
    };
    // The first row's walks, in row order: in chunks, each walk from the previous answer.
    let walks = |row: &[Probe]| -> Vec<(Near, Overlap, bool)> {
        row.par_chunks(WALK_CHUNK)
            .flat_map_iter(|chunk| {
                let mut last: Option<Vertex> = None;
                chunk.iter().map(move |p| {
                    let landing = walk(p, last);
                    last = Some(landing.1.landed);
                    landing
                })
            })
            .collect()
    };
    // The band in edge order and its normals beside the first row's walks.
    let (normals, first_walks) = rayon::join(
        move || {
            if make_band {
                *band = band::in_edge_order_of(mesh, plate, found_edges);
            }
            let band: &Vec<Edge> = band;
            Normals::new(mesh, pos, plate, &band[..], params.spacing_km)
        },
        || walks(&row),
    );
    let mut first_walks = Some(first_walks);
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
        let landed: Vec<(Vertex, Option<Overlap>, bool)> = match first_walks.take() {
            Some(walked) => row
                .par_iter()
                .zip(walked)
                .with_min_len(WALK_CHUNK)
                .map(|(p, landing)| hit(p, landing, &normals))
                .collect(),
            // Rows after the first: each walk and its overlap at once.
            None => row
                .par_chunks(WALK_CHUNK)
                .flat_map_iter(|chunk| {
                    let mut last: Option<Vertex> = None;
                    let (hit, normals) = (&hit, &normals);
                    chunk.iter().map(move |p| {
                        let landing = walk(p, last);
                        last = Some(landing.1.landed);
                        hit(p, landing, normals)
                    })
                })
                .collect(),
        };
        found.extend(landed.iter().filter_map(|(_, hit, _)| *hit));
        // The next row: the unvisited neighbours on their plate of the probes whose overlap
        // the stage acts on, or that do not overlap and missed fewer than `MISSES` rows
        // running; each reached from the first of them in row order. The last rows (a few
        // dozen probes) on this core: a split would only wake the other.
        let seen_now = &seen[..];
        let mut next: Vec<(Vertex, u32)> = row
            .par_iter()
            .zip(&landed)
            .enumerate()
            .with_min_len(WALK_CHUNK)
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
/// edges would meet them. With `band`, also the band's edges met on those rings, each from
/// its base's origin ([`band::from_vertices`] before its sort).
fn first_row(
    mesh: &Mesh,
    pos: &[DVec3],
    plates: &[Plate],
    plate: &[u32],
    ends: &[Vertex],
    band: bool,
) -> (Vec<FirstProbe>, Vec<Edge>) {
    let parts: Vec<(Vec<FirstProbe>, Vec<Edge>)> = ends
        .par_chunks(1024)
        .map(|chunk| {
            let (mut row, mut edges) = (Vec::new(), Vec::new());
            for &v in chunk {
                let a = plate[v.index()];
                let x = pos[v.index()];
                let mine = plates.get(a as usize).map(|p| p.velocity(x));
                let mut first: Option<(u32, Vertex)> = None;
                for e in mesh.outgoing(v) {
                    let u = mesh.dest(e);
                    let b = plate[u.index()];
                    if b == a {
                        continue;
                    }
                    if band && e == e.base() {
                        edges.push(e);
                    }
                    let closes = mine.is_some_and(|mine| {
                        plates.get(b as usize).is_some_and(|theirs| {
                            (theirs.velocity(x) - mine).dot(pos[u.index()] - x) < 0.0
                        })
                    });
                    if closes && first.is_none_or(|f| (b, u) < f) {
                        first = Some((b, u));
                    }
                }
                if let Some((b, u)) = first {
                    row.push((v, b, u));
                }
            }
            (row, edges)
        })
        .collect();
    let mut row = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut edges = Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum());
    for (r, e) in parts {
        row.extend_from_slice(&r);
        edges.extend_from_slice(&e);
    }
    (row, edges)
}

/// A vertex of the first row, the plate across and that plate's vertex its walk starts from.
type FirstProbe = (Vertex, u32, Vertex);

/// What a walk's landing tells before the boundary's normal is read (see `walk` in
/// [`find_overlaps`]).
#[derive(Clone, Copy)]
enum Near {
    No,
    Yes,
    /// An overlap where the boundary closes ([`Normals::closes`]).
    IfClosing,
}

mod normal;
#[cfg(test)]
mod tests;
