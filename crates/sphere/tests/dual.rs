//! Dual centres on the sphere: centroid and blended points lie inside their triangles (exact
//! orientation), every choice's cells still tile the sphere.

use delaunay::{Sphere, Surface};
use glam::DVec3;
use sphere::SphereError;
use sphere::dual::CellOptions;
use sphere::dual::{DualCentre, dual_points};
use sphere::geometry::voronoi_areas;

/// Is `p` strictly inside the counter-clockwise spherical triangle `a, b, c`? Exact.
fn inside(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> bool {
    [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(u, v)| Sphere.orient(u, v, p) > 0.0)
}

fn outside_count(choice: DualCentre, radius: f64, seed: u64) -> usize {
    let (mesh, pos) = sphere::fibonacci_sphere(3000, radius, 0.45, seed).unwrap();
    let pts = dual_points(&mesh, &pos, choice).unwrap();
    mesh.faces()
        .filter(|&f| {
            let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
            let p = pts[f.index()];
            assert!(
                (p.length() / radius - 1.0).abs() < 1e-12,
                "{f:?} off the sphere"
            );
            !inside(a, b, c, p)
        })
        .count()
}

#[test]
fn centroids_and_blends_lie_inside_their_triangles() {
    for (radius, seed) in [(1.0, 1), (6371.0, 2), (1e-3, 3)] {
        // The test can fail: perturbed points make obtuse faces whose circumcentres are out.
        assert!(outside_count(DualCentre::Circumcentre, radius, seed) > 10);
        for choice in [
            DualCentre::Centroid,
            DualCentre::Blend(0.0),
            DualCentre::Blend(0.5),
            DualCentre::Blend(0.99),
        ] {
            assert_eq!(outside_count(choice, radius, seed), 0, "{choice:?}");
        }
    }
}

#[test]
fn blend_is_the_circumcentre_where_that_is_inside() {
    let (mesh, pos) = sphere::fibonacci_sphere(800, 1.0, 0.45, 7).unwrap();
    let cc = dual_points(&mesh, &pos, DualCentre::Circumcentre).unwrap();
    let one = dual_points(&mesh, &pos, DualCentre::Blend(1.0)).unwrap();
    let g = dual_points(&mesh, &pos, DualCentre::Centroid).unwrap();
    let zero = dual_points(&mesh, &pos, DualCentre::Blend(0.0)).unwrap();
    let mut moved = 0;
    for f in mesh.faces() {
        let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
        let i = f.index();
        assert!(zero[i].distance(g[i]) < 1e-15);
        if inside(a, b, c, cc[i]) {
            assert!(one[i].distance(cc[i]) < 1e-12);
        } else {
            moved += 1;
            // Pulled back onto the boundary: no corner-side test is clearly negative.
            let worst = [(a, b), (b, c), (c, a)]
                .iter()
                .map(|&(u, v)| u.cross(v).normalize().dot(one[i]))
                .fold(f64::INFINITY, f64::min);
            assert!(worst > -1e-12, "{f:?}: {worst}");
        }
    }
    assert!(moved > 0);
}

#[test]
fn cells_of_every_choice_tile_the_sphere() {
    let r = 3.0;
    let want = 4.0 * std::f64::consts::PI * r * r;
    let (mesh, pos) = sphere::fibonacci_sphere(2000, r, 0.45, 11).unwrap();
    for choice in [
        DualCentre::Circumcentre,
        DualCentre::Centroid,
        DualCentre::Blend(0.5),
        DualCentre::Blend(1.0),
    ] {
        let options = CellOptions::with_centre(choice).unwrap();
        let areas = voronoi_areas(&mesh, &pos, &options);
        let total: f64 = areas.iter().sum();
        assert!(
            (total - want).abs() < 1e-9 * want,
            "{choice:?}: {total} vs {want}"
        );
        // Centroid cells have no negative area (they are star-shaped around their sites).
        if choice != DualCentre::Circumcentre {
            assert!(areas.iter().all(|&a| a > 0.0), "{choice:?}");
        }
    }
    let circumcentres = CellOptions::with_centre(DualCentre::Circumcentre).unwrap();
    assert_eq!(
        voronoi_areas(&mesh, &pos, &circumcentres),
        voronoi_areas(&mesh, &pos, &CellOptions::default())
    );
}

#[test]
fn bad_blend_weights_are_refused() {
    let (mesh, pos) = sphere::icosphere(1, 1.0).unwrap();
    for t in [-0.1, 1.0 + 1e-9, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            dual_points(&mesh, &pos, DualCentre::Blend(t)),
            Err(SphereError::InvalidBlend(_))
        ));
        assert!(matches!(
            CellOptions::with_centre(DualCentre::Blend(t)),
            Err(SphereError::InvalidBlend(_))
        ));
    }
    // The one-triangle helper clamps instead.
    let [a, b, c] = mesh
        .face_vertices(mesh.faces().next().unwrap())
        .map(|v| pos[v.index()]);
    let at = |t| sphere::dual::dual_point(a, b, c, 1.0, DualCentre::Blend(t));
    assert_eq!(
        (at(7.0), at(-3.0), at(f64::NAN)),
        (at(1.0), at(0.0), at(0.0))
    );
}
