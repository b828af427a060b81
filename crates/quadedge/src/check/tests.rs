//! Corruption tests: every bad entry is reported by `check()`, never a panic.

use crate::{Edge, Face, Mesh, Vertex, shapes};

/// Every single-entry corruption of every array is reported, never a panic (the world
/// loader runs `check()` on untrusted files; the fuzzer found an unchecked `lnext`).
#[test]
fn corrupt_entries_are_reported_not_panicked() {
    let (n, t) = shapes::octahedron();
    let good = Mesh::from_triangles(n, &t).unwrap();
    good.check().unwrap();
    let garbage = [
        0u32,
        1,
        3,
        5,
        7,
        23,
        1 << 20,
        crate::DUAL_BIT | 1,
        crate::DUAL_BIT | 50,
        u32::MAX - 1,
        u32::MAX,
    ];
    let mut rejected = 0;
    for field in 0..6 {
        let len = match field {
            0 => good.vertex_edge.len(),
            1 => good.face_edge.len(),
            _ => good.primal_origin.len(),
        };
        for i in 0..len {
            for &g in &garbage {
                let mut m = good.clone();
                match field {
                    0 => m.vertex_edge[i] = Edge::from_raw(g),
                    1 => m.face_edge[i] = Edge::from_raw(g),
                    2 => m.primal_origin[i] = Vertex::new(g),
                    3 => m.primal_next[i] = Edge::from_raw(g),
                    4 => m.dual_origin[i] = Face::new(g),
                    _ => m.dual_next[i] = Edge::from_raw(g),
                }
                if m != good {
                    // Some replacements are still valid meshes (another entry edge);
                    // the rest must be errors, and nothing may panic.
                    rejected += usize::from(m.check().is_err());
                }
            }
        }
    }
    assert!(rejected > 300, "only {rejected} corruptions rejected");
}

fn holed_octahedron() -> Mesh {
    let (n, t) = shapes::octahedron();
    let mut m = Mesh::from_triangles(n, &t).unwrap();
    let e = m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap();
    let s = m.split(e, 0.5).unwrap();
    m.collapse(s.new_edge.sym(), 0.0).unwrap();
    m.check().unwrap();
    assert!(!m.free_vertices.is_empty() && !m.free_faces.is_empty());
    m
}

fn corrupt_message(m: &Mesh) -> String {
    match m.check() {
        Err(crate::MeshError::Corrupt(s)) => s,
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

/// A free list holding an id twice (possible in a loaded file) would hand the id out twice.
#[test]
fn free_lists_with_repeated_live_or_out_of_range_ids_are_rejected() {
    let good = holed_octahedron();
    let mut m = good.clone();
    let dup = m.free_vertices[0];
    m.free_vertices.push(dup);
    // Keep the count consistent so that only the repetition is wrong.
    m.vertex_edge.push(crate::mesh::DEAD_VERTEX);
    assert_eq!(
        corrupt_message(&m),
        format!("free vertex list holds {dup} twice")
    );

    let mut m = good.clone();
    let dup = m.free_faces[0];
    m.free_faces.push(dup);
    m.face_edge.push(Edge::INVALID);
    assert_eq!(
        corrupt_message(&m),
        format!("free face list holds {dup} twice")
    );

    let mut m = good.clone();
    let dup = m.free_quads[0];
    m.free_quads.push(dup);
    assert!(corrupt_message(&m).contains("twice"));

    let mut m = good.clone();
    m.free_faces[0] = 0;
    assert_eq!(
        corrupt_message(&m),
        "free face list holds 0, which is alive"
    );

    let mut m = good.clone();
    m.free_quads[0] = 1 << 20;
    assert!(corrupt_message(&m).contains("past the"));

    let mut m = good;
    m.free_vertices.clear();
    assert_eq!(
        corrupt_message(&m),
        "free vertex list holds 0 ids, but 1 vertex slots are dead"
    );
}

/// Merges vertex `y` into `x` by relabelling, without any precondition: a way to build a
/// multigraph that is otherwise a valid structure.
fn merge_unchecked(m: &mut Mesh, x: Vertex, y: Vertex) {
    let ys: Vec<Edge> = m.outgoing(y).collect();
    let xs: Vec<Edge> = m.outgoing(x).collect();
    for &e in &ys {
        m.primal_origin[e.index()] = x;
    }
    // One ring: x's edges, then y's.
    let all: Vec<Edge> = xs.iter().chain(&ys).copied().collect();
    for k in 0..all.len() {
        m.primal_next[all[k].index()] = all[(k + 1) % all.len()];
    }
    for i in 0..m.primal_next.len() {
        let n = m.primal_next[i];
        if n.is_valid() {
            m.dual_next[n.index()] = Edge::dual((i ^ 1) as u32);
        }
    }
    m.vertex_edge[y.index()] = crate::mesh::DEAD_VERTEX;
    m.free_vertices.push(y.raw());
    m.live_vertices -= 1;
}

#[test]
fn parallel_edges_are_rejected_with_a_precise_message() {
    // Two triangles 0-1-2 and 2-3-4; merging 4 into 0 gives two edges between 0 and 2.
    let mut m = Mesh::from_triangles(5, &[[0, 1, 2], [2, 3, 4]]).unwrap();
    merge_unchecked(&mut m, Vertex::new(0), Vertex::new(4));
    let msg = corrupt_message(&m);
    assert!(msg.starts_with("parallel edges "), "{msg}");
    assert!(
        msg.contains("join v0 and v2") || msg.contains("join v2 and v0"),
        "{msg}"
    );
    // Without the shared neighbour the merge is a valid bowtie.
    let mut ok = Mesh::from_triangles(6, &[[0, 1, 2], [3, 4, 5]]).unwrap();
    merge_unchecked(&mut ok, Vertex::new(0), Vertex::new(5));
    ok.check().unwrap();
}
