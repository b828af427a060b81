//! Keys that make a picture readable: a legend of colour swatches with labels (biomes,
//! plates), a colour bar with ticks (elevation), and a scale bar in round kilometres. Each is
//! drawn on a translucent dark panel placed at a corner of the image.

use super::draw::{Painter, text_height, text_width};
use crate::colormap::{ColorMap, colorize};
use crate::{ExportError, Image};

/// Which corner of the image a panel sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    TopLeft,
    /// Top right.
    TopRight,
    /// Bottom left.
    BottomLeft,
    /// Bottom right.
    BottomRight,
}

/// Where a panel goes: a corner and the distance (pixels) from its two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The corner.
    pub corner: Corner,
    /// Horizontal distance from the corner's side.
    pub dx: u32,
    /// Vertical distance from the corner's side.
    pub dy: u32,
}

impl Place {
    /// `corner`, 10 pixels in from both edges.
    pub fn at(corner: Corner) -> Self {
        Self {
            corner,
            dx: 10,
            dy: 10,
        }
    }

    fn origin(&self, img: &Image, w: i64, h: i64) -> (i64, i64) {
        let (iw, ih) = (i64::from(img.width), i64::from(img.height));
        let (dx, dy) = (i64::from(self.dx), i64::from(self.dy));
        match self.corner {
            Corner::TopLeft => (dx, dy),
            Corner::TopRight => (iw - w - dx, dy),
            Corner::BottomLeft => (dx, ih - h - dy),
            Corner::BottomRight => (iw - w - dx, ih - h - dy),
        }
    }
}

/// One legend entry: a colour and what it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegendItem<'a> {
    /// The swatch colour (sRGB).
    pub color: [u8; 3],
    /// The label.
    pub label: &'a str,
}

impl<'a> From<([u8; 3], &'a str)> for LegendItem<'a> {
    fn from((color, label): ([u8; 3], &'a str)) -> Self {
        Self { color, label }
    }
}

const PANEL: [u8; 3] = [12, 14, 22];
const PANEL_ALPHA: f32 = 0.72;
const INK: [u8; 3] = [235, 235, 235];

fn check_scale(scale: u32) -> Result<u32, ExportError> {
    if (1..=8).contains(&scale) {
        Ok(scale)
    } else {
        Err(ExportError::InvalidOption {
            name: "scale",
            reason: "must be 1..=8",
        })
    }
}

/// Draws a legend: `title`, then one swatch and label per item, in as many columns of at
/// most `rows` entries as needed. Returns the panel's size in pixels.
///
/// # Errors
/// [`ExportError::InvalidOption`] for a `scale` outside `1..=8` or `rows == 0`.
pub fn draw_legend(
    img: &mut Image,
    place: Place,
    title: &str,
    items: &[LegendItem<'_>],
    rows: usize,
    scale: u32,
) -> Result<(u32, u32), ExportError> {
    let s = check_scale(scale)?;
    if rows == 0 {
        return Err(ExportError::InvalidOption {
            name: "rows",
            reason: "must be at least 1",
        });
    }
    let line = text_height(s) + 4 * i64::from(s);
    let pad = 4 * i64::from(s);
    let swatch = text_height(s);
    let columns = items.len().div_ceil(rows).max(1);
    let rows = items.len().min(rows);
    let label_w = items
        .iter()
        .map(|i| text_width(i.label, s))
        .max()
        .unwrap_or(0);
    let col_w = swatch + 2 * i64::from(s) + label_w + 3 * pad;
    let w = (columns as i64 * col_w + pad).max(text_width(title, s) + 2 * pad);
    let h = pad + line + rows as i64 * line + pad / 2;
    let (x0, y0) = place.origin(img, w, h);
    let mut p = Painter::new(img);
    p.rect(x0, y0, w, h, PANEL, PANEL_ALPHA);
    p.text(x0 + pad, y0 + pad, title, s, INK);
    for (i, item) in items.iter().enumerate() {
        let (c, r) = ((i / rows) as i64, (i % rows) as i64);
        let x = x0 + pad + c * col_w;
        let y = y0 + pad + line + r * line;
        p.rect(x - 1, y - 1, swatch + 2, swatch + 2, [200, 200, 200], 1.0);
        p.rect(x, y, swatch, swatch, item.color, 1.0);
        p.text(
            x + swatch + 2 * i64::from(s) + pad / 2,
            y,
            item.label,
            s,
            INK,
        );
    }
    Ok((w as u32, h as u32))
}

/// What a colour bar shows: `map` over `range`, a label under each of `ticks` (values in the
/// data's units, formatted without decimals) and `title` above.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorKey<'a> {
    /// Title above the bar (e.g. `"ELEVATION (M)"`).
    pub title: &'a str,
    /// The colour map.
    pub map: ColorMap,
    /// The values at the bar's ends, as given to [`colorize`].
    pub range: (f32, f32),
    /// Values to label.
    pub ticks: &'a [f32],
}

/// Draws a horizontal colour bar `length` pixels long for `key`. Returns the panel's size.
///
/// # Errors
/// [`ExportError::InvalidOption`] for a `scale` outside `1..=8`, a `length` outside
/// `16..=4096` or a range that is not finite and increasing.
pub fn draw_color_bar(
    img: &mut Image,
    place: Place,
    key: &ColorKey<'_>,
    length: u32,
    scale: u32,
) -> Result<(u32, u32), ExportError> {
    let (title, map, range, ticks) = (key.title, &key.map, key.range, key.ticks);
    let s = check_scale(scale)?;
    if !(16..=4096).contains(&length) {
        return Err(ExportError::InvalidOption {
            name: "length",
            reason: "must be 16..=4096",
        });
    }
    if !(range.0.is_finite() && range.1.is_finite() && range.0 < range.1) {
        return Err(ExportError::InvalidOption {
            name: "range",
            reason: "must be finite and increasing",
        });
    }
    let pad = 4 * i64::from(s);
    let bar_h = 3 * text_height(s) / 2;
    let len = i64::from(length);
    let w = len + 2 * pad + text_width("-0000", s);
    let h = pad + text_height(s) + pad + bar_h + pad + text_height(s) + pad;
    let (x0, y0) = place.origin(img, w, h);
    let values: Vec<f32> = (0..len)
        .map(|i| range.0 + (range.1 - range.0) * (i as f32 + 0.5) / len as f32)
        .collect();
    let colors = colorize(&values, map, range);
    let mut p = Painter::new(img);
    p.rect(x0, y0, w, h, PANEL, PANEL_ALPHA);
    p.text(x0 + pad, y0 + pad, title, s, INK);
    let bx = x0 + pad + text_width("-0000", s) / 2;
    let by = y0 + 2 * pad + text_height(s);
    for (i, c) in colors.iter().enumerate() {
        p.rect(bx + i as i64, by, 1, bar_h, *c, 1.0);
    }
    for &t in ticks.iter().filter(|t| (range.0..=range.1).contains(*t)) {
        let x = bx + (((t - range.0) / (range.1 - range.0)) * len as f32).round() as i64;
        p.rect(
            x,
            by + bar_h - 2 * i64::from(s),
            1.max(i64::from(s) / 2),
            3 * i64::from(s),
            INK,
            1.0,
        );
        let label = format!("{t:.0}");
        p.text(
            x - text_width(&label, s) / 2,
            by + bar_h + pad,
            &label,
            s,
            INK,
        );
    }
    Ok((w as u32, h as u32))
}

/// The longest round distance (1, 2 or 5 times a power of ten, km) that fits `max_px`.
fn round_km(km_per_pixel: f64, max_px: f64) -> f64 {
    let max_km = km_per_pixel * max_px;
    let mut best = 0.0;
    let mut p = 1e-3;
    while p <= max_km {
        for m in [1.0, 2.0, 5.0] {
            if m * p <= max_km {
                best = m * p;
            }
        }
        p *= 10.0;
    }
    best
}

/// Draws a scale bar at most `max_px` long for `km_per_pixel` (the scale at the image's
/// reference line, e.g. the equator of a map, or the centre of a globe's disc), labelled in
/// km and split into halves. Returns the panel's size.
///
/// # Errors
/// [`ExportError::InvalidOption`] for a `scale` outside `1..=8`, a non-positive or
/// non-finite `km_per_pixel`, or `max_px` outside `8..=4096`.
pub fn draw_scale_bar(
    img: &mut Image,
    place: Place,
    km_per_pixel: f64,
    max_px: u32,
    caption: &str,
    scale: u32,
) -> Result<(u32, u32), ExportError> {
    let s = check_scale(scale)?;
    if !(km_per_pixel.is_finite() && km_per_pixel > 0.0 && (8..=4096).contains(&max_px)) {
        return Err(ExportError::InvalidOption {
            name: "km_per_pixel/max_px",
            reason: "km_per_pixel must be finite and positive, max_px 8..=4096",
        });
    }
    let km = round_km(km_per_pixel, f64::from(max_px));
    let len = (km / km_per_pixel).round().max(1.0) as i64;
    let label = if km >= 1.0 {
        format!("{km:.0} km {caption}")
    } else {
        format!("{:.0} m {caption}", km * 1e3)
    };
    let pad = 4 * i64::from(s);
    let w = (len + 2 * pad).max(text_width(&label, s) + 2 * pad);
    let bar = 2 * i64::from(s);
    let h = pad + text_height(s) + pad + bar + pad;
    let (x0, y0) = place.origin(img, w, h);
    let mut p = Painter::new(img);
    p.rect(x0, y0, w, h, PANEL, PANEL_ALPHA);
    p.text(x0 + pad, y0 + pad, &label, s, INK);
    let by = y0 + 2 * pad + text_height(s);
    p.rect(x0 + pad, by, len / 2, bar, INK, 1.0);
    p.rect(
        x0 + pad + len / 2,
        by,
        len - len / 2,
        bar,
        [90, 90, 90],
        1.0,
    );
    p.rect(x0 + pad + len / 2, by, len - len / 2, 1, INK, 1.0);
    Ok((w as u32, h as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_distances() {
        assert_eq!(round_km(10.0, 100.0), 1000.0);
        assert_eq!(round_km(10.0, 60.0), 500.0);
        assert_eq!(round_km(3.0, 100.0), 200.0);
    }

    #[test]
    fn panels_land_in_their_corner_and_refuse_bad_options() {
        let mut img = Image::new(300, 200, [0, 0, 0]);
        let items = [LegendItem {
            color: [255, 0, 0],
            label: "red",
        }];
        let (w, h) = draw_legend(
            &mut img,
            Place::at(Corner::BottomRight),
            "KEY",
            &items,
            5,
            2,
        )
        .unwrap();
        // The swatch: red somewhere in the panel's box, nothing outside it.
        let red = |x, y| img.pixel(x, y) == Some([255, 0, 0]);
        assert!((300 - 10 - w..290).any(|x| (200 - 10 - h..190).any(|y| red(x, y))));
        assert!(!(0..300 - 10 - w).any(|x| (0..200).any(|y| red(x, y))));
        assert!(draw_legend(&mut img, Place::at(Corner::TopLeft), "", &items, 0, 1).is_err());
        assert!(draw_scale_bar(&mut img, Place::at(Corner::TopLeft), -1.0, 100, "", 1).is_err());
        let key = ColorKey {
            title: "T",
            map: ColorMap::Viridis,
            range: (1.0, 0.0),
            ticks: &[],
        };
        assert!(draw_color_bar(&mut img, Place::at(Corner::TopLeft), &key, 100, 1).is_err());
        let key = ColorKey {
            range: (0.0, 10.0),
            ticks: &[0.0, 5.0, 10.0],
            ..key
        };
        let mut img = Image::new(300, 200, [0, 0, 0]);
        let (w, h) = draw_color_bar(&mut img, Place::at(Corner::TopLeft), &key, 100, 1).unwrap();
        assert!(w > 100 && h > 10);
        // The bar's middle is viridis' middle colour.
        let mid = ColorMap::Viridis.color(0.5);
        let near = |c: [u8; 3]| (0..3).all(|k| c[k].abs_diff(mid[k]) <= 3);
        assert!((10..10 + w).any(|x| (10..10 + h).any(|y| img.pixel(x, y).is_some_and(near))));
    }
}
