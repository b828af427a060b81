//! The two planar predicates of the triangulator: `delaunay`'s exact filtered predicates
//! (Shewchuk's bound inline, the adaptive evaluation only when the plain determinant is too
//! close to zero) on `DVec2`.
//!
//! Exactness holds while products of four coordinate differences neither overflow nor
//! underflow: [`crate::triangulate`] admits coordinates that are `0` or of magnitude within
//! `1e-40 ..= 1e30`, so a nonzero difference is at least about `1e-56` and a product of four
//! stays far inside `f64`.

use delaunay::predicates::{incircle_exact, orient2d_exact};
use glam::DVec2;

/// Positive when `a, b, c` turn counter-clockwise (`c` left of `a → b`), negative clockwise,
/// zero when collinear. Exact sign.
#[inline(always)]
pub(crate) fn orient(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    orient2d_exact(a.to_array(), b.to_array(), p.to_array())
}

/// Positive when `d` lies strictly inside the circumcircle of the counter-clockwise triangle
/// `a, b, c`, negative outside, zero when the four points are co-circular. Exact sign.
#[inline(always)]
pub(crate) fn in_circle(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    incircle_exact(a.to_array(), b.to_array(), c.to_array(), d.to_array())
}
