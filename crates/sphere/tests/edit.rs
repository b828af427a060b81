//! `make_delaunay` after edits, and the geometry helpers on real meshes.

use glam::DVec3;
use quadedge::{Edge, Vertex};
use sphere::delaunay::{self, Sphere, is_delaunay, make_delaunay};
use sphere::geometry::{circumcenters, mesh_quality, voronoi_areas};
use sphere::{fibonacci_sphere, icosphere};
use std::f64::consts::PI;

#[test]
fn restores_delaunay_after_flips() {
    let (mut mesh, pos) = fibonacci_sphere(3000, 1.0, 0.5, 3).unwrap();
    let original = mesh.clone();
    // Flip far-apart edges (every 101st) whose quad is convex, so that no face folds over; a
    // flip of a non-convex quad folds, which make_delaunay must refuse.
    let mut flipped = 0;
    let mut refused = 0;
    let triple = |a: DVec3, b: DVec3, c: DVec3| a.dot(b.cross(c));
    for q in (0..mesh.quad_slots() as u32).step_by(101) {
        let e = Edge::of_quad(q);
        let [a, b] = [mesh.origin(e), mesh.dest(e)].map(|v| pos[v.index()]);
        let c = pos[mesh.dest(mesh.left_next(e)).index()];
        let d = pos[mesh.dest(mesh.left_next(e.sym())).index()];
        if triple(d, c, a) <= 1e-12 || triple(c, d, b) <= 1e-12 {
            let mut folded = mesh.clone();
            if folded.flip(e).is_err() {
                continue;
            }
            assert!(matches!(
                make_delaunay(&Sphere, &mut folded, &pos),
                Err(delaunay::DelaunayError::Inverted(_))
            ));
            refused += 1;
            continue;
        }
        if mesh.flip(e).is_ok() {
            flipped += 1;
        }
    }
    assert!(refused > 0);
    assert!(flipped > 50);
    assert!(is_delaunay(&Sphere, &mesh, &pos).is_err());
    let flips = make_delaunay(&Sphere, &mut mesh, &pos).unwrap();
    assert!(flips >= flipped);
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    mesh.check().unwrap();
    // Same edges as before (no co-circular quads in a perturbed lattice).
    let edges = |m: &quadedge::Mesh| {
        let mut v: Vec<(Vertex, Vertex)> = m
            .undirected_edges()
            .map(|e| {
                let (a, b) = (m.origin(e), m.dest(e));
                (a.min(b), a.max(b))
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(edges(&mesh), edges(&original));
}

#[test]
fn restores_delaunay_after_moving_points() {
    let (mut mesh, mut pos) = fibonacci_sphere(5000, 1.0, 0.0, 0).unwrap();
    // Jitter every point by a fifth of the spacing: connectivity no longer matches.
    let spacing = (4.0 * PI / 5000.0).sqrt();
    let mut rng = testkit::Rng::new(12345);
    for p in &mut pos {
        let mut r = || rng.unit_f64() - 0.5;
        let d = DVec3::new(r(), r(), r()) * 0.4 * spacing;
        *p = (*p + d).normalize();
    }
    assert!(is_delaunay(&Sphere, &mesh, &pos).is_err());
    let flips = make_delaunay(&Sphere, &mut mesh, &pos).unwrap();
    assert!(flips > 0);
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    mesh.check().unwrap();
    let fresh = sphere::sphere_mesh(&pos).unwrap().0;
    assert_eq!(fresh.undirected_edge_count(), mesh.undirected_edge_count());
}

#[test]
fn voronoi_areas_tile_the_sphere() {
    for (n, r, p) in [
        (4, 1.0, 0.0),
        (5, 2.0, 0.0),
        (100, 6371.0, 0.3),
        (20_000, 1.0, 0.9),
    ] {
        let (mesh, pos) = fibonacci_sphere(n, r, p, 8).unwrap();
        let areas = voronoi_areas(&mesh, &pos, &Default::default());
        let total: f64 = areas.iter().sum();
        let want = 4.0 * PI * r * r;
        assert!(
            (total - want).abs() <= 1e-9 * want,
            "n = {n}: {total} vs {want}"
        );
        assert!(areas.iter().all(|&a| a > 0.0));
        // Even spacing: cells within a factor of two of the mean.
        // Even spacing for mild perturbation; strong perturbation can pull index
        // neighbours i + 0.9 and i + 1 almost together.
        if n >= 100 && p < 0.5 {
            let mean = want / n as f64;
            let lo = areas.iter().cloned().fold(f64::INFINITY, f64::min) / mean;
            let hi = areas.iter().cloned().fold(0.0, f64::max) / mean;
            assert!(
                lo > 0.2 && hi < 2.0,
                "n = {n}: cells {lo}..{hi} of the mean"
            );
        }
    }
    let (mesh, pos) = icosphere(3, 1.0).unwrap();
    let total: f64 = voronoi_areas(&mesh, &pos, &Default::default()).iter().sum();
    assert!((total - 4.0 * PI).abs() < 1e-9 * 4.0 * PI);
}

#[test]
fn circumcentres_are_equidistant_and_empty() {
    let (mesh, pos) = fibonacci_sphere(2000, 3.0, 0.2, 1).unwrap();
    let cc = circumcenters(&mesh, &pos);
    for f in mesh.faces() {
        let c = cc[f.index()];
        assert!((c.length() - 3.0).abs() < 1e-12);
        let [a, b, d] = mesh.face_vertices(f).map(|v| c.distance(pos[v.index()]));
        assert!((a - b).abs() < 1e-9 && (a - d).abs() < 1e-9);
        // Empty circle, checked against the neighbours of the corners.
        for v in mesh.face_vertices(f) {
            for w in mesh.neighbors(v) {
                assert!(c.distance(pos[w.index()]) >= a - 1e-9);
            }
        }
    }
}

#[test]
fn quality_of_fibonacci_and_icosphere() {
    let (mesh, pos) = fibonacci_sphere(10_000, 1.0, 0.0, 0).unwrap();
    let q = mesh_quality(&mesh, &pos).unwrap();
    assert!(q.min_edge > 0.0 && q.min_edge <= q.mean_edge && q.mean_edge <= q.max_edge);
    assert!(q.edge_ratio < 3.0, "{q:?}");
    assert!(q.min_angle > 0.3, "{q:?}");
    let (mesh, pos) = icosphere(4, 1.0).unwrap();
    let q = mesh_quality(&mesh, &pos).unwrap();
    assert!(q.edge_ratio < 1.5 && q.min_angle > 0.9, "{q:?}");
    // An icosphere's subdivision is Delaunay (co-circular quads aside).
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
}
