//! Stitching (`add_free_triangle`, `connect_edges`, `disconnect_edge`, `remove_face`) against
//! a shadow model that knows nothing of rings: faces with three corners, a twin map between
//! their half-edges, and vertices as the classes of corners that twins glue together (the
//! PathEngine half-edge mesh). After every operation the mesh must agree with the model, pass
//! `check()`, and give every boundary vertex exactly one fan; a rejected operation must leave
//! the mesh bit-identical.

use proptest::prelude::*;
use quadedge::{Change, Edge, Face, Mesh, MeshError, StitchRecord, Vertex};
use std::collections::{BTreeMap, BTreeSet};
use testkit::Rng;

/// A half-edge of the model: face and corner (from corner `k` to corner `k + 1`).
type Half = (Face, usize);

/// The shadow: per face the mesh edge of each half-edge, and the twins.
#[derive(Default)]
struct Model {
    faces: BTreeMap<Face, [Edge; 3]>,
    twin: BTreeMap<Half, Half>,
}

impl Model {
    /// Corner classes: union-find over "twins glue their end corners".
    fn classes(&self) -> BTreeMap<Half, Half> {
        let mut parent: BTreeMap<Half, Half> = BTreeMap::new();
        for &f in self.faces.keys() {
            for k in 0..3 {
                parent.insert((f, k), (f, k));
            }
        }
        fn find(p: &mut BTreeMap<Half, Half>, x: Half) -> Half {
            let mut r = x;
            while p[&r] != r {
                r = p[&r];
            }
            p.insert(x, r);
            r
        }
        for (&(f, k), &(g, j)) in &self.twin {
            // origin of (f, k) meets the end of (g, j), and the other way round.
            for (x, y) in [((f, k), (g, (j + 1) % 3)), ((f, (k + 1) % 3), (g, j))] {
                let (rx, ry) = (find(&mut parent, x), find(&mut parent, y));
                if rx != ry {
                    parent.insert(rx.max(ry), rx.min(ry));
                }
            }
        }
        let keys: Vec<Half> = parent.keys().copied().collect();
        keys.into_iter()
            .map(|x| (x, find(&mut parent, x)))
            .collect()
    }

    /// The undirected edges as pairs of classes: `None` if one is a loop or two coincide.
    fn simple(&self, classes: &BTreeMap<Half, Half>) -> bool {
        let mut seen = BTreeSet::new();
        for &f in self.faces.keys() {
            for k in 0..3 {
                let h = (f, k);
                if let Some(&t) = self.twin.get(&h)
                    && t < h
                {
                    continue; // counted from the other side
                }
                let (a, b) = (classes[&(f, k)], classes[&(f, (k + 1) % 3)]);
                if a == b || !seen.insert((a.min(b), a.max(b))) {
                    return false;
                }
            }
        }
        true
    }

    /// Is every corner of this class on two twinned half-edges (an interior vertex)?
    fn closed(&self, classes: &BTreeMap<Half, Half>, c: Half) -> bool {
        classes
            .iter()
            .filter(|(_, r)| **r == c)
            .all(|(&(f, k), _)| {
                self.twin.contains_key(&(f, k)) && self.twin.contains_key(&(f, (k + 2) % 3))
            })
    }
}

/// The mesh agrees with the model and with the fan rule.
fn agree(m: &Mesh, model: &Model) {
    m.check().unwrap();
    let classes = model.classes();
    let mut class_of: BTreeMap<Vertex, Half> = BTreeMap::new();
    let mut vertex_of: BTreeMap<Half, Vertex> = BTreeMap::new();
    for (&f, es) in &model.faces {
        assert!(m.is_face_alive(f));
        for k in 0..3 {
            let e = es[k];
            assert_eq!(m.left(e), f, "{e:?} should have {f:?} on its left");
            assert_eq!(m.dest(e), m.origin(es[(k + 1) % 3]));
            let twin = model.twin.get(&(f, k));
            assert_eq!(m.right(e), twin.map_or(Face::INVALID, |t| t.0));
            let (v, c) = (m.origin(e), classes[&(f, k)]);
            assert_eq!(
                *class_of.entry(v).or_insert(c),
                c,
                "{v:?} holds two classes"
            );
            assert_eq!(
                *vertex_of.entry(c).or_insert(v),
                v,
                "a class on two vertices"
            );
        }
    }
    assert_eq!(m.face_count(), model.faces.len());
    let used = m.vertices().filter(|&v| m.degree(v) > 0).count();
    assert_eq!(used, vertex_of.len());
    for v in m.vertices() {
        assert!(m.fan_count(v) <= 1, "{v:?} has {} fans", m.fan_count(v));
        if m.degree(v) > 0 && m.is_boundary_vertex(v) {
            assert_eq!(m.fan_count(v), 1);
            // The entry edge is the first of the fan (PathEngine's "leftmost" edge).
            assert!(!m.right(m.vertex_edge(v)).is_valid());
        }
    }
}

/// One random operation on mesh and model; returns whether the mesh accepted it.
fn step(m: &mut Mesh, model: &mut Model, rng: &mut Rng) -> bool {
    let halves: Vec<Half> = model
        .faces
        .keys()
        .flat_map(|&f| (0..3).map(move |k| (f, k)))
        .collect();
    let free: Vec<Half> = halves
        .iter()
        .copied()
        .filter(|h| !model.twin.contains_key(h))
        .collect();
    let before = m.clone();
    let op = rng.below(10);
    let (result, expected) = if op < 2 || halves.is_empty() {
        let f = m.add_free_triangle().unwrap();
        model.faces.insert(f, m.face_edges(f));
        (Ok(()), true)
    } else if op < 6 && free.len() >= 2 {
        // Half the time a zip: h1 starts at a fan of three faces or more, h2 ends there
        // (closes the fan into an interior vertex).
        let classes = model.classes();
        let size = |c: Half| classes.values().filter(|&&r| r == classes[&c]).count();
        let wide: Vec<Half> = free.iter().copied().filter(|&h| size(h) >= 3).collect();
        let zip = !wide.is_empty() && rng.below(2) == 0;
        let h1 = if zip {
            wide[rng.below(wide.len())]
        } else {
            free[rng.below(free.len())]
        };
        let zips: Vec<Half> = free
            .iter()
            .copied()
            .filter(|&(g, j)| classes[&(g, (j + 1) % 3)] == classes[&h1])
            .collect();
        let h2 = if zip && !zips.is_empty() {
            zips[rng.below(zips.len())]
        } else {
            free[rng.below(free.len())]
        };
        let (a, b) = (model.faces[&h1.0][h1.1], model.faces[&h2.0][h2.1]);
        // The model's verdict: distinct, and the glued graph stays simple.
        model.twin.insert(h1, h2);
        model.twin.insert(h2, h1);
        let ok = h1 != h2 && model.simple(&model.classes());
        let r = m.connect_edges(a, b);
        if ok {
            // b's half-edge is now a.sym().
            model.faces.get_mut(&h2.0).unwrap()[h2.1] = a.sym();
        } else {
            model.twin.remove(&h1);
            model.twin.remove(&h2);
        }
        (r.map(|_| ()), ok)
    } else if op < 8 && free.len() < halves.len() {
        let glued: Vec<Half> = model.twin.keys().copied().collect();
        let h = glued[rng.below(glued.len())];
        let t = model.twin[&h];
        let e = model.faces[&h.0][h.1];
        let classes = model.classes();
        let ok = !(model.closed(&classes, classes[&h])
            && model.closed(&classes, classes[&(h.0, (h.1 + 1) % 3)]));
        let r = m.disconnect_edge(e);
        if ok {
            model.twin.remove(&h);
            model.twin.remove(&t);
            model.faces.get_mut(&t.0).unwrap()[t.1] = *r.as_ref().unwrap();
        } else {
            assert_eq!(
                r,
                Err(MeshError::WouldDuplicateEdge {
                    from: m.origin(e),
                    to: m.dest(e)
                })
            );
        }
        (r.map(|_| ()), ok)
    } else {
        let f = halves[rng.below(halves.len())].0;
        for k in 0..3 {
            if let Some(t) = model.twin.remove(&(f, k)) {
                model.twin.remove(&t);
            }
        }
        model.faces.remove(&f);
        let r = m.remove_face(f);
        // Isolated corners are removed, as PathEngine's deleteFace does.
        let lone: Vec<Vertex> = m.vertices().filter(|&v| m.degree(v) == 0).collect();
        for v in lone {
            m.remove_vertex(v).unwrap();
        }
        (r, true)
    };
    assert_eq!(result.is_ok(), expected, "{result:?}");
    if result.is_err() {
        assert!(*m == before, "a rejected operation changed the mesh");
    }
    result.is_ok()
}

fn run(seed: u64, steps: usize) -> [usize; 3] {
    let mut rng = Rng::new(seed);
    let mut m = Mesh::new();
    let start = m.clone();
    m.start_undo_log().unwrap();
    let rec = m.record_changes().unwrap();
    let mut model = Model::default();
    let mut tally = [0; 3];
    for _ in 0..steps {
        let ok = step(&mut m, &mut model, &mut rng);
        tally[ok as usize] += 1;
        agree(&m, &model);
        tally[2] += m
            .vertices()
            .filter(|&v| m.degree(v) > 0 && !m.is_boundary_vertex(v))
            .count();
        // Every journal record names live survivors.
        for c in m.take_changes(&rec).unwrap() {
            if let Change::Stitch(StitchRecord { edge, removed, .. }) = c {
                assert!(m.is_edge_alive(edge) && !m.is_boundary_edge(edge));
                assert!(removed.iter().all(|&v| !m.is_vertex_alive(v)));
            }
        }
    }
    // The undo log replays the whole run backwards and forwards.
    let end = m.clone();
    let log = m.stop_undo_log().unwrap();
    m.undo(&log).unwrap();
    assert!(m == start);
    m.redo(&log).unwrap();
    assert!(m == end);
    tally
}

#[test]
fn random_stitching_agrees_with_the_shadow_model() {
    let mut total = [0; 3];
    for seed in 1..=12 {
        let t = run(seed, 160);
        total = [total[0] + t[0], total[1] + t[1], total[2] + t[2]];
    }
    // Both verdicts occur often: the test exercises acceptance and rejection.
    assert!(
        total[0] > 100 && total[1] > 1000 && total[2] > 100,
        "{total:?}"
    );
}

proptest! {
    #![proptest_config(testkit::proptest_config(24))]

    /// Fuzz-style: any seed and length.
    #[test]
    fn stitching_fuzz(seed in any::<u64>(), steps in 1usize..120) {
        run(seed, steps);
    }
}
