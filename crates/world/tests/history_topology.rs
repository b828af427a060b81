//! Topology undo by what changed: the history keeps the mesh's undo log, not mesh copies.
//! Random sequences of topology edits (through every kind of guard), layer writes, commits,
//! undos and redos, compared with full clones kept aside, `check()` after each.

use glam::DVec3;
use layers::{Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use testkit::Rng;
use testkit::edits::{apply, pick_op, start_mesh};
use world::{History, MeshReplacement, World};

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height")
    .interpolation(Interpolation::Lerp)
    .initial(1.0);
const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);

fn vertex(w: &World, rng: &mut Rng) -> Vertex {
    Vertex::new(rng.below(w.mesh().vertex_slots().max(1)) as u32)
}

/// One random edit of `w` through one of the world's ways to write.
fn random_edit(w: &mut World, rng: &mut Rng) {
    match rng.below(10) {
        0..=3 => {
            let mut mesh = w.lock_mesh();
            let op = pick_op(&mesh, rng);
            let _ = apply(&mut mesh, op);
            mesh.commit();
        }
        4 => {
            let v = vertex(w, rng);
            let x = rng.unit_f64() as f32;
            w.update_layer(&HEIGHT, |l| l.get_mut(v).map(|h| *h = x))
                .unwrap();
        }
        5 => {
            let mut tx = w.transaction();
            tx.create(&HEIGHT).unwrap();
            {
                let mut mesh = tx.mesh_mut().unwrap();
                let op = pick_op(&mesh, rng);
                let _ = apply(&mut mesh, op);
            }
            tx.sync();
            let x = rng.unit_f64() as f32;
            tx.write(&HEIGHT).unwrap().fill(x);
            tx.commit().unwrap();
        }
        6 => {
            let mut g = w.lock_mesh_and_positions(&POSITION).unwrap();
            let (mesh, pos) = g.parts();
            let op = pick_op(mesh, rng);
            let _ = apply(mesh, op);
            if let Some(p) = pos.first_mut() {
                p.x += 1.0;
            }
            g.commit();
        }
        7 => {
            let how = if rng.below(2) == 0 {
                MeshReplacement::ResetAll
            } else {
                MeshReplacement::KeepVertexData
            };
            let _ = w.replace_mesh(start_mesh(rng.below(10)), how);
        }
        8 => {
            w.update_mesh(|m| m.compact());
        }
        _ => {
            // Taken for writing, nothing changed: no copy, no new version.
            let (ptr, version) = (w.mesh() as *const Mesh, w.mesh_version());
            {
                let mut g = w.lock_mesh();
                let _: &mut Mesh = &mut g;
                g.commit();
            }
            assert_eq!(w.mesh_version(), version);
            assert!(std::ptr::eq(w.mesh(), ptr), "the mesh was copied");
        }
    }
    w.mesh().check().unwrap();
}

fn same_versions(a: &World, b: &World) -> bool {
    a.mesh_version() == b.mesh_version()
        && ["height", "position"]
            .iter()
            .all(|n| a.layer_version(n) == b.layer_version(n))
}

/// Runs one random sequence; returns how many undo steps checked had a topology change.
fn run(seed: u64, steps: usize) -> usize {
    let mut topology_steps = 0;
    let mut rng = Rng::new(seed);
    let mut w = World::new(start_mesh(seed as usize), seed);
    let mut h = History::new(usize::MAX);
    h.commit("0", &mut w);
    let mut past = vec![w.clone()];
    let mut future: Vec<World> = Vec::new();
    for step in 0..steps {
        let mut op = rng.below(8);
        if op == 7 {
            // Back to the committed state through a clone of it, not edited: the history
            // follows it (an edited clone would have stopped logging).
            w = past.last().unwrap().clone();
            op = 3 + rng.below(4);
        }
        match op {
            0..=2 => {
                random_edit(&mut w, &mut rng);
                continue; // in flight until the next commit
            }
            3 | 4 => {
                h.commit(step.to_string(), &mut w);
                past.push(w.clone());
                future.clear();
            }
            5 => {
                let undone = h.undo(&mut w).is_some();
                assert_eq!(undone, past.len() > 1, "seed {seed} step {step}");
                if undone {
                    future.push(past.pop().unwrap());
                }
            }
            _ => {
                let redone = h.redo(&mut w).is_some();
                assert_eq!(redone, !future.is_empty(), "seed {seed} step {step}");
                if redone {
                    past.push(future.pop().unwrap());
                }
            }
        }
        w.mesh().check().unwrap();
        let expect = past.last().unwrap();
        assert_eq!(h.undo_steps(), past.len() - 1, "seed {seed} step {step}");
        assert_eq!(h.redo_steps(), future.len(), "seed {seed} step {step}");
        if h.undo(&mut w).is_some() {
            // Every undo step rebuilds exactly; step forward again.
            topology_steps += usize::from(w.mesh() != expect.mesh());
            assert_eq!(w, past[past.len() - 2], "seed {seed} step {step}");
            assert!(same_versions(&w, &past[past.len() - 2]));
            w.mesh().check().unwrap();
            h.redo(&mut w).unwrap();
            assert_eq!(&w, expect, "seed {seed} step {step}");
            assert!(same_versions(&w, expect));
        }
    }
    topology_steps
}

#[test]
fn random_topology_edits_undo_and_redo_exactly() {
    let topology_steps: usize = (1..=16).map(|seed| run(seed, 250)).sum();
    // The checks above ran on real topology changes, not only on layer edits.
    assert!(topology_steps > 200, "{topology_steps}");
}

/// An undo step after one flip, split or collapse holds a few KiB, not a mesh.
#[test]
fn a_topology_step_costs_what_changed() {
    let (n, t) = shapes::icosahedron_grid(40);
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    w.lock_layer(&HEIGHT).unwrap().commit().unwrap();
    let mut h = History::new(usize::MAX);
    h.commit("start", &mut w);
    let before = w.clone();
    for (k, v) in [10u32, 200, 3000].into_iter().enumerate() {
        {
            let mut mesh = w.lock_mesh();
            let e = mesh.vertex_edge(Vertex::new(v));
            match k {
                0 => mesh.flip(e).map(drop).unwrap(),
                1 => mesh.split(e, 0.5).map(drop).unwrap(),
                _ => mesh.collapse(e, 0.5).map(drop).unwrap(),
            }
            mesh.commit();
        }
        h.commit(k.to_string(), &mut w);
        let step = h.step_bytes().last().unwrap();
        assert!(step < 24 << 10, "edit {k}: {step} bytes");
        assert!(step < w.mesh().heap_bytes() / 20);
    }
    while h.undo(&mut w).is_some() {}
    assert_eq!(w, before);
}

/// A mesh replaced through a guard's `&mut Mesh` is logged like `replace_mesh`: the old mesh
/// came back to the guard, so the chain of logs holds and undo steps across it.
#[test]
fn a_mesh_replaced_in_a_guard_is_an_undoable_step() {
    let mut w = World::new(start_mesh(4), 1);
    let mut h = History::new(usize::MAX);
    h.commit("a", &mut w);
    let a = w.clone();
    let e = w.mesh().vertex_edge(Vertex::new(0));
    w.update_mesh(|m| m.flip(e).unwrap());
    h.commit("b", &mut w);
    let b = w.clone();
    {
        let mut g = w.lock_mesh();
        *g = start_mesh(3);
        g.commit();
    }
    h.commit("c", &mut w);
    let c = w.clone();
    assert_eq!(h.undo(&mut w), Some("b"));
    assert_eq!(w, b);
    assert_eq!(h.undo(&mut w), Some("a"));
    assert_eq!(w, a);
    assert_eq!(h.redo(&mut w), Some("b"));
    assert_eq!(h.redo(&mut w), Some("c"));
    assert_eq!(w, c);
}

/// A compaction and a replaced mesh fall back to a whole copy of the topology in the log,
/// and still undo exactly.
#[test]
fn compaction_and_replacement_undo_exactly() {
    let (n, t) = shapes::icosahedron_grid(6);
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    w.update_layer(&HEIGHT, |l| l.fill(2.0)).unwrap();
    let mut h = History::new(usize::MAX);
    h.commit("start", &mut w);
    let start = w.clone();
    {
        let mut m = w.lock_mesh();
        let e = m.vertex_edge(Vertex::new(5));
        m.collapse(e, 0.5).unwrap();
        m.compact();
        m.commit();
    }
    h.commit("compacted", &mut w);
    let compacted = w.clone();
    w.replace_mesh(start_mesh(4), MeshReplacement::ResetAll)
        .unwrap();
    h.commit("replaced", &mut w);
    let replaced = w.clone();
    assert_eq!(h.undo(&mut w), Some("compacted"));
    assert_eq!(w, compacted);
    assert_eq!(h.undo(&mut w), Some("start"));
    assert_eq!(w, start);
    w.mesh().check().unwrap();
    h.redo(&mut w).unwrap();
    h.redo(&mut w).unwrap();
    assert_eq!(w, replaced);
}

/// A clone kept for other uses stops logging on its first edit: it records nothing nobody
/// would take, and the history goes on with the world it follows.
#[test]
fn an_edited_clone_stops_logging() {
    let mut w = World::new(start_mesh(4), 1);
    let mut h = History::new(usize::MAX);
    h.commit("a", &mut w);
    assert!(w.mesh().is_undo_logging());
    let mut other = w.clone();
    let e = other.mesh().vertex_edge(Vertex::new(0));
    other.update_mesh(|m| m.flip(e).unwrap());
    assert!(!other.mesh().is_undo_logging());
    assert!(w.mesh().is_undo_logging());
    w.update_mesh(|m| m.flip(e).unwrap());
    h.commit("b", &mut w);
    assert_eq!(h.undo(&mut w), Some("a"));
    // The edited clone cannot be taken back: refused, unchanged.
    let before = other.clone();
    assert_eq!(h.redo(&mut other), None);
    assert_eq!(other, before);
}
