//! Save and load run on all cores: the bytes and the errors do not depend on the thread
//! count.

mod common;

use common::*;
use glam::DVec3;
use layers::{FaceKind, LayerInfo};
use quadedge::{Mesh, Vertex, shapes};
use world::{World, WorldError};

const CENTER: LayerInfo<DVec3, FaceKind> = LayerInfo::new("circumcenter");

/// A world with a mesh large enough for the checksum to run in pieces (over 4 MiB), typed
/// layers, a layer still encoded with a pending batch, and a dictionary.
fn big_world() -> World {
    let (n, t) = shapes::icosahedron_grid(60);
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 3);
    for (i, h) in w
        .lock_layer(&HEIGHT)
        .unwrap()
        .as_mut_slice()
        .iter_mut()
        .enumerate()
    {
        *h = (i % 200) as f32 * 0.25;
    }
    w.update_layer(&DISTANCE, |l| l.fill(2.0)).unwrap();
    w.update_layer(&CENTER, |l| l.fill(DVec3::ONE)).unwrap();
    w.update_dict("meta", |d| d.set("first", Vertex::new(1)));
    // Saved, loaded and edited: the layers stay encoded with a pending journal batch.
    let mut w = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    let e = w.mesh().vertex_edge(Vertex::new(7));
    w.update_mesh(|m| m.split(e, 0.5).unwrap());
    w
}

#[test]
fn save_is_bit_identical_and_load_equal_whatever_the_thread_count() {
    let w = big_world();
    assert!(
        w.mesh().heap_bytes() > 5 << 20,
        "the mesh's CRC runs in pieces"
    );
    let files: Vec<Vec<u8>> = testkit::thread_pools()
        .iter()
        .map(|p| p.install(|| w.save_to_vec().unwrap()))
        .collect();
    assert!(files.windows(2).all(|f| f[0] == f[1]));
    for p in testkit::thread_pools() {
        let back = p.install(|| World::load_from_slice(&files[0]).unwrap());
        assert_eq!(back, w);
        assert_eq!(back.save_to_vec().unwrap(), files[0]);
    }
}

#[test]
fn the_first_error_in_file_order_is_reported_whatever_the_thread_count() {
    let file = big_world().save_to_vec().unwrap();
    let (header, sections) = parse(&file);
    // Where section `k`'s payload starts in the file.
    let payload_at = |k: usize| {
        header.len()
            + sections[..k]
                .iter()
                .map(|s| 15 + s.name.len() + s.payload.len())
                .sum::<usize>()
            + 15
            + sections[k].name.len()
    };
    // Damage two sections (checksums left stale): the earlier one's error wins.
    let mut bytes = file.clone();
    let last = sections.len() - 1;
    bytes[payload_at(last) + 3] ^= 1;
    bytes[payload_at(1)] ^= 1;
    let errors: Vec<String> = testkit::thread_pools()
        .iter()
        .map(|p| match p.install(|| World::load_from_slice(&bytes)) {
            Err(WorldError::Checksum { section }) => section,
            other => panic!("expected a checksum error, got {other:?}"),
        })
        .collect();
    assert!(errors.iter().all(|s| *s == errors[0]));
    assert_eq!(errors[0], String::from_utf8_lossy(&sections[1].name));
    // A truncated file whose earlier section is damaged: the damage is reported first; the
    // truncation only once every section before it is sound.
    let mut cut = bytes.clone();
    cut.truncate(cut.len() - 5);
    let mut sound_then_cut = file.clone();
    sound_then_cut.truncate(file.len() - 5);
    for p in testkit::thread_pools() {
        assert!(matches!(
            p.install(|| World::load_from_slice(&cut)),
            Err(WorldError::Checksum { .. })
        ));
        assert!(matches!(
            p.install(|| World::load_from_slice(&sound_then_cut)),
            Err(WorldError::Truncated)
        ));
    }
}
