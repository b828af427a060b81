//! The world API against misuse: the journal behind the mesh guard, versions, failed locks,
//! equality, ids kept in dictionaries, replacing the mesh, transactions and the positions
//! guard.

mod common;

use common::*;
use glam::DVec3;
use layers::{FaceKind, Interpolation, LayerInfo, OnChange, Value, VertexKind};
use quadedge::{Face, Mesh, Vertex, shapes};
use world::{MeshReplacement, World, WorldError};

const POS: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
const PLATE: LayerInfo<u16, FaceKind> = LayerInfo::new("plate");

#[test]
fn replacing_the_mesh_inside_a_guard_is_a_replacement() {
    let mut w = sample_world();
    let (n, t) = shapes::octahedron();
    let octahedron = Mesh::from_triangles(n, &t).unwrap();
    let mut replaced = w.clone();
    replaced
        .replace_mesh(octahedron.clone(), MeshReplacement::ResetAll)
        .unwrap();
    {
        let mut m = w.lock_mesh();
        *m = octahedron;
        m.commit();
    }
    // Dropping the guard ends it as `replace_mesh(.., ResetAll)` does.
    assert!(w == replaced);
    let h = w.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), 6);
    assert!(h.iter().all(|&x| x == 0.0));
    assert_eq!(w.dict("plates").unwrap().get("seed"), Some(&Value::Null));
    // Discarding the journal through the guard is the same loss: the data is reset again.
    w.update_layer(&HEIGHT, |l| l.fill(3.0)).unwrap();
    let mut m = w.lock_mesh();
    m.add_vertex();
    m.discard_journal();
    m.commit();
    let h = w.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), 7);
    assert!(h.iter().all(|&x| x == 0.0));
}

#[test]
fn replace_mesh_says_what_happens_to_each_layer() {
    let mut w = octahedron_world();
    w.update_layer(&HEIGHT, |l| l[Vertex::new(4)] = 4.0)
        .unwrap();
    w.update_layer(&PLATE, |l| l[Face::new(1)] = 9).unwrap();
    w.update_dict("d", |d| d.set("v", Vertex::new(4)));
    w.update_dict("d", |d| d.set("f", Face::new(1)));
    // Same vertices, another triangulation: vertex data kept, face data reset.
    let (n, mut t) = shapes::octahedron();
    t.rotate_left(1);
    let before = w.clone();
    w.replace_mesh(
        Mesh::from_triangles(n, &t).unwrap(),
        MeshReplacement::KeepVertexData,
    )
    .unwrap();
    assert_eq!(w.layer(&HEIGHT).unwrap()[Vertex::new(4)], 4.0);
    assert!(w.layer(&PLATE).unwrap().iter().all(|&p| p == 0));
    assert_eq!(w.dict("d").unwrap().get_vertex("v"), Ok(Vertex::new(4)));
    assert_eq!(w.dict("d").unwrap().get("f"), Some(&Value::Null));
    assert!(w.mesh_version() > before.mesh_version());
    // Another vertex count cannot keep vertex data: refused, nothing changes.
    let snapshot = w.clone();
    let (n, t) = shapes::icosahedron();
    let err = w.replace_mesh(
        Mesh::from_triangles(n, &t).unwrap(),
        MeshReplacement::KeepVertexData,
    );
    assert!(matches!(
        err,
        Err(WorldError::VertexSlotsDiffer { old: 6, new: 12 })
    ));
    assert_eq!(w, snapshot);
    w.replace_mesh(
        Mesh::from_triangles(n, &t).unwrap(),
        MeshReplacement::ResetAll,
    )
    .unwrap();
    assert_eq!(w.layer(&HEIGHT).unwrap().len(), 12);
    assert!(w.layer(&HEIGHT).unwrap().iter().all(|&x| x == 0.0));
}

#[test]
fn versions_change_exactly_when_data_changes() {
    let mut w = sample_world();
    let snapshot = |w: &World| {
        (
            w.mesh_version(),
            w.layer_version("height"),
            w.dict_version("plates"),
            w.random_version(),
        )
    };
    let start = snapshot(&w);
    // Locks used only to read change nothing.
    {
        let h = w.lock_layer(&HEIGHT).unwrap();
        let _ = h[Vertex::new(0)];
        h.commit().unwrap();
    }
    {
        let r = w.lock_random();
        let _ = &*r;
        r.commit();
    }
    {
        let d = w.lock_dict("plates");
        let _ = d.get("count");
        d.commit();
    }
    {
        let m = w.lock_mesh();
        let _ = m.vertex_slots();
        m.commit();
    }
    {
        // Mutable access without an edit records an empty journal: the mesh is unchanged.
        let mut m = w.lock_mesh();
        let _: &mut Mesh = &mut m;
        m.commit();
    }
    assert_eq!(snapshot(&w), start);
    // Each write changes exactly its component.
    w.update_layer(&HEIGHT, |l| l[Vertex::new(0)] = 1.0)
        .unwrap();
    let a = snapshot(&w);
    assert!(a.1 > start.1 && (a.0, a.2, a.3) == (start.0, start.2, start.3));
    let mut rng = w.lock_random();
    let _: u32 = rand::Rng::random(&mut *rng);
    rng.commit();
    let b = snapshot(&w);
    assert!(b.3 > a.3 && (b.0, b.1, b.2) == (a.0, a.1, a.2));
    w.update_dict("plates", |d| d.set("count", 4));
    let c = snapshot(&w);
    assert!(c.2 > b.2 && (c.0, c.1, c.3) == (b.0, b.1, b.3));
    w.update_mesh(|m| m.add_vertex());
    let d = snapshot(&w);
    assert!(d.0 > c.0 && d.1 > c.1, "the new vertex grew the layer");
    assert_eq!((d.2, d.3), (c.2, c.3));
    // Versions are stamps: all distinct.
    let mut all = [a.1, b.3, c.2, d.0];
    all.sort();
    assert!(all.windows(2).all(|p| p[0] < p[1]));
}

#[test]
fn lock_layers_changes_nothing_on_failure() {
    const NEW: LayerInfo<f32, VertexKind> = LayerInfo::new("new");
    const WRONG: LayerInfo<u8, VertexKind> = LayerInfo::new("height");
    let mut w = sample_world();
    let before = w.clone();
    let names = |w: &World| w.layer_names().map(String::from).collect::<Vec<_>>();
    assert!(matches!(
        w.lock_layers(&NEW, &WRONG),
        Err(WorldError::LayerMismatch { .. })
    ));
    assert!(w.lock_layers(&WRONG, &NEW).is_err());
    assert!(matches!(
        w.lock_layers(&NEW, &NEW),
        Err(WorldError::SameLayerTwice(_))
    ));
    assert_eq!(names(&w), names(&before));
    assert_eq!(w, before);
    assert_eq!(w.layer_version("height"), before.layer_version("height"));
}

#[test]
fn equality_compares_contents_bitwise_whatever_the_encoding() {
    let mut w = sample_world();
    w.update_dict("plates", |d| d.set("nan", f64::NAN));
    w.update_layer(&DISTANCE, |l| l[quadedge::Edge::primal(0)] = f32::NAN)
        .unwrap();
    assert_eq!(w, w.clone());
    // A loaded world with pending journals equals a fresh one after the same edits.
    let mut loaded = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    for x in [&mut w, &mut loaded] {
        let mut m = x.lock_mesh();
        let e = m.vertex_edge(Vertex::new(2));
        m.split(e, 0.3).unwrap();
        let e = m.vertex_edge(Vertex::new(7));
        m.flip(e).unwrap();
        m.commit();
    }
    assert_eq!(loaded, w);
    assert_eq!(w, loaded);
    // And a difference in one value is seen, encoded or not.
    let mut other = World::load_from_slice(&loaded.save_to_vec().unwrap()).unwrap();
    other
        .update_layer(&HEIGHT, |l| l[Vertex::new(1)] = 42.0)
        .unwrap();
    assert_ne!(other, w);
    assert_ne!(w, other);
    let mut z = w.clone();
    z.update_dict("plates", |d| d.set("nan", -f64::NAN));
    assert_ne!(z, w);
}

#[test]
fn ids_in_dicts_follow_compaction_and_removal() {
    let mut w = grid_world(1);
    // A collapse survivor keeps its own value under `DontCare`: each vertex keeps `i`.
    const H: LayerInfo<f32, VertexKind> =
        LayerInfo::new("h").interpolation(Interpolation::DontCare);
    let n = w.mesh().vertex_slots();
    {
        let mut h = w.lock_layer(&H).unwrap();
        for i in 0..n {
            h[Vertex::new(i as u32)] = i as f32;
        }
        h.commit().unwrap();
    }
    {
        let mut d = w.lock_dict("plates");
        d.set("seed", Vertex::new(30));
        let all = d.dict_mut("nested").unwrap().list_mut("all").unwrap();
        all.extend((0..n as u32).map(|i| Value::Vertex(Vertex::new(i))));
        d.commit();
    }
    let dict_version = w.dict_version("plates");
    let mut removed = Vec::new();
    {
        let mut m = w.lock_mesh();
        for v in [5, 1] {
            let e = m.vertex_edge(Vertex::new(v));
            removed.push(m.collapse(e, 0.5).unwrap().removed);
        }
        m.compact();
        m.commit();
    }
    let d = w.dict("plates").unwrap();
    let h = w.layer(&H).unwrap();
    let all = d.get_dict("nested").unwrap().get_list("all").unwrap();
    for (i, v) in all.iter().enumerate() {
        match v {
            Value::Vertex(v) => {
                assert!(w.mesh().is_vertex_alive(*v));
                assert_eq!(h[*v], i as f32, "stored id {i} now names {v:?}");
            }
            Value::Null => assert!(removed.contains(&Vertex::new(i as u32))),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(all.iter().filter(|v| **v == Value::Null).count(), 2);
    assert!(w.dict_version("plates") > dict_version);
    // An id whose element died becomes Null.
    let mut w3 = grid_world(1);
    w3.update_dict("d", |d| d.set("f", Face::new(0)));
    {
        let mut m = w3.lock_mesh();
        let e = m.face_edge(Face::new(0));
        let r = m.collapse(e, 0.5).unwrap();
        assert!(r.removed_faces.contains(&Face::new(0)));
        m.commit();
    }
    assert_eq!(w3.dict("d").unwrap().get("f"), Some(&Value::Null));
}

#[test]
fn a_transaction_lends_the_mesh_and_several_layers_at_once() {
    let mut w = sample_world();
    let v0 = w.layer_version("height");
    let d0 = w.layer_version("plate_distance");
    let mut tx = w.transaction();
    tx.create(&PLATE).unwrap();
    {
        let h = tx.read(&HEIGHT).unwrap();
        let h2 = tx.read(&HEIGHT).unwrap(); // two readers are fine
        let mut plate = tx.write(&PLATE).unwrap();
        let mesh = tx.mesh().unwrap();
        for f in mesh.faces() {
            let [a, _, _] = mesh.face_vertices(f);
            plate[f] = h[a] as u16 + h2[a] as u16;
        }
        assert!(matches!(tx.write(&HEIGHT), Err(WorldError::Borrowed(_))));
        assert!(matches!(tx.read(&PLATE), Err(WorldError::Borrowed(_))));
        assert!(matches!(tx.mesh_mut(), Err(WorldError::Borrowed(_))));
        assert!(matches!(
            tx.read(&LayerInfo::<f32, VertexKind>::new("none")),
            Err(WorldError::NoSuchLayer(_))
        ));
        assert!(matches!(
            tx.read(&LayerInfo::<u8, VertexKind>::new("height")),
            Err(WorldError::LayerMismatch { .. })
        ));
    }
    let n = {
        let mut m = tx.mesh_mut().unwrap();
        m.add_vertex();
        m.vertex_slots()
    };
    tx.sync();
    assert_eq!(tx.read(&HEIGHT).unwrap().len(), n);
    tx.write(&HEIGHT).unwrap()[Vertex::new(n as u32 - 1)] = 7.0;
    tx.commit().unwrap();
    assert_eq!(w.layer(&HEIGHT).unwrap()[Vertex::new(n as u32 - 1)], 7.0);
    assert!(w.layer_version("height") > v0);
    // Not written, and adding a vertex adds no edge: unchanged.
    assert_eq!(w.layer_version("plate_distance"), d0);
    assert!(w.layer(&PLATE).unwrap().iter().any(|&p| p > 0));
    assert_eq!(w.mesh().vertex_slots(), n);
}

#[test]
fn the_positions_guard_lends_a_vec_and_writes_it_back() {
    let mut w = octahedron_world();
    {
        let mut p = w.lock_layer(&POS).unwrap();
        let corners = [
            DVec3::X,
            -DVec3::X,
            DVec3::Y,
            -DVec3::Y,
            DVec3::Z,
            -DVec3::Z,
        ];
        for (i, c) in corners.into_iter().enumerate() {
            p[Vertex::new(i as u32)] = c;
        }
        p.commit().unwrap();
    }
    const FLAG: LayerInfo<u8, VertexKind> = LayerInfo::new("flag")
        .interpolation(Interpolation::MaxValue)
        .on_change(OnChange::Keep);
    w.update_layer(&FLAG, |l| l[Vertex::new(0)] = 1).unwrap();
    let mut g = w.lock_mesh_and_positions(&POS).unwrap();
    let (mesh, pos) = g.parts();
    assert_eq!(pos.len(), mesh.vertex_slots());
    let e = mesh.vertex_edge(Vertex::new(0));
    let r = mesh.split(e, 0.5).unwrap();
    pos.resize(mesh.vertex_slots(), DVec3::ZERO);
    pos[1] = DVec3::new(-1.0, 1e-3, 0.0).normalize(); // moved by the caller
    // The new vertex's slot is left at zero in the Vec: written back as zero.
    g.commit();
    let p = w.layer(&POS).unwrap();
    assert_eq!(p.len(), 7);
    assert_eq!(p[Vertex::new(1)], DVec3::new(-1.0, 1e-3, 0.0).normalize());
    assert_eq!(p[r.vertex], DVec3::ZERO);
    // Other layers followed the journal.
    assert_eq!(w.layer(&FLAG).unwrap().len(), 7);
    assert_eq!(w.layer(&FLAG).unwrap()[r.vertex], 1);
    // A guard that lends nothing changes nothing.
    let v = w.layer_version("position");
    drop(w.lock_mesh_and_positions(&POS).unwrap());
    assert_eq!(w.layer_version("position"), v);
}

#[test]
fn face_splits_and_dissolves_reach_layers_and_stored_ids() {
    let mut w = octahedron_world();
    {
        let mut h = w.lock_layer(&HEIGHT).unwrap();
        for i in 0..6 {
            h[Vertex::new(i)] = i as f32;
        }
        h.commit().unwrap();
    }
    let r = w
        .update_mesh(|m| m.split_face(Face::new(0), [0.25, 0.25, 0.5]))
        .unwrap();
    let h = w.layer(&HEIGHT).unwrap();
    let [a, b, c] = r.corners.map(|v| h[v]);
    assert_eq!(h[r.vertex], 0.25 * a + 0.25 * b + 0.5 * c);
    w.update_dict("d", |d| d.set("inserted", r.vertex));
    w.update_dict("d", |d| d.set("cut", r.faces[1]));
    let d = w.update_mesh(|m| m.dissolve_vertex(r.vertex)).unwrap();
    assert_eq!(d.vertex, r.vertex);
    let dict = w.dict("d").unwrap();
    assert_eq!(dict.get("inserted"), Some(&Value::Null));
    assert!(d.removed_faces.contains(&r.faces[1]) == (dict.get("cut") == Some(&Value::Null)));
    assert_eq!(w.layer(&HEIGHT).unwrap().len(), w.mesh().vertex_slots());
}

#[test]
fn a_layer_created_mid_transaction_is_not_replayed_twice() {
    const LATE: LayerInfo<f32, VertexKind> = LayerInfo::new("late").initial(2.0);
    let mut w = grid_world(1);
    let mut tx = w.transaction();
    {
        let mut m = tx.mesh_mut().unwrap();
        let e = m.vertex_edge(Vertex::new(3));
        m.collapse(e, 0.5).unwrap();
        m.compact();
    }
    tx.create(&LATE).unwrap();
    let n = tx.mesh().unwrap().vertex_slots();
    tx.write(&LATE).unwrap()[Vertex::new(n as u32 - 1)] = 5.0;
    tx.commit().unwrap();
    let late = w.layer(&LATE).unwrap();
    assert_eq!(late.len(), w.mesh().vertex_slots());
    assert_eq!(
        late[Vertex::new(n as u32 - 1)],
        5.0,
        "not permuted by a second compaction"
    );
}

#[test]
fn replacements_through_the_positions_guard_or_a_transaction_reset_the_data() {
    let mut w = octahedron_world();
    w.update_layer(&POS, |l| l.fill(DVec3::X)).unwrap();
    let mut g = w.lock_mesh_and_positions(&POS).unwrap();
    let (mesh, pos) = g.parts();
    *mesh = Mesh::new();
    pos.clear();
    g.commit();
    assert_eq!(w.layer(&POS).unwrap().len(), 0);

    let mut w = octahedron_world();
    w.update_layer(&HEIGHT, |l| l.fill(2.0)).unwrap();
    let tx = w.transaction();
    *tx.mesh_mut().unwrap() = shapes_mesh_with_one_vertex_more();
    tx.commit().unwrap();
    let h = w.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), 7);
    assert!(h.iter().all(|&x| x == 0.0), "reset, not kept");
    // A mesh handed over with a journal running: the world discards it and starts its own.
    let (n, t) = shapes::octahedron();
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let _stale = m.record_changes().unwrap();
    let mut w = World::new(m, 1);
    w.lock_layer(&HEIGHT).unwrap().commit().unwrap();
    w.update_mesh(|m| m.add_vertex());
    assert_eq!(w.layer(&HEIGHT).unwrap().len(), 7);
}

/// A layer keeps the settings it was created with: asking with others is a typed error, and
/// a new self-validating layer must accept its own initial value.
#[test]
fn layer_settings_are_checked_not_silently_ignored() {
    use layers::{Interpolation, LayerInfo, VertexKind};
    use world::WorldError;
    const A: LayerInfo<f32, VertexKind> = LayerInfo::new("a").range(0.0, 1.0);
    const A_WIDER: LayerInfo<f32, VertexKind> = LayerInfo::new("a").range(0.0, 2.0);
    const A_SLERP: LayerInfo<f32, VertexKind> = LayerInfo::new("a")
        .range(0.0, 1.0)
        .interpolation(Interpolation::MaxWeight);
    const BAD_INITIAL: LayerInfo<f32, VertexKind> =
        LayerInfo::new("b").range(1.0, 2.0).auto_validate(true);
    const EMPTY_RANGE: LayerInfo<f32, VertexKind> = LayerInfo::new("c")
        .range(2.0, 1.0)
        .initial(1.5)
        .auto_validate(true);
    let mut w = common::octahedron_world();
    w.update_layer(&A, |l| l[quadedge::Vertex::new(0)] = 0.5)
        .unwrap();
    let before = w.clone();
    let version = w.layer_version("a");
    for info in [&A_WIDER, &A_SLERP] {
        assert!(matches!(
            w.lock_layer(info),
            Err(WorldError::LayerSettingsDiffer(n)) if n == "a"
        ));
        assert!(matches!(
            w.lock_layers(info, &BAD_INITIAL),
            Err(WorldError::LayerSettingsDiffer(_))
        ));
    }
    for info in [&BAD_INITIAL, &EMPTY_RANGE] {
        assert!(matches!(w.lock_layer(info), Err(WorldError::Invalid(_))));
        let mut t = w.transaction();
        assert!(matches!(t.create(info), Err(WorldError::Invalid(_))));
        drop(t);
    }
    assert!(w == before);
    assert_eq!(w.layer_version("a"), version);
    assert_eq!(w.layer_names().count(), 1, "no layer was created");
    // The same settings lock fine.
    assert!(w.lock_layer(&A).is_ok());
}

/// The octahedron with one isolated vertex added.
fn shapes_mesh_with_one_vertex_more() -> Mesh {
    let (n, t) = shapes::octahedron();
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    m.add_vertex();
    m
}
