//! The two exact planar predicates of the triangulator, with an inlined floating-point filter.
//!
//! Each returns the plain determinant when its magnitude exceeds Shewchuk's worst-case
//! rounding bound for that determinant (almost every call), and Shewchuk's adaptive exact
//! evaluation (crate `robust`) otherwise, so the sign is always exact. Keeping the filter
//! inline matters: the triangulator makes a few of these tests per point, and an out-of-line
//! call for each costs more than the test.
//!
//! Exactness holds while products of four coordinate differences neither overflow nor
//! underflow: [`crate::triangulate`] admits coordinates that are `0` or of magnitude within
//! `1e-40 ..= 1e30`, so a nonzero difference is at least about `1e-56` and a product of four
//! stays far inside `f64`.

use glam::DVec2;
use robust::{Coord, incircle, orient2d};

/// `ε = 2⁻⁵³`, the unit roundoff.
const EPS: f64 = 1.110_223_024_625_156_5e-16;
/// Shewchuk's `ccwerrboundA = (3 + 16ε)ε`.
const ORIENT_BOUND: f64 = (3.0 + 16.0 * EPS) * EPS;
/// Shewchuk's `iccerrboundA = (10 + 96ε)ε`.
const INCIRCLE_BOUND: f64 = (10.0 + 96.0 * EPS) * EPS;

#[inline(always)]
fn c(p: DVec2) -> Coord<f64> {
    Coord { x: p.x, y: p.y }
}

/// Positive when `a, b, c` turn counter-clockwise (`c` left of `a → b`), negative clockwise,
/// zero when collinear. Exact sign.
#[inline(always)]
pub(crate) fn orient(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let left = (a.x - p.x) * (b.y - p.y);
    let right = (a.y - p.y) * (b.x - p.x);
    let det = left - right;
    let bound = ORIENT_BOUND * (left.abs() + right.abs());
    if det > bound || -det > bound {
        det
    } else {
        orient2d(c(a), c(b), c(p))
    }
}

/// Positive when `d` lies strictly inside the circumcircle of the counter-clockwise triangle
/// `a, b, c`, negative outside, zero when the four points are co-circular. Exact sign.
#[inline(always)]
pub(crate) fn in_circle(a: DVec2, b: DVec2, cc: DVec2, d: DVec2) -> f64 {
    let (adx, ady) = (a.x - d.x, a.y - d.y);
    let (bdx, bdy) = (b.x - d.x, b.y - d.y);
    let (cdx, cdy) = (cc.x - d.x, cc.y - d.y);
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
    let bound = INCIRCLE_BOUND * permanent;
    if det > bound || -det > bound {
        det
    } else {
        incircle(c(a), c(b), c(cc), c(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filtered signs equal the exact ones, also where the plain determinant rounds wrong.
    #[test]
    fn filtered_signs_are_exact() {
        let mut rng = testkit::Rng::new(5);
        let mut pt = |scale: f64| DVec2::new(rng.unit_f64() * scale, rng.unit_f64() * scale);
        for _ in 0..20_000 {
            let (a, b, p, d) = (pt(1.0), pt(1.0), pt(1.0), pt(1.0));
            assert_eq!(
                orient(a, b, p).signum(),
                orient2d(c(a), c(b), c(p)).signum()
            );
            assert_eq!(
                in_circle(a, b, p, d).signum(),
                incircle(c(a), c(b), c(p), c(d)).signum()
            );
        }
        // Nearly collinear along a long diagonal, nearly co-circular on the unit circle.
        for k in 1..200 {
            let t = k as f64 * 0.37;
            let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(12.0, 12.0));
            let p = DVec2::new(t, t + f64::EPSILON * t);
            assert_eq!(
                orient(a, b, p).signum(),
                orient2d(c(a), c(b), c(p)).signum()
            );
            let on = |x: f64| DVec2::new(x.cos(), x.sin());
            let d = on(t) * (1.0 + f64::EPSILON);
            let (a, b, p) = (on(0.1), on(2.0), on(4.0));
            assert_eq!(
                in_circle(a, b, p, d).signum(),
                incircle(c(a), c(b), c(p), c(d)).signum()
            );
        }
        let z = DVec2::ZERO;
        assert_eq!(orient(z, DVec2::X, DVec2::new(3.0, 0.0)), 0.0);
        assert_eq!(in_circle(DVec2::X, DVec2::Y, -DVec2::X, -DVec2::Y), 0.0);
    }
}
