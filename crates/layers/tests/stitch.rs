//! Layers and dictionaries follow real stitching journals: `connect_edges` (merged-away
//! vertices and the removed edge deleted, survivors kept), `disconnect_edge` (the new edge
//! descends from the cut edge's other side, split vertices copy their source) and face
//! removals that split a vertex.

use layers::{
    ApplyOutcome, DirectedEdgeKind, Interpolation, Layer, LayerInfo, OnChange, Sizes, VertexKind,
};
use layers::{Dict, Value};
use quadedge::{Change, Edge, Mesh, Vertex};

fn layer<K: layers::Kind>(values: Vec<f32>, on: OnChange) -> Layer<f32, K> {
    let info = LayerInfo::new("t")
        .initial(-1.0)
        .on_change(on)
        .interpolation(Interpolation::Lerp);
    Layer::from_values(info, values)
}

/// PathEngine's square with a recorder: returns the mesh, the kept and removed edges.
fn square(rec_changes: &mut Vec<Change>) -> (Mesh, Edge, Edge) {
    let mut m = Mesh::new();
    let rec = m.record_changes().unwrap();
    let f1 = m.add_free_triangle().unwrap();
    let f2 = m.add_free_triangle().unwrap();
    let (e1, e2) = (m.face_edges(f1)[2], m.face_edges(f2)[1]);
    rec_changes.extend(m.take_changes(&rec).unwrap());
    m.connect_edges(e1, e2).unwrap();
    rec_changes.extend(m.stop_recording(rec).unwrap());
    (m, e1, e2)
}

#[test]
fn a_stitch_deletes_the_merged_vertices_and_the_removed_edge() {
    let mut changes = Vec::new();
    let (m, e1, e2) = square(&mut changes);
    let stitch = changes.split_off(changes.len() - 1);
    // Vertex values 0..6 (as the six free corners had them), then the stitch.
    let mut v = layer::<VertexKind>((0..6).map(|x| x as f32).collect(), OnChange::ResetAffected);
    assert_eq!(
        v.apply_changes(&stitch, Sizes::of(&m)),
        ApplyOutcome::Changed
    );
    // v4 and v5 were merged away (reset); the survivors keep their values.
    assert_eq!(v.to_vec(), [0.0, 1.0, 2.0, 3.0, -1.0, -1.0]);
    let mut d =
        layer::<DirectedEdgeKind>((0..12).map(|x| x as f32).collect(), OnChange::ResetAffected);
    assert_eq!(
        d.apply_changes(&stitch, Sizes::of(&m)),
        ApplyOutcome::Changed
    );
    let b = e2.base().index();
    assert_eq!((d.to_vec()[b], d.to_vec()[b + 1]), (-1.0, -1.0));
    assert_eq!(d.to_vec()[e1.index()], e1.index() as f32);
    // Dictionaries drop ids the stitch deleted.
    let mut dict = Dict::new();
    dict.set("gone", Value::Vertex(Vertex::new(5)));
    dict.set("kept", Value::Vertex(Vertex::new(2)));
    dict.set("edge", Value::Edge(e2));
    assert!(dict.apply_changes(&stitch));
    assert_eq!(dict.get("gone"), Some(&Value::Null));
    assert_eq!(dict.get("edge"), Some(&Value::Null));
    assert_eq!(dict.get("kept"), Some(&Value::Vertex(Vertex::new(2))));
}

#[test]
fn a_cut_copies_values_to_the_new_edge_and_the_split_vertices() {
    let mut changes = Vec::new();
    let (mut m, e1, _) = square(&mut changes);
    let rec = m.record_changes().unwrap();
    let n = m.disconnect_edge(e1).unwrap();
    let cut = m.stop_recording(rec).unwrap();
    let mut v = layer::<VertexKind>(vec![10.0, 11.0, 12.0, 13.0, -1.0, -1.0], OnChange::Keep);
    assert_eq!(v.apply_changes(&cut, Sizes::of(&m)), ApplyOutcome::Changed);
    // v2 split into v4, v0 into v5 (the square's cut): copies of their sources.
    assert_eq!(v.to_vec(), [10.0, 11.0, 12.0, 13.0, 12.0, 10.0]);
    // The new edge runs like e1.sym() and copies its data, direction by direction.
    let mut d = layer::<DirectedEdgeKind>((0..10).map(|x| x as f32).collect(), OnChange::Keep);
    assert_eq!(d.apply_changes(&cut, Sizes::of(&m)), ApplyOutcome::Changed);
    let got = d.to_vec();
    assert_eq!(got[n.index()], e1.sym().index() as f32);
    assert_eq!(got[n.sym().index()], e1.index() as f32);
    // A layer that drops on interpolation is dropped by a cut.
    let info = LayerInfo::new("x").interpolation(Interpolation::DropLayer);
    let mut drop: Layer<f32, VertexKind> = Layer::from_values(info, vec![0.0; 6]);
    assert_eq!(
        drop.apply_changes(&cut, Sizes::of(&m)),
        ApplyOutcome::Remove
    );
}
