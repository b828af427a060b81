//! Removals in parts through a static filter ([`remove_many_in_parts_within`]): the same mesh
//! as through the sphere's own predicates, the filter asked only about points within its
//! reach, on random and on nearly co-circular stars (the filter's exact path).

use super::*;
use crate::Sphere;
use crate::predicates::{orient3d_static, static_orient3d_bound};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use testkit::thread_pools as pools;

/// The sphere's predicates behind a static filter for points within `reach`, counting its
/// tests, the tests that took the exact path and the points it was asked about beyond the
/// reach (which its bound does not cover).
struct Filter {
    reach: f64,
    bound: f64,
    tests: AtomicUsize,
    exact: AtomicUsize,
    beyond: AtomicUsize,
}

impl Filter {
    fn new(reach: f64) -> Self {
        Self {
            reach,
            bound: static_orient3d_bound(reach),
            tests: AtomicUsize::new(0),
            exact: AtomicUsize::new(0),
            beyond: AtomicUsize::new(0),
        }
    }

    fn det(&self, p: [DVec3; 4]) -> f64 {
        self.tests.fetch_add(1, Relaxed);
        let far = p
            .iter()
            .any(|q| !q.abs().cmple(DVec3::splat(self.reach)).all());
        if far {
            self.beyond.fetch_add(1, Relaxed);
        }
        let [a, b, c, d] = p.map(|q| q.to_array());
        // With a zero bound: the rounded determinant (the exact one when it is zero).
        if orient3d_static(a, b, c, d, 0.0).abs() <= self.bound {
            self.exact.fetch_add(1, Relaxed);
        }
        orient3d_static(a, b, c, d, self.bound)
    }
}

impl Surface for Filter {
    fn orient(&self, a: DVec3, b: DVec3, c: DVec3) -> f64 {
        self.det([a, b, c, DVec3::ZERO])
    }
    fn in_circle(&self, a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> f64 {
        -self.det([a, b, c, d])
    }
    fn is_closed(&self) -> bool {
        true
    }
    fn distance_key(&self, p: DVec3, q: DVec3) -> f64 {
        Sphere.distance_key(p, q)
    }
}

/// Removes `victims` with and without the filter (reach `reach`) on 1, 2 and 4 threads: the
/// same mesh every time. Returns the filter's tests and exact-path tests.
fn same_mesh(mesh: &Mesh, pos: &[DVec3], victims: &[Vertex], reach: f64) -> (usize, usize) {
    assert!(victims.len() >= PARTS_MIN, "{} victims", victims.len());
    let mut plain = mesh.clone();
    remove_many_in_parts(&Sphere, &mut plain, pos, victims).unwrap();
    let filter = Filter::new(reach);
    for pool in pools() {
        let mut m = mesh.clone();
        pool.install(|| {
            remove_many_in_parts_within(&Sphere, Some((&filter, reach)), &mut m, pos, victims)
        })
        .unwrap();
        assert_eq!(m, plain);
    }
    assert_eq!(filter.beyond.load(Relaxed), 0, "a point beyond the reach");
    (filter.tests.load(Relaxed), filter.exact.load(Relaxed))
}

#[test]
fn the_filtered_removal_gives_the_same_mesh() {
    // Random stars (a Fibonacci sphere), the reach just beyond the radius: the filter plans
    // nearly every star.
    for (n, radius, seed) in [(6000, 6371.0, 1), (5000, 1.0, 2)] {
        let (mesh, pos) = sphere::fibonacci_sphere(n, radius, 0.3, seed).unwrap();
        for v in super::tests::victims(&mesh, &pos, seed) {
            let (tests, _) = same_mesh(&mesh, &pos, &v, radius * (1.0 + 1e-6));
            assert!(tests > 10 * v.len(), "{tests} tests for {}", v.len());
        }
    }
    // An icosphere: symmetric stars, nearly co-circular links (the exact path).
    let (mut mesh, pos) = sphere::icosphere(5, 6371.0).unwrap();
    crate::make_delaunay(&Sphere, &mut mesh, &pos).unwrap();
    let mut exact = 0;
    for v in super::tests::victims(&mesh, &pos, 3) {
        exact += same_mesh(&mesh, &pos, &v, 6371.0 * (1.0 + 1e-6)).1;
    }
    assert!(exact > 100, "{exact} tests on the exact path");
}

#[test]
fn stars_beyond_the_reach_take_the_surface() {
    // A reach of 0.7 radius: every star with a point nearer an axis than that (most of them)
    // is planned without the filter, the others with it; the filter is never asked about a
    // point beyond its reach, and the mesh is the same.
    let radius = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(6000, radius, 0.3, 7).unwrap();
    for v in super::tests::victims(&mesh, &pos, 7) {
        let (tests, _) = same_mesh(&mesh, &pos, &v, 0.7 * radius);
        assert!(tests > 0);
    }
}
