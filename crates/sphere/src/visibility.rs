//! The one predicate of the spherical hull: does a point see a face (lie beyond its plane,
//! inside its circumcircle on the sphere)? Exact, on the input coordinates.

use delaunay::predicates::orient3d_exact as orient;
use glam::DVec3;

/// Positive when `p` lies strictly beyond the plane of face `(a, b, c)` (counter-clockwise seen
/// from outside): `p` sees the face, i.e. lies inside its circumcircle on the sphere. Zero when
/// the four points are coplanar (co-circular). Exact sign.
#[inline(always)]
pub(crate) fn outside(a: [f64; 3], b: [f64; 3], c: [f64; 3], p: [f64; 3]) -> f64 {
    -orient(a, b, c, p)
}

/// [`outside`] on glam vectors.
#[inline]
pub(crate) fn outside_v(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> f64 {
    outside(a.to_array(), b.to_array(), c.to_array(), p.to_array())
}
