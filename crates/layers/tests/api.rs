//! Typed access, copy-on-write, validation, serde and the type-erased interface.

use glam::{DVec2, Vec3};
use layers::{
    AnyLayer, CHUNK, DirectedEdgeKind, DualEdgeKind, EdgeKind, ElementId, ElementKind, FaceKind,
    Interpolation, Layer, LayerError, LayerInfo, OnChange, Sizes, VertexKind,
};
use quadedge::{Change, Edge, Face, Mesh, Vertex, shapes};

const ELEVATION: LayerInfo<f32, VertexKind> = LayerInfo::new("elevation")
    .initial(0.5)
    .range(-1.0, 1.0)
    .auto_validate(true)
    .on_change(OnChange::ResetAffected)
    .interpolation(Interpolation::MaxValue);
const PLATE_DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);
const FLOW: LayerInfo<DVec2, DirectedEdgeKind> = LayerInfo::new("flow");
const BORDER: LayerInfo<bool, DualEdgeKind> = LayerInfo::new("border").initial(true);
const PLATE: LayerInfo<u16, FaceKind> = LayerInfo::new("plate").max(7);

#[test]
fn const_infos_keep_what_they_were_given() {
    assert_eq!(ELEVATION.name(), "elevation");
    assert_eq!(ELEVATION.initial_value(), &0.5);
    assert_eq!(ELEVATION.min_value(), Some(&-1.0));
    assert!(ELEVATION.is_auto_validated());
    assert_eq!(ELEVATION.on_change_policy(), OnChange::ResetAffected);
    assert_eq!(ELEVATION.interpolation_policy(), Interpolation::MaxValue);
    assert_eq!(ELEVATION.kind(), ElementKind::Vertex);
    assert_eq!(PLATE_DISTANCE.on_change_policy(), OnChange::Keep);
    assert_eq!(PLATE_DISTANCE.interpolation_policy(), Interpolation::Lerp);
    assert_eq!(FLOW.initial_value(), &DVec2::ZERO);
    assert_eq!(PLATE.min_value(), None);
    let runtime = LayerInfo::<Vec3, VertexKind>::named(format!("layer{}", 7));
    assert_eq!(runtime.name(), "layer7");
}

#[test]
fn typed_indexing_and_iteration() {
    let mesh = {
        let (n, t) = shapes::icosahedron();
        Mesh::from_triangles(n, &t).unwrap()
    };
    let sizes = Sizes::of(&mesh);
    let mut dist = Layer::with_sizes(PLATE_DISTANCE, sizes);
    let mut flow = Layer::with_sizes(FLOW, sizes);
    let mut border = Layer::with_sizes(BORDER, sizes);
    assert_eq!(dist.len(), 30);
    assert_eq!(flow.len(), 60);
    for e in mesh.directed_edges() {
        dist[e] = e.quad() as f32;
        flow[e] = DVec2::new(e.index() as f64, 0.0);
        flow[e.sym()] = DVec2::new(e.sym().index() as f64, 1.0);
        border[e.rot()] = e.quad() % 2 == 0;
    }
    // Both directions of an undirected edge name the same value.
    let e = Edge::primal(9);
    assert_eq!(dist[e], dist[e.sym()]);
    assert_ne!(flow[e], flow[e.sym()]);
    assert_eq!(
        dist.iter().copied().sum::<f32>(),
        (0..30).sum::<i32>() as f32
    );
    for (id, v) in dist.entries() {
        assert_eq!(id, id.base());
        assert_eq!(*v, id.quad() as f32);
    }
    for (id, v) in border.entries() {
        assert!(id.is_dual());
        assert_eq!(*v, id.quad() % 2 == 0);
    }
    for (id, v) in flow.entries() {
        assert_eq!(v.x, id.index() as f64);
    }
    assert_eq!(dist.get(Edge::primal(60)), None);
    assert_eq!((&dist).into_iter().len(), 30);
    for x in dist.iter_mut() {
        *x += 1.0;
    }
    assert_eq!(dist[Edge::primal(0)], 1.0);
}

#[test]
#[should_panic(expected = "layer `plate`: f9 is past the end (len 3)")]
fn index_past_the_end_panics_with_the_layer_name() {
    let l = Layer::new(PLATE, 3);
    let _ = l[Face::new(9)];
}

#[test]
fn clone_then_write_leaves_the_clone_and_keeps_one_block_of_delta() {
    let n = 10 * CHUNK + 17;
    let a = Layer::new(PLATE_DISTANCE, n);
    let mut b = a.clone();
    assert!(a.shares_values(&b));
    assert_eq!(a.unshared_bytes(&b), 0);
    b[Edge::of_quad(5 * CHUNK as u32 + 3)] = 2.0;
    assert!(!a.shares_values(&b));
    assert_eq!(a[Edge::of_quad(5 * CHUNK as u32 + 3)], -1.0);
    assert!(a.delta_to(&b).heap_bytes() <= layers::BLOCK_BYTES + 64);
    let v0 = b.write_count();
    b.fill(3.0);
    assert!(b.write_count() > v0);
    assert!(a.iter().all(|&x| x == -1.0));
    assert!(a.delta_to(&b).rebuild(&b).bits_eq(&a));
}

#[test]
fn the_values_array_is_handed_back_only_when_no_snapshot_shares_it() {
    let mut values = Vec::with_capacity(40);
    values.extend((0..17).map(|i| i as f32 / 4.0));
    let a = Layer::from_values(PLATE_DISTANCE, values);
    let snapshot = a.clone();
    // Shared: refused, and the snapshot keeps its values.
    assert_eq!(a.into_unshared_values(), None);
    assert_eq!(snapshot.as_slice()[5], 1.25);
    // Alone: the same array, its room included.
    let back = snapshot.into_unshared_values().unwrap();
    assert_eq!(back.len(), 17);
    assert!(back.capacity() >= 40);
    assert_eq!(back[16], 4.0);
}

#[test]
fn validate_reports_the_first_bad_value() {
    let mut l = Layer::new(ELEVATION, 10);
    assert_eq!(l.validate(), Ok(()));
    l[Vertex::new(4)] = 1.5;
    l[Vertex::new(7)] = f32::NAN;
    let err = l.validate().unwrap_err();
    assert_eq!(
        err,
        LayerError::OutOfRange {
            layer: "elevation".into(),
            element: ElementId::Vertex(Vertex::new(4)),
            value: "1.5".into(),
            min: Some("-1.0".into()),
            max: Some("1.0".into()),
        }
    );
    assert_eq!(
        err.to_string(),
        "layer `elevation`: value 1.5 of v4 is outside -1.0..=1.0"
    );
    // Never clamped.
    assert_eq!(l[Vertex::new(4)], 1.5);
    l[Vertex::new(4)] = 0.0;
    assert!(matches!(
        l.validate(),
        Err(LayerError::OutOfRange { value, .. }) if value == "NaN"
    ));

    let mut p = Layer::new(PLATE, 4);
    p[Face::new(2)] = 8;
    assert_eq!(
        p.validate().unwrap_err().to_string(),
        "layer `plate`: value 8 of f2 is outside ..=7"
    );
    let mut d = Layer::new(LayerInfo::<f32, DualEdgeKind>::new("d").min(0.0), 4);
    d[Edge::of_quad(3).rot()] = -1.0;
    assert!(matches!(
        d.validate(),
        Err(LayerError::OutOfRange { element: ElementId::Edge(e), .. }) if e == Edge::of_quad(3).rot()
    ));
}

#[test]
fn serde_round_trip_and_kind_check() {
    let mut l = Layer::new(ELEVATION, CHUNK + 3);
    l[Vertex::new(CHUNK as u32 + 1)] = 0.25;
    let json = serde_json::to_string(&l).unwrap();
    let back: Layer<f32, VertexKind> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, l);
    assert_eq!(back.info(), l.info());
    let wrong_kind = serde_json::from_str::<Layer<f32, FaceKind>>(&json).unwrap_err();
    assert!(
        wrong_kind
            .to_string()
            .contains("is a vertex layer, expected face")
    );
    let wrong_type = serde_json::from_str::<Layer<f64, VertexKind>>(&json).unwrap_err();
    assert!(
        wrong_type
            .to_string()
            .contains("holds `f32`, expected `f64`")
    );
    let small = Layer::new(PLATE, 2);
    insta::assert_snapshot!(serde_json::to_string(&small).unwrap(), @r#"{"kind":"Face","type_key":"u16","info":{"name":"plate","initial":0,"min":null,"max":7,"auto_validate":false,"on_change":"Keep","interpolation":"Lerp"},"values":[0,0]}"#);
}

#[test]
fn type_erased_layers() {
    let mut all: Vec<Box<dyn AnyLayer>> = vec![
        Box::new(Layer::new(ELEVATION, 4)),
        Box::new(Layer::new(FLOW, 6)),
        Box::new(Layer::new(BORDER, 3)),
        Box::new(Layer::new(PLATE, 2)),
    ];
    let copies = all.clone();
    let sizes = Sizes {
        vertices: 5,
        faces: 2,
        quads: 4,
    };
    let journal = [
        Change::VerticesAdded {
            first: Vertex::new(4),
            count: 1,
        },
        Change::EdgeAdded(Edge::of_quad(3)),
    ];
    for l in &mut all {
        let out = l.apply_changes(&journal, sizes);
        assert_eq!(l.len(), l.kind().slots(sizes), "{out:?}");
    }
    assert_eq!(copies[1].len(), 6);
    let elev = all[0].downcast_mut::<f32, VertexKind>().unwrap();
    elev[Vertex::new(4)] = 5.0;
    assert!(all[0].is_auto_validated());
    assert!(all[0].validate().is_err());
    assert_eq!(all[0].debug_value(4).as_deref(), Some("5.0"));
    assert_eq!(
        all[1].downcast_ref::<f32, DirectedEdgeKind>().unwrap_err(),
        LayerError::WrongType {
            layer: "flow".into(),
            expected: "f32",
            found: "glam::DVec2"
        }
    );
    assert!(matches!(
        all[2].downcast_ref::<bool, EdgeKind>(),
        Err(LayerError::WrongKind {
            expected: ElementKind::Edge,
            found: ElementKind::DualEdge,
            ..
        })
    ));
    assert!(all[3].is::<u16, FaceKind>());
    assert!(format!("{:?}", all[3]).contains("plate"));

    for l in &all {
        assert!(l.bits_eq(l.clone_box().as_ref()));
    }
    assert!(!all[0].bits_eq(all[1].as_ref()));
    assert_eq!(all[3].type_key(), "u16");
    let any: Box<dyn AnyLayer> = Box::new(Layer::new(PLATE, 1));
    assert!(any.into_any().downcast::<Layer<u16, FaceKind>>().is_ok());
}

/// A user value type with its own blend.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, serde::Serialize, serde::Deserialize)]
enum Biome {
    Ocean,
    Desert,
    Forest,
}
layers::impl_interpolate_nearest!(Biome);
impl layers::LayerValue for Biome {
    const DEFAULT: Self = Biome::Ocean;
    const TYPE_KEY: &'static str = "tests::Biome";
    fn in_range(&self, min: &Self, max: &Self) -> bool {
        self >= min && self <= max
    }
}

#[test]
fn user_types() {
    const BIOME: LayerInfo<Biome, FaceKind> =
        LayerInfo::new("biome").interpolation(Interpolation::MaxValue);
    let mut l = Layer::new(BIOME, 2);
    l[Face::new(1)] = Biome::Forest;
    let json = serde_json::to_string(&l).unwrap();
    assert!(json.contains(r#""type_key":"tests::Biome""#), "{json}");
    let back: Layer<Biome, FaceKind> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, l);
    // Another type's key is refused.
    let other = json.replace("tests::Biome", "u8");
    assert!(serde_json::from_str::<Layer<Biome, FaceKind>>(&other).is_err());
    let _ = Biome::Desert;
}

/// Journals recorded by the real mesh keep layers at the mesh's slot counts.
#[test]
fn follows_a_real_mesh_journal() {
    let mut mesh = Mesh::new();
    let rec = mesh.record_changes().unwrap();
    let mut pos = Layer::new(
        LayerInfo::<Vec3, VertexKind>::new("position").initial(Vec3::Z),
        0,
    );
    let mut faces = Layer::new(PLATE, 0);
    let mut dual = Layer::new(BORDER, 0);
    let (n, tris) = shapes::octahedron();
    let first = mesh.add_vertices(n).unwrap();
    for t in &tris {
        mesh.add_face(
            Vertex::new(first.raw() + t[0]),
            Vertex::new(first.raw() + t[1]),
            Vertex::new(first.raw() + t[2]),
        )
        .unwrap();
    }
    let extra = mesh.add_vertex();
    mesh.remove_vertex(extra).unwrap();
    let again = mesh.add_vertex();
    assert_eq!(again, extra);
    let journal = mesh.take_changes(&rec).unwrap();
    let sizes = Sizes::of(&mesh);
    assert_eq!(
        pos.apply_changes(&journal, sizes),
        layers::ApplyOutcome::Changed
    );
    assert_eq!(
        faces.apply_changes(&journal, sizes),
        layers::ApplyOutcome::Changed
    );
    assert_eq!(
        dual.apply_changes(&journal, sizes),
        layers::ApplyOutcome::Changed
    );
    assert_eq!(pos.len(), mesh.vertex_slots());
    assert_eq!(faces.len(), mesh.face_slots());
    assert_eq!(dual.len(), mesh.quad_slots());
    assert!(pos.iter().all(|&p| p == Vec3::Z));
    assert!(dual.iter().all(|&b| b));
}

/// The real edit operations (split, flip, collapse, remove_face, compact) drive every kind of
/// layer: lengths track the slot counts, positions stay on the sphere, split halves inherit.
#[test]
fn follows_real_edit_operations() {
    use layers::{DirectedDualEdgeKind, Interpolate};
    let (n, tris) = shapes::icosahedron_grid(3);
    let mut mesh = Mesh::from_triangles(n, &tris).unwrap();
    let sizes = Sizes::of(&mesh);
    let mut pos = Layer::with_sizes(
        LayerInfo::<Vec3, VertexKind>::new("position")
            .initial(Vec3::Z)
            .interpolation(Interpolation::Slerp),
        sizes,
    );
    let mut height = Layer::with_sizes(LayerInfo::<f64, VertexKind>::new("height"), sizes);
    let mut tag = Layer::with_sizes(
        LayerInfo::<u32, EdgeKind>::new("tag").interpolation(Interpolation::KeepSrc),
        sizes,
    );
    let mut dir = Layer::with_sizes(
        LayerInfo::<u32, DirectedDualEdgeKind>::new("dir").interpolation(Interpolation::KeepSrc),
        sizes,
    );
    let mut plate = Layer::with_sizes(
        LayerInfo::<u16, FaceKind>::new("plate").on_change(OnChange::ResetAffected),
        sizes,
    );
    for (i, p) in pos.iter_mut().enumerate() {
        let x = i as f32;
        *p = Vec3::new((x * 1.3).sin(), (x * 0.7).cos(), (x * 2.1).sin() + 0.1).normalize();
    }
    for (i, h) in height.iter_mut().enumerate() {
        *h = i as f64;
    }
    for (i, t) in tag.iter_mut().enumerate() {
        *t = i as u32;
    }
    for (i, t) in dir.iter_mut().enumerate() {
        *t = i as u32;
    }
    for (i, t) in plate.iter_mut().enumerate() {
        *t = i as u16 + 1;
    }
    let rec = mesh.record_changes().unwrap();
    let (mut splits, mut flips, mut collapses) = (0, 0, 0);
    for round in 0..40u32 {
        let edges: Vec<Edge> = mesh.directed_edges().collect();
        let e = edges[(round as usize * 37) % edges.len()];
        let e = if round % 2 == 0 { e } else { e.sym() };
        let t = (round % 5) as f32 / 4.0;
        let mut expected = None;
        match round % 4 {
            0 | 1 => {
                let (ho, hd) = (height[mesh.origin(e)], height[mesh.dest(e)]);
                let (tag_e, dir_e, dir_s) = (tag[e], dir[e.rot()], dir[e.rot().sym()]);
                let r = mesh.split(e, t).unwrap();
                expected = Some((
                    r,
                    <f64 as Interpolate>::lerp(&ho, &hd, t),
                    tag_e,
                    dir_e,
                    dir_s,
                ));
                splits += 1;
            }
            2 => {
                flips += mesh.flip(e).is_ok() as u32;
            }
            _ => {
                collapses += mesh.collapse(e, t).is_ok() as u32;
                if round % 8 == 7 {
                    let f = mesh.faces().next().unwrap();
                    mesh.remove_face(f).unwrap();
                }
            }
        }
        if round == 39 {
            let _ = mesh.compact();
        }
        let journal = mesh.take_changes(&rec).unwrap();
        let sizes = Sizes::of(&mesh);
        let _ = pos.apply_changes(&journal, sizes);
        let _ = height.apply_changes(&journal, sizes);
        let _ = tag.apply_changes(&journal, sizes);
        let _ = dir.apply_changes(&journal, sizes);
        let _ = plate.apply_changes(&journal, sizes);
        assert_eq!(pos.len(), mesh.vertex_slots());
        assert_eq!(tag.len(), mesh.quad_slots());
        assert_eq!(dir.len(), 2 * mesh.quad_slots());
        assert_eq!(plate.len(), mesh.face_slots());
        for v in mesh.vertices() {
            assert!((pos[v].length() - 1.0).abs() < 1e-6, "{v:?}");
        }
        if let Some((r, h, tag_e, dir_e, dir_s)) = expected {
            assert_eq!(height[r.vertex], h);
            assert_eq!(tag[r.new_edge], tag_e);
            assert_eq!(tag[r.edge], tag_e);
            assert_eq!(dir[r.new_edge.rot()], dir_e);
            assert_eq!(dir[r.new_edge.rot().sym()], dir_s);
            for (new, from) in r.faces {
                if new.is_valid() {
                    assert_eq!(plate[new], plate[from]);
                }
            }
        }
    }
    assert!(
        splits > 0 && flips > 0 && collapses > 0,
        "{splits} {flips} {collapses}"
    );
    mesh.check().unwrap();
}

#[test]
fn layers_are_send_sync_and_cheap_to_clone() {
    fn send_sync<T: Send + Sync + Clone + 'static>() {}
    send_sync::<Layer<Vec3, VertexKind>>();
    send_sync::<Layer<u8, layers::DirectedDualEdgeKind>>();
    send_sync::<Box<dyn AnyLayer>>();
    send_sync::<layers::Dict>();
    let l = Layer::new(PLATE_DISTANCE, 1 << 20);
    assert!(l.heap_bytes() >= (1 << 20) * 4);
    let c = l.clone();
    assert!(c.shares_values(&l));
}
