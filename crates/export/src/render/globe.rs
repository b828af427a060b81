//! The globe: both hemispheres side by side, cells coloured by the nearest site (or colours
//! interpolated across the Delaunay triangles), region borders anti-aliased, Lambert shading
//! and optional hillshading from a scalar layer.

use super::graticule::GlobeLayout;
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
use crate::locate::{FaceWalk, Hit};
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
    /// The scalar layer [`GlobeOptions::relief`] interpolated across the triangle, then
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

/// Settings for [`render_globe`]; the default draws flat cells without borders on a
/// 2048 × 1024 image.
#[derive(Clone, Copy, Debug)]
pub struct GlobeOptions<'a> {
    /// Which neighbouring cells get a border line between them; default none.
    pub borders: Borders<'a>,
    /// A scalar layer, one value per vertex slot (e.g. elevation), that shades slopes as lit
    /// from the north-west (strength [`GlobeOptions::hillshade`], 0 for none) and that
    /// [`Shading::Mapped`] colours; default none.
    pub relief: Option<&'a [f32]>,
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
    /// Strength of the hillshading of [`GlobeOptions::relief`], `0..=16`, default
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

impl Default for GlobeOptions<'_> {
    fn default() -> Self {
        Self {
            borders: Borders::None,
            relief: None,
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
/// `border_width / 2` pixels of a bisector between two cells that [`GlobeOptions::borders`]
/// separates, and is Lambert-shaded, then hillshaded by [`GlobeOptions::relief`] when given.
/// Positions are projected onto the unit sphere (only directions matter), so relief does not
/// distort the picture.
///
/// The mesh should be a Delaunay triangulation of the sphere (as the world's mesh is); on other
/// meshes the greedy walk may stop at a site that is only locally nearest.
///
/// # Errors
/// [`ExportError::EmptyMesh`], [`ExportError::LengthMismatch`] or
/// [`ExportError::NonFinitePosition`] for bad inputs; [`ExportError::LengthMismatch`] or
/// [`ExportError::NonFiniteValue`] for a bad `relief`; [`ExportError::InvalidOption`] for a
/// size, sample count, border width, margin or hillshade strength out of range, or
/// [`Shading::Mapped`] without `relief`; the errors of [`Borders`].
///
/// ```
/// use glam::Vec3;
/// use export::render::{Borders, GlobeOptions, Shading, render_globe};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let colors = [[200, 60, 60], [60, 200, 60], [60, 60, 200], [200, 200, 60], [240; 3], [90; 3]];
/// let regions = [0, 1, 0, 1, 2, 2];
/// let opts = GlobeOptions { width: 256, height: 128, borders: Borders::Regions(&regions), ..Default::default() };
/// let img = render_globe(&mesh, &pos, &colors, &opts)?;
/// assert_eq!((img.width, img.height), (256, 128));
/// // Smooth colours, hillshaded by a scalar layer.
/// let elevation: Vec<f32> = pos.iter().map(|p| p.x).collect();
/// let opts = GlobeOptions {
///     width: 128,
///     height: 64,
///     shading: Shading::Interpolated,
///     relief: Some(&elevation),
///     ..Default::default()
/// };
/// assert_eq!(render_globe(&mesh, &pos, &colors, &opts)?.width, 128);
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn render_globe(
    mesh: &impl Topology,
    positions: &[Vec3],
    colors: &[[u8; 3]],
    options: &GlobeOptions<'_>,
) -> Result<Image, ExportError> {
    check_inputs(mesh, positions, Some(colors))?;
    let mapped = check_options(mesh, options)?;
    let layout = GlobeLayout::new(options)?;
    let rule = border_rule(mesh, options.borders)?;
    let dirs = FaceWalk::unit_dirs(positions);
    let interpolated = options.shading != Shading::Flat;
    let faces = interpolated.then(|| FaceWalk::new(mesh, dirs.clone()));
    let shade = match options.relief {
        Some(values) if options.hillshade > 0.0 => Some(Hillshade::new(
            &vertex_gradients(mesh, &dirs, values),
            &dirs,
            options.hillshade,
            Vec3A::from(options.up.try_normalize().unwrap_or(layout.up)),
        )),
        _ => None,
    };
    let sites = Sites::new(mesh, dirs, &*rule);
    drop(rule);
    let lut = srgb_to_linear_table();
    let painter = Painter {
        layout,
        sites,
        faces,
        shade,
        mapped,
        lin: colors.iter().map(|&c| to_linear(&lut, c)).collect(),
        border_lin: to_linear(&lut, options.border_color),
        bg: to_linear(&lut, options.background),
        light: options.light.try_normalize().unwrap_or(Vec3::Z),
        ambient: options.ambient.clamp(0.0, 1.0),
        half_border: 0.5 * options.border_width / layout.radius,
        samples: options.samples,
        lut,
    };
    let w = options.width;
    let mut img = Image::new(w, options.height, options.background);
    par_bands(
        &mut img.rgb,
        w,
        thread_count(options.threads),
        &|y0, rows| painter.band(w, y0, rows),
    );
    Ok(img)
}

/// Checks the options against the mesh; returns the mapped colours of [`Shading::Mapped`].
fn check_options<'a>(
    mesh: &impl Topology,
    options: &GlobeOptions<'a>,
) -> Result<Option<(Scaled, &'a [f32])>, ExportError> {
    let bad = |name, reason| Err(ExportError::InvalidOption { name, reason });
    if let Some(values) = options.relief {
        check_values("hillshade", mesh, values)?;
    }
    let mapped = match (options.shading, options.relief) {
        (Shading::Mapped { map, range }, Some(values)) => {
            Some((Scaled::new(&map, range, values), values))
        }
        (Shading::Mapped { .. }, None) => {
            return bad(
                "shading",
                "Mapped colours the scalar layer: set GlobeOptions::relief",
            );
        }
        _ => None,
    };
    if !(0.0..=16.0).contains(&options.hillshade) {
        return bad("hillshade", "must be within 0..=16");
    }
    check_size(options.width, options.height)?;
    if options.width < 2 {
        return bad("width", "two hemispheres need at least 2 pixels");
    }
    check_samples(options.samples)?;
    if !(options.border_width.is_finite() && options.border_width >= 0.0) {
        return bad("border_width", "must be finite and not negative");
    }
    if !(0.0..0.5).contains(&options.margin) {
        return bad("margin", "must be within 0..0.5");
    }
    Ok(mapped)
}

/// Everything a sample's colour depends on, resolved once per picture.
struct Painter<'a> {
    layout: GlobeLayout,
    sites: Sites,
    faces: Option<FaceWalk>,
    shade: Option<Hillshade>,
    mapped: Option<(Scaled, &'a [f32])>,
    lin: Vec<Vec3>,
    border_lin: Vec3,
    bg: Vec3,
    light: Vec3,
    ambient: f32,
    half_border: f32,
    samples: u32,
    lut: [f32; 256],
}

impl Painter<'_> {
    /// Renders the rows `y0..` of an image `w` pixels wide into `rows`.
    fn band(&self, w: u32, y0: u32, rows: &mut [u8]) {
        let l = &self.layout;
        let s = self.samples;
        let inv_s = 1.0 / s as f32;
        let weight = 1.0 / (s * s) as f32;
        // Without a border anywhere, skip the nearest-site search that only borders need.
        let draw_borders = self.half_border > 0.0 && self.sites.has_borders();
        // Flat shading and borders need the nearest site; interpolation needs the face.
        let need_site = self.faces.is_none() || draw_borders;
        let face_start = self.faces.as_ref().map_or(0, |f| f.start);
        // Per hemisphere: the site and face of the latest sample, and of the row's first.
        let mut row_hint = [(self.sites.start, face_start); 2];
        for (dy, row) in rows.chunks_mut(3 * w as usize).enumerate() {
            let y = y0 + dy as u32;
            let mut hint = row_hint;
            let mut first = [true; 2];
            for x in 0..w {
                let hemi = usize::from(x >= w / 2);
                let c = l.centers[hemi];
                let (r_h, f_h) = l.bases[hemi];
                let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - c;
                if d.length_squared() > (l.radius + 1.0) * (l.radius + 1.0) {
                    continue; // background, already filled
                }
                let mut acc = Vec3::ZERO;
                for j in 0..s {
                    for i in 0..s {
                        let sx = (x as f32 + (i as f32 + 0.5) * inv_s - c.x) / l.radius;
                        let sy = -(y as f32 + (j as f32 + 0.5) * inv_s - c.y) / l.radius;
                        let r2 = sx * sx + sy * sy;
                        if r2 >= 1.0 {
                            acc += self.bg;
                            continue;
                        }
                        let z = (1.0 - r2).sqrt();
                        let p = Vec3A::from(sx * r_h + sy * l.up + z * f_h);
                        let (mut site, mut face) = hint[hemi];
                        if need_site {
                            site = self.sites.walk(site, p);
                        }
                        let hit = self.faces.as_ref().map(|fw| fw.locate(face, p));
                        if let Some(h) = &hit {
                            face = h.face;
                        }
                        hint[hemi] = (site, face);
                        if first[hemi] {
                            first[hemi] = false;
                            row_hint[hemi] = (site, face);
                        }
                        let border =
                            draw_borders && self.sites.border_distance(site, p) < self.half_border;
                        let base = self.sample(site, hit.as_ref(), border);
                        let lambert = Vec3::new(sx, sy, z).dot(self.light).max(0.0);
                        acc += base * (self.ambient + (1.0 - self.ambient) * lambert);
                    }
                }
                let o = 3 * x as usize;
                store(&mut row[o..o + 3], acc * weight);
            }
        }
    }

    /// The linear colour of a sample in cell `site` (and face `hit` when interpolating),
    /// hillshaded, before the globe's own Lambert light.
    fn sample(&self, site: u32, hit: Option<&Hit>, border: bool) -> Vec3 {
        let mut base = if border {
            self.border_lin
        } else if let Some(h) = hit {
            match &self.mapped {
                Some((scaled, values)) => {
                    let v: f32 = (0..3)
                        .map(|k| h.weights[k] * values[h.corners[k] as usize])
                        .sum();
                    to_linear(&self.lut, scaled.color(v))
                }
                None => (0..3)
                    .map(|k| h.weights[k] * self.lin[h.corners[k] as usize])
                    .sum(),
            }
        } else {
            self.lin[site as usize]
        };
        if let Some(shade) = &self.shade {
            base *= match hit {
                Some(h) => shade.factor_interpolated(h),
                None => shade.factor_at(site),
            };
        }
        base
    }
}
