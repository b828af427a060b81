//! Every lock guard keeps its writes only through `commit`: dropped without it (an early
//! return, a panic unwinding), the world is `==` to what it was before the lock, with the same
//! versions, with or without a `History`, and undo/redo afterwards behave as if the lock never
//! happened. A transaction refused at commit changes nothing either.

mod common;

use common::{DISTANCE, HEIGHT, sample_world, versions};
use glam::DVec3;
use layers::{FaceKind, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use std::panic::{AssertUnwindSafe, catch_unwind};
use world::{History, World, WorldError};

const POS: LayerInfo<DVec3, VertexKind> = LayerInfo::new("pos");
const NEW: LayerInfo<u8, FaceKind> = LayerInfo::new("new");
const CHECKED: LayerInfo<f32, VertexKind> = LayerInfo::new("checked")
    .range(0.0, 1.0)
    .auto_validate(true);

/// A flip of an edge of vertex `i`.
fn flip(m: &mut Mesh, i: u32) {
    let e = m.vertex_edge(Vertex::new(i));
    m.flip(e).unwrap();
}

/// A named edit of a world.
type Edit = (&'static str, fn(&mut World));

/// Each guard kind: lock, write, and drop without commit.
fn dropped_edits() -> Vec<Edit> {
    vec![
        ("mesh", |w| {
            let mut m = w.lock_mesh();
            flip(&mut m, 0);
            let e = m.vertex_edge(Vertex::new(2));
            m.split(e, 0.5).unwrap();
        }),
        ("mesh replaced", |w| {
            let mut m = w.lock_mesh();
            flip(&mut m, 1);
            *m = Mesh::new();
        }),
        ("layer", |w| {
            let mut h = w.lock_layer(&HEIGHT).unwrap();
            h.fill(5.0);
        }),
        ("new layer", |w| {
            let mut l = w.lock_layer(&NEW).unwrap();
            l.fill(3);
        }),
        ("layer pair", |w| {
            let mut g = w.lock_layers(&DISTANCE, &NEW).unwrap();
            let (d, n) = g.parts();
            d.fill(9.0);
            n.fill(1);
        }),
        ("positions", |w| {
            let mut g = w.lock_mesh_and_positions(&POS).unwrap();
            let (mesh, pos) = g.parts();
            let r = mesh.split(mesh.vertex_edge(Vertex::new(0)), 0.5).unwrap();
            pos.resize(mesh.vertex_slots(), DVec3::Z);
            pos[r.vertex.index()] = DVec3::X;
        }),
        ("transaction", |w| {
            let mut tx = w.transaction();
            tx.create(&NEW).unwrap();
            tx.write(&HEIGHT).unwrap().fill(-3.0);
            flip(&mut tx.mesh_mut().unwrap(), 0);
            tx.sync();
            tx.write(&NEW).unwrap().fill(4);
            let e = tx.mesh().unwrap().vertex_edge(Vertex::new(3));
            tx.mesh_mut().unwrap().split(e, 0.25).unwrap();
        }),
        ("dict", |w| {
            let mut d = w.lock_dict("plates");
            d.set("count", 9i64);
            d.set("seed", Vertex::new(5));
        }),
        ("new dict", |w| {
            let mut d = w.lock_dict("fresh");
            d.set("a", 1i64);
        }),
        ("random", |w| {
            let mut r = w.lock_random();
            let _: u64 = rand::Rng::random(&mut *r);
        }),
    ]
}

fn assert_unchanged(w: &World, before: &World, v: &[u64], what: &str) {
    assert!(w == before, "{what}: the world changed");
    assert_eq!(versions(w), v, "{what}: versions changed");
    w.mesh().check().unwrap();
}

#[test]
fn a_guard_dropped_without_commit_changes_nothing() {
    for (what, edit) in dropped_edits() {
        let mut w = sample_world();
        let (before, v) = (w.clone(), versions(&w));
        edit(&mut w);
        assert_unchanged(&w, &before, &v, what);
        // A snapshot sharing the mesh and layers (the copy-on-write path) too.
        let snapshot = w.clone();
        edit(&mut w);
        assert_unchanged(&w, &before, &v, what);
        assert!(
            std::ptr::eq(w.mesh(), snapshot.mesh()),
            "{what}: shared again"
        );
    }
}

#[test]
fn with_a_history_undo_and_redo_behave_as_if_the_lock_never_happened() {
    for (what, edit) in dropped_edits() {
        let mut w = sample_world();
        let mut history = History::new(1 << 30);
        history.commit("a", &mut w);
        let a = w.clone();
        w.update_mesh(|m| flip(m, 4));
        w.update_layer(&HEIGHT, |h| h[Vertex::new(1)] = 7.0)
            .unwrap();
        history.commit("b", &mut w);
        let (b, v) = (w.clone(), versions(&w));
        edit(&mut w);
        assert_unchanged(&w, &b, &v, what);
        assert_eq!(history.undo(&mut w), Some("a"), "{what}");
        assert!(w == a, "{what}: undo");
        assert_eq!(history.redo(&mut w), Some("b"), "{what}");
        assert!(w == b, "{what}: redo");
        // A dropped guard between a commit and an undo leaves nothing to undo either.
        edit(&mut w);
        history.commit("c", &mut w);
        assert_eq!(history.undo(&mut w), Some("b"), "{what}");
        assert!(w == b, "{what}: undo of an empty step");
    }
}

#[test]
fn commit_keeps_the_writes() {
    let mut w = sample_world();
    let before = w.clone();
    let mut m = w.lock_mesh();
    flip(&mut m, 0);
    m.commit();
    assert!(w.mesh() != before.mesh());
    let mut h = w.lock_layer(&HEIGHT).unwrap();
    h.fill(5.0);
    h.commit().unwrap();
    assert!(w.layer(&HEIGHT).unwrap().iter().all(|&x| x == 5.0));
    let mut g = w.lock_layers(&DISTANCE, &NEW).unwrap();
    g.parts().1.fill(2);
    g.commit().unwrap();
    assert!(w.layer(&NEW).unwrap().iter().all(|&x| x == 2));
    let mut d = w.lock_dict("fresh");
    d.set("a", 1i64);
    d.commit();
    assert!(w.dict("fresh").is_some());
    let rng = w.random().clone();
    let mut r = w.lock_random();
    let _: u64 = rand::Rng::random(&mut *r);
    r.commit();
    assert_ne!(*w.random(), rng);
    let mut m = w.lock_mesh();
    *m = Mesh::new();
    m.commit();
    assert_eq!(w.mesh().vertex_count(), 0);
    assert_eq!(w.layer(&HEIGHT).unwrap().len(), 0, "reset with the mesh");
}

#[test]
fn a_refused_commit_changes_nothing() {
    let mut w = sample_world();
    w.update_layer(&CHECKED, |c| c.fill(0.5)).unwrap();
    let (before, v) = (w.clone(), versions(&w));
    // A transaction: the mesh edit and the valid layer go with the refused one.
    let tx = w.transaction();
    tx.write(&DISTANCE).unwrap().fill(1.0);
    tx.write(&CHECKED).unwrap()[Vertex::new(7)] = 1000.0;
    let e = tx.mesh_mut().unwrap().vertex_edge(Vertex::new(0));
    tx.mesh_mut().unwrap().split(e, 0.5).unwrap();
    assert!(matches!(tx.commit(), Err(WorldError::Invalid(_))));
    assert_unchanged(&w, &before, &v, "transaction");
    // A layer pair: neither is kept.
    let mut g = w.lock_layers(&DISTANCE, &CHECKED).unwrap();
    let (d, c) = g.parts();
    d.fill(1.0);
    c.fill(-1000.0);
    assert!(g.commit().is_err());
    assert_unchanged(&w, &before, &v, "pair");
    let mut c = w.lock_layer(&CHECKED).unwrap();
    c[Vertex::new(0)] = f32::INFINITY;
    assert!(c.commit().is_err());
    assert_unchanged(&w, &before, &v, "layer");
}

#[test]
fn a_guard_dropped_by_a_panic_rolls_back() {
    for (what, edit) in dropped_edits() {
        let mut w = sample_world();
        let (before, v) = (w.clone(), versions(&w));
        let r = catch_unwind(AssertUnwindSafe(|| {
            edit(&mut w);
            let mut m = w.lock_mesh();
            flip(&mut m, 3);
            panic!("in the middle of an edit");
        }));
        assert!(r.is_err());
        assert_unchanged(&w, &before, &v, what);
    }
}

#[test]
fn a_mesh_swapped_out_and_kept_by_the_caller_is_a_replacement() {
    let mut w = sample_world();
    let (n, t) = shapes::octahedron();
    let mut m = w.lock_mesh();
    let old = std::mem::replace(&mut *m, Mesh::from_triangles(n, &t).unwrap());
    drop(m);
    assert_eq!(
        w.mesh().vertex_count(),
        6,
        "kept: the old mesh is the caller's"
    );
    assert_eq!(
        w.layer(&HEIGHT).unwrap().len(),
        6,
        "reset to the replacement"
    );
    assert!(old.vertex_count() > 6);
}

#[test]
fn the_guard_holds_the_undo_log_it_rolls_back_by() {
    let mut w = sample_world();
    let mut m = w.lock_mesh();
    flip(&mut m, 0);
    assert_eq!(
        m.take_undo_log().unwrap_err(),
        quadedge::MeshError::UndoLogHeld
    );
    assert_eq!(
        m.stop_undo_log().unwrap_err(),
        quadedge::MeshError::UndoLogHeld
    );
    assert_eq!(m.start_undo_log(), Err(quadedge::MeshError::UndoLogOn));
    m.commit();
    assert!(
        !w.mesh().is_undo_logging(),
        "the private log ends with the guard"
    );
}

#[test]
fn a_borrower_of_the_guards_mesh_cannot_take_or_stop_the_journal() {
    let mut w = sample_world();
    let n = w.mesh().vertex_slots();
    let split;
    {
        let mut guard = w.lock_mesh();
        let m: &mut Mesh = &mut guard;
        let e = m.vertex_edge(Vertex::new(0));
        split = m.split(e, 0.5).unwrap();
        // Starting another journal fails: the guard's is running.
        assert_eq!(
            m.record_changes().err(),
            Some(quadedge::MeshError::AlreadyRecording)
        );
        // Another mesh's recording does not open this journal.
        let mut other = Mesh::new();
        let foreign = other.record_changes().unwrap();
        assert_eq!(
            m.take_changes(&foreign).err(),
            Some(quadedge::MeshError::NotRecording)
        );
        assert!(m.stop_recording(foreign).is_err());
        guard.commit();
    }
    let h = w.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), n + 1);
    let r = split;
    assert_eq!(h[r.vertex], 0.5 * (h[r.origin] + h[r.dest]));
}
