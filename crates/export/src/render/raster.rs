//! Pixel plumbing shared by both pictures: sRGB ↔ linear light, row bands on threads, size
//! checks, a view frame, and a linear-light canvas with anti-aliased lines and dots.

use crate::ExportError;
use glam::{Vec2, Vec3};
use std::sync::Mutex;

/// sRGB byte → linear light, as a table (blending and averaging must happen in linear light,
/// or anti-aliased edges look too dark and thin lines too thick).
pub(crate) fn srgb_to_linear_table() -> [f32; 256] {
    let mut t = [0.0; 256];
    for (i, x) in t.iter_mut().enumerate() {
        let c = i as f32 / 255.0;
        *x = if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        };
    }
    t
}

/// Linear light → sRGB byte by the formula (a `powf` per channel).
fn linear_to_srgb_formula(x: f32) -> u8 {
    let x = x.clamp(0.0, 1.0);
    let c = if x <= 0.003_130_8 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0 + 0.5) as u8
}

/// `THRESHOLDS[i]`: the smallest linear value the formula turns into byte `i + 1`, found by
/// bisection over the `f32`s of `[0, 1]` (positive floats order like their bits).
fn thresholds() -> &'static [f32; 255] {
    static TABLE: std::sync::OnceLock<[f32; 255]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0.0; 255];
        for (i, slot) in t.iter_mut().enumerate() {
            let byte = i as u8 + 1;
            let (mut lo, mut hi) = (0u32, 1.0f32.to_bits());
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if linear_to_srgb_formula(f32::from_bits(mid)) >= byte {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            *slot = f32::from_bits(hi);
        }
        t
    })
}

/// Linear light → sRGB byte, the same as the formula but by a binary search of the 255
/// thresholds (eight comparisons instead of a `powf`: storing pixels was a tenth of a
/// globe's time). NaN gives 0.
pub(crate) fn linear_to_srgb(x: f32) -> u8 {
    thresholds().partition_point(|&t| t <= x) as u8
}

pub(crate) fn to_linear(lut: &[f32; 256], c: [u8; 3]) -> Vec3 {
    Vec3::new(lut[c[0] as usize], lut[c[1] as usize], lut[c[2] as usize])
}

pub(crate) fn store(out: &mut [u8], c: Vec3) {
    out[0] = linear_to_srgb(c.x);
    out[1] = linear_to_srgb(c.y);
    out[2] = linear_to_srgb(c.z);
}

pub(crate) fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        requested
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Runs `f(first_row, rows)` over bands of rows on a few threads. Bands are handed out from a
/// shared queue because the rows through the middle of the discs cost more than the others.
pub(crate) fn par_bands(
    rgb: &mut [u8],
    width: u32,
    threads: usize,
    f: &(dyn Fn(u32, &mut [u8]) + Sync),
) {
    const BAND: usize = 8;
    let row_bytes = 3 * width as usize;
    let queue = Mutex::new(rgb.chunks_mut(BAND * row_bytes).enumerate());
    let work = || {
        loop {
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((band, rows)) = next else { break };
            f((band * BAND) as u32, rows);
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
}

pub(crate) fn check_samples(samples: u32) -> Result<(), ExportError> {
    if (1..=16).contains(&samples) {
        Ok(())
    } else {
        Err(ExportError::InvalidOption {
            name: "samples",
            reason: "must be 1..=16 per axis",
        })
    }
}

pub(crate) fn check_size(width: u32, height: u32) -> Result<(), ExportError> {
    if width == 0 || height == 0 {
        return Err(ExportError::InvalidOption {
            name: "width/height",
            reason: "must be at least 1",
        });
    }
    if width as u64 * height as u64 > 1 << 28 {
        return Err(ExportError::InvalidOption {
            name: "width/height",
            reason: "more than 2^28 pixels",
        });
    }
    Ok(())
}

/// An orthonormal frame `(right, up, forward)` looking along `-forward` at `view`.
pub(crate) fn frame(view: Vec3, up: Vec3) -> Result<(Vec3, Vec3, Vec3), ExportError> {
    let fwd = view.try_normalize().ok_or(ExportError::InvalidOption {
        name: "view",
        reason: "must be a finite non-zero vector",
    })?;
    // An up parallel to the view has no meaning; any perpendicular one will do.
    let right = up
        .cross(fwd)
        .try_normalize()
        .or_else(|| Vec3::Z.cross(fwd).try_normalize())
        .or_else(|| Vec3::X.cross(fwd).try_normalize())
        .unwrap_or(Vec3::Y);
    Ok((right, fwd.cross(right), fwd))
}

/// A linear-light canvas with anti-aliased primitives: each pixel is blended with the
/// coverage estimated from its centre's distance to the shape (a one-pixel ramp).
pub(crate) struct Canvas<'a> {
    pub(crate) px: &'a mut [Vec3],
    pub(crate) size: u32,
}

impl Canvas<'_> {
    pub(crate) fn cover(
        &mut self,
        lo: Vec2,
        hi: Vec2,
        color: Vec3,
        coverage: impl Fn(Vec2) -> f32,
    ) {
        let max = self.size as f32 - 1.0;
        if !(lo.x <= max && lo.y <= max && hi.x >= 0.0 && hi.y >= 0.0) {
            return;
        }
        let (x0, y0) = (lo.x.max(0.0) as u32, lo.y.max(0.0) as u32);
        let (x1, y1) = (hi.x.min(max) as u32, hi.y.min(max) as u32);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let a = coverage(Vec2::new(x as f32 + 0.5, y as f32 + 0.5));
                if a > 0.0 {
                    let p = &mut self.px[(y * self.size + x) as usize];
                    *p = p.lerp(color, a.min(1.0));
                }
            }
        }
    }

    pub(crate) fn segment(&mut self, a: Vec2, b: Vec2, width: f32, color: Vec3) {
        let pad = Vec2::splat(width / 2.0 + 1.0);
        let ab = b - a;
        let len2 = ab.length_squared().max(1e-12);
        self.cover(a.min(b) - pad, a.max(b) + pad, color, |q| {
            let t = ((q - a).dot(ab) / len2).clamp(0.0, 1.0);
            let d = (q - (a + t * ab)).length();
            (width / 2.0 + 0.5 - d).clamp(0.0, 1.0)
        });
    }

    pub(crate) fn disc(&mut self, c: Vec2, r: f32, color: Vec3) {
        let pad = Vec2::splat(r + 1.0);
        self.cover(c - pad, c + pad, color, |q| {
            (r + 0.5 - (q - c).length()).clamp(0.0, 1.0)
        });
    }

    /// A circle outline of radius `r` (to the middle of the stroke), `width` pixels wide.
    pub(crate) fn ring(&mut self, c: Vec2, r: f32, width: f32, color: Vec3) {
        let pad = Vec2::splat(r + width / 2.0 + 1.0);
        self.cover(c - pad, c + pad, color, |q| {
            (width / 2.0 + 0.5 - ((q - c).length() - r).abs()).clamp(0.0, 1.0)
        });
    }

    /// Blends `color` over the pixels of a rectangle with opacity `alpha` (1 = paint over),
    /// clipped to the canvas.
    pub(crate) fn blend_rect(&mut self, x: i64, y: i64, w: i64, h: i64, color: Vec3, alpha: f32) {
        let n = i64::from(self.size);
        for yy in y.max(0)..(y + h).min(n) {
            for xx in x.max(0)..(x + w).min(n) {
                let p = &mut self.px[(yy * n + xx) as usize];
                *p = p.lerp(color, alpha);
            }
        }
    }

    /// Paints a rectangle, clipped to the canvas.
    pub(crate) fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, color: Vec3) {
        self.blend_rect(x, y, w, h, color, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_conversion_round_trips_every_byte() {
        let lut = srgb_to_linear_table();
        for i in 0..=255u8 {
            assert_eq!(linear_to_srgb(lut[i as usize]), i);
        }
    }

    #[test]
    fn table_conversion_matches_the_formula_at_every_step() {
        let t = thresholds();
        for (i, &x) in t.iter().enumerate() {
            let below = f32::from_bits(x.to_bits() - 1);
            assert_eq!(linear_to_srgb_formula(x), i as u8 + 1);
            assert_eq!(linear_to_srgb_formula(below), i as u8);
            assert_eq!(linear_to_srgb(x), i as u8 + 1);
            assert_eq!(linear_to_srgb(below), i as u8);
        }
        for x in [
            -1.0,
            0.0,
            1.0,
            2.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ] {
            assert_eq!(linear_to_srgb(x), linear_to_srgb_formula(x), "{x}");
        }
    }

    /// `cargo xtask stress`: every `f32` of `[0, 1]` converts as the formula does.
    #[test]
    #[ignore]
    fn stress_table_conversion_matches_the_formula_everywhere() {
        for bits in 0..=1.0f32.to_bits() {
            let x = f32::from_bits(bits);
            assert_eq!(linear_to_srgb(x), linear_to_srgb_formula(x), "{x}");
        }
    }
}
