//! Regression tests for meshes built or edited by a hostile caller: pillows, multigraph
//! attempts and absurd counts. Each accepted operation must leave a mesh that passes
//! `check()`, each rejected one must leave it bit-identical.

use quadedge::{Edge, Face, Mesh, MeshError, Vertex, shapes};
use testkit::{assert_rejected, build};

fn v(i: u32) -> Vertex {
    Vertex::new(i)
}

fn pillow() -> Mesh {
    build((3, vec![[0, 1, 2], [1, 0, 2]]))
}

#[test]
fn a_pillow_is_a_valid_closed_surface() {
    let m = pillow();
    assert!(m.is_closed());
    assert_eq!(
        (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
        (3, 3, 2)
    );
    assert_eq!(m.euler_characteristic(), 2);
    // The same pillow closed by add_face onto a single triangle.
    let mut n = build((3, vec![[0, 1, 2]]));
    let f = n.add_face(v(1), v(0), v(2)).unwrap();
    n.check().unwrap();
    assert!(n.is_closed());
    assert_eq!(n.face_vertices(f), [v(1), v(0), v(2)]);
    // Adding either triangle again is refused.
    assert_rejected(&n, MeshError::FaceExists(Face::new(0)), |m| {
        m.add_face(v(0), v(1), v(2))
    });
    assert_rejected(&n, MeshError::FaceExists(f), |m| {
        m.add_face(v(2), v(1), v(0))
    });
}

#[test]
fn splitting_a_pillow_edge_is_refused_instead_of_making_parallel_edges() {
    // Issue: a split gave two edges between the same two vertices, and a following collapse
    // left a loop.
    let m = pillow();
    for e in m.directed_edges().collect::<Vec<_>>() {
        assert_rejected(&m, MeshError::SplitWouldDuplicate(e), |m| m.split(e, 0.5));
        assert_rejected(&m, MeshError::FlipWouldDuplicate(e), |m| m.flip(e));
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
    let mut closed = build((3, vec![[0, 1, 2]]));
    closed.add_face(v(1), v(0), v(2)).unwrap();
    let e = closed.find_edge(v(0), v(1)).unwrap();
    assert_rejected(&closed, MeshError::SplitWouldDuplicate(e), |m| {
        m.split(e, 0.5)
    });
}

#[test]
fn a_pillow_grows_by_face_splits_into_valid_meshes() {
    let mut m = pillow();
    m.split_face(Face::new(1), [0.2, 0.3, 0.5]).unwrap();
    m.check().unwrap();
    // Now a tetrahedron: every edge split is fine, every collapse still refused.
    for e in m.directed_edges().collect::<Vec<_>>() {
        let mut c = m.clone();
        c.split(e, 0.5).unwrap();
        c.check().unwrap();
        assert_rejected(&m, MeshError::CollapseNotManifold(e), |m| {
            m.collapse(e, 0.5)
        });
    }
}

#[test]
fn every_single_edit_of_small_meshes_keeps_check_true() {
    // All flips, splits, collapses, face splits, dissolves and face removals of every edge,
    // face and vertex of a few small meshes, pillow included: accepted ones pass check(),
    // rejected ones change nothing.
    let shapes = [
        (3, vec![[0, 1, 2], [1, 0, 2]]),
        (3, vec![[0, 1, 2]]),
        shapes::tetrahedron(),
        shapes::octahedron(),
        shapes::disk(3),
        shapes::disk(5),
        shapes::strip(3),
        (4, vec![[3, 0, 1], [3, 1, 2], [3, 2, 0]]),
        (5, vec![[0, 1, 2], [0, 3, 4]]),
    ];
    let mut accepted = 0;
    for shape in shapes {
        let m = build(shape);
        let edges: Vec<Edge> = (0..4 * m.quad_slots() as u32 + 4)
            .map(|i| {
                let e = Edge::of_quad(i / 4);
                [e, e.rot(), e.sym(), e.inv_rot()][i as usize % 4]
            })
            .collect();
        let mut try_op = |op: &dyn Fn(&mut Mesh) -> bool| {
            let mut c = m.clone();
            if op(&mut c) {
                c.check().unwrap_or_else(|e| panic!("{e}"));
                accepted += 1;
            } else {
                assert_eq!(c, m);
            }
        };
        for &e in &edges {
            try_op(&|c| c.flip(e).is_ok());
            try_op(&|c| c.split(e, 0.5).is_ok());
            try_op(&|c| c.collapse(e, 0.5).is_ok());
        }
        for i in 0..m.face_slots() as u32 + 1 {
            try_op(&|c| c.split_face(Face::new(i), [0.2, 0.3, 0.5]).is_ok());
            try_op(&|c| c.remove_face(Face::new(i)).is_ok());
        }
        for i in 0..m.vertex_slots() as u32 + 1 {
            try_op(&|c| c.dissolve_vertex(v(i)).is_ok());
            try_op(&|c| c.remove_vertex(v(i)).is_ok());
            for j in 0..m.vertex_slots() as u32 {
                for k in 0..m.vertex_slots() as u32 {
                    try_op(&|c| c.add_face(v(i), v(j), v(k)).is_ok());
                }
            }
        }
    }
    assert!(accepted > 100, "{accepted}");
}

#[test]
fn absurd_vertex_counts_get_typed_errors() {
    let m = build(shapes::octahedron());
    for n in [
        usize::MAX,
        usize::MAX / 2 + 1,
        u32::MAX as usize,
        (u32::MAX - 7) as usize,
    ] {
        assert_rejected(&m, MeshError::TooManyElements, |m| m.add_vertices(n));
    }
    let mut r = m.clone();
    for n in [
        usize::MAX,
        usize::MAX / 2 + 1,
        usize::MAX / 6 + 1,
        u32::MAX as usize,
        1 << 31,
    ] {
        assert_eq!(r.reserve(n), Err(MeshError::TooManyElements), "{n}");
        assert_eq!(
            Mesh::with_capacity(n).unwrap_err(),
            MeshError::TooManyElements
        );
    }
    r.check().unwrap();
    assert_eq!(r, m);
    for n in [usize::MAX, u32::MAX as usize, (u32::MAX - 1) as usize] {
        assert_eq!(
            Mesh::from_triangles(n, &[]).unwrap_err(),
            MeshError::TooManyElements
        );
        assert_eq!(
            Mesh::from_half_edges(n, &[], &[]).unwrap_err(),
            MeshError::TooManyElements
        );
    }
    // The largest count that fits is accepted lazily by add_vertices only when there is room:
    // here just check that the boundary is where the docs say.
    let mut e = Mesh::new();
    let last_ok = (u32::MAX - 2) as usize;
    assert_eq!(e.add_vertices(last_ok + 1), Err(MeshError::TooManyElements));
    assert_eq!(e.vertex_count(), 0);
}

#[test]
fn bulk_builds_never_make_multigraphs() {
    // Every pair of directed triangles on 4 vertices, plus a few triples: what is accepted
    // passes check().
    let mut tris = Vec::new();
    for a in 0..4u32 {
        for b in 0..4 {
            for c in 0..4 {
                if a != b && b != c && a != c {
                    tris.push([a, b, c]);
                }
            }
        }
    }
    let mut accepted = 0;
    for (i, &x) in tris.iter().enumerate() {
        for &y in &tris[i..] {
            for z in [None, Some(tris[(i * 7) % tris.len()])] {
                let mut buf = vec![x, y];
                buf.extend(z);
                if let Ok(m) = Mesh::from_triangles(4, &buf) {
                    m.check().unwrap_or_else(|e| panic!("{buf:?}: {e}"));
                    accepted += 1;
                }
                let twins = twins_of(&buf);
                if let Ok(m) = Mesh::from_half_edges(4, &buf, &twins) {
                    m.check().unwrap_or_else(|e| panic!("{buf:?}: {e}"));
                }
            }
        }
    }
    assert!(accepted > 50, "{accepted}");
}

/// Twins by brute force: the half-edge running the other way, if exactly one does.
fn twins_of(tris: &[[u32; 3]]) -> Vec<u32> {
    let he = |h: usize| (tris[h / 3][h % 3], tris[h / 3][(h % 3 + 1) % 3]);
    (0..3 * tris.len())
        .map(|h| {
            let (a, b) = he(h);
            let mut t = (0..3 * tris.len()).filter(|&k| he(k) == (b, a));
            match (t.next(), t.next()) {
                (Some(k), None) => k as u32,
                _ => quadedge::NONE,
            }
        })
        .collect()
}
