//! The world file against hostile input: crafted pending journals, layer lengths, deep
//! nesting, absurd versions, long names, validation of loaded layers, remove-layer policies
//! on layers still encoded. Each test names the bug it pins.

mod common;

use common::*;
use layers::{Dict, ElementKind, Interpolation, LayerInfo, OnChange, Sizes, Value, VertexKind};
use quadedge::{Change, Edge, Face, Remap, SplitRecord, Vertex};
use world::{World, WorldError};

fn corrupt(r: Result<World, WorldError>) -> String {
    match r {
        Err(WorldError::Corrupt { reason, .. }) => reason,
        Err(e) => panic!("expected Corrupt, got {e}"),
        Ok(_) => panic!("expected Corrupt, got a world"),
    }
}

/// A loaded world is either refused, or its layers decode to the mesh's length (or give a
/// typed error) and validate.
fn loads_consistently(bytes: &[u8]) {
    if let Ok(w) = World::load_from_slice(bytes) {
        w.mesh().check().unwrap();
        if let Ok(Some(h)) = w.try_layer(&HEIGHT) {
            assert_eq!(h.len(), w.mesh().vertex_slots());
            h.validate().unwrap();
        }
        if let Ok(Some(d)) = w.try_layer(&DISTANCE) {
            assert_eq!(d.len(), w.mesh().quad_slots());
        }
    }
}

#[test]
fn a_saved_pending_journal_loads_and_replays() {
    let file = file_with_pending_batches();
    let w = World::load_from_slice(&file).unwrap();
    let h = w.try_layer(&HEIGHT).unwrap().unwrap();
    assert_eq!(h.len(), w.mesh().vertex_slots());
    // The split vertex got lerp(v0, its neighbour) at t = 0.25.
    let v = Vertex::new(w.mesh().vertex_slots() as u32 - 1);
    assert!(h[v] > 0.0);
}

fn with_last_batch(file: &[u8], edit: impl Fn(&mut Vec<Change>, &mut Sizes)) -> Vec<u8> {
    edit_layer(file, "height", |s| match s.pending.last_mut().unwrap() {
        Batch::Changes(c, z) => edit(c, z),
        _ => panic!("a journal batch"),
    })
}

#[test]
fn crafted_pending_sizes_are_refused_before_anything_is_allocated() {
    let file = file_with_pending_batches();
    for (v, q) in [
        (1usize << 40, None),
        (usize::MAX, None),
        (0, None),
        (7, Some(usize::MAX / 2 + 1)),
    ] {
        let bad = with_last_batch(&file, |_, z| {
            z.vertices = v;
            if let Some(q) = q {
                z.quads = q;
            }
        });
        let reason = corrupt(World::load_from_slice(&bad));
        assert!(reason.contains("sizes"), "{reason}");
    }
    // An earlier batch with absurd sizes (the last one still matching the mesh).
    let bad = edit_layer(&file, "height", |s| {
        let last = s.pending.pop().unwrap();
        s.pending.push(Batch::Resize(Sizes {
            vertices: 1 << 40,
            faces: 0,
            quads: 0,
        }));
        s.pending.push(last);
    });
    assert!(World::load_from_slice(&bad).is_err());
}

#[test]
fn crafted_pending_ids_and_counts_never_grow_the_layer() {
    let file = file_with_pending_batches();
    let far = Vertex::new(0xFFFF_FFF0);
    let crafted: Vec<Change> = vec![
        Change::Split(SplitRecord {
            origin: Vertex::new(0),
            dest: Vertex::new(1),
            t: 0.5,
            vertex: far,
            edge: Edge::primal(0),
            new_edge: Edge::primal(0xFFFF_FFF0),
            cross_edges: [Edge::primal(0xFFFF_FFE0); 2],
            faces: [(Face::new(0xFFFF_FFF0), Face::new(0)); 2],
        }),
        Change::VerticesAdded {
            first: Vertex::new(0),
            count: u32::MAX,
        },
        Change::VerticesAdded {
            first: far,
            count: u32::MAX,
        },
        Change::VertexRemoved(far),
    ];
    for c in crafted {
        let bad = with_last_batch(&file, |changes, _| changes.push(c.clone()));
        loads_consistently(&bad);
    }
}

#[test]
fn pending_work_is_bounded_by_the_file() {
    // Many batches that each compact the layer to nothing and grow it back: small in the
    // file, quadratic to replay on a large mesh. Refused by the work budget.
    let mut w = grid_world(40);
    w.update_layer(&HEIGHT, |l| l.fill(1.0)).unwrap();
    let mut w = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    w.update_mesh(|m| m.add_vertex());
    let file = w.save_to_vec().unwrap();
    let reason = corrupt(World::load_from_slice(&edit_layer(&file, "height", |s| {
        let last = s.pending.pop().unwrap();
        let Batch::Changes(_, sizes) = &last else {
            panic!()
        };
        for _ in 0..2_000 {
            s.pending.push(Batch::Changes(
                vec![Change::Compact(Remap::default())],
                *sizes,
            ));
        }
        s.pending.push(last);
    })));
    assert!(reason.contains("steps"), "{reason}");
}

#[test]
fn a_pending_batch_that_removes_the_layer_is_refused() {
    let file = file_with_pending_batches();
    let bad = edit_layer(&file, "height", |s| {
        s.interpolation = Interpolation::DropLayer
    });
    assert!(corrupt(World::load_from_slice(&bad)).contains("removes"));
}

#[test]
fn layer_lengths_are_checked_against_the_mesh_on_load() {
    let file = sample_world().save_to_vec().unwrap();
    let n = World::load_from_slice(&file).unwrap().mesh().vertex_slots();
    for len in [0, n as u64 - 1, n as u64 + 1, u64::MAX] {
        let bad = edit_layer(&file, "height", |s| s.len = len);
        assert!(World::load_from_slice(&bad).is_err(), "len {len}");
    }
    // The header agrees with the mesh but the values do not: refused on decode.
    let short = layers::Layer::new(HEIGHT, n - 1);
    let bad = edit_layer(&file, "height", |s| s.values = encode(&short));
    let w = World::load_from_slice(&bad).unwrap();
    assert!(matches!(
        w.try_layer(&HEIGHT),
        Err(WorldError::Corrupt { .. })
    ));
    assert!(w.layer(&HEIGHT).is_none());
}

fn nested_lists(depth: usize) -> Value {
    let mut v = Value::Int(1);
    for _ in 0..depth {
        v = Value::List(vec![v]);
    }
    v
}

#[test]
fn deep_dicts_are_refused_on_save_and_load_and_drop_without_recursion() {
    let mut w = octahedron_world();
    w.update_dict("ok", |d| d.set("v", nested_lists(layers::MAX_DEPTH - 1)));
    assert!(World::load_from_slice(&w.save_to_vec().unwrap()).is_ok());
    w.update_dict("deep", |d| d.set("v", nested_lists(layers::MAX_DEPTH)));
    assert!(matches!(
        w.save_to_vec(),
        Err(WorldError::TooDeep { ref dict, .. }) if dict == "deep"
    ));
    // A million levels built in memory: saving fails cleanly, dropping does not recurse.
    let mut w = octahedron_world();
    w.update_dict("abyss", |d| d.set("v", nested_lists(1_000_000)));
    assert!(
        matches!(w.save_to_vec(), Err(WorldError::TooDeep { depth, .. }) if depth == 1_000_001)
    );
    drop(w);
    // A crafted file of 30,000 nested lists: refused, not a stack overflow.
    let file = octahedron_world().save_to_vec().unwrap();
    let (mut header, mut sections) = parse(&file);
    let mut payload = 1u64.to_le_bytes().to_vec(); // one entry
    payload.extend_from_slice(&1u64.to_le_bytes());
    payload.push(b'v');
    for _ in 0..30_000 {
        payload.extend_from_slice(&5u32.to_le_bytes()); // Value::List
        payload.extend_from_slice(&1u64.to_le_bytes()); // of one element
    }
    payload.extend_from_slice(&0u32.to_le_bytes()); // Null
    sections.push(Section {
        tag: TAG_DICT,
        name: b"crafted".to_vec(),
        payload,
    });
    header[12..16].copy_from_slice(&(sections.len() as u32).to_le_bytes());
    let bad = write(&header, &sections);
    let reason = corrupt(World::load_from_slice(&bad));
    assert!(reason.contains("deeper"), "{reason}");
}

#[test]
fn an_absurd_layer_version_is_refused() {
    let file = sample_world().save_to_vec().unwrap();
    for v in [u64::MAX, u64::MAX - 1, 1 << 63] {
        let bad = edit_layer(&file, "height", |s| s.version = v);
        assert!(corrupt(World::load_from_slice(&bad)).contains("version"));
    }
    // The largest accepted version still leaves the clock room to grow.
    let ok = edit_layer(&file, "height", |s| s.version = 1 << 62);
    let mut w = World::load_from_slice(&ok).unwrap();
    w.update_layer(&HEIGHT, |l| l[Vertex::new(0)] = 1.0)
        .unwrap();
    assert!(w.layer_version("height") > 1 << 62);
}

#[test]
fn names_too_long_for_the_format_are_refused_on_save() {
    let long = "x".repeat(world::MAX_NAME_BYTES + 1);
    let mut w = octahedron_world();
    w.lock_layer(&LayerInfo::<f32, VertexKind>::named(long.clone()))
        .unwrap()
        .commit()
        .unwrap();
    assert!(matches!(
        w.save_to_vec(),
        Err(WorldError::NameTooLong { bytes, .. }) if bytes == long.len()
    ));
    let mut w = octahedron_world();
    w.update_dict(&long, |d| d.set("a", 1));
    assert!(matches!(
        w.save_to_vec(),
        Err(WorldError::NameTooLong { .. })
    ));
    // The longest name that fits round-trips.
    let fits = "y".repeat(world::MAX_NAME_BYTES);
    let mut w = octahedron_world();
    w.update_dict(&fits, |d| d.set("a", 1));
    let back = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    assert_eq!(back.dict(&fits).unwrap().get_i64("a"), Ok(1));
}

#[test]
fn loaded_layers_are_validated_before_they_are_handed_out() {
    // A value outside the range (written without automatic validation).
    let mut w = octahedron_world();
    w.update_layer(&HEIGHT, |l| l[Vertex::new(2)] = f32::NAN)
        .unwrap();
    let back = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    assert!(matches!(
        back.try_layer(&HEIGHT),
        Err(WorldError::Invalid(layers::LayerError::OutOfRange { .. }))
    ));
    // An empty range.
    const BACKWARDS: LayerInfo<f32, VertexKind> = LayerInfo::new("backwards").range(5.0, 1.0);
    let mut w = octahedron_world();
    w.lock_layer(&BACKWARDS).unwrap().commit().unwrap();
    let back = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    assert!(matches!(
        back.try_layer(&BACKWARDS),
        Err(WorldError::Corrupt { .. })
    ));
    // A stored name that differs from its section's.
    let file = sample_world().save_to_vec().unwrap();
    let (header, mut sections) = parse(&file);
    let i = layer_section(&sections, "height");
    sections[i].name = b"other".to_vec();
    const OTHER: LayerInfo<f32, VertexKind> = LayerInfo::new("other").range(-100.0, 100.0);
    let back = World::load_from_slice(&write(&header, &sections)).unwrap();
    assert!(matches!(
        back.try_layer(&OTHER),
        Err(WorldError::Corrupt { .. })
    ));
    // Policies in the header that differ from the layer's.
    let bad = edit_layer(&file, "height", |s| s.on_change = OnChange::ResetAll);
    let back = World::load_from_slice(&bad).unwrap();
    assert!(matches!(
        back.try_layer(&HEIGHT),
        Err(WorldError::Corrupt { .. })
    ));
    // A header kind that differs from the values' kind.
    let bad = edit_layer(&file, "height", |s| s.kind = ElementKind::Face);
    assert!(World::load_from_slice(&bad).is_err());
}

#[test]
fn a_remove_layer_policy_fires_on_a_layer_still_encoded() {
    const FRAGILE: LayerInfo<f32, VertexKind> =
        LayerInfo::new("fragile").on_change(OnChange::RemoveLayer);
    const SPLIT_FRAGILE: LayerInfo<f32, VertexKind> =
        LayerInfo::new("split_fragile").interpolation(Interpolation::DropLayer);
    let mut fresh = grid_world(1);
    fresh
        .update_layer(&FRAGILE, |l| l[Vertex::new(0)] = 1.0)
        .unwrap();
    fresh
        .update_layer(&SPLIT_FRAGILE, |l| l[Vertex::new(0)] = 1.0)
        .unwrap();
    let mut loaded = World::load_from_slice(&fresh.save_to_vec().unwrap()).unwrap();
    for w in [&mut fresh, &mut loaded] {
        let mut m = w.lock_mesh();
        let e = m.vertex_edge(Vertex::new(0));
        m.split(e, 0.5).unwrap();
        m.commit();
    }
    for w in [&fresh, &loaded] {
        assert_eq!(w.layer_names().collect::<Vec<_>>(), ["fragile"]);
    }
    for w in [&mut fresh, &mut loaded] {
        let mut m = w.lock_mesh();
        let e = m.vertex_edge(Vertex::new(5));
        m.collapse(e, 0.5).unwrap();
        m.commit();
    }
    for w in [&fresh, &loaded] {
        assert_eq!(w.layer_names().count(), 0);
        let back = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
        assert_eq!(back.layer_names().count(), 0);
    }
    assert_eq!(fresh, loaded);
}

#[test]
fn dict_ids_survive_the_file() {
    let mut d = Dict::new();
    d.set("v", Vertex::new(4));
    d.set("f", Face::new(2));
    d.set("e", Edge::primal(5).rot());
    d.set("nan", f64::NAN);
    let mut w = octahedron_world();
    w.update_dict("ids", |x| *x = d.clone());
    let back = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    assert_eq!(back.dict("ids"), Some(&d));
    assert_eq!(back, w);
}

#[test]
fn stored_ids_of_dead_elements_are_refused_on_load() {
    let mut w = octahedron_world();
    w.update_dict("ids", |d| d.set("v", Vertex::new(5)));
    let file = w.save_to_vec().unwrap();
    let (header, mut sections) = parse(&file);
    let i = sections
        .iter()
        .position(|s| s.tag == TAG_DICT && s.name == b"ids")
        .unwrap();
    for bad in [
        Value::Vertex(Vertex::new(6)),
        Value::Vertex(Vertex::INVALID),
        Value::Face(Face::new(8)),
        Value::Edge(Edge::primal(24).rot()),
    ] {
        let mut d = Dict::new();
        d.set("nested", Value::List(vec![bad]));
        sections[i].payload = encode(&d);
        assert!(World::load_from_slice(&write(&header, &sections)).is_err());
    }
    // A non-UTF-8 name is refused too.
    let mut named = sections.clone();
    named[i].name = vec![0xFF, 0xFE];
    assert!(World::load_from_slice(&write(&header, &named)).is_err());
}
