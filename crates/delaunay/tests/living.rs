//! Living meshes: restore after plate motions, insert/remove round trips, random sequences.

mod common;

use common::{Rng, from_scratch, in_closed_hemisphere, plate_motion, triangle_set};
use delaunay::{
    DelaunayError, Location, RestoreOptions, Sphere, delaunay_report, insert, is_delaunay, locate,
    nearest_vertex, remove, restore,
};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// A perturbed lattice: no four points co-circular, so the Delaunay triangulation is unique.
fn planet(n: usize, seed: u64) -> (Mesh, Vec<DVec3>) {
    sphere::fibonacci_sphere(n, 1.0, 0.5, seed).unwrap()
}

fn mean_edge(n: usize) -> f64 {
    (8.0 * std::f64::consts::PI / (n as f64 * 3f64.sqrt())).sqrt()
}

fn assert_same_as_scratch(mesh: &Mesh, pos: &[DVec3]) {
    mesh.check().unwrap();
    assert_eq!(is_delaunay(&Sphere, mesh, pos), Ok(()));
    assert_eq!(triangle_set(mesh), from_scratch(mesh, pos));
}

#[test]
fn restore_after_plate_motions_equals_scratch() {
    for (n, seed) in [(300, 1), (2000, 2), (6000, 3)] {
        let (mut mesh, mut pos) = planet(n, seed);
        let ids: Vec<Vertex> = mesh.vertices().collect();
        let mut rng = Rng::new(seed);
        let mut folded = 0;
        for step in 0..4 {
            // Half an edge length, then larger turns that fold plate boundaries.
            let angle = mean_edge(n) * [0.5, 1.5, 4.0, 0.5][step];
            let moved = plate_motion(&mesh, &mut pos, 6, angle, &mut rng);
            let stats = restore(
                &Sphere,
                &mut mesh,
                &mut pos,
                Some(&moved),
                &Default::default(),
            )
            .unwrap_or_else(|e| panic!("n {n} step {step}: {e}"));
            folded += stats.folds;
            assert_same_as_scratch(&mesh, &pos);
            assert_eq!(
                mesh.vertices().collect::<Vec<_>>(),
                ids,
                "vertex ids changed"
            );
        }
        assert!(folded > 0, "n {n}: the motions never folded");
    }
}

#[test]
fn restore_without_a_moved_list_scans_everything() {
    let (mut mesh, mut pos) = planet(1500, 7);
    let mut rng = Rng::new(70);
    plate_motion(&mesh, &mut pos, 5, 3.0 * mean_edge(1500), &mut rng);
    assert!(matches!(is_delaunay(&Sphere, &mesh, &pos), Err(Ok(_))));
    restore(&Sphere, &mut mesh, &mut pos, None, &Default::default()).unwrap();
    assert_same_as_scratch(&mesh, &pos);
}

#[test]
fn a_vertex_thrown_across_the_sphere_is_relocated() {
    let (mut mesh, mut pos) = planet(1000, 4);
    let v = Vertex::new(123);
    pos[v.index()] = DVec3::new(0.31, -0.72, 0.4).normalize();
    let stats = restore(
        &Sphere,
        &mut mesh,
        &mut pos,
        Some(&[v]),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(stats.relocated, 1);
    assert!(stats.folds > 0);
    assert_same_as_scratch(&mesh, &pos);
}

#[test]
fn collisions_are_named_or_merged() {
    let (mesh0, pos0) = planet(800, 5);
    let (v, u) = (Vertex::new(10), Vertex::new(600));
    // Exactly onto another vertex, far away.
    let (mut mesh, mut pos) = (mesh0.clone(), pos0.clone());
    pos[v.index()] = pos[u.index()];
    let err = restore(
        &Sphere,
        &mut mesh,
        &mut pos,
        Some(&[v]),
        &Default::default(),
    );
    assert_eq!(err, Err(DelaunayError::Collision { moved: v, other: u }));
    mesh.check().unwrap();
    // Merged on request: v is gone, the rest is Delaunay.
    let (mut mesh, mut pos) = (mesh0.clone(), pos0.clone());
    pos[v.index()] = pos[u.index()];
    let merge = RestoreOptions {
        merge_collisions: true,
        ..Default::default()
    };
    let stats = restore(&Sphere, &mut mesh, &mut pos, Some(&[v]), &merge).unwrap();
    assert_eq!(stats.merged, 1);
    assert!(!mesh.is_vertex_alive(v) && mesh.is_vertex_alive(u));
    assert_eq!(mesh.vertex_count(), 799);
    assert_same_as_scratch(&mesh, &pos);
    // Within a tolerance.
    let (mut mesh, mut pos) = (mesh0.clone(), pos0.clone());
    pos[v.index()] = (pos[u.index()] + DVec3::splat(1e-6)).normalize();
    let near = RestoreOptions {
        tolerance: 1e-4,
        ..Default::default()
    };
    let err = restore(&Sphere, &mut mesh, &mut pos, Some(&[v]), &near);
    assert_eq!(err, Err(DelaunayError::Collision { moved: v, other: u }));
    mesh.check().unwrap();
}

#[test]
fn restore_refuses_bad_input_unchanged() {
    let (mut mesh, mut pos) = planet(200, 6);
    let before = (mesh.clone(), pos.clone());
    let dead = Vertex::new(5000);
    assert_eq!(
        restore(
            &Sphere,
            &mut mesh,
            &mut pos,
            Some(&[dead]),
            &Default::default()
        ),
        Err(DelaunayError::DeadVertex(dead))
    );
    pos[3] = DVec3::NAN;
    assert_eq!(
        restore(
            &Sphere,
            &mut mesh,
            &mut pos,
            Some(&[Vertex::new(3)]),
            &Default::default()
        ),
        Err(DelaunayError::NonFinite(Some(Vertex::new(3))))
    );
    pos[3] = before.1[3];
    let mut short = pos[..100].to_vec();
    assert!(matches!(
        restore(&Sphere, &mut mesh, &mut short, None, &Default::default()),
        Err(DelaunayError::PositionsTooShort { .. })
    ));
    assert_eq!((mesh, pos), before);
}

#[test]
fn insert_then_remove_gives_back_the_same_triangulation() {
    let (mut mesh, mut pos) = planet(3000, 8);
    let before = triangle_set(&mesh);
    let mut rng = Rng::new(80);
    let mut hint = None;
    for _ in 0..200 {
        let p = rng.unit_dvec3();
        let ins = insert(&Sphere, &mut mesh, &mut pos, p, hint).unwrap();
        assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
        remove(&Sphere, &mut mesh, &pos, ins.vertex).unwrap();
        assert_eq!(triangle_set(&mesh), before);
        hint = mesh.faces().next();
    }
    mesh.check().unwrap();
}

#[test]
fn insertions_and_removals_equal_scratch() {
    let (mut mesh, mut pos) = planet(500, 9);
    let mut rng = Rng::new(90);
    for _ in 0..500 {
        insert(&Sphere, &mut mesh, &mut pos, rng.unit_dvec3(), None).unwrap();
    }
    assert_same_as_scratch(&mesh, &pos);
    for _ in 0..700 {
        let live: Vec<Vertex> = mesh.vertices().collect();
        remove(&Sphere, &mut mesh, &pos, live[rng.below(live.len())]).unwrap();
    }
    assert_eq!(mesh.vertex_count(), 300);
    assert_same_as_scratch(&mesh, &pos);
    // Down to the tetrahedron, then refused. A removal that would leave the rest in one
    // hemisphere is refused (checked independently); another vertex goes instead.
    'outer: while mesh.vertex_count() > 4 {
        let live: Vec<Vertex> = mesh.vertices().collect();
        for &v in &live {
            match remove(&Sphere, &mut mesh, &pos, v) {
                Ok(_) => continue 'outer,
                Err(DelaunayError::NotSpanning(_)) => {
                    let rest: Vec<DVec3> = live
                        .iter()
                        .filter(|&&u| u != v)
                        .map(|u| pos[u.index()])
                        .collect();
                    assert!(in_closed_hemisphere(&rest));
                }
                Err(e) => panic!("{e:?}"),
            }
        }
        // Every vertex holds the rest around the centre (possible from five points on).
        break;
    }
    mesh.check().unwrap();
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    if mesh.vertex_count() > 4 {
        return;
    }
    let v = mesh.vertices().next().unwrap();
    assert_eq!(
        remove(&Sphere, &mut mesh, &pos, v),
        Err(DelaunayError::TooFewVertices(4))
    );
}

#[test]
fn insert_on_an_edge_and_on_a_vertex() {
    let (mut mesh, mut pos) = planet(400, 10);
    let e = mesh.undirected_edges().nth(50).unwrap();
    let (a, b) = (pos[mesh.origin(e).index()], pos[mesh.dest(e).index()]);
    // The midpoint's direction lies exactly on the edge's great circle only when rounding
    // allows; use the exact case of an octahedron instead below, and here a vertex duplicate.
    let mid = (a + b).normalize();
    assert!(insert(&Sphere, &mut mesh, &mut pos, mid, None).is_ok());
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    let p7 = pos[7];
    assert_eq!(
        insert(&Sphere, &mut mesh, &mut pos, p7, None),
        Err(DelaunayError::Duplicate(Vertex::new(7)))
    );
    // Octahedron: (1, 1, 0) / √2 lies exactly on the edge X–Y's great circle (z = 0).
    let (mut mesh, mut pos) = sphere::sphere_mesh(&testkit::OCTAHEDRON_POINTS).unwrap();
    let p = DVec3::new(1.0, 1.0, 0.0).normalize();
    let ins = insert(&Sphere, &mut mesh, &mut pos, p, None).unwrap();
    assert!(ins.on_edge);
    mesh.check().unwrap();
    assert_eq!(
        delaunay_report(&Sphere, &mesh, &pos).unwrap().non_delaunay,
        vec![]
    );
    // A point inside the hull is not in convex position.
    assert_eq!(
        insert(
            &Sphere,
            &mut mesh,
            &mut pos,
            DVec3::new(0.1, 0.2, 0.3),
            None
        ),
        Err(DelaunayError::Outside)
    );
}

#[test]
fn locate_agrees_with_brute_force() {
    let (mesh, pos) = planet(2000, 11);
    let mut rng = Rng::new(110);
    let mut hint = None;
    for _ in 0..500 {
        let p = rng.unit_dvec3();
        let loc = locate(&Sphere, &mesh, &pos, p, hint).unwrap();
        let Location::InFace(f) = loc else {
            panic!("{loc:?}")
        };
        let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
        let t = |x: DVec3, y: DVec3| x.cross(y).dot(p);
        assert!(t(a, b) > 0.0 && t(b, c) > 0.0 && t(c, a) > 0.0);
        hint = Some(f);
        // Nearest vertex against a scan.
        let (v, _) = nearest_vertex(&Sphere, &mesh, &pos, p, hint).unwrap();
        let best = mesh
            .vertices()
            .max_by(|x, y| p.dot(pos[x.index()]).total_cmp(&p.dot(pos[y.index()])))
            .unwrap();
        assert_eq!(v, best);
    }
    assert!(matches!(
        locate(&Sphere, &mesh, &pos, DVec3::NAN, None),
        Err(DelaunayError::NonFinite(None))
    ));
    assert!(matches!(
        locate(
            &Sphere,
            &mesh,
            &pos,
            DVec3::X,
            Some(quadedge::Face::new(99_999))
        ),
        Err(DelaunayError::DeadFace(_))
    ));
}

#[test]
fn random_sequences_of_insert_remove_move() {
    for seed in 0..8u64 {
        let (mut mesh, mut pos) = planet(400, 20 + seed);
        let mut rng = Rng::new(200 + seed);
        for op in 0..120 {
            match rng.below(4) {
                0 => {
                    insert(&Sphere, &mut mesh, &mut pos, rng.unit_dvec3(), None).unwrap();
                }
                1 if mesh.vertex_count() > 50 => {
                    let live: Vec<Vertex> = mesh.vertices().collect();
                    remove(&Sphere, &mut mesh, &pos, live[rng.below(live.len())]).unwrap();
                }
                _ => {
                    let live: Vec<Vertex> = mesh.vertices().collect();
                    let k = 1 + rng.below(8);
                    let moved: Vec<Vertex> = (0..k).map(|_| live[rng.below(live.len())]).collect();
                    for &v in &moved {
                        let d = rng.unit_dvec3() * mean_edge(400) * 2.0 * rng.unit_f64();
                        pos[v.index()] = (pos[v.index()] + d).normalize();
                    }
                    restore(
                        &Sphere,
                        &mut mesh,
                        &mut pos,
                        Some(&moved),
                        &Default::default(),
                    )
                    .unwrap_or_else(|e| panic!("seed {seed} op {op}: {e}"));
                }
            }
            mesh.check().unwrap();
            assert_eq!(
                is_delaunay(&Sphere, &mesh, &pos),
                Ok(()),
                "seed {seed} op {op}"
            );
        }
        assert_eq!(triangle_set(&mesh), from_scratch(&mesh, &pos));
    }
}

/// Long adversarial run (`cargo xtask stress`): many seeds, larger planets, large folds.
#[test]
#[ignore = "stress: run with --release -- --ignored stress_"]
fn stress_restore_and_random_sequences() {
    for seed in 0..6u64 {
        let n = 20_000;
        let (mut mesh, mut pos) = planet(n, 100 + seed);
        let mut rng = Rng::new(1000 + seed);
        for step in 0..8 {
            let angle = mean_edge(n) * [0.5, 1.0, 3.0, 8.0][step % 4];
            let moved = plate_motion(&mesh, &mut pos, 12, angle, &mut rng);
            restore(
                &Sphere,
                &mut mesh,
                &mut pos,
                Some(&moved),
                &Default::default(),
            )
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: {e}"));
            assert_same_as_scratch(&mesh, &pos);
        }
    }
    for seed in 0..200u64 {
        let (mut mesh, mut pos) = planet(300, seed);
        let mut rng = Rng::new(5000 + seed);
        for op in 0..200 {
            if rng.below(3) == 0 {
                insert(&Sphere, &mut mesh, &mut pos, rng.unit_dvec3(), None).unwrap();
            } else {
                let live: Vec<Vertex> = mesh.vertices().collect();
                let moved: Vec<Vertex> = (0..1 + rng.below(20))
                    .map(|_| live[rng.below(live.len())])
                    .collect();
                for &v in &moved {
                    let d = rng.unit_dvec3() * mean_edge(300) * 4.0 * rng.unit_f64();
                    pos[v.index()] = (pos[v.index()] + d).normalize();
                }
                restore(
                    &Sphere,
                    &mut mesh,
                    &mut pos,
                    Some(&moved),
                    &Default::default(),
                )
                .unwrap_or_else(|e| panic!("seed {seed} op {op}: {e}"));
            }
            assert_eq!(
                is_delaunay(&Sphere, &mesh, &pos),
                Ok(()),
                "seed {seed} op {op}"
            );
        }
        assert_same_as_scratch(&mesh, &pos);
    }
}

#[test]
#[ignore = "stress: run with --release -- --ignored stress_"]
fn stress_locate_walk_lengths() {
    let (mesh, pos) = sphere::fibonacci_sphere(200_000, 1.0, 0.0, 0).unwrap();
    let mut rng = Rng::new(3);
    let f0 = mesh.faces().nth(1000).unwrap();
    let mut pairs = Vec::new();
    for _ in 0..2000 {
        let p = rng.unit_dvec3();
        let q = (p + rng.unit_dvec3() * 0.05).normalize();
        let Some(f) = locate(&Sphere, &mesh, &pos, q, Some(f0))
            .unwrap()
            .face(&mesh)
        else {
            panic!()
        };
        pairs.push((p, f));
    }
    let t = std::time::Instant::now();
    for &(p, f) in &pairs {
        locate(&Sphere, &mesh, &pos, p, Some(f)).unwrap();
    }
    eprintln!("2000 short walks in {:?}", t.elapsed());
}

#[test]
#[ignore = "stress: run with --release -- --ignored stress_"]
fn stress_remove_timing_probe() {
    let (mut mesh, pos) = sphere::fibonacci_sphere(1_000_000, 1.0, 0.0, 0).unwrap();
    let mut rng = Rng::new(9);
    let mut victims: Vec<u32> = (0..1_000_000).collect();
    for i in 0..20_000 {
        let j = i + rng.below(1_000_000 - i);
        victims.swap(i, j);
    }
    let t = std::time::Instant::now();
    let mut ears = 0;
    let mut flips = 0;
    for &k in &victims[..20_000] {
        let r = remove(&Sphere, &mut mesh, &pos, Vertex::new(k)).unwrap();
        ears += r.ear_flips;
        flips += r.flips;
    }
    eprintln!(
        "20k removals in {:?}: {ears} ear flips, {flips} flips",
        t.elapsed()
    );
}

#[test]
#[ignore = "stress: run with --release -- --ignored stress_"]
fn stress_insert_timing_probe() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(200_000, 1.0, 0.0, 0).unwrap();
    let mut rng = Rng::new(4);
    let mut pts: Vec<DVec3> = (0..200_000).map(|_| rng.unit_dvec3()).collect();
    let key = |p: &DVec3| {
        let q = ((*p + DVec3::ONE) * 511.5).as_uvec3();
        (0..10).fold(0u64, |k, b| {
            k | (((q.x >> b) & 1) as u64) << (3 * b)
                | (((q.y >> b) & 1) as u64) << (3 * b + 1)
                | (((q.z >> b) & 1) as u64) << (3 * b + 2)
        })
    };
    pts.sort_by_key(key);
    let t = std::time::Instant::now();
    let mut hint = None;
    for &p in &pts {
        let ins = insert(&Sphere, &mut mesh, &mut pos, p, hint).unwrap();
        hint = mesh.vertex_faces(ins.vertex).next();
    }
    eprintln!("200k insertions in {:?}", t.elapsed());
}
