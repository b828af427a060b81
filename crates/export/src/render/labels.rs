//! Place names on a picture: a dot at the place and its name beside it, skipped when the
//! place is out of view or the name would cover one already drawn.

use super::draw::{Painter, text_height, text_width};
use super::graticule::Projection;
use crate::{ExportError, Image};
use glam::Vec3;

/// One place to name: a direction from the sphere's centre (or a point of a flat map, as
/// [`Projection::Plane`] takes it) and its name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label<'a> {
    /// Where the place is.
    pub at: Vec3,
    /// Its name (upper case, digits, simple punctuation and `²`).
    pub text: &'a str,
}

const INK: [u8; 3] = [250, 250, 245];

/// Draws `labels` in order, each as a small dot with its name to the right (or to the left
/// near the image's right edge) at font scale `scale`. A label whose place is out of view or
/// whose name would overlap one already drawn is skipped, so list the most important first.
/// Returns how many were drawn.
///
/// # Errors
/// [`ExportError::InvalidOption`] for a `scale` outside `1..=8`.
pub fn draw_labels(
    img: &mut Image,
    proj: &Projection,
    labels: &[Label<'_>],
    scale: u32,
) -> Result<usize, ExportError> {
    if !(1..=8).contains(&scale) {
        return Err(ExportError::InvalidOption {
            name: "scale",
            reason: "must be 1..=8",
        });
    }
    let s = i64::from(scale);
    let (iw, ih) = (i64::from(img.width), i64::from(img.height));
    let mut taken: Vec<[i64; 4]> = Vec::new();
    let mut p = Painter::new(img);
    for label in labels {
        let Some((_, at)) = proj.project(label.at) else {
            continue;
        };
        if !(at.x >= 0.0 && at.y >= 0.0 && at.x < iw as f32 && at.y < ih as f32) {
            continue;
        }
        let (w, h) = (text_width(label.text, scale), text_height(scale));
        let gap = 4 * s;
        let (px, py) = (at.x as i64, at.y as i64);
        let x = if px + gap + w <= iw {
            px + gap
        } else {
            px - gap - w
        };
        let y = (py - h / 2).clamp(0, (ih - h).max(0));
        let rect = [x - s, y - s, x + w + s, y + h + s];
        if taken
            .iter()
            .any(|r| rect[0] < r[2] && r[0] < rect[2] && rect[1] < r[3] && r[1] < rect[3])
        {
            continue;
        }
        taken.push(rect);
        p.rect(
            px - s - 1,
            py - s - 1,
            2 * s + 3,
            2 * s + 3,
            [10, 10, 14],
            0.8,
        );
        p.rect(px - s, py - s, 2 * s + 1, 2 * s + 1, INK, 1.0);
        p.text(x, y, label.text, scale, INK);
    }
    Ok(taken.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(a: &Image, b: &Image, x0: u32, x1: u32, y0: u32, y1: u32) -> usize {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| a.pixel(x, y) != b.pixel(x, y))
            .count()
    }

    #[test]
    fn labels_land_at_their_place_and_do_not_overlap() {
        let proj = Projection::Equirect {
            width: 360,
            height: 180,
        };
        let blank = Image::new(360, 180, [20, 60, 140]);
        let mut img = blank.clone();
        // Longitude 0 at +Z is the middle column; the equator the middle row.
        let here = Label {
            at: Vec3::Z,
            text: "A 12M KM²",
        };
        let near = Label {
            at: Vec3::new(0.01, 0.0, 1.0),
            text: "B",
        };
        let far = Label {
            at: Vec3::new(-0.3, 0.5, -1.0),
            text: "C",
        };
        assert_eq!(
            draw_labels(&mut img, &proj, &[here, near, far], 1).unwrap(),
            2
        );
        // Ink right of the dot at (180, 90), nothing far from the two labels.
        assert!(changed(&blank, &img, 180, 240, 84, 97) > 40);
        assert_eq!(changed(&blank, &img, 0, 170, 0, 50), 0);
        assert_eq!(changed(&blank, &img, 0, 170, 100, 180), 0);
        // B would cover A: skipped (C, near the left edge, is drawn).
        let mut only_a = blank.clone();
        draw_labels(&mut only_a, &proj, &[here], 1).unwrap();
        assert_eq!(changed(&only_a, &img, 150, 260, 60, 120), 0);
        // Out of view on a flat map: nothing.
        let plane = Projection::Plane {
            bounds: [0.0, 0.0, 1.0, 1.0],
            width: 100,
            height: 100,
        };
        let mut small = Image::new(100, 100, [0; 3]);
        let outside = Label {
            at: Vec3::new(2.0, 0.5, 0.0),
            text: "X",
        };
        assert_eq!(draw_labels(&mut small, &plane, &[outside], 1).unwrap(), 0);
        assert_eq!(small, Image::new(100, 100, [0; 3]));
        assert!(draw_labels(&mut small, &plane, &[outside], 0).is_err());
        assert!(draw_labels(&mut small, &plane, &[outside], 9).is_err());
    }
}
