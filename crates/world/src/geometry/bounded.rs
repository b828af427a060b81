//! The sphere's predicates behind a static filter, for a restore whose positions are known
//! to lie in a cube: the rigid motion's sub-steps, whose turn has just seen every position.
//!
//! [`delaunay::Sphere`] bounds each determinant's rounding by a per-call permanent (a dozen
//! more operations per test). For points with every coordinate within `±reach`, that
//! permanent is at most `48 reach³`, so [`static_orient3d_bound`] caps the per-call bound of
//! every test. A determinant beyond the static bound is beyond the per-call bound too, so it
//! is returned as it is by both; any other goes to the same exact predicate. Every test
//! returns the same value as [`delaunay::Sphere`]'s, bit for bit: the restore makes the same
//! flips and moves.

use super::{EditError, Geometry, MoveOptions};
use delaunay::predicates::{orient3d_static, static_orient3d_bound};
use delaunay::{RestoreStats, Surface};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// [`delaunay::Sphere`] for points with every coordinate within a known `reach`.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoundedSphere {
    /// [`static_orient3d_bound`] of the reach.
    bound: f64,
}

impl BoundedSphere {
    /// The sphere's predicates for points with every coordinate within `±reach` (the caller
    /// has checked them all). A reach so far from 1 that the bound would over- or underflow
    /// gives an infinite bound: every test then takes [`delaunay::Sphere`]'s path.
    pub(super) fn new(reach: f64) -> Self {
        Self {
            bound: static_orient3d_bound(reach),
        }
    }
}

impl Surface for BoundedSphere {
    #[inline]
    fn orient(&self, a: DVec3, b: DVec3, c: DVec3) -> f64 {
        let (a, b, c) = (a.to_array(), b.to_array(), c.to_array());
        orient3d_static(a, b, c, [0.0; 3], self.bound)
    }

    #[inline]
    fn in_circle(&self, a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64 {
        let (a, b, c, d) = (a.to_array(), b.to_array(), c.to_array(), d.to_array());
        -orient3d_static(a, b, c, d, self.bound)
    }

    fn is_closed(&self) -> bool {
        delaunay::Sphere.is_closed()
    }

    #[inline]
    fn distance_key(&self, p: DVec3, q: DVec3) -> f64 {
        delaunay::Sphere.distance_key(p, q)
    }
}

/// How far beyond the radius a coordinate may lie for the static filter: a turned vertex is
/// a unit vector times the radius (a few units in the last place beyond it).
pub(super) const REACH: f64 = 1.0 + 1e-6;

/// The exact restore of one sub-step on the band, adding to `changed` the vertices whose
/// stars it changed. The regions are the restore's rigid pieces (all labels at or beyond the
/// turns stay, but are told apart: a finer split only tests more). `reach`: every position
/// has each coordinate within it (on a sphere, the predicates then take the static filter).
#[allow(clippy::too_many_arguments)]
pub(super) fn restore_tracked(
    geometry: Geometry,
    mesh: &mut Mesh,
    positions: &mut [DVec3],
    band: &[Vertex],
    region: &[u32],
    options: &MoveOptions,
    reach: Option<f64>,
    changed: &mut Vec<Vertex>,
) -> Result<RestoreStats, EditError> {
    let options = delaunay::RestoreOptions {
        tolerance: options.tolerance,
        merge_collisions: options.merge_collisions,
    };
    let r = match (geometry, reach) {
        (Geometry::Sphere { .. }, Some(reach)) => {
            let s = BoundedSphere::new(reach);
            delaunay::restore_rigid_band(&s, mesh, positions, band, region, &options, changed)
        }
        (Geometry::Sphere { .. }, None) => {
            let s = delaunay::Sphere;
            delaunay::restore_rigid_band(&s, mesh, positions, band, region, &options, changed)
        }
        (Geometry::Plane, _) => {
            let s = delaunay::Plane;
            delaunay::restore_rigid_band(&s, mesh, positions, band, region, &options, changed)
        }
    };
    r.map_err(EditError::Delaunay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaunay::Sphere;
    use glam::DQuat;
    use testkit::Rng;

    /// Points on a sphere of `radius`: random ones, and near-degenerate quadruples (four
    /// points on one small circle, one of them nudged by a few units in the last place; three
    /// on one great circle).
    fn quadruples(radius: f64, rng: &mut Rng) -> Vec<[DVec3; 4]> {
        let mut out = Vec::new();
        for _ in 0..4000 {
            let centre = rng.unit_dvec3();
            let spread = [1e-1, 1e-3, 1e-6][rng.below(3)];
            let near = |rng: &mut Rng| (centre + rng.unit_dvec3() * spread).normalize() * radius;
            out.push([near(rng), near(rng), near(rng), near(rng)]);
        }
        for k in 0..2000 {
            let axis = rng.unit_dvec3();
            let start = axis.any_orthonormal_vector();
            let lat: f64 = [0.0, 0.3, 1.2][k % 3];
            let on_circle = |t: f64| {
                let q = DQuat::from_axis_angle(axis, t);
                let p = (q * start) * lat.cos() + axis * lat.sin();
                p.normalize() * radius
            };
            let t = 1e-3 + rng.unit_f64() * 1e-2;
            let mut quad = [0.0, t, 2.5 * t, 4.0 * t].map(on_circle);
            let nudge = f64::from_bits(quad[3].x.to_bits() + rng.below(4) as u64);
            quad[3].x = nudge;
            out.push(quad);
        }
        out
    }

    /// Every orientation and circle test of the static filter returns the value of
    /// `delaunay::Sphere`, bit for bit, for points within the reach: random ones, nearly
    /// cocircular ones, on planet and unit radii, and with a reach so large that the bound
    /// is infinite.
    #[test]
    fn the_static_filter_returns_the_spheres_values() {
        let mut rng = Rng::new(23);
        let mut exact_path = 0;
        for radius in [6371.0, 1.0, 1e-3] {
            for reach in [radius * REACH, 1e300] {
                let bounded = BoundedSphere::new(reach);
                for [a, b, c, d] in quadruples(radius, &mut rng) {
                    let (s, o) = (Sphere.orient(a, b, c), bounded.orient(a, b, c));
                    assert_eq!(s.to_bits(), o.to_bits(), "{a} {b} {c}");
                    let (s, o) = (Sphere.in_circle(a, b, c, d), bounded.in_circle(a, b, c, d));
                    assert_eq!(s.to_bits(), o.to_bits(), "{a} {b} {c} {d}");
                    exact_path += usize::from(s.abs() <= bounded.bound);
                }
                assert_eq!(bounded.is_closed(), Sphere.is_closed());
                let (p, q) = (rng.unit_dvec3() * radius, rng.unit_dvec3() * radius);
                assert_eq!(bounded.distance_key(p, q), Sphere.distance_key(p, q));
            }
        }
        // The nearly cocircular quadruples reached the per-call filter or the exact sums.
        assert!(exact_path > 1000, "{exact_path}");
    }

    /// The rigid restore through the static filter makes the mesh, the stats and the changed
    /// list that `delaunay::Sphere` makes, on plates turned far enough to fold.
    #[test]
    fn a_restore_through_the_filter_is_the_spheres() {
        let world = crate::World::fibonacci_sphere(6000, 6371.0, 0.3, 3).unwrap();
        let start = world.positions().to_vec();
        let mut rng = Rng::new(4);
        let (region, turns) = testkit::plate_regions(&start, 5, 0.02, &mut rng);
        let moved: Vec<DVec3> = (start.iter().zip(&region))
            .map(|(&p, &r)| (turns[r as usize] * p).normalize() * 6371.0)
            .collect();
        let mesh = world.mesh();
        let band = testkit::border_vertices(mesh, &region);
        let geometry = Geometry::Sphere { radius: 6371.0 };
        let options = MoveOptions::default();
        let mut results = Vec::new();
        for reach in [Some(6371.0 * REACH), None] {
            let (mut mesh, mut positions) = (Mesh::clone(mesh), moved.clone());
            let mut changed = Vec::new();
            let stats = restore_tracked(
                geometry,
                &mut mesh,
                &mut positions,
                &band,
                &region,
                &options,
                reach,
                &mut changed,
            )
            .unwrap();
            assert!(stats.relocated > 0 && stats.flips > 0, "{stats:?}");
            delaunay::is_delaunay(&Sphere, &mesh, &positions).unwrap();
            results.push((mesh, stats, changed));
        }
        assert!(results[0] == results[1]);
    }
}
