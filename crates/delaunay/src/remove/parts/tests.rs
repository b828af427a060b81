//! Removals in parts: the triangulation of the serial batch, Delaunay and valid, the same
//! mesh on any thread count; bad batches refused before any edit.

use super::*;
use crate::{DelaunayError, Sphere, is_delaunay, remove_many};
use testkit::thread_pools as pools;

/// The triangles of the mesh by vertex ids, each from its lowest corner, sorted.
fn triangles(mesh: &Mesh) -> Vec<[u32; 3]> {
    let mut t: Vec<[u32; 3]> = mesh
        .faces()
        .map(|f| {
            let c = mesh.face_vertices(f).map(|v| v.raw());
            let k = (0..3).min_by_key(|&k| c[k]).unwrap_or(0);
            [c[k], c[(k + 1) % 3], c[(k + 2) % 3]]
        })
        .collect();
    t.sort_unstable();
    t
}

/// A sphere of `n` points and two batches: random vertices, and every vertex of a band
/// around a great circle (a strip: most victims have a victim neighbour).
fn batches(n: usize, seed: u64) -> (Mesh, Vec<DVec3>, [Vec<Vertex>; 2]) {
    let (mesh, pos) = sphere::fibonacci_sphere(n, 1.0, 0.3, seed).unwrap();
    let victims = victims(&mesh, &pos, seed);
    (mesh, pos, victims)
}

/// Every fourth vertex (drawn from `seed`), and every vertex within 0.08 radii of a great
/// circle, on a sphere of any radius.
pub(super) fn victims(mesh: &Mesh, pos: &[DVec3], seed: u64) -> [Vec<Vertex>; 2] {
    let mut rng = testkit::Rng::new(seed);
    let random: Vec<Vertex> = mesh
        .vertices()
        .filter(|_| rng.next_u64().is_multiple_of(4))
        .collect();
    let normal = DVec3::new(0.3, 0.8, -0.52).normalize();
    let r = pos[0].length();
    let strip: Vec<Vertex> = mesh
        .vertices()
        .filter(|v| (normal.dot(pos[v.index()]) / r).abs() < 0.08)
        .collect();
    [random, strip]
}

#[test]
fn removal_in_parts_gives_the_serial_triangulation_on_any_thread_count() {
    for (n, seed) in [(3000, 1), (5000, 2)] {
        let (mesh, pos, sets) = batches(n, seed);
        for victims in sets {
            assert!(victims.len() >= PARTS_MIN);
            let mut serial = mesh.clone();
            remove_many(&Sphere, &mut serial, &pos, &victims).unwrap();
            let mut first: Option<Mesh> = None;
            for pool in pools() {
                let mut m = mesh.clone();
                pool.install(|| remove_many_in_parts(&Sphere, &mut m, &pos, &victims))
                    .unwrap();
                m.check().unwrap();
                assert_eq!(is_delaunay(&Sphere, &m, &pos), Ok(()));
                assert_eq!(m.vertex_count(), n - victims.len());
                assert_eq!(triangles(&m), triangles(&serial));
                match &first {
                    Some(m0) => assert_eq!(*m0, m),
                    None => first = Some(m),
                }
            }
        }
    }
}

#[test]
fn both_parts_remove_and_the_seam_is_left_to_the_serial_pass() {
    let (mesh, pos, [random, strip]) = batches(4000, 3);
    for victims in [random, strip] {
        let order = removal_order(&Sphere, &mesh, &pos, &victims).unwrap();
        let sorted: Vec<u32> = order.iter().map(|&(_, i)| i).collect();
        let mut m = mesh.clone();
        let mut done = vec![Vertex::INVALID; victims.len()];
        let batch = (&victims[..], &sorted[..]);
        let left = in_parts(
            &Sphere,
            None::<(&Sphere, f64)>,
            &mut m,
            &pos,
            batch,
            &mut done,
        );
        let removed = done.iter().filter(|v| v.is_valid()).count();
        assert_eq!(removed + left.len(), victims.len());
        assert!(
            removed > victims.len() / 2,
            "{removed} of {}",
            victims.len()
        );
        // What the parts did is a Delaunay mesh without their vertices.
        m.check().unwrap();
        assert_eq!(is_delaunay(&Sphere, &m, &pos), Ok(()));
        for (i, v) in victims.iter().enumerate() {
            assert_eq!(m.is_vertex_alive(*v), !done[i].is_valid());
        }
        // Left in the batch's order.
        let rank = |i: u32| sorted.iter().position(|&j| j == i);
        assert!(left.windows(2).all(|w| rank(w[0]) < rank(w[1])));
    }
}

#[test]
fn removal_in_parts_refuses_bad_batches_before_editing() {
    let (mesh, pos, [random, _]) = batches(3000, 4);
    let dead = Vertex::new(10_000);
    let twice = {
        let mut t = random.clone();
        t.push(random[7]);
        t
    };
    let mut with_dead = random.clone();
    with_dead.insert(300, dead);
    let cases: [(&[Vertex], usize, DelaunayError); 2] = [
        (&with_dead, 300, DelaunayError::DeadVertex(dead)),
        (&twice, random.len(), DelaunayError::DeadVertex(random[7])),
    ];
    for (victims, index, error) in cases {
        for pool in pools() {
            let mut m = mesh.clone();
            let e = pool
                .install(|| remove_many_in_parts(&Sphere, &mut m, &pos, victims))
                .unwrap_err();
            assert_eq!((e.index, e.error), (index, error.clone()));
            assert!(e.done.iter().all(|v| !v.is_valid()));
            assert_eq!(m, mesh);
        }
    }
    // A vertex removed already (dead now), and too few left.
    let mut m = mesh.clone();
    remove_many_in_parts(&Sphere, &mut m, &pos, &random).unwrap();
    let after = m.clone();
    let e = remove_many_in_parts(&Sphere, &mut m, &pos, &random[..300]).unwrap_err();
    assert_eq!(
        (e.index, e.error),
        (0, DelaunayError::DeadVertex(random[0]))
    );
    assert_eq!(m, after);
    let all: Vec<Vertex> = mesh.vertices().collect();
    let mut m = mesh.clone();
    let e = remove_many_in_parts(&Sphere, &mut m, &pos, &all).unwrap_err();
    assert_eq!(e.error, DelaunayError::TooFewVertices(3000));
    assert_eq!(m, mesh);
}

#[test]
fn removal_in_parts_is_rolled_back_whole() {
    let (mesh, pos, [_, strip]) = batches(3000, 5);
    for pool in pools() {
        let mut m = mesh.clone();
        let r: Result<(), ()> = m.atomically(|m| {
            pool.install(|| remove_many_in_parts(&Sphere, m, &pos, &strip))
                .unwrap();
            Err(())
        });
        assert!(r.is_err());
        assert_eq!(m, mesh);
    }
}

#[test]
fn non_finite_positions_fail_as_in_the_serial_batch() {
    let (mesh, mut pos, [random, _]) = batches(3000, 6);
    // A neighbour of a victim that stays, not finite: the serial pass names the victim.
    let v = random[40];
    let u = mesh.neighbors(v).find(|u| !random.contains(u)).unwrap();
    pos[u.index()] = DVec3::NAN;
    let mut serial = mesh.clone();
    let e0 = remove_many(&Sphere, &mut serial, &pos, &random).unwrap_err();
    let mut m = mesh.clone();
    let e1 = remove_many_in_parts(&Sphere, &mut m, &pos, &random).unwrap_err();
    assert_eq!(e1.error, e0.error);
    assert!(matches!(e1.error, DelaunayError::NonFinite(_)));
    m.check().unwrap();
}
