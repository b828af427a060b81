//! A large restore's relocations and flips made in two parts at once: the same mesh (every
//! array, free lists included), stats and changed vertices on 1, 2 and 4 threads; exactly
//! Delaunay after each of many motions; a failure after the parallel edits leaves the mesh as
//! it was.

mod common;

use common::{Rng, from_scratch, plate_motion, triangle_set};
use delaunay::{
    DelaunayError, RestoreOptions, RestoreStats, Sphere, is_delaunay, restore_with_changes,
};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

fn mean_edge(n: usize) -> f64 {
    (8.0 * std::f64::consts::PI / (n as f64 * 3f64.sqrt())).sqrt()
}

/// `restore_with_changes` of `moved` on a pool of `threads` threads.
fn restore_on(
    threads: usize,
    mesh: &Mesh,
    pos: &[DVec3],
    moved: &[Vertex],
    options: &RestoreOptions,
) -> (Mesh, Result<RestoreStats, DelaunayError>, Vec<Vertex>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let (mut mesh, mut pos) = (mesh.clone(), pos.to_vec());
        let mut changed = Vec::new();
        let r = restore_with_changes(
            &Sphere,
            &mut mesh,
            &mut pos,
            Some(moved),
            options,
            &mut changed,
        );
        (mesh, r, changed)
    })
}

/// Plates turned by up to several cells, again and again: the same repair on 1, 2 and 4
/// threads, every time an exact Delaunay triangulation equal to one built from scratch, with
/// every vertex kept.
#[test]
fn flips_in_parts_are_the_same_for_any_thread_count_and_delaunay() {
    let options = RestoreOptions::default();
    // Relocations in parts start from 256 folded vertices: some rounds must get there.
    let mut most_relocated = 0;
    for (n, seed, plates) in [(20_000, 11, 9), (40_000, 12, 14)] {
        let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.4, seed).unwrap();
        let mut rng = Rng::new(seed);
        for (round, cells) in [0.7, 2.5, 1.5, 4.0, 1.0].into_iter().enumerate() {
            let moved = plate_motion(&mesh, &mut pos, plates, cells * mean_edge(n), &mut rng);
            let (one, s1, c1) = restore_on(1, &mesh, &pos, &moved, &options);
            let s1 = s1.unwrap();
            eprintln!("stats n {n} round {round}: {s1:?}");
            for threads in [2, 4] {
                let (m, s, c) = restore_on(threads, &mesh, &pos, &moved, &options);
                assert!(
                    m == one,
                    "n {n} round {round}: mesh differs on {threads} threads"
                );
                assert_eq!(s.unwrap(), s1, "n {n} round {round}: {threads} threads");
                assert_eq!(c, c1, "n {n} round {round}: {threads} threads");
            }
            one.check().unwrap();
            assert_eq!(
                is_delaunay(&Sphere, &one, &pos),
                Ok(()),
                "n {n} round {round}"
            );
            assert_eq!(
                triangle_set(&one),
                from_scratch(&one, &pos),
                "n {n} {round}"
            );
            assert_eq!(one.vertex_count(), n);
            assert!(s1.flips > 0, "n {n} round {round}: {s1:?}");
            // Relocations that refold each other in a part would run to its budget (16 a
            // folded vertex): a restore relocates each folded vertex about once.
            assert!(
                s1.relocated <= 2 * s1.folds + 64,
                "n {n} round {round}: {s1:?}"
            );
            most_relocated = most_relocated.max(s1.relocated);
            mesh = one;
        }
    }
    assert!(most_relocated >= 400, "{most_relocated}");
}

/// A restore that fails after its flips (a collision within the tolerance, found once the
/// mesh is repaired) leaves the mesh bit-identical to before, on any thread count.
#[test]
fn a_failure_after_the_flips_in_parts_changes_nothing() {
    let n = 30_000;
    let (mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.4, 5).unwrap();
    let mut rng = Rng::new(5);
    let mut moved = plate_motion(&mesh, &mut pos, 10, 2.5 * mean_edge(n), &mut rng);
    // A vertex with a convex link, pulled along an edge to a millionth of it from its
    // neighbour: no face folds, and the collision is only found after every flip.
    let convex = |v: Vertex| {
        let ring: Vec<Vertex> = mesh.neighbors(v).collect();
        let k = ring.len();
        (0..k).all(|i| {
            let [a, b, c] = [ring[i], ring[(i + 1) % k], ring[(i + 2) % k]].map(|u| pos[u.index()]);
            a.cross(b).dot(c) > 0.0
        })
    };
    let w = (0..n as u32)
        .map(|i| Vertex::new((i * 7919) % n as u32))
        .find(|&v| convex(v))
        .unwrap();
    let u = mesh.neighbors(w).next().unwrap();
    let (pw, pu) = (pos[w.index()], pos[u.index()]);
    pos[w.index()] = (pu + (pw - pu) * 1e-6).normalize();
    if !moved.contains(&w) {
        moved.push(w);
    }
    let options = RestoreOptions {
        tolerance: 1e-5 * mean_edge(n),
        merge_collisions: false,
    };
    let first = restore_on(1, &mesh, &pos, &moved, &options);
    for threads in [1, 2, 4] {
        let (m, r, changed) = restore_on(threads, &mesh, &pos, &moved, &options);
        assert!(matches!(r, Err(DelaunayError::Collision { .. })), "{r:?}");
        assert_eq!(r, first.1);
        assert!(m == mesh, "{threads} threads: the mesh changed");
        assert!(changed.is_empty());
        m.check().unwrap();
    }
    // Without the tolerance the same motion is repaired.
    let (m, r, _) = restore_on(2, &mesh, &pos, &moved, &RestoreOptions::default());
    r.unwrap();
    assert_eq!(is_delaunay(&Sphere, &m, &pos), Ok(()));
}

/// Two hemispheres turned past each other by several cells about an axis in the equator's
/// plane (half the equator closes, half opens): a long front of folds, which the parts cut
/// across, leaving the serial loop the hard cases beside the cut, whose repair cascades (12
/// cells here: 366 folds, 1,623 relocations). It must still repair them with the budget the
/// restore would have had without the parts: with only its leftovers' own it failed here
/// (`FoldUnresolved`) as in a 1M-vertex two-plate planet; the same Delaunay mesh on 1 and 2
/// threads.
#[test]
fn hemispheres_turned_past_each_other_are_repaired_in_parts() {
    let n = 40_000;
    let (mesh, pos) = sphere::fibonacci_sphere(n, 1.0, 0.4, 3).unwrap();
    for cells in [6.0, 12.0] {
        let angle = cells * mean_edge(n) / 2.0;
        let (north, south) = (
            glam::DQuat::from_axis_angle(DVec3::X, angle),
            glam::DQuat::from_axis_angle(DVec3::X, -angle),
        );
        let mut moved_pos = pos.clone();
        for p in &mut moved_pos {
            *p = if p.z >= 0.0 { north * *p } else { south * *p };
        }
        let moved: Vec<Vertex> = (0..n as u32).map(Vertex::new).collect();
        let (one, s1, _) = restore_on(1, &mesh, &moved_pos, &moved, &RestoreOptions::default());
        let s1 = s1.unwrap();
        assert!(s1.folds >= 256, "{cells} cells: {s1:?}");
        let (two, s2, _) = restore_on(2, &mesh, &moved_pos, &moved, &RestoreOptions::default());
        assert_eq!(s2.unwrap(), s1, "{cells} cells");
        assert!(two == one, "{cells} cells: the mesh differs on 2 threads");
        assert_eq!(is_delaunay(&Sphere, &one, &moved_pos), Ok(()));
        assert_eq!(triangle_set(&one), from_scratch(&one, &moved_pos));
        assert_eq!(one.vertex_count(), n);
    }
}
