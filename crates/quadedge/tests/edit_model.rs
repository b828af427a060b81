//! Model-based property test of the edits: random sequences of every public edit, the live
//! element sets rebuilt from the journal alone must match the mesh after each step, a journal
//! must not change any result, and every accepted edit passes `check()`.

use proptest::prelude::*;
use quadedge::{Change, Edge, Face, Mesh, Remap, Vertex, shapes};
use std::collections::BTreeSet;
use testkit::{build, pick_edge};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

fn f(i: u32) -> Face {
    Face::new(i)
}

// ---------------------------------------------------------------- model-based property test

/// Live sets rebuilt from the journal alone.
#[derive(Debug, Default, Clone, PartialEq)]
struct Model {
    vertices: BTreeSet<u32>,
    faces: BTreeSet<u32>,
    quads: BTreeSet<u32>,
}

impl Model {
    fn of(m: &Mesh) -> Self {
        Self {
            vertices: m.vertices().map(|x| x.raw()).collect(),
            faces: m.faces().map(|x| x.raw()).collect(),
            quads: m.undirected_edges().map(|e| e.quad() as u32).collect(),
        }
    }

    fn add_quad(&mut self, e: Edge) {
        assert!(e.is_primal() && e.is_valid());
        assert!(self.quads.insert(e.quad() as u32), "quad {e:?} added twice");
    }

    fn add_face(&mut self, x: Face) {
        assert!(self.faces.insert(x.raw()), "face {x:?} added twice");
    }

    fn apply(&mut self, c: &Change) {
        match c {
            Change::VerticesAdded { first, count } => {
                for i in 0..*count {
                    assert!(self.vertices.insert(first.raw() + i));
                }
            }
            Change::FaceAdded(x) => self.add_face(*x),
            Change::EdgeAdded(e) => {
                assert_eq!(*e, e.base());
                self.add_quad(*e)
            }
            Change::VertexRemoved(x) => assert!(self.vertices.remove(&x.raw())),
            Change::FaceRemoved(x) => assert!(self.faces.remove(&x.raw())),
            Change::EdgeRemoved(e) => {
                assert_eq!(*e, e.base());
                assert!(self.quads.remove(&(e.quad() as u32)))
            }
            Change::Flip(r) => {
                assert!(self.quads.contains(&(r.edge.quad() as u32)));
                assert!(r.faces.iter().all(|x| self.faces.contains(&x.raw())));
            }
            Change::Split(r) => {
                assert!(self.quads.contains(&(r.edge.quad() as u32)));
                assert!(self.vertices.insert(r.vertex.raw()));
                self.add_quad(r.new_edge);
                for e in r.cross_edges {
                    if e.is_valid() {
                        self.add_quad(e);
                    }
                }
                for (new, old) in r.faces {
                    assert_eq!(new.is_valid(), old.is_valid());
                    if new.is_valid() {
                        assert!(self.faces.contains(&old.raw()));
                        self.add_face(new);
                    }
                }
            }
            Change::Collapse(r) => {
                assert_eq!(r.survivor, r.origin);
                assert_eq!(r.removed, r.dest);
                assert!(self.vertices.remove(&r.removed.raw()));
                assert!(self.vertices.contains(&r.survivor.raw()));
                for e in r.removed_edges {
                    if e.is_valid() {
                        assert_eq!(e, e.base());
                        assert!(self.quads.remove(&(e.quad() as u32)));
                    }
                }
                for x in r.removed_faces {
                    if x.is_valid() {
                        assert!(self.faces.remove(&x.raw()));
                    }
                }
            }
            Change::FaceSplit(r) => {
                assert_eq!(r.faces[0], r.face);
                assert!(self.faces.contains(&r.face.raw()));
                assert!(self.vertices.insert(r.vertex.raw()));
                for e in r.spokes {
                    self.add_quad(e);
                }
                self.add_face(r.faces[1]);
                self.add_face(r.faces[2]);
            }
            Change::VertexDissolved(r) => {
                assert!(self.vertices.remove(&r.vertex.raw()));
                assert!(self.faces.contains(&r.face.raw()));
                for e in r.removed_edges {
                    assert_eq!(e, e.base());
                    assert!(self.quads.remove(&(e.quad() as u32)));
                }
                for x in r.removed_faces {
                    assert!(self.faces.remove(&x.raw()));
                }
            }
            Change::VertexMoved(r) => {
                // Rewired in place: nothing added or removed.
                assert!(self.vertices.contains(&r.vertex.raw()));
                for e in r.spokes {
                    assert!(self.quads.contains(&(e.quad() as u32)));
                }
                for x in std::iter::once(r.closed).chain(r.faces) {
                    assert!(self.faces.contains(&x.raw()));
                }
            }
            Change::Stitch(r) => {
                assert!(self.quads.contains(&(r.edge.quad() as u32)));
                assert_eq!(r.removed_edge, r.removed_edge.base());
                assert!(self.quads.remove(&(r.removed_edge.quad() as u32)));
                for x in r.removed.into_iter().filter(|x| x.is_valid()) {
                    assert!(self.vertices.remove(&x.raw()));
                }
            }
            Change::Unstitch(r) => {
                assert!(self.quads.contains(&(r.edge.quad() as u32)));
                self.add_quad(r.new_edge);
            }
            Change::VertexSplit(r) => {
                assert!(self.vertices.contains(&r.from.raw()));
                assert!(self.vertices.insert(r.vertex.raw()));
            }
            Change::Compact(r) => {
                let map = |s: &BTreeSet<u32>, m: &[u32]| -> BTreeSet<u32> {
                    for (i, &n) in m.iter().enumerate() {
                        assert_eq!(n != Remap::DEAD, s.contains(&(i as u32)));
                    }
                    s.iter().map(|&i| m[i as usize]).collect()
                };
                self.vertices = map(&self.vertices, &r.vertices);
                self.faces = map(&self.faces, &r.faces);
                self.quads = map(&self.quads, &r.quads);
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Flip(u32, u8),
    Split(u32, u8, f32),
    Collapse(u32, u8, f32),
    RemoveFace(u32),
    AddVertex,
    RemoveVertex(u32),
    AddFace(u32, u32, u32),
    SplitFace(u32, [f32; 3]),
    Dissolve(u32),
    Move(u32, u32),
    Compact,
    FreeTriangle,
    Connect(u32, u32),
    Disconnect(u32, u8),
}

fn op() -> impl Strategy<Value = Op> {
    let w = prop_oneof![9 => 0.0f32..=1.0, 1 => prop_oneof![Just(-1.0f32), Just(2.0f32)]];
    prop_oneof![
        30 => (any::<u32>(), 0u8..4).prop_map(|(i, r)| Op::Flip(i, r)),
        20 => (any::<u32>(), 0u8..4, w.clone()).prop_map(|(i, r, t)| Op::Split(i, r, t)),
        25 => (any::<u32>(), 0u8..4, w).prop_map(|(i, r, t)| Op::Collapse(i, r, t)),
        3 => any::<u32>().prop_map(Op::RemoveFace),
        2 => Just(Op::AddVertex),
        2 => any::<u32>().prop_map(Op::RemoveVertex),
        8 => (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(a, b, c)| Op::AddFace(a, b, c)),
        6 => (any::<u32>(), 0usize..4).prop_map(|(i, k)| Op::SplitFace(i, [
            [0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [f32::NAN, 0.5, 0.5]][k])),
        6 => any::<u32>().prop_map(Op::Dissolve),
        6 => (any::<u32>(), any::<u32>()).prop_map(|(i, j)| Op::Move(i, j)),
        1 => Just(Op::Compact),
        2 => Just(Op::FreeTriangle),
        6 => (any::<u32>(), any::<u32>()).prop_map(|(i, j)| Op::Connect(i, j)),
        3 => (any::<u32>(), 0u8..4).prop_map(|(i, r)| Op::Disconnect(i, r)),
    ]
}

/// Applies one op; returns whether it succeeded, and whether it was a topological change that
/// keeps the Euler characteristic.
fn apply(m: &mut Mesh, op: Op) -> (bool, bool) {
    let vs = m.vertex_slots() as u32 + 1;
    let fs = m.face_slots() as u32 + 1;
    match op {
        Op::Flip(i, r) => (m.flip(pick_edge(m, i, r)).is_ok(), true),
        Op::Split(i, r, t) => (m.split(pick_edge(m, i, r), t).is_ok(), true),
        Op::Collapse(i, r, t) => (m.collapse(pick_edge(m, i, r), t).is_ok(), true),
        Op::RemoveFace(i) => (m.remove_face(f(i % fs)).is_ok(), false),
        Op::AddVertex => {
            m.add_vertex();
            (true, false)
        }
        Op::RemoveVertex(i) => (m.remove_vertex(v(i % vs)).is_ok(), false),
        Op::AddFace(a, b, c) => (m.add_face(v(a % vs), v(b % vs), v(c % vs)).is_ok(), false),
        Op::SplitFace(i, w) => (m.split_face(f(i % fs), w).is_ok(), true),
        Op::Dissolve(i) => (m.dissolve_vertex(v(i % vs)).is_ok(), true),
        Op::Move(i, j) => (m.move_vertex(v(i % vs), f(j % fs)).is_ok(), true),
        Op::Compact => {
            m.compact();
            (true, true)
        }
        Op::FreeTriangle => (m.add_free_triangle().is_ok(), false),
        Op::Connect(i, j) => {
            let (a, b) = (boundary_half_edge(m, i), boundary_half_edge(m, j));
            (m.connect_edges(a, b).is_ok(), false)
        }
        Op::Disconnect(i, r) => (m.disconnect_edge(pick_edge(m, i, r)).is_ok(), false),
    }
}

/// The `i`-th boundary half-edge (face on the left), modulo their number; or a live edge
/// picked as usual when there is none (the op is then rejected).
fn boundary_half_edge(m: &Mesh, i: u32) -> Edge {
    let n = m
        .directed_edges()
        .filter(|&e| is_boundary_half(m, e))
        .count();
    if n == 0 {
        return pick_edge(m, i, 0);
    }
    let k = i as usize % n;
    m.directed_edges()
        .filter(|&e| is_boundary_half(m, e))
        .nth(k)
        .unwrap_or(Edge::INVALID)
}

fn is_boundary_half(m: &Mesh, e: Edge) -> bool {
    m.left(e).is_valid() && !m.right(e).is_valid()
}

fn run_model(start: Mesh, ops: &[Op], closed: bool) -> Result<(), TestCaseError> {
    // `shadow` runs the same ops without a journal: recording must not change the result.
    let mut shadow = start.clone();
    let mut m = start;
    let rec = m.record_changes().unwrap();
    let mut model = Model::of(&m);
    let mut euler_kept = true;
    // Successes per kind: flip, split, collapse, remove face, add face.
    let mut successes = [0usize; 5];
    for (step, &o) in ops.iter().enumerate() {
        let before = m.clone();
        let (ok, keeps_euler) = apply(&mut m, o);
        let (shadow_ok, _) = apply(&mut shadow, o);
        prop_assert_eq!(ok, shadow_ok);
        prop_assert!(
            m == shadow,
            "step {}: journal changed the result of {:?}",
            step,
            o
        );
        let changes = m.take_changes(&rec).unwrap();
        if !ok {
            prop_assert!(m == before, "step {step}: rejected {o:?} changed the mesh");
            prop_assert!(changes.is_empty(), "step {step}: rejected {o:?} logged");
            continue;
        }
        let kind = match o {
            Op::Flip(..) => 0,
            Op::Split(..) => 1,
            Op::Collapse(..) => 2,
            Op::RemoveFace(_) => 3,
            Op::AddFace(..) => 4,
            _ => 0,
        };
        successes[kind] += 1;
        euler_kept &= keeps_euler;
        if let Err(err) = m.check() {
            return Err(TestCaseError::fail(format!(
                "step {step}: {o:?} broke the mesh: {err}"
            )));
        }
        for c in &changes {
            model.apply(c);
        }
        prop_assert_eq!(&model, &Model::of(&m), "step {}: {:?}", step, o);
        if closed && euler_kept {
            prop_assert_eq!(m.euler_characteristic(), 2, "step {}: {:?}", step, o);
            prop_assert!(m.is_closed());
        }
    }
    if std::env::var_os("EDIT_STATS").is_some() {
        eprintln!(
            "successes {successes:?} of {} ops; final {:?}, slots {}/{}/{}",
            ops.len(),
            m,
            m.vertex_slots(),
            m.quad_slots(),
            m.face_slots()
        );
    }
    prop_assert!(successes[..3].iter().all(|&n| n > 0), "{:?}", successes);
    Ok(())
}

proptest! {
    // PROPTEST_CASES=1000 for a longer hunt.
    #![proptest_config(testkit::proptest_config(16))]

    #[test]
    fn random_edits_on_a_closed_mesh(
        grid in any::<bool>(),
        ops in proptest::collection::vec(op(), 1500..2500),
    ) {
        let shape = if grid { shapes::icosahedron_grid(2) } else { shapes::icosahedron() };
        run_model(build(shape), &ops, true)?;
    }

    #[test]
    fn random_edits_on_an_open_mesh(
        strip in any::<bool>(),
        ops in proptest::collection::vec(op(), 1500..2500),
    ) {
        let shape = if strip { shapes::strip(12) } else { shapes::disk(8) };
        run_model(build(shape), &ops, false)?;
    }

    #[test]
    fn flips_splits_collapses_keep_a_sphere_a_sphere(
        ops in proptest::collection::vec(
            (0u8..3, any::<u32>(), 0u8..4, 0.0f32..=1.0), 2000..3000)
    ) {
        let mut m = build(shapes::octahedron());
        let rec = m.record_changes().unwrap();
        let mut model = Model::of(&m);
        for (k, i, r, t) in ops {
            let e = pick_edge(&m, i, r);
            let before = m.clone();
            let ok = match k {
                0 => m.flip(e).is_ok(),
                1 => m.split(e, t).is_ok(),
                _ => m.collapse(e, t).is_ok(),
            };
            let changes = m.take_changes(&rec).unwrap();
            if ok {
                m.check().map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(m.euler_characteristic(), 2);
                prop_assert!(m.vertex_count() >= 4);
                for c in &changes {
                    model.apply(c);
                }
            } else {
                prop_assert!(m == before);
                prop_assert!(changes.is_empty());
            }
        }
        prop_assert_eq!(model, Model::of(&m));
    }
}
