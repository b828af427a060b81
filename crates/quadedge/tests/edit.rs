//! Edits: flip, split, collapse, face removal, id reuse and compaction. Exact topology on small
//! meshes (with snapshots of `describe()`) and journal records. The model-based property test
//! is in `edit_model.rs`.

use quadedge::{Change, Edge, Face, Mesh, MeshError, Remap, Vertex, shapes};
use testkit::{Rng, assert_rejected, build, corners, ring};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

fn f(i: u32) -> Face {
    Face::new(i)
}

fn square() -> Mesh {
    build((4, vec![[0, 1, 2], [0, 2, 3]]))
}

fn edge(m: &Mesh, a: u32, b: u32) -> Edge {
    m.find_edge(v(a), v(b))
        .unwrap_or_else(|| panic!("no edge v{a}->v{b}"))
}

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

#[test]
fn remove_face_then_reuse_ids() {
    let mut m = square();
    let rec = m.record_changes().unwrap();
    m.remove_face(f(0)).unwrap();
    m.check().unwrap();
    assert!(!m.is_face_alive(f(0)));
    assert_eq!(m.faces().collect::<Vec<_>>(), [f(1)]);
    assert_eq!(m.degree(v(1)), 0);
    assert_eq!(ring(&m, v(0)), [2, 3]);
    let changes = m.take_changes(&rec).unwrap();
    assert_eq!(changes[0], Change::FaceRemoved(f(0)));
    assert_eq!(changes.len(), 3);
    insta::assert_snapshot!("remove_face_square", m.describe());
    // Removing the last face removes everything but the vertices.
    let mut c = m.clone();
    c.remove_face(f(1)).unwrap();
    c.check().unwrap();
    assert_eq!(
        (c.vertex_count(), c.undirected_edge_count(), c.face_count()),
        (4, 0, 0)
    );
    assert!(c.vertices().all(|x| c.degree(x) == 0));
    // Re-adding the face takes the freed ids, last freed first.
    let g = m.add_face(v(0), v(1), v(2)).unwrap();
    m.check().unwrap();
    assert_eq!(g, f(0));
    assert!(!m.has_holes());
    assert_eq!(m.quad_slots(), 5);
    // A split reuses ids as well.
    let mut m = build(shapes::octahedron());
    let r = m.collapse(edge(&m, 0, 2), 0.5).unwrap();
    let s = m.split(edge(&m, 0, 4), 0.5).unwrap();
    m.check().unwrap();
    assert_eq!(s.vertex, r.removed);
    let mut reused: Vec<Edge> = [s.new_edge, s.cross_edges[0], s.cross_edges[1]].to_vec();
    reused.sort();
    let mut freed = r.removed_edges.to_vec();
    freed.sort();
    assert_eq!(reused, freed);
    let mut nf = [s.faces[0].0, s.faces[1].0];
    nf.sort();
    assert_eq!(nf, r.removed_faces);
    assert!(!m.has_holes());
}

#[test]
fn remove_face_rejections_and_vertices() {
    let m = square();
    assert_rejected(&m, MeshError::DeadFace(f(7)), |m| m.remove_face(f(7)));
    assert_rejected(&m, MeshError::VertexInUse(v(0)), |m| m.remove_vertex(v(0)));
    let mut c = m.clone();
    c.remove_face(f(0)).unwrap();
    assert_rejected(&c, MeshError::DeadFace(f(0)), |m| m.remove_face(f(0)));
    c.remove_vertex(v(1)).unwrap();
    c.check().unwrap();
    assert_rejected(&c, MeshError::DeadVertex(v(1)), |m| m.remove_vertex(v(1)));
    assert_eq!(c.add_vertex(), v(1));
}

#[test]
fn remove_face_can_leave_a_bowtie() {
    // Hexagonal disk: remove two opposite faces, the centre keeps two fans.
    let mut m = build(shapes::disk(6));
    m.remove_face(f(0)).unwrap();
    m.remove_face(f(3)).unwrap();
    m.check().unwrap();
    assert_eq!(m.face_count(), 4);
    assert_eq!(m.vertex_faces(v(0)).count(), 4);
    insta::assert_snapshot!("remove_face_bowtie", m.describe());
}

// ---------------------------------------------------------------- compact

#[test]
fn compact_renumbers_in_order() {
    let mut m = build(shapes::icosahedron());
    let rec = m.record_changes().unwrap();
    m.collapse(edge(&m, 0, 5), 0.5).unwrap();
    m.remove_face(f(10)).unwrap();
    let before = m.clone();
    let r = m.compact();
    m.check().unwrap();
    assert!(!m.has_holes());
    assert_eq!(m.vertex_slots(), m.vertex_count());
    assert_eq!(m.face_slots(), m.face_count());
    assert_eq!(m.quad_slots(), m.undirected_edge_count());
    assert_eq!(r.vertex_count(), 11);
    assert_eq!(r.vertices[5], Remap::DEAD);
    assert_eq!(r.vertices[6], 5);
    assert_eq!(
        m.take_changes(&rec).unwrap().last(),
        Some(&Change::Compact(r.clone()))
    );
    // Same topology under the remap.
    for x in before.vertices() {
        let nx = r.vertex(x).unwrap();
        let mut a: Vec<Vertex> = before.neighbors(x).map(|n| r.vertex(n).unwrap()).collect();
        let mut b: Vec<Vertex> = m.neighbors(nx).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
    for x in before.faces() {
        let nx = r.face(x).unwrap();
        assert_eq!(
            before.face_vertices(x).map(|c| r.vertex(c).unwrap()),
            m.face_vertices(nx)
        );
    }
    for e in before.directed_edges() {
        let ne = r.edge(e).unwrap();
        assert_eq!(r.vertex(before.origin(e)), Some(m.origin(ne)));
        assert_eq!(before.left(e).is_valid(), m.left(ne).is_valid());
    }
    insta::assert_snapshot!("compact_icosahedron", m.describe());
    // Compacting again is the identity.
    let again = m.clone();
    let r2 = m.compact();
    assert_eq!(m, again);
    assert!(r2.vertices.iter().enumerate().all(|(i, &n)| n == i as u32));
}

// ---------------------------------------------------------------- iteration at scale

#[test]
fn iteration_after_thousands_of_edits_visits_every_live_element_once() {
    let (n, t) = shapes::icosahedron_grid(32); // 10 242 vertices
    let mut m = build((n, t));
    let mut rng = Rng::new(12345);
    let mut done = 0;
    while done < 6000 {
        let q = rng.below(m.quad_slots()) as u32;
        let e = Edge::of_quad(q);
        let ok = match rng.below(3) {
            0 => m.flip(e).is_ok(),
            1 => m.split(e, 0.5).is_ok(),
            _ => m.collapse(e, 0.5).is_ok(),
        };
        done += ok as usize;
    }
    m.check().unwrap();
    assert!(m.has_holes());
    let vs: Vec<Vertex> = m.vertices().collect();
    assert_eq!(vs.len(), m.vertex_count());
    assert!(vs.windows(2).all(|w| w[0] < w[1]));
    assert!(vs.iter().all(|&x| m.is_vertex_alive(x)));
    let fs: Vec<Face> = m.faces().collect();
    assert_eq!(fs.len(), m.face_count());
    assert!(fs.windows(2).all(|w| w[0] < w[1]));
    assert!(fs.iter().all(|&x| m.is_face_alive(x)));
    let qs: Vec<Edge> = m.undirected_edges().collect();
    assert_eq!(qs.len(), m.undirected_edge_count());
    assert!(qs.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(m.directed_edges().count(), 2 * m.undirected_edge_count());
    // Every live edge appears in exactly one vertex ring, every face in three.
    let mut seen = vec![0u8; 2 * m.quad_slots()];
    let mut face_seen = vec![0u8; m.face_slots()];
    for &x in &vs {
        for e in m.outgoing(x) {
            seen[e.index()] += 1;
        }
        for g in m.vertex_faces(x) {
            face_seen[g.index()] += 1;
        }
    }
    for e in m.directed_edges() {
        assert_eq!(seen[e.index()], 1);
    }
    assert_eq!(
        seen.iter().map(|&c| c as usize).sum::<usize>(),
        2 * m.undirected_edge_count()
    );
    for &g in &fs {
        assert_eq!(face_seen[g.index()], 3);
    }
    assert_eq!(m.euler_characteristic(), 2);
}

#[test]
fn degenerate_pillow_is_handled_without_panics() {
    // Two triangles glued along all three edges: the opposite corners of every edge coincide.
    let m = build((3, vec![[0, 1, 2], [0, 2, 1]]));
    for e in m.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&m, MeshError::FlipWouldDuplicate(e), |m| m.flip(e));
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
}
