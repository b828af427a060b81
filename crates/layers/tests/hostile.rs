//! Journals and dictionaries from untrusted sources: absurd ids, counts and sizes never grow
//! a layer past what the caller's sizes and the journal's own remaps justify, never panic;
//! nesting is bounded both ways and dropping never recurses.

use layers::{
    ApplyOutcome, Dict, DirectedEdgeKind, ElementKind, FaceKind, Interpolation, Layer, LayerInfo,
    MAX_DEPTH, OnChange, Sizes, Value, VertexKind, journal_removes_layer,
};
use quadedge::{Change, CollapseRecord, Edge, Face, FlipRecord, Remap, SplitRecord, Vertex};

const FAR: u32 = 0xFFFF_FFF0;

fn sizes(v: usize, f: usize, q: usize) -> Sizes {
    Sizes {
        vertices: v,
        faces: f,
        quads: q,
    }
}

fn hostile_journal() -> Vec<Change> {
    vec![
        Change::VerticesAdded {
            first: Vertex::new(0),
            count: u32::MAX,
        },
        Change::VerticesAdded {
            first: Vertex::new(FAR),
            count: u32::MAX,
        },
        Change::FaceAdded(Face::new(FAR)),
        Change::EdgeAdded(Edge::primal(FAR)),
        Change::VertexRemoved(Vertex::new(FAR)),
        Change::Split(SplitRecord {
            origin: Vertex::new(FAR),
            dest: Vertex::new(1),
            t: f32::NAN,
            vertex: Vertex::new(FAR),
            edge: Edge::primal(FAR),
            new_edge: Edge::primal(FAR - 2),
            cross_edges: [Edge::primal(FAR - 4); 2],
            faces: [(Face::new(FAR), Face::new(FAR - 1)); 2],
        }),
        Change::Collapse(CollapseRecord {
            origin: Vertex::new(FAR),
            dest: Vertex::new(0),
            t: 2.0,
            survivor: Vertex::new(FAR),
            removed: Vertex::new(FAR - 1),
            removed_edges: [Edge::primal(FAR); 3],
            removed_faces: [Face::new(FAR); 2],
        }),
        Change::Flip(FlipRecord {
            edge: Edge::primal(FAR),
            old: [Vertex::new(0); 2],
            new: [Vertex::new(FAR); 2],
            faces: [Face::new(FAR); 2],
        }),
        Change::Compact(Remap {
            vertices: vec![FAR, 0, Remap::DEAD, 1],
            faces: vec![FAR],
            quads: vec![u32::MAX - 1, 0],
        }),
    ]
}

#[test]
fn absurd_ids_and_counts_never_grow_a_layer_past_its_sizes() {
    let s = sizes(5, 3, 4);
    let journal = hostile_journal();
    for policy in [
        Interpolation::Lerp,
        Interpolation::Reset,
        Interpolation::MaxWeight,
    ] {
        let mut v = Layer::new(
            LayerInfo::<f32, VertexKind>::new("v").interpolation(policy),
            3,
        );
        let mut f = Layer::new(
            LayerInfo::<u16, FaceKind>::new("f").interpolation(policy),
            2,
        );
        let mut d = Layer::new(
            LayerInfo::<f64, DirectedEdgeKind>::new("d")
                .interpolation(policy)
                .on_change(OnChange::ResetAffected),
            4,
        );
        for c in &journal {
            let one = std::slice::from_ref(c);
            assert_ne!(v.apply_changes(one, s), ApplyOutcome::Remove);
            assert_ne!(f.apply_changes(one, s), ApplyOutcome::Remove);
            assert_ne!(d.apply_changes(one, s), ApplyOutcome::Remove);
            assert_eq!((v.len(), f.len(), d.len()), (5, 3, 8), "{c:?}");
        }
        assert_ne!(v.apply_changes(&journal, s), ApplyOutcome::Remove);
        assert_eq!(v.len(), 5);
    }
}

#[test]
fn absurd_sizes_saturate_instead_of_overflowing() {
    let huge = sizes(usize::MAX, usize::MAX, usize::MAX / 2 + 1);
    assert_eq!(ElementKind::DirectedEdge.slots(huge), usize::MAX);
    assert_eq!(
        ElementKind::Vertex.element(usize::MAX),
        layers::ElementId::Vertex(Vertex::new(u32::MAX))
    );
}

#[test]
fn removal_is_decided_before_anything_is_touched() {
    let info = LayerInfo::<f32, VertexKind>::new("x")
        .on_change(OnChange::RemoveLayer)
        .initial(3.0);
    let mut l = Layer::new(info, 4);
    l[Vertex::new(0)] = 9.0;
    let before = l.clone();
    let journal = [
        Change::VerticesAdded {
            first: Vertex::new(4),
            count: 2,
        },
        Change::VertexRemoved(Vertex::new(1)),
    ];
    assert_eq!(
        l.apply_changes(&journal, sizes(6, 0, 0)),
        ApplyOutcome::Remove
    );
    assert_eq!(l, before, "untouched");
    assert!(journal_removes_layer(
        ElementKind::Vertex,
        OnChange::RemoveLayer,
        Interpolation::Lerp,
        &journal
    ));
    assert!(!journal_removes_layer(
        ElementKind::Face,
        OnChange::RemoveLayer,
        Interpolation::Lerp,
        &journal
    ));
}

fn nested(depth: usize) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        v = Value::List(vec![v]);
    }
    v
}

#[test]
fn nesting_is_bounded_both_ways_and_drop_does_not_recurse() {
    let ok = nested(MAX_DEPTH);
    assert_eq!(ok.depth(), MAX_DEPTH);
    // (JSON spends two levels of its own recursion limit per list, so test it shallower.)
    let shallow = nested(60);
    let json = serde_json::to_string(&shallow).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), shallow);
    let deep = nested(MAX_DEPTH + 1);
    assert!(serde_json::to_string(&deep).is_err());
    let mut d = Dict::new();
    d.set("x", nested(MAX_DEPTH));
    assert_eq!(d.depth(), MAX_DEPTH + 1);
    assert!(serde_json::to_string(&d).is_err());
    // A hostile text nested 100,000 deep is refused, not a stack overflow.
    let text = format!(
        "{}\"Null\"{}",
        "{\"List\":[".repeat(100_000),
        "]}".repeat(100_000)
    );
    assert!(serde_json::from_str::<Value>(&text).is_err());
    // A million levels in memory: depth, equality, clone and drop are iterative, and Debug
    // stops at MAX_DEPTH levels.
    let abyss = nested(1_000_000);
    assert_eq!(abyss.depth(), 1_000_000);
    assert!(serde_json::to_string(&abyss).is_err());
    let copy = abyss.clone();
    assert_eq!(copy.depth(), 1_000_000);
    assert!(copy == abyss);
    let mut wide = Dict::new();
    wide.set("abyss", copy);
    let printed = format!("{wide:?}");
    assert_eq!(printed.matches("List(").count(), MAX_DEPTH);
    assert!(printed.contains('…'));
    drop(abyss);
    drop(wide);
}

#[test]
fn value_clone_and_debug_keep_their_shape() {
    let mut inner = Dict::new();
    inner.set(
        "b",
        Value::List(vec![Value::Int(1), Value::Null, 2.5.into()]),
    );
    inner.set("a", Vertex::new(4));
    let v = Value::List(vec![
        Value::Dict(inner),
        Value::String("x".into()),
        Value::List(vec![]),
        Value::Bool(true),
        Face::new(2).into(),
    ]);
    let copy = v.clone();
    assert!(copy == v);
    assert_eq!(
        format!("{copy:?}"),
        "List([Dict(Dict { entries: {\"a\": Vertex(v4), \"b\": List([Int(1), Null, \
         Float(2.5)])} }), String(\"x\"), List([]), Bool(true), Face(f2)])"
    );
    // The alternate form is the derived one too.
    assert!(format!("{v:#?}").starts_with("List(\n    [\n        Dict(\n"));
}

#[test]
fn dict_values_compare_bit_for_bit() {
    let mut d = Dict::new();
    d.set("nan", f64::NAN);
    d.set(
        "ids",
        Value::List(vec![Vertex::new(1).into(), Face::new(2).into()]),
    );
    assert_eq!(d, d.clone());
    let mut e = d.clone();
    e.set("nan", -f64::NAN);
    assert_ne!(d, e);
    assert_ne!(Value::Float(0.0), Value::Float(-0.0));
    assert_ne!(Value::Vertex(Vertex::new(1)), Value::Int(1));
}

/// Issue 21: no infinity between finite values, however large.
#[test]
fn blends_never_overflow_between_finite_values() {
    use glam::{DVec3, Vec3};
    use layers::Interpolate;
    assert_eq!(f32::lerp(&f32::MAX, &-f32::MAX, 0.5), 0.0);
    assert_eq!(f64::lerp(&-f64::MAX, &f64::MAX, 0.5), 0.0);
    assert_eq!(f32::lerp(&f32::MAX, &-f32::MAX, 0.0), f32::MAX);
    assert_eq!(f32::lerp(&f32::MAX, &-f32::MAX, 1.0), -f32::MAX);
    for t in [0.1f32, 0.25, 0.75, 0.999] {
        let r = f32::lerp(&f32::MAX, &-f32::MAX, t);
        assert!(r.is_finite() && r.abs() <= f32::MAX, "{t}: {r}");
    }
    let big = f32::MAX;
    let r = f32::lerp3([&big, &big, &-big], [1.0, 1.0, 1.0]);
    assert!(r.is_finite() && (r - big / 3.0).abs() <= big * 1e-6, "{r}");
    let r = f64::lerp3([&f64::MAX, &f64::MAX, &f64::MAX], [1e30, 1e30, 1.0]);
    assert_eq!(r, f64::MAX);
    let (a, b) = (Vec3::splat(f32::MAX), Vec3::splat(-f32::MAX));
    assert_eq!(<Vec3 as Interpolate>::lerp(&a, &b, 0.5), Vec3::ZERO);
    let r = <DVec3 as Interpolate>::lerp3([&DVec3::MAX, &DVec3::MAX, &DVec3::MIN], [1.0; 3]);
    assert!(r.is_finite());
    // Non-finite inputs stay as the plain formula gives them (no finite value invented).
    assert!(!f32::lerp(&f32::INFINITY, &0.0, 0.5).is_finite());
}
