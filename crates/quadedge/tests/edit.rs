//! Edits: flip, split, collapse, face removal, id reuse and compaction. Exact topology on small
//! meshes (with snapshots of `describe()`) and journal records. The model-based property test
//! is in `edit_model.rs`.

use quadedge::{Change, Edge, Face, MeshError, shapes};
use testkit::{assert_rejected, build, corners, ring};

mod small;
use small::{edge, f, square, v};

// ---------------------------------------------------------------- flip

#[test]
fn flip_square() {
    let mut m = square();
    let rec = m.record_changes().unwrap();
    let e = edge(&m, 0, 2);
    let r = m.flip(e).unwrap();
    m.check().unwrap();
    assert_eq!(r, e);
    assert_eq!((m.origin(r), m.dest(r)), (v(1), v(3)));
    // The old left face (0, 2, 3) is (1, 3, 0) now, the old right one (0, 1, 2) is (3, 1, 2).
    assert_eq!((m.left(r), m.right(r)), (f(1), f(0)));
    assert_eq!(corners(&m, f(1)), [0, 1, 3]);
    assert_eq!(corners(&m, f(0)), [1, 2, 3]);
    assert_eq!(ring(&m, v(0)), [1, 3]);
    assert_eq!(ring(&m, v(1)), [0, 2, 3]);
    assert_eq!(ring(&m, v(2)), [1, 3]);
    assert_eq!(ring(&m, v(3)), [0, 1, 2]);
    assert_eq!(
        m.take_changes(&rec).unwrap(),
        [Change::Flip(quadedge::FlipRecord {
            edge: e,
            old: [v(0), v(2)],
            new: [v(1), v(3)],
            faces: [f(1), f(0)],
        })]
    );
    insta::assert_snapshot!("flip_square", m.describe());
    // Flipping again rotates on: the original diagonal comes back reversed, with the two
    // faces swapped.
    let r2 = m.flip(r).unwrap();
    m.check().unwrap();
    assert_eq!(r2, e);
    assert_eq!((m.origin(r2), m.dest(r2)), (v(2), v(0)));
    assert_eq!(ring(&m, v(0)), [1, 2, 3]);
    assert_eq!(corners(&m, f(1)), [0, 1, 2]);
    assert_eq!(corners(&m, f(0)), [0, 2, 3]);
}

#[test]
fn flip_accepts_all_four_edges_of_the_quad_edge() {
    let base = square();
    let e = edge(&base, 0, 2);
    for x in [e, e.rot(), e.sym(), e.inv_rot()] {
        let mut m = base.clone();
        let r = m.flip(x).unwrap();
        m.check().unwrap();
        assert_eq!(r.quad(), e.quad());
        assert!(r.is_primal());
        let ends = [m.origin(r).raw(), m.dest(r).raw()];
        assert!(ends == [1, 3] || ends == [3, 1], "{ends:?}");
        assert!(m.find_edge(v(0), v(2)).is_none());
    }
}

#[test]
fn flip_rejections_change_nothing() {
    let m = square();
    let b = edge(&m, 0, 1);
    assert_rejected(&m, MeshError::BoundaryEdge(b), |m| m.flip(b));
    assert_rejected(&m, MeshError::BoundaryEdge(b.rot()), |m| m.flip(b.rot()));
    let dead = Edge::primal(1000);
    assert_rejected(&m, MeshError::DeadEdge(dead), |m| m.flip(dead));
    assert_rejected(&m, MeshError::DeadEdge(Edge::INVALID), |m| {
        m.flip(Edge::INVALID)
    });
    // Every edge of a tetrahedron: the opposite corners are already connected.
    let t = build(shapes::tetrahedron());
    for e in t.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&t, MeshError::FlipWouldDuplicate(e), |m| m.flip(e));
    }
}

#[test]
fn flip_octahedron() {
    let mut m = build(shapes::octahedron());
    let e = edge(&m, 0, 2);
    let r = m.flip(e).unwrap();
    m.check().unwrap();
    assert_eq!((m.origin(r), m.dest(r)), (v(5), v(4)));
    assert_eq!(m.degree(v(0)), 3);
    assert_eq!(m.degree(v(2)), 3);
    assert_eq!(m.degree(v(4)), 5);
    assert_eq!(m.degree(v(5)), 5);
    assert_eq!(m.euler_characteristic(), 2);
    insta::assert_snapshot!("flip_octahedron", m.describe());
}

// ---------------------------------------------------------------- split

#[test]
fn split_interior_edge() {
    let mut m = square();
    let rec = m.record_changes().unwrap();
    let e = edge(&m, 0, 2);
    let r = m.split(e, 0.25).unwrap();
    m.check().unwrap();
    let x = v(4);
    assert_eq!(r.vertex, x);
    assert_eq!((r.origin, r.dest, r.t), (v(0), v(2), 0.25));
    assert_eq!(r.edge, e);
    assert_eq!((m.origin(r.edge), m.dest(r.edge)), (v(0), x));
    assert_eq!((m.origin(r.new_edge), m.dest(r.new_edge)), (x, v(2)));
    assert_eq!(r.new_edge, Edge::of_quad(5));
    let [cl, cr] = r.cross_edges;
    assert_eq!((m.origin(cl), m.dest(cl)), (x, v(3)));
    assert_eq!((m.origin(cr), m.dest(cr)), (x, v(1)));
    assert_eq!(r.faces, [(f(2), f(1)), (f(3), f(0))]);
    assert_eq!(corners(&m, f(0)), [0, 1, 4]);
    assert_eq!(corners(&m, f(1)), [0, 4, 3]);
    assert_eq!(corners(&m, f(2)), [2, 3, 4]);
    assert_eq!(corners(&m, f(3)), [1, 2, 4]);
    assert_eq!(ring(&m, x), [0, 1, 2, 3]);
    assert_eq!(ring(&m, v(0)), [1, 4, 3]);
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (5, 8, 4)
    );
    assert_eq!(m.take_changes(&rec).unwrap(), [Change::Split(r)]);
    insta::assert_snapshot!("split_interior", m.describe());
}

#[test]
fn split_boundary_edge_both_sides() {
    // Hole on the right.
    let mut m = square();
    let r = m.split(edge(&m, 0, 1), 0.5).unwrap();
    m.check().unwrap();
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (5, 7, 3)
    );
    assert_eq!(r.cross_edges[1], Edge::INVALID);
    assert_eq!(r.faces, [(f(2), f(0)), (Face::INVALID, Face::INVALID)]);
    assert_eq!(m.dest(r.cross_edges[0]), v(2));
    assert!(m.is_boundary_vertex(r.vertex));
    assert_eq!(ring(&m, r.vertex), [0, 1, 2]);
    insta::assert_snapshot!("split_boundary_right_hole", m.describe());
    // Hole on the left.
    let mut m = square();
    let r = m.split(edge(&m, 1, 0), 0.5).unwrap();
    m.check().unwrap();
    assert_eq!(r.cross_edges[0], Edge::INVALID);
    assert_eq!(r.faces, [(Face::INVALID, Face::INVALID), (f(2), f(0))]);
    assert_eq!(m.dest(r.cross_edges[1]), v(2));
    assert_eq!((m.origin(r.edge), m.dest(r.edge)), (v(1), r.vertex));
    assert_eq!((m.origin(r.new_edge), m.dest(r.new_edge)), (r.vertex, v(0)));
    assert_eq!(ring(&m, r.vertex), [0, 1, 2]);
}

#[test]
fn split_single_triangle_and_closed_meshes() {
    let mut m = build((3, vec![[0, 1, 2]]));
    for _ in 0..5 {
        let e = m.undirected_edges().next().unwrap();
        m.split(e, 1.0).unwrap();
        m.check().unwrap();
    }
    assert_eq!(m.face_count(), 6);
    for shape in [shapes::tetrahedron(), shapes::icosahedron()] {
        let mut m = build(shape);
        let es: Vec<Edge> = m.undirected_edges().collect();
        for e in es {
            m.split(e, 0.0).unwrap();
            m.check().unwrap();
            assert_eq!(m.euler_characteristic(), 2);
        }
    }
}

#[test]
fn split_rejections_change_nothing() {
    let m = square();
    let e = edge(&m, 0, 2);
    for t in [-0.1, 1.01, f32::NAN, f32::INFINITY] {
        assert_rejected(&m, MeshError::BadWeight, |m| m.split(e, t));
    }
    assert_rejected(&m, MeshError::WrongEdgeKind(e.rot()), |m| {
        m.split(e.rot(), 0.5)
    });
    let dead = Edge::primal(99);
    assert_rejected(&m, MeshError::DeadEdge(dead), |m| m.split(dead, 0.5));
}

// ---------------------------------------------------------------- collapse

#[test]
fn collapse_octahedron_edge() {
    let mut m = build(shapes::octahedron());
    let rec = m.record_changes().unwrap();
    let e = edge(&m, 0, 2);
    let (fl, fr) = (m.left(e), m.right(e));
    let r = m.collapse(e, 0.5).unwrap();
    m.check().unwrap();
    assert_eq!(
        (r.origin, r.dest, r.survivor, r.removed),
        (v(0), v(2), v(0), v(2))
    );
    assert_eq!(r.removed_faces, [fl, fr]);
    assert_eq!(r.removed_edges[0], e.base());
    assert!(r.removed_edges.iter().all(|q| !m.is_edge_alive(*q)));
    assert!(!m.is_vertex_alive(v(2)));
    assert_eq!(ring(&m, v(0)), [1, 4, 3, 5]);
    assert_eq!(ring(&m, v(4)), [0, 1, 3]);
    assert_eq!(ring(&m, v(5)), [0, 3, 1]);
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (5, 9, 6)
    );
    assert_eq!(m.euler_characteristic(), 2);
    assert_eq!(m.take_changes(&rec).unwrap(), [Change::Collapse(r)]);
    insta::assert_snapshot!("collapse_octahedron", m.describe());
    // The octahedron minus one vertex is a double pyramid over the triangle (v0, v1, v3) with
    // apexes v4 and v5. Equator edges have three common neighbours: rejected.
    for (a, b) in [(0, 1), (1, 3), (3, 0)] {
        let e = edge(&m, a, b);
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
    // An apex into the equator leaves a tetrahedron, which cannot collapse further.
    m.collapse(edge(&m, 4, 0), 0.0).unwrap();
    m.check().unwrap();
    assert_eq!(m.vertex_count(), 4);
    for e in m.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
}

#[test]
fn collapse_every_edge_of_a_tetrahedron_is_rejected() {
    let m = build(shapes::tetrahedron());
    for e in m.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
}

#[test]
fn collapse_on_a_disk() {
    // Centre 0, rim 1..=6.
    let base = build(shapes::disk(6));
    // A spoke: centre into rim vertex; the rim vertex is boundary, the centre is not.
    let mut m = base.clone();
    let r = m.collapse(edge(&m, 0, 1), 0.0).unwrap();
    m.check().unwrap();
    assert_eq!((r.survivor, r.removed), (v(0), v(1)));
    assert_eq!(ring(&m, v(0)), [2, 3, 4, 5, 6]);
    assert!(m.is_boundary_vertex(v(0)));
    insta::assert_snapshot!("collapse_disk_spoke", m.describe());
    // Now 0 and the rim are all boundary: interior edges between them are rejected.
    let e = edge(&m, 0, 4);
    assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
        m.collapse(e, 0.5)
    });

    // A rim edge (boundary): both endpoints boundary, edge boundary too.
    let mut m = base.clone();
    let e = edge(&m, 1, 2);
    assert!(m.is_boundary_edge(e));
    let r = m.collapse(e, 1.0).unwrap();
    m.check().unwrap();
    assert_eq!(r.removed_faces[1], Face::INVALID);
    assert_eq!(r.removed_edges[2], Edge::INVALID);
    assert_eq!(ring(&m, v(1)), [0, 6, 3]);
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (6, 10, 5)
    );
    insta::assert_snapshot!("collapse_disk_rim", m.describe());
    // The same rim edge from the other side (hole on the left).
    let mut m = base.clone();
    let r = m.collapse(edge(&m, 2, 1), 1.0).unwrap();
    m.check().unwrap();
    assert_eq!(r.removed_faces[0], Face::INVALID);
    assert_eq!(r.removed_edges[1], Edge::INVALID);
    assert_eq!(ring(&m, v(2)), [0, 6, 3]);
    // The centre into a rim vertex from the rim: the survivor is the rim vertex.
    let mut m = base.clone();
    let r = m.collapse(edge(&m, 3, 0), 0.5).unwrap();
    m.check().unwrap();
    assert_eq!(r.survivor, v(3));
    assert_eq!(ring(&m, v(3)), [1, 2, 4, 5, 6]);
}

#[test]
fn collapse_boundary_special_cases() {
    // A single triangle: every edge is an ear.
    let m = build((3, vec![[0, 1, 2]]));
    for e in m.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
    // The square: the diagonal joins two boundary vertices; the rim edges are fine.
    let m = square();
    let e = edge(&m, 0, 2);
    assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
        m.collapse(e, 0.5)
    });
    let mut c = m.clone();
    c.collapse(edge(&m, 0, 1), 0.5).unwrap();
    c.check().unwrap();
    assert_eq!(
        (c.vertex_count(), c.undirected_edge_count(), c.face_count()),
        (3, 3, 1)
    );
    insta::assert_snapshot!("collapse_square_rim", c.describe());
    // What is left is an ear everywhere.
    for e in c.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&c, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
    // A fan of three triangles: the first rim edge collapses into the fan's centre.
    let m = build((5, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]));
    let e = edge(&m, 0, 1);
    let mut c = m.clone();
    c.collapse(e, 0.5).unwrap();
    c.check().unwrap();
    assert_eq!(ring(&c, v(0)), [2, 3, 4]);
    assert_rejected(&m, MeshError::BadWeight, |m| m.collapse(e, 2.0));
    assert_rejected(&m, MeshError::WrongEdgeKind(e.rot()), |m| {
        m.collapse(e.rot(), 0.5)
    });
}

#[test]
fn collapse_next_to_a_triangular_hole_is_rejected() {
    // An octahedron without one face: the hole (0, 2, 4) is a triangle; collapsing one of its
    // edges would pinch it into a dangling edge.
    let mut m = build(shapes::octahedron());
    m.remove_face(f(0)).unwrap();
    m.check().unwrap();
    for (a, b) in [(0, 2), (2, 4), (4, 0)] {
        for e in [edge(&m, a, b), edge(&m, b, a)] {
            assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
                m.collapse(e, 0.5)
            });
        }
    }
    // An interior edge from a hole vertex is fine.
    let mut c = m.clone();
    c.collapse(edge(&m, 1, 2), 0.5).unwrap();
    c.check().unwrap();
}

// ---------------------------------------------------------------- removal and reuse
