//! World behaviour: copy-on-write, locks, versions, validation, journal-driven layers,
//! history, and loading damaged files.

use layers::{EdgeKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use rand::Rng;
use world::{History, World, WorldError};

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height")
    .interpolation(Interpolation::Lerp)
    .range(-100.0, 100.0)
    .auto_validate(true);
const HEIGHT_AS_U8: LayerInfo<u8, VertexKind> = LayerInfo::new("height");
const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);

fn world(k: u32) -> World {
    let (n, t) = shapes::icosahedron_grid(k);
    World::new(Mesh::from_triangles(n, &t).unwrap(), 99)
}

fn sample_world() -> World {
    let mut w = world(2);
    {
        let mut pair = w.lock_layers(&HEIGHT, &DISTANCE).unwrap();
        let (h, d) = pair.parts();
        for i in 0..h.len() {
            h[Vertex::new(i as u32)] = i as f32 * 0.5;
        }
        d.fill(2.5);
        pair.commit().unwrap();
    }
    w.update_dict("plates", |d| d.set("count", 3i64));
    let mut rng = w.lock_random();
    let _: u64 = rng.random();
    rng.commit();
    w
}

#[test]
fn clones_share_until_written() {
    let mut w = sample_world();
    let snap = w.clone();
    assert_eq!(w.unshared_bytes(&snap), 0);
    w.update_layer(&HEIGHT, |l| l[Vertex::new(3)] = 42.0)
        .unwrap();
    assert_eq!(snap.layer(&HEIGHT).unwrap()[Vertex::new(3)], 1.5);
    assert_eq!(w.layer(&HEIGHT).unwrap()[Vertex::new(3)], 42.0);
    // Only the written layer stopped being shared; the mesh still is.
    let unshared = w.unshared_bytes(&snap);
    assert!(unshared > 0 && unshared < w.heap_bytes() - w.mesh().heap_bytes() + 1);
    assert_eq!(snap.layer(&DISTANCE), w.layer(&DISTANCE));
}

#[test]
fn a_layer_keeps_its_type_and_kind() {
    let mut w = sample_world();
    match w.lock_layer(&HEIGHT_AS_U8) {
        Err(WorldError::LayerMismatch { name, .. }) => assert_eq!(name, "height"),
        other => panic!("expected a mismatch, got {:?}", other.map(|_| ())),
    }
    assert!(w.try_layer(&HEIGHT_AS_U8).is_err());
    assert_eq!(w.layer(&HEIGHT_AS_U8), None);
    // Other settings of a later info are refused, not silently ignored.
    const DISTANCE_ZERO: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(0.0);
    assert!(matches!(
        w.lock_layer(&DISTANCE_ZERO),
        Err(WorldError::LayerSettingsDiffer(_))
    ));
    assert!(matches!(
        w.lock_layers(&HEIGHT, &HEIGHT),
        Err(WorldError::SameLayerTwice(_))
    ));
}

#[test]
fn versions_grow_on_every_write() {
    let mut w = sample_world();
    let (m, h, d, r) = (
        w.mesh_version(),
        w.layer_version("height"),
        w.dict_version("plates"),
        w.random_version(),
    );
    w.update_layer(&HEIGHT, |l| l[Vertex::new(0)] = 1.0)
        .unwrap();
    assert!(w.layer_version("height") > h);
    assert_eq!(w.mesh_version(), m);
    w.update_dict("plates", |d| d.set("count", 4i64));
    assert!(w.dict_version("plates") > d);
    let mut rng = w.lock_random();
    let _: u32 = rng.random();
    rng.commit();
    assert!(w.random_version() > r);
    let h2 = w.layer_version("height");
    {
        let mut mesh = w.lock_mesh();
        mesh.add_vertex();
        mesh.commit();
    }
    assert!(w.mesh_version() > m);
    // The new vertex got the initial value, so the layer changed too.
    assert!(w.layer_version("height") > h2);
    let h = w.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), w.mesh().vertex_slots());
    assert_eq!(h[Vertex::new(h.len() as u32 - 1)], 0.0);
}

#[test]
fn automatic_validation_refuses_and_rolls_back_invalid_writes() {
    let mut w = sample_world();
    let before = w.clone();
    let version = w.layer_version("height");
    // Committed: the error names the offending element, and nothing is kept.
    let mut h = w.lock_layer(&HEIGHT).unwrap();
    h[Vertex::new(3)] = 2.0;
    h[Vertex::new(7)] = 1000.0;
    let msg = h.commit().unwrap_err().to_string();
    assert!(msg.contains("height") && msg.contains("v7"), "{msg}");
    assert!(w == before);
    assert_eq!(w.layer_version("height"), version);
    // Through `update_layer`: the error is returned, nothing is kept.
    assert!(
        w.update_layer(&HEIGHT, |l| l[Vertex::new(7)] = 1000.0)
            .is_err()
    );
    assert!(w == before);
    assert_eq!(w.layer_version("height"), version);
    // Dropped without commit, even a valid write is rolled back.
    let mut g = w.lock_layer(&HEIGHT).unwrap();
    g[Vertex::new(7)] = 1.0;
    drop(g);
    assert!(w == before);
    assert_eq!(w.layer_version("height"), version);
    // A valid write is kept by a commit.
    let mut g = w.lock_layer(&HEIGHT).unwrap();
    g[Vertex::new(7)] = 1.0;
    g.commit().unwrap();
    w.update_layer(&HEIGHT, |l| l[Vertex::new(8)] = 2.0)
        .unwrap();
    let h = w.layer(&HEIGHT).unwrap();
    assert_eq!((h[Vertex::new(7)], h[Vertex::new(8)]), (1.0, 2.0));
    assert!(w.layer_version("height") > version);
}

#[test]
fn worlds_are_send_and_sync_and_snapshots_read_on_other_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<World>();
    let mut w = sample_world();
    let snap = w.clone();
    let reader = std::thread::spawn(move || snap.layer(&HEIGHT).unwrap().iter().sum::<f32>());
    for i in 0..10 {
        w.update_layer(&HEIGHT, |l| l[Vertex::new(i)] = -1.0)
            .unwrap();
    }
    let sum = reader.join().unwrap();
    assert_eq!(
        sum,
        sample_world().layer(&HEIGHT).unwrap().iter().sum::<f32>()
    );
}

#[test]
fn history_undoes_and_redoes() {
    let mut w = sample_world();
    let mut h = History::new(usize::MAX);
    h.commit("start", &mut w);
    w.update_layer(&HEIGHT, |l| l[Vertex::new(1)] = 9.0)
        .unwrap();
    h.commit("edit", &mut w);
    w.update_mesh(|m| m.add_vertex());
    h.commit("topology", &mut w);
    assert_eq!(h.undo_steps(), 2);
    assert_eq!(h.undo(&mut w), Some("edit"));
    assert_eq!(w.mesh().vertex_count(), 42);
    assert_eq!(h.undo(&mut w), Some("start"));
    assert_eq!(w.layer(&HEIGHT).unwrap()[Vertex::new(1)], 0.5);
    assert_eq!(h.undo(&mut w), None);
    assert_eq!(h.redo(&mut w), Some("edit"));
    assert_eq!(w.layer(&HEIGHT).unwrap()[Vertex::new(1)], 9.0);
    // A new commit drops the redo list.
    h.commit("other", &mut w);
    assert_eq!(h.redo(&mut w), None);
    // A tight memory bound drops the oldest snapshots.
    let mut small = History::new(1);
    small.commit("a", &mut w);
    small.commit("b", &mut w);
    assert_eq!(small.labels().collect::<Vec<_>>(), ["b"]);
}

#[test]
fn save_and_load_round_trip() {
    let w = sample_world();
    let bytes = w.save_to_vec().unwrap();
    let back = World::load_from_slice(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.layer(&HEIGHT), w.layer(&HEIGHT));
    assert_eq!(back.dict("plates").unwrap().get_i64("count").unwrap(), 3);
    assert_eq!(back.random(), w.random());
    // A loaded layer follows edits made before it is first decoded.
    let mut back = back;
    back.update_mesh(|m| m.add_vertex());
    assert_eq!(back.layer(&HEIGHT).unwrap().len(), 43);
    // Saving and loading again gives the same bytes.
    let w2 = World::load_from_slice(&back.save_to_vec().unwrap()).unwrap();
    assert_eq!(w2, back);
    let dir = std::env::temp_dir().join(format!("world-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.world");
    w.save(&path).unwrap();
    assert_eq!(World::load(&path).unwrap(), w);
    assert!(matches!(
        World::load(dir.join("missing.world")),
        Err(WorldError::Io(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = sample_world().save_to_vec().unwrap();
    for len in 0..bytes.len() {
        assert!(
            World::load_from_slice(&bytes[..len]).is_err(),
            "truncated at {len} loaded"
        );
    }
}

#[test]
fn flipped_bits_are_errors() {
    let bytes = sample_world().save_to_vec().unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    for _ in 0..400 {
        let mut b = bytes.clone();
        let i = rng.random_range(0..b.len());
        b[i] ^= 1 << rng.random_range(0..8);
        assert!(
            World::load_from_slice(&b).is_err(),
            "flip at byte {i} loaded"
        );
    }
    assert!(matches!(
        World::load_from_slice(b"not a world file"),
        Err(WorldError::BadMagic)
    ));
    let mut v = bytes.clone();
    v[8] = 9;
    assert!(matches!(
        World::load_from_slice(&v),
        Err(WorldError::UnsupportedVersion(9))
    ));
    // An absurd section length is refused before anything is allocated.
    let mut huge = bytes[..16].to_vec();
    huge.extend_from_slice(&[1, 4, 0]);
    huge.extend_from_slice(b"mesh");
    huge.extend_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        World::load_from_slice(&huge),
        Err(WorldError::Truncated)
    ));
}

use rand::SeedableRng;

#[test]
fn encoded_layers_follow_a_replaced_mesh_and_versions_never_repeat_after_undo() {
    let mut loaded = World::load_from_slice(&sample_world().save_to_vec().unwrap()).unwrap();
    {
        let mut m = loaded.lock_mesh();
        let (n, t) = shapes::octahedron();
        *m = Mesh::from_triangles(n, &t).unwrap();
        m.commit();
    }
    // Decoded only now: reset to the initial value at the new size.
    let h = loaded.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), 6);
    assert!(h.iter().all(|&x| x == 0.0));
    assert_eq!(loaded.layer(&DISTANCE).unwrap().len(), 12);
    assert!(loaded.layer(&DISTANCE).unwrap().iter().all(|&x| x == -1.0));

    let mut w = sample_world();
    let mut hist = History::new(usize::MAX);
    hist.commit("a", &mut w);
    w.update_layer(&HEIGHT, |l| l[Vertex::new(0)] = 1.0)
        .unwrap();
    let after_edit = w.layer_version("height");
    hist.commit("b", &mut w);
    hist.undo(&mut w);
    w.update_layer(&HEIGHT, |l| l[Vertex::new(0)] = 2.0)
        .unwrap();
    assert!(w.layer_version("height") > after_edit);
}
