//! Equirectangular maps of categorical layers (biomes, plates): each pixel takes the colour
//! of the nearest corner of the triangle its direction falls in (so cells stay crisp and
//! are never blended into colours no category has), hillshaded by a relief layer, with the
//! coastline outlined and the shallow sea lightened along it.
//!
//! The frame and pixel centres are those of [`crate::heightmap`]: a map of the same size
//! lies exactly over the heightmap.

use super::hillshade::{Hillshade, vertex_gradients};
use super::raster::{check_size, linear_to_srgb, srgb_to_linear_table, thread_count, to_linear};
use crate::common::check_inputs;
use crate::heightmap::check_values;
use crate::locate::FaceWalk;
use crate::{ExportError, Image};
use glam::{Vec3, Vec3A};
use quadedge::Topology;

/// Settings of [`render_equirect`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EquirectOptions {
    /// Width in pixels (twice the height).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Hillshading strength of the relief layer, `0..=16` (see [`super::GlobeOptions`]).
    pub hillshade: f32,
    /// With a relief layer: the coastline at this level is outlined and the sea shaded
    /// along it ([`coast_shading`]); `None` for neither.
    pub sea_level: Option<f32>,
    /// Worker threads; 0 = one per available core.
    pub threads: usize,
}

impl Default for EquirectOptions {
    fn default() -> Self {
        Self {
            width: 2048,
            height: 1024,
            hillshade: 1.0,
            sea_level: Some(0.0),
            threads: 0,
        }
    }
}

/// Renders `colors` (one per vertex slot) on an equirectangular map; `relief` (one value
/// per slot, e.g. elevation) hillshades it and places the coastline.
///
/// # Errors
/// Those of [`crate::heightmap::equirectangular`] for the mesh, positions, sizes and
/// `relief`; [`ExportError::LengthMismatch`] for colours not one per slot;
/// [`ExportError::InvalidOption`] for a hillshade outside `0..=16`.
pub fn render_equirect(
    mesh: &impl Topology,
    positions: &[Vec3],
    colors: &[[u8; 3]],
    relief: Option<&[f32]>,
    options: &EquirectOptions,
) -> Result<Image, ExportError> {
    let (width, height) = (options.width, options.height);
    check_size(width, height)?;
    if u64::from(width) != 2 * u64::from(height) {
        return Err(ExportError::InvalidOption {
            name: "width/height",
            reason: "an equirectangular map is twice as wide as it is high",
        });
    }
    if !(0.0..=16.0).contains(&options.hillshade) {
        return Err(ExportError::InvalidOption {
            name: "hillshade",
            reason: "must be within 0..=16",
        });
    }
    check_inputs(mesh, positions, Some(colors))?;
    if let Some(r) = relief {
        check_values("relief", mesh, r)?;
    }
    if !mesh.is_closed() {
        return Err(ExportError::OpenMesh);
    }
    let dirs = FaceWalk::unit_dirs(positions);
    let shade = relief.filter(|_| options.hillshade > 0.0).map(|r| {
        Hillshade::new(
            &vertex_gradients(mesh, &dirs, r),
            &dirs,
            options.hillshade,
            Vec3A::Y,
        )
    });
    let walk = FaceWalk::new(mesh, dirs);
    let lut = srgb_to_linear_table();
    let (w, h) = (width as usize, height as usize);
    let mut img = Image::new(width, height, [0, 0, 0]);
    let mut land = vec![false; w * h];
    let threads = thread_count(options.threads).clamp(1, h.min(64));
    let rows_per = h.div_ceil(threads);
    let band = |y0: usize, rgb: &mut [u8], mask: &mut [bool]| {
        let mut hint = walk.start;
        for (dy, (row, mrow)) in rgb.chunks_mut(3 * w).zip(mask.chunks_mut(w)).enumerate() {
            let y = y0 + dy;
            let lat =
                std::f64::consts::FRAC_PI_2 - std::f64::consts::PI * ((y as f64 + 0.5) / h as f64);
            let (sl, cl) = lat.sin_cos();
            for x in 0..w {
                let lon =
                    std::f64::consts::TAU * ((x as f64 + 0.5) / w as f64) - std::f64::consts::PI;
                let (so, co) = lon.sin_cos();
                let p = Vec3A::new((cl * so) as f32, sl as f32, (cl * co) as f32);
                let hit = walk.locate(hint, p);
                hint = hit.face;
                let k = (0..3).fold(0, |b, k| {
                    if hit.weights[k] > hit.weights[b] {
                        k
                    } else {
                        b
                    }
                });
                let mut c = to_linear(&lut, colors[hit.corners[k] as usize]);
                if let Some(s) = &shade {
                    c *= s.factor_interpolated(&hit);
                }
                if let (Some(r), Some(sea)) = (relief, options.sea_level) {
                    let v: f32 = (0..3)
                        .map(|k| hit.weights[k] * r[hit.corners[k] as usize])
                        .sum();
                    mrow[x] = v >= sea;
                }
                row[3 * x] = linear_to_srgb(c.x);
                row[3 * x + 1] = linear_to_srgb(c.y);
                row[3 * x + 2] = linear_to_srgb(c.z);
            }
        }
    };
    std::thread::scope(|s| {
        let chunks = img
            .rgb
            .chunks_mut(3 * w * rows_per)
            .zip(land.chunks_mut(w * rows_per));
        for (i, (rgb, mask)) in chunks.enumerate() {
            let band = &band;
            s.spawn(move || band(i * rows_per, rgb, mask));
        }
    });
    if relief.is_some() && options.sea_level.is_some() {
        coast_shading(&mut img, &land, 10)?;
    }
    Ok(img)
}

/// Outlines the coast and lightens the sea near it: `land` marks the land pixels of `img`
/// (row-major); sea pixels within `reach` pixels of land are blended towards a pale blue,
/// more the closer they are, and those touching land are darkened into a thin outline.
///
/// # Errors
/// [`ExportError::LengthMismatch`] for a mask that is not one entry per pixel,
/// [`ExportError::InvalidOption`] for a reach above 64.
pub fn coast_shading(img: &mut Image, land: &[bool], reach: u32) -> Result<(), ExportError> {
    let (w, h) = (img.width as usize, img.height as usize);
    if land.len() != w * h {
        return Err(ExportError::LengthMismatch {
            what: "land",
            expected: w * h,
            got: land.len(),
        });
    }
    if reach > 64 {
        return Err(ExportError::InvalidOption {
            name: "reach",
            reason: "at most 64 pixels",
        });
    }
    // Chamfer distance to land (3-4 weights), two passes; the map wraps east–west.
    const FAR: u32 = u32::MAX / 2;
    let mut d: Vec<u32> = land.iter().map(|&l| if l { 0 } else { FAR }).collect();
    let at = |x: isize, y: usize| y * w + x.rem_euclid(w as isize) as usize;
    for y in 0..h {
        for x in 0..w as isize {
            let mut best = d[at(x, y)];
            best = best.min(d[at(x - 1, y)] + 3);
            if y > 0 {
                for (dx, c) in [(-1, 4), (0, 3), (1, 4)] {
                    best = best.min(d[at(x + dx, y - 1)] + c);
                }
            }
            d[at(x, y)] = best;
        }
    }
    for y in (0..h).rev() {
        for x in (0..w as isize).rev() {
            let mut best = d[at(x, y)];
            best = best.min(d[at(x + 1, y)] + 3);
            if y + 1 < h {
                for (dx, c) in [(-1, 4), (0, 3), (1, 4)] {
                    best = best.min(d[at(x + dx, y + 1)] + c);
                }
            }
            d[at(x, y)] = best;
        }
    }
    let lut = srgb_to_linear_table();
    let pale = to_linear(&lut, [170, 210, 235]);
    let dark = to_linear(&lut, [20, 30, 50]);
    for (i, &dist) in d.iter().enumerate() {
        if dist == 0 || dist > 3 * reach {
            continue;
        }
        let px = &mut img.rgb[3 * i..3 * i + 3];
        let c = to_linear(&lut, [px[0], px[1], px[2]]);
        let c: Vec3 = if dist <= 3 {
            c.lerp(dark, 0.55)
        } else {
            let t = 1.0 - dist as f32 / (3 * reach) as f32;
            c.lerp(pale, 0.45 * t * t)
        };
        px[0] = linear_to_srgb(c.x);
        px[1] = linear_to_srgb(c.y);
        px[2] = linear_to_srgb(c.z);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn octahedron() -> (quadedge::Mesh, [Vec3; 6]) {
        let (n, tris) = quadedge::shapes::octahedron();
        let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
        (
            mesh,
            [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z],
        )
    }

    #[test]
    fn each_pixel_takes_its_nearest_corner_and_bad_options_are_refused() {
        let (mesh, pos) = octahedron();
        let colors = [
            [200, 0, 0],
            [0, 200, 0],
            [0, 0, 200],
            [200, 200, 0],
            [0, 200, 200],
            [200, 0, 200],
        ];
        let o = EquirectOptions {
            width: 64,
            height: 32,
            hillshade: 0.0,
            sea_level: None,
            threads: 3,
        };
        let img = render_equirect(&mesh, &pos, &colors, None, &o).unwrap();
        // Latitude 0, longitude 0 is +Z (vertex 4); longitude 90° east is +X (vertex 0);
        // the top row rings the north pole, +Y (vertex 2).
        assert_eq!(img.pixel(32, 16), Some(colors[4]));
        assert_eq!(img.pixel(48, 16), Some(colors[0]));
        assert_eq!(img.pixel(5, 0), Some(colors[2]));
        let bad = EquirectOptions {
            width: 64,
            height: 64,
            ..o
        };
        assert!(render_equirect(&mesh, &pos, &colors, None, &bad).is_err());
        let bad = EquirectOptions {
            hillshade: 20.0,
            ..o
        };
        assert!(render_equirect(&mesh, &pos, &colors, None, &bad).is_err());
        assert!(render_equirect(&mesh, &pos, &colors[1..], None, &o).is_err());
        let nan = [f32::NAN; 6];
        assert!(render_equirect(&mesh, &pos, &colors, Some(&nan), &o).is_err());
    }

    #[test]
    fn the_coast_is_outlined_and_the_sea_lightened_near_it() {
        let mut img = Image::new(40, 20, [20, 40, 120]);
        // Land: the left half.
        let land: Vec<bool> = (0..40 * 20).map(|i| i % 40 < 20).collect();
        coast_shading(&mut img, &land, 8).unwrap();
        let at = |x| img.pixel(x, 10).unwrap();
        assert_eq!(at(5), [20, 40, 120], "land is untouched");
        assert!(at(20)[2] < 120, "the outline is darker");
        assert!(at(23)[2] > 120, "shallow sea is lighter");
        assert!(at(23)[2] > at(27)[2], "the more the nearer");
        // x = 30 is 10 pixels from land on both sides (the map wraps east–west).
        assert_eq!(at(30), [20, 40, 120], "open sea untouched");
        assert!(at(36)[2] > 120, "land across the wrap counts");
        assert!(coast_shading(&mut img, &land[1..], 8).is_err());
        assert!(coast_shading(&mut img, &land, 65).is_err());
    }
}
