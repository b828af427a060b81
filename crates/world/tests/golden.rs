//! The golden file: a small world saved by format version 2, checked in, which every later
//! version must keep loading value for value. It holds five layer types of five kinds (all
//! with a pending journal batch: the world was loaded, split, and saved again without
//! decoding them), a dictionary with every kind of value, and a drawn generator.
//!
//! The expected values below are written out by hand, not rebuilt through the world, so a
//! change of behaviour cannot hide a change of format. Regenerate the file only for a new
//! format version (keep the old one and its test):
//! `QUADWORLD_BLESS=1 cargo test -p quadworld-world --test golden -- --ignored`.

use glam::{DVec2, Vec3};
use layers::{
    DirectedEdgeKind, DualEdgeKind, FaceKind, Interpolation, LayerInfo, Value, VertexKind,
};
use quadedge::{Edge, Face, Mesh, Vertex, shapes};
use rand_core::{RngCore, SeedableRng};
use world::World;

const GOLDEN: &[u8] = include_bytes!("golden/v2.world");

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height").range(-10.0, 10.0);
const COLOR: LayerInfo<Vec3, VertexKind> =
    LayerInfo::new("color").interpolation(Interpolation::Nlerp);
const PLATE: LayerInfo<u16, FaceKind> = LayerInfo::new("plate").initial(99);
const BORDER: LayerInfo<bool, DualEdgeKind> = LayerInfo::new("border");
const FLOW: LayerInfo<DVec2, DirectedEdgeKind> = LayerInfo::new("flow");

const HEIGHTS: [f32; 6] = [0.0, 1.5, -2.25, 3.0, 4.5, -0.5];

fn color(i: usize) -> Vec3 {
    Vec3::new(i as f32, 2.0 * i as f32, -(i as f32))
}

/// How the golden file was made.
fn build() -> Vec<u8> {
    let (n, t) = shapes::octahedron();
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 9);
    {
        let mut h = w.lock_layer(&HEIGHT).unwrap();
        for (i, x) in HEIGHTS.iter().enumerate() {
            h[Vertex::new(i as u32)] = *x;
        }
        h.commit().unwrap();
    }
    {
        let mut c = w.lock_layer(&COLOR).unwrap();
        for i in 0..6 {
            c[Vertex::new(i as u32)] = color(i);
        }
        c.commit().unwrap();
    }
    {
        let mut p = w.lock_layer(&PLATE).unwrap();
        for f in 0..8 {
            p[Face::new(f)] = 3 * f as u16;
        }
        p.commit().unwrap();
    }
    {
        let mut b = w.lock_layer(&BORDER).unwrap();
        for q in 0..12u32 {
            b[Edge::of_quad(q).rot()] = q.is_multiple_of(3);
        }
        b.commit().unwrap();
    }
    {
        let mut fl = w.lock_layer(&FLOW).unwrap();
        for e in 0..24u32 {
            fl[Edge::primal(e)] = DVec2::new(e as f64, -(e as f64) / 3.0);
        }
        fl.commit().unwrap();
    }
    {
        let mut d = w.lock_dict("meta");
        d.set("name", "golden");
        d.set("seed", 42i64);
        d.set("ratio", 0.125);
        d.set("flag", true);
        d.set("nothing", ());
        d.set(
            "list",
            Value::List(vec![1.into(), "two".into(), 3.5.into()]),
        );
        let ids = d.dict_mut("ids").unwrap();
        ids.set("v", Vertex::new(2));
        ids.set("f", Face::new(3));
        ids.set("e", Edge::primal(5).rot());
        d.commit();
    }
    let mut rng = w.lock_random();
    rng.next_u64();
    rng.commit();
    let mut w = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    let r = w.update_mesh(|m| {
        let e = m.vertex_edge(Vertex::new(0));
        m.split(e, 0.25).unwrap()
    });
    {
        let mut d = w.lock_dict("split");
        d.set("origin", r.origin);
        d.set("dest", r.dest);
        d.set("vertex", r.vertex);
        d.commit();
    }
    w.save_to_vec().unwrap()
}

#[test]
#[ignore = "writes the golden file; run with QUADWORLD_BLESS=1 for a new format version"]
fn bless_golden_world() {
    if std::env::var_os("QUADWORLD_BLESS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/v2.world");
        std::fs::write(path, build()).unwrap();
    }
}

#[test]
fn the_golden_world_loads_value_for_value() {
    let w = World::load_from_slice(GOLDEN).unwrap();
    w.mesh().check().unwrap();
    assert_eq!(w.mesh().vertex_count(), 7);
    assert_eq!(w.mesh().face_count(), 10);
    assert_eq!(
        w.layer_names().collect::<Vec<_>>(),
        ["height", "color", "plate", "border", "flow"]
    );
    let split = w.dict("split").unwrap();
    let (o, d, v) = (
        split.get_vertex("origin").unwrap(),
        split.get_vertex("dest").unwrap(),
        split.get_vertex("vertex").unwrap(),
    );
    assert_eq!((o, v), (Vertex::new(0), Vertex::new(6)));

    let h = w.try_layer(&HEIGHT).unwrap().unwrap();
    assert_eq!(&h.to_vec()[..6], HEIGHTS);
    let expect = HEIGHTS[0] + (HEIGHTS[d.index()] - HEIGHTS[0]) * 0.25;
    assert!((h[v] - expect).abs() < 1e-6, "{} vs {expect}", h[v]);

    let c = w.try_layer(&COLOR).unwrap().unwrap();
    for i in 0..6 {
        assert_eq!(c[Vertex::new(i as u32)], color(i));
    }
    let (a, b) = (color(0), color(d.index()));
    let len = a.length() + (b.length() - a.length()) * 0.25;
    let nlerp = a.lerp(b, 0.25).normalize() * len;
    assert!((c[v] - nlerp).length() < 1e-5, "{} vs {nlerp}", c[v]);

    let p = w.try_layer(&PLATE).unwrap().unwrap();
    assert_eq!(p.len(), 10);
    for f in 0..8 {
        assert_eq!(p[Face::new(f)], 3 * f as u16);
    }
    for f in 8..10 {
        assert!(p[Face::new(f)].is_multiple_of(3) && p[Face::new(f)] < 24);
    }

    let b = w.try_layer(&BORDER).unwrap().unwrap();
    assert_eq!(b.len(), 15);
    for q in 0..12u32 {
        assert_eq!(b[Edge::of_quad(q).rot()], q.is_multiple_of(3));
    }
    let fl = w.try_layer(&FLOW).unwrap().unwrap();
    assert_eq!(fl.len(), 30);
    for e in 0..24u32 {
        assert_eq!(fl[Edge::primal(e)], DVec2::new(e as f64, -(e as f64) / 3.0));
    }

    let meta = w.dict("meta").unwrap();
    assert_eq!(meta.get_str("name"), Ok("golden"));
    assert_eq!(meta.get_i64("seed"), Ok(42));
    assert_eq!(meta.get_f64("ratio"), Ok(0.125));
    assert_eq!(meta.get_bool("flag"), Ok(true));
    assert_eq!(meta.get("nothing"), Some(&Value::Null));
    assert_eq!(
        meta.get_list("list").unwrap(),
        [Value::Int(1), Value::from("two"), Value::Float(3.5)]
    );
    let ids = meta.get_dict("ids").unwrap();
    assert_eq!(ids.get_vertex("v"), Ok(Vertex::new(2)));
    assert_eq!(ids.get_face("f"), Ok(Face::new(3)));
    assert_eq!(ids.get_edge("e"), Ok(Edge::primal(5).rot()));

    let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
    rng.next_u64();
    assert_eq!(*w.random(), rng);
}

#[test]
fn this_version_writes_the_golden_file_back_unchanged() {
    // While the format version is 2, a loaded golden world (its layers still encoded with
    // their pending batches) saves to the same bytes.
    assert_eq!(world::FORMAT_VERSION, 2);
    let w = World::load_from_slice(GOLDEN).unwrap();
    assert!(
        w.save_to_vec().unwrap() == GOLDEN,
        "the encoding changed: bump FORMAT_VERSION"
    );
    // Decoded and saved again (pending batches replayed), it still loads equal.
    let decoded = World::load_from_slice(GOLDEN).unwrap();
    let _ = decoded.try_layer(&HEIGHT).unwrap();
    let mut edited = decoded.clone();
    edited.lock_layer(&HEIGHT).unwrap().commit().unwrap();
    assert_eq!(
        World::load_from_slice(&edited.save_to_vec().unwrap()).unwrap(),
        w
    );
    let _ = build;
}
