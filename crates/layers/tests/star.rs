//! Face splits (a vertex inserted inside a triangle, three weighted sources) and vertex
//! dissolves (its inverse) under every policy, on hand-written records and on real journals.

use glam::DVec3;
use layers::{
    ApplyOutcome, DirectedEdgeKind, EdgeKind, FaceKind, Interpolation, Kind, Layer, LayerInfo,
    OnChange, Sizes, VertexKind,
};
use quadedge::{Change, DissolveRecord, Edge, Face, FaceSplitRecord, Mesh, Vertex, shapes};

const INIT: f32 = -1.0;

fn sizes(vertices: usize, faces: usize, quads: usize) -> Sizes {
    Sizes {
        vertices,
        faces,
        quads,
    }
}

fn run<K: Kind>(
    values: &[f32],
    on: OnChange,
    interp: Interpolation,
    changes: &[Change],
    s: Sizes,
) -> Option<Vec<f32>> {
    let info = LayerInfo::new("t")
        .initial(INIT)
        .on_change(on)
        .interpolation(interp);
    let mut l: Layer<f32, K> = Layer::from_values(info, values.to_vec());
    match l.apply_changes(changes, s) {
        ApplyOutcome::Remove => None,
        _ => {
            assert_eq!(l.len(), K::KIND.slots(s));
            Some(l.to_vec())
        }
    }
}

/// Face 0 = (v0, v1, v2) split by v3 at weights (0.5, 0.25, 0.25) into faces 0, 1, 2 with
/// spokes on quads 3, 4, 5.
fn face_split() -> Change {
    Change::FaceSplit(FaceSplitRecord {
        face: Face::new(0),
        corners: [Vertex::new(0), Vertex::new(1), Vertex::new(2)],
        weights: [0.5, 0.25, 0.25],
        vertex: Vertex::new(3),
        spokes: [Edge::of_quad(3), Edge::of_quad(4), Edge::of_quad(5)],
        faces: [Face::new(0), Face::new(1), Face::new(2)],
    })
}

#[test]
fn a_face_split_blends_three_weighted_corners_under_every_policy() {
    let c = [face_split()];
    for p in Interpolation::ALL {
        let vertex = run::<VertexKind>(&[1.0, 2.0, 4.0], OnChange::Keep, p, &c, sizes(4, 3, 6));
        let expect = match p {
            Interpolation::DropLayer => None,
            Interpolation::ResetLayer => Some(vec![INIT; 4]),
            Interpolation::DontCare | Interpolation::Reset => Some(vec![1., 2., 4., INIT]),
            Interpolation::KeepSrc | Interpolation::MinValue | Interpolation::MaxWeight => {
                Some(vec![1., 2., 4., 1.])
            }
            Interpolation::KeepDest | Interpolation::MaxValue => Some(vec![1., 2., 4., 4.]),
            // Barycentric: 0.5 * 1 + 0.25 * 2 + 0.25 * 4.
            Interpolation::Lerp | Interpolation::Nlerp | Interpolation::Slerp => {
                Some(vec![1., 2., 4., 2.])
            }
            // Lightest corner, the first on ties: corner 1.
            Interpolation::MinWeight => Some(vec![1., 2., 4., 2.]),
        };
        assert_eq!(vertex, expect, "{p:?}");

        let faces = run::<FaceKind>(&[7.0], OnChange::Keep, p, &c, sizes(4, 3, 6));
        let expect = match p {
            Interpolation::DropLayer => None,
            Interpolation::ResetLayer => Some(vec![INIT; 3]),
            Interpolation::DontCare => Some(vec![7., INIT, INIT]),
            Interpolation::Reset => Some(vec![INIT; 3]),
            _ => Some(vec![7.; 3]),
        };
        assert_eq!(faces, expect, "{p:?}");

        let edges = run::<EdgeKind>(&[5.0; 3], OnChange::Keep, p, &c, sizes(4, 3, 6));
        let expect = match p {
            Interpolation::DropLayer => None,
            Interpolation::ResetLayer => Some(vec![INIT; 6]),
            _ => Some(vec![5., 5., 5., INIT, INIT, INIT]),
        };
        assert_eq!(edges, expect, "{p:?}");
    }
}

#[test]
fn three_source_slerp_stays_on_the_sphere() {
    let info = LayerInfo::<DVec3, VertexKind>::new("pos").interpolation(Interpolation::Slerp);
    let mut l = Layer::from_values(info, vec![DVec3::X, DVec3::Y, DVec3::Z]);
    assert_eq!(
        l.apply_changes(&[face_split()], sizes(4, 3, 6)),
        ApplyOutcome::Changed
    );
    let p = l[Vertex::new(3)];
    assert!((p.length() - 1.0).abs() < 1e-12);
    assert!((p - DVec3::new(2.0, 1.0, 1.0).normalize()).length() < 1e-12);
}

#[test]
fn a_dissolve_follows_the_on_change_policy() {
    let c = [Change::VertexDissolved(DissolveRecord {
        vertex: Vertex::new(3),
        corners: [Vertex::new(0), Vertex::new(1), Vertex::new(2)],
        face: Face::new(0),
        removed_faces: [Face::new(1), Face::new(2)],
        removed_edges: [Edge::of_quad(3), Edge::of_quad(4), Edge::of_quad(5)],
    })];
    let s = sizes(4, 3, 6);
    for on in [
        OnChange::Keep,
        OnChange::ResetAffected,
        OnChange::ResetAll,
        OnChange::RemoveLayer,
    ] {
        for p in Interpolation::ALL {
            let v = run::<VertexKind>(&[1., 2., 3., 4.], on, p, &c, s);
            let f = run::<FaceKind>(&[1., 2., 3.], on, p, &c, s);
            let e = run::<DirectedEdgeKind>(&[9.; 12], on, p, &c, s);
            match on {
                OnChange::Keep => {
                    assert_eq!(v, Some(vec![1., 2., 3., 4.]));
                    assert_eq!(f, Some(vec![1., 2., 3.]));
                    assert_eq!(e, Some(vec![9.; 12]));
                }
                OnChange::ResetAffected => {
                    assert_eq!(v, Some(vec![1., 2., 3., INIT]));
                    assert_eq!(f, Some(vec![INIT; 3]), "the merged face changed too");
                    let mut x = vec![9.; 6];
                    x.extend([INIT; 6]);
                    assert_eq!(e, Some(x));
                }
                OnChange::ResetAll => {
                    assert_eq!(v, Some(vec![INIT; 4]));
                    assert_eq!(f, Some(vec![INIT; 3]));
                }
                OnChange::RemoveLayer => assert_eq!((v, f, e), (None, None, None)),
            }
        }
    }
}

#[test]
fn real_face_splits_and_dissolves_keep_layers_at_the_meshs_sizes() {
    let (n, t) = shapes::icosahedron();
    let mut mesh = Mesh::from_triangles(n, &t).unwrap();
    let info = LayerInfo::<f64, VertexKind>::new("h").interpolation(Interpolation::Lerp);
    let mut h = Layer::with_sizes(info, Sizes::of(&mesh));
    let mut plate = Layer::with_sizes(
        LayerInfo::<u16, FaceKind>::new("p")
            .on_change(OnChange::ResetAffected)
            .initial(0),
        Sizes::of(&mesh),
    );
    for i in 0..n {
        h[Vertex::new(i as u32)] = i as f64;
    }
    for f in 0..plate.len() {
        plate[Face::new(f as u32)] = f as u16 + 1;
    }
    let rec = mesh.record_changes().unwrap();
    let split = mesh.split_face(Face::new(4), [0.2, 0.3, 0.5]).unwrap();
    let j = mesh.take_changes(&rec).unwrap();
    assert_ne!(h.apply_changes(&j, Sizes::of(&mesh)), ApplyOutcome::Remove);
    assert_ne!(
        plate.apply_changes(&j, Sizes::of(&mesh)),
        ApplyOutcome::Remove
    );
    let [a, b, c] = split.corners.map(|v| v.index() as f64);
    assert!((h[split.vertex] - (0.2 * a + 0.3 * b + 0.5 * c)).abs() < 1e-6);
    for f in split.faces {
        assert_eq!(plate[f], 5, "cut faces carry the split face's value");
    }
    let d = mesh.dissolve_vertex(split.vertex).unwrap();
    let j = mesh.take_changes(&rec).unwrap();
    assert_ne!(
        plate.apply_changes(&j, Sizes::of(&mesh)),
        ApplyOutcome::Remove
    );
    assert_ne!(h.apply_changes(&j, Sizes::of(&mesh)), ApplyOutcome::Remove);
    assert_eq!(plate[d.face], 0, "the merged face changed");
    assert_eq!(
        (h.len(), plate.len()),
        (mesh.vertex_slots(), mesh.face_slots())
    );
    mesh.stop_recording(rec).unwrap();
}
