//! Drawing on a finished [`Image`]: anti-aliased segments, translucent boxes and captions in
//! the bitmap font, blended in linear light (as the renderers average their samples).

use super::font::{ADVANCE, HEIGHT, glyph};
use super::raster::{linear_to_srgb, srgb_to_linear_table};
use crate::Image;
use glam::Vec2;

/// A painter over an image; keeps the sRGB → linear table.
pub(crate) struct Painter<'a> {
    pub(crate) img: &'a mut Image,
    lut: [f32; 256],
}

impl<'a> Painter<'a> {
    pub(crate) fn new(img: &'a mut Image) -> Self {
        Self {
            img,
            lut: srgb_to_linear_table(),
        }
    }

    /// Blends `color` over pixel `(x, y)` with opacity `alpha`; outside the image nothing.
    pub(crate) fn blend(&mut self, x: i64, y: i64, color: [u8; 3], alpha: f32) {
        let (w, h) = (i64::from(self.img.width), i64::from(self.img.height));
        if x < 0 || y < 0 || x >= w || y >= h || alpha <= 0.0 {
            return;
        }
        let a = alpha.min(1.0);
        let i = 3 * (y * w + x) as usize;
        for (px, &c) in self.img.rgb[i..i + 3].iter_mut().zip(&color) {
            let (under, over) = (self.lut[*px as usize], self.lut[c as usize]);
            *px = linear_to_srgb(under + (over - under) * a);
        }
    }

    /// A segment `width` pixels wide with round ends, anti-aliased.
    pub(crate) fn segment(&mut self, a: Vec2, b: Vec2, width: f32, color: [u8; 3], alpha: f32) {
        let pad = width / 2.0 + 1.0;
        let lo = a.min(b) - Vec2::splat(pad);
        let hi = a.max(b) + Vec2::splat(pad);
        if !(lo.x.is_finite() && hi.x.is_finite() && lo.y.is_finite() && hi.y.is_finite()) {
            return;
        }
        let ab = b - a;
        let len2 = ab.length_squared().max(1e-12);
        let x0 = lo.x.floor().max(-1.0) as i64;
        let y0 = lo.y.floor().max(-1.0) as i64;
        let x1 = (hi.x.ceil() as i64).min(i64::from(self.img.width));
        let y1 = (hi.y.ceil() as i64).min(i64::from(self.img.height));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let q = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                let t = ((q - a).dot(ab) / len2).clamp(0.0, 1.0);
                let d = (q - (a + t * ab)).length();
                let cover = (width / 2.0 + 0.5 - d).clamp(0.0, 1.0);
                if cover > 0.0 {
                    self.blend(x, y, color, cover * alpha);
                }
            }
        }
    }

    /// A rectangle blended with opacity `alpha`.
    pub(crate) fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, color: [u8; 3], alpha: f32) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.blend(xx, yy, color, alpha);
            }
        }
    }

    /// `text` with its top-left corner at `(x, y)`, each font pixel `scale × scale`, with a
    /// one-pixel dark halo so it reads on any background.
    pub(crate) fn text(&mut self, x: i64, y: i64, text: &str, scale: u32, color: [u8; 3]) {
        let s = i64::from(scale.max(1));
        for pass in 0..2 {
            for (i, c) in text.chars().enumerate() {
                let x0 = x + i as i64 * i64::from(ADVANCE) * s;
                for (row, bits) in glyph(c).iter().enumerate() {
                    for col in 0..5 {
                        if bits & (16 >> col) == 0 {
                            continue;
                        }
                        let (px, py) = (x0 + col * s, y + row as i64 * s);
                        if pass == 0 {
                            self.rect(px - 1, py - 1, s + 2, s + 2, [10, 10, 14], 0.6);
                        } else {
                            self.rect(px, py, s, s, color, 1.0);
                        }
                    }
                }
            }
        }
    }
}

/// Width in pixels of `text` at `scale`.
pub(crate) fn text_width(text: &str, scale: u32) -> i64 {
    super::font::text_width(text, scale) as i64
}

/// Height in pixels of a line of text at `scale`.
pub(crate) fn text_height(scale: u32) -> i64 {
    i64::from(HEIGHT * scale)
}
