//! A mesh flipped in parts: the same mesh, undo log and journal as flipping part 0's edges
//! and then part 1's one at a time, on any thread count; undone and rolled back exactly.

use crate::{Edge, Mesh, Vertex, shapes};
use testkit::thread_pools as pools;

/// A grid with vertices split by id, and random edges to flip in each part.
fn setup(seed: u64) -> (Mesh, Vec<Edge>) {
    let (n, t) = shapes::icosahedron_grid(12);
    let m = Mesh::from_triangles(n, &t).unwrap();
    let mut rng = testkit::Rng::new(seed);
    let quads = m.quad_slots() as u64;
    let edges = (0..400)
        .map(|_| Edge::of_quad((rng.next_u64() % quads) as u32))
        .collect();
    (m, edges)
}

/// Part of a vertex: thirds of the ids (part 0, part 1, none).
fn owner(v: Vertex) -> u8 {
    (v.raw() % 300 / 100) as u8
}

/// Flips `edges` in parts (each part the edges whose quad it owns, in order); returns the
/// flips made, part 0's first.
fn flip_in_parts(m: &mut Mesh, edges: &[Edge]) -> Vec<Edge> {
    let [a, b] = m.edit_in_parts(&owner, |part| {
        let mut done = Vec::new();
        for &e in edges {
            if let Ok(f) = part.flip(e) {
                done.push(f);
            }
        }
        done
    });
    assert!(!a.is_empty() && !b.is_empty());
    [a, b].concat()
}

#[test]
fn flips_in_parts_equal_the_flips_one_at_a_time_on_any_thread_count() {
    for seed in 1..4 {
        let (mesh, edges) = setup(seed);
        let mut first: Option<(Mesh, Vec<crate::journal::Change>)> = None;
        for pool in pools() {
            let mut m = mesh.clone();
            let rec = m.record_changes().unwrap();
            let done = pool.install(|| flip_in_parts(&mut m, &edges));
            let changes = m.take_changes(&rec).unwrap();
            m.check().unwrap();
            let mut one = mesh.clone();
            let rec1 = one.record_changes().unwrap();
            for &e in &done {
                one.flip(e).unwrap();
            }
            assert_eq!(m, one);
            assert_eq!(changes, one.take_changes(&rec1).unwrap());
            match &first {
                Some((m0, c0)) => assert!(*m0 == m && *c0 == changes),
                None => first = Some((m, changes)),
            }
        }
    }
}

#[test]
fn flips_in_parts_are_undone_and_rolled_back_exactly() {
    let (mesh, edges) = setup(7);
    for pool in pools() {
        let mut m = mesh.clone();
        m.start_undo_log().unwrap();
        pool.install(|| flip_in_parts(&mut m, &edges));
        let after = m.clone();
        let log = m.take_undo_log().unwrap();
        m.undo(&log).unwrap();
        assert_eq!(m, mesh);
        m.redo(&log).unwrap();
        assert_eq!(m, after);
        // Inside an edit that fails afterwards: nothing kept.
        let mut m = mesh.clone();
        let r: Result<(), ()> = m.atomically(|m| {
            pool.install(|| flip_in_parts(m, &edges));
            m.flip(edges[0]).ok();
            Err(())
        });
        assert!(r.is_err());
        assert_eq!(m, mesh);
    }
}
