//! Exact geometric predicates and the surfaces they decide on.
//!
//! Every topological decision in this crate is the sign of one of two predicates, evaluated
//! exactly on the input coordinates with Shewchuk's adaptive arithmetic (crate `robust`) behind
//! a floating-point filter: the plain determinant is returned when its magnitude exceeds the
//! worst-case rounding error (almost always), the exact evaluation otherwise.
//!
//! Exactness holds while intermediate products neither overflow nor underflow: coordinates of
//! magnitude within about `1e-70 ..= 1e70` (products of four differences stay inside `f64`).
//! Callers with points outside that range scale them by a power of two first (exact).

use glam::DVec3;
use robust::{Coord, Coord3D, incircle, orient2d, orient3d};

/// Shewchuk's `o3derrboundA = (7 + 56ε)ε` with `ε = 2⁻⁵³`, rounded up.
const O3D_ERR: f64 = 7.771_561_172_376_103e-16;

#[inline(always)]
fn c3(p: [f64; 3]) -> Coord3D<f64> {
    Coord3D {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

/// Exact `orient3d` sign with an inlined error filter: positive when `d` lies below the plane
/// of `a, b, c` (counter-clockwise seen from above), zero when the four points are coplanar.
///
/// The filter decides well over 99% of calls in floating point; an out-of-line call into
/// `robust` for every call costs about a third of a triangulation, hence the inlining.
#[inline(always)]
pub fn orient3d_exact(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> f64 {
    let (adx, ady, adz) = (a[0] - d[0], a[1] - d[1], a[2] - d[2]);
    let (bdx, bdy, bdz) = (b[0] - d[0], b[1] - d[1], b[2] - d[2]);
    let (cdx, cdy, cdz) = (c[0] - d[0], c[1] - d[1], c[2] - d[2]);
    let bdxcdy = bdx * cdy;
    let cdxbdy = cdx * bdy;
    let cdxady = cdx * ady;
    let adxcdy = adx * cdy;
    let adxbdy = adx * bdy;
    let bdxady = bdx * ady;
    let det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * adz.abs()
        + (cdxady.abs() + adxcdy.abs()) * bdz.abs()
        + (adxbdy.abs() + bdxady.abs()) * cdz.abs();
    let bound = O3D_ERR * (1.0 + 1e-12) * permanent;
    if det > bound || -det > bound {
        det
    } else {
        orient3d(c3(a), c3(b), c3(c), c3(d))
    }
}

/// [`orient3d_exact`] behind a cheaper static filter: `bound` (from [`static_orient3d_bound`])
/// caps the determinant's rounding error for every point inside a known bounding cube, so most
/// calls skip the per-call error bound. Same exact sign.
#[inline(always)]
pub fn orient3d_static(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3], bound: f64) -> f64 {
    let (adx, ady, adz) = (a[0] - d[0], a[1] - d[1], a[2] - d[2]);
    let (bdx, bdy, bdz) = (b[0] - d[0], b[1] - d[1], b[2] - d[2]);
    let (cdx, cdy, cdz) = (c[0] - d[0], c[1] - d[1], c[2] - d[2]);
    let det = adz * (bdx * cdy - cdx * bdy)
        + bdz * (cdx * ady - adx * cdy)
        + cdz * (adx * bdy - bdx * ady);
    if det > bound || -det > bound {
        det
    } else {
        orient3d_exact(a, b, c, d)
    }
}

/// The static error bound of `orient3d` for points with every coordinate within `±max_abs`:
/// differences are within `2m` and the permanent within `48 m³`; padded by 1% for the rounding
/// of the determinant itself. Infinite (every call takes the per-call filter) when `m` is so far
/// from 1 that the bound itself would over- or underflow.
pub fn static_orient3d_bound(max_abs: f64) -> f64 {
    if (1e-80..=1e80).contains(&max_abs) {
        O3D_ERR * 1.01 * 48.0 * max_abs * max_abs * max_abs
    } else {
        f64::INFINITY
    }
}

/// `ε = 2⁻⁵³`, the unit roundoff.
const EPS: f64 = 1.110_223_024_625_156_5e-16;
/// Shewchuk's `ccwerrboundA = (3 + 16ε)ε`.
const O2D_ERR: f64 = (3.0 + 16.0 * EPS) * EPS;
/// Shewchuk's `iccerrboundA = (10 + 96ε)ε`.
const ICC_ERR: f64 = (10.0 + 96.0 * EPS) * EPS;

#[inline(always)]
fn c2(p: [f64; 2]) -> Coord<f64> {
    Coord { x: p[0], y: p[1] }
}

/// Exact `orient2d` sign with an inlined error filter: positive when `a, b, c` turn
/// counter-clockwise (`c` left of `a → b`), negative clockwise, zero when collinear.
#[inline(always)]
pub fn orient2d_exact(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let left = (a[0] - c[0]) * (b[1] - c[1]);
    let right = (a[1] - c[1]) * (b[0] - c[0]);
    let det = left - right;
    let bound = O2D_ERR * (left.abs() + right.abs());
    if det > bound || -det > bound {
        det
    } else {
        orient2d(c2(a), c2(b), c2(c))
    }
}

/// Exact in-circle sign with an inlined error filter: positive when `d` lies strictly inside
/// the circumcircle of the counter-clockwise triangle `a, b, c`, negative outside, zero when
/// the four points are co-circular.
#[inline(always)]
pub fn incircle_exact(a: [f64; 2], b: [f64; 2], c: [f64; 2], d: [f64; 2]) -> f64 {
    let (adx, ady) = (a[0] - d[0], a[1] - d[1]);
    let (bdx, bdy) = (b[0] - d[0], b[1] - d[1]);
    let (cdx, cdy) = (c[0] - d[0], c[1] - d[1]);
    let bdxcdy = bdx * cdy;
    let cdxbdy = cdx * bdy;
    let alift = adx * adx + ady * ady;
    let cdxady = cdx * ady;
    let adxcdy = adx * cdy;
    let blift = bdx * bdx + bdy * bdy;
    let adxbdy = adx * bdy;
    let bdxady = bdx * ady;
    let clift = cdx * cdx + cdy * cdy;
    let det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * alift
        + (cdxady.abs() + adxcdy.abs()) * blift
        + (adxbdy.abs() + bdxady.abs()) * clift;
    let bound = ICC_ERR * permanent;
    if det > bound || -det > bound {
        det
    } else {
        incircle(c2(a), c2(b), c2(c), c2(d))
    }
}

/// A surface whose Delaunay triangulations this crate maintains: two exact predicates are all
/// the algorithms ask of it.
///
/// Conventions: faces are counter-clockwise seen from outside (the sphere) or from above (the
/// plane, `z` up); positions are [`DVec3`] (the plane reads `x` and `y`). `Sync`: the
/// read-only passes of a large restore test on all cores.
pub trait Surface: Sync {
    /// Positive when `a, b, c` turn counter-clockwise on the surface (a correctly oriented
    /// face, or `c` left of the directed edge `a → b`), negative clockwise (an inverted face),
    /// zero when degenerate (collinear in the plane; on one great circle on the sphere).
    fn orient(&self, a: DVec3, b: DVec3, c: DVec3) -> f64;

    /// Positive when `d` lies strictly inside the circumcircle of the counter-clockwise
    /// triangle `a, b, c`, zero when the four points are co-circular.
    fn in_circle(&self, a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64;

    /// Is the surface closed (every edge has two faces)? Point location never leaves a closed
    /// surface.
    fn is_closed(&self) -> bool;

    /// A key that orders points by their distance from `p` on the surface (smaller is closer);
    /// used for nearest-vertex queries, not for topological decisions.
    fn distance_key(&self, p: DVec3, q: DVec3) -> f64;
}

/// Points on a sphere centred at the origin (any radius; all points on the same sphere).
///
/// On a sphere the circumcircle of `a, b, c` is the plane of the face cut with the sphere, so
/// `in_circle` is `orient3d` of the four points (`d` beyond the face's plane), and a face's
/// orientation is `orient3d(a, b, c, origin)`, the sign of the triple product `a · (b × c)`.
/// Orientation only depends on directions, so it also holds for points not exactly on the
/// sphere; `in_circle` assumes a common sphere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sphere;

impl Surface for Sphere {
    #[inline]
    fn orient(&self, a: DVec3, b: DVec3, c: DVec3) -> f64 {
        orient3d_exact(a.to_array(), b.to_array(), c.to_array(), [0.0; 3])
    }

    #[inline]
    fn in_circle(&self, a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64 {
        -orient3d_exact(a.to_array(), b.to_array(), c.to_array(), d.to_array())
    }

    fn is_closed(&self) -> bool {
        true
    }

    #[inline]
    fn distance_key(&self, p: DVec3, q: DVec3) -> f64 {
        // Minus the cosine of the angle, up to the positive factor |p|.
        -p.dot(q) / q.length()
    }
}

/// Points in the `z = 0` plane (`z` is ignored), faces counter-clockwise seen from `+z`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plane;

impl Surface for Plane {
    #[inline]
    fn orient(&self, a: DVec3, b: DVec3, c: DVec3) -> f64 {
        orient2d_exact([a.x, a.y], [b.x, b.y], [c.x, c.y])
    }

    #[inline]
    fn in_circle(&self, a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64 {
        incircle_exact([a.x, a.y], [b.x, b.y], [c.x, c.y], [d.x, d.y])
    }

    fn is_closed(&self) -> bool {
        false
    }

    #[inline]
    fn distance_key(&self, p: DVec3, q: DVec3) -> f64 {
        (p.x - q.x).powi(2) + (p.y - q.y).powi(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_orientation_and_circle() {
        let s = Sphere;
        assert!(s.orient(DVec3::X, DVec3::Y, DVec3::Z) > 0.0);
        assert!(s.orient(DVec3::Y, DVec3::X, DVec3::Z) < 0.0);
        // On one great circle.
        assert_eq!(s.orient(DVec3::X, DVec3::Y, DVec3::NEG_X), 0.0);
        // The octahedron's square X, Y, -X, -Y is co-circular; the north pole is inside the
        // circumcircle of (X, Y, Z)'s opposite... use a point near the face centre.
        let c = (DVec3::X + DVec3::Y + DVec3::Z).normalize();
        assert!(s.in_circle(DVec3::X, DVec3::Y, DVec3::Z, c) > 0.0);
        assert!(s.in_circle(DVec3::X, DVec3::Y, DVec3::Z, -c) < 0.0);
        assert_eq!(
            s.in_circle(DVec3::X, DVec3::Y, DVec3::NEG_X, DVec3::NEG_Y),
            0.0
        );
    }

    #[test]
    fn exact_where_floats_fail() {
        // Nearly coplanar at a scale where the naive determinant rounds to the wrong sign.
        let a = [0.1, 0.1, 0.1];
        let b = [0.2, 0.2, 0.2 + 1e-17];
        let c = [0.3, 0.3 + 1e-17, 0.3];
        let d = [0.5, 0.5, 0.5];
        let exact = orient3d(c3(a), c3(b), c3(c), c3(d));
        assert_eq!(orient3d_exact(a, b, c, d).signum(), exact.signum());
        let bound = static_orient3d_bound(0.5);
        assert_eq!(orient3d_static(a, b, c, d, bound).signum(), exact.signum());
    }

    #[test]
    fn plane_predicates() {
        let p = Plane;
        let (a, b, c) = (DVec3::ZERO, DVec3::X, DVec3::Y);
        assert!(p.orient(a, b, c) > 0.0);
        assert!(p.in_circle(a, b, c, DVec3::new(0.5, 0.5, 9.0)) > 0.0);
        assert_eq!(p.in_circle(a, b, c, DVec3::new(1.0, 1.0, 0.0)), 0.0);
        assert!(!p.is_closed() && Sphere.is_closed());
    }

    /// The filtered planar signs equal the exact ones, also where the plain determinant
    /// rounds wrong.
    #[test]
    fn filtered_planar_signs_are_exact() {
        let mut rng = testkit::Rng::new(5);
        let mut pt = |scale: f64| [rng.unit_f64() * scale, rng.unit_f64() * scale];
        for _ in 0..20_000 {
            let (a, b, p, d) = (pt(1.0), pt(1.0), pt(1.0), pt(1.0));
            assert_eq!(
                orient2d_exact(a, b, p).signum(),
                orient2d(c2(a), c2(b), c2(p)).signum()
            );
            assert_eq!(
                incircle_exact(a, b, p, d).signum(),
                incircle(c2(a), c2(b), c2(p), c2(d)).signum()
            );
        }
        // Nearly collinear along a long diagonal, nearly co-circular on the unit circle.
        for k in 1..200 {
            let t = k as f64 * 0.37;
            let (a, b) = ([0.5, 0.5], [12.0, 12.0]);
            let p = [t, t + f64::EPSILON * t];
            assert_eq!(
                orient2d_exact(a, b, p).signum(),
                orient2d(c2(a), c2(b), c2(p)).signum()
            );
            let on = |x: f64| [x.cos(), x.sin()];
            let d = on(t).map(|v| v * (1.0 + f64::EPSILON));
            let (a, b, p) = (on(0.1), on(2.0), on(4.0));
            assert_eq!(
                incircle_exact(a, b, p, d).signum(),
                incircle(c2(a), c2(b), c2(p), c2(d)).signum()
            );
        }
        assert_eq!(orient2d_exact([0.0; 2], [1.0, 0.0], [3.0, 0.0]), 0.0);
        assert_eq!(
            incircle_exact([1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]),
            0.0
        );
    }
}
