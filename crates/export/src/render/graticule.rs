//! Lines on the pictures: where a direction lands on the globe's two discs or on an
//! equirectangular map, a graticule of meridians and parallels, and polylines (rivers,
//! borders) with their own widths.

use super::draw::Painter;
use super::globe::GlobeOptions;
use super::raster::frame;
use crate::{ExportError, Image};
use glam::{Vec2, Vec3};

/// How directions map to pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    /// The two orthographic discs of [`render_globe`](super::render_globe).
    Globe(GlobeLayout),
    /// A flat map as [`crate::map::render_cells`] draws it: `bounds` `[min_x, min_y, max_x,
    /// max_y]` over `width × height` pixels, `y` up; points are `(x, y, _)`.
    Plane {
        /// The map's bounds.
        bounds: [f64; 4],
        /// Image width in pixels.
        width: u32,
        /// Image height in pixels.
        height: u32,
    },
    /// The equirectangular frame of [`crate::heightmap`], `width × height` pixels.
    Equirect {
        /// Pixels across 360° of longitude.
        width: u32,
        /// Pixels across 180° of latitude.
        height: u32,
    },
}

/// Where the globe's two discs lie in its image and which way they look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlobeLayout {
    pub(crate) centers: [Vec2; 2],
    pub(crate) radius: f32,
    /// `(right, forward)` of each disc.
    pub(crate) bases: [(Vec3, Vec3); 2],
    pub(crate) up: Vec3,
}

impl GlobeLayout {
    /// The layout [`render_globe`](super::render_globe) uses for `options`.
    ///
    /// # Errors
    /// [`ExportError::InvalidOption`] for a zero or non-finite view direction.
    pub fn new(options: &GlobeOptions<'_>) -> Result<Self, ExportError> {
        let (right, up, fwd) = frame(options.view, options.up)?;
        let (w, h) = (options.width as f32, options.height as f32);
        let radius = (w / 2.0).min(h) / 2.0 * (1.0 - 2.0 * options.margin);
        Ok(Self {
            centers: [
                Vec2::new(w / 4.0, h / 2.0),
                Vec2::new(3.0 * w / 4.0, h / 2.0),
            ],
            radius,
            // The back view: turned half way round the up axis.
            bases: [(right, fwd), (-right, -fwd)],
            up,
        })
    }

    /// Kilometres per pixel at the centre of a disc for a globe of `radius_km`.
    pub fn km_per_pixel(&self, radius_km: f64) -> f64 {
        radius_km / f64::from(self.radius)
    }
}

impl Projection {
    /// The disc (0 left, 1 right; always 0 on a map) and pixel position of direction `d`,
    /// `None` when `d` is on the far side of both discs' views or is zero.
    pub fn project(&self, d: Vec3) -> Option<(usize, Vec2)> {
        if let Projection::Plane {
            bounds,
            width,
            height,
        } = self
        {
            let [x0, y0, x1, y1] = bounds.map(|b| b as f32);
            let x = (d.x - x0) / (x1 - x0) * *width as f32;
            let y = (y1 - d.y) / (y1 - y0) * *height as f32;
            return (x.is_finite() && y.is_finite()).then_some((0, Vec2::new(x, y)));
        }
        let d = d.try_normalize()?;
        match self {
            Projection::Plane { .. } => None,
            Projection::Globe(g) => (0..2).find_map(|k| {
                let (r, f) = g.bases[k];
                (d.dot(f) > 0.0).then(|| {
                    (
                        k,
                        g.centers[k] + g.radius * Vec2::new(d.dot(r), -d.dot(g.up)),
                    )
                })
            }),
            Projection::Equirect { width, height } => {
                let lat = d.y.clamp(-1.0, 1.0).asin();
                let lon = d.x.atan2(d.z);
                let x = (lon / std::f32::consts::TAU + 0.5) * *width as f32;
                let y = (0.5 - lat / std::f32::consts::PI) * *height as f32;
                Some((0, Vec2::new(x, y)))
            }
        }
    }

    /// Does a segment between these two projected points cross a seam (the map's
    /// antimeridian, a disc's rim or the gap between discs)?
    fn breaks(&self, a: (usize, Vec2), b: (usize, Vec2)) -> bool {
        match self {
            Projection::Globe(g) => a.0 != b.0 || (a.1 - b.1).length() > 0.25 * g.radius,
            Projection::Equirect { width, .. } => (a.1.x - b.1.x).abs() > *width as f32 / 2.0,
            Projection::Plane { .. } => false,
        }
    }
}

/// One polyline on the sphere: directions from the centre, and a width in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polyline<'a> {
    /// The points, in order.
    pub points: &'a [Vec3],
    /// Stroke width (pixels).
    pub width: f32,
}

/// Draws `lines` in `color` (opacity `alpha`), each segment split where it crosses a seam.
/// Points that are not finite are skipped.
pub fn draw_polylines(
    img: &mut Image,
    proj: &Projection,
    lines: &[Polyline<'_>],
    color: [u8; 3],
    alpha: f32,
) {
    let mut p = Painter::new(img);
    for line in lines {
        if !(line.width.is_finite() && line.width > 0.0) {
            continue;
        }
        let mut prev: Option<(usize, Vec2)> = None;
        for &q in line.points {
            let cur = if q.is_finite() { proj.project(q) } else { None };
            if let (Some(a), Some(b)) = (prev, cur)
                && !proj.breaks(a, b)
            {
                p.segment(a.1, b.1, line.width, color, alpha);
            }
            prev = cur;
        }
    }
}

/// Draws separate segments, each with its own width (rivers whose width follows the
/// discharge along them): [`draw_polylines`] with one two-point line per segment.
pub fn draw_segments(
    img: &mut Image,
    proj: &Projection,
    segments: &[([Vec3; 2], f32)],
    color: [u8; 3],
    alpha: f32,
) {
    let lines: Vec<Polyline<'_>> = segments
        .iter()
        .map(|(p, w)| Polyline {
            points: p,
            width: *w,
        })
        .collect();
    draw_polylines(img, proj, &lines, color, alpha);
}

/// Draws meridians and parallels every `step_deg` degrees (thin, translucent), the equator a
/// little stronger. Nothing for a step outside `1..=90`.
pub fn draw_graticule(img: &mut Image, proj: &Projection, step_deg: u32, color: [u8; 3]) {
    if !(1..=90).contains(&step_deg) {
        return;
    }
    let dir = |lat: f32, lon: f32| crate::heightmap::direction(lat.to_radians(), lon.to_radians());
    let mut lines: Vec<(Vec<Vec3>, f32)> = Vec::new();
    let step = step_deg as i32;
    for lat in (-90 + step..90)
        .step_by(step_deg as usize)
        .filter(|l| l % step == 0)
    {
        let pts = (0..=360)
            .map(|lon| dir(lat as f32, lon as f32 - 180.0))
            .collect();
        lines.push((pts, if lat == 0 { 0.45 } else { 0.28 }));
    }
    for lon in (-180..180).step_by(step_deg as usize) {
        let pts = (-90 * 4..=90 * 4)
            .map(|l| dir(l as f32 / 4.0, lon as f32))
            .collect();
        lines.push((pts, 0.28));
    }
    for (pts, alpha) in &lines {
        draw_polylines(
            img,
            proj,
            &[Polyline {
                points: pts,
                width: 1.0,
            }],
            color,
            *alpha,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_land_where_the_renderers_put_them() {
        let o = GlobeOptions {
            width: 400,
            height: 200,
            ..Default::default()
        };
        let g = Projection::Globe(GlobeLayout::new(&o).unwrap());
        // The view direction is the centre of the left disc; its opposite, of the right.
        let (k, p) = g.project(Vec3::Z).unwrap();
        assert_eq!(k, 0);
        assert!((p - Vec2::new(100.0, 100.0)).length() < 1e-3);
        let (k, p) = g.project(-Vec3::Z).unwrap();
        assert_eq!(k, 1);
        assert!((p - Vec2::new(300.0, 100.0)).length() < 1e-3);
        // North is up.
        assert!(g.project(Vec3::new(0.0, 1.0, 1.0)).unwrap().1.y < 100.0);
        let m = Projection::Equirect {
            width: 360,
            height: 180,
        };
        let (_, p) = m.project(Vec3::Z).unwrap();
        assert!((p - Vec2::new(180.0, 90.0)).length() < 1e-3);
        let (_, p) = m.project(Vec3::X).unwrap();
        assert!((p.x - 270.0).abs() < 1e-3, "east is right: {p}");
        assert!(m.project(Vec3::ZERO).is_none());
    }

    #[test]
    fn graticule_and_lines_draw_and_wrap() {
        let mut img = Image::new(360, 180, [0, 0, 0]);
        let m = Projection::Equirect {
            width: 360,
            height: 180,
        };
        draw_graticule(&mut img, &m, 30, [255, 255, 255]);
        // The equator row is lit, a point between lines is not.
        assert!(img.pixel(45, 90).unwrap()[0] > 0 || img.pixel(45, 89).unwrap()[0] > 0);
        assert_eq!(img.pixel(45, 45), Some([0, 0, 0]));
        // A line across the antimeridian is not drawn across the whole map.
        let mut img = Image::new(360, 180, [0, 0, 0]);
        let pts = [
            crate::heightmap::direction(0.0, 3.1),
            crate::heightmap::direction(0.0, -3.1),
        ];
        draw_polylines(
            &mut img,
            &m,
            &[Polyline {
                points: &pts,
                width: 2.0,
            }],
            [255, 0, 0],
            1.0,
        );
        assert_eq!(img.pixel(180, 90), Some([0, 0, 0]));
    }
}
