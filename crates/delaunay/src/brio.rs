//! The rounds of a biased randomized insertion order (BRIO, Amenta, Choi and Rote 2003), the
//! one implementation both triangulators use (the sphere's and the plane's).
//!
//! Every point draws a round from a fixed hash of its index (geometric: each round holds a
//! fixed fraction of the points of the next), rounds are inserted from the smallest, and each
//! round keeps the spatial order the caller gives. The random rounds give the `O(n log n)`
//! expected bound of randomized incremental construction for every input (a purely spatial
//! order is quadratic on points along a few curves); the spatial order within a round keeps
//! consecutive points close, so point-location walks stay a few steps long.

use quadedge::internals::{OutOfMemory, try_vec};

/// How the points are dealt into rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounds {
    /// Each round holds `2^-shrink` of the points of the next (1: halves).
    pub shrink: u32,
    /// Number of rounds (at least 1); the first one takes every point the hash would put
    /// before it.
    pub count: usize,
}

/// `spatial` (a permutation of `0..n` in spatial order) split into BRIO rounds by a counting
/// sort, keeping the spatial order inside each round. A point is in the last round unless
/// the low `shrink` bits of its hash are all ones, in the one before unless the next `shrink`
/// are, and so on.
///
/// # Errors
/// [`OutOfMemory`] for the `n` entries of the order.
pub fn brio_rounds(
    spatial: impl Iterator<Item = u32> + Clone,
    n: usize,
    rounds: Rounds,
) -> Result<Vec<u32>, OutOfMemory> {
    let last = rounds.count.max(1) - 1;
    let round = |i: u32| last - ((hash(i).trailing_ones() / rounds.shrink) as usize).min(last);
    let mut start = vec![0usize; last + 2];
    for i in spatial.clone() {
        start[round(i) + 1] += 1;
    }
    for r in 0..=last {
        start[r + 1] += start[r];
    }
    let mut order: Vec<u32> = try_vec(n)?;
    order.resize(n, 0);
    for i in spatial {
        let r = round(i);
        order[start[r]] = i;
        start[r] += 1;
    }
    Ok(order)
}

/// A fixed 32-bit mix (so the order is the same on every run and platform).
#[inline]
pub fn hash(i: u32) -> u32 {
    let mut x = i.wrapping_mul(0x9e37_79b9) ^ 0x85eb_ca6b;
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_round_is_the_spatial_order_and_a_few_rounds_cap_the_first() {
        let spatial: Vec<u32> = (0..1000).rev().collect();
        let one = brio_rounds(
            spatial.iter().copied(),
            1000,
            Rounds {
                shrink: 1,
                count: 1,
            },
        );
        assert_eq!(one.unwrap(), spatial);
        // With 4 rounds of halves the first takes every point with 3 or more trailing ones:
        // about an eighth.
        let four = brio_rounds(
            0..1000,
            1000,
            Rounds {
                shrink: 1,
                count: 4,
            },
        )
        .unwrap();
        let first = (0..1000).filter(|&i| hash(i).trailing_ones() >= 3).count();
        assert!((90..160).contains(&first), "{first}");
        assert!(four[..first].windows(2).all(|w| w[0] < w[1]));
        assert!(four[..first].iter().all(|&i| hash(i).trailing_ones() >= 3));
    }
}
