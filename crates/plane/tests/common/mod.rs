//! Helpers shared by the planar map tests: spade as the independent reference, point sets.

#![allow(dead_code)]

use delaunay::{Plane, Surface};
use glam::DVec2;
use spade::{DelaunayTriangulation, Point2, Triangulation};
use std::collections::{BTreeSet, HashMap};

pub use testkit::canonical_triangle as canon;

/// Spade's Delaunay triangles of `points`, in input indices, counter-clockwise.
pub fn spade_triangles(points: &[DVec2]) -> BTreeSet<[u32; 3]> {
    let index: HashMap<(u64, u64), u32> = points
        .iter()
        .enumerate()
        .map(|(i, p)| ((p.x.to_bits(), p.y.to_bits()), i as u32))
        .collect();
    let t: DelaunayTriangulation<Point2<f64>> =
        DelaunayTriangulation::bulk_load(points.iter().map(|p| Point2::new(p.x, p.y)).collect())
            .unwrap();
    t.inner_faces()
        .map(|f| {
            canon(f.vertices().map(|v| {
                let p = v.position();
                index[&(p.x.to_bits(), p.y.to_bits())]
            }))
        })
        .collect()
}

/// Some input point other than the corners lies exactly on the triangle's circumcircle.
pub fn has_cocircular_point(points: &[DVec2], t: [u32; 3]) -> bool {
    let p = |i: u32| points[i as usize].extend(0.0);
    (0..points.len() as u32)
        .filter(|i| !t.contains(i))
        .any(|i| Plane.in_circle(p(t[0]), p(t[1]), p(t[2]), p(i)) == 0.0)
}

/// The map is closed, passes `check()` and the exact planar criterion, and its real
/// triangles equal spade's where no four points are co-circular; every difference
/// is a triangle with a fourth point on its circumcircle.
pub fn assert_matches_spade(points: &[DVec2]) -> usize {
    let map = plane::triangulate(points).unwrap();
    map.mesh.check().unwrap();
    assert!(map.mesh.is_closed(), "every edge has two faces");
    assert_eq!(
        delaunay::is_delaunay(
            &Plane,
            &plane::real_part(&map.mesh, map.ghost).unwrap(),
            &map.positions
        ),
        Ok(())
    );
    let ours: BTreeSet<[u32; 3]> = map.real_triangles().into_iter().map(canon).collect();
    let theirs = spade_triangles(points);
    assert_eq!(ours.len(), theirs.len(), "same number of triangles");
    let diff: Vec<[u32; 3]> = ours.symmetric_difference(&theirs).copied().collect();
    for &t in &diff {
        assert!(
            has_cocircular_point(points, t),
            "{t:?} differs without a tie"
        );
    }
    diff.len()
}

pub fn uniform_points(n: usize, seed: u64) -> Vec<DVec2> {
    let mut rng = testkit::Rng::new(seed);
    (0..n)
        .map(|_| DVec2::new(rng.unit_f64() * 10.0, rng.unit_f64() * 7.0))
        .collect()
}

/// Random subsets of a small integer lattice: collinear runs on the hull and inside, many
/// co-circular quadruples; the hardest input for a hull computed on rounded projections.
pub fn lattice_subset(side: u32, keep_percent: u64, seed: u64) -> Vec<DVec2> {
    let mut rng = testkit::Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut pts = Vec::new();
    for y in 0..side {
        for x in 0..side {
            if rng.next_u64() % 100 < keep_percent {
                pts.push(DVec2::new(x as f64, y as f64));
            }
        }
    }
    pts
}
