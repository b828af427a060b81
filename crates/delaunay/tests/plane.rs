//! The same algorithms in the plane: a square, random insertions and removals.

mod common;

use common::Rng;
use delaunay::{DelaunayError, Location, Plane, insert, is_delaunay, locate, remove};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

fn square() -> (Mesh, Vec<DVec3>) {
    let mesh = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    let pos = vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(1.0, 1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
    ];
    (mesh, pos)
}

#[test]
fn planar_insertions_and_removals_stay_delaunay() {
    let (mut mesh, mut pos) = square();
    let mut rng = Rng::new(42);
    let mut added = Vec::new();
    for _ in 0..400 {
        let p = DVec3::new(
            0.01 + 0.98 * rng.unit_f64(),
            0.01 + 0.98 * rng.unit_f64(),
            0.0,
        );
        let ins = insert(&Plane, &mut mesh, &mut pos, p, None).unwrap();
        added.push(ins.vertex);
    }
    mesh.check().unwrap();
    assert_eq!(is_delaunay(&Plane, &mesh, &pos), Ok(()));
    assert_eq!(mesh.face_count(), 2 * 404 - 2 - 4);
    for &v in added.iter().step_by(2) {
        remove(&Plane, &mut mesh, &pos, v).unwrap();
        assert_eq!(is_delaunay(&Plane, &mesh, &pos), Ok(()));
    }
    mesh.check().unwrap();
    // Outside the square, and the square's corners.
    assert!(matches!(
        locate(&Plane, &mesh, &pos, DVec3::new(2.0, 0.5, 0.0), None),
        Ok(Location::Outside(_))
    ));
    assert_eq!(
        insert(&Plane, &mut mesh, &mut pos, DVec3::new(2.0, 0.5, 0.0), None),
        Err(DelaunayError::Outside)
    );
    assert_eq!(
        remove(&Plane, &mut mesh, &pos, Vertex::new(0)),
        Err(DelaunayError::BoundaryVertex(Vertex::new(0)))
    );
}

/// The plane's ghost closure (issue 21): a concave boundary is no Delaunay triangulation of
/// its points (the hull is convex), though every face turns counter-clockwise and every edge
/// is locally Delaunay; `make_delaunay` refuses it.
#[test]
fn a_concave_boundary_is_seen() {
    // A chevron: boundary A → B → C → D, B pointing in.
    let pos = vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 1.0, 0.0),
        DVec3::new(4.0, 0.0, 0.0),
        DVec3::new(2.0, 3.0, 0.0),
    ];
    let mut mesh = Mesh::from_triangles(4, &[[0, 1, 3], [1, 2, 3]]).unwrap();
    let r = is_delaunay(&Plane, &mesh, &pos);
    assert!(matches!(r, Err(Ok(delaunay::Violation::Hull(_)))), "{r:?}");
    let report = delaunay::delaunay_report(&Plane, &mesh, &pos).unwrap();
    assert!(!report.is_ok() && !report.hull.is_empty() && report.inverted.is_empty());
    let before = mesh.clone();
    assert!(matches!(
        delaunay::make_delaunay(&Plane, &mut mesh, &pos),
        Err(DelaunayError::NotConvex(_))
    ));
    assert_eq!(mesh, before);
    // The square of the other tests passes, with collinear points on its sides.
    let (mesh, pos) = square();
    assert_eq!(is_delaunay(&Plane, &mesh, &pos), Ok(()));
}
