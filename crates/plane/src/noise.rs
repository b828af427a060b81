//! A small deterministic value noise: seeded lattice values, smooth interpolation, octaves.

use glam::DVec2;

/// Seeded 2D value noise: a pseudo-random value in `[-1, 1]` at each integer lattice point,
/// interpolated with a smoothstep; [`ValueNoise::fbm`] sums octaves. Same seed, same field,
/// on every platform (integer hashing, then one division).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueNoise {
    seed: u64,
}

/// SplitMix64's finaliser: a strong 64-bit mix.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl ValueNoise {
    /// The noise field of `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed: mix(seed ^ 0x9e37_79b9_7f4a_7c15),
        }
    }

    /// The lattice value at `(i, j)`, in `[-1, 1]`.
    #[inline]
    fn lattice(&self, i: i64, j: i64) -> f64 {
        let h = mix(self.seed ^ mix(i as u64 ^ mix(j as u64)));
        (h >> 11) as f64 * (2.0 / (1u64 << 53) as f64) - 1.0
    }

    /// The noise at `p` (lattice spacing 1), in `[-1, 1]`.
    ///
    /// ```
    /// let n = plane::ValueNoise::new(5);
    /// let v = n.sample(glam::DVec2::new(3.25, -1.5));
    /// assert!((-1.0..=1.0).contains(&v));
    /// assert_eq!(v, plane::ValueNoise::new(5).sample(glam::DVec2::new(3.25, -1.5)));
    /// ```
    pub fn sample(&self, p: DVec2) -> f64 {
        let (fx, fy) = (p.x.floor(), p.y.floor());
        let (i, j) = (fx as i64, fy as i64);
        let s = |t: f64| t * t * (3.0 - 2.0 * t);
        let (tx, ty) = (s(p.x - fx), s(p.y - fy));
        let a = self.lattice(i, j) + tx * (self.lattice(i + 1, j) - self.lattice(i, j));
        let b = self.lattice(i, j + 1) + tx * (self.lattice(i + 1, j + 1) - self.lattice(i, j + 1));
        a + ty * (b - a)
    }

    /// Fractal sum of `octaves` octaves (frequency ×2, amplitude ×½ each), normalised to
    /// `[-1, 1]`.
    pub fn fbm(&self, p: DVec2, octaves: u32) -> f64 {
        let (mut sum, mut amp, mut norm, mut q) = (0.0, 1.0, 0.0, p);
        for o in 0..octaves.max(1) {
            // Offset each octave so lattice points do not line up.
            sum += amp * self.sample(q + DVec2::splat(17.13 * o as f64));
            norm += amp;
            amp *= 0.5;
            q *= 2.0;
        }
        sum / norm
    }
}
