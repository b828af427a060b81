//! Logs against arrays changed behind their back: the content checks, not the stamps.

use crate::{Edge, Mesh, MeshError, shapes};

fn octahedron() -> Mesh {
    let (n, t) = shapes::octahedron();
    Mesh::from_triangles(n, &t).unwrap()
}

#[test]
fn a_write_that_bypassed_the_log_is_caught_and_rolled_back() {
    let mut m = octahedron();
    m.start_undo_log().unwrap();
    let e = m.directed_edges().next().unwrap();
    m.flip(e).unwrap();
    let r = m.split(e, 0.5).unwrap();
    let log = m.take_undo_log().unwrap();
    // The last write of the split is fine, one written early is not: undo gets part way,
    // then must put everything back.
    let first_quad = r.edge.index();
    m.dual_next[first_quad] = Edge::INVALID;
    let tampered = m.clone();
    assert_eq!(m.undo(&log), Err(MeshError::UndoContentMismatch));
    assert_eq!(m, tampered);
    // What the failed undo wrote was dropped from the running log too.
    assert!(m.take_undo_log().unwrap().is_empty());
    // Lengths are checked before anything is written.
    let mut n = tampered.clone();
    n.free_faces.push(0);
    assert_eq!(n.undo(&log), Err(MeshError::UndoStateMismatch));
}

#[test]
fn a_tampered_whole_rewrite_is_refused() {
    let mut m = octahedron();
    let v = m.vertices().next().unwrap();
    let e = m.vertex_edge(v);
    m.collapse(e, 0.5).unwrap();
    m.start_undo_log().unwrap();
    m.compact();
    let log = m.take_undo_log().unwrap();
    m.live_faces += 1;
    let tampered = m.clone();
    assert_eq!(m.undo(&log), Err(MeshError::UndoContentMismatch));
    assert_eq!(m, tampered);
}

#[test]
fn a_replaced_topology_is_undone_exactly() {
    let mut m = octahedron();
    let before = m.clone();
    m.start_undo_log().unwrap();
    let (n, t) = shapes::icosahedron();
    let other = Mesh::from_triangles(n, &t).unwrap();
    m.replace_topology(other.clone());
    assert_eq!(m, other);
    assert!(m.is_undo_logging());
    let log = m.take_undo_log().unwrap();
    assert_ne!(log.from_state(), log.to_state());
    assert_eq!(m.undo_state(), log.to_state());
    m.undo(&log).unwrap();
    assert_eq!(m, before);
    m.check().unwrap();
    m.redo(&log).unwrap();
    assert_eq!(m, other);
    m.check().unwrap();
}

#[test]
fn a_flip_record_refuses_a_mesh_changed_behind_its_back() {
    let mut m = octahedron();
    m.start_undo_log().unwrap();
    let e = m.directed_edges().next().unwrap();
    let f = m.flip(e).unwrap();
    let log = m.take_undo_log().unwrap();
    assert_eq!(log.len(), 1);
    // The left face names another of its edges now: the record no longer fits.
    let fl = m.left(f);
    m.face_edge[fl.index()] = m.left_next(f);
    let tampered = m.clone();
    assert_eq!(m.undo(&log), Err(MeshError::UndoContentMismatch));
    assert_eq!(m, tampered);
    // Put back, it undoes; the quad's edges made dead, it is refused without a panic.
    m.face_edge[fl.index()] = f;
    m.undo(&log).unwrap();
    m.redo(&log).unwrap();
    m.dual_next[f.index()] = Edge::INVALID;
    let tampered = m.clone();
    assert_eq!(m.undo(&log), Err(MeshError::UndoContentMismatch));
    assert_eq!(m, tampered);
}
