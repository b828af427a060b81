//! Memory given back: clones hold exact capacities, `compact()` returns spare capacity.

use quadedge::{Edge, Mesh, shapes};

/// Bytes of a mesh without holes at exact capacity: an edge per vertex and face, origin and
/// next per directed primal and dual edge.
fn exact_bytes(m: &Mesh) -> usize {
    4 * m.vertex_count() + 4 * m.face_count() + 32 * m.undirected_edge_count()
}

fn grid() -> Mesh {
    let (n, t) = shapes::icosahedron_grid(20);
    Mesh::from_triangles(n, &t).unwrap()
}

#[test]
fn a_reserved_mesh_clones_and_compacts_to_exact_capacity() {
    let mut m = grid();
    let exact = m.heap_bytes();
    assert_eq!(exact, exact_bytes(&m));
    m.reserve(m.vertex_count()).unwrap();
    assert!(
        m.heap_bytes() >= 2 * exact - 1024,
        "reserve grew every array"
    );
    // A snapshot does not keep the reserve.
    let snapshot = m.clone();
    assert_eq!(snapshot.heap_bytes(), exact);
    assert_eq!(snapshot, m);
    // compact() on a mesh without holes moves nothing but gives the reserve back.
    let r = m.compact();
    assert_eq!(r.vertex_count(), m.vertex_count());
    assert_eq!(m.heap_bytes(), exact);
    assert_eq!(m, snapshot);
}

#[test]
fn compaction_after_removals_holds_only_the_survivors() {
    let mut m = grid();
    let mut q = 0;
    let mut removed = 0;
    while removed < 300 {
        removed += m.collapse(Edge::of_quad(q), 0.5).is_ok() as usize;
        q = (q + 97) % m.quad_slots() as u32;
    }
    let before = m.heap_bytes();
    m.compact();
    m.check().unwrap();
    assert!(!m.has_holes());
    assert_eq!(m.heap_bytes(), exact_bytes(&m));
    assert!(m.heap_bytes() < before);
    assert_eq!(m.clone().heap_bytes(), m.heap_bytes());
}
