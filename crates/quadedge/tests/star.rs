//! Star edits: `split_face` (1-to-3) and `dissolve_vertex` (3-to-1). Exact topology on small
//! meshes, rejections that change nothing, journal records, and split/dissolve round trips.

use quadedge::{Change, DissolveRecord, Edge, Face, FaceSplitRecord, MeshError, Vertex, shapes};
use testkit::{assert_rejected, build, ring};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

fn f(i: u32) -> Face {
    Face::new(i)
}

#[test]
fn split_face_of_a_tetrahedron_exact_topology() {
    let mut m = build(shapes::tetrahedron());
    // Face 0 is [0, 2, 1].
    assert_eq!(m.face_vertices(f(0)), [v(0), v(2), v(1)]);
    let rec = m.record_changes().unwrap();
    let r = m.split_face(f(0), [0.2, 0.3, 0.5]).unwrap();
    m.check().unwrap();
    let x = v(4);
    assert_eq!(
        r,
        FaceSplitRecord {
            face: f(0),
            corners: [v(0), v(2), v(1)],
            weights: [0.2, 0.3, 0.5],
            vertex: x,
            spokes: [Edge::primal(12), Edge::primal(14), Edge::primal(16)],
            faces: [f(0), f(4), f(5)],
        }
    );
    assert_eq!(m.take_changes(&rec).unwrap(), vec![Change::FaceSplit(r)]);
    for (i, s) in r.spokes.iter().enumerate() {
        assert_eq!((m.origin(*s), m.dest(*s)), (x, r.corners[i]));
        assert_eq!(m.left(*s), r.faces[i]);
        assert_eq!(m.right(*s), r.faces[(i + 2) % 3]);
    }
    let rotated = |x: Face| {
        let vs = m.face_vertices(x);
        let k = (0..3).find(|&i| vs[i] == v(4)).unwrap();
        [vs[k], vs[(k + 1) % 3], vs[(k + 2) % 3]]
    };
    assert_eq!(rotated(f(0)), [v(4), v(0), v(2)]);
    assert_eq!(rotated(f(4)), [v(4), v(2), v(1)]);
    assert_eq!(rotated(f(5)), [v(4), v(1), v(0)]);
    assert_eq!(ring(&m, x), [0, 2, 1]);
    assert_eq!(ring(&m, v(0)), [1, 3, 2, 4]);
    assert_eq!(ring(&m, v(1)), [0, 4, 2, 3]);
    assert_eq!(ring(&m, v(2)), [0, 3, 1, 4]);
    assert_eq!(ring(&m, v(3)), [0, 1, 2]);
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (5, 9, 6)
    );
    assert!(m.is_closed());
    assert_eq!(m.euler_characteristic(), 2);
    // The new vertex's Voronoi cell has three corners, the faces around it.
    let mut around: Vec<Face> = m.vertex_faces(x).collect();
    around.sort();
    assert_eq!(around, [f(0), f(4), f(5)]);
}

#[test]
fn split_face_takes_ids_from_the_free_lists_in_the_documented_order() {
    let mut m = build(shapes::octahedron());
    // Make room: a split then a collapse leave a vertex, three quads and two faces free.
    let e = m.find_edge(v(0), v(2)).unwrap();
    let s = m.split(e, 0.5).unwrap();
    m.collapse(s.new_edge.sym(), 0.0).unwrap();
    m.check().unwrap();
    let free_before = (m.vertex_slots(), m.quad_slots(), m.face_slots());
    let target = m.faces().next().unwrap();
    let r = m.split_face(target, [1.0, 0.0, 0.0]).unwrap();
    m.check().unwrap();
    // Nothing appended: every id came from a free list.
    assert_eq!(
        (m.vertex_slots(), m.quad_slots(), m.face_slots()),
        free_before
    );
    assert!(!m.has_holes());
    assert!(r.spokes.iter().all(|s| s.is_primal() && s.is_even()));
    assert_eq!(r.faces[0], target);
}

#[test]
fn split_face_rejections_change_nothing() {
    let m = build(shapes::octahedron());
    for bad in [
        [f32::NAN, 0.5, 0.5],
        [f32::INFINITY, 0.0, 0.0],
        [-0.1, 0.6, 0.5],
        [1.1, -0.1, 0.0],
        [0.3, 0.3, 0.3],
        [0.5, 0.5, 0.5],
        [0.0, 0.0, 0.0],
    ] {
        assert_rejected(&m, MeshError::BadWeight, |m| m.split_face(f(0), bad));
    }
    for dead in [f(8), f(1000), Face::INVALID] {
        assert_rejected(&m, MeshError::DeadFace(dead), |m| {
            m.split_face(dead, [0.4, 0.3, 0.3])
        });
    }
    let mut holed = m.clone();
    holed.remove_face(f(3)).unwrap();
    assert_rejected(&holed, MeshError::DeadFace(f(3)), |m| {
        m.split_face(f(3), [0.4, 0.3, 0.3])
    });
    // Weights off by less than the tolerance are accepted.
    let mut ok = m.clone();
    ok.split_face(f(0), [0.5, 0.25, 0.250_05]).unwrap();
    ok.check().unwrap();
}

#[test]
fn split_face_on_a_pillow_gives_a_tetrahedron() {
    let mut m = build((3, vec![[0, 1, 2], [1, 0, 2]]));
    let r = m.split_face(f(0), [0.25, 0.25, 0.5]).unwrap();
    m.check().unwrap();
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (4, 6, 4)
    );
    for x in m.vertices() {
        assert_eq!(m.degree(x), 3);
    }
    // Dissolving it again would leave a pillow with the same triangle twice: refused.
    assert_rejected(&m, MeshError::FaceExists(f(1)), |m| {
        m.dissolve_vertex(r.vertex)
    });
}

#[test]
fn dissolve_a_fan_of_three_exact_topology() {
    // Vertex 3 inside triangle 0-1-2, joined to all three corners.
    let mut m = build((4, vec![[3, 0, 1], [3, 1, 2], [3, 2, 0]]));
    let rec = m.record_changes().unwrap();
    let d = m.dissolve_vertex(v(3)).unwrap();
    m.check().unwrap();
    // The spokes counter-clockwise from vertex_edge(3) = 3 -> 2 (its last corner in the build).
    assert_eq!(
        d,
        DissolveRecord {
            vertex: v(3),
            corners: [v(2), v(0), v(1)],
            face: f(2),
            removed_faces: [f(0), f(1)],
            removed_edges: [Edge::primal(8), Edge::primal(2), Edge::primal(4)],
        }
    );
    let vs = m.face_vertices(d.face);
    let k = (0..3).find(|&i| vs[i] == v(0)).unwrap();
    assert_eq!(
        [vs[k], vs[(k + 1) % 3], vs[(k + 2) % 3]],
        [v(0), v(1), v(2)]
    );
    assert_eq!(
        m.take_changes(&rec).unwrap(),
        vec![Change::VertexDissolved(d)]
    );
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (3, 3, 1)
    );
    assert!(!m.is_vertex_alive(v(3)));
    for e in d.removed_edges {
        assert!(!m.is_edge_alive(e));
        assert_eq!(e, e.base());
    }
    for x in d.removed_faces {
        assert!(!m.is_face_alive(x));
    }
    let mut all = [d.face, d.removed_faces[0], d.removed_faces[1]];
    all.sort();
    assert_eq!(all, [f(0), f(1), f(2)]);
    assert_eq!(ring(&m, v(0)), [1, 2]);
    // The removed ids are reused by the next split, in LIFO order.
    let again = m.split_face(d.face, [0.3, 0.3, 0.4]).unwrap();
    m.check().unwrap();
    assert_eq!(again.vertex, v(3));
    assert!(!m.has_holes());
}

#[test]
fn dissolve_record_of_a_split_vertex_names_the_split_elements() {
    let mut m = build(shapes::octahedron());
    let s = m.split_face(f(5), [0.6, 0.2, 0.2]).unwrap();
    let d = m.dissolve_vertex(s.vertex).unwrap();
    m.check().unwrap();
    assert_eq!(
        d,
        DissolveRecord {
            vertex: s.vertex,
            corners: s.corners,
            face: f(5),
            removed_faces: [s.faces[1], s.faces[2]],
            removed_edges: s.spokes,
        }
    );
    assert_eq!(m.face_vertices(f(5)), s.corners);
}

#[test]
fn split_face_then_dissolve_gives_back_the_mesh() {
    for shape in [
        shapes::tetrahedron(),
        shapes::octahedron(),
        shapes::icosahedron(),
        shapes::disk(6),
        shapes::strip(5),
    ] {
        let original = build(shape);
        for face in original.faces().collect::<Vec<_>>() {
            let mut m = original.clone();
            let s = m.split_face(face, [0.1, 0.7, 0.2]).unwrap();
            m.check().unwrap();
            assert_eq!(m.euler_characteristic(), original.euler_characteristic());
            let d = m.dissolve_vertex(s.vertex).unwrap();
            m.check().unwrap();
            assert_eq!(d.face, face);
            // Equal once the freed ids (appended by the split) are squeezed out again.
            m.compact();
            assert_eq!(m, original, "face {face:?}");
        }
    }
}

#[test]
fn dissolve_rejections_change_nothing() {
    let oct = build(shapes::octahedron());
    // Degree 4 everywhere.
    for x in oct.vertices() {
        assert_rejected(&oct, MeshError::NotDissolvable(x), |m| m.dissolve_vertex(x));
    }
    for dead in [v(6), v(1000), Vertex::INVALID] {
        assert_rejected(&oct, MeshError::DeadVertex(dead), |m| {
            m.dissolve_vertex(dead)
        });
    }
    // Every vertex of a tetrahedron has degree 3, but its neighbours form a face already.
    let tet = build(shapes::tetrahedron());
    for x in tet.vertices() {
        let err = tet.clone().dissolve_vertex(x).unwrap_err();
        assert!(matches!(err, MeshError::FaceExists(_)), "{err:?}");
        assert_rejected(&tet, err, |m| m.dissolve_vertex(x));
    }
    // Boundary vertices of degree 3 (the fan with one face removed) and of degree 2.
    let mut fan = build((4, vec![[3, 0, 1], [3, 1, 2], [3, 2, 0]]));
    fan.remove_face(f(2)).unwrap();
    fan.check().unwrap();
    assert_eq!(fan.degree(v(3)), 3);
    assert_rejected(&fan, MeshError::NotDissolvable(v(3)), |m| {
        m.dissolve_vertex(v(3))
    });
    assert_rejected(&fan, MeshError::NotDissolvable(v(1)), |m| {
        m.dissolve_vertex(v(1))
    });
    // An isolated vertex, and a removed one.
    let mut lone = oct.clone();
    let x = lone.add_vertex();
    assert_rejected(&lone, MeshError::NotDissolvable(x), |m| {
        m.dissolve_vertex(x)
    });
    lone.remove_vertex(x).unwrap();
    assert_rejected(&lone, MeshError::DeadVertex(x), |m| m.dissolve_vertex(x));
}

#[test]
fn split_and_dissolve_many_times_keep_a_sphere() {
    let mut m = build(shapes::icosahedron());
    let mut added = Vec::new();
    for k in 0..200u32 {
        let faces: Vec<Face> = m.faces().collect();
        let face = faces[(k as usize * 7919) % faces.len()];
        added.push(m.split_face(face, [0.25, 0.25, 0.5]).unwrap().vertex);
    }
    m.check().unwrap();
    assert_eq!(m.vertex_count(), 212);
    // Dissolving the newest first undoes each split in turn: every one is accepted.
    for &x in added.iter().rev() {
        m.dissolve_vertex(x).unwrap();
        m.check().unwrap();
    }
    assert_eq!(m.vertex_count(), 12);
    m.compact();
    assert_eq!(m.undirected_edge_count(), 30);
    assert_eq!(m.euler_characteristic(), 2);
    assert!(m.is_closed());
}
