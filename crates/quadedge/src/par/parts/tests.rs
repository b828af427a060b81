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

/// On every pool: `edit` undone and redone exactly by its undo log, and rolled back with a
/// serial flip after it when the edit around them fails.
fn assert_undone_and_rolled_back(mesh: &Mesh, edit: impl Fn(&mut Mesh) + Sync) {
    for pool in pools() {
        let mut m = mesh.clone();
        m.start_undo_log().unwrap();
        pool.install(|| edit(&mut m));
        let after = m.clone();
        let log = m.take_undo_log().unwrap();
        m.undo(&log).unwrap();
        assert_eq!(m, *mesh);
        m.redo(&log).unwrap();
        assert_eq!(m, after);
        // Inside an edit that fails afterwards: nothing kept.
        let mut m = mesh.clone();
        let r: Result<(), ()> = m.atomically(|m| {
            pool.install(|| edit(m));
            let e = m.face_edge(m.faces().next().unwrap());
            m.flip(e).ok();
            Err(())
        });
        assert!(r.is_err());
        assert_eq!(m, *mesh);
    }
}

#[test]
fn flips_in_parts_are_undone_and_rolled_back_exactly() {
    let (mesh, edges) = setup(7);
    assert_undone_and_rolled_back(&mesh, |m| {
        flip_in_parts(m, &edges);
    });
}

/// The grid with a vertex split into every tenth face: vertices of degree 3 to dissolve.
fn split_grid() -> (Mesh, Vec<Vertex>) {
    let (n, t) = shapes::icosahedron_grid(12);
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let faces: Vec<_> = m.faces().step_by(10).collect();
    let added = faces
        .iter()
        .map(|&f| m.split_face(f, [0.2, 0.3, 0.5]).unwrap().vertex)
        .collect();
    (m, added)
}

/// Dissolves `vertices` in parts (each part those it can, in order); returns them, part 0's
/// first.
fn dissolve_in_parts(m: &mut Mesh, vertices: &[Vertex]) -> Vec<Vertex> {
    let [a, b] = m.edit_in_parts(&owner, |part| {
        let mut done = Vec::new();
        for &v in vertices {
            match part.dissolve_vertex(v) {
                Ok(r) => done.push(r.vertex),
                Err(super::PartError::NotOwned) => {}
                Err(e) => panic!("{v:?}: {e:?}"),
            }
        }
        done
    });
    assert!(!a.is_empty() && !b.is_empty());
    [a, b].concat()
}

#[test]
fn dissolves_in_parts_equal_the_dissolves_one_at_a_time_on_any_thread_count() {
    let (mesh, added) = split_grid();
    let mut first: Option<Mesh> = None;
    for pool in pools() {
        let mut m = mesh.clone();
        let rec = m.record_changes().unwrap();
        let done = pool.install(|| dissolve_in_parts(&mut m, &added));
        assert!(done.len() < added.len());
        let changes = m.take_changes(&rec).unwrap();
        m.check().unwrap();
        // The same mesh, free lists and live counts included, and the same journal.
        let mut one = mesh.clone();
        let rec1 = one.record_changes().unwrap();
        for &v in &done {
            one.dissolve_vertex(v).unwrap();
        }
        assert_eq!(m, one);
        assert_eq!(m.vertex_count(), mesh.vertex_count() - done.len());
        assert_eq!(changes, one.take_changes(&rec1).unwrap());
        // The ones left dissolve afterwards on the whole mesh.
        for &v in added.iter().filter(|v| !done.contains(v)) {
            m.dissolve_vertex(v).unwrap();
        }
        m.check().unwrap();
        match &first {
            Some(m0) => assert_eq!(*m0, m),
            None => first = Some(m),
        }
    }
}

#[test]
fn dissolves_in_parts_are_undone_and_rolled_back_exactly() {
    let (mesh, added) = split_grid();
    assert_undone_and_rolled_back(&mesh, |m| {
        dissolve_in_parts(m, &added);
    });
}

#[test]
fn a_part_refuses_a_dissolve_it_cannot_make() {
    let (mut mesh, _) = split_grid();
    let before = mesh.clone();
    let [r0, r1] = mesh.edit_in_parts(&owner, |part| {
        // A vertex of degree 6 (part 0's), and one of part 1's.
        (
            part.dissolve_vertex(Vertex::new(1)),
            part.dissolve_vertex(Vertex::new(150)),
        )
    });
    assert_eq!(mesh, before);
    let not = |v: u32| super::PartError::Mesh(crate::MeshError::NotDissolvable(Vertex::new(v)));
    assert_eq!(r0, (Err(not(1)), Err(super::PartError::NotOwned)));
    assert_eq!(r1.0, Err(super::PartError::NotOwned));
}

#[test]
fn buffers_kept_across_calls_leave_the_same_logs_and_are_empty_between_calls() {
    let (mesh, edges) = setup(11);
    for pool in pools() {
        let (mut m, mut one) = (mesh.clone(), mesh.clone());
        m.start_undo_log().unwrap();
        one.start_undo_log().unwrap();
        let (rec, rec1) = (m.record_changes().unwrap(), one.record_changes().unwrap());
        // Several calls, each on what the last left (part 1's buffers reused).
        for round in 0..4 {
            let done = pool.install(|| flip_in_parts(&mut m, &edges[round * 100..]));
            for &e in &done {
                one.flip(e).unwrap();
            }
            assert_eq!(m, one);
            let kept = &m.parts;
            assert!(kept.writes.is_empty() && kept.changes.is_empty());
            assert!(kept.writes.capacity() > 0 && kept.changes.capacity() > 0);
            // A clone takes no room, and equality ignores the buffers.
            let copy = m.clone();
            assert_eq!(copy.parts.writes.capacity(), 0);
            assert_eq!(copy, m);
        }
        assert_eq!(
            m.take_changes(&rec).unwrap(),
            one.take_changes(&rec1).unwrap()
        );
        let (log, log1) = (m.take_undo_log().unwrap(), one.take_undo_log().unwrap());
        m.undo(&log).unwrap();
        one.undo(&log1).unwrap();
        assert!(m == mesh && one == mesh);
    }
}

#[test]
fn long_logs_appended_side_by_side_are_the_flips_one_at_a_time() {
    // Enough flips in each part for the merge to copy the two logs at once.
    let (n, t) = shapes::icosahedron_grid(60);
    let mesh = Mesh::from_triangles(n, &t).unwrap();
    let edges: Vec<Edge> = (0..mesh.quad_slots() as u32).map(Edge::of_quad).collect();
    for pool in pools() {
        let (mut m, mut one) = (mesh.clone(), mesh.clone());
        m.start_undo_log().unwrap();
        one.start_undo_log().unwrap();
        let (rec, rec1) = (m.record_changes().unwrap(), one.record_changes().unwrap());
        let [a, b] = pool.install(|| {
            m.edit_in_parts(&owner, |part| {
                let each = edges.iter().filter_map(|&e| part.flip(e).ok());
                each.collect::<Vec<_>>()
            })
        });
        assert!(
            a.len().min(b.len()) >= super::APPEND_APART,
            "{} {}",
            a.len(),
            b.len()
        );
        for &e in a.iter().chain(&b) {
            one.flip(e).unwrap();
        }
        assert_eq!(m, one);
        let changes = m.take_changes(&rec).unwrap();
        assert_eq!(changes, one.take_changes(&rec1).unwrap());
        let (log, log1) = (m.take_undo_log().unwrap(), one.take_undo_log().unwrap());
        m.undo(&log).unwrap();
        one.undo(&log1).unwrap();
        assert!(m == mesh && one == mesh);
    }
}
