//! Tests of [`Mesh::from_rings`]: exact numbering, the same topology as
//! [`Mesh::from_triangles`], the same bits whatever the threads and chunks, and every kind of
//! bad ring turned into its typed error.

use super::from_rings_in_chunks;
use crate::{Edge, Face, Mesh, MeshError, Vertex, shapes};
use proptest::prelude::*;

/// The neighbour rings of a closed mesh, each starting at the vertex's own first edge.
fn rings_of(m: &Mesh) -> Vec<Vec<u32>> {
    (0..m.vertex_count() as u32)
        .map(|v| m.neighbors(Vertex::new(v)).map(|n| n.raw()).collect())
        .collect()
}

/// Each vertex's ring rotated to start at its lowest neighbour: a canonical form.
fn canonical_rings(m: &Mesh) -> Vec<Vec<u32>> {
    let mut rings = rings_of(m);
    for r in &mut rings {
        let k = (0..r.len()).min_by_key(|&i| r[i]).unwrap_or(0);
        r.rotate_left(k);
    }
    rings
}

/// Corners of a face rotated to start at the lowest.
fn corners(m: &Mesh, f: Face) -> [u32; 3] {
    let c = m.face_vertices(f).map(Vertex::raw);
    let k = (0..3).min_by_key(|&i| c[i]).unwrap_or(0);
    [c[k], c[(k + 1) % 3], c[(k + 2) % 3]]
}

/// `from_rings` on rings held as one vector per vertex.
fn build(vertices: usize, rings: &[Vec<u32>]) -> Result<Mesh, MeshError> {
    Mesh::from_rings(vertices, |v| rings[v as usize].as_slice())
}

/// Faces as corner triples rotated to start at the lowest, sorted.
fn face_set(m: &Mesh) -> Vec<[u32; 3]> {
    let mut f: Vec<[u32; 3]> = m.faces().map(|x| corners(m, x)).collect();
    f.sort_unstable();
    f
}

/// Asserts that `m` passes `check()` and has the rings and faces of `reference`.
fn assert_same_topology(m: &Mesh, reference: &Mesh) {
    m.check().unwrap();
    assert_eq!(canonical_rings(m), canonical_rings(reference));
    assert_eq!(face_set(m), face_set(reference));
    assert_eq!(m.undirected_edge_count(), reference.undirected_edge_count());
}

fn bad(vertex: u32, position: usize) -> MeshError {
    MeshError::BadRing {
        vertex: Vertex::new(vertex),
        position,
    }
}

/// A closed mesh made irregular by random flips (each checked).
fn flipped_sphere(k: u32, flips: usize, seed: u64) -> Mesh {
    let (n, tris) = shapes::icosahedron_grid(k);
    let mut m = Mesh::from_triangles(n, &tris).unwrap();
    let mut rng = testkit::Rng::new(seed);
    for _ in 0..flips {
        let e = Edge::primal(2 * rng.below(m.undirected_edge_count()) as u32);
        // A flip that would duplicate an edge is refused and changes nothing.
        let _ = m.flip(e);
    }
    m.check().unwrap();
    m
}

#[test]
fn tetrahedron_exact_numbering() {
    // The rings of `shapes::tetrahedron()`.
    let rings = vec![vec![1, 3, 2], vec![0, 2, 3], vec![0, 3, 1], vec![0, 1, 2]];
    let m = build(4, &rings).unwrap();
    m.check().unwrap();
    // Quad-edges by lower endpoint then ring position; even ids leave the lower endpoint.
    let quads = [(0, 1), (0, 3), (0, 2), (1, 2), (1, 3), (2, 3)];
    assert_eq!(m.undirected_edge_count(), quads.len());
    for (q, &(a, b)) in quads.iter().enumerate() {
        let e = Edge::primal(2 * q as u32);
        assert_eq!((m.origin(e).raw(), m.dest(e).raw()), (a, b), "quad {q}");
    }
    // Faces by lowest corner then ring position, each with the edge leaving that corner.
    let faces = [
        ([0, 1, 3], 0),
        ([0, 3, 2], 2),
        ([0, 2, 1], 4),
        ([1, 2, 3], 6),
    ];
    for (f, &(want, edge)) in faces.iter().enumerate() {
        let f = Face::new(f as u32);
        assert_eq!(corners(&m, f), want);
        assert_eq!(m.face_edge(f), Edge::primal(edge));
        assert_eq!(m.left(Edge::primal(edge)), f);
    }
    // Each vertex's edge leads to the first vertex of its ring.
    for (v, e) in [(0, 0), (1, 1), (2, 5), (3, 3)] {
        assert_eq!(m.vertex_edge(Vertex::new(v)), Edge::primal(e));
    }
    let (n, tris) = shapes::tetrahedron();
    assert_same_topology(&m, &Mesh::from_triangles(n, &tris).unwrap());
}

#[test]
fn same_topology_as_from_triangles() {
    let shapes = [
        shapes::tetrahedron(),
        shapes::octahedron(),
        shapes::icosahedron(),
        shapes::icosahedron_grid(3),
    ];
    for (n, tris) in shapes {
        let reference = Mesh::from_triangles(n, &tris).unwrap();
        let m = build(n, &rings_of(&reference)).unwrap();
        assert_same_topology(&m, &reference);
        // Each vertex edge leads to the first neighbour given.
        assert_eq!(rings_of(&m), rings_of(&reference));
    }
}

#[test]
fn irregular_meshes_round_trip() {
    for (k, seed) in [(2, 1), (4, 2), (6, 3)] {
        let reference = flipped_sphere(k, 400, seed);
        let rings = rings_of(&reference);
        for chunk in [1, 7, super::CHUNK] {
            let m = from_rings_in_chunks(rings.len(), &|v| rings[v as usize].as_slice(), chunk)
                .unwrap();
            assert_same_topology(&m, &reference);
            assert_eq!(rings_of(&m), rings, "each ring starts where it was given");
        }
    }
}

#[test]
fn same_bits_whatever_the_threads_and_chunks() {
    let reference = flipped_sphere(20, 2000, 4);
    let rings = rings_of(&reference);
    let ring = |v: u32| rings[v as usize].as_slice();
    let one = from_rings_in_chunks(rings.len(), &ring, 1 << 20).unwrap();
    one.check().unwrap();
    for pool in testkit::thread_pools() {
        for chunk in [1, 64, 1000] {
            let m = pool.install(|| from_rings_in_chunks(rings.len(), &ring, chunk).unwrap());
            assert!(
                m == one,
                "{} threads, chunk {chunk}",
                pool.current_num_threads()
            );
            // No array over-allocated either.
            assert_eq!(m.heap_bytes(), one.heap_bytes());
        }
    }
}

#[test]
fn rotated_ring_same_topology_other_numbering() {
    let (n, tris) = shapes::icosahedron();
    let reference = Mesh::from_triangles(n, &tris).unwrap();
    let mut rings = rings_of(&reference);
    rings[3].rotate_left(2);
    let m = build(n, &rings).unwrap();
    assert_same_topology(&m, &reference);
    assert_eq!(
        m.neighbors(Vertex::new(3)).next().unwrap().raw(),
        rings[3][0]
    );
    assert!(m != build(n, &rings_of(&reference)).unwrap());
}

#[test]
fn disjoint_closed_components_are_accepted_like_from_triangles() {
    let (_, tris) = shapes::tetrahedron();
    let both: Vec<[u32; 3]> = tris
        .iter()
        .copied()
        .chain(tris.iter().map(|t| t.map(|i| i + 4)))
        .collect();
    let reference = Mesh::from_triangles(8, &both).unwrap();
    reference.check().unwrap();
    let m = build(8, &rings_of(&reference)).unwrap();
    assert_same_topology(&m, &reference);
}

#[test]
fn empty_mesh() {
    let m = Mesh::from_rings(0, |_| &[]).unwrap();
    m.check().unwrap();
    assert!(m == Mesh::from_triangles(0, &[]).unwrap());
}

/// The octahedron's canonical rings: ±x = 0/1, ±y = 2/3, ±z = 4/5.
fn octahedron_rings() -> Vec<Vec<u32>> {
    let (n, tris) = shapes::octahedron();
    let rings = canonical_rings(&Mesh::from_triangles(n, &tris).unwrap());
    assert_eq!(rings[0], [2, 4, 3, 5]);
    rings
}

#[test]
fn bad_rings_of_the_lowest_vertex() {
    let good = octahedron_rings();
    let long: Vec<u32> = (0..=Mesh::MAX_RING as u32).map(|i| i % 5 + 1).collect();
    let cases: [(Vec<u32>, usize); 10] = [
        (vec![], 0),
        (vec![2, 4], 2),
        (long, Mesh::MAX_RING),
        (vec![2, 4, 3, 6], 3),
        (vec![2, 4, u32::MAX, 5], 2),
        (vec![2, 0, 3, 5], 1),
        (vec![2, 4, 3, 4], 3),
        // Reversed: the wrong orientation.
        (vec![5, 3, 4, 2], 0),
        // Two neighbours swapped: 2 and 3 are not adjacent.
        (vec![2, 3, 4, 5], 0),
        // A ring of the right vertices that skips a face: 4 and 5 are not adjacent.
        (vec![2, 4, 5, 3], 1),
    ];
    for (ring, position) in cases {
        let mut rings = good.clone();
        rings[0] = ring.clone();
        assert_eq!(build(6, &rings).unwrap_err(), bad(0, position), "{ring:?}");
    }
}

#[test]
fn bad_ring_reported_at_the_lowest_vertex_that_sees_it() {
    let (n, tris) = shapes::icosahedron_grid(4);
    let reference = Mesh::from_triangles(n, &tris).unwrap();
    let good = rings_of(&reference);
    let v = 100;
    let lowest_neighbour = *good[v].iter().min().unwrap();
    let lowest = (v as u32).min(lowest_neighbour);
    // Each neighbour checks its faces against the ring of `v`: an empty or garbage ring
    // fails the lowest of them, or `v` itself.
    for broken in [vec![], vec![7, 8, 9], vec![u32::MAX; 6]] {
        let mut rings = good.clone();
        rings[v] = broken;
        match build(n, &rings).unwrap_err() {
            MeshError::BadRing { vertex, .. } => assert_eq!(vertex.raw(), lowest),
            e => panic!("{e:?}"),
        }
    }
    // Two neighbours of `v` swapped: their faces no longer match, seen from `v` or from a
    // lower neighbour.
    let mut rings = good.clone();
    rings[v].swap(0, 1);
    assert!(matches!(
        build(n, &rings),
        Err(MeshError::BadRing { vertex, .. }) if vertex.raw() <= v as u32
    ));
    // A closure that answers garbage for one vertex only.
    let garbage = [1_000_000u32, 1, 2];
    let ring = |x: u32| {
        if x as usize == n - 1 {
            &garbage[..]
        } else {
            good[x as usize].as_slice()
        }
    };
    let last_lowest = (n as u32 - 1).min(*good[n - 1].iter().min().unwrap());
    assert!(matches!(
        Mesh::from_rings(n, ring),
        Err(MeshError::BadRing { vertex, .. }) if vertex.raw() == last_lowest
    ));
}

#[test]
fn too_many_vertices_refused_before_any_allocation() {
    let tetra: [&[u32]; 4] = [&[1, 3, 2], &[0, 2, 3], &[0, 3, 1], &[0, 1, 2]];
    for vertices in [
        u32::MAX as usize,
        crate::mesh::DEAD_VERTEX.raw() as usize,
        crate::ids::MAX_DIRECTED_EDGES / 3 + 1,
        usize::MAX,
    ] {
        assert_eq!(
            Mesh::from_rings(vertices, |v| tetra.get(v as usize).copied().unwrap_or(&[])),
            Err(MeshError::TooManyElements)
        );
    }
    // Half a billion vertices of which only four have rings: the first without one is
    // reported, after one look at each chunk and no per-vertex allocation.
    assert_eq!(
        Mesh::from_rings(500_000_000, |v| tetra
            .get(v as usize)
            .copied()
            .unwrap_or(&[])),
        Err(bad(4, 0))
    );
}

#[test]
fn ring_no_lower_vertex_sees_is_caught_by_the_count() {
    // Vertex 4 owns no edge, and its edges to 0, 1, 2 are in no lower ring: only the
    // count of edges against ring slots sees them, then the full check names vertex 4.
    let rings = vec![
        vec![1, 3, 2],
        vec![0, 2, 3],
        vec![0, 3, 1],
        vec![0, 1, 2],
        vec![0, 1, 2],
    ];
    assert_eq!(build(5, &rings).unwrap_err(), bad(4, 0));
    assert_eq!(first_bad_ring(&rings), Some(bad(4, 0)));
}

#[test]
fn ring_callback_that_changes_its_answers_never_panics() {
    use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let (n, tris) = shapes::icosahedron_grid(3);
    let good = rings_of(&Mesh::from_triangles(n, &tris).unwrap());
    let shifted: Vec<Vec<u32>> = good.iter().map(|r| r[1..].to_vec()).collect();
    let swapped: Vec<Vec<u32>> = good
        .iter()
        .map(|r| r.iter().rev().copied().collect())
        .collect();
    let long = vec![1u32; 1000];
    // From the `after`-th call on, vertex `n / 2` (or every vertex) answers something else.
    for after in (0..4000).step_by(97) {
        for other in [&shifted, &swapped] {
            let calls = AtomicUsize::new(0);
            let ring = |v: u32| {
                let late = calls.fetch_add(1, Relaxed) >= after;
                match (late, v as usize == n / 2) {
                    (true, true) => long.as_slice(),
                    (true, false) => other[v as usize].as_slice(),
                    _ => good[v as usize].as_slice(),
                }
            };
            match from_rings_in_chunks(n, &ring, 8) {
                Ok(_) | Err(MeshError::BadRing { .. } | MeshError::Corrupt(_)) => {}
                Err(e) => panic!("{e:?}"),
            }
        }
    }
}

#[test]
fn error_message_names_vertex_and_position() {
    let text = bad(7, 2).to_string();
    assert!(text.contains("vertex") && text.contains('7') && text.contains("position 2"));
}

/// A change to one ring of a valid mesh: replace, swap, remove or insert one entry.
fn mutate(rings: &mut [Vec<u32>], v: usize, j: usize, x: u32, kind: u8) {
    let r = &mut rings[v];
    let j = j % r.len();
    match kind % 4 {
        0 => r[j] = x,
        1 => {
            let k = (j + 1 + x as usize) % r.len();
            r.swap(j, k);
        }
        2 => {
            r.remove(j);
        }
        _ => r.insert(j, x),
    }
}

/// The documented error, found the plain way: the lowest vertex whose ring is too short or
/// too long, holds a bad entry, or has consecutive neighbours `a, b` with no `b, v` in a row
/// in `ring(a)`; with the first bad position.
fn first_bad_ring(rings: &[Vec<u32>]) -> Option<MeshError> {
    let n = rings.len();
    for (v, r) in rings.iter().enumerate() {
        let d = r.len();
        let v32 = v as u32;
        let entry = (0..d).find(|&j| r[j] as usize >= n || r[j] == v32 || r[..j].contains(&r[j]));
        let face = || {
            (0..d).find(|&j| {
                let (a, b) = (r[j] as usize, r[(j + 1) % d]);
                let ra = &rings[a];
                let m = ra.len();
                !(3..=Mesh::MAX_RING).contains(&m)
                    || !(0..m).any(|k| ra[k] == b && ra[(k + 1) % m] == v32)
            })
        };
        let position = match d {
            0..3 => Some(d),
            _ if d > Mesh::MAX_RING => Some(Mesh::MAX_RING),
            _ => entry.or_else(face),
        };
        if let Some(position) = position {
            return Some(bad(v32, position));
        }
    }
    None
}

proptest! {
    #![proptest_config(testkit::proptest_config(512))]

    /// Any single change to valid rings gives a mesh that passes `check()` with exactly those
    /// rings, or the `BadRing` the plain search names.
    #[test]
    fn one_changed_ring_is_checked(v in 0usize..42, j in 0usize..8, x in 0u32..45, kind in 0u8..4) {
        let (n, tris) = shapes::icosahedron_grid(2);
        let mut rings = rings_of(&Mesh::from_triangles(n, &tris).unwrap());
        mutate(&mut rings, v, j, x, kind);
        match (build(n, &rings), first_bad_ring(&rings)) {
            (Ok(m), None) => {
                m.check().unwrap();
                prop_assert_eq!(rings_of(&m), rings);
            }
            (got, want) => prop_assert_eq!(got.unwrap_err(), want.unwrap()),
        }
    }

    /// Two changes, in two rings, on meshes of several chunks.
    #[test]
    fn two_changed_rings_are_checked(
        v in 0usize..162, w in 0usize..162, j in 0usize..8, x in 0u32..170, kinds in 0u8..16,
    ) {
        let (n, tris) = shapes::icosahedron_grid(4);
        let mut rings = rings_of(&Mesh::from_triangles(n, &tris).unwrap());
        mutate(&mut rings, v, j, x, kinds % 4);
        mutate(&mut rings, w, j + 1, x / 2, kinds / 4);
        let got = from_rings_in_chunks(n, &|v| rings[v as usize].as_slice(), 16);
        match (got, first_bad_ring(&rings)) {
            (Ok(m), None) => {
                m.check().unwrap();
                prop_assert_eq!(rings_of(&m), rings);
            }
            (got, want) => prop_assert_eq!(got.unwrap_err(), want.unwrap()),
        }
    }
}
