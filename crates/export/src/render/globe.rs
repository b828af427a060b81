//! The globe: both hemispheres side by side, cells coloured by the nearest site (or colours
//! interpolated across the Delaunay triangles), region borders anti-aliased, Lambert shading
//! and optional hillshading from a scalar layer.

use super::hillshade::{Hillshade, vertex_gradients};
use super::raster::{
    check_samples, check_size, par_bands, srgb_to_linear_table, store, thread_count, to_linear,
};
use super::sites::{Borders, Sites, border_rule};
use crate::ExportError;
use crate::colormap::{ColorMap, Scaled};
use crate::common::check_inputs;
use crate::heightmap::check_values;
use crate::image::Image;
use crate::locate::FaceWalk;
use glam::{Vec2, Vec3, Vec3A};
use quadedge::Topology;

/// How a sample between sites takes its colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Shading {
    /// The colour of the Voronoi cell the sample falls in (nearest site): crisp cells.
    #[default]
    Flat,
    /// The colours of the Delaunay triangle's three corners, blended barycentrically in linear
    /// light: smooth fields (elevation, temperature).
    Interpolated,
    /// The scalar layer of [`render_globe_with`] interpolated across the triangle, then
    /// coloured per sample through `map` over `range` (as [`colorize`](crate::colormap::colorize)
    /// does): smooth like [`Shading::Interpolated`], but a sharp step of the map (a
    /// coastline) stays sharp instead of following the triangles. The `colors` argument is
    /// then unused (its length is still checked).
    Mapped {
        /// The colour map.
        map: ColorMap,
        /// The values at the map's ends.
        range: (f32, f32),
    },
}

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
    /// Default `+Z` (longitude 0 of a Y-up world, as in [`crate::heightmap`]).
    pub view: Vec3,
    /// The world's up (north) direction, drawn upwards in both discs; default `+Y`, where the
    /// Fibonacci sphere has its poles.
    pub up: Vec3,
    /// Flat cells or interpolated colours; default [`Shading::Flat`].
    pub shading: Shading,
    /// Strength of the hillshading of [`render_globe_with`]'s scalar layer, `0..=16`, default
    /// one: a vertical exaggeration. The layer's gradient is scaled so that at strength 1 the
    /// 98th percentile of the slopes is 30°, whatever the layer's units. Slopes are lit from
    /// the north-west, 45° above the horizon, relative to flat ground: flat ground keeps its
    /// colour, slopes facing the light brighten (up to 1.6×) and slopes facing away darken.
    pub hillshade: f32,
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
            view: Vec3::Z,
            up: Vec3::Y,
            shading: Shading::Flat,
            hillshade: 1.0,
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
    mesh: &impl Topology,
    positions: &[Vec3],
    colors: &[[u8; 3]],
    borders: Borders<'_>,
    options: &GlobeOptions,
) -> Result<Image, ExportError> {
    render_globe_with(mesh, positions, colors, borders, None, options)
}

/// [`render_globe`] with a scalar layer: `relief` (one value per vertex slot, e.g. elevation)
/// shades slopes as lit from the north-west ([`GlobeOptions::hillshade`] sets the strength,
/// 0 for none) and is what [`Shading::Mapped`] colours; `None` renders exactly as
/// [`render_globe`].
///
/// # Errors
/// The errors of [`render_globe`]; [`ExportError::LengthMismatch`] or
/// [`ExportError::NonFiniteValue`] for a bad `relief`, [`ExportError::InvalidOption`] for a
/// strength outside `0..=16` or [`Shading::Mapped`] without `relief`.
///
/// ```
/// use glam::Vec3;
/// use export::render::{Borders, GlobeOptions, Shading, render_globe_with};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let elevation: Vec<f32> = pos.iter().map(|p| p.x).collect();
/// let colors = export::colormap::colorize(&elevation, &export::colormap::ColorMap::Viridis, (-1.0, 1.0));
/// let opts = GlobeOptions { width: 128, height: 64, shading: Shading::Interpolated, ..Default::default() };
/// let img = render_globe_with(&mesh, &pos, &colors, Borders::None, Some(&elevation), &opts)?;
/// assert_eq!((img.width, img.height), (128, 64));
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn render_globe_with(
    mesh: &impl Topology,
    positions: &[Vec3],
    colors: &[[u8; 3]],
    borders: Borders<'_>,
    relief: Option<&[f32]>,
    options: &GlobeOptions,
) -> Result<Image, ExportError> {
    check_inputs(mesh, positions, Some(colors))?;
    if let Some(values) = relief {
        check_values("hillshade", mesh, values)?;
    }
    let mapped = match options.shading {
        Shading::Mapped { map, range } => match relief {
            Some(values) => Some((Scaled::new(&map, range, values), values)),
            None => {
                return Err(ExportError::InvalidOption {
                    name: "shading",
                    reason: "Mapped colours the scalar layer: pass it to render_globe_with",
                });
            }
        },
        _ => None,
    };
    if !(0.0..=16.0).contains(&options.hillshade) {
        return Err(ExportError::InvalidOption {
            name: "hillshade",
            reason: "must be within 0..=16",
        });
    }
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
    let layout = super::graticule::GlobeLayout::new(options)?;
    let up = layout.up;
    let light = options.light.try_normalize().unwrap_or(Vec3::Z);
    let ambient = options.ambient.clamp(0.0, 1.0);
    let rule = border_rule(mesh, borders)?;
    let dirs = FaceWalk::unit_dirs(positions);
    let interpolated = options.shading != Shading::Flat;
    let faces = interpolated.then(|| FaceWalk::new(mesh, dirs.clone()));
    let shade = match relief {
        Some(values) if options.hillshade > 0.0 => Some(Hillshade::new(
            &vertex_gradients(mesh, &dirs, values),
            &dirs,
            options.hillshade,
            Vec3A::from(options.up.try_normalize().unwrap_or(up)),
        )),
        _ => None,
    };
    let sites = Sites::new(mesh, dirs, &*rule);
    drop(rule);

    let lut = srgb_to_linear_table();
    let lin: Vec<Vec3> = colors.iter().map(|&c| to_linear(&lut, c)).collect();
    let border_lin = to_linear(&lut, options.border_color);
    let bg = to_linear(&lut, options.background);

    let (w, h) = (options.width, options.height);
    let (radius, centers, bases) = (layout.radius, layout.centers, layout.bases);
    let s = options.samples;
    let inv_s = 1.0 / s as f32;
    let weight = 1.0 / (s * s) as f32;
    let half_border = 0.5 * options.border_width / radius;
    // Without a border anywhere, skip the nearest-site search that only borders need.
    let draw_borders = half_border > 0.0 && sites.has_borders();

    let mut img = Image::new(w, h, options.background);
    // Flat shading and borders need the nearest site; interpolation needs the face.
    let need_site = !interpolated || draw_borders;
    let face_start = faces.as_ref().map_or(0, |f| f.start);
    let render_band = |y0: u32, rows: &mut [u8]| {
        // Per hemisphere: the site and face of the latest sample, and of the row's first.
        let mut row_hint = [(sites.start, face_start); 2];
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
                        let (mut site, mut face) = hint[hemi];
                        if need_site {
                            site = sites.walk(site, p);
                        }
                        let hit = faces.as_ref().map(|fw| fw.locate(face, p));
                        if let Some(h) = &hit {
                            face = h.face;
                        }
                        hint[hemi] = (site, face);
                        if first[hemi] {
                            first[hemi] = false;
                            row_hint[hemi] = (site, face);
                        }
                        let mut base =
                            if draw_borders && sites.border_distance(site, p) < half_border {
                                border_lin
                            } else if let Some(h) = &hit {
                                match &mapped {
                                    Some((scaled, values)) => {
                                        let v: f32 = (0..3)
                                            .map(|k| h.weights[k] * values[h.corners[k] as usize])
                                            .sum();
                                        to_linear(&lut, scaled.color(v))
                                    }
                                    None => (0..3)
                                        .map(|k| h.weights[k] * lin[h.corners[k] as usize])
                                        .sum(),
                                }
                            } else {
                                lin[site as usize]
                            };
                        if let Some(shade) = &shade {
                            base *= match &hit {
                                Some(h) => shade.factor_interpolated(h),
                                None => shade.factor_at(site),
                            };
                        }
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
