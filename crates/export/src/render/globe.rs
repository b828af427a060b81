//! The globe: both hemispheres side by side, cells coloured by the nearest site, region
//! borders anti-aliased, Lambert shading.

use super::raster::{
    check_samples, check_size, frame, par_bands, srgb_to_linear_table, store, thread_count,
    to_linear,
};
use super::sites::{Borders, Sites, border_rule};
use crate::ExportError;
use crate::common::check_inputs;
use crate::image::Image;
use glam::{Vec2, Vec3, Vec3A};
use quadedge::Mesh;

/// Settings for [`render_globe`].
#[derive(Clone, Debug)]
pub struct GlobeOptions {
    /// Image width in pixels (both hemispheres); default 2048.
    pub width: u32,
    /// Image height in pixels; default 1024.
    pub height: u32,
    /// Samples per pixel along each axis (`n × n` per pixel); default 4 (16 samples). 1..=16.
    pub samples: u32,
    /// Direction from the globe's centre to the centre of the left (front) disc; the right
    /// disc shows the opposite hemisphere, as if one had walked round the globe.
    /// Default `+X` (longitude 0 for a Z-up world).
    pub view: Vec3,
    /// The world's up direction, drawn upwards in both discs; default `+Z`.
    pub up: Vec3,
    /// Light direction in view space (`x` right, `y` up, `z` towards the viewer); default from
    /// the upper left front.
    pub light: Vec3,
    /// Light that reaches surfaces facing away from the light, `0..=1`; default 0.25.
    pub ambient: f32,
    /// Width of region borders in pixels at the disc centre; default 1.5.
    pub border_width: f32,
    /// Border colour; default near black.
    pub border_color: [u8; 3],
    /// Background colour; default dark blue-grey.
    pub background: [u8; 3],
    /// Free space around each disc as a fraction of its half-cell; default 0.04.
    pub margin: f32,
    /// Worker threads; 0 = one per available core.
    pub threads: usize,
}

impl Default for GlobeOptions {
    fn default() -> Self {
        Self {
            width: 2048,
            height: 1024,
            samples: 4,
            view: Vec3::X,
            up: Vec3::Z,
            light: Vec3::new(-0.45, 0.55, 0.7),
            ambient: 0.25,
            border_width: 1.5,
            border_color: [20, 20, 24],
            background: [16, 18, 28],
            margin: 0.04,
            threads: 0,
        }
    }
}

/// Renders the globe as two orthographic hemispheres side by side: the one centred on
/// `options.view` on the left, the opposite one on the right.
///
/// Each pixel averages `samples²` samples (in linear light); each sample takes the colour of
/// the Voronoi cell it falls in (`colors`, one per vertex slot), or `border_color` within
/// `border_width / 2` pixels of a bisector between two cells that [`Borders`] separates, and
/// is Lambert-shaded. Positions are projected onto the unit sphere (only directions matter),
/// so relief does not distort the picture.
///
/// The mesh should be a Delaunay triangulation of the sphere (as the world's mesh is); on other
/// meshes the greedy walk may stop at a site that is only locally nearest.
///
/// ```
/// use glam::Vec3;
/// use export::render::{Borders, GlobeOptions, render_globe};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let colors = [[200, 60, 60], [60, 200, 60], [60, 60, 200], [200, 200, 60], [240; 3], [90; 3]];
/// let regions = [0, 1, 0, 1, 2, 2];
/// let opts = GlobeOptions { width: 256, height: 128, ..Default::default() };
/// let img = render_globe(&mesh, &pos, &colors, Borders::Regions(&regions), &opts)?;
/// assert_eq!((img.width, img.height), (256, 128));
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn render_globe(
    mesh: &Mesh,
    positions: &[Vec3],
    colors: &[[u8; 3]],
    borders: Borders<'_>,
    options: &GlobeOptions,
) -> Result<Image, ExportError> {
    check_inputs(mesh, positions, Some(colors))?;
    check_size(options.width, options.height)?;
    if options.width < 2 {
        return Err(ExportError::InvalidOption {
            name: "width",
            reason: "two hemispheres need at least 2 pixels",
        });
    }
    check_samples(options.samples)?;
    if !(options.border_width.is_finite() && options.border_width >= 0.0) {
        return Err(ExportError::InvalidOption {
            name: "border_width",
            reason: "must be finite and not negative",
        });
    }
    if !(0.0..0.5).contains(&options.margin) {
        return Err(ExportError::InvalidOption {
            name: "margin",
            reason: "must be within 0..0.5",
        });
    }
    let (right, up, fwd) = frame(options.view, options.up)?;
    let light = options.light.try_normalize().unwrap_or(Vec3::Z);
    let ambient = options.ambient.clamp(0.0, 1.0);
    let rule = border_rule(mesh, borders)?;
    let sites = Sites::new(mesh, positions, &*rule);
    drop(rule);

    let lut = srgb_to_linear_table();
    let lin: Vec<Vec3> = colors.iter().map(|&c| to_linear(&lut, c)).collect();
    let border_lin = to_linear(&lut, options.border_color);
    let bg = to_linear(&lut, options.background);

    let (w, h) = (options.width, options.height);
    let radius = (w as f32 / 2.0).min(h as f32) / 2.0 * (1.0 - 2.0 * options.margin);
    let centers = [
        Vec2::new(w as f32 / 4.0, h as f32 / 2.0),
        Vec2::new(3.0 * w as f32 / 4.0, h as f32 / 2.0),
    ];
    // The back view: turned half way round the up axis.
    let bases = [(right, fwd), (-right, -fwd)];
    let s = options.samples;
    let inv_s = 1.0 / s as f32;
    let weight = 1.0 / (s * s) as f32;
    let half_border = 0.5 * options.border_width / radius;
    let draw_borders = half_border > 0.0;

    let mut img = Image::new(w, h, options.background);
    let render_band = |y0: u32, rows: &mut [u8]| {
        // Per hemisphere: the site of the latest sample, and of the first sample of the row.
        let mut row_hint = [sites.start; 2];
        for (dy, row) in rows.chunks_mut(3 * w as usize).enumerate() {
            let y = y0 + dy as u32;
            let mut hint = row_hint;
            let mut first = [true; 2];
            for x in 0..w {
                let hemi = usize::from(x >= w / 2);
                let c = centers[hemi];
                let (r_h, f_h) = bases[hemi];
                let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - c;
                if d.length_squared() > (radius + 1.0) * (radius + 1.0) {
                    continue; // background, already filled
                }
                let mut acc = Vec3::ZERO;
                for j in 0..s {
                    for i in 0..s {
                        let sx = (x as f32 + (i as f32 + 0.5) * inv_s - c.x) / radius;
                        let sy = -(y as f32 + (j as f32 + 0.5) * inv_s - c.y) / radius;
                        let r2 = sx * sx + sy * sy;
                        if r2 >= 1.0 {
                            acc += bg;
                            continue;
                        }
                        let z = (1.0 - r2).sqrt();
                        let p = Vec3A::from(sx * r_h + sy * up + z * f_h);
                        let v = sites.walk(hint[hemi], p);
                        hint[hemi] = v;
                        if first[hemi] {
                            first[hemi] = false;
                            row_hint[hemi] = v;
                        }
                        let base = if draw_borders && sites.border_distance(v, p) < half_border {
                            border_lin
                        } else {
                            lin[v as usize]
                        };
                        let lambert = Vec3::new(sx, sy, z).dot(light).max(0.0);
                        acc += base * (ambient + (1.0 - ambient) * lambert);
                    }
                }
                let o = 3 * x as usize;
                store(&mut row[o..o + 3], acc * weight);
            }
        }
    };
    par_bands(&mut img.rgb, w, thread_count(options.threads), &render_band);
    Ok(img)
}
