//! Batch insertion and removal: the same triangulation as one by one, and hostile batches.

mod common;

use common::{Rng, canonical, from_scratch, triangle_set};
use delaunay::{
    BatchError, DelaunayError, Plane, Sphere, insert, insert_many, is_delaunay, remove, remove_many,
};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// A perturbed lattice: no four points co-circular, so the Delaunay triangulation is unique.
fn planet(n: usize, seed: u64) -> (Mesh, Vec<DVec3>) {
    sphere::fibonacci_sphere(n, 1.0, 0.5, seed).unwrap()
}

fn assert_delaunay_and_scratch(mesh: &Mesh, pos: &[DVec3]) {
    mesh.check().unwrap();
    assert_eq!(is_delaunay(&Sphere, mesh, pos), Ok(()));
    assert_eq!(triangle_set(mesh), from_scratch(mesh, pos));
}

/// The triangles of `mesh` with ids translated through `map`.
fn mapped_triangles(mesh: &Mesh, map: &[u32]) -> Vec<[u32; 3]> {
    let mut t: Vec<[u32; 3]> = triangle_set(mesh)
        .into_iter()
        .map(|t| canonical(t.map(|v| map[v as usize])))
        .collect();
    t.sort_unstable();
    t
}

#[test]
fn insert_many_equals_one_by_one() {
    for (n, k, seed) in [(200, 50, 1), (1000, 3000, 2), (5000, 1000, 3)] {
        let (mesh, pos) = planet(n, seed);
        let mut rng = Rng::new(seed);
        let points: Vec<DVec3> = (0..k).map(|_| rng.unit_dvec3()).collect();
        let (mut a, mut pa) = (mesh.clone(), pos.clone());
        let new_a = insert_many(&Sphere, &mut a, &mut pa, &points).unwrap();
        let (mut b, mut pb) = (mesh.clone(), pos.clone());
        let new_b: Vec<Vertex> = points
            .iter()
            .map(|&p| insert(&Sphere, &mut b, &mut pb, p, None).unwrap().vertex)
            .collect();
        for (i, v) in new_a.iter().enumerate() {
            assert_eq!(pa[v.index()], points[i]);
        }
        assert_eq!(a.vertex_count(), n + k);
        assert_delaunay_and_scratch(&a, &pa);
        // Old vertices keep their ids; new ones map through the input index.
        let mut map: Vec<u32> = (0..a.vertex_slots() as u32).collect();
        for (va, vb) in new_a.iter().zip(&new_b) {
            map[va.index()] = vb.raw();
        }
        assert_eq!(mapped_triangles(&a, &map), triangle_set(&b));
    }
}

#[test]
fn remove_many_equals_one_by_one() {
    for (n, seed) in [(300, 4), (3000, 5)] {
        let (mesh, pos) = planet(n, seed);
        let mut rng = Rng::new(seed);
        let mut victims: Vec<Vertex> = Vec::new();
        let mut taken = vec![false; n];
        while victims.len() < n / 3 {
            let v = rng.below(n);
            if !std::mem::replace(&mut taken[v], true) {
                victims.push(Vertex::new(v as u32));
            }
        }
        let mut a = mesh.clone();
        remove_many(&Sphere, &mut a, &pos, &victims).unwrap();
        let mut b = mesh.clone();
        for &v in &victims {
            remove(&Sphere, &mut b, &pos, v).unwrap();
        }
        assert_delaunay_and_scratch(&a, &pos);
        assert_eq!(triangle_set(&a), triangle_set(&b));
        assert!(victims.iter().all(|&v| !a.is_vertex_alive(v)));
    }
}

#[test]
fn random_batches_keep_the_mesh_delaunay() {
    let (mut mesh, mut pos) = planet(500, 6);
    let mut rng = Rng::new(6);
    for round in 0..12 {
        if round % 2 == 0 {
            let k = 1 + rng.below(300);
            let points: Vec<DVec3> = (0..k).map(|_| rng.unit_dvec3()).collect();
            insert_many(&Sphere, &mut mesh, &mut pos, &points).unwrap();
        } else {
            let live: Vec<Vertex> = mesh.vertices().collect();
            let mut victims: Vec<Vertex> =
                live.iter().copied().filter(|_| rng.below(4) == 0).collect();
            victims.truncate(live.len() - 4);
            remove_many(&Sphere, &mut mesh, &pos, &victims).unwrap();
        }
        assert_delaunay_and_scratch(&mesh, &pos);
    }
}

#[test]
fn insert_many_refuses_bad_batches_before_editing() {
    let (mesh, pos) = planet(400, 7);
    let mut rng = Rng::new(7);
    let good: Vec<DVec3> = (0..50).map(|_| rng.unit_dvec3()).collect();
    let run = |points: &[DVec3]| {
        let (mut m, mut p) = (mesh.clone(), pos.clone());
        let r = insert_many(&Sphere, &mut m, &mut p, points);
        (r, m, p)
    };
    // NaN, infinity, duplicates within the batch: nothing changed, index named.
    for (at, bad, error) in [
        (3, DVec3::NAN, DelaunayError::NonFinite(None)),
        (
            9,
            DVec3::new(f64::INFINITY, 0.0, 0.0),
            DelaunayError::NonFinite(None),
        ),
        (20, good[4], DelaunayError::Duplicate(Vertex::INVALID)),
    ] {
        let mut points = good.clone();
        points[at] = bad;
        let (r, m, p) = run(&points);
        let e = r.unwrap_err();
        assert_eq!((e.index, e.error), (at, error));
        assert!(e.done.iter().all(|v| !v.is_valid()));
        assert_eq!(m, mesh);
        assert_eq!(p, pos);
    }
    // Positions too short.
    let (mut m, mut p) = (mesh.clone(), pos[..10].to_vec());
    assert!(matches!(
        insert_many(&Sphere, &mut m, &mut p, &good),
        Err(BatchError {
            error: DelaunayError::PositionsTooShort { .. },
            ..
        })
    ));
    assert_eq!(m, mesh);
    // An empty batch is fine.
    assert_eq!(run(&[]).0, Ok(vec![]));
}

#[test]
fn insert_many_stops_at_a_point_already_present() {
    let (mesh, pos) = planet(400, 8);
    let mut rng = Rng::new(8);
    let mut points: Vec<DVec3> = (0..60).map(|_| rng.unit_dvec3()).collect();
    points[17] = pos[123];
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    let e = insert_many(&Sphere, &mut m, &mut p, &points).unwrap_err();
    assert_eq!(e.index, 17);
    assert_eq!(e.error, DelaunayError::Duplicate(Vertex::new(123)));
    // The documented state: exactly the points listed in `done` were inserted.
    let inserted: Vec<usize> = (0..points.len())
        .filter(|&i| e.done[i].is_valid())
        .collect();
    assert!(!e.done[17].is_valid());
    assert_eq!(m.vertex_count(), 400 + inserted.len());
    for &i in &inserted {
        assert_eq!(p[e.done[i].index()], points[i]);
    }
    assert_eq!(is_delaunay(&Sphere, &m, &p), Ok(()));
    m.check().unwrap();
    // The rest can follow: every point but the duplicate, not yet inserted.
    let rest: Vec<DVec3> = (0..points.len())
        .filter(|&i| i != 17 && !e.done[i].is_valid())
        .map(|i| points[i])
        .collect();
    insert_many(&Sphere, &mut m, &mut p, &rest).unwrap();
    assert_eq!(m.vertex_count(), 400 + 59);
    assert_delaunay_and_scratch(&m, &p);
}

#[test]
fn remove_many_refuses_bad_batches_before_editing() {
    let (mesh, pos) = planet(300, 9);
    let run = |victims: &[Vertex]| {
        let mut m = mesh.clone();
        let r = remove_many(&Sphere, &mut m, &pos, victims);
        assert_eq!(m, mesh, "{victims:?}");
        r.unwrap_err()
    };
    let e = run(&[Vertex::new(3), Vertex::new(300), Vertex::new(5)]);
    assert_eq!(
        (e.index, e.error),
        (1, DelaunayError::DeadVertex(Vertex::new(300)))
    );
    let e = run(&[Vertex::new(3), Vertex::INVALID]);
    assert_eq!(
        (e.index, e.error),
        (1, DelaunayError::DeadVertex(Vertex::INVALID))
    );
    let e = run(&[Vertex::new(3), Vertex::new(8), Vertex::new(3)]);
    assert_eq!(
        (e.index, e.error),
        (2, DelaunayError::DeadVertex(Vertex::new(3)))
    );
    let all: Vec<Vertex> = mesh.vertices().skip(3).collect();
    assert_eq!(run(&all).error, DelaunayError::TooFewVertices(300));
    // A vertex removed already is dead.
    let mut m = mesh.clone();
    remove(&Sphere, &mut m, &pos, Vertex::new(7)).unwrap();
    let before = m.clone();
    let e = remove_many(&Sphere, &mut m, &pos, &[Vertex::new(6), Vertex::new(7)]).unwrap_err();
    assert_eq!(
        (e.index, e.error),
        (1, DelaunayError::DeadVertex(Vertex::new(7)))
    );
    assert_eq!(m, before);
    // NaN position of a neighbour: removal refused mid-batch, earlier removals stay.
    let mut bad = pos.clone();
    let v = Vertex::new(150);
    let u = mesh.neighbors(v).next().unwrap();
    bad[u.index()] = DVec3::NAN;
    let mut m = mesh.clone();
    let e = remove_many(&Sphere, &mut m, &bad, &[v]).unwrap_err();
    assert_eq!((e.index, e.error), (0, DelaunayError::NonFinite(Some(u))));
    assert_eq!(m, mesh);
}

#[test]
fn plane_batches() {
    // The unit square, random points inside, one outside: the batch stops there.
    let mesh = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    let pos = vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(1.0, 1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
    ];
    let mut rng = Rng::new(10);
    let mut points: Vec<DVec3> = (0..300)
        .map(|_| {
            DVec3::new(
                0.01 + 0.98 * rng.unit_f64(),
                0.01 + 0.98 * rng.unit_f64(),
                0.0,
            )
        })
        .collect();
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    let new = insert_many(&Plane, &mut m, &mut p, &points).unwrap();
    m.check().unwrap();
    assert_eq!(is_delaunay(&Plane, &m, &p), Ok(()));
    // Interior vertices go again; a corner (boundary) stops the batch before any edit of it.
    let mut victims = new[..100].to_vec();
    victims.push(Vertex::new(2));
    let e = remove_many(&Plane, &mut m, &p, &victims).unwrap_err();
    assert_eq!(
        (e.index, e.error),
        (100, DelaunayError::BoundaryVertex(Vertex::new(2)))
    );
    assert_eq!(
        m.vertex_count(),
        304 - e.done.iter().filter(|v| v.is_valid()).count()
    );
    m.check().unwrap();
    assert_eq!(is_delaunay(&Plane, &m, &p), Ok(()));
    points.push(DVec3::new(2.0, 0.5, 0.0));
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    let e = insert_many(&Plane, &mut m, &mut p, &points).unwrap_err();
    assert_eq!((e.index, e.error), (300, DelaunayError::Outside));
    assert_eq!(is_delaunay(&Plane, &m, &p), Ok(()));
}

#[test]
fn insert_many_then_remove_many_gives_back_the_mesh() {
    let (mesh, pos) = planet(2000, 11);
    let mut rng = Rng::new(11);
    let points: Vec<DVec3> = (0..1500).map(|_| rng.unit_dvec3()).collect();
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    let new = insert_many(&Sphere, &mut m, &mut p, &points).unwrap();
    remove_many(&Sphere, &mut m, &p, &new).unwrap();
    m.check().unwrap();
    assert_eq!(triangle_set(&m), triangle_set(&mesh));
}

/// Many random batches at several sizes, checked after each (`cargo xtask stress`).
#[test]
#[ignore]
fn stress_random_batches() {
    for seed in 0..20 {
        let (mut mesh, mut pos) = planet(1000 + 500 * seed as usize, 100 + seed);
        let mut rng = Rng::new(seed);
        for _ in 0..20 {
            let points: Vec<DVec3> = (0..rng.below(2000)).map(|_| rng.unit_dvec3()).collect();
            insert_many(&Sphere, &mut mesh, &mut pos, &points).unwrap();
            let live: Vec<Vertex> = mesh.vertices().collect();
            let mut victims: Vec<Vertex> =
                live.iter().copied().filter(|_| rng.below(3) == 0).collect();
            victims.truncate(live.len() - 4);
            remove_many(&Sphere, &mut mesh, &pos, &victims).unwrap();
            assert_delaunay_and_scratch(&mesh, &pos);
        }
    }
}

#[test]
fn insert_many_under_atomically_is_all_or_nothing() {
    let (mesh, pos) = planet(600, 12);
    let mut rng = Rng::new(12);
    let mut points: Vec<DVec3> = (0..100).map(|_| rng.unit_dvec3()).collect();
    points[60] = pos[5];
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    let len = p.len();
    let r = m.atomically(|m| insert_many(&Sphere, m, &mut p, &points));
    assert_eq!(
        r.unwrap_err().error,
        DelaunayError::Duplicate(Vertex::new(5))
    );
    p.truncate(len);
    assert_eq!(m, mesh);
    assert_eq!(p, pos);
}

/// `insert_many_atomic`: random batches on a mesh with dead slots; a batch with a point on a
/// vertex (or twice the same point) fails and leaves mesh and positions, dead slots included,
/// as they were; a clean batch is the same as `insert_many`.
#[test]
fn atomic_batches_leave_nothing_behind() {
    let mut rng = Rng::new(77);
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(400, 1.0, 0.3, 3).unwrap();
    for round in 0..40 {
        let live: Vec<Vertex> = mesh.vertices().collect();
        let victims: Vec<Vertex> = (0..5).map(|_| live[rng.below(live.len())]).collect();
        for v in victims {
            let _ = delaunay::remove(&Sphere, &mut mesh, &pos, v);
        }
        let mut points: Vec<DVec3> = (0..20).map(|_| rng.unit_dvec3()).collect();
        let fails = round % 2 == 0;
        if fails {
            let on = mesh.vertices().nth(rng.below(mesh.vertex_count())).unwrap();
            points[rng.below(20)] = pos[on.index()];
        }
        let (before, before_pos) = (mesh.clone(), pos.clone());
        match delaunay::insert_many_atomic(&Sphere, &mut mesh, &mut pos, &points) {
            Ok(new) => {
                assert!(!fails);
                let (mut m2, mut p2) = (before, before_pos);
                assert_eq!(insert_many(&Sphere, &mut m2, &mut p2, &points), Ok(new));
                assert_eq!((&mesh, &pos), (&m2, &p2));
            }
            Err(e) => {
                assert!(fails, "{e:?}");
                assert!(e.done.iter().all(|v| !v.is_valid()));
                assert_eq!(mesh, before);
                assert_eq!(pos.len(), before_pos.len());
                assert!(
                    pos.iter()
                        .zip(&before_pos)
                        .all(|(a, b)| a.to_array().map(f64::to_bits)
                            == b.to_array().map(f64::to_bits))
                );
            }
        }
    }
}
