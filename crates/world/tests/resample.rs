//! `World::resample` with hand-made plans (no geometry): the identity plan gives the world
//! back, layers follow their policies, stored and dictionary data are handled as documented,
//! and every hostile plan is refused with a typed error leaving the world unchanged.

use layers::resample::{ResampleError as PlanError, ResamplePlan};
use layers::{
    DirectedEdgeKind, DualEdgeKind, EdgeKind, FaceKind, Interpolation, LayerInfo, Value, VertexKind,
};
use quadedge::{Edge, Face, Mesh, Vertex, shapes};
use world::World;
use world::resample::ResampleError;

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
const TEMP: LayerInfo<f32, VertexKind> = LayerInfo::new("temp")
    .initial(7.0)
    .interpolation(Interpolation::Reset);
const COLOR: LayerInfo<u8, FaceKind> = LayerInfo::new("color");
const LENGTH: LayerInfo<f64, EdgeKind> = LayerInfo::new("length");
const FLOW: LayerInfo<i64, DirectedEdgeKind> = LayerInfo::new("flow");
const CROSSING: LayerInfo<f32, DualEdgeKind> = LayerInfo::new("crossing");

fn octahedron() -> Mesh {
    let (n, t) = shapes::octahedron();
    Mesh::from_triangles(n, &t).unwrap()
}

fn sample() -> World {
    let mesh = octahedron();
    let mut w = World::new(mesh.clone(), 11);
    for v in mesh.vertices() {
        w.update_layer(&HEIGHT, |l| l[v] = v.index() as f32 * 1.5)
            .unwrap();
        w.update_layer(&PLATE, |l| l[v] = 10 + v.index() as u32)
            .unwrap();
        w.update_layer(&TEMP, |l| l[v] = -1.0).unwrap();
    }
    for f in mesh.faces() {
        w.update_layer(&COLOR, |l| l[f] = f.index() as u8 * 3)
            .unwrap();
    }
    for e in mesh.undirected_edges() {
        w.update_layer(&LENGTH, |l| l[e] = e.index() as f64 + 0.25)
            .unwrap();
        w.update_layer(&CROSSING, |l| l[e.rot()] = -(e.index() as f32))
            .unwrap();
    }
    for e in mesh.directed_edges() {
        w.update_layer(&FLOW, |l| l[e] = e.raw() as i64 - 100)
            .unwrap();
    }
    {
        let mut d = w.lock_dict("meta");
        d.set("seed_vertex", Vertex::new(2));
        d.set("name", "octa");
        d.commit();
    }
    w
}

/// The identity plan of `mesh`.
struct Identity {
    corners: Vec<[Vertex; 3]>,
    weights: Vec<[f32; 3]>,
    faces: Vec<Face>,
    edges: Vec<Edge>,
}

impl Identity {
    fn of(mesh: &Mesh) -> Self {
        Identity {
            corners: (0..mesh.vertex_slots() as u32)
                .map(|i| [Vertex::new(i); 3])
                .collect(),
            weights: vec![[1.0, 0.0, 0.0]; mesh.vertex_slots()],
            faces: (0..mesh.face_slots() as u32).map(Face::new).collect(),
            edges: (0..2 * mesh.quad_slots() as u32)
                .map(Edge::primal)
                .collect(),
        }
    }
    fn plan(&self) -> ResamplePlan<'_> {
        ResamplePlan {
            vertex_corners: &self.corners,
            vertex_weights: &self.weights,
            faces: &self.faces,
            edges: &self.edges,
        }
    }
}

#[test]
fn the_identity_plan_gives_the_world_back() {
    let w = sample();
    let id = Identity::of(w.mesh());
    let back = w.resampled(w.mesh().clone(), &id.plan()).unwrap();
    assert_eq!(back.layer(&HEIGHT), w.layer(&HEIGHT));
    assert_eq!(back.layer(&PLATE), w.layer(&PLATE));
    assert_eq!(back.layer(&COLOR), w.layer(&COLOR));
    assert_eq!(back.layer(&LENGTH), w.layer(&LENGTH));
    assert_eq!(back.layer(&FLOW), w.layer(&FLOW));
    assert_eq!(back.layer(&CROSSING), w.layer(&CROSSING));
    // A value-less policy gives the initial value.
    assert!(back.layer(&TEMP).unwrap().iter().all(|&t| t == 7.0));
    assert_eq!(
        back.layer_names().collect::<Vec<_>>(),
        w.layer_names().collect::<Vec<_>>()
    );
    // Dictionaries kept, ids in them forgotten; the generator goes on from the same state.
    let meta = back.dict("meta").unwrap();
    assert_eq!(meta.get("seed_vertex"), Some(&Value::Null));
    assert_eq!(meta.get("name"), w.dict("meta").unwrap().get("name"));
    assert_eq!(back.random(), w.random());
    // Fresh versions, newer than any of the original's.
    assert!(back.layer_version("height") > w.layer_version("flow"));
}

#[test]
fn stencils_blend_by_policy_and_edges_map_by_direction() {
    let w = sample();
    let mesh = w.mesh().clone();
    let mut id = Identity::of(&mesh);
    // Vertex 0 now between 1, 2, 3 (heights 1.5, 3, 4.5) with weights ½, ¼, ¼.
    id.corners[0] = [Vertex::new(1), Vertex::new(2), Vertex::new(3)];
    id.weights[0] = [0.5, 0.25, 0.25];
    // Face 0 takes face 5's colour; quad 0 takes quad 3 reversed.
    id.faces[0] = Face::new(5);
    id.edges[0] = Edge::primal(7);
    id.edges[1] = Edge::primal(6);
    let out = w.resampled(mesh, &id.plan()).unwrap();
    assert_eq!(out.layer(&HEIGHT).unwrap()[Vertex::new(0)], 2.625);
    assert_eq!(out.layer(&PLATE).unwrap()[Vertex::new(0)], 11);
    assert_eq!(out.layer(&COLOR).unwrap()[Face::new(0)], 15);
    assert_eq!(out.layer(&LENGTH).unwrap()[Edge::of_quad(0)], 6.25);
    assert_eq!(out.layer(&FLOW).unwrap()[Edge::primal(0)], 7 - 100);
    assert_eq!(out.layer(&FLOW).unwrap()[Edge::primal(1)], 6 - 100);
    assert_eq!(out.layer(&CROSSING).unwrap()[Edge::of_quad(0).rot()], -6.0);
}

#[test]
fn a_stored_layer_is_decoded_and_resampled() {
    let w = sample();
    let loaded = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
    let id = Identity::of(w.mesh());
    let back = loaded.resampled(w.mesh().clone(), &id.plan()).unwrap();
    assert_eq!(back.layer(&HEIGHT), w.layer(&HEIGHT));
    assert_eq!(back.layer(&FLOW), w.layer(&FLOW));
}

#[test]
fn hostile_plans_are_refused_and_change_nothing() {
    let w = sample();
    let before = w.clone();
    let mesh = w.mesh().clone();
    let refuse = |edit: &dyn Fn(&mut Identity), check: &dyn Fn(&ResampleError) -> bool| {
        let mut id = Identity::of(&mesh);
        edit(&mut id);
        let e = w.resampled(mesh.clone(), &id.plan()).unwrap_err();
        assert!(check(&e), "{e:?}");
        assert!(!e.to_string().is_empty());
        assert_eq!(w, before);
    };
    refuse(
        &|id| {
            id.corners.pop();
        },
        &|e| matches!(e, ResampleError::Plan(PlanError::Lengths { .. })),
    );
    refuse(
        &|id| {
            id.corners.pop();
            id.weights.pop();
        },
        &|e| matches!(e, ResampleError::SlotCount { .. }),
    );
    refuse(&|id| id.corners[2][1] = Vertex::new(99), &|e| {
        matches!(e, ResampleError::DeadSource { slot: 2, .. })
    });
    refuse(&|id| id.corners[2] = [Vertex::INVALID; 3], &|e| {
        matches!(e, ResampleError::DeadSource { slot: 2, .. })
    });
    for bad in [
        [f32::NAN, 0.0, 0.0],
        [0.0; 3],
        [-1.0, 1.0, 1.0],
        [f32::INFINITY, 0.0, 0.0],
    ] {
        refuse(&|id| id.weights[3] = bad, &|e| {
            matches!(e, ResampleError::Plan(PlanError::BadWeights { slot: 3 }))
        });
    }
    refuse(&|id| id.faces[4] = Face::new(1000), &|e| {
        matches!(e, ResampleError::DeadSource { slot: 4, .. })
    });
    refuse(&|id| id.faces.clear(), &|e| {
        matches!(e, ResampleError::SlotCount { .. })
    });
    refuse(&|id| id.edges[5] = Edge::dual(5), &|e| {
        matches!(e, ResampleError::DeadSource { slot: 5, .. })
    });
    refuse(&|id| id.edges[5] = Edge::primal(1 << 20), &|e| {
        matches!(e, ResampleError::DeadSource { slot: 5, .. })
    });
    refuse(
        &|id| {
            id.edges.pop();
        },
        &|e| matches!(e, ResampleError::Plan(PlanError::Lengths { .. })),
    );
}

#[test]
fn a_layer_refuses_a_plan_past_its_end_without_panicking() {
    let w = sample();
    let h = w.layer(&HEIGHT).unwrap();
    let corners = [[Vertex::new(0), Vertex::new(1), Vertex::new(600)]];
    let weights = [[1.0, 1.0, 1.0]];
    let plan = ResamplePlan {
        vertex_corners: &corners,
        vertex_weights: &weights,
        ..Default::default()
    };
    assert!(matches!(
        h.resampled(&plan),
        Err(PlanError::BadSource {
            slot: 0,
            source: 600,
            ..
        })
    ));
    // Dead slots of the new mesh (all corners invalid) take the initial value.
    let corners = [[Vertex::INVALID; 3]];
    let plan = ResamplePlan {
        vertex_corners: &corners,
        vertex_weights: &weights,
        ..Default::default()
    };
    assert_eq!(h.resampled(&plan).unwrap().as_slice(), [0.0]);
    let faces = [Face::new(0), Face::new(77)];
    let plan = ResamplePlan {
        faces: &faces,
        ..Default::default()
    };
    let c = w.layer(&COLOR).unwrap();
    assert!(matches!(
        c.resampled(&plan),
        Err(PlanError::BadSource { slot: 1, .. })
    ));
    let edges = [Edge::dual(0), Edge::dual(1)];
    let plan = ResamplePlan {
        edges: &edges,
        ..Default::default()
    };
    assert!(w.layer(&FLOW).unwrap().resampled(&plan).is_err());
    assert!(w.layer(&LENGTH).unwrap().resampled(&plan).is_err());
}

/// A random plan: mostly valid entries, some dead or invalid ids, bad weights, wrong lengths.
fn random_plan(mesh: &Mesh, rng: &mut testkit::Rng) -> Identity {
    let mut id = Identity::of(mesh);
    let junk_vertex = |rng: &mut testkit::Rng| match rng.below(4) {
        0 => Vertex::INVALID,
        1 => Vertex::new(rng.next_u32()),
        _ => Vertex::new(rng.below(mesh.vertex_slots() + 2) as u32),
    };
    for _ in 0..rng.below(3) {
        let i = rng.below(id.corners.len());
        id.corners[i][rng.below(3)] = junk_vertex(rng);
    }
    for _ in 0..rng.below(4) {
        let i = rng.below(id.weights.len());
        let k = rng.below(3);
        id.weights[i][k] = [f32::NAN, -0.5, 0.0, 2.0, f32::INFINITY, 1e-30][rng.below(6)];
    }
    if rng.one_in(4) {
        let i = rng.below(id.faces.len());
        id.faces[i] = Face::new(rng.below(mesh.face_slots() + 3) as u32);
    }
    if rng.one_in(4) {
        let i = rng.below(id.edges.len());
        id.edges[i] = Edge::from_raw(rng.next_u32());
    }
    match rng.below(12) {
        0 => drop(id.corners.pop()),
        1 => id.faces.push(Face::new(0)),
        2 => drop(id.edges.pop()),
        3 => id.weights.push([1.0, 0.0, 0.0]),
        _ => {}
    }
    id
}

#[test]
fn random_plans_resample_or_are_refused_never_panic() {
    let w = sample();
    let before = w.clone();
    let mesh = w.mesh().clone();
    let mut rng = testkit::Rng::new(0x5eed_4e5a);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..400 {
        let id = random_plan(&mesh, &mut rng);
        match w.resampled(mesh.clone(), &id.plan()) {
            Ok(out) => {
                ok += 1;
                out.mesh().check().unwrap();
                for name in ["height", "plate", "color", "length", "flow", "crossing"] {
                    assert!(out.layer_names().any(|n| n == name));
                }
                assert_eq!(out.layer(&HEIGHT).unwrap().len(), mesh.vertex_slots());
                assert_eq!(out.layer(&FLOW).unwrap().len(), 2 * mesh.quad_slots());
                assert!(out.layer(&HEIGHT).unwrap().iter().all(|h| h.is_finite()));
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
        assert_eq!(w, before);
    }
    assert!(
        ok > 20 && refused > 100,
        "{ok} resampled, {refused} refused"
    );
}
