//! Dual centres: which point of each triangle stands for it in the dual mesh.
//!
//! The Voronoi vertex of a face is its circumcentre, which falls outside obtuse triangles, so
//! thin triangles make ragged, self-crossing cells. Red Blob's map generator uses the centroid
//! instead (always inside, rounder cells) or a blend of the two. The same mesh serves every
//! choice: only the point per face changes (Red Blob's `t_coords`).
//!
//! [`dual_points`] computes the point of every face on the sphere; the plane's counterpart is
//! `plane::dual_points`. [`geometry::voronoi_areas`](crate::geometry::voronoi_areas) sums
//! cells around any choice ([`CellOptions`]): on a closed mesh they still tile the sphere.

use crate::SphereError;
use crate::geometry::circumcenter;
use glam::DVec3;
use quadedge::Topology;

/// The point that stands for a triangle in the dual mesh.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum DualCentre {
    /// The circumcentre: the true Voronoi vertex, equidistant from the three corners; outside
    /// an obtuse triangle.
    #[default]
    Circumcentre,
    /// The centroid (on the sphere: the corners' mean pushed back onto the sphere): always
    /// strictly inside the triangle, rounder cells, but no longer equidistant.
    Centroid,
    /// `Blend(t)`, `t` in `0.0..=1.0`: from the centroid towards the circumcentre by `t` of
    /// the way, where "the way" stops at the triangle's boundary: the circumcentre pulled
    /// inside its triangle. `0` is the centroid; `t < 1` lies strictly inside; `1` is the
    /// circumcentre where it lies inside and its projection on the boundary where it does not.
    Blend(f64),
}

impl DualCentre {
    /// Checks the blend weight.
    ///
    /// # Errors
    /// [`SphereError::InvalidBlend`] for a `Blend` weight that is not within `0.0..=1.0`.
    pub fn validate(self) -> Result<Self, SphereError> {
        match self {
            DualCentre::Blend(t) if !(0.0..=1.0).contains(&t) => Err(SphereError::InvalidBlend(t)),
            _ => Ok(self),
        }
    }
}

/// How Voronoi cells are drawn and measured: where each face's corner of the cells goes.
/// `Default` puts it at the circumcentre (the true Voronoi vertex). Checked when built, so the
/// functions that take it ([`geometry::voronoi_areas`](crate::geometry::voronoi_areas),
/// `plane::voronoi_cells`) cannot fail on it.
///
/// ```
/// use sphere::dual::{CellOptions, DualCentre};
/// assert_eq!(CellOptions::default().centre(), DualCentre::Circumcentre);
/// assert!(CellOptions::with_centre(DualCentre::Blend(0.5)).is_ok());
/// assert!(CellOptions::with_centre(DualCentre::Blend(1.5)).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CellOptions {
    centre: DualCentre,
}

impl CellOptions {
    /// Cell corners at `centre` of each face: the centroid or a blend gives rounder cells
    /// around thin triangles, and the cells of any choice still tile the surface.
    ///
    /// # Errors
    /// [`SphereError::InvalidBlend`] for a `Blend` weight that is not within `0.0..=1.0`.
    pub fn with_centre(centre: DualCentre) -> Result<Self, SphereError> {
        Ok(Self {
            centre: centre.validate()?,
        })
    }

    /// Where the cells' corners go.
    pub fn centre(&self) -> DualCentre {
        self.centre
    }
}

/// The dual point of the counter-clockwise spherical triangle `a, b, c` on the sphere of the
/// given radius. A blend weight outside `0.0..=1.0` is clamped into it (NaN reads as 0);
/// [`dual_points`] refuses such weights instead.
///
/// ```
/// use glam::DVec3;
/// use sphere::dual::{DualCentre, dual_point};
/// // An obtuse triangle: its circumcentre lies outside, the blend is pulled back in.
/// let (a, b, c) = (DVec3::new(1.0, -0.3, 0.0), DVec3::new(1.0, 0.3, 0.0), DVec3::new(1.0, 0.0, 0.05));
/// let [a, b, c] = [a, b, c].map(|p| p.normalize());
/// let inside = |p: DVec3| [(a, b), (b, c), (c, a)].iter().all(|(u, v)| u.cross(*v).dot(p) > 0.0);
/// assert!(!inside(dual_point(a, b, c, 1.0, DualCentre::Circumcentre)));
/// assert!(inside(dual_point(a, b, c, 1.0, DualCentre::Centroid)));
/// assert!(inside(dual_point(a, b, c, 1.0, DualCentre::Blend(0.9))));
/// ```
#[inline]
pub fn dual_point(a: DVec3, b: DVec3, c: DVec3, radius: f64, choice: DualCentre) -> DVec3 {
    let g = (a + b + c).normalize();
    match choice {
        DualCentre::Circumcentre => circumcenter(a, b, c, radius),
        DualCentre::Centroid => g * radius,
        DualCentre::Blend(t) => {
            let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
            let q = circumcenter(a, b, c, 1.0);
            if !q.is_finite() {
                return g * radius;
            }
            // Along the great circle from g to q (chord parameter s): the first edge plane it
            // crosses. An edge (u, v) keeps p inside while (u × v) · p > 0.
            let mut exit = 1.0f64;
            for (u, v) in [(a, b), (b, c), (c, a)] {
                let n = u.cross(v);
                let (ng, nq) = (n.dot(g), n.dot(q));
                if nq < 0.0 && ng > 0.0 {
                    exit = exit.min(ng / (ng - nq));
                }
            }
            (g + (t * exit) * (q - g)).normalize() * radius
        }
    }
}

/// The dual point of every face, indexed by face id over [`Topology::face_slots`] (removed
/// faces get `DVec3::NAN`): the data of a face layer (Red Blob's `t_coords`). Each lies on the
/// sphere through the face's corners (radius: their mean length).
///
/// # Errors
/// [`SphereError::InvalidBlend`] for a bad blend weight.
///
/// # Panics
/// When `positions` is shorter than the mesh's vertex slots.
///
/// ```
/// use sphere::dual::{DualCentre, dual_points};
/// let (mesh, pos) = sphere::fibonacci_sphere(500, 1.0, 0.3, 2).unwrap();
/// let cc = dual_points(&mesh, &pos, DualCentre::Circumcentre).unwrap();
/// assert_eq!(cc, sphere::geometry::circumcenters(&mesh, &pos));
/// assert!(dual_points(&mesh, &pos, DualCentre::Blend(1.5)).is_err());
/// ```
pub fn dual_points(
    mesh: &impl Topology,
    positions: &[DVec3],
    choice: DualCentre,
) -> Result<Vec<DVec3>, SphereError> {
    Ok(points_at(mesh, positions, choice.validate()?))
}

/// [`dual_points`] for a checked choice.
pub(crate) fn points_at(
    mesh: &impl Topology,
    positions: &[DVec3],
    choice: DualCentre,
) -> Vec<DVec3> {
    assert!(
        positions.len() >= mesh.vertex_slots(),
        "positions ({}) must cover every vertex slot ({})",
        positions.len(),
        mesh.vertex_slots()
    );
    let mut out = vec![DVec3::NAN; mesh.face_slots()];
    for f in mesh.faces() {
        let [a, b, c] = mesh.face_vertices(f).map(|v| positions[v.index()]);
        let r = (a.length() + b.length() + c.length()) / 3.0;
        out[f.index()] = dual_point(a, b, c, r, choice);
    }
    out
}
