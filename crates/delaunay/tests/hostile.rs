//! Every entry point fed bad input: a typed error and nothing changed.

use delaunay::{
    DelaunayError, Sphere, delaunay_report, insert, locate, make_delaunay, make_delaunay_around,
    make_delaunay_from_edges, nearest_vertex, remove, restore,
};
use glam::DVec3;
use quadedge::{Edge, Face, Vertex};

#[test]
fn bad_input_is_refused_unchanged() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(300, 1.0, 0.4, 1).unwrap();
    let before = (mesh.clone(), pos.clone());
    let dead = Vertex::new(100_000);
    assert_eq!(
        remove(&Sphere, &mut mesh, &pos, dead),
        Err(DelaunayError::DeadVertex(dead))
    );
    assert_eq!(
        insert(&Sphere, &mut mesh, &mut pos, DVec3::NAN, None),
        Err(DelaunayError::NonFinite(None))
    );
    assert_eq!(
        insert(
            &Sphere,
            &mut mesh,
            &mut pos,
            DVec3::X,
            Some(Face::new(9_999))
        ),
        Err(DelaunayError::DeadFace(Face::new(9_999)))
    );
    assert!(matches!(
        make_delaunay_from_edges(&Sphere, &mut mesh, &pos, &[Edge::of_quad(1_000_000)]),
        Err(DelaunayError::Mesh(_))
    ));
    assert_eq!(
        make_delaunay_around(&Sphere, &mut mesh, &pos, &[dead]),
        Err(DelaunayError::DeadVertex(dead))
    );
    let short = &pos[..10];
    for r in [
        make_delaunay(&Sphere, &mut mesh, short).map(|_| ()),
        locate(&Sphere, &mesh, short, DVec3::X, None).map(|_| ()),
        nearest_vertex(&Sphere, &mesh, short, DVec3::X, None).map(|_| ()),
        remove(&Sphere, &mut mesh, short, Vertex::new(3)).map(|_| ()),
        delaunay_report(&Sphere, &mesh, short).map(|_| ()),
    ] {
        assert!(
            matches!(r, Err(DelaunayError::PositionsTooShort { .. })),
            "{r:?}"
        );
    }
    // A NaN position is named before any edit.
    pos[7] = DVec3::NAN;
    assert_eq!(
        make_delaunay(&Sphere, &mut mesh, &pos),
        Err(DelaunayError::NonFinite(Some(Vertex::new(7))))
    );
    pos[7] = before.1[7];
    assert_eq!((mesh, pos), before);
}

#[test]
fn a_mesh_with_a_hole_is_not_a_sphere_triangulation() {
    let (mut mesh, pos) = sphere::fibonacci_sphere(100, 1.0, 0.4, 2).unwrap();
    mesh.remove_face(Face::new(5)).unwrap();
    let before = mesh.clone();
    assert!(matches!(
        make_delaunay(&Sphere, &mut mesh, &pos),
        Err(DelaunayError::NotTriangulated(_))
    ));
    assert!(
        !delaunay_report(&Sphere, &mesh, &pos)
            .unwrap()
            .not_triangulated
            .is_empty()
    );
    assert_eq!(mesh, before);
}

#[test]
fn folds_are_refused_by_flips_and_repaired_by_restore() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(500, 1.0, 0.4, 3).unwrap();
    let v = Vertex::new(250);
    let far = pos[400];
    pos[v.index()] = (far + DVec3::splat(1e-3)).normalize();
    let before = mesh.clone();
    assert!(matches!(
        make_delaunay(&Sphere, &mut mesh, &pos),
        Err(DelaunayError::Inverted(_))
    ));
    assert_eq!(mesh, before);
    let stats = restore(
        &Sphere,
        &mut mesh,
        &mut pos,
        Some(&[v]),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(stats.relocated, 1);
    assert_eq!(delaunay::is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    mesh.check().unwrap();
}

/// Random flips (many of them fold the mesh), then `make_delaunay`: either a Delaunay mesh or
/// an error, never `Ok` with a mesh that is not Delaunay.
#[test]
fn make_delaunay_is_never_ok_when_not_delaunay() {
    let mut rng = testkit::Rng::new(99);
    let mut next = move |n: usize| rng.below(n);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..60 {
        let (mut mesh, pos) = sphere::fibonacci_sphere(200, 1.0, 0.4, case).unwrap();
        for _ in 0..1 + next(40) {
            let q = next(mesh.quad_slots()) as u32;
            let _ = mesh.flip(Edge::of_quad(q));
        }
        match make_delaunay(&Sphere, &mut mesh, &pos) {
            Ok(_) => {
                assert_eq!(delaunay::is_delaunay(&Sphere, &mesh, &pos), Ok(()));
                ok += 1;
            }
            Err(_) => {
                refused += 1;
                // restore repairs what flips cannot: the folds random flips made.
                let mut p = pos.clone();
                restore(&Sphere, &mut mesh, &mut p, None, &Default::default()).unwrap();
                assert_eq!(delaunay::is_delaunay(&Sphere, &mesh, &pos), Ok(()));
                assert_eq!(mesh.vertex_count(), 200);
            }
        }
        mesh.check().unwrap();
    }
    assert!(ok > 0 && refused > 0, "{ok} {refused}");
}
