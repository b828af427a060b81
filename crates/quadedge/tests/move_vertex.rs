//! `Mesh::move_vertex`: a degree-3 vertex moved into another face in one edit. Exact
//! topology on small meshes (every ring against a face split of the same face, the
//! independent way to put a vertex there), refusals that change nothing, the journal record,
//! undo and redo, and random move sequences checked after every edit.

use quadedge::{Change, Face, Mesh, MeshError, MoveRecord, Vertex, shapes};
use testkit::{Rng, assert_rejected, build, rings};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

fn f(i: u32) -> Face {
    Face::new(i)
}

/// The octahedron with vertex 6 put into face 0 ([0, 2, 4]) by a face split.
fn octahedron_with_6() -> Mesh {
    let mut m = build(shapes::octahedron());
    m.split_face(f(0), [0.4, 0.3, 0.3]).unwrap();
    m
}

/// The rings of the octahedron with vertex 6 put into `face` directly.
fn split_into(face: Face) -> Vec<Vec<u32>> {
    let mut m = build(shapes::octahedron());
    m.split_face(face, [0.4, 0.3, 0.3]).unwrap();
    rings(&m)
}

#[test]
fn a_move_across_the_mesh_has_the_rings_of_a_split_there() {
    let mut m = octahedron_with_6();
    let before = m.clone();
    let spokes: Vec<_> = m.outgoing(v(6)).collect();
    let rec = m.record_changes().unwrap();
    // Face 6 is [3, 1, 5], on the other side of the octahedron.
    let r = m.move_vertex(v(6), f(6)).unwrap();
    m.check().unwrap();
    assert_eq!(
        r,
        MoveRecord {
            vertex: v(6),
            from: [v(0), v(2), v(4)],
            closed: f(0),
            to: [v(3), v(1), v(5)],
            spokes: [spokes[0], spokes[1], spokes[2]],
            faces: [f(6), f(8), f(9)],
        }
    );
    assert_eq!(m.take_changes(&rec).unwrap(), vec![Change::VertexMoved(r)]);
    assert_eq!(rings(&m), split_into(f(6)));
    assert_eq!(testkit::ring(&m, v(6)), [1, 5, 3]);
    assert_eq!(testkit::ring(&m, v(0)), [2, 4, 3, 5]);
    assert_eq!(testkit::ring(&m, v(3)), [0, 4, 1, 6, 5]);
    assert_eq!(m.face_vertices(f(0)), [v(0), v(2), v(4)]);
    for (i, s) in r.spokes.iter().enumerate() {
        assert_eq!((m.origin(*s), m.dest(*s)), (v(6), r.to[i]));
        assert_eq!(m.left(*s), r.faces[i]);
        assert_eq!(m.right(*s), r.faces[(i + 2) % 3]);
    }
    // Nothing was added or removed: the same counts and id spaces.
    let counts = |m: &Mesh| {
        let c = (m.vertex_count(), m.undirected_edge_count(), m.face_count());
        (c, m.vertex_slots(), m.quad_slots(), m.face_slots())
    };
    assert_eq!(counts(&m), counts(&before));
    assert_eq!(m.euler_characteristic(), 2);
}

#[test]
fn a_move_into_a_neighbouring_face_and_back() {
    let mut m = octahedron_with_6();
    let start = m.clone();
    // Face 1 is [2, 1, 4], across the edge 2-4 from vertex 6's triangle.
    let r = m.move_vertex(v(6), f(1)).unwrap();
    m.check().unwrap();
    assert_eq!(r.to, [v(2), v(1), v(4)]);
    assert_eq!(rings(&m), split_into(f(1)));
    assert_eq!(testkit::ring(&m, v(2)), [0, 5, 1, 6, 4]);
    assert_eq!(testkit::ring(&m, v(4)), [0, 2, 6, 1, 3]);
    // Back into the closed triangle: the rings of the start (the ids of faces differ).
    let back = m.move_vertex(v(6), r.closed).unwrap();
    m.check().unwrap();
    assert_eq!(back.to, [v(0), v(2), v(4)]);
    assert_eq!(rings(&m), rings(&start));
}

#[test]
fn refused_moves_change_nothing() {
    let m = octahedron_with_6();
    assert_rejected(&m, MeshError::DeadVertex(v(99)), |c| {
        c.move_vertex(v(99), f(6))
    });
    // Vertex 0 has five neighbours.
    assert_rejected(&m, MeshError::NotDissolvable(v(0)), |c| {
        c.move_vertex(v(0), f(6))
    });
    assert_rejected(&m, MeshError::DeadFace(f(99)), |c| {
        c.move_vertex(v(6), f(99))
    });
    for own in [f(0), f(8), f(9)] {
        let err = MeshError::FaceOfVertex {
            vertex: v(6),
            face: own,
        };
        assert_rejected(&m, err, |c| c.move_vertex(v(6), own));
    }
    // A dead vertex and a dead face after a removal.
    let mut gone = m.clone();
    gone.dissolve_vertex(v(6)).unwrap();
    assert_rejected(&gone, MeshError::DeadVertex(v(6)), |c| {
        c.move_vertex(v(6), f(6))
    });
    let mut again = octahedron_with_6();
    let split = again.split_face(f(6), [0.2, 0.4, 0.4]).unwrap();
    again.dissolve_vertex(split.vertex).unwrap();
    let dead = split.faces[1];
    assert_rejected(&again, MeshError::DeadFace(dead), |c| {
        c.move_vertex(v(6), dead)
    });
    // A tetrahedron's vertex: its neighbours form a face already (as for a dissolve).
    let tet = build(shapes::tetrahedron());
    let err = tet.clone().dissolve_vertex(v(0)).unwrap_err();
    assert!(matches!(err, MeshError::FaceExists(_)));
    assert_rejected(&tet, err, |c| c.move_vertex(v(0), f(3)));
    // Degree 3 on the boundary.
    let fan = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    assert_rejected(&fan, MeshError::NotDissolvable(v(0)), |c| {
        c.move_vertex(v(0), f(1))
    });
}

#[test]
fn undo_and_redo_of_a_move_are_exact() {
    let mut m = octahedron_with_6();
    let before = m.clone();
    m.start_undo_log().unwrap();
    m.move_vertex(v(6), f(6)).unwrap();
    m.move_vertex(v(6), f(3)).unwrap();
    let after = m.clone();
    let log = m.take_undo_log().unwrap();
    m.undo(&log).unwrap();
    assert_eq!(m, before);
    m.redo(&log).unwrap();
    assert_eq!(m, after);
    m.check().unwrap();
}

/// Random moves of the degree-3 vertices of a refined icosahedron into random faces (any
/// face, near or far): `check()` after each, the journal names each move, and one undo of
/// the whole sequence gives the start back bit for bit.
#[test]
fn random_moves_keep_the_mesh_valid_and_undo_exactly() {
    let mut rng = Rng::new(23);
    let mut m = build(shapes::icosahedron());
    for k in 0..20 {
        let weights = [0.5, 0.25, 0.25];
        m.split_face(f(k), weights).unwrap();
    }
    let start = m.clone();
    m.start_undo_log().unwrap();
    let rec = m.record_changes().unwrap();
    let mut moves = 0;
    for _ in 0..400 {
        let x = v(rng.below(m.vertex_slots()) as u32);
        let target = f(rng.below(m.face_slots()) as u32);
        let mut copy = m.clone();
        match m.move_vertex(x, target) {
            Ok(r) => {
                m.check().unwrap();
                assert_eq!(m.degree(x), 3);
                assert_eq!(m.face_vertices(r.closed), r.from);
                moves += 1;
            }
            Err(_) => {
                copy.discard_journal();
                let mut m2 = m.clone();
                m2.discard_journal();
                assert!(m2 == copy, "a refused move changed the mesh");
            }
        }
    }
    assert!(moves > 50, "{moves} moves");
    let changes = m.take_changes(&rec).unwrap();
    assert_eq!(changes.len(), moves);
    assert!(changes.iter().all(|c| matches!(c, Change::VertexMoved(_))));
    let log = m.take_undo_log().unwrap();
    m.undo(&log).unwrap();
    assert_eq!(m, start);
}
