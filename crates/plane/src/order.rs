//! The insertion order of the triangulator: the workspace's one biased randomized insertion
//! order (BRIO, `delaunay::internals::brio_rounds`, shared with the sphere) over a Morton
//! curve.
//!
//! Every point draws a round from a fixed hash of its index (half the points in the last
//! round, a quarter in the one before, ...); rounds go from the smallest and keep the Morton
//! order inside. The random rounds keep the expected cost of randomized incremental
//! construction for every input, and the early sparse rounds span the whole bounding box, so
//! later points seldom fall outside the hull; the Morton order keeps each walk a few steps.
//!
//! The Morton code and the index share one `u64` (Morton: 32 bits, index: 26 bits), sorted by
//! a least-significant-digit radix sort: no comparison sort and no second array of indices.

use crate::PlaneError;
use delaunay::internals::{Rounds, brio_rounds, refine_runs};
use glam::DVec2;
use quadedge::internals::try_vec;

/// Bits of the packed key that hold the point index.
const INDEX_BITS: u32 = 26;

/// The most points the packed key can order.
pub(crate) const MAX_ORDERED: usize = 1 << INDEX_BITS;

/// Rounds leave at least this many points (about) to the first one.
const FIRST_ROUND: usize = 64;

/// The insertion order of `points` (indices), inside the bounding box `[lo, hi]`.
///
/// # Errors
/// [`PlaneError::OutOfMemory`]; more than [`MAX_ORDERED`] points is refused by the caller.
pub(crate) fn insertion_order(
    points: &[DVec2],
    lo: DVec2,
    hi: DVec2,
) -> Result<Vec<u32>, PlaneError> {
    let n = points.len();
    debug_assert!(n <= MAX_ORDERED);
    let rounds = Rounds {
        shrink: 1,
        count: (usize::BITS - (n / FIRST_ROUND).leading_zeros()) as usize + 1,
    };
    let top = f64::from(u16::MAX);
    let ext = (hi - lo).max(DVec2::splat(f64::MIN_POSITIVE));
    let scale = DVec2::splat(top) / ext;
    let mut keys: Vec<u64> = try_vec(n)?;
    keys.extend(points.iter().enumerate().map(|(i, &p)| {
        let q = ((p - lo) * scale).clamp(DVec2::ZERO, DVec2::splat(top));
        let morton = spread(q.x as u32) | spread(q.y as u32) << 1;
        u64::from(morton) << INDEX_BITS | i as u64
    }));
    radix_sort_above(&mut keys, INDEX_BITS)?;
    refine_crowded_cells(&mut keys, points);
    let mask = (1u64 << INDEX_BITS) - 1;
    Ok(brio_rounds(
        keys.iter().map(|&k| (k & mask) as u32),
        n,
        rounds,
    )?)
}

/// Points sharing one Morton cell, more than a few, re-sorted along the curve of
/// their own bounding box ([`refine_runs`], as the sphere's order does). A fixed grid of 2¹⁶
/// cells per axis over all points puts a dense cluster beside a few far points in a handful
/// of cells; in index order inside them every walk crossed the cluster (35× the cluster alone
/// at 200k points beside three points 10⁶ cluster radii away).
fn refine_crowded_cells(keys: &mut [u64], points: &[DVec2]) {
    const CROWD: usize = 16;
    let mask = (1u64 << INDEX_BITS) - 1;
    let mut start = 0;
    while start < keys.len() {
        let cell = keys[start] >> INDEX_BITS;
        let len = keys[start..]
            .iter()
            .take_while(|&&k| k >> INDEX_BITS == cell)
            .count();
        let run = &mut keys[start..start + len];
        if len > CROWD {
            let mut keyed: Vec<(u64, u32)> = run.iter().map(|&k| (0, (k & mask) as u32)).collect();
            refine_runs(&mut keyed, |i| points[i as usize].extend(0.0));
            for (k, &(_, i)) in run.iter_mut().zip(&keyed) {
                *k = cell << INDEX_BITS | u64::from(i);
            }
        }
        start += len;
    }
}

/// Interleaves the 16 low bits of `x` with zeros: bit `k` moves to bit `2k`.
#[inline]
fn spread(x: u32) -> u32 {
    let mut x = x & 0xFFFF;
    x = (x | x << 8) & 0x00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333;
    (x | x << 1) & 0x5555_5555
}

/// Sorts `keys` by their bits from `low` up (stable LSD radix sort, bytes), in place.
fn radix_sort_above(keys: &mut Vec<u64>, low: u32) -> Result<(), PlaneError> {
    let passes: Vec<u32> = (low..u64::BITS).step_by(8).collect();
    let mut counts = vec![[0usize; 256]; passes.len()];
    for &k in keys.iter() {
        for (c, &shift) in counts.iter_mut().zip(&passes) {
            c[(k >> shift) as usize & 0xFF] += 1;
        }
    }
    let mut other: Vec<u64> = try_vec(keys.len())?;
    other.resize(keys.len(), 0);
    for (c, &shift) in counts.iter_mut().zip(&passes) {
        // A byte that all keys share needs no pass.
        if c.contains(&keys.len()) {
            continue;
        }
        let mut sum = 0;
        for x in c.iter_mut() {
            let here = *x;
            *x = sum;
            sum += here;
        }
        for &k in keys.iter() {
            let slot = &mut c[(k >> shift) as usize & 0xFF];
            other[*slot] = k;
            *slot += 1;
        }
        std::mem::swap(keys, &mut other);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_is_a_permutation_sorted_by_round_then_morton() {
        let pts: Vec<DVec2> = (0..5000)
            .map(|i| DVec2::new((i * 7919 % 1000) as f64, (i * 104_729 % 997) as f64))
            .collect();
        let order = insertion_order(&pts, DVec2::ZERO, DVec2::splat(1000.0)).unwrap();
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..5000).collect::<Vec<u32>>());
        // About half the points come in the last round, which is Morton-sorted: consecutive
        // points there are close on average.
        let tail = &order[2500..];
        let mean: f64 = tail
            .windows(2)
            .map(|w| pts[w[0] as usize].distance(pts[w[1] as usize]))
            .sum::<f64>()
            / tail.len() as f64;
        assert!(mean < 60.0, "{mean}");
    }

    #[test]
    fn a_cluster_beside_far_points_keeps_its_own_curve() {
        // A 64 × 64 grid 1e-3 wide, its cells numbered in a scrambled order (point i at cell
        // 2897·i mod 4096), and three points 1e3 away: the grid sits in one cell of the
        // 2¹⁶-cell frame. In index order there, consecutive points were a third of the grid
        // apart; along the grid's own curve they are neighbours.
        let mut pts: Vec<DVec2> = (0..4096)
            .map(|i| {
                let c = i * 2897 % 4096;
                DVec2::new((c % 64) as f64, (c / 64) as f64) * 1.6e-5
            })
            .collect();
        pts.extend([
            DVec2::new(1e3, 0.0),
            DVec2::new(0.0, 1e3),
            DVec2::splat(-1e3),
        ]);
        let (lo, hi) = (DVec2::splat(-1e3), DVec2::splat(1e3));
        let order = insertion_order(&pts, lo, hi).unwrap();
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..4099).collect::<Vec<u32>>());
        let tail: Vec<u32> = order[2048..]
            .iter()
            .copied()
            .filter(|&i| i < 4096)
            .collect();
        let mean = tail
            .windows(2)
            .map(|w| pts[w[0] as usize].distance(pts[w[1] as usize]))
            .sum::<f64>()
            / tail.len() as f64;
        assert!(mean < 4.0 * 1.6e-5, "{mean}");
    }

    #[test]
    fn radix_sort_sorts() {
        let mut rng = testkit::Rng::new(3);
        let mut keys: Vec<u64> = (0..3000).map(|_| rng.next_u64()).collect();
        let mut expect = keys.clone();
        radix_sort_above(&mut keys, 0).unwrap();
        expect.sort_unstable();
        assert_eq!(keys, expect);
    }
}
