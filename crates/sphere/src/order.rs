//! Input checks and the insertion order of the general triangulation path.
//!
//! The order is the workspace's one biased randomized insertion order (BRIO,
//! `delaunay::internals::brio_rounds`, shared with the plane): rounds of geometric size drawn
//! from a fixed hash of each index (half the points in the last round, a quarter in the one
//! before, ...), each round sorted along a Morton curve. Points on a few circles used to take
//! quadratic time in pure Morton order; the sort within each round keeps walks short.

use crate::SphereError;
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
use delaunay::internals::{MortonFrame, Rounds, brio_rounds, refine_runs};
use glam::DVec3;
use quadedge::internals::try_vec;
use rayon::prelude::*;

/// The checks every triangulation path makes first; returns the point count.
pub(crate) fn check_input(points: &[DVec3]) -> Result<usize, SphereError> {
    let n = points.len();
    if n < 4 {
        return Err(SphereError::TooFewPoints(n));
    }
    if n > crate::MAX_POINTS {
        return Err(SphereError::TooManyPoints(n));
    }
    if let Some(index) = points.iter().position(|p| !p.is_finite()) {
        return Err(SphereError::NonFinite { index });
    }
    Ok(n)
}

/// The power of two that brings the largest coordinate into `[1, 2)`, or `None` when the
/// points are already within the range where the exact predicates cannot over- or underflow.
/// Scaling by a power of two is exact, so the triangulation is the same; it is refused
/// ([`SphereError::Unscalable`]) only when a coordinate would become subnormal.
pub(crate) fn scale_for(points: &[DVec3]) -> Result<Option<f64>, SphereError> {
    let m = points
        .iter()
        .fold(0.0f64, |m, p| m.max(p.abs().max_element()));
    if (1e-60..=1e60).contains(&m) {
        return Ok(None);
    }
    if m == 0.0 {
        return Err(SphereError::Coplanar);
    }
    let e = m.log2().floor() as i32;
    let s = 2f64.powi(-e.clamp(-1000, 1000));
    let exact = |x: f64| x == 0.0 || ((x * s).is_normal() && (x * s) / s == x);
    match points
        .iter()
        .position(|p| !(exact(p.x) && exact(p.y) && exact(p.z)))
    {
        Some(index) => Err(SphereError::Unscalable { index }),
        None => Ok(Some(s)),
    }
}

/// The BRIO insertion order of `points` (see the module notes), after refusing exact
/// duplicates: equal points get equal Morton keys and, with coordinates breaking ties in the
/// sort, end up adjacent, so one linear scan finds them.
pub(crate) fn insertion_order(points: &[DVec3]) -> Result<Vec<u32>, SphereError> {
    let frame = MortonFrame::of(points.iter().copied());
    let mut keyed: Vec<(u64, u32)> = try_vec(points.len())?;
    keyed.par_extend(
        points
            .par_iter()
            .enumerate()
            .map(|(i, p)| (frame.key(*p), i as u32)),
    );
    let bits = |p: DVec3| (p.x.to_bits(), p.y.to_bits(), p.z.to_bits());
    // No two entries compare equal unless their points are (a duplicate, refused below), so
    // the order is the same whatever the sort and the thread count.
    keyed.par_sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| bits(points[a.1 as usize]).cmp(&bits(points[b.1 as usize])))
    });
    // A cluster far smaller than the frame (a cap beside a few far points) shares a few keys:
    // ordered along its own curve, not by coordinates, its walks stay short.
    refine_runs(&mut keyed, |i| points[i as usize]);
    for w in keyed.windows(2) {
        let (a, b) = (w[0].1 as usize, w[1].1 as usize);
        if points[a] == points[b] {
            return Err(SphereError::Duplicate {
                first: a.min(b),
                second: a.max(b),
            });
        }
    }
    Ok(brio_rounds(
        keyed.iter().map(|&(_, i)| i),
        points.len(),
        HALVES,
    )?)
}

/// The BRIO insertion sequence of points already in spatial order (`0..n`): each round keeps
/// the spatial order, so the Morton sort of [`insertion_order`] is not needed. Each round is
/// a sixteenth of the next (15/16 of the points in the last): still geometric, so the
/// expected `O(n log n)` bound holds with a larger constant, but fewer, larger rounds keep
/// the insertion sweeping the curve. Measured on 1M uniform points, one thread: halving
/// rounds 0.80 s, quartering 0.75 s, sixteenths 0.69 s, 1/64 0.71 s, one round 0.91 s.
pub(crate) fn brio_sequence(n: usize) -> Result<Vec<u32>, SphereError> {
    Ok(brio_rounds(0..n as u32, n, SIXTEENTHS)?)
}

/// The round split of the sphere's insertion orders: halves in 24 rounds after a Morton sort.
const HALVES: Rounds = Rounds {
    shrink: 1,
    count: 24,
};

/// The round split of points already in spatial order: sixteenths in 24 rounds.
const SIXTEENTHS: Rounds = Rounds {
    shrink: 4,
    count: 24,
};

/// Triangles and the twins of their three half-edges, one triple per triangle.
pub(crate) type Renumbered = (Vec<[u32; 3]>, Vec<[u32; 3]>);

/// Triangles renumbered by their lowest corner, each rotated to start there, with their twins
/// renumbered to match (grouped per triangle). The mesh build then reads triangles, twins and
/// vertices in one sweep instead of in insertion order, which on a random insertion order is
/// a cache miss per access. A counting sort finds the new places on one thread; the renumbered
/// arrays are then gathered on all cores, written once (no zero fill).
pub(crate) fn by_lowest_corner(
    (tris, twins): crate::triangulate::Parts,
    n: usize,
) -> Result<Renumbered, SphereError> {
    let lowest = |t: &[u32; 3]| -> usize {
        if t[0] < t[1] && t[0] < t[2] {
            0
        } else if t[1] < t[2] {
            1
        } else {
            2
        }
    };
    // The triangles in one chunk per core (up to 4); per chunk the count of triangles at each
    // lowest corner, turned into the chunk's first new place there. Chunks keep their order
    // within a corner, so the result is the one-core counting sort whatever the thread count.
    let chunks = rayon::current_num_threads().clamp(1, 4);
    let chunk_len = tris.len().div_ceil(chunks).max(1);
    let mut starts: Vec<Vec<u32>> = Vec::new();
    for _ in 0..chunks {
        let mut c: Vec<u32> = try_vec(n)?;
        c.resize(n, 0);
        starts.push(c);
    }
    starts
        .par_iter_mut()
        .zip(tris.par_chunks(chunk_len))
        .for_each(|(count, part)| {
            for t in part {
                count[t[lowest(t)] as usize] += 1;
            }
        });
    let mut next_place = 0u32;
    for v in 0..n {
        for c in &mut starts {
            let here = c[v];
            c[v] = next_place;
            next_place += here;
        }
    }
    // New place of each triangle with the rotation that brings its lowest corner first.
    let mut place: Vec<u32> = try_vec(tris.len())?;
    place.resize(tris.len(), 0);
    place
        .par_chunks_mut(chunk_len)
        .zip(tris.par_chunks(chunk_len))
        .zip(starts.par_iter_mut())
        .for_each(|((out, part), start)| {
            for (tri, p) in part.iter().zip(out) {
                let r = lowest(tri);
                let slot = &mut start[tri[r] as usize];
                // Three places per triangle plus the rotation in the low bits fit u32
                // (MAX_POINTS).
                *p = *slot << 2 | r as u32;
                *slot += 1;
            }
        });
    drop(starts);
    let new_half = |h: usize| -> u32 {
        let p = place[h / 3];
        let (t, r) = (p >> 2, p as usize & 3);
        3 * t + ((h % 3 + 3 - r) % 3) as u32
    };
    // Scattered from all chunks in old order (reads in order, writes to the new places: a
    // store that misses the cache does not stall as a load does). Relaxed atomics, as the
    // places are distinct and the arrays are read only after the join.
    let mut new_tris: Vec<[AtomicU32; 3]> = try_vec(tris.len())?;
    new_tris.resize_with(tris.len(), Default::default);
    let mut new_twins: Vec<[AtomicU32; 3]> = try_vec(tris.len())?;
    new_twins.resize_with(tris.len(), Default::default);
    tris.par_chunks(chunk_len)
        .enumerate()
        .for_each(|(c, part)| {
            for (k, tri) in part.iter().enumerate() {
                let t = c * chunk_len + k;
                let (s, r) = ((place[t] >> 2) as usize, place[t] as usize & 3);
                for j in 0..3 {
                    // Corner j goes to (j − r) mod 3, and so does its half-edge.
                    let to = (j + 3 - r) % 3;
                    new_tris[s][to].store(tri[j], Relaxed);
                    new_twins[s][to].store(new_half(twins[3 * t + j] as usize), Relaxed);
                }
            }
        });
    drop(tris);
    // Same layout: collected in place.
    let out_tris: Vec<[u32; 3]> = new_tris
        .into_iter()
        .map(|t| t.map(AtomicU32::into_inner))
        .collect();
    let out_twins: Vec<[u32; 3]> = new_twins
        .into_iter()
        .map(|t| t.map(AtomicU32::into_inner))
        .collect();
    Ok((out_tris, out_twins))
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaunay::internals::brio_hash as hash;

    #[test]
    fn rounds_are_geometric_and_every_point_appears_once() {
        let p = crate::fibonacci_points(10_000, 1.0, 0.0, 0).unwrap();
        let mut order = insertion_order(&p).unwrap();
        // The last round holds about half the points.
        let last = order
            .iter()
            .rev()
            .take_while(|&&i| hash(i) & 1 == 0)
            .count();
        assert!((4000..6000).contains(&last), "{last}");
        order.sort_unstable();
        assert!(order.iter().enumerate().all(|(k, &i)| k == i as usize));
    }

    #[test]
    fn sorted_input_rounds_shrink_by_sixteenths_and_keep_the_order() {
        let n = 100_000;
        let seq = brio_sequence(n).unwrap();
        // The last round (hash without four trailing ones) holds about 15/16 of the points,
        // and every round keeps the spatial order 0..n.
        let last = seq
            .iter()
            .rev()
            .take_while(|&&i| hash(i).trailing_ones() < 4)
            .count();
        assert!((92_000..95_500).contains(&last), "{last}");
        let rounds = seq.windows(2).filter(|w| w[0] > w[1]).count();
        assert!((3..8).contains(&rounds), "{rounds}");
        let mut sorted = seq.clone();
        sorted.sort_unstable();
        assert!(sorted.iter().enumerate().all(|(k, &i)| k == i as usize));
    }

    #[test]
    fn duplicates_in_a_long_run_of_equal_keys_are_found() {
        // 5,000 points in a cap far smaller than one Morton cell, plus three far points.
        let mut p: Vec<DVec3> = (0..5000)
            .map(|i| DVec3::new(1.0, i as f64 * 1e-12, (i % 7) as f64 * 1e-12).normalize())
            .collect();
        p.extend([DVec3::NEG_X, DVec3::Y, DVec3::NEG_Z]);
        assert!(insertion_order(&p).is_ok());
        p.push(p[1234]);
        assert_eq!(
            insertion_order(&p),
            Err(SphereError::Duplicate {
                first: 1234,
                second: 5003
            })
        );
    }

    /// Mean distance between consecutive points of the insertion order, over the pairs of
    /// points both below index `n`.
    fn mean_step(p: &[DVec3], n: usize) -> f64 {
        let order = insertion_order(p).unwrap();
        let steps: Vec<f64> = order
            .windows(2)
            .filter(|w| w[0] < n as u32 && w[1] < n as u32)
            .map(|w| p[w[0] as usize].distance(p[w[1] as usize]))
            .collect();
        steps.iter().sum::<f64>() / steps.len() as f64
    }

    #[test]
    fn a_cap_beside_distant_points_keeps_its_own_curve() {
        // The distant points stretch the frame a million times: the whole cap falls in one
        // Morton cell. Ordered by coordinates inside it, consecutive cap points were about a
        // tenth of the cap apart (each walk crossed the cap); along the cap's own curve they
        // are as close as for the cap alone.
        use testkit::Cluster;
        let n = 20_000;
        let cap = mean_step(&Cluster::Cap.points(n, 3), n);
        for family in [Cluster::CapPlusDistant, Cluster::CapPlusFar] {
            let with = mean_step(&family.points(n, 3), n);
            assert!(with < 1.2 * cap, "{family:?}: {with} against {cap}");
        }
    }

    #[test]
    fn scale_is_a_power_of_two_and_exact() {
        let p = [DVec3::new(1e-90, 3e-91, 0.0), DVec3::new(0.0, 1e-90, 0.0)];
        let s = scale_for(&p).unwrap().unwrap();
        assert_eq!(s.log2().fract(), 0.0);
        assert!((1.0..2.0).contains(&(p[0].x * s)));
        assert_eq!(scale_for(&[DVec3::ONE]), Ok(None));
        // A coordinate that would turn subnormal is refused.
        let bad = [DVec3::new(1e200, 1e-300, 0.0)];
        assert_eq!(scale_for(&bad), Err(SphereError::Unscalable { index: 0 }));
    }
}
