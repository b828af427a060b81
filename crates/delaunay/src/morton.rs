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
