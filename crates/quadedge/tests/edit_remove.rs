//! Edits that remove: face removal, id reuse, compaction, and iteration after many edits.

use quadedge::{Change, Edge, Face, MeshError, Remap, Vertex, shapes};
use testkit::{Rng, assert_rejected, build, ring};

mod small;
use small::{edge, f, square, v};

// ---------------------------------------------------------------- flip

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
fn remove_face_splits_a_bowtie() {
    // Hexagonal disk: remove two opposite faces; the centre's two fans come apart, so the
    // centre is split in two (PathEngine's vertex connectivity: one fan per vertex).
    let mut m = build(shapes::disk(6));
    let rec = m.record_changes().unwrap();
    m.remove_face(f(0)).unwrap();
    assert_eq!(m.vertex_count(), 7);
    m.remove_face(f(3)).unwrap();
    m.check().unwrap();
    assert_eq!((m.face_count(), m.vertex_count()), (4, 8));
    assert_eq!(m.vertex_faces(v(0)).count(), 2);
    assert_eq!(m.vertex_faces(v(7)).count(), 2);
    assert!(m.vertices().all(|x| m.fan_count(x) == 1));
    let changes = m.take_changes(&rec).unwrap();
    assert_eq!(
        changes.last(),
        Some(&Change::VertexSplit(quadedge::VertexSplitRecord {
            from: v(0),
            vertex: v(7)
        }))
    );
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
