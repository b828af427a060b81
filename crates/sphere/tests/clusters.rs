//! Clustered inputs (issue 21): a dense cap beside a few far points, two small clusters far
//! apart, a thin band with its poles. Their time is measured by the `sphere` bench and the
//! `cap_far` example; here every result must be the exact spherical Delaunay triangulation,
//! certified by `is_delaunay` (local conditions and the covering count).

use delaunay::{Sphere, is_delaunay};
use glam::DVec3;
use sphere::{SphereError, sphere_mesh, sphere_mesh_hilbert, triangulate};
use testkit::Cluster;

/// Every path that turns the points into a mesh gives a valid planet with `2n − 4` faces.
fn assert_valid_planet(family: Cluster, p: &[DVec3]) {
    let (mesh, pos) = sphere_mesh(p).unwrap_or_else(|e| panic!("{family:?}, {}: {e}", p.len()));
    assert_eq!(mesh.face_count(), 2 * p.len() - 4, "{family:?}");
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()), "{family:?}");
    let (mesh, pos, _) = sphere_mesh_hilbert(p).unwrap();
    assert_eq!(
        is_delaunay(&Sphere, &mesh, &pos),
        Ok(()),
        "{family:?} (Hilbert)"
    );
}

#[test]
fn clustered_families_triangulate_exactly() {
    for n in [100, 1000, 10_000] {
        for family in Cluster::ALL {
            let p = family.points(n, n as u64);
            if family == Cluster::Cap {
                // A cap alone is a hull but no planet.
                assert_eq!(triangulate(&p).unwrap().len(), 2 * n - 4);
                assert_eq!(sphere_mesh(&p), Err(SphereError::NotEnclosingCentre));
            } else {
                assert_valid_planet(family, &p);
            }
        }
    }
}

/// The same triangulation whatever the insertion order: the cap with its far points first,
/// last, or in the middle of the input.
#[test]
fn far_points_anywhere_in_the_input_give_the_same_triangles() {
    let n = 5000;
    let p = Cluster::CapPlusDistant.points(n, 9);
    let want = testkit::canonical_triangles(triangulate(&p).unwrap());
    let mut q = p[n..].to_vec();
    q.extend_from_slice(&p[..n]);
    // Indices shifted by 3: cap point i is now i + 3, far point n + k is now k.
    let back = |i: u32| if i < 3 { i + n as u32 } else { i - 3 };
    let got: Vec<[u32; 3]> = triangulate(&q)
        .unwrap()
        .into_iter()
        .map(|t| t.map(back))
        .collect();
    assert_eq!(testkit::canonical_triangles(got), want);
}

/// The clustered families at large sizes, checked, not timed (`cargo xtask stress`).
#[test]
#[ignore = "stress: cargo xtask stress"]
fn stress_clustered_families_are_valid_at_200k_and_1m() {
    for n in [200_000, 1_000_000] {
        for family in Cluster::ALL.into_iter().skip(1) {
            assert_valid_planet(family, &family.points(n, 21));
        }
    }
}
