//! A world whose layers stay encoded (loaded from a file, saved and loaded again now and then,
//! so journals pile up as pending batches) against one whose layers are always decoded, under
//! the same random edit sequences (testkit's adversarial edits: splits, face splits, dissolves,
//! collapses, flips, removals, compaction, garbage ids). After every step both are equal bit
//! for bit, every layer has the mesh's length, the mesh passes `check()`, and every id kept in
//! a dictionary names a live element.

use glam::DVec3;
use layers::{
    DirectedDualEdgeKind, EdgeKind, FaceKind, Interpolation, LayerInfo, OnChange, Sizes, Value,
    VertexKind,
};
use quadedge::{Face, Vertex};
use testkit::Rng;
use testkit::edits::{START_MESHES, apply, pick_op, start_mesh};
use world::World;

const POS: LayerInfo<DVec3, VertexKind> = LayerInfo::new("position")
    .interpolation(Interpolation::Slerp)
    .initial(DVec3::Z);
const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height")
    .interpolation(Interpolation::MaxWeight)
    .on_change(OnChange::ResetAffected);
const PLATE: LayerInfo<u16, FaceKind> = LayerInfo::new("plate")
    .initial(7)
    .interpolation(Interpolation::Reset);
const DIST: LayerInfo<f32, EdgeKind> = LayerInfo::new("dist")
    .initial(-1.0)
    .on_change(OnChange::ResetAll);
const FLUX: LayerInfo<f64, DirectedDualEdgeKind> =
    LayerInfo::new("flux").interpolation(Interpolation::KeepDest);
const FRAGILE: LayerInfo<u8, VertexKind> =
    LayerInfo::new("fragile").on_change(OnChange::RemoveLayer);

fn reload(w: &World) -> World {
    World::load_from_slice(&w.save_to_vec().unwrap()).unwrap()
}

fn seeded_world(rng: &mut Rng) -> World {
    let mut w = World::new(start_mesh(rng.below(START_MESHES)), rng.next_u64());
    let n = w.mesh().vertex_slots();
    {
        let mut p = w.lock_layer(&POS).unwrap();
        for i in 0..n {
            p[Vertex::new(i as u32)] =
                DVec3::new(rng.unit_f64() - 0.5, rng.unit_f64() - 0.5, rng.unit_f64()).normalize();
        }
        p.commit().unwrap();
    }
    w.update_layer(&HEIGHT, |l| l.fill(1.5)).unwrap();
    w.update_layer(&PLATE, |l| l.fill(3)).unwrap();
    w.update_layer(&DIST, |l| l.fill(2.0)).unwrap();
    w.update_layer(&FLUX, |l| l.fill(0.25)).unwrap();
    w.update_layer(&FRAGILE, |l| l.fill(1)).unwrap();
    let has_faces = w.mesh().face_slots() > 0;
    {
        let mut d = w.lock_dict("ids");
        let ids = d.list_mut("vertices").unwrap();
        ids.extend((0..n as u32).map(|i| Value::Vertex(Vertex::new(i))));
        if has_faces {
            d.set("face", Face::new(0));
        }
        d.commit();
    }
    w
}

fn write_some(w: &mut World, rng: &mut Rng, salt: u64) {
    let n = w.mesh().vertex_slots();
    if n > 0 {
        let v = Vertex::new(rng.below(n) as u32);
        w.update_layer(&HEIGHT, |l| l[v] = salt as f32).unwrap();
    }
    let f = w.mesh().face_slots();
    if f > 0 {
        w.update_layer(&PLATE, |l| l[Face::new(rng.below(f) as u32)] = salt as u16)
            .unwrap();
    }
}

fn check(w: &World) {
    w.mesh().check().unwrap();
    let sizes = Sizes::of(w.mesh());
    assert_eq!(w.layer(&POS).unwrap().len(), sizes.vertices);
    assert_eq!(w.layer(&HEIGHT).unwrap().len(), sizes.vertices);
    assert_eq!(w.layer(&PLATE).unwrap().len(), sizes.faces);
    assert_eq!(w.layer(&DIST).unwrap().len(), sizes.quads);
    assert_eq!(w.layer(&FLUX).unwrap().len(), 2 * sizes.quads);
    for v in w.dict("ids").unwrap().get_list("vertices").unwrap() {
        match v {
            Value::Vertex(v) => assert!(w.mesh().is_vertex_alive(*v), "{v:?} is dead"),
            Value::Null => {}
            other => panic!("{other:?}"),
        }
    }
    if let Some(Value::Face(f)) = w.dict("ids").unwrap().get("face") {
        assert!(w.mesh().is_face_alive(*f));
    }
}

fn run(seed: u64, steps: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let mut typed = seeded_world(&mut rng);
    let mut encoded = reload(&typed);
    let (mut accepted, mut rejected) = (0, 0);
    for step in 0..steps {
        let op = pick_op(typed.mesh(), &mut rng);
        let a = typed.update_mesh(|m| apply(m, op));
        let b = encoded.update_mesh(|m| apply(m, op));
        assert_eq!(a.is_ok(), b.is_ok(), "seed {seed} step {step}: {op:?}");
        if a.is_ok() {
            accepted += 1;
        } else {
            rejected += 1;
        }
        match rng.below(10) {
            0 => {
                let salt = rng.next_u64() % 1000;
                let mut r2 = rng.clone();
                write_some(&mut typed, &mut rng, salt);
                write_some(&mut encoded, &mut r2, salt);
            }
            1 => encoded = reload(&encoded),
            _ => {}
        }
        assert_eq!(
            typed.layer_names().collect::<Vec<_>>(),
            encoded.layer_names().collect::<Vec<_>>(),
            "seed {seed} step {step}"
        );
        assert!(encoded == typed, "seed {seed} step {step}: {op:?}");
        check(&typed);
    }
    check(&encoded);
    (accepted, rejected)
}

#[test]
fn encoded_layers_replay_exactly_like_decoded_ones() {
    let (mut a, mut r) = (0, 0);
    for seed in 1..=12 {
        let (x, y) = run(seed, 120);
        a += x;
        r += y;
    }
    assert!(a > 300 && r > 100, "accepted {a}, rejected {r}");
}

#[test]
#[ignore = "long run: cargo xtask stress"]
fn stress_world_model() {
    let (mut a, mut r) = (0, 0);
    for seed in 1..=300 {
        let (x, y) = run(seed, 1000);
        a += x;
        r += y;
    }
    println!("stress_world_model: {a} accepted, {r} rejected edits, 0 mismatches");
}
