//! `Mesh::from_half_edges`: the validated bulk build from triangles and a twin table.

use proptest::prelude::*;
use quadedge::{Mesh, MeshError, shapes};
use testkit::rings;

/// Twins of a triangle buffer, found the slow obvious way (a map from directed edge to
/// half-edge), for checking `from_half_edges` against `from_triangles`.
fn twins_of(tris: &[[u32; 3]]) -> Vec<u32> {
    let mut at = std::collections::HashMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            at.insert((tri[k], tri[(k + 1) % 3]), (3 * t + k) as u32);
        }
    }
    let mut twins = vec![u32::MAX; 3 * tris.len()];
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            if let Some(&h) = at.get(&(tri[(k + 1) % 3], tri[k])) {
                twins[3 * t + k] = h;
            }
        }
    }
    twins
}

#[test]
fn from_half_edges_matches_from_triangles() {
    for (n, tris) in [
        shapes::tetrahedron(),
        shapes::octahedron(),
        shapes::icosahedron_grid(5),
        shapes::disk(7),
        shapes::strip(6),
        (3, vec![[0, 1, 2]]),
        (7, vec![[0, 1, 2], [0, 3, 4], [0, 5, 6]]),
    ] {
        let a = Mesh::from_triangles(n, &tris).unwrap();
        let b = Mesh::from_half_edges(n, &tris, &twins_of(&tris)).unwrap();
        b.check().unwrap();
        assert_eq!(rings(&a), rings(&b));
        assert_eq!(
            (a.vertex_count(), a.undirected_edge_count(), a.face_count()),
            (b.vertex_count(), b.undirected_edge_count(), b.face_count())
        );
        for f in a.faces() {
            assert_eq!(a.face_vertices(f), b.face_vertices(f));
        }
    }
}

#[test]
fn from_half_edges_rejects_bad_twins() {
    let (n, tris) = shapes::tetrahedron();
    let good = twins_of(&tris);
    let bad = |h: usize, to: u32| {
        let mut t = good.clone();
        t[h] = to;
        Mesh::from_half_edges(n, &tris, &t).unwrap_err()
    };
    // Out of range, itself, not mutual, and mutual but between other vertices.
    assert_eq!(bad(0, 99), MeshError::BadTwin { half_edge: 0 });
    assert_eq!(bad(0, 0), MeshError::BadTwin { half_edge: 0 });
    let other = (0..12).find(|&h| h != good[0] as usize && h != 0).unwrap() as u32;
    assert_eq!(bad(0, other), MeshError::BadTwin { half_edge: 0 });
    let mut swapped = good.clone();
    let (x, y) = (0usize, 1usize);
    let (tx, ty) = (good[x] as usize, good[y] as usize);
    swapped[x] = ty as u32;
    swapped[ty] = x as u32;
    swapped[y] = tx as u32;
    swapped[tx] = y as u32;
    assert!(matches!(
        Mesh::from_half_edges(n, &tris, &swapped).unwrap_err(),
        MeshError::BadTwin { .. }
    ));
    // Wrong length, index out of range, repeated vertex.
    assert_eq!(
        Mesh::from_half_edges(n, &tris, &good[..11]).unwrap_err(),
        MeshError::BadTwin { half_edge: 11 }
    );
    assert!(matches!(
        Mesh::from_half_edges(3, &tris, &good).unwrap_err(),
        MeshError::IndexOutOfRange { .. }
    ));
    // Two unlinked edges between the same vertices (both left as boundary).
    let quad = [[0, 1, 2], [0, 2, 3]];
    assert!(matches!(
        Mesh::from_half_edges(4, &quad, &[u32::MAX; 6]).unwrap_err(),
        MeshError::EdgeOccupied { .. }
    ));
    // The same directed edge in two faces.
    let twice = [[0, 1, 2], [0, 1, 3]];
    assert!(matches!(
        Mesh::from_half_edges(4, &twice, &[u32::MAX; 6]).unwrap_err(),
        MeshError::EdgeOccupied { .. } | MeshError::NonManifoldVertex(_)
    ));
}

proptest! {
    #![proptest_config(testkit::proptest_config(256))]

    /// Arbitrary (mostly broken) buffers: never a panic, and whatever is accepted is valid.
    #[test]
    fn from_half_edges_never_accepts_garbage(
        tris in prop::collection::vec(prop::array::uniform3(0u32..6), 1..8),
        twin_seed in prop::collection::vec(0u32..30, 24),
        use_true_twins in any::<bool>(),
    ) {
        let twins: Vec<u32> = if use_true_twins {
            twins_of(&tris)
        } else {
            (0..3 * tris.len())
                .map(|h| if twin_seed[h] >= 24 { u32::MAX } else { twin_seed[h] })
                .collect()
        };
        if let Ok(m) = Mesh::from_half_edges(6, &tris, &twins) {
            prop_assert_eq!(m.check(), Ok(()));
            if use_true_twins {
                let reference = Mesh::from_triangles(6, &tris).unwrap();
                prop_assert_eq!(rings(&m), rings(&reference));
            }
        } else if use_true_twins {
            prop_assert!(Mesh::from_triangles(6, &tris).is_err());
        }
    }
}
