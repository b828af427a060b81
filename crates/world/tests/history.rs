//! The undo history keeps block deltas of changed layers: exactness against full snapshots
//! kept aside, and the memory of one step.

use glam::DVec3;
use layers::{EdgeKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use world::{History, World};

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height").initial(1.5);
const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);

fn grid_world() -> World {
    let (n, t) = shapes::icosahedron_grid(12);
    World::new(Mesh::from_triangles(n, &t).unwrap(), 7)
}

/// One random edit: single values, whole-layer writes, a flip, a new or removed layer.
fn random_edit(w: &mut World, rng: &mut SmallRng) {
    let n = w.mesh().vertex_slots() as u32;
    match rng.random_range(0..7) {
        0 | 1 => {
            let v = Vertex::new(rng.random_range(0..n));
            w.update_layer(&HEIGHT, |l| l[v] = rng.random()).unwrap();
        }
        2 => {
            let x: f64 = rng.random();
            w.update_layer(&POSITION, |l| {
                for p in l.as_mut_slice() {
                    p.x += x;
                }
            })
            .unwrap();
        }
        3 => {
            let mut mesh = w.lock_mesh();
            let e = mesh.vertex_edge(Vertex::new(rng.random_range(0..n)));
            let _ = mesh.flip(e);
            mesh.commit();
        }
        4 => {
            w.update_layer(&DISTANCE, |l| l.as_mut_slice()[0]).unwrap();
        }
        5 => {
            w.remove_layer(DISTANCE.name());
        }
        _ => {
            // Taken for writing, nothing changed.
            w.update_layer(&HEIGHT, |_| ()).unwrap();
        }
    }
}

/// Undo and redo give back exactly the committed states (values bit for bit, versions),
/// whatever mix of commits, undos and redos ran before.
#[test]
fn undo_redo_with_block_deltas_is_exact() {
    let mut rng = SmallRng::seed_from_u64(14);
    let mut w = grid_world();
    let mut h = History::new(usize::MAX);
    // Full snapshots kept aside: the committed states and the redo list.
    let mut past: Vec<World> = vec![w.clone()];
    let mut future: Vec<World> = Vec::new();
    h.commit("0", &mut w);
    for step in 0..300 {
        match rng.random_range(0..4) {
            0 | 1 => {
                random_edit(&mut w, &mut rng);
                h.commit(step.to_string(), &mut w);
                past.push(w.clone());
                future.clear();
            }
            2 => {
                let undone = h.undo(&mut w).is_some();
                assert_eq!(undone, past.len() > 1);
                if undone {
                    future.push(past.pop().unwrap());
                }
            }
            _ => {
                let redone = h.redo(&mut w).is_some();
                assert_eq!(redone, !future.is_empty());
                if redone {
                    past.push(future.pop().unwrap());
                }
            }
        }
        let expect = past.last().unwrap();
        assert_eq!(&w, expect, "step {step}");
        for name in ["height", "position", "plate_distance"] {
            assert_eq!(
                w.layer_version(name),
                expect.layer_version(name),
                "step {step}"
            );
        }
        assert_eq!(h.undo_steps(), past.len() - 1);
        assert_eq!(h.redo_steps(), future.len());
    }
}

/// Writing one value between two commits of a world with a 1M-value layer keeps at most
/// 64 KiB in the history, and undoing it rebuilds the old value.
#[test]
fn undo_step_after_one_value_at_1m_values_is_at_most_64_kib() {
    let mut mesh = Mesh::new();
    mesh.add_vertices(1 << 20).unwrap();
    let mut w = World::new(mesh, 1);
    w.update_layer(&POSITION, |l| l.fill(DVec3::X)).unwrap();
    w.lock_layer(&HEIGHT).unwrap().commit().unwrap();
    let mut h = History::new(usize::MAX);
    h.commit("start", &mut w);
    w.update_layer(&POSITION, |l| l[Vertex::new(12_345)] = DVec3::Y)
        .unwrap();
    h.commit("one value", &mut w);
    let step: Vec<usize> = h.step_bytes().collect();
    assert_eq!(step.len(), 1);
    assert!(step[0] <= 64 << 10, "undo step {} bytes", step[0]);
    assert!(h.bytes() < w.heap_bytes() + (64 << 10));
    h.undo(&mut w).unwrap();
    assert_eq!(w.layer(&POSITION).unwrap()[Vertex::new(12_345)], DVec3::X);
    h.redo(&mut w).unwrap();
    assert_eq!(w.layer(&POSITION).unwrap()[Vertex::new(12_345)], DVec3::Y);
}

/// A write after a snapshot leaves the snapshot's values alone, and slices agree with
/// indexing on both.
#[test]
fn a_write_after_a_snapshot_leaves_the_snapshot_unchanged() {
    let mut w = grid_world();
    w.update_layer(&HEIGHT, |l| l.as_mut_slice()[3] = 2.0)
        .unwrap();
    let snap = w.clone();
    {
        let mut h = w.lock_layer(&HEIGHT).unwrap();
        for (i, x) in h.as_mut_slice().iter_mut().enumerate() {
            *x = i as f32;
        }
        h.commit().unwrap();
    }
    let before = snap.layer(&HEIGHT).unwrap();
    assert_eq!(before.as_slice()[3], 2.0);
    assert!(
        before
            .as_slice()
            .iter()
            .enumerate()
            .all(|(i, &x)| x == if i == 3 { 2.0 } else { 1.5 })
    );
    let after = w.layer(&HEIGHT).unwrap();
    for (i, x) in after.as_slice().iter().enumerate() {
        assert_eq!(*x, after[Vertex::new(i as u32)]);
        assert_eq!(*x, i as f32);
    }
}

/// Taking the mesh or a layer for writing and changing nothing keeps no copy and changes no
/// version: the snapshot and the world share the same mesh and the same values afterwards.
#[test]
fn no_write_no_copy_and_no_version_change() {
    let mut w = grid_world();
    w.update_layer(&HEIGHT, |l| l.fill(2.0)).unwrap();
    let snap = w.clone();
    let (mesh_version, height_version) = (w.mesh_version(), w.layer_version("height"));
    {
        let mut mesh = w.lock_mesh();
        let m: &mut Mesh = &mut mesh; // a mutable borrow, no edit
        assert!(m.vertex_count() > 0);
        mesh.commit();
    }
    {
        let mut h = w.lock_layer(&HEIGHT).unwrap();
        let l: &mut layers::Layer<f32, VertexKind> = &mut h;
        assert_eq!(l.as_slice()[0], 2.0);
        h.commit().unwrap();
    }
    assert!(
        std::ptr::eq(w.mesh(), snap.mesh()),
        "the mesh copy was dropped"
    );
    assert!(
        w.layer(&HEIGHT)
            .unwrap()
            .shares_values(snap.layer(&HEIGHT).unwrap())
    );
    assert_eq!(w.mesh_version(), mesh_version);
    assert_eq!(w.layer_version("height"), height_version);
    assert_eq!(w.unshared_bytes(&snap), 0);
    {
        let tx = w.transaction();
        let m = tx.mesh_mut().unwrap();
        assert!(m.vertex_count() > 0);
        drop(m);
        tx.commit().unwrap();
    }
    assert!(
        std::ptr::eq(w.mesh(), snap.mesh()),
        "a transaction's copy was dropped too"
    );
    assert_eq!(w.mesh_version(), mesh_version);
    // An edit that does change something still copies and stamps.
    w.update_mesh(|m| m.add_vertex());
    assert!(!std::ptr::eq(w.mesh(), snap.mesh()));
    assert!(w.mesh_version() > mesh_version);
}
