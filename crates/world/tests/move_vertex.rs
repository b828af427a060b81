//! A vertex moved in one edit (`Mesh::move_vertex`, journaled as `Change::VertexMoved`)
//! through the world: vertex data stays, the rewired spokes and faces follow their layers'
//! on-change policies, and the history undoes and redoes it with the layers.

use layers::{EdgeKind, FaceKind, LayerInfo, OnChange, VertexKind};
use quadedge::{Edge, Face, Mesh, Vertex, shapes};
use world::{History, World};

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height")
    .initial(-1.0)
    .on_change(OnChange::ResetAffected);
const PLATE: LayerInfo<u16, FaceKind> = LayerInfo::new("plate")
    .initial(7)
    .on_change(OnChange::ResetAffected);
const LENGTH: LayerInfo<f32, EdgeKind> = LayerInfo::new("length")
    .initial(0.0)
    .on_change(OnChange::ResetAffected);
const KEPT: LayerInfo<u16, FaceKind> = LayerInfo::new("kept").initial(3);

/// The octahedron with vertex 6 in face 0, every layer written with values that name their
/// element.
fn world() -> World {
    let (n, t) = shapes::octahedron();
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    m.split_face(Face::new(0), [0.4, 0.3, 0.3]).unwrap();
    let mut w = World::new(m, 3);
    w.update_layer(&HEIGHT, |l| {
        for (i, h) in l.as_mut_slice().iter_mut().enumerate() {
            *h = 10.0 + i as f32;
        }
    })
    .unwrap();
    for info in [&PLATE, &KEPT] {
        w.update_layer(info, |l| {
            for (i, p) in l.as_mut_slice().iter_mut().enumerate() {
                *p = 100 + i as u16;
            }
        })
        .unwrap();
    }
    w.update_layer(&LENGTH, |l| {
        for (i, x) in l.as_mut_slice().iter_mut().enumerate() {
            *x = 1.0 + i as f32;
        }
    })
    .unwrap();
    w
}

#[test]
fn a_move_keeps_vertex_data_and_resets_what_it_rewired() {
    let mut w = world();
    let heights = w.layer(&HEIGHT).unwrap().as_slice().to_vec();
    let kept = w.layer(&KEPT).unwrap().as_slice().to_vec();
    let r = w
        .update_mesh(|m| m.move_vertex(Vertex::new(6), Face::new(6)))
        .unwrap();
    w.mesh().check().unwrap();
    // The moved vertex is the same point: every vertex value stays.
    assert_eq!(w.layer(&HEIGHT).unwrap().as_slice(), &heights[..]);
    // Faces: the closed triangle and the three around the vertex reset, the others stay.
    let rewired: Vec<Face> = std::iter::once(r.closed).chain(r.faces).collect();
    let plate = w.layer(&PLATE).unwrap();
    for x in w.mesh().faces() {
        let want = if rewired.contains(&x) {
            7
        } else {
            100 + x.index() as u16
        };
        assert_eq!(plate[x], want, "{x:?}");
    }
    // A layer that keeps its values on change keeps them all.
    assert_eq!(w.layer(&KEPT).unwrap().as_slice(), &kept[..]);
    // Edges: the three spokes reset, the others stay.
    let length = w.layer(&LENGTH).unwrap();
    let spokes: Vec<usize> = r.spokes.iter().map(|s| s.quad()).collect();
    for q in 0..w.mesh().quad_slots() {
        let e = Edge::of_quad(q as u32);
        let want = if spokes.contains(&q) {
            0.0
        } else {
            1.0 + q as f32
        };
        assert_eq!(length[e], want, "{e:?}");
    }
}

#[test]
fn the_history_undoes_and_redoes_a_move_with_its_layers() {
    let mut w = world();
    let mut h = History::new(usize::MAX);
    h.commit("start", &mut w);
    let start = w.clone();
    w.update_mesh(|m| m.move_vertex(Vertex::new(6), Face::new(6)))
        .unwrap();
    w.update_mesh(|m| m.move_vertex(Vertex::new(6), Face::new(2)))
        .unwrap();
    h.commit("moved", &mut w);
    let moved = w.clone();
    assert!(moved != start);
    assert_eq!(h.undo(&mut w), Some("start"));
    assert!(w == start);
    assert_eq!(h.redo(&mut w), Some("moved"));
    assert!(w == moved);
    w.mesh().check().unwrap();
}
