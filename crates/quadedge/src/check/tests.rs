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
        (1 << 31) | 1,
        (1 << 31) | 50,
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
