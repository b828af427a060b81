//! Equirectangular heightmaps: a scalar layer resampled on a 2:1 latitude/longitude grid and
//! saved as a 16-bit greyscale PNG, the format terrain tools and game engines import.
//!
//! Frame (the Fibonacci sphere's): north is `+Y`; longitude 0 is `+Z` and longitude grows
//! eastwards, towards `+X`. Pixel `(x, y)` samples the direction at the pixel's centre,
//! latitude `90° − (y + ½)·180°/height` and longitude `−180° + (x + ½)·360°/width`, so the
//! left and right edges are the antimeridian and the top and bottom rows ring the poles.
//!
//! Each pixel's value is interpolated barycentrically inside the face that contains its
//! direction (the plane of the face's three corners, seen from the centre). The face is found
//! by point location, one walk step or two from the previous pixel's face, rather than by
//! rasterising each face over its latitude/longitude box: every pixel gets exactly one face
//! by construction, and faces that straddle the antimeridian or contain a pole need no
//! special case.

use crate::ExportError;
use crate::common::{check_inputs, check_len, write_file};
use crate::locate::FaceWalk;
use crate::render::check_size;
use glam::{Vec3, Vec3A};
use quadedge::Topology;
use std::path::Path;

/// A grid of values, rows from north to south, `width × height` row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightMap {
    /// Pixels per row (360° of longitude).
    pub width: u32,
    /// Rows (180° of latitude).
    pub height: u32,
    /// `width * height` values, row-major, north row first.
    pub values: Vec<f32>,
}

/// The direction at latitude/longitude (radians) in this module's frame.
pub fn direction(lat: f32, lon: f32) -> Vec3 {
    let (sl, cl) = lat.sin_cos();
    let (so, co) = lon.sin_cos();
    Vec3::new(cl * so, sl, cl * co)
}

/// Resamples `values` (one per vertex slot) on a `width × height` equirectangular grid.
///
/// `mesh` must be closed (a whole sphere); `positions` give the vertices' directions (their
/// lengths are ignored, so relief does not shift the map). `width` must be `2 * height`.
///
/// # Errors
/// [`ExportError::InvalidOption`] when `width != 2 * height`, a side is 0, or the grid has
/// more than 2^28 pixels (checked before anything is allocated);
/// [`ExportError::EmptyMesh`], [`ExportError::OpenMesh`], [`ExportError::LengthMismatch`]
/// for `positions` or `values` not one per vertex slot, [`ExportError::NonFinitePosition`],
/// [`ExportError::NonFiniteValue`] for a NaN or infinite value on a live vertex.
///
/// ```
/// use glam::Vec3;
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let height: Vec<f32> = pos.iter().map(|p| p.y).collect(); // 1 at the north pole
/// let map = export::heightmap::equirectangular(&mesh, &pos, &height, 16, 8)?;
/// // Near the poles (interpolated on the flat faces, so a little below 1 in size).
/// assert!(map.values[0] > 0.8 && map.values[16 * 8 - 1] < -0.8);
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn equirectangular(
    mesh: &impl Topology,
    positions: &[Vec3],
    values: &[f32],
    width: u32,
    height: u32,
) -> Result<HeightMap, ExportError> {
    check_size(width, height)?;
    if u64::from(width) != 2 * u64::from(height) {
        return Err(ExportError::InvalidOption {
            name: "width/height",
            reason: "an equirectangular map is twice as wide as it is high",
        });
    }
    check_inputs(mesh, positions, None)?;
    check_values("values", mesh, values)?;
    if !mesh.is_closed() {
        return Err(ExportError::OpenMesh);
    }
    let walk = FaceWalk::new(mesh, FaceWalk::unit_dirs(positions));
    let (w, h) = (width as usize, height as usize);
    let lon: Vec<(f32, f32)> = (0..w)
        .map(|x| {
            let l = std::f64::consts::TAU * ((x as f64 + 0.5) / w as f64) - std::f64::consts::PI;
            let (s, c) = l.sin_cos();
            (s as f32, c as f32)
        })
        .collect();
    let mut out = vec![0.0f32; w * h];
    let mut row_hint = walk.start;
    for (y, row) in out.chunks_exact_mut(w).enumerate() {
        let lat =
            std::f64::consts::FRAC_PI_2 - std::f64::consts::PI * ((y as f64 + 0.5) / h as f64);
        let (sl, cl) = lat.sin_cos();
        let (sl, cl) = (sl as f32, cl as f32);
        let mut hint = row_hint;
        for (x, (px, &(so, co))) in row.iter_mut().zip(&lon).enumerate() {
            let p = Vec3A::new(cl * so, sl, cl * co);
            let hit = walk.locate(hint, p);
            hint = hit.face;
            if x == 0 {
                row_hint = hit.face;
            }
            *px = (0..3)
                .map(|k| hit.weights[k] * values[hit.corners[k] as usize])
                .sum();
        }
    }
    Ok(HeightMap {
        width,
        height,
        values: out,
    })
}

/// Checks a per-vertex scalar array: one entry per vertex slot, finite on live vertices.
pub(crate) fn check_values(
    what: &'static str,
    mesh: &impl Topology,
    values: &[f32],
) -> Result<(), ExportError> {
    check_len(what, mesh, values.len())?;
    match mesh.vertices().find(|v| !values[v.index()].is_finite()) {
        Some(vertex) => Err(ExportError::NonFiniteValue { what, vertex }),
        None => Ok(()),
    }
}

impl HeightMap {
    fn check(&self) -> Result<(), ExportError> {
        check_size(self.width, self.height)?;
        let expected = self.width as usize * self.height as usize;
        if self.values.len() != expected {
            return Err(ExportError::LengthMismatch {
                what: "values",
                expected,
                got: self.values.len(),
            });
        }
        Ok(())
    }

    /// The finite values' minimum and maximum, `None` if there is none.
    pub fn value_range(&self) -> Option<(f32, f32)> {
        let (lo, hi) = self
            .values
            .iter()
            .filter(|v| v.is_finite())
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        (lo <= hi).then_some((lo, hi))
    }

    /// The values quantised to `0..=65535`: `range.0` (or the minimum, when `range` is
    /// `None`) maps to 0 and `range.1` (or the maximum) to 65535, rounded to nearest, values
    /// outside clamped. As in [`colorize`](crate::colormap::colorize): a reversed range
    /// inverts the map, an empty range is widened to one unit centred on it (a flat map is mid
    /// grey), a non-finite range counts as `None`; NaN values give 0.
    ///
    /// ```
    /// let m = export::heightmap::HeightMap { width: 2, height: 1, values: vec![-1.0, 1.0] };
    /// assert_eq!(m.to_u16(None), [0, 65535]);
    /// assert_eq!(m.to_u16(Some((0.0, 1.0))), [0, 65535]);
    /// assert_eq!(m.to_u16(Some((-3.0, 1.0))), [32768, 65535]);
    /// assert_eq!(m.to_u16(Some((0.0, 0.0))), [0, 65535]);
    /// ```
    pub fn to_u16(&self, range: Option<(f32, f32)>) -> Vec<u16> {
        let (lo, hi) = range
            .filter(|(lo, hi)| lo.is_finite() && hi.is_finite())
            .or_else(|| self.value_range())
            .unwrap_or((0.0, 0.0));
        let (mut lo, mut hi) = (lo as f64, hi as f64);
        if lo == hi {
            (lo, hi) = (lo - 0.5, hi + 0.5);
        }
        let scale = 65535.0 / (hi - lo);
        self.values
            .iter()
            // NaN fails the clamp's comparisons and `as` turns it into 0.
            .map(|&v| ((v as f64 - lo) * scale).round().clamp(0.0, 65535.0) as u16)
            .collect()
    }

    /// The map as a 16-bit greyscale PNG in memory. See [`HeightMap::to_u16`] for `range`.
    ///
    /// # Errors
    /// [`ExportError::InvalidOption`] for a zero or absurd size,
    /// [`ExportError::LengthMismatch`] when `values` is not `width * height` long.
    pub fn png16_bytes(&self, range: Option<(f32, f32)>) -> Result<Vec<u8>, ExportError> {
        self.check()?;
        let mut out = Vec::new();
        self.encode(&mut out, range)?;
        Ok(out)
    }

    /// Writes the map as a 16-bit greyscale PNG file (via a temporary sibling and a rename).
    ///
    /// # Errors
    /// As [`HeightMap::png16_bytes`], and the file errors of [`Image::save_png`](crate::Image::save_png).
    pub fn save_png16(
        &self,
        path: impl AsRef<Path>,
        range: Option<(f32, f32)>,
    ) -> Result<(), ExportError> {
        self.check()?;
        write_file(path.as_ref(), |w| self.encode(w, range))
    }

    fn encode<W: std::io::Write>(
        &self,
        w: W,
        range: Option<(f32, f32)>,
    ) -> Result<(), ExportError> {
        let samples = self.to_u16(range);
        let mut bytes = Vec::with_capacity(2 * samples.len());
        for s in samples {
            bytes.extend_from_slice(&s.to_be_bytes()); // PNG samples are big-endian
        }
        crate::image::encode_png(
            w,
            self.width,
            self.height,
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            &bytes,
        )
    }
}
