//! The boundary's direction at a scale in km, once per step from the band: along a transform
//! the boundary is a zigzag a cell wide, and a test of one edge (or of one vertex's ring)
//! sees closing edges on every tooth, so the front ate the diving plate's teeth at a rate
//! proportional to the cell (docs/benchmark-notes.md "Plate areas V" and "VI").
//!
//! The band's edges between two plates form chains: a face with corners on two plates has
//! two band edges, so each band edge, oriented from its lower plate to its higher, has at
//! most one successor (across its left face) and one predecessor (across its right face);
//! chains end at faces with corners on three plates, or close on themselves. The midpoints
//! of a chain's edges trace the boundary; the chord between the midpoints [`SCALE_KM`]
//! before and after an edge (along that trace) is the boundary's direction there at that
//! scale, whatever the cell, and its normal points from the lower plate to the higher.
//! Cost: a look at each band edge's left face and a pass along each chain, on all cores
//! (one chain per task; the same normals for any thread count).

use crate::tectonics::Plate;
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// Half the length of boundary (km, along the trace of the band's midpoints) over which the
/// boundary's direction is read: four cells at 100k vertices (77 km spacing), so a
/// cell-sized zigzag averages out at every resolution used (at 250 km the direction was off
/// by up to 23° at 40k vertices), and short beside the plates' curvature.
const SCALE_KM: f64 = 300.0;

/// The least half-length of that trace in mesh spacings: on coarse meshes (a spacing over
/// 75 km, under about 105k vertices on the Earth) the trace is read over this many cells.
const SCALE_CELLS: f64 = 4.0;

/// The least cosine between the closing motion and the boundary's normal at which the front
/// consumes by half a cell's overlap (a transform's sliding is at about 0; a boundary
/// closing at a tenth of its sliding or more consumes). Landings beyond the other plate's
/// front row are consumed whatever the angle. At 0.2 the front lagged where the closing is
/// under a fifth of the sliding, by part of a cell (docs/benchmark-notes.md "Plate areas
/// VI").
const CLOSING_MIN_COS: f64 = 0.1;

/// No index: the end of a chain.
const NONE: u32 = u32::MAX;

/// The boundary's normal at [`SCALE_KM`] at every band edge, from the edge's lower plate
/// towards its higher.
pub(super) struct Normals<'a> {
    /// The band's edges (bases), sorted.
    edges: &'a [Edge],
    index: Index,
    normal: Vec<DVec3>,
}

impl<'a> Normals<'a> {
    /// The normals of `edges`, the [`crate::tectonics::band::boundary_edges`] (sorted bases).
    pub(super) fn new(
        mesh: &Mesh,
        pos: &[DVec3],
        plate: &[u32],
        edges: &'a [Edge],
        spacing_km: f64,
    ) -> Self {
        let reach = SCALE_KM.max(SCALE_CELLS * spacing_km);
        let index = Index::new(edges, mesh.quad_slots());
        // Each edge's midpoint and successor across its left face (oriented lower plate to
        // higher).
        let (mid, succ): (Vec<DVec3>, Vec<u32>) = edges
            .par_iter()
            .with_min_len(1024)
            .map(|&e| {
                let (o, d) = (mesh.origin(e), mesh.dest(e));
                let mid = (pos[o.index()] + pos[d.index()]) * 0.5;
                let (po, pd) = (plate[o.index()], plate[d.index()]);
                let (e, po, pd) = if po < pd {
                    (e, po, pd)
                } else {
                    (e.sym(), pd, po)
                };
                let side = mesh.origin_next(e);
                let w = plate[mesh.dest(side).index()];
                let next = if w == po {
                    mesh.left_next(e).sym()
                } else if w == pd {
                    side
                } else {
                    return (mid, NONE);
                };
                (mid, index.find(edges, next).map_or(NONE, |k| k as u32))
            })
            .unzip();
        let (order, ranges) = chains(&succ);
        let crossing = |k: u32| {
            let e = edges[k as usize];
            let (o, d) = (mesh.origin(e), mesh.dest(e));
            let x = pos[d.index()] - pos[o.index()];
            if plate[o.index()] < plate[d.index()] {
                x
            } else {
                -x
            }
        };
        // Along the chains, then back to the edges' order.
        let along: Vec<DVec3> = ranges
            .par_iter()
            .with_min_len(16)
            .flat_map_iter(|&(a, b, closed)| {
                chain_normals(&order[a..b], closed, reach, &mid, &crossing)
            })
            .collect();
        let mut normal = vec![DVec3::ZERO; edges.len()];
        for (&k, n) in order.iter().zip(along) {
            normal[k as usize] = n;
        }
        Normals {
            edges,
            index,
            normal,
        }
    }

    /// Whether plate `b` closes in on vertex `v` (of another plate) at the boundary's
    /// scale: the relative motion heads into `v`'s plate within `acos` [`CLOSING_MIN_COS`]
    /// of the boundary's normal at the first edge from `v` to `b` (counter-clockwise from
    /// the vertex's edge). True for a vertex with no neighbour on `b` (rows behind the
    /// boundary are reached only behind crust consumed in front of them) and where the
    /// normal is unknown.
    pub(super) fn closes(
        &self,
        mesh: &Mesh,
        pos: &[DVec3],
        (plate, plates): (&[u32], &[Plate]),
        v: Vertex,
        b: u32,
    ) -> bool {
        let a = plate[v.index()];
        let (Some(pa), Some(pb)) = (plates.get(a as usize), plates.get(b as usize)) else {
            return true;
        };
        let Some(e) = mesh.outgoing(v).find(|&e| plate[mesh.dest(e).index()] == b) else {
            return true;
        };
        let Some(k) = self.index.find(self.edges, e) else {
            return true;
        };
        let n = if a < b {
            self.normal[k]
        } else {
            -self.normal[k]
        };
        let x = pos[v.index()];
        let rel = pb.velocity(x) - pa.velocity(x);
        -rel.dot(n) > CLOSING_MIN_COS * rel.length() * n.length()
    }
}

/// Where a band edge is in the sorted band: the band's first entry per bucket of quad-edge
/// numbers, the buckets about as many as the band's edges (a search of one or two entries
/// rather than a binary search of the whole band; no hashing, same answers).
struct Index {
    shift: u32,
    start: Vec<u32>,
}

impl Index {
    fn new(edges: &[Edge], quads: usize) -> Self {
        let shift = (quads / edges.len().max(1)).max(1).ilog2();
        let mut start = vec![0u32; (quads >> shift) + 2];
        for e in edges {
            start[(e.quad() >> shift) + 1] += 1;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        Index { shift, start }
    }

    /// The position of `e`'s base in `edges` (the band this was built from).
    fn find(&self, edges: &[Edge], e: Edge) -> Option<usize> {
        let b = e.quad() >> self.shift;
        let (lo, hi) = (*self.start.get(b)?, *self.start.get(b + 1)?);
        let e = e.base();
        (lo..hi).map(|k| k as usize).find(|&k| edges[k] == e)
    }
}

/// The chains of the successor links `succ`, one after another in one array: open chains
/// from their first edge (in index order of that edge), then cycles from their lowest index;
/// each chain's range in that array and whether it closes.
fn chains(succ: &[u32]) -> (Vec<u32>, Vec<(usize, usize, bool)>) {
    let mut has_pred = vec![false; succ.len()];
    for &s in succ {
        if s != NONE {
            has_pred[s as usize] = true;
        }
    }
    let mut seen = vec![false; succ.len()];
    let mut order = Vec::with_capacity(succ.len());
    let mut ranges = Vec::new();
    let starts = (0..succ.len())
        .filter(|&k| !has_pred[k])
        .chain(0..succ.len());
    for start in starts {
        if seen[start] {
            continue;
        }
        let first = order.len();
        let mut k = start as u32;
        while k != NONE && !seen[k as usize] {
            seen[k as usize] = true;
            order.push(k);
            k = succ[k as usize];
        }
        ranges.push((first, order.len(), k as usize == start));
    }
    (order, ranges)
}

/// The normals of one chain's edges (`order`, along the chain; `closed` when it is a
/// cycle): the chord between the midpoints [`SCALE_KM`] behind and ahead along the trace of
/// the midpoints (a quarter of the trace on a shorter cycle), turned to the normal from the
/// lower plate to the higher; where the window holds one edge, its crossing direction
/// (`crossing`, lower plate to higher).
fn chain_normals(
    order: &[u32],
    closed: bool,
    reach: f64,
    mid: &[DVec3],
    crossing: &impl Fn(u32) -> DVec3,
) -> Vec<DVec3> {
    let n = order.len();
    // A cycle is read three times round, the middle round answered.
    let laps = if closed { 3 } else { 1 };
    let at = |i: usize| order[i % n];
    let points: Vec<DVec3> = (0..n * laps).map(|i| mid[at(i) as usize]).collect();
    let mut arc = Vec::with_capacity(points.len());
    let mut s = 0.0;
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            s += p.distance(points[i - 1]);
        }
        arc.push(s);
    }
    let reach = if closed {
        reach.min(0.25 * arc[n])
    } else {
        reach
    };
    let range = if closed { n..2 * n } else { 0..n };
    let (mut lo, mut hi) = (0, range.start);
    range
        .map(|i| {
            while arc[i] - arc[lo] > reach {
                lo += 1;
            }
            while hi + 1 < points.len() && arc[hi + 1] - arc[i] <= reach {
                hi += 1;
            }
            if hi == lo {
                return crossing(at(i));
            }
            // Across the chord in the tangent plane (the length does not matter).
            (points[hi] - points[lo]).cross(points[i])
        })
        .collect()
}

#[cfg(test)]
mod tests;
