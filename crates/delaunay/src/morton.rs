//! Morton (Z-order) keys in three dimensions: the one place that cuts a bounding box into
//! 2²¹ steps per axis and interleaves the bits. Insertion orders (the sphere's randomised
//! rounds, batches of insertions and removals) sort by these keys so that consecutive
//! operations touch nearby memory.

use glam::DVec3;

/// The frame of a point set: its bounding box, scaled to 2²¹ − 1 steps per axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MortonFrame {
    lo: DVec3,
    scale: DVec3,
}

const TOP: f64 = ((1u32 << 21) - 1) as f64;

impl MortonFrame {
    /// The frame of the finite points among `points` (non-finite ones are skipped; with none
    /// left the frame is the unit box at the origin).
    pub fn of(points: impl IntoIterator<Item = DVec3>) -> Self {
        let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
        for p in points.into_iter().filter(|p| p.is_finite()) {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        if !lo.is_finite() {
            (lo, hi) = (DVec3::ZERO, DVec3::ONE);
        }
        let ext = (hi - lo).max(DVec3::splat(f64::MIN_POSITIVE));
        Self {
            lo,
            scale: DVec3::splat(TOP) / ext,
        }
    }

    /// The Morton key of `p`: coordinates clamped into the frame (a `NaN` coordinate counts
    /// as the frame's high side), 21 bits each, interleaved x, y, z from the lowest bit.
    ///
    /// ```
    /// use delaunay::internals::MortonFrame;
    /// use glam::DVec3;
    /// let f = MortonFrame::of([DVec3::ZERO, DVec3::ONE]);
    /// assert_eq!(f.key(DVec3::ZERO), 0);
    /// assert_eq!(f.key(DVec3::ONE), (1u64 << 63) - 1);
    /// assert!(f.key(DVec3::new(0.1, 0.1, 0.1)) < f.key(DVec3::new(0.9, 0.9, 0.9)));
    /// ```
    #[inline]
    pub fn key(&self, p: DVec3) -> u64 {
        // `min` takes the bound for NaN; `as u64` saturates negative values to 0.
        let q = ((p - self.lo) * self.scale).min(DVec3::splat(TOP));
        spread(q.x as u64) | spread(q.y as u64) << 1 | spread(q.z as u64) << 2
    }
}

/// Longest run of equal keys left as it is by [`refine_runs`]: inside a run the order is by
/// coordinates, a sweep across the cell, which costs a walk of about the square root of the run's
/// length per point; a few steps are not worth a second sort.
const RUN: usize = 16;

/// Re-sorts every run of more than a few equal keys in `keyed` (sorted by key) along the Morton
/// curve of the run's own bounding box, and so on inside it: a fixed frame has 2²¹ cells per axis
/// over the whole point set, so a dense cluster beside a few far points falls in a handful of
/// cells, and ordering those by coordinates makes every walk cross the cluster (the cap plus far
/// points of issue 21 walked `O(√n)` steps per point). Each run is cut at least in two per level
/// or left alone, so the work is `O(n log n)` for any input. Within a refined run ties are broken
/// by the coordinates' bits, then by index: no two entries compare equal unless their points are
/// equal, so the order does not depend on the sort. `point(i)` is the point of index `i`.
///
/// ```
/// use delaunay::internals::{MortonFrame, refine_runs};
/// use glam::DVec3;
/// // 64 points on a tiny grid far inside one cell of the frame that a far point stretches.
/// let mut p: Vec<DVec3> = (0..64).map(|i| DVec3::new((i % 8) as f64, (i / 8) as f64, 0.0) * 1e-9).collect();
/// p.push(DVec3::splat(1e3));
/// let f = MortonFrame::of(p.iter().copied());
/// let mut keyed: Vec<(u64, u32)> = p.iter().enumerate().map(|(i, &q)| (f.key(q), i as u32)).collect();
/// keyed.sort_unstable();
/// assert!(keyed[..64].iter().all(|k| k.0 == 0));
/// refine_runs(&mut keyed, |i| p[i as usize]);
/// // Each 2 × 2 block of the grid is now consecutive along the curve.
/// let first: Vec<u32> = keyed[..4].iter().map(|k| k.1).collect();
/// assert_eq!(first, [0, 1, 8, 9]);
/// assert_eq!(keyed[64].1, 64);
/// ```
pub fn refine_runs(keyed: &mut [(u64, u32)], point: impl Fn(u32) -> DVec3) {
    let bits = |p: DVec3| (p.x.to_bits(), p.y.to_bits(), p.z.to_bits());
    let mut todo = vec![(0, keyed.len())];
    while let Some((lo, hi)) = todo.pop() {
        let mut start = lo;
        while start < hi {
            let key = keyed[start].0;
            let end = start + keyed[start..hi].iter().take_while(|k| k.0 == key).count();
            if end - start > RUN {
                let run = &mut keyed[start..end];
                let frame = MortonFrame::of(run.iter().map(|k| point(k.1)));
                for k in run.iter_mut() {
                    k.0 = frame.key(point(k.1));
                }
                run.sort_unstable_by(|a, b| {
                    a.0.cmp(&b.0)
                        .then_with(|| bits(point(a.1)).cmp(&bits(point(b.1))))
                        .then(a.1.cmp(&b.1))
                });
                // A run of equal points keeps one key: cut no further.
                if run[0].0 != run[run.len() - 1].0 {
                    todo.push((start, end));
                }
            }
            start = end;
        }
    }
}

/// Spreads the low 21 bits of `x` to every third bit.
#[inline]
fn spread(mut x: u64) -> u64 {
    x &= 0x1f_ffff;
    x = (x | x << 32) & 0x001f_0000_0000_ffff;
    x = (x | x << 16) & 0x001f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    x = (x | x << 2) & 0x1249_2492_4924_9249;
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_interleaves_every_bit() {
        for b in 0..21 {
            assert_eq!(spread(1 << b), 1 << (3 * b));
        }
        assert_eq!(spread(u64::MAX), 0x1249_2492_4924_9249);
    }

    /// Keys sorted as the sphere's insertion order sorts them, then refined.
    fn refined(p: &[DVec3]) -> Vec<u32> {
        let f = MortonFrame::of(p.iter().copied());
        let mut keyed: Vec<(u64, u32)> = p
            .iter()
            .enumerate()
            .map(|(i, &q)| (f.key(q), i as u32))
            .collect();
        keyed.sort_unstable();
        refine_runs(&mut keyed, |i| p[i as usize]);
        keyed.iter().map(|k| k.1).collect()
    }

    #[test]
    fn nested_clusters_are_refined_level_by_level_and_equal_points_end_adjacent() {
        // A 4 × 4 × 4 grid 1e-9 across, a copy of it 1e-18 across beside its first point, a
        // far point, and 40 copies of one point: three levels of runs, one of equal points.
        let grid = |s: f64| {
            (0..64)
                .map(move |i| DVec3::new((i % 4) as f64, (i / 4 % 4) as f64, (i / 16) as f64) * s)
        };
        let mut p: Vec<DVec3> = grid(1e-9).collect();
        p.extend(grid(1e-18).map(|q| q + DVec3::splat(5e-9)));
        p.push(DVec3::splat(1e3));
        p.extend(core::iter::repeat_n(DVec3::splat(7e-9), 40));
        let order = refined(&p);
        let mut seen = order.clone();
        seen.sort_unstable();
        assert!(seen.iter().enumerate().all(|(k, &i)| k == i as usize));
        // Each level is a Morton curve: the first eight of each grid are its first 2 × 2 × 2
        // block, and the tiny grid is consecutive.
        let pos = |i: u32| order.iter().position(|&j| j == i).unwrap();
        let block = [0u32, 1, 4, 5, 16, 17, 20, 21];
        let mut first: Vec<u32> = order[..8].to_vec();
        first.sort_unstable();
        assert_eq!(first, block);
        let tiny: Vec<usize> = (64..128).map(pos).collect();
        assert_eq!(tiny.iter().max().unwrap() - tiny.iter().min().unwrap(), 63);
        let copies: Vec<usize> = (129..169).map(pos).collect();
        assert_eq!(
            copies.iter().max().unwrap() - copies.iter().min().unwrap(),
            39
        );
        // The order does not depend on the input order beyond the indices themselves.
        let rev: Vec<DVec3> = p.iter().rev().copied().collect();
        let back: Vec<u32> = refined(&rev)
            .iter()
            .map(|&i| (p.len() - 1) as u32 - i)
            .collect();
        let by_point = |o: &[u32]| -> Vec<[u64; 3]> {
            o.iter()
                .map(|&i| p[i as usize].to_array().map(f64::to_bits))
                .collect()
        };
        assert_eq!(by_point(&back), by_point(&order));
    }

    #[test]
    fn non_finite_points_neither_widen_the_frame_nor_panic() {
        let f = MortonFrame::of([DVec3::ZERO, DVec3::NAN, DVec3::splat(2.0), DVec3::INFINITY]);
        assert_eq!(f, MortonFrame::of([DVec3::ZERO, DVec3::splat(2.0)]));
        assert_eq!(f.key(DVec3::NAN), (1u64 << 63) - 1);
        assert_eq!(f.key(DVec3::splat(f64::INFINITY)), (1u64 << 63) - 1);
        let empty = MortonFrame::of([DVec3::NAN]);
        assert_eq!(empty.key(DVec3::ZERO), 0);
    }
}
