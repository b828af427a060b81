//! One-record face splits against the split recorded write by write: the same meshes,
//! journals, undo and redo, and refusals of meshes changed behind the log's back.

use crate::{Edge, Face, Mesh, MeshError, Vertex, shapes};
use testkit::Rng;

fn icosahedron() -> Mesh {
    let (n, t) = shapes::icosahedron();
    Mesh::from_triangles(n, &t).unwrap()
}

/// A random face of `m`.
fn any_face(m: &Mesh, rng: &mut Rng) -> Face {
    let faces: Vec<Face> = m.faces().collect();
    faces[rng.below(faces.len())]
}

/// Random edits on `m` (splits by `compact` or by the plain split, flips, dissolves of
/// degree-3 vertices, so that ids come off the free lists and are appended), each followed by
/// `check`.
fn edit(m: &mut Mesh, seed: u64, steps: usize, compact: bool) {
    let mut rng = Rng::new(seed);
    for _ in 0..steps {
        match rng.below(4) {
            0 | 1 => {
                let f = any_face(m, &mut rng);
                let w = [0.25, 0.25, 0.5];
                if compact {
                    m.split_face_compact(f, w).unwrap();
                } else {
                    m.split_face(f, w).unwrap();
                }
            }
            2 => {
                let edges: Vec<Edge> = m.directed_edges().collect();
                let _ = m.flip(edges[rng.below(edges.len())]);
            }
            _ => {
                let vs: Vec<Vertex> = m.vertices().filter(|&v| m.degree(v) == 3).collect();
                if !vs.is_empty() {
                    let _ = m.dissolve_vertex(vs[rng.below(vs.len())]);
                }
            }
        }
    }
}

#[test]
fn a_compact_split_is_the_split_and_undoes_and_redoes_exactly() {
    for seed in 0..20 {
        let mut base = icosahedron();
        edit(&mut base, seed + 100, 30, false);
        let (mut a, mut b) = (base.clone(), base.clone());
        let ra = a.record_changes().unwrap();
        let rb = b.record_changes().unwrap();
        a.start_undo_log().unwrap();
        b.start_undo_log().unwrap();
        edit(&mut a, seed, 40, true);
        edit(&mut b, seed, 40, false);
        let (la, lb) = (a.take_undo_log().unwrap(), b.take_undo_log().unwrap());
        let (ja, jb) = (a.stop_recording(ra).unwrap(), b.stop_recording(rb).unwrap());
        assert!(ja == jb, "seed {seed}: the journal");
        assert!(a == b, "seed {seed}: the mesh");
        assert!(la.len() < lb.len(), "seed {seed}: a smaller log");
        let after = a.clone();
        a.check().unwrap();
        a.undo(&la).unwrap();
        assert!(a == base, "seed {seed}: undone");
        a.redo(&la).unwrap();
        assert!(a == after, "seed {seed}: redone");
    }
}

#[test]
fn a_failed_edit_rolls_compact_splits_back() {
    let mut m = icosahedron();
    edit(&mut m, 7, 30, false);
    let before = m.clone();
    let r: Result<(), MeshError> = m.atomically(|m| {
        edit(m, 8, 40, true);
        Err(MeshError::BadWeight)
    });
    assert!(r.is_err());
    assert!(m == before);
    // Without a log, the compact split is the plain one.
    let mut n = before.clone();
    edit(&mut m, 9, 10, true);
    edit(&mut n, 9, 10, false);
    assert!(m == n);
}

#[test]
fn a_dead_slot_not_canonical_is_recorded_write_by_write() {
    let mut m = icosahedron();
    let r = m.split_face(Face::new(0), [0.2, 0.3, 0.5]).unwrap();
    m.dissolve_vertex(r.vertex).unwrap();
    // A freed quad's slot holding something else than the dead values.
    let q = *m.free_quads.last().unwrap() as usize;
    m.dual_next[2 * q] = Edge::primal(3);
    let before = m.clone();
    m.start_undo_log().unwrap();
    m.split_face_compact(Face::new(0), [0.2, 0.3, 0.5]).unwrap();
    let log = m.take_undo_log().unwrap();
    assert!(log.len() > 1);
    m.undo(&log).unwrap();
    assert!(m == before);
}

#[test]
fn a_split_record_refuses_a_mesh_changed_behind_its_back() {
    let mut m = icosahedron();
    edit(&mut m, 3, 20, false);
    m.start_undo_log().unwrap();
    let r = m.split_face_compact(Face::new(1), [0.2, 0.3, 0.5]).unwrap();
    let log = m.take_undo_log().unwrap();
    assert_eq!(log.len(), 1);
    // An undo of the log is refused with nothing written.
    let refused = |m: &mut Mesh| {
        let tampered = m.clone();
        assert_eq!(m.undo(&log), Err(MeshError::UndoContentMismatch));
        assert!(*m == tampered);
    };
    // A side's face names another edge.
    let f = r.faces[1];
    let e = m.face_edge[f.index()];
    m.face_edge[f.index()] = m.left_next(e);
    refused(&mut m);
    m.face_edge[f.index()] = e;
    // The vertex names an edge that is not its spoke (no panic either).
    let v = r.vertex;
    let spoke = m.vertex_edge[v.index()];
    m.vertex_edge[v.index()] = m.left_next(spoke);
    refused(&mut m);
    m.vertex_edge[v.index()] = spoke;
    // Put back, it undoes and redoes; redone on a mesh whose free vertex is not the
    // recorded one, it is refused.
    let after = m.clone();
    m.undo(&log).unwrap();
    m.redo(&log).unwrap();
    assert!(m == after);
    m.undo(&log).unwrap();
    if let Some(top) = m.free_vertices.last_mut() {
        *top ^= 1;
        let tampered = m.clone();
        assert_eq!(m.redo(&log), Err(MeshError::UndoContentMismatch));
        assert!(m == tampered);
    }
}

#[test]
fn a_redo_refused_after_a_split_leaves_the_mesh_and_its_state_as_they_were() {
    let mut m = icosahedron();
    edit(&mut m, 5, 20, false);
    let before = m.clone();
    m.start_undo_log().unwrap();
    let r = m.split_face_compact(Face::new(1), [0.2, 0.3, 0.5]).unwrap();
    let side = m.left_next(r.spokes[0]);
    m.flip(side).unwrap();
    let log = m.take_undo_log().unwrap();
    assert_eq!(log.len(), 2);
    m.undo(&log).unwrap();
    assert!(m == before);
    // The flip no longer fits (a face names another edge): the split is made, then the redo
    // fails at the flip and takes the split back, the mesh in the state the log starts at.
    let f = m.left(side.sym());
    let e = m.face_edge[f.index()];
    m.face_edge[f.index()] = m.left_next(e);
    let tampered = m.clone();
    assert_eq!(m.redo(&log), Err(MeshError::UndoContentMismatch));
    assert!(m == tampered);
    assert_eq!(m.undo_state(), log.from_state());
    m.face_edge[f.index()] = e;
    m.redo(&log).unwrap();
    m.check().unwrap();
}
