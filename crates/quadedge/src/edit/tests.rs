//! Edits on states that only a file (or other code) can produce: every choice of vertex and
//! face entry edge and every order of the fans around a vertex that `check()` accepts. Each
//! edit of each element is tried: accepted ones must pass `check()`, rejected ones must
//! change nothing. (The public-API sequences are in `tests/adversarial.rs`; these states are
//! not reachable through the API, hence a unit test.)

use crate::{Edge, Face, Mesh, Vertex, shapes};

/// Every edit of every element of `m`, each on a fresh clone.
fn try_every_edit(m: &Mesh) -> usize {
    let mut accepted = 0;
    let mut run = |op: &dyn Fn(&mut Mesh) -> bool| {
        let mut c = m.clone();
        if op(&mut c) {
            if let Err(e) = c.check() {
                panic!("accepted edit broke {}: {e}", m.describe());
            }
            accepted += 1;
        } else {
            assert!(c == *m, "rejected edit changed {}", m.describe());
        }
    };
    for q in 0..m.quad_slots() as u32 {
        for e in [Edge::of_quad(q), Edge::of_quad(q).sym()] {
            run(&|c| c.flip(e).is_ok());
            run(&|c| c.split(e, 0.5).is_ok());
            run(&|c| c.collapse(e, 0.5).is_ok());
        }
    }
    for f in 0..m.face_slots() as u32 {
        run(&|c| c.split_face(Face::new(f), [0.5, 0.25, 0.25]).is_ok());
        run(&|c| c.remove_face(Face::new(f)).is_ok());
    }
    let n = m.vertex_slots() as u32;
    for v in 0..n {
        run(&|c| c.dissolve_vertex(Vertex::new(v)).is_ok());
        for f in 0..m.face_slots() as u32 {
            run(&|c| c.move_vertex(Vertex::new(v), Face::new(f)).is_ok());
        }
        run(&|c| c.remove_vertex(Vertex::new(v)).is_ok());
        for a in 0..n {
            for b in 0..n {
                run(&|c| {
                    c.add_face(Vertex::new(v), Vertex::new(a), Vertex::new(b))
                        .is_ok()
                });
            }
        }
    }
    accepted
}

/// The mesh with the fans around `v` (maximal runs of the ring between holes) rotated: the
/// ring order across holes is not fixed by anything but the ring itself.
fn rotate_fans(m: &Mesh, v: Vertex, by: usize) -> Option<Mesh> {
    let ring: Vec<Edge> = m.outgoing(v).collect();
    // Fans start after an edge with a hole on its left.
    let starts: Vec<usize> = (0..ring.len())
        .filter(|&i| !m.left(ring[(i + ring.len() - 1) % ring.len()]).is_valid())
        .collect();
    if starts.len() < 3 {
        return None; // two fans have only one cyclic order
    }
    let fans: Vec<Vec<Edge>> = (0..starts.len())
        .map(|k| {
            let (s, e) = (starts[k], starts[(k + 1) % starts.len()]);
            let len = (e + ring.len() - s) % ring.len();
            let len = if len == 0 { ring.len() } else { len };
            (0..len).map(|i| ring[(s + i) % ring.len()]).collect()
        })
        .collect();
    // Swap the order of two fans (keeping the first in place).
    let mut order: Vec<usize> = (0..fans.len()).collect();
    order.swap(1, 1 + by % (fans.len() - 1));
    let new_ring: Vec<Edge> = order.iter().flat_map(|&k| fans[k].clone()).collect();
    let mut c = m.clone();
    for k in 0..new_ring.len() {
        c.primal_next[new_ring[k].index()] = new_ring[(k + 1) % new_ring.len()];
    }
    for i in 0..c.primal_next.len() {
        let n = c.primal_next[i];
        if n.is_valid() {
            c.dual_next[n.index()] = Edge::dual((i ^ 1) as u32);
        }
    }
    Some(c)
}

#[test]
fn edits_keep_the_contract_on_every_entry_edge_and_fan_order() {
    // A bowtie hub with three fans, a disk with a face removed, an octahedron.
    let hub = Mesh::from_triangles(7, &[[0, 1, 2], [0, 3, 4], [0, 5, 6]]).unwrap();
    let mut disk = {
        let (n, t) = shapes::disk(6);
        Mesh::from_triangles(n, &t).unwrap()
    };
    disk.remove_face(Face::new(2)).unwrap();
    let mut holed = {
        let (n, t) = shapes::octahedron();
        Mesh::from_triangles(n, &t).unwrap()
    };
    holed.remove_face(Face::new(0)).unwrap();
    holed.remove_face(Face::new(6)).unwrap();
    let mut accepted = 0;
    let mut variants = 0;
    for base in [hub, disk, holed] {
        base.check().unwrap();
        let mut states = vec![base.clone()];
        for v in base.vertices() {
            for by in 0..3 {
                states.extend(rotate_fans(&base, v, by));
            }
            for e in base.outgoing(v) {
                let mut c = base.clone();
                c.vertex_edge[v.index()] = e;
                states.push(c);
            }
        }
        for f in base.faces() {
            for e in base.face_edges(f) {
                let mut c = base.clone();
                c.face_edge[f.index()] = e;
                states.push(c);
            }
        }
        for s in states.iter().filter(|s| s.check().is_ok()) {
            variants += 1;
            accepted += try_every_edit(s);
        }
    }
    assert!(variants > 40, "{variants}");
    assert!(accepted > 1000, "{accepted}");
}

/// `flip_fresh` makes exactly the flips `flip` makes when the opposite corners are not
/// connected, and refuses what `flip` refuses for other reasons, changing nothing.
#[test]
fn flip_fresh_equals_flip_where_its_contract_holds() {
    let (n, t) = shapes::icosahedron();
    let m = Mesh::from_triangles(n, &t).unwrap();
    let mut checked = 0;
    for q in 0..m.quad_slots() as u32 + 2 {
        let e = Edge::of_quad(q);
        let (mut a, mut b) = (m.clone(), m.clone());
        let plain = a.flip(e);
        if matches!(plain, Err(crate::MeshError::FlipWouldDuplicate(_))) {
            continue;
        }
        assert_eq!(b.flip_fresh(e), plain);
        assert!(a == b);
        b.check().unwrap();
        checked += 1;
    }
    assert!(checked >= 30);
}

/// A failed `atomically` leaves the mesh and the journal as they were, with or without the
/// caller's undo log; a successful one keeps the edits and their records.
#[test]
fn atomically_rolls_back_mesh_and_journal() {
    let (n, t) = shapes::icosahedron();
    for caller_log in [false, true] {
        let mut m = Mesh::from_triangles(n, &t).unwrap();
        let rec = m.record_changes().unwrap();
        if caller_log {
            m.start_undo_log().unwrap();
        }
        m.flip(Edge::of_quad(3)).unwrap();
        let before = m.clone();
        let r: Result<(), ()> = m.atomically(|m| {
            m.flip(Edge::of_quad(7)).unwrap();
            m.split_face(Face::new(2), [0.5, 0.25, 0.25]).unwrap();
            Err(())
        });
        assert!(r.is_err() && m == before);
        assert_eq!(m.take_changes(&rec).unwrap().len(), 1);
        assert_eq!(m.is_undo_logging(), caller_log);
        let r: Result<(), ()> = m.atomically(|m| {
            m.flip(Edge::of_quad(7)).unwrap();
            Ok(())
        });
        assert!(r.is_ok() && m != before);
        assert_eq!(m.take_changes(&rec).unwrap().len(), 1);
        if caller_log {
            // The caller's log holds both flips: undoing it gives the starting mesh.
            let log = m.stop_undo_log().unwrap();
            m.undo(&log).unwrap();
            assert!(m == Mesh::from_triangles(n, &t).unwrap());
        }
        m.check().unwrap();
    }
}
