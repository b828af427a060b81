//! Fibonacci sphere points: the golden-spiral lattice.

use crate::SphereError;
use glam::{DVec3, Vec3};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;
use rayon::prelude::*;

/// `n` points spread evenly over the sphere of `radius` around the origin along the golden
/// spiral, computed in `f64`.
///
/// Point `i` uses the (optionally perturbed) index `ii`:
///
/// ```text
/// golden_angle = 2π (2 − φ)
/// ii = min(i + U(0, perturbation), n − 1)   (ii = i when perturbation == 0)
/// y  = 1 − 2 ii / (n − 1)                    (n = 4: y = 3/4 − ii / 2, see below)
/// r  = sqrt(1 − y²)                          (evaluated as sqrt((1 − y)(1 + y)))
/// θ  = golden_angle · ii
/// p  = radius · (cos θ · r, y, sin θ · r)
/// ```
///
/// The offsets come from a [`Pcg64`] seeded with `seed`, so the same arguments always give the
/// same points; without perturbation the seed is unused. `perturbation` breaks the too-regular
/// look of the lattice and must lie within `0.0..1.0` so that no two indices can
/// collide. `r` is evaluated as `sqrt((1 − y)(1 + y))`, the same value without the cancellation
/// of `1 − y²` near the poles.
///
/// Four points from pole to pole would hold two antipodal points, which puts the centre on
/// their hull; for `n = 4` the latitudes are offset by half a step, a tetrahedron around the
/// centre, so that `fibonacci_sphere(4, ..)` is a valid triangulation of the sphere.
///
/// ```
/// let p = sphere::fibonacci_points(100, 2.0, 0.0, 0).unwrap();
/// assert_eq!(p.len(), 100);
/// assert_eq!(p[0], glam::DVec3::new(0.0, 2.0, 0.0));
/// assert!(p.iter().all(|q| (q.length() - 2.0).abs() < 1e-12));
/// ```
pub fn fibonacci_points(
    n: usize,
    radius: f64,
    perturbation: f64,
    seed: u64,
) -> Result<Vec<DVec3>, SphereError> {
    if n < 4 {
        return Err(SphereError::TooFewPoints(n));
    }
    if n > crate::MAX_POINTS {
        return Err(SphereError::TooManyPoints(n));
    }
    if !(RADII.contains(&radius)) {
        return Err(SphereError::InvalidRadius(radius));
    }
    if !(0.0..1.0).contains(&perturbation) {
        return Err(SphereError::InvalidPerturbation(perturbation));
    }
    let golden_angle = 2.0 * core::f64::consts::PI * (2.0 - golden_ratio());
    let last = (n - 1) as f64;
    let (top, step) = latitudes(n);
    let mut out = quadedge::internals::try_vec(n)?;
    if perturbation == 0.0 {
        // Each point from its index alone: on all cores, the same bits.
        out.resize(n, DVec3::ZERO);
        out.par_chunks_mut(1 << 14)
            .enumerate()
            .for_each(|(c, chunk)| {
                for (k, p) in chunk.iter_mut().enumerate() {
                    let ii = ((c << 14) + k) as f64;
                    let y = top - step * ii;
                    let r = ((1.0 - y) * (1.0 + y)).max(0.0).sqrt();
                    let (s, co) = (golden_angle * ii).sin_cos();
                    *p = DVec3::new(co * r, y, s * r) * radius;
                }
            });
        return Ok(out);
    }
    let mut rng = Pcg64::seed_from_u64(seed);
    for i in 0..n {
        let ii = if perturbation > 0.0 {
            // 53 random bits → uniform in [0, 1).
            let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
            (i as f64 + u * perturbation).min(last)
        } else {
            i as f64
        };
        let y = top - step * ii;
        let r = ((1.0 - y) * (1.0 + y)).max(0.0).sqrt();
        let theta = golden_angle * ii;
        let (s, c) = theta.sin_cos();
        out.push(DVec3::new(c * r, y, s * r) * radius);
    }
    Ok(out)
}

/// Points per task of the tangent jitter.
const JITTER_CHUNK: usize = 1 << 13;

/// How the Fibonacci lattice is perturbed, for [`perturbed_fibonacci_points`] and
/// [`perturbed_fibonacci_sphere`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Perturbation {
    /// The regular lattice.
    None,
    /// The index offset of [`fibonacci_points`] (`0.0..1.0`): points slide along the spiral,
    /// far along their latitude ring, and near-duplicates appear (at 0.5 the median
    /// nearest-neighbour distance is 0.48 of the spacing, and 5% of the points have a
    /// neighbour closer than 0.14 of it; the lattice's median is 0.96).
    Spiral(f64),
    /// Each lattice point moved in its tangent plane, uniformly in a disk of radius
    /// `amplitude · spacing` (`spacing = radius · √(4π / n)`, the side of a square of the
    /// area per point), then back onto the sphere. `amplitude` within `0.0..1.0`. No two points
    /// come closer than the lattice's minimum distance minus `2 · amplitude · spacing`.
    Tangent(f64),
}

/// [`fibonacci_points`] with any [`Perturbation`] (seeded: same arguments, same points).
///
/// ```
/// use sphere::{Perturbation, perturbed_fibonacci_points};
/// let p = perturbed_fibonacci_points(1000, 2.0, Perturbation::Tangent(0.3), 7).unwrap();
/// assert!(p.iter().all(|q| (q.length() - 2.0).abs() < 1e-12));
/// assert_eq!(p, perturbed_fibonacci_points(1000, 2.0, Perturbation::Tangent(0.3), 7).unwrap());
/// ```
///
/// # Errors
/// As [`fibonacci_points`]; an amplitude outside `0.0..1.0` (or NaN) is
/// [`SphereError::InvalidPerturbation`].
pub fn perturbed_fibonacci_points(
    n: usize,
    radius: f64,
    perturbation: Perturbation,
    seed: u64,
) -> Result<Vec<DVec3>, SphereError> {
    let amplitude = match perturbation {
        Perturbation::None => return fibonacci_points(n, radius, 0.0, seed),
        Perturbation::Spiral(p) => return fibonacci_points(n, radius, p, seed),
        Perturbation::Tangent(a) => a,
    };
    if !(0.0..1.0).contains(&amplitude) {
        return Err(SphereError::InvalidPerturbation(amplitude));
    }
    let mut out = fibonacci_points(n, radius, 0.0, seed)?;
    if amplitude == 0.0 {
        return Ok(out);
    }
    let reach = amplitude * (4.0 * core::f64::consts::PI / n as f64).sqrt();
    // Two draws per point from one generator; each chunk jumps its own copy to its first
    // point's draws, so the points are the same bits on any number of cores.
    let start = Pcg64::seed_from_u64(seed);
    let unit = |rng: &mut Pcg64| (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    out.par_chunks_mut(JITTER_CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            let mut rng = start.clone();
            rng.advance(2 * (c * JITTER_CHUNK) as u128);
            for q in chunk {
                let p = *q / radius;
                // An orthonormal tangent frame, away from the axis the point is closest to.
                let axis = if p.y.abs() < 0.9 { DVec3::Y } else { DVec3::X };
                let e1 = p.cross(axis).normalize();
                let e2 = p.cross(e1);
                // Uniform in the disk: radius ∝ √u.
                let r = reach * unit(&mut rng).sqrt();
                let (s, c) = (2.0 * core::f64::consts::PI * unit(&mut rng)).sin_cos();
                *q = (p + e1 * (r * c) + e2 * (r * s)).normalize() * radius;
            }
        });
    Ok(out)
}

/// A Fibonacci sphere mesh with any [`Perturbation`]: [`perturbed_fibonacci_points`]
/// triangulated exactly (the lattice path for [`Perturbation::None`], as
/// [`crate::fibonacci_sphere`] does).
///
/// With [`Perturbation::Tangent`] the vertices come in Hilbert order, ready for traversal
/// (vertex `i` is the `i`-th point along the curve, ties by index: the numbering of
/// [`crate::sphere_mesh_hilbert`]), and the mesh is built on all cores from each vertex's
/// ring, found among a few lattice neighbours and checked exactly (the same bits for any
/// thread count; points moved beyond the rings' reach take the incremental path, the same
/// triangulation).
///
/// ```
/// use sphere::{Perturbation, perturbed_fibonacci_points, perturbed_fibonacci_sphere};
/// let (mesh, pos) = perturbed_fibonacci_sphere(500, 1.0, Perturbation::Tangent(0.4), 3).unwrap();
/// assert_eq!(mesh.face_count(), 2 * 500 - 4);
/// assert!(delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos).is_ok());
/// // The points of `perturbed_fibonacci_points`, renumbered.
/// let mut points = perturbed_fibonacci_points(500, 1.0, Perturbation::Tangent(0.4), 3).unwrap();
/// let mut sorted = pos.clone();
/// for p in [&mut points, &mut sorted] {
///     p.sort_by(|a, b| a.to_array().partial_cmp(&b.to_array()).unwrap());
/// }
/// assert_eq!(points, sorted);
/// ```
///
/// # Errors
/// As [`perturbed_fibonacci_points`] and [`crate::sphere_mesh`].
pub fn perturbed_fibonacci_sphere(
    n: usize,
    radius: f64,
    perturbation: Perturbation,
    seed: u64,
) -> Result<(quadedge::Mesh, Vec<DVec3>), SphereError> {
    match perturbation {
        Perturbation::None => crate::fibonacci_sphere(n, radius, 0.0, seed),
        Perturbation::Spiral(p) => crate::fibonacci_sphere(n, radius, p, seed),
        Perturbation::Tangent(_) => {
            let points = perturbed_fibonacci_points(n, radius, perturbation, seed)?;
            crate::jittered::jittered_mesh(&points, radius)
        }
    }
}

/// [`fibonacci_points`] rounded to `f32` (for rendering; triangulate the `f64` points).
pub fn fibonacci_points_f32(
    n: usize,
    radius: f64,
    perturbation: f64,
    seed: u64,
) -> Result<Vec<Vec3>, SphereError> {
    Ok(fibonacci_points(n, radius, perturbation, seed)?
        .into_iter()
        .map(|p| p.as_vec3())
        .collect())
}

/// The radii [`fibonacci_points`] accepts: beyond them the coordinates under- or overflow
/// while they are computed (the triangulation itself accepts any scale).
pub const RADII: core::ops::RangeInclusive<f64> = 1e-100..=1e100;

/// The first latitude (`y` of point 0) and the step between latitudes: from pole to pole,
/// except for four points. Four points with two at antipodal poles have the centre on their
/// hull (two faces would pass through it): no triangulation of the sphere. Their latitudes
/// are offset by half a step instead (`y = 1 − (2i + 1)/4`), a tetrahedron around the centre.
fn latitudes(n: usize) -> (f64, f64) {
    if n == 4 {
        (0.75, 0.5)
    } else {
        (1.0, 2.0 / (n - 1) as f64)
    }
}

/// The unperturbed lattice point `i` of `n` on the unit sphere.
fn lattice_point(i: usize, n: usize) -> DVec3 {
    let golden_angle = 2.0 * core::f64::consts::PI * (2.0 - golden_ratio());
    let (top, step) = latitudes(n);
    let y = top - step * i as f64;
    let r = ((1.0 - y) * (1.0 + y)).max(0.0).sqrt();
    let (s, c) = (golden_angle * i as f64).sin_cos();
    DVec3::new(c * r, y, s * r)
}

/// Does `points` look like an unperturbed lattice in index order (checked at up to 257
/// indices)? The lattice path of the triangulation is only fast on such input; its walk
/// budget catches input that only matches at the sampled indices.
pub(crate) fn looks_like_lattice(points: &[DVec3]) -> bool {
    let n = points.len();
    let radius = points[0].length();
    if !(radius > 0.0 && radius.is_finite()) {
        return false;
    }
    let step = (n / 256).max(1);
    (0..n)
        .step_by(step)
        .chain([n - 1])
        .all(|i| (points[i] / radius).distance(lattice_point(i, n)) < 1e-9)
}

/// φ = (1 + √5) / 2.
fn golden_ratio() -> f64 {
    (1.0 + 5f64.sqrt()) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_seed_formula() {
        let n = 57;
        let p = fibonacci_points(n, 1.0, 0.0, 0).unwrap();
        let ga = 2.0 * core::f64::consts::PI * (2.0 - golden_ratio());
        for (i, q) in p.iter().enumerate() {
            let y = 1.0 - 2.0 * i as f64 / (n - 1) as f64;
            let r = (1.0 - y * y).sqrt();
            let t = ga * i as f64;
            let want = DVec3::new(t.cos() * r, y, t.sin() * r);
            assert!((*q - want).length() < 1e-12, "{i}: {q} vs {want}");
        }
        assert_eq!(p[n - 1].y, -1.0);
    }

    #[test]
    fn perturbation_is_seeded() {
        let a = fibonacci_points(500, 3.0, 0.7, 42).unwrap();
        let b = fibonacci_points(500, 3.0, 0.7, 42).unwrap();
        let c = fibonacci_points(500, 3.0, 0.7, 43).unwrap();
        let plain = fibonacci_points(500, 3.0, 0.0, 42).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, plain);
        assert!(a.iter().all(|q| (q.length() - 3.0).abs() < 1e-12));
        // Perturbed y never leaves the band of its index.
        for (i, q) in a.iter().enumerate() {
            let y0 = 3.0 * (1.0 - 2.0 * i as f64 / 499.0);
            assert!(q.y <= y0 + 1e-12 && q.y > y0 - 3.0 * 2.0 / 499.0 - 1e-12);
        }
    }

    #[test]
    fn rejects_bad_arguments() {
        assert_eq!(
            fibonacci_points(3, 1.0, 0.0, 0),
            Err(SphereError::TooFewPoints(3))
        );
        assert!(matches!(
            fibonacci_points(10, 0.0, 0.0, 0),
            Err(SphereError::InvalidRadius(_))
        ));
        assert!(matches!(
            fibonacci_points(10, f64::NAN, 0.0, 0),
            Err(SphereError::InvalidRadius(_))
        ));
        // Radii whose coordinates would under- or overflow are refused up front.
        for r in [1e-101, 1e-300, 1e103, 1e300, f64::INFINITY] {
            assert_eq!(
                fibonacci_points(10, r, 0.0, 0),
                Err(SphereError::InvalidRadius(r))
            );
        }
        assert!(matches!(
            fibonacci_points(10, 1.0, 1.0, 0),
            Err(SphereError::InvalidPerturbation(_))
        ));
        assert!(matches!(
            fibonacci_points(10, 1.0, -0.1, 0),
            Err(SphereError::InvalidPerturbation(_))
        ));
        assert_eq!(fibonacci_points_f32(10, 1.0, 0.5, 1).unwrap().len(), 10);
    }
}
