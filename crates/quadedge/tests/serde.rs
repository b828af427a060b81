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
