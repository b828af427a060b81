//! Every error leaves the mesh and the positions bit-identical: points a few ulps off the
//! sphere next to co-circular configurations, where an insertion cannot keep every vertex on
//! the hull, and hostile input for each entry point.

mod common;

use common::Rng;
use delaunay::{
    AdaptOptions, DelaunayError, Sphere, adapt, insert, is_delaunay, locate, make_delaunay,
    make_delaunay_around, make_delaunay_from_edges, remove, restore,
};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};

/// The hull of `points` as a mesh (from-scratch triangulation).
fn hull(points: &[DVec3]) -> Mesh {
    let t = sphere::triangulate(points).unwrap();
    Mesh::from_triangles(points.len(), &t).unwrap()
}

fn cube() -> Vec<DVec3> {
    let mut p = Vec::new();
    for i in 0..8 {
        let s = |b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
        p.push(DVec3::new(s(0), s(1), s(2)).normalize());
    }
    p
}

fn octahedron() -> Vec<DVec3> {
    vec![
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        DVec3::NEG_X,
        DVec3::NEG_Y,
        DVec3::NEG_Z,
    ]
}

/// Points a few ulps off the sphere near the vertices, edge midpoints and face centres of a
/// nearly co-circular mesh: each insertion either succeeds with a Delaunay mesh, or fails
/// leaving everything as it was.
/// Returns the successes and the refusals that only the flip plan catches.
fn near_degenerate_insertions(points: Vec<DVec3>, seed: u64, tries: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let mut mesh = hull(&points);
    let mut pos = points;
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..tries {
        let anchors: Vec<DVec3> = mesh.vertices().map(|v| pos[v.index()]).collect();
        let q = anchors[rng.below(anchors.len())];
        let r = anchors[rng.below(anchors.len())];
        let base = match rng.below(3) {
            0 => q,
            1 => (q + r).normalize_or(q),
            _ => (q * 2.0 + r).normalize_or(q),
        };
        // A tangential nudge of a few ulps to a few 1e-9, and a radial one of a few ulps.
        let tangent = rng.unit_dvec3().cross(base).normalize_or(DVec3::X);
        let nudge = [1e-15, 1e-12, 1e-9][rng.below(3)] * rng.unit_f64();
        let radial = 1.0 + (rng.below(9) as f64 - 4.0) * f64::EPSILON;
        let p = (base + tangent * nudge) * radial;
        let before = (mesh.clone(), pos.clone());
        match insert(&Sphere, &mut mesh, &mut pos, p, None) {
            Ok(_) => {
                ok += 1;
                mesh.check().unwrap();
                assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
            }
            Err(e) => {
                refused += matches!(e, DelaunayError::NotConvex(_)) as usize;
                assert!(mesh == before.0, "{e:?} changed the mesh");
                assert!(
                    pos.len() == before.1.len()
                        && pos
                            .iter()
                            .zip(&before.1)
                            .all(|(a, b)| a.to_array().map(f64::to_bits)
                                == b.to_array().map(f64::to_bits)),
                    "{e:?} changed the positions"
                );
            }
        }
    }
    (ok, refused)
}

#[test]
fn insertions_next_to_cocircular_points_are_atomic() {
    let mut refused = 0;
    for seed in 0..6 {
        refused += near_degenerate_insertions(cube(), seed, 60).1;
        refused += near_degenerate_insertions(octahedron(), seed + 100, 60).1;
    }
    // The test must reach the refusal that used to come after the split.
    assert!(refused > 0);
}

#[test]
fn insertions_next_to_fibonacci_points_are_atomic() {
    let (mesh, pos) = sphere::fibonacci_sphere(200, 1.0, 0.0, 0).unwrap();
    let pts: Vec<DVec3> = mesh.vertices().map(|v| pos[v.index()]).collect();
    let (ok, refused) = near_degenerate_insertions(pts, 7, 300);
    assert!(ok > 0 && refused > 0, "{ok} {refused}");
}

/// Mesh and positions bit for bit (NaN slots included).
fn same(a: &(Mesh, Vec<DVec3>), mesh: &Mesh, pos: &[DVec3]) -> bool {
    let bits = |p: &DVec3| p.to_array().map(f64::to_bits);
    a.0 == *mesh && a.1.len() == pos.len() && a.1.iter().map(bits).eq(pos.iter().map(bits))
}

/// A vertex moved into the hull is found out only after its star was emptied and walked:
/// restore rolls back, with a journal and with the caller's undo log on.
#[test]
fn a_failed_restore_rolls_back() {
    for caller_log in [false, true] {
        let (mut mesh, mut pos) = sphere::fibonacci_sphere(400, 1.0, 0.3, 4).unwrap();
        let v = Vertex::new(123);
        // Far across the sphere (a fold), and inside the hull.
        pos[v.index()] = -pos[v.index()] * 0.5;
        let rec = mesh.record_changes().unwrap();
        if caller_log {
            mesh.start_undo_log().unwrap();
        }
        let before = (mesh.clone(), pos.clone());
        let r = restore(
            &Sphere,
            &mut mesh,
            &mut pos,
            Some(&[v]),
            &Default::default(),
        );
        assert_eq!(r, Err(DelaunayError::Outside));
        assert!(same(&before, &mesh, &pos));
        assert_eq!(mesh.take_changes(&rec).unwrap(), vec![]);
        assert_eq!(mesh.is_undo_logging(), caller_log);
        if caller_log {
            // The caller's log still describes the mesh: a flip, undone, gives it back.
            let e = mesh.directed_edges().next().unwrap();
            mesh.flip(e).unwrap();
            let log = mesh.take_undo_log().unwrap();
            mesh.undo(&log).unwrap();
            assert!(mesh == before.0);
        }
        mesh.check().unwrap();
    }
}

/// Removing vertices of a folded mesh (not Delaunay): every removal either works or leaves
/// everything as it was.
#[test]
fn removals_from_folded_meshes_are_atomic() {
    let mut rng = Rng::new(5);
    let mut failed = 0;
    for case in 0..8 {
        let (mut mesh, mut pos) = sphere::fibonacci_sphere(300, 1.0, 0.3, case).unwrap();
        for _ in 0..30 {
            let v = rng.below(300);
            pos[v] = rng.unit_dvec3();
        }
        for _ in 0..40 {
            let v = Vertex::new(rng.below(300) as u32);
            let before = (mesh.clone(), pos.clone());
            match remove(&Sphere, &mut mesh, &pos, v) {
                Ok(_) => assert!(!mesh.is_vertex_alive(v)),
                Err(_) => {
                    failed += 1;
                    assert!(same(&before, &mesh, &pos));
                }
            }
            mesh.check().unwrap();
        }
    }
    assert!(failed > 0);
}

/// Every entry point fed hostile input: dead ids, NaN, infinite and zero positions, short
/// position arrays, duplicates. Each error leaves mesh and positions bit-identical.
#[test]
fn hostile_input_changes_nothing() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(300, 1.0, 0.3, 6).unwrap();
    let removed = Vertex::new(17);
    remove(&Sphere, &mut mesh, &pos, removed).unwrap();
    let points = [
        DVec3::NAN,
        DVec3::INFINITY,
        DVec3::new(1.0, f64::NEG_INFINITY, 0.0),
        DVec3::ZERO,
        pos[5],
        pos[5] * 0.5,
        pos[5] * (1.0 + f64::EPSILON),
        DVec3::splat(1e300),
        DVec3::splat(1e-300),
    ];
    let dead = [removed, Vertex::new(299_999), Vertex::INVALID];
    let mut errors = 0;
    let mut check = |mesh: &Mesh, pos: &[DVec3], before: &(Mesh, Vec<DVec3>), failed: bool| {
        if failed {
            errors += 1;
            assert!(same(before, mesh, pos));
        }
    };
    let short: Vec<DVec3> = pos[..100].to_vec();
    for bad in [&short[..], &pos[..]] {
        let mut p = bad.to_vec();
        let before = (mesh.clone(), p.clone());
        for &q in &points {
            let mut m = mesh.clone();
            let r = insert(&Sphere, &mut m, &mut p, q, None);
            if r.is_ok() {
                continue;
            }
            check(&m, &p, &before, true);
        }
        for &v in &dead {
            let mut m = mesh.clone();
            let r = remove(&Sphere, &mut m, &p, v);
            check(&m, &p, &before, r.is_err());
            let r = restore(&Sphere, &mut m, &mut p, Some(&[v]), &Default::default());
            check(&m, &p, &before, r.is_err());
            let r = make_delaunay_around(&Sphere, &mut m, &p, &[v]);
            check(&m, &p, &before, r.is_err());
        }
        for f in [Face::new(1_000_000), Face::INVALID] {
            let r = locate(&Sphere, &mesh, &p, DVec3::X, Some(f));
            assert!(r.is_err(), "{r:?}");
        }
        let mut m = mesh.clone();
        let r = make_delaunay_from_edges(&Sphere, &mut m, &p, &[Edge::of_quad(u32::MAX >> 3)]);
        check(&m, &p, &before, r.is_err());
    }
    // Non-finite positions of live vertices: refused before any edit.
    for bad in [f64::NAN, f64::INFINITY] {
        let mut p = pos.clone();
        p[40] = DVec3::new(bad, 0.0, 1.0);
        let before = (mesh.clone(), p.clone());
        let mut m = mesh.clone();
        let n = m.neighbors(Vertex::new(40)).next().unwrap();
        let r = remove(&Sphere, &mut m, &p, n);
        check(&m, &p, &before, r.is_err());
        let r = restore(&Sphere, &mut m, &mut p, None, &Default::default());
        check(&m, &p, &before, r.is_err());
        let r = make_delaunay(&Sphere, &mut m, &p);
        check(&m, &p, &before, r.is_err());
        let r = adapt(
            &Sphere,
            &mut m,
            &mut p,
            |_, _| 0.1,
            &AdaptOptions::default(),
        );
        check(&m, &p, &before, r.is_err());
        let q = (p[n.index()] + p[41]).normalize();
        let r = insert(&Sphere, &mut m, &mut p, q, None);
        check(&m, &p, &before, r.is_err());
    }
    // A duplicate point, and a vertex moved onto another: named, nothing changed.
    let before = (mesh.clone(), pos.clone());
    assert_eq!(
        insert(&Sphere, &mut mesh, &mut pos, before.1[5], None),
        Err(DelaunayError::Duplicate(Vertex::new(5)))
    );
    check(&mesh, &pos, &before, true);
    let mut p = pos.clone();
    p[6] = p[5];
    let before = (mesh.clone(), p.clone());
    let r = restore(
        &Sphere,
        &mut mesh,
        &mut p,
        Some(&[Vertex::new(6)]),
        &Default::default(),
    );
    assert!(matches!(r, Err(DelaunayError::Collision { .. })), "{r:?}");
    check(&mesh, &p, &before, true);
    // Absurd adapt options and sizes.
    let mut p = pos.clone();
    for (size, split) in [
        (f64::NAN, 1.5),
        (0.0, 1.5),
        (-1.0, 1.5),
        (0.1, f64::NAN),
        (0.1, 0.1),
    ] {
        let before = (mesh.clone(), p.clone());
        let o = AdaptOptions {
            split_above: split,
            ..AdaptOptions::default()
        };
        let r = adapt(&Sphere, &mut mesh, &mut p, |_, _| size, &o);
        check(&mesh, &p, &before, r.is_err());
    }
    assert!(errors > 30, "{errors}");
    mesh.check().unwrap();
}

/// Long random sequences of near-degenerate insertions, removals and moves on small planets:
/// every operation either keeps the mesh Delaunay or fails leaving everything as it was.
#[test]
#[ignore = "long adversarial run: cargo xtask stress"]
fn stress_random_sequences_are_atomic() {
    let mut rng = Rng::new(77);
    let (mut failed, mut done) = (0usize, 0usize);
    for case in 0..40 {
        let (mut mesh, mut pos) = sphere::fibonacci_sphere(400, 1.0, 0.0, case).unwrap();
        for _ in 0..400 {
            let before = (mesh.clone(), pos.clone());
            let live: Vec<Vertex> = mesh.vertices().collect();
            let v = live[rng.below(live.len())];
            let result = match rng.below(3) {
                0 => {
                    let tangent = rng
                        .unit_dvec3()
                        .cross(pos[v.index()])
                        .normalize_or(DVec3::X);
                    let p = (pos[v.index()] + tangent * 1e-12 * rng.unit_f64())
                        * (1.0 + (rng.below(5) as f64 - 2.0) * f64::EPSILON);
                    insert(&Sphere, &mut mesh, &mut pos, p, None).map(|_| ())
                }
                1 => remove(&Sphere, &mut mesh, &pos, v).map(|_| ()),
                _ => {
                    let u = live[rng.below(live.len())];
                    pos[v.index()] = (pos[v.index()] * 3.0 + pos[u.index()]).normalize();
                    let moved = [v];
                    let r = restore(
                        &Sphere,
                        &mut mesh,
                        &mut pos,
                        Some(&moved),
                        &Default::default(),
                    );
                    if r.is_err() {
                        // The move itself is the caller's: put it back after checking the mesh.
                        assert!(mesh == before.0);
                        pos = before.1.clone();
                    }
                    r.map(|_| ())
                }
            };
            match result {
                Ok(()) => {
                    done += 1;
                    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
                }
                Err(_) => {
                    failed += 1;
                    assert!(same(&before, &mesh, &pos));
                }
            }
            mesh.check().unwrap();
        }
    }
    assert!(done > 0 && failed > 0, "{done} {failed}");
}
