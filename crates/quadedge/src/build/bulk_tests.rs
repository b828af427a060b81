//! Tests of the bulk build: owned twins, split twin checks, pinched vertices.
use crate::{Mesh, NONE, shapes};

/// Each half-edge's twin, found by sorting the half-edges by their endpoints.
fn twins_of(tris: &[[u32; 3]]) -> Vec<u32> {
    let ends = |h: usize| (tris[h / 3][h % 3], tris[h / 3][(h % 3 + 1) % 3]);
    let mut by_ends: Vec<((u32, u32), u32)> =
        (0..3 * tris.len()).map(|h| (ends(h), h as u32)).collect();
    by_ends.sort_unstable();
    (0..3 * tris.len())
        .map(|h| {
            let (a, b) = ends(h);
            by_ends
                .binary_search_by_key(&(b, a), |x| x.0)
                .map_or(NONE, |i| by_ends[i].1)
        })
        .collect()
}

#[test]
fn owned_twins_build_the_same_mesh_and_errors() {
    for (n, tris) in [
        shapes::tetrahedron(),
        shapes::icosahedron_grid(7),
        shapes::disk(9),
        shapes::strip(5),
        (7, vec![[0, 1, 2], [0, 3, 4], [0, 5, 6]]),
    ] {
        let twins = twins_of(&tris);
        let borrowed = Mesh::from_half_edges(n, &tris, &twins).unwrap();
        let owned = Mesh::from_half_edges_owned(n, &tris, twins.clone()).unwrap();
        assert!(owned == borrowed);
        // The same faces and edges as the build that searches the twins itself.
        let searched = Mesh::from_triangles(n, &tris).unwrap();
        assert_eq!(
            owned.undirected_edge_count(),
            searched.undirected_edge_count()
        );
        for f in searched.faces() {
            assert_eq!(owned.face_vertices(f), searched.face_vertices(f));
        }
        owned.check().unwrap();
        // A twin that is not mutual: the same error either way, found before any edit.
        let mut bad = twins.clone();
        if let Some(h) = bad.iter().position(|&t| t != NONE) {
            bad[h] = (h as u32 + 1) % bad.len() as u32;
            assert_eq!(
                Mesh::from_half_edges_owned(n, &tris, bad.clone()).unwrap_err(),
                Mesh::from_half_edges(n, &tris, &bad).unwrap_err()
            );
        }
    }
}

/// Large enough for the check to run in two halves with two threads or more.
#[cfg(feature = "rayon")]
#[test]
fn halves_give_the_one_pass_mesh_and_first_error() {
    let (n, tris) = shapes::icosahedron_grid(24);
    let twins = twins_of(&tris);
    assert!(twins.len() >= super::super::par::MIN_HALF_EDGES);
    let mid = twins.len() / 2;
    let mut one_pass = vec![0u32; n + 1];
    super::count_quads(&tris, &twins, 0..tris.len(), &mut one_pass).unwrap();
    // Bad twins below and above the middle, above only, below only.
    let spoil = |at: &[usize]| {
        let mut bad = twins.clone();
        for &h in at {
            bad[h] = bad[h + 1];
        }
        bad
    };
    let bads = [spoil(&[mid - 7, mid + 5]), spoil(&[mid + 5]), spoil(&[9])];
    let reference: Vec<_> = bads
        .iter()
        .map(|bad| super::count_quads(&tris, bad, 0..tris.len(), &mut vec![0; n + 1]))
        .collect();
    let mut meshes = Vec::new();
    for pool in testkit::thread_pools() {
        pool.install(|| {
            let mut count = vec![0u32; n + 1];
            if super::count_quads_in_halves(&tris, &twins, &mut count).unwrap() {
                assert_eq!(count, one_pass);
            }
            for (bad, want) in bads.iter().zip(&reference) {
                let got = Mesh::from_half_edges_owned(n, &tris, bad.clone()).unwrap_err();
                assert_eq!(Err(got), *want);
            }
            meshes.push(Mesh::from_half_edges_owned(n, &tris, twins.clone()).unwrap());
        });
    }
    assert!(meshes.iter().all(|m| *m == meshes[0]));
    meshes[0].check().unwrap();
}

/// The ring check (beside the dual fill on a second thread) finds the same first bad
/// vertex with any thread count.
#[cfg(feature = "rayon")]
#[test]
fn pinched_vertex_is_found_with_1_2_and_4_threads() {
    // Two spheres sharing vertex 5: closed, but that vertex has two fans.
    let (n, tris) = shapes::icosahedron_grid(24);
    let shift = |i: u32| match i {
        5 => 5,
        i if i < 5 => i + n as u32,
        i => i + n as u32 - 1,
    };
    let mut both = tris.clone();
    both.extend(tris.iter().map(|t| t.map(shift)));
    let twins = twins_of(&both);
    assert!(twins.len() >= super::super::par::MIN_HALF_EDGES);
    for pool in testkit::thread_pools() {
        let got = pool.install(|| Mesh::from_half_edges_owned(2 * n - 1, &both, twins.clone()));
        assert!(matches!(
            got,
            Err(crate::MeshError::NonManifoldVertex(v)) if v.raw() == 5
        ));
    }
}
