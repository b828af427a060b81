//! The read-only checks run on a frozen mesh and answer exactly as on the editable one.

use delaunay::{Sphere, Violation, delaunay_report, is_delaunay};
use quadedge::{Edge, FrozenMesh, Mesh};

/// A planet in sweep order (what freezing asks) and its frozen copy.
fn planet(n: usize, seed: u64) -> (Mesh, Vec<glam::DVec3>) {
    let (mut mesh, pos) = sphere::fibonacci_sphere(n, 1.0, 0.4, seed).unwrap();
    let identity: Vec<u32> = (0..n as u32).collect();
    mesh.reorder_vertices(&identity).unwrap();
    (mesh, pos)
}

#[test]
fn a_frozen_planet_reports_what_the_mesh_reports() {
    let (mesh, mut pos) = planet(3000, 11);
    let frozen = FrozenMesh::freeze(&mesh).unwrap();
    assert_eq!(is_delaunay(&Sphere, &frozen, &pos), Ok(()));
    assert!(delaunay_report(&Sphere, &frozen, &pos).unwrap().is_ok());
    // Fold a few vertices over and nudge others: inverted faces and non-Delaunay edges.
    for (i, v) in [(100, 2000), (700, 1500), (2500, 40)] {
        pos[i] = (pos[v] + glam::DVec3::splat(1e-3)).normalize();
    }
    for i in (0..3000).step_by(97) {
        pos[i] = (pos[i] + glam::DVec3::new(0.004, -0.003, 0.002)).normalize();
    }
    let from_mesh = delaunay_report(&Sphere, &mesh, &pos).unwrap();
    let from_frozen = delaunay_report(&Sphere, &frozen, &pos).unwrap();
    assert!(!from_mesh.inverted.is_empty() && !from_mesh.non_delaunay.is_empty());
    assert_eq!(from_mesh, from_frozen);
    assert_eq!(
        is_delaunay(&Sphere, &mesh, &pos),
        is_delaunay(&Sphere, &frozen, &pos)
    );
    // Every reported edge is a live base edge of the mesh.
    for &e in &from_mesh.non_delaunay {
        assert!(mesh.is_edge_alive(e) && e == e.base());
    }
}

#[test]
fn a_flipped_edge_is_named_on_both() {
    let (mut mesh, pos) = planet(500, 3);
    let e = mesh.flip(Edge::of_quad(100)).unwrap();
    // Flipping keeps the sweep order of quad-edges only by chance: put it back in order.
    let identity: Vec<u32> = (0..500).collect();
    let remap = mesh.reorder_vertices(&identity).unwrap();
    let e = remap.edge(e).unwrap_or(e);
    let frozen = FrozenMesh::freeze(&mesh).unwrap();
    let want = Err(Ok(Violation::NotDelaunay(e.base())));
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), want);
    assert_eq!(is_delaunay(&Sphere, &frozen, &pos), want);
    assert_eq!(
        delaunay_report(&Sphere, &mesh, &pos).unwrap(),
        delaunay_report(&Sphere, &frozen, &pos).unwrap()
    );
}
