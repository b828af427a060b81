//! Topology of hand-built meshes, checked element by element, plus property tests of
//! construction.

use proptest::prelude::*;
use quadedge::{Edge, Face, Mesh, MeshError, Vertex, shapes};
use testkit::{Rng, build, ring, rings};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

fn f(i: u32) -> Face {
    Face::new(i)
}

#[test]
fn single_triangle() {
    let m = build((3, vec![[0, 1, 2]]));
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (3, 3, 1)
    );
    assert_eq!(m.face_vertices(f(0)), [v(0), v(1), v(2)]);
    assert_eq!(m.face_neighbors(f(0)), [Face::INVALID; 3]);
    let [e0, e1, e2] = m.face_edges(f(0));
    assert_eq!((m.origin(e0), m.dest(e0)), (v(0), v(1)));
    assert_eq!(m.left_next(e0), e1);
    assert_eq!(m.left_next(e1), e2);
    assert_eq!(m.left_prev(e0), e2);
    assert_eq!(m.left(e0), f(0));
    assert_eq!(m.right(e0), Face::INVALID);
    // Around the hole the right faces of the three edges form one loop, clockwise.
    assert_eq!(m.right_next(e0), e2);
    for x in 0..3 {
        assert!(m.is_boundary_vertex(v(x)));
        assert_eq!(m.degree(v(x)), 2);
    }
    assert_eq!(ring(&m, v(0)), [1, 2]);
    assert!(m.directed_edges().all(|e| m.is_boundary_edge(e)));
    assert_eq!(m.euler_characteristic(), 1);
    // The dual: one Voronoi corner, its dual edges lead into the hole.
    let d = e0.rot();
    assert!(d.is_dual());
    assert_eq!(m.dual_origin(d), Face::INVALID);
    assert_eq!(m.dual_dest(d), f(0));
    assert_eq!(m.dual_left(d), v(0));
    assert_eq!(m.dual_right(d), v(1));
    assert_eq!(m.face_dual_edges(f(0)).count(), 3);
}

#[test]
fn two_triangle_square() {
    let m = build((4, vec![[0, 1, 2], [0, 2, 3]]));
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (4, 5, 2)
    );
    assert_eq!(
        rings(&m),
        vec![vec![1, 2, 3], vec![0, 2], vec![0, 1, 3], vec![0, 2]]
    );
    let diag = m.find_edge(v(0), v(2)).unwrap();
    assert_eq!(m.left(diag), f(1));
    assert_eq!(m.right(diag), f(0));
    assert!(!m.is_boundary_edge(diag));
    assert_eq!(m.find_edge(v(1), v(3)), None);
    assert_eq!(m.face_neighbors(f(0)), [Face::INVALID, Face::INVALID, f(1)]);
    // The boundary vertex's outgoing edge starts its fan: hole on its right.
    let e = m.vertex_edge(v(0));
    assert_eq!(m.right(e), Face::INVALID);
    assert_eq!(m.dest(e), v(1));
    // Clockwise is counter-clockwise reversed.
    let ccw: Vec<Edge> = m.outgoing(v(0)).collect();
    let mut cw: Vec<Edge> = m.outgoing_cw(v(0)).collect();
    cw[1..].reverse();
    assert_eq!(ccw, cw);
    // Faces around the centre of the fan, in order.
    assert_eq!(m.vertex_faces(v(0)).collect::<Vec<_>>(), [f(0), f(1)]);
    // Navigation identities on every edge.
    for e in m.directed_edges() {
        assert_eq!(m.origin_prev(m.origin_next(e)), e);
        assert_eq!(m.dest(m.dest_next(e)), m.dest(e));
        assert_eq!(m.dest_prev(m.dest_next(e)), e);
        assert_eq!(m.right_prev(m.right_next(e)), e);
        assert_eq!(m.left_prev(m.left_next(e)), e);
    }
}

#[test]
fn tetrahedron() {
    let m = build(shapes::tetrahedron());
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (4, 6, 4)
    );
    assert!(m.is_closed());
    assert_eq!(
        rings(&m),
        vec![vec![1, 3, 2], vec![0, 2, 3], vec![0, 3, 1], vec![0, 1, 2]]
    );
    for face in m.faces() {
        let ns = m.face_neighbors(face);
        assert!(ns.iter().all(|n| n.is_valid() && *n != face));
        for (e, n) in m.face_edges(face).into_iter().zip(ns) {
            assert_eq!(m.left(e.sym()), n);
        }
    }
    insta::assert_snapshot!("tetrahedron", m.describe());
}

#[test]
fn octahedron_and_icosahedron() {
    let o = build(shapes::octahedron());
    assert_eq!(
        (o.vertex_count(), o.undirected_edge_count(), o.face_count()),
        (6, 12, 8)
    );
    assert!(o.vertices().all(|x| o.degree(x) == 4));
    assert_eq!(ring(&o, v(4)), [0, 2, 1, 3]);
    assert_eq!(ring(&o, v(5)), [0, 3, 1, 2]);
    insta::assert_snapshot!("octahedron", o.describe());

    let i = build(shapes::icosahedron());
    assert_eq!(
        (i.vertex_count(), i.undirected_edge_count(), i.face_count()),
        (12, 30, 20)
    );
    assert!(i.vertices().all(|x| i.degree(x) == 5));
    assert_eq!(ring(&i, v(0)), [1, 7, 10, 11, 5]);
    assert_eq!(i.euler_characteristic(), 2);
    // The Voronoi cell of each vertex has 5 corners; each dual face is a pentagon.
    assert!(i.vertices().all(|x| i.vertex_faces(x).count() == 5));
    insta::assert_snapshot!("icosahedron", i.describe());
}

#[test]
fn disk_fan_and_strip() {
    let d = build(shapes::disk(6));
    assert_eq!(ring(&d, v(0)), [1, 2, 3, 4, 5, 6]);
    assert!(!d.is_boundary_vertex(v(0)));
    for x in 1..=6 {
        assert!(d.is_boundary_vertex(v(x)));
        // A boundary vertex still yields all its neighbours: centre and both rim neighbours.
        let mut n = ring(&d, v(x));
        n.sort();
        let (p, q) = (1 + (x + 4) % 6, 1 + x % 6);
        let mut want = vec![0, p, q];
        want.sort();
        assert_eq!(n, want);
    }
    insta::assert_snapshot!("disk6", d.describe());

    let s = build(shapes::strip(4));
    assert_eq!(
        (s.vertex_count(), s.undirected_edge_count(), s.face_count()),
        (6, 9, 4)
    );
    assert_eq!(
        rings(&s),
        vec![
            vec![1, 2],
            vec![0, 2, 3],
            vec![0, 4, 3, 1],
            vec![1, 2, 4, 5],
            vec![2, 5, 3],
            vec![3, 4]
        ]
    );
    insta::assert_snapshot!("strip4", s.describe());
}

#[test]
fn add_face_covers_every_case_of_incremental_insertion() {
    let mut m = Mesh::new();
    let first = m.add_vertices(7).unwrap();
    assert_eq!(first, v(0));
    // Case 0: nothing exists.
    m.add_face(v(0), v(1), v(2)).unwrap();
    // Case 1: one shared edge (2 -> 1 is the sym of 1 -> 2).
    m.add_face(v(2), v(1), v(3)).unwrap();
    m.check().unwrap();
    // Two fans meeting at vertex 0: shares only a vertex.
    m.add_face(v(0), v(4), v(5)).unwrap();
    m.check().unwrap();
    assert_eq!(m.degree(v(0)), 4);
    // Case 1 again, next to the first fan.
    m.add_face(v(0), v(2), v(6)).unwrap();
    m.check().unwrap();
    // Case 2 at vertex 0: its two edges exist and the face closes the gap between the fans.
    m.add_face(v(0), v(6), v(4)).unwrap();
    m.check().unwrap();
    assert!(!m.is_boundary_vertex(v(0)) || m.degree(v(0)) == 5);
    assert_eq!(ring(&m, v(0)), [1, 2, 6, 4, 5]);
    m.add_face(v(6), v(2), v(3)).unwrap();
    m.check().unwrap();
    assert_eq!(m.face_count(), 6);

    // Three fans at one vertex (possible in a bulk build): a face joining two of them moves
    // the third fan into the remaining gap.
    let mut fans = Mesh::from_triangles(7, &[[0, 1, 2], [0, 3, 4], [0, 5, 6]]).unwrap();
    fans.check().unwrap();
    fans.add_face(v(0), v(2), v(5)).unwrap();
    fans.check().unwrap();
    let r = ring(&fans, v(0));
    let at = r.iter().position(|&x| x == 2).unwrap();
    assert_eq!(r[(at + 1) % r.len()], 5, "{r:?}");

    // Case 3 for real: a hole bounded by three existing edges.
    let sq = build(shapes::octahedron());
    let before = sq.clone();
    let (n, mut t) = shapes::octahedron();
    let last = t.pop().unwrap();
    let mut open = Mesh::from_triangles(n, &t).unwrap();
    assert!(!open.is_closed());
    let face = open.add_face(v(last[0]), v(last[1]), v(last[2])).unwrap();
    open.check().unwrap();
    assert!(open.is_closed());
    assert_eq!(face, f(7));
    assert_eq!(rings(&open), rings(&before));
    sq.check().unwrap();
}

#[test]
fn add_face_rejects_bad_input_and_leaves_the_mesh_unchanged() {
    let mut m = build((5, vec![[0, 1, 2]]));
    let snapshot = m.clone();
    let cases = [
        ((9, 1, 2), MeshError::DeadVertex(v(9))),
        ((0, 0, 2), MeshError::RepeatedVertex(v(0))),
        ((0, 2, 2), MeshError::RepeatedVertex(v(2))),
        ((1, 2, 0), MeshError::FaceExists(f(0))),
        (
            (0, 1, 3),
            MeshError::EdgeOccupied {
                from: v(0),
                to: v(1),
            },
        ),
        (
            (2, 0, 4),
            MeshError::EdgeOccupied {
                from: v(2),
                to: v(0),
            },
        ),
    ];
    for ((a, b, c), want) in cases {
        assert_eq!(m.add_face(v(a), v(b), v(c)), Err(want));
        assert_eq!(m, snapshot);
    }

    // A closed fan around 0 leaves no gap for a face that shares no edge there.
    let (n, t) = shapes::disk(4);
    let mut d = Mesh::from_triangles(n + 2, &t).unwrap();
    let snapshot = d.clone();
    assert_eq!(
        d.add_face(v(0), v(5), v(6)),
        Err(MeshError::NonManifoldVertex(v(0)))
    );
    assert_eq!(d, snapshot);

    // Two unconnected fans at 0 already: a third one is ambiguous.
    let mut a = Mesh::from_triangles(7, &[[0, 1, 2], [0, 3, 4]]).unwrap();
    a.check().unwrap();
    let snapshot = a.clone();
    assert_eq!(
        a.add_face(v(0), v(5), v(6)),
        Err(MeshError::AmbiguousFan(v(0)))
    );
    assert_eq!(a, snapshot);
    // Sharing an edge with one of them is fine.
    a.add_face(v(0), v(2), v(5)).unwrap();
    a.check().unwrap();
}

#[test]
fn from_triangles_rejects_bad_buffers() {
    assert_eq!(
        Mesh::from_triangles(3, &[[0, 1, 3]]).unwrap_err(),
        MeshError::IndexOutOfRange {
            triangle: 0,
            index: 3
        }
    );
    assert_eq!(
        Mesh::from_triangles(3, &[[0, 1, 1]]).unwrap_err(),
        MeshError::RepeatedVertex(v(1))
    );
    // The same directed edge twice: two faces on one side.
    assert!(matches!(
        Mesh::from_triangles(4, &[[0, 1, 2], [0, 1, 3]]).unwrap_err(),
        MeshError::EdgeOccupied { .. }
    ));
    assert!(matches!(
        Mesh::from_triangles(5, &[[0, 1, 2], [1, 0, 3], [0, 1, 4]]).unwrap_err(),
        MeshError::EdgeOccupied { .. }
    ));
    // Two tetrahedra glued at one vertex: that vertex is not a disk.
    let mut t = shapes::tetrahedron().1;
    t.extend(
        shapes::tetrahedron()
            .1
            .iter()
            .map(|tri| tri.map(|i| if i == 0 { 0 } else { i + 3 })),
    );
    assert_eq!(
        Mesh::from_triangles(7, &t).unwrap_err(),
        MeshError::NonManifoldVertex(v(0))
    );
}

#[test]
fn heap_bytes_of_a_closed_mesh_is_108_per_vertex() {
    let (n, t) = shapes::icosahedron_grid(20);
    let m = Mesh::from_triangles(n, &t).unwrap();
    let per_vertex = m.heap_bytes() as f64 / n as f64;
    assert!(per_vertex <= 108.0, "{per_vertex} bytes per vertex");
    assert!(per_vertex > 107.0, "{per_vertex} bytes per vertex");
}

#[test]
fn iterators_visit_every_live_element_once() {
    let (n, t) = shapes::icosahedron_grid(4);
    let m = Mesh::from_triangles(n, &t).unwrap();
    assert_eq!(m.vertices().count(), n);
    assert_eq!(m.faces().count(), t.len());
    assert_eq!(m.undirected_edges().count(), m.undirected_edge_count());
    assert_eq!(m.directed_edges().count(), 2 * m.undirected_edge_count());
    let total_degree: usize = m.vertices().map(|x| m.degree(x)).sum();
    assert_eq!(total_degree, 2 * m.undirected_edge_count());
    // Every face appears around each of its three corners.
    let corners: usize = m.vertices().map(|x| m.vertex_faces(x).count()).sum();
    assert_eq!(corners, 3 * m.face_count());
}

/// Faces given in a permuted order and each rotated, added one by one; faces rejected as
/// ambiguous (they touch several unconnected fans) are retried later, as they must be.
fn add_all(n: usize, tris: &[[u32; 3]]) -> Mesh {
    let mut m = Mesh::new();
    m.add_vertices(n).unwrap();
    let mut pending: Vec<[u32; 3]> = tris.to_vec();
    while !pending.is_empty() {
        let mut later = Vec::new();
        for t in pending.drain(..) {
            let before = m.clone();
            match m.add_face(v(t[0]), v(t[1]), v(t[2])) {
                Ok(_) => {}
                Err(MeshError::AmbiguousFan(_)) | Err(MeshError::NonManifoldVertex(_)) => {
                    assert_eq!(m, before, "a rejected add_face changed the mesh");
                    later.push(t);
                }
                Err(e) => panic!("unexpected {e:?}"),
            }
        }
        assert!(!later.is_empty() || m.face_count() == tris.len());
        pending = later;
    }
    m
}

/// The triangles permuted and each rotated, reproducibly from `seed`.
fn shuffled(tris: &[[u32; 3]], seed: u64) -> Vec<[u32; 3]> {
    let mut rng = Rng::new(seed);
    let mut t: Vec<[u32; 3]> = tris.to_vec();
    rng.shuffle(&mut t);
    for tri in &mut t {
        tri.rotate_left(rng.below(3));
    }
    t
}

proptest! {
    #![proptest_config(testkit::proptest_config(48))]

    #[test]
    fn closed_meshes_build_in_any_order(k in 1u32..4, which in 0usize..3, seed in any::<u64>()) {
        let (n, tris) = match which {
            0 => shapes::icosahedron_grid(k),
            1 => shapes::octahedron(),
            _ => shapes::tetrahedron(),
        };
        let order = shuffled(&tris, seed);
        let inc = add_all(n, &order);
        inc.check().unwrap();
        prop_assert_eq!(inc.euler_characteristic(), 2);
        prop_assert!(inc.is_closed());
        let bulk = Mesh::from_triangles(n, &order).unwrap();
        bulk.check().unwrap();
        prop_assert_eq!(rings(&inc), rings(&bulk));
        // Bulk construction does not depend on the order either.
        let bulk0 = Mesh::from_triangles(n, &tris).unwrap();
        prop_assert_eq!(rings(&bulk0), rings(&bulk));
    }

    #[test]
    fn open_meshes_build_in_any_order(rim in 3u32..12, len in 1u32..12, seed in any::<u64>()) {
        for (n, tris) in [shapes::disk(rim), shapes::strip(len)] {
            let order = shuffled(&tris, seed);
            let inc = add_all(n, &order);
            inc.check().unwrap();
            let bulk = Mesh::from_triangles(n, &order).unwrap();
            prop_assert_eq!(rings(&inc), rings(&bulk));
        }
    }

    #[test]
    fn rejected_faces_leave_the_mesh_identical(
        faces in proptest::collection::vec((0u32..14, 0u32..14, 0u32..14), 1..60)
    ) {
        let mut m = Mesh::new();
        m.add_vertices(12).unwrap();
        for (a, b, c) in faces {
            let before = m.clone();
            match m.add_face(v(a), v(b), v(c)) {
                Ok(face) => {
                    prop_assert_eq!(m.face_vertices(face), [v(a), v(b), v(c)]);
                }
                Err(_) => prop_assert_eq!(&m, &before),
            }
            m.check().unwrap();
        }
    }
}
