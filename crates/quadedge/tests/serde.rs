//! Serde of a mesh: the arrays travel as byte strings; a self-describing format (JSON) hands
//! them back as sequences, which must decode too, and bad lengths must be errors.
#![cfg(feature = "serde")]

use quadedge::{Mesh, shapes};

#[test]
fn json_round_trip_and_bad_byte_lengths() {
    let (n, t) = shapes::icosahedron_grid(3);
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let e = m.undirected_edges().nth(5).unwrap();
    m.split(e, 0.5).unwrap();
    let f = m.faces().nth(2).unwrap();
    m.remove_face(f).unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let back: Mesh = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    back.check().unwrap();

    // Drop the last byte of the first array: its length is no longer a multiple of 4.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let arr = v["vertex_edge"].as_array_mut().unwrap();
    arr.pop();
    let err = serde_json::from_value::<Mesh>(v).unwrap_err();
    assert!(err.to_string().contains("multiple of 4"), "{err}");
}

/// A loaded file whose free list holds an id twice (with a matching extra dead slot, so the
/// counts agree) is rejected by `check()`: the next edits would hand the id out twice.
#[test]
fn loaded_free_list_with_a_repeated_id_is_rejected() {
    let (n, t) = shapes::octahedron();
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    m.remove_face(quadedge::Face::new(3)).unwrap();
    m.check().unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // free_faces = [3] becomes [3, 3]; face_edge gains a dead slot (all bits set).
    let free = v["free_faces"].as_array_mut().unwrap();
    let copy = free.clone();
    free.extend(copy);
    v["face_edge"]
        .as_array_mut()
        .unwrap()
        .extend([255, 255, 255, 255].map(serde_json::Value::from));
    let back: Mesh = serde_json::from_value(v).unwrap();
    let err = back.check().unwrap_err();
    assert_eq!(
        err,
        quadedge::MeshError::Corrupt("free face list holds 3 twice".into())
    );
}

/// The star-edit records travel through serde like the other journal entries.
#[test]
fn star_records_round_trip() {
    let (n, t) = shapes::octahedron();
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let rec = m.record_changes().unwrap();
    let s = m
        .split_face(quadedge::Face::new(0), [0.5, 0.25, 0.25])
        .unwrap();
    m.dissolve_vertex(s.vertex).unwrap();
    let changes = m.stop_recording(rec).unwrap();
    assert_eq!(changes.len(), 2);
    let json = serde_json::to_string(&changes).unwrap();
    let back: Vec<quadedge::Change> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, changes);
}
