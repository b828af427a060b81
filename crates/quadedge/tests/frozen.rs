//! The frozen mesh answers every query as the editable one, round-trips, and rejects hostile
//! arrays with typed errors.

mod support;

use quadedge::{Edge, Face, FrozenError, FrozenMesh, FrozenParts, Mesh, Topology, Vertex, shapes};
use std::collections::VecDeque;
use support::{build, edited, meshes, permutation};
use testkit::Rng;

/// `m` renumbered in sweep order, keeping (`shuffle == None`) or shuffling vertex ids.
fn in_sweep_order(m: &Mesh, shuffle: Option<&mut Rng>) -> Mesh {
    let mut m = m.clone();
    let live: Vec<u32> = m.vertices().map(Vertex::raw).collect();
    let order = match shuffle {
        Some(rng) => permutation(rng, live.len())
            .into_iter()
            .map(|i| live[i as usize])
            .collect(),
        None => live,
    };
    m.reorder_vertices(&order).unwrap();
    m
}

/// What the trait says about one vertex: neighbours, faces, degree, boundary.
type VertexAnswers = (Vertex, Vec<Vertex>, Vec<Face>, usize, bool);

/// Everything the shared trait can be asked, in one comparable value.
#[derive(Debug, PartialEq)]
struct Answers {
    counts: (usize, usize, usize, usize, usize, i64, bool),
    vertices: Vec<VertexAnswers>,
    faces: Vec<(Face, [Vertex; 3], [Face; 3])>,
    edges: Vec<Option<Edge>>,
}

fn answers(t: &impl Topology) -> Answers {
    let counts = (
        t.vertex_count(),
        t.face_count(),
        t.undirected_edge_count(),
        t.vertex_slots(),
        t.face_slots(),
        t.euler_characteristic(),
        t.is_closed(),
    );
    let vertices = t
        .vertices()
        .map(|v| {
            (
                v,
                t.neighbors(v).collect(),
                t.vertex_faces(v).collect(),
                t.degree(v),
                t.is_boundary_vertex(v),
            )
        })
        .collect();
    let faces = t
        .faces()
        .map(|f| (f, t.face_vertices(f), t.face_neighbors(f)))
        .collect();
    // Every neighbour pair, plus pairs that are not edges and ids past the end.
    let n = t.vertex_count() as u32;
    let mut edges = Vec::new();
    for v in t.vertices() {
        for w in t.neighbors(v) {
            edges.push(t.find_edge(v, w));
        }
        edges.push(t.find_edge(v, Vertex::new((v.raw() + 2) % n)));
        edges.push(t.find_edge(v, Vertex::new(n + 5)));
    }
    edges.push(t.find_edge(Vertex::new(n), Vertex::new(0)));
    edges.push(t.find_edge(Vertex::INVALID, Vertex::new(0)));
    Answers {
        counts,
        vertices,
        faces,
        edges,
    }
}

/// Hops from `start` to every vertex: a generic algorithm written once against the trait.
fn hops(t: &impl Topology, start: Vertex) -> Vec<u32> {
    let mut dist = vec![u32::MAX; t.vertex_slots()];
    dist[start.index()] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in t.neighbors(v) {
            if dist[w.index()] == u32::MAX {
                dist[w.index()] = dist[v.index()] + 1;
                queue.push_back(w);
            }
        }
    }
    dist
}

#[test]
fn frozen_answers_every_query_like_the_mesh() {
    let mut rng = Rng::new(21);
    for (name, base) in meshes() {
        for shuffle in [false, true] {
            let m = in_sweep_order(&base, shuffle.then_some(&mut rng));
            let f = FrozenMesh::freeze(&m).unwrap();
            f.check().unwrap();
            assert_eq!(answers(&f), answers(&m), "{name}");
            for v in m.vertices() {
                assert!(f.outgoing(v).eq(m.outgoing(v)), "{name}: outgoing({v:?})");
            }
            assert_eq!(hops(&f, Vertex::new(0)), hops(&m, Vertex::new(0)), "{name}");
        }
    }
}

#[test]
fn frozen_matches_after_random_edits() {
    for seed in 0..6 {
        let base = if seed % 2 == 0 {
            build(shapes::icosahedron_grid(5))
        } else {
            build(shapes::disk(30))
        };
        let m = edited(base, 100 + seed, 250);
        let m = in_sweep_order(&m, Some(&mut Rng::new(seed)));
        let f = FrozenMesh::freeze(&m).unwrap();
        assert_eq!(answers(&f), answers(&m), "seed {seed}");
        assert_eq!(f.thaw().unwrap(), m, "seed {seed}");
    }
}

#[test]
fn thaw_round_trips_exactly() {
    for (name, base) in meshes() {
        let m = in_sweep_order(&base, Some(&mut Rng::new(2)));
        let f = FrozenMesh::freeze(&m).unwrap();
        let back = f.thaw().unwrap();
        back.check().unwrap();
        assert_eq!(back, m, "{name}");
        assert_eq!(FrozenMesh::freeze(&back).unwrap(), f, "{name}");
        assert_eq!(
            FrozenMesh::from_parts(f.clone().into_parts()).unwrap(),
            f,
            "{name}"
        );
    }
    // Isolated vertices and the empty mesh.
    let mut m = build(shapes::strip(3));
    m.add_vertices(3).unwrap();
    let m = in_sweep_order(&m, None);
    let f = FrozenMesh::freeze(&m).unwrap();
    assert_eq!(answers(&f), answers(&m));
    assert_eq!(f.thaw().unwrap(), m);
    let empty = FrozenMesh::freeze(&Mesh::new()).unwrap();
    assert_eq!(empty.vertex_count(), 0);
    assert_eq!(empty.thaw().unwrap(), Mesh::new());
}

#[test]
fn a_closed_frozen_mesh_holds_50_bytes_per_vertex() {
    let (n, t) = shapes::icosahedron_grid(20);
    let m = in_sweep_order(&Mesh::from_triangles(n, &t).unwrap(), None);
    let f = FrozenMesh::freeze(&m).unwrap();
    // 6n − 12 half-edges of 4 + 1 bytes, 3 (n + 1) prefix entries and 2n − 4 faces of 4.
    let half_edges = 6 * n - 12;
    assert_eq!(
        f.heap_bytes(),
        5 * half_edges + 4 * (3 * (n + 1) + 2 * n - 4)
    );
    assert!(f.heap_bytes() < 50 * n);
    assert!(f.heap_bytes() <= 56 * n);
}

#[test]
fn high_degree_vertices_find_their_faces_past_the_stored_ranks() {
    // The centre of a 600-face fan counts all 600 faces: ranks past 254 are found by a scan.
    // (Seed 7: its edits keep the centre of the 400-face fan in one piece; face removals split
    // vertices whose fans come apart.)
    for m in [
        build(shapes::disk(600)),
        edited(build(shapes::disk(400)), 7, 50),
    ] {
        let m = in_sweep_order(&m, None);
        let f = FrozenMesh::freeze(&m).unwrap();
        assert_eq!(answers(&f), answers(&m));
        assert_eq!(f.thaw().unwrap(), m);
        let parts = f.clone().into_parts();
        assert!(parts.face_rank.contains(&255));
        assert_eq!(FrozenMesh::from_parts(parts).unwrap(), f);
    }
}

#[test]
fn freezing_rejects_holes_other_orders_and_huge_ids() {
    let m = build(shapes::icosahedron_grid(3));
    assert_eq!(FrozenMesh::freeze(&m), Err(FrozenError::NotInSweepOrder));
    let holes = edited(in_sweep_order(&m, None), 5, 100);
    assert!(holes.has_holes());
    assert_eq!(FrozenMesh::freeze(&holes), Err(FrozenError::HasHoles));
    // A flip in a sweep-ordered mesh keeps ids but not the sweep order.
    let mut flipped = in_sweep_order(&m, None);
    let e = flipped.undirected_edges().nth(40).unwrap();
    flipped.flip(e).unwrap();
    assert_eq!(
        FrozenMesh::freeze(&flipped),
        Err(FrozenError::NotInSweepOrder)
    );
    for err in [
        FrozenError::HasHoles,
        FrozenError::NotInSweepOrder,
        FrozenError::TooLarge,
    ] {
        assert!(!err.to_string().is_empty());
    }
}

/// Values that must be rejected in place of entry `x` of the given array.
fn bad_values(array: usize, x: u32) -> Vec<u32> {
    const HOLE: u32 = 1 << 31;
    const EVEN: u32 = 1 << 30;
    match array {
        // Prefix arrays: any other value breaks a count.
        0 | 2 | 3 => vec![x.wrapping_add(1), x.wrapping_sub(1), u32::MAX],
        // Destinations: another vertex, the other orientation, a hole toggled, out of range.
        1 => vec![
            x ^ 1,
            x ^ EVEN,
            x ^ HOLE,
            (x & !(EVEN - 1)) | (EVEN - 1),
            u32::MAX,
        ],
        // Face corners: another vertex, a rotation past 2 (rotations 0..=2 are all valid).
        _ => vec![x ^ 1, x | 3 << 30, u32::MAX],
    }
}

fn arrays(p: &mut FrozenParts) -> [&mut Vec<u32>; 5] {
    [
        &mut p.ring_start,
        &mut p.dest,
        &mut p.edge_start,
        &mut p.face_start,
        &mut p.face_corner,
    ]
}

#[test]
fn every_corrupted_entry_is_a_typed_error() {
    let mut hostile = vec![
        build(shapes::tetrahedron()),
        build(shapes::octahedron()),
        build(shapes::icosahedron_grid(2)),
        build(shapes::disk(5)),
        build(shapes::strip(4)),
    ];
    hostile.push(edited(build(shapes::disk(8)), 3, 30));
    let mut tried = 0;
    for base in hostile {
        let mut m = base;
        m.compact();
        let m = in_sweep_order(&m, Some(&mut Rng::new(8)));
        let good = FrozenMesh::freeze(&m).unwrap().into_parts();
        for a in 0..5 {
            let len = arrays(&mut good.clone())[a].len();
            for i in 0..len {
                let x = arrays(&mut good.clone())[a][i];
                for bad in bad_values(a, x) {
                    if bad == x {
                        continue;
                    }
                    let mut p = good.clone();
                    arrays(&mut p)[a][i] = bad;
                    let r = FrozenMesh::from_parts(p);
                    assert!(
                        matches!(r, Err(FrozenError::Corrupt(_) | FrozenError::TooLarge)),
                        "array {a}[{i}] = {bad:#x} (was {x:#x}) accepted"
                    );
                    tried += 1;
                }
            }
            // Truncated and extended arrays.
            for grow in [false, true] {
                let mut p = good.clone();
                let v = &mut arrays(&mut p)[a];
                if grow {
                    v.push(0);
                } else if v.pop().is_none() {
                    continue;
                }
                assert!(FrozenMesh::from_parts(p).is_err(), "array {a} resized");
            }
        }
        // Face ranks: any other value names another face (255 means "scan", also wrong here).
        for i in 0..good.face_rank.len() {
            let x = good.face_rank[i];
            for bad in [x.wrapping_add(1), x.wrapping_sub(1), 255] {
                if bad == x {
                    continue;
                }
                let mut p = good.clone();
                p.face_rank[i] = bad;
                assert!(
                    FrozenMesh::from_parts(p).is_err(),
                    "face_rank[{i}] = {bad} (was {x}) accepted"
                );
                tried += 1;
            }
        }
        for grow in [false, true] {
            let mut p = good.clone();
            if grow {
                p.face_rank.push(0);
            } else {
                p.face_rank.pop();
            }
            assert!(FrozenMesh::from_parts(p).is_err(), "face_rank resized");
        }
    }
    assert!(tried > 1000, "{tried}");
    assert!(FrozenMesh::from_parts(FrozenParts::default()).is_err());
}

#[test]
fn random_hostile_arrays_never_panic() {
    let m = in_sweep_order(&build(shapes::icosahedron_grid(2)), None);
    let good = FrozenMesh::freeze(&m).unwrap().into_parts();
    let mut rng = Rng::new(77);
    for _ in 0..2000 {
        let mut p = good.clone();
        if rng.one_in(4) && !p.face_rank.is_empty() {
            let i = rng.below(p.face_rank.len());
            p.face_rank[i] = rng.below(256) as u8;
        }
        for _ in 0..1 + rng.below(4) {
            let a = rng.below(5);
            let v = &mut arrays(&mut p)[a];
            if v.is_empty() {
                continue;
            }
            let i = rng.below(v.len());
            v[i] = match rng.below(3) {
                0 => rng.below(v.len() + 2) as u32,
                1 => v[i] ^ (1 << rng.below(32)),
                _ => v[rng.below(v.len())],
            };
        }
        if let Ok(f) = FrozenMesh::from_parts(p) {
            // Whatever passed the check must answer and thaw without panicking.
            let _ = answers(&f);
            f.thaw().unwrap().check().unwrap();
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trip_and_hostile_files() {
    let m = in_sweep_order(&build(shapes::disk(9)), Some(&mut Rng::new(4)));
    let f = FrozenMesh::freeze(&m).unwrap();
    let json = serde_json::to_string(&f).unwrap();
    let back: FrozenMesh = serde_json::from_str(&json).unwrap();
    assert_eq!(back, f);
    // A destination pointing past the vertices: rejected on load, with the reason.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["dest"][0] = serde_json::Value::from(200u8);
    let err = serde_json::from_value::<FrozenMesh>(v).unwrap_err();
    assert!(err.to_string().contains("frozen mesh invariant"), "{err}");
    // A truncated byte array.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["face_corner"].as_array_mut().unwrap().pop();
    assert!(serde_json::from_value::<FrozenMesh>(v).is_err());
}

/// Many more edited meshes than the quick test (`cargo xtask stress`).
#[test]
#[ignore]
fn stress_frozen_matches_after_random_edits() {
    for seed in 0..2000 {
        let base = match seed % 3 {
            0 => build(shapes::icosahedron_grid(4 + seed as u32 % 5)),
            1 => build(shapes::disk(20 + seed as u32 % 40)),
            _ => build(shapes::strip(10 + seed as u32 % 30)),
        };
        let m = edited(base, 1000 + seed, 100 + 10 * (seed as usize % 50));
        let m = in_sweep_order(&m, Some(&mut Rng::new(seed)));
        let f = FrozenMesh::freeze(&m).unwrap();
        assert_eq!(answers(&f), answers(&m), "seed {seed}");
        assert_eq!(f.thaw().unwrap(), m, "seed {seed}");
        assert_eq!(FrozenMesh::from_parts(f.clone().into_parts()), Ok(f));
    }
}
