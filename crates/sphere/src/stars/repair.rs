//! The rings of a jittered lattice that its Fibonacci candidates missed: searched again among
//! the nearest points of their neighbourhood until every ring agrees with its neighbours'.
//!
//! A move of a fraction of the spacing can bring in a neighbour beyond the offsets a vertex
//! tries, or one that only its neighbour tries (the offsets change with the height), so a few
//! rings come out empty or disagree. Each such vertex and its ring's vertices get their ring
//! again from the nearest of the points their candidates and rings reach (the two rings
//! around them), and the rings around those are checked again; a few rounds settle it. The
//! new rings pass the same exact checks, and the mesh build checks agreement once more.

use super::ring::{Context, Scratch};
use super::{MAX_CANDIDATES, Numbering, Stars};
use rayon::prelude::*;

/// Rounds of repair before giving up (the caller then takes the exact incremental path).
const ROUNDS: usize = 4;

/// More than one ring in this many to repair gives up.
const TOO_MANY: usize = 64;

/// Most neighbours of a repaired ring.
const MAX_DEGREE: usize = 16;

/// Repairs `stars` in place; returns how many rings were searched again, `None` when some
/// ring still disagrees.
pub(super) fn repair(
    ctx: &Context<'_>,
    numbering: Numbering<'_>,
    stars: &mut Stars,
) -> Option<usize> {
    let n = stars.degree.len() as u32;
    let mut bad: Vec<u32> = (0..n)
        .into_par_iter()
        .filter(|&v| !agrees(stars, v))
        .collect();
    // Far more than a jitter of a third of the spacing leaves (a few per 100,000): the
    // points moved too far for the lattice's offsets, the incremental path is faster.
    if bad.len() > stars.degree.len() / TOO_MANY {
        return None;
    }
    let mut redone = 0;
    for _ in 0..ROUNDS {
        if bad.is_empty() {
            return Some(redone);
        }
        let mut redo = bad.clone();
        for &v in &bad {
            redo.extend_from_slice(stars.ring(v));
        }
        redo.sort_unstable();
        redo.dedup();
        redone += redo.len();
        // Every new ring from the rings as they were, then all of them written: the same
        // result in any order.
        let rings: Vec<Option<Vec<u32>>> = redo
            .par_iter()
            .map_init(Scratch::default, |scratch, &v| {
                ring_again(ctx, numbering, stars, v, scratch)
            })
            .collect();
        let mut check = redo.clone();
        for (&v, ring) in redo.iter().zip(&rings) {
            check.extend_from_slice(stars.ring(v));
            stars.set_ring(v, ring.as_deref().unwrap_or(&[]));
            check.extend_from_slice(stars.ring(v));
        }
        check.sort_unstable();
        check.dedup();
        bad = check.into_iter().filter(|&v| !agrees(stars, v)).collect();
    }
    bad.is_empty().then_some(redone)
}

/// Does each face `(v, a, b)` of `v`'s ring appear in `a`'s ring (`b` then `v`)? Checked at
/// every vertex, that proves every face is in the rings of its three corners. An empty ring
/// never agrees.
fn agrees(stars: &Stars, v: u32) -> bool {
    let ring = stars.ring(v);
    let d = ring.len();
    d >= 3
        && (0..d).all(|j| {
            let (a, b) = (ring[j], ring[(j + 1) % d]);
            let around = stars.ring(a);
            around
                .iter()
                .position(|&x| x == b)
                .is_some_and(|k| around[(k + 1) % around.len()] == v)
        })
}

/// Vertex `v`'s ring among its candidates, its ring and the rings of both.
fn ring_again(
    ctx: &Context<'_>,
    Numbering { order, rank }: Numbering<'_>,
    stars: &Stars,
    v: u32,
    scratch: &mut Scratch,
) -> Option<Vec<u32>> {
    let i = order[v as usize] as usize;
    let mut near: Vec<u32> = ctx
        .candidate_ids(i, scratch)
        .iter()
        .map(|&c| rank[c as usize])
        .collect();
    near.extend_from_slice(stars.ring(v));
    for k in 0..near.len() {
        near.extend_from_slice(stars.ring(near[k]));
    }
    near.sort_unstable();
    near.dedup();
    near.retain(|&w| w != v);
    // Lattice indices, as the rings' context reads the points.
    for w in &mut near {
        *w = order[*w as usize];
    }
    if near.len() > MAX_CANDIDATES {
        // Near a pole the candidates are a window of indices already: keep the nearest.
        let p = ctx.points[i];
        let d = |w: &u32| ctx.points[*w as usize].distance_squared(p);
        near.select_nth_unstable_by(MAX_CANDIDATES - 1, |a, b| {
            d(a).total_cmp(&d(b)).then(a.cmp(b))
        });
        near.truncate(MAX_CANDIDATES);
    }
    let mut out = [0u32; MAX_DEGREE];
    let d = ctx.star_among(i, &near, scratch, &mut out)?;
    Some(
        out[..d as usize]
            .iter()
            .map(|&w| rank[w as usize])
            .collect(),
    )
}
