//! Spatial reordering: values stay attached, topology is kept, bad orders are rejected.

mod support;

use quadedge::{Change, Edge, Mesh, Remap, ReorderError, Vertex, shapes};
use support::{build, edited, meshes, permutation, triangle_set};
use testkit::Rng;

/// Moves a per-element array through one kind of a remap, as a layer does.
fn follow<T: Copy + Default>(values: &[T], map: &[u32]) -> Vec<T> {
    let live = map.iter().filter(|&&n| n != Remap::DEAD).count();
    let mut out = vec![T::default(); live];
    for (old, &new) in map.iter().enumerate() {
        if new != Remap::DEAD {
            out[new as usize] = values[old];
        }
    }
    out
}

/// Every query, with ids mapped through `remap`, must answer the same after reordering.
fn assert_same_topology(before: &Mesh, after: &Mesh, remap: &Remap) {
    after.check().unwrap();
    assert!(!after.has_holes());
    assert_eq!(after.vertex_count(), before.vertex_count());
    assert_eq!(after.face_count(), before.face_count());
    assert_eq!(
        after.undirected_edge_count(),
        before.undirected_edge_count()
    );
    let vmap = |v: Vertex| remap.vertex(v).unwrap();
    assert_eq!(
        triangle_set(before, |v| vmap(v).raw()),
        triangle_set(after, |v| v.raw())
    );
    for v in before.vertices() {
        let nv = vmap(v);
        let old: Vec<Vertex> = before.neighbors(v).map(vmap).collect();
        let new: Vec<Vertex> = after.neighbors(nv).collect();
        assert_eq!(old, new, "ring of {v:?}");
        let old_faces: Vec<_> = before
            .vertex_faces(v)
            .map(|f| remap.face(f).unwrap())
            .collect();
        assert_eq!(old_faces, after.vertex_faces(nv).collect::<Vec<_>>());
        assert_eq!(
            remap.edge(before.vertex_edge(v)).unwrap_or(Edge::INVALID),
            after.vertex_edge(nv)
        );
    }
    for f in before.faces() {
        let nf = remap.face(f).unwrap();
        assert_eq!(before.face_vertices(f).map(vmap), after.face_vertices(nf));
        assert_eq!(
            before.face_neighbors(f).map(|g| remap.face(g).unwrap_or(g)),
            after.face_neighbors(nf)
        );
    }
    for e in before.directed_edges() {
        let ne = remap.edge(e).unwrap();
        assert_eq!(vmap(before.origin(e)), after.origin(ne));
        assert_eq!(vmap(before.dest(e)), after.dest(ne));
        assert_eq!(
            remap.edge(before.origin_next(e)),
            Some(after.origin_next(ne))
        );
        let d = e.rot();
        let nd = remap.edge(d).unwrap();
        assert_eq!(
            remap.edge(before.origin_next(d)),
            Some(after.origin_next(nd))
        );
        assert_eq!(
            remap.face(before.left(e)),
            after.left(ne).is_valid().then(|| after.left(ne))
        );
    }
}

/// The order that sorts live vertices by a key, as a space-filling curve would.
fn live_order(m: &Mesh, rng: &mut Rng) -> Vec<u32> {
    let live: Vec<u32> = m.vertices().map(|v| v.raw()).collect();
    permutation(rng, live.len())
        .into_iter()
        .map(|i| live[i as usize])
        .collect()
}

#[test]
fn reorder_keeps_values_and_topology_on_every_mesh() {
    let mut rng = Rng::new(7);
    for (name, m) in meshes() {
        for _ in 0..3 {
            let order = live_order(&m, &mut rng);
            let heights: Vec<u32> = (0..m.vertex_slots() as u32).map(|i| 1000 + i).collect();
            let mut r = m.clone();
            let remap = r.reorder_vertices(&order).unwrap();
            assert_same_topology(&m, &r, &remap);
            // A vertex layer follows the remap: new vertex i holds the value of order[i].
            let moved = follow(&heights, &remap.vertices);
            for (new, &old) in order.iter().enumerate() {
                assert_eq!(moved[new], heights[old as usize], "{name}");
            }
            // A face layer keeps its values on the same triangles.
            let corners: Vec<[u32; 3]> = (0..m.face_slots() as u32)
                .map(|f| {
                    let f = quadedge::Face::new(f);
                    if m.is_face_alive(f) {
                        m.face_vertices(f).map(|v| v.raw())
                    } else {
                        [0; 3]
                    }
                })
                .collect();
            let moved = follow(&corners, &remap.faces);
            for f in r.faces() {
                let expected = r.face_vertices(f).map(|v| order[v.index()]);
                assert_eq!(moved[f.index()], expected, "{name}");
            }
        }
    }
}

#[test]
fn reorder_compacts_holes_and_logs_the_remap() {
    let m = edited(build(shapes::icosahedron_grid(5)), 11, 400);
    assert!(m.has_holes());
    let mut r = m.clone();
    let rec = r.record_changes().unwrap();
    let order = live_order(&m, &mut Rng::new(3));
    let remap = r.reorder_vertices(&order).unwrap();
    assert_same_topology(&m, &r, &remap);
    assert_eq!(remap.vertices.len(), m.vertex_slots());
    assert_eq!(remap.faces.len(), m.face_slots());
    assert_eq!(remap.quads.len(), m.quad_slots());
    assert_eq!(r.vertex_slots(), m.vertex_count());
    assert_eq!(r.quad_slots(), m.undirected_edge_count());
    assert_eq!(r.stop_recording(rec).unwrap(), [Change::Compact(remap)]);
}

#[test]
fn reordering_again_in_the_identity_order_changes_nothing() {
    let mut rng = Rng::new(5);
    for (name, m) in meshes() {
        let mut r = m.clone();
        r.reorder_vertices(&live_order(&m, &mut rng)).unwrap();
        let identity: Vec<u32> = (0..r.vertex_count() as u32).collect();
        let mut again = r.clone();
        let remap = again.reorder_vertices(&identity).unwrap();
        assert_eq!(again, r, "{name}");
        for map in [&remap.vertices, &remap.faces, &remap.quads] {
            assert!(
                map.iter().enumerate().all(|(i, &n)| n == i as u32),
                "{name}"
            );
        }
    }
}

#[test]
fn quad_edges_and_faces_follow_the_vertex_order() {
    // First visits in a sweep of the new vertex order are 0, 1, 2, ... for both kinds.
    let m = build(shapes::icosahedron_grid(6));
    let mut r = m.clone();
    r.reorder_vertices(&live_order(&m, &mut Rng::new(1)))
        .unwrap();
    let (mut next_q, mut next_f) = (0usize, 0usize);
    for v in r.vertices() {
        for e in r.outgoing(v) {
            if e.quad() >= next_q {
                assert_eq!(e.quad(), next_q);
                next_q += 1;
            }
            let f = r.left(e);
            if f.index() >= next_f {
                assert_eq!(f.index(), next_f);
                next_f += 1;
            }
        }
    }
    assert_eq!(
        (next_q, next_f),
        (r.undirected_edge_count(), r.face_count())
    );
}

#[test]
fn bad_orders_are_typed_errors_and_change_nothing() {
    let mut m = edited(build(shapes::icosahedron_grid(3)), 4, 100);
    let spare = m.add_vertex();
    m.remove_vertex(spare).unwrap();
    let dead = spare.raw();
    let live: Vec<u32> = m.vertices().map(|v| v.raw()).collect();
    let before = m.clone();
    let rec = m.record_changes().unwrap();
    let n = live.len();
    let cases: Vec<(Vec<u32>, ReorderError)> = vec![
        (
            live[..n - 1].to_vec(),
            ReorderError::WrongLength {
                expected: n,
                got: n - 1,
            },
        ),
        (
            [live.clone(), vec![live[0]]].concat(),
            ReorderError::WrongLength {
                expected: n,
                got: n + 1,
            },
        ),
        (
            vec![],
            ReorderError::WrongLength {
                expected: n,
                got: 0,
            },
        ),
        (
            [&live[..n - 1], &[live[3]]].concat(),
            ReorderError::RepeatedVertex(Vertex::new(live[3])),
        ),
        (
            [&live[..n - 1], &[dead]].concat(),
            ReorderError::DeadVertex(Vertex::new(dead)),
        ),
        (
            [&live[..n - 1], &[m.vertex_slots() as u32]].concat(),
            ReorderError::DeadVertex(Vertex::new(m.vertex_slots() as u32)),
        ),
        (
            [&live[..n - 1], &[u32::MAX]].concat(),
            ReorderError::DeadVertex(Vertex::INVALID),
        ),
    ];
    for (order, err) in cases {
        assert_eq!(m.reorder_vertices(&order), Err(err.clone()));
        assert!(!err.to_string().is_empty());
        assert_eq!(m, before);
    }
    assert_eq!(m.stop_recording(rec).unwrap(), []);
}

#[test]
fn isolated_vertices_and_empty_meshes_reorder() {
    let mut m = Mesh::new();
    assert_eq!(m.reorder_vertices(&[]), Ok(Remap::default()));
    let mut m2 = build(shapes::disk(5));
    m2.add_vertices(2).unwrap();
    let before = m2.clone();
    let order: Vec<u32> = (0..m2.vertex_count() as u32).rev().collect();
    let remap = m2.reorder_vertices(&order).unwrap();
    assert_same_topology(&before, &m2, &remap);
    assert!(!m2.vertex_edge(Vertex::new(0)).is_valid());
    assert!(!m2.vertex_edge(Vertex::new(1)).is_valid());
    m.check().unwrap();
}

#[test]
fn random_edits_and_reorders_keep_the_mesh_valid() {
    let mut m = build(shapes::icosahedron_grid(4));
    let mut rng = Rng::new(99);
    for round in 0..8 {
        m = edited(m, round, 60);
        let before = m.clone();
        let remap = m.reorder_vertices(&live_order(&before, &mut rng)).unwrap();
        assert_same_topology(&before, &m, &remap);
    }
}

/// Long random sequences of edits and reorders (`cargo xtask stress`).
#[test]
#[ignore]
fn stress_random_edits_and_reorders() {
    for seed in 0..400 {
        let mut m = build(shapes::icosahedron_grid(3 + seed as u32 % 4));
        let mut rng = Rng::new(seed);
        for round in 0..25 {
            m = edited(m, seed * 1000 + round, 40);
            let before = m.clone();
            let remap = m.reorder_vertices(&live_order(&before, &mut rng)).unwrap();
            assert_same_topology(&before, &m, &remap);
        }
    }
}
