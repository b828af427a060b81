//! Flat maps: Voronoi cells filled into an image, and a planar triangle mesh as OBJ.
//!
//! Inputs are plain data so that this crate needs no planar-map type: cells as convex
//! polygons in one flat array (`cell_points[cell_offsets[i]..cell_offsets[i + 1]]` is cell
//! `i`), one colour per cell, and the map's bounds `[min_x, min_y, max_x, max_y]`.

use crate::common::{put, w_err, write_file};
use crate::{ExportError, Image};
use std::io::Write;
use std::path::Path;

/// The largest image side accepted, in pixels.
pub const MAX_MAP_PIXELS: u32 = 16_384;

/// A colour for an elevation: blues below `sea_level` (darker deeper), greens rising to
/// browns and light grey above. `elevation` is about `-1 ..= 1`; values outside are clamped.
///
/// ```
/// let sea = export::map::elevation_colour(-0.5, 0.0);
/// let land = export::map::elevation_colour(0.2, 0.0);
/// assert!(sea[2] > sea[1] && land[1] > land[2]);
/// ```
pub fn elevation_colour(elevation: f32, sea_level: f32) -> [u8; 3] {
    let lerp = |a: [f32; 3], b: [f32; 3], t: f32| {
        let t = t.clamp(0.0, 1.0);
        [0, 1, 2].map(|k| (a[k] + (b[k] - a[k]) * t).round() as u8)
    };
    let e = if elevation.is_finite() {
        elevation
    } else {
        sea_level
    };
    if e < sea_level {
        lerp(
            [70.0, 130.0, 200.0],
            [20.0, 40.0, 110.0],
            (sea_level - e) / 1.0,
        )
    } else {
        let h = e - sea_level;
        if h < 0.35 {
            lerp([90.0, 160.0, 70.0], [150.0, 140.0, 80.0], h / 0.35)
        } else {
            lerp([150.0, 140.0, 80.0], [120.0, 95.0, 70.0], (h - 0.35) / 0.4)
        }
    }
}

/// Checks the flat polygon arrays: offsets start at 0, never decrease, end at the points'
/// length; one colour per cell; finite points.
fn check_cells(
    offsets: &[u32],
    points: &[[f64; 2]],
    colours: &[[u8; 3]],
) -> Result<(), ExportError> {
    let cells = offsets.len().saturating_sub(1);
    if colours.len() != cells {
        return Err(ExportError::LengthMismatch {
            what: "colors",
            expected: cells,
            got: colours.len(),
        });
    }
    let bad = |reason| ExportError::InvalidOption {
        name: "cell_offsets",
        reason,
    };
    if offsets.first().is_some_and(|&o| o != 0) {
        return Err(bad("the first offset must be 0"));
    }
    if offsets.windows(2).any(|w| w[1] < w[0]) {
        return Err(bad("offsets must not decrease"));
    }
    if offsets.last().map_or(0, |&o| o as usize) != points.len() {
        return Err(bad("the last offset must be the number of points"));
    }
    if points
        .iter()
        .any(|p| !p[0].is_finite() || !p[1].is_finite())
    {
        return Err(ExportError::InvalidOption {
            name: "cell_points",
            reason: "a point is not finite",
        });
    }
    Ok(())
}

/// Fills each cell (a convex polygon) with its colour on a `background` image of
/// `width_px` pixels across `bounds`, the height following the bounds' aspect; `y` up.
///
/// # Errors
/// [`ExportError::InvalidOption`] for bounds that are not finite and increasing, a width of
/// 0 or above [`MAX_MAP_PIXELS`] (or a height beyond it), malformed offsets or non-finite
/// points; [`ExportError::LengthMismatch`] for a colour count other than the cell count.
///
/// ```
/// // One square cell covering the left half of a 2 × 1 map.
/// let img = export::map::render_cells([0.0, 0.0, 2.0, 1.0], &[0, 4], &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], &[[255, 0, 0]], 40, [0, 0, 0]).unwrap();
/// assert_eq!((img.width, img.height), (40, 20));
/// assert_eq!(img.pixel(5, 10), Some([255, 0, 0]));
/// assert_eq!(img.pixel(35, 10), Some([0, 0, 0]));
/// ```
pub fn render_cells(
    bounds: [f64; 4],
    cell_offsets: &[u32],
    cell_points: &[[f64; 2]],
    colours: &[[u8; 3]],
    width_px: u32,
    background: [u8; 3],
) -> Result<Image, ExportError> {
    let [x0, y0, x1, y1] = bounds;
    if !bounds.iter().all(|b| b.is_finite()) || x1 <= x0 || y1 <= y0 {
        return Err(ExportError::InvalidOption {
            name: "bounds",
            reason: "must be finite with max > min",
        });
    }
    if width_px == 0 || width_px > MAX_MAP_PIXELS {
        return Err(ExportError::InvalidOption {
            name: "width_px",
            reason: "must be between 1 and 16384",
        });
    }
    let height = ((y1 - y0) / (x1 - x0) * width_px as f64).round().max(1.0);
    if height > MAX_MAP_PIXELS as f64 {
        return Err(ExportError::InvalidOption {
            name: "width_px",
            reason: "the image would be taller than 16384 pixels",
        });
    }
    check_cells(cell_offsets, cell_points, colours)?;
    let (w, h) = (width_px, height as u32);
    let mut img = Image::new(w, h, background);
    let scale = w as f64 / (x1 - x0);
    // Pixel coordinates: column = (x − x0)·scale, row = (y1 − y)·scale.
    let to_px = |p: [f64; 2]| [(p[0] - x0) * scale, (y1 - p[1]) * scale];
    for (cell, colour) in cell_offsets.windows(2).zip(colours) {
        let poly = &cell_points[cell[0] as usize..cell[1] as usize];
        if poly.len() >= 3 {
            fill_convex(
                &mut img,
                poly.iter().map(|&p| to_px(p)),
                poly.len(),
                *colour,
            );
        }
    }
    Ok(img)
}

/// Scanline fill of a convex polygon given in pixel coordinates: each row's pixel centres
/// between the polygon's leftmost and rightmost crossings of the row.
fn fill_convex(
    img: &mut Image,
    pts: impl Iterator<Item = [f64; 2]> + Clone,
    n: usize,
    colour: [u8; 3],
) {
    let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in pts.clone() {
        ymin = ymin.min(p[1]);
        ymax = ymax.max(p[1]);
    }
    let row0 = (ymin - 0.5).ceil().max(0.0) as u32;
    let row1 = ((ymax - 0.5).floor()).min(img.height as f64 - 1.0);
    if row1 < 0.0 {
        return;
    }
    let pts: Vec<[f64; 2]> = pts.collect();
    for row in row0..=row1 as u32 {
        let y = row as f64 + 0.5;
        let (mut xl, mut xr) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..n {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            if (a[1] <= y && y <= b[1]) || (b[1] <= y && y <= a[1]) {
                let x = if a[1] == b[1] {
                    xl = xl.min(a[0].min(b[0]));
                    a[0].max(b[0])
                } else {
                    a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
                };
                xl = xl.min(x);
                xr = xr.max(x);
            }
        }
        if xl > xr {
            continue;
        }
        let c0 = (xl - 0.5).ceil().max(0.0) as u32;
        let c1 = (xr - 0.5).floor().min(img.width as f64 - 1.0);
        if c1 < 0.0 {
            continue;
        }
        let start = 3 * (row as usize * img.width as usize);
        for col in c0..=c1 as u32 {
            let i = start + 3 * col as usize;
            img.rgb[i..i + 3].copy_from_slice(&colour);
        }
    }
}

/// Writes planar triangles as OBJ: one `v x y 0` line per position, one `f a b c` line per
/// triangle (1-based). For a ghost-closed map pass the real vertices and real triangles only.
///
/// # Errors
/// [`ExportError::EmptyMesh`] without triangles; [`ExportError::InvalidOption`] for a
/// non-finite position or a triangle index out of range; the file errors of the other
/// writers.
pub fn write_map_obj(
    path: impl AsRef<Path>,
    positions: &[[f64; 2]],
    triangles: &[[u32; 3]],
) -> Result<(), ExportError> {
    check_obj(positions, triangles)?;
    write_file(path.as_ref(), |w| write_map_obj_to(w, positions, triangles))
}

fn check_obj(positions: &[[f64; 2]], triangles: &[[u32; 3]]) -> Result<(), ExportError> {
    if triangles.is_empty() {
        return Err(ExportError::EmptyMesh);
    }
    if positions
        .iter()
        .any(|p| !p[0].is_finite() || !p[1].is_finite())
    {
        return Err(ExportError::InvalidOption {
            name: "positions",
            reason: "a position is not finite",
        });
    }
    if triangles
        .iter()
        .flatten()
        .any(|&i| i as usize >= positions.len())
    {
        return Err(ExportError::InvalidOption {
            name: "triangles",
            reason: "a vertex index is out of range",
        });
    }
    Ok(())
}

/// [`write_map_obj`] to any writer.
///
/// # Errors
/// As [`write_map_obj`]; [`ExportError::Writer`] when the writer fails.
///
/// ```
/// let mut out = Vec::new();
/// export::map::write_map_obj_to(&mut out, &[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], &[[0, 1, 2]]).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
/// ```
pub fn write_map_obj_to<W: Write>(
    w: &mut W,
    positions: &[[f64; 2]],
    triangles: &[[u32; 3]],
) -> Result<(), ExportError> {
    check_obj(positions, triangles)?;
    for p in positions {
        writeln!(w, "v {} {} 0", p[0], p[1]).map_err(w_err)?;
    }
    for t in triangles {
        writeln!(w, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1).map_err(w_err)?;
    }
    put(w, b"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_map_inputs_are_typed_errors() {
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let ok =
            |b, o: &[u32], p: &[[f64; 2]], c: &[[u8; 3]], w| render_cells(b, o, p, c, w, [0; 3]);
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[0, 4], &sq, &[[1; 3]], 8).is_ok());
        for bounds in [
            [0.0, 0.0, 0.0, 1.0],
            [0.0, f64::NAN, 1.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
        ] {
            assert!(matches!(
                ok(bounds, &[0, 4], &sq, &[[1; 3]], 8),
                Err(ExportError::InvalidOption { name: "bounds", .. })
            ));
        }
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[0, 4], &sq, &[[1; 3]], 0).is_err());
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[0, 4], &sq, &[[1; 3]], 20_000).is_err());
        assert!(ok([0.0, 0.0, 1.0, 1e6], &[0, 4], &sq, &[[1; 3]], 100).is_err());
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[0, 5], &sq, &[[1; 3]], 8).is_err());
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[1, 4], &sq, &[[1; 3]], 8).is_err());
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[0, 3, 2, 4], &sq, &[[1; 3]; 3], 8).is_err());
        assert!(matches!(
            ok([0.0, 0.0, 1.0, 1.0], &[0, 4], &sq, &[], 8),
            Err(ExportError::LengthMismatch { .. })
        ));
        let nan = [[0.0, 0.0], [f64::NAN, 0.0], [1.0, 1.0]];
        assert!(ok([0.0, 0.0, 1.0, 1.0], &[0, 3], &nan, &[[1; 3]], 8).is_err());
        let mut out = Vec::new();
        assert!(matches!(
            write_map_obj_to(&mut out, &sq, &[]),
            Err(ExportError::EmptyMesh)
        ));
        assert!(write_map_obj_to(&mut out, &sq, &[[0, 1, 4]]).is_err());
        assert!(write_map_obj_to(&mut out, &nan, &[[0, 1, 2]]).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn adjacent_cells_cover_every_pixel_once() {
        // Two triangles splitting the unit square along its diagonal.
        let pts = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
        ];
        let img = render_cells(
            [0.0, 0.0, 1.0, 1.0],
            &[0, 3, 6],
            &pts,
            &[[200, 0, 0], [0, 200, 0]],
            33,
            [0, 0, 255],
        )
        .unwrap();
        let mut counts = [0usize; 3];
        for px in img.rgb.chunks(3) {
            match px {
                [200, 0, 0] => counts[0] += 1,
                [0, 200, 0] => counts[1] += 1,
                _ => counts[2] += 1,
            }
        }
        assert_eq!(counts[2], 0, "no background left");
        assert!(counts[0].abs_diff(counts[1]) <= 33);
        // Below the diagonal (y small = bottom rows) is the first triangle.
        assert_eq!(img.pixel(30, 30), Some([200, 0, 0]));
        assert_eq!(img.pixel(2, 2), Some([0, 200, 0]));
    }
}
