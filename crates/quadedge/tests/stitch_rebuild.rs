//! Taking a closed mesh apart into free triangles and stitching them back in random order
//! gives a mesh isomorphic to the original (with an explicit vertex map).

use quadedge::{Edge, Face, Mesh, MeshError, Vertex, shapes};
use std::collections::BTreeMap;
use testkit::{Rng, build, canonical_triangles};

/// Rebuilds `orig` from free triangles, stitching its edges one by one in random order;
/// returns the rebuilt mesh, the vertex map from the original to it, and how many stitches had
/// to wait. A stitch is refused while it would leave two edges between the same two vertices
/// (a slit, which this simple-graph mesh does not hold); such stitches are retried later, and
/// when only they are left (the last two pairs of a hole) they go in one
/// `connect_edge_pairs` batch.
fn rebuild(orig: &Mesh, rng: &mut Rng) -> (Mesh, BTreeMap<Vertex, Vertex>, usize) {
    let mut faces: Vec<Face> = orig.faces().collect();
    rng.shuffle(&mut faces);
    let mut m = Mesh::new();
    // Original directed edge -> the copy's half-edge with the same face on its left.
    let mut copy: BTreeMap<Edge, Edge> = BTreeMap::new();
    for &f in &faces {
        let g = m.add_free_triangle().unwrap();
        for (e, c) in orig.face_edges(f).into_iter().zip(m.face_edges(g)) {
            copy.insert(e, c);
        }
    }
    let mut pending: Vec<Edge> = orig.undirected_edges().collect();
    rng.shuffle(&mut pending);
    let mut waits = 0;
    while !pending.is_empty() {
        let mut later = Vec::new();
        for e in pending.iter().copied() {
            let before = m.clone();
            match m.connect_edges(copy[&e], copy[&e.sym()]) {
                Ok(kept) => {
                    // The removed half-edge is now `kept.sym()`.
                    copy.insert(e.sym(), kept.sym());
                    m.check().unwrap();
                }
                Err(MeshError::WouldDuplicateEdge { .. }) => {
                    assert!(m == before);
                    later.push(e);
                }
                Err(err) => panic!("stitching {e:?}: {err}"),
            }
        }
        if later.len() == pending.len() {
            // Only slits are left: the last pairs of each hole go in one batch.
            let pairs: Vec<(Edge, Edge)> =
                later.iter().map(|e| (copy[e], copy[&e.sym()])).collect();
            // One pair alone still leaves the slit: the batch is refused at the end.
            let before = m.clone();
            assert!(matches!(
                m.connect_edge_pairs(&pairs[..1]),
                Err(MeshError::WouldDuplicateEdge { .. })
            ));
            assert!(m == before);
            m.connect_edge_pairs(&pairs).unwrap();
            for (e, (kept, _)) in later.iter().zip(pairs) {
                copy.insert(e.sym(), kept.sym());
            }
            m.check().unwrap();
            waits += later.len();
            break;
        }
        waits += later.len();
        pending = later;
    }
    let mut map: BTreeMap<Vertex, Vertex> = BTreeMap::new();
    for e in orig.directed_edges() {
        let w = m.origin(copy[&e]);
        assert_eq!(
            *map.entry(orig.origin(e)).or_insert(w),
            w,
            "vertex map not a function"
        );
    }
    (m, map, waits)
}

fn triangles(m: &Mesh, map: impl Fn(Vertex) -> u32) -> Vec<[u32; 3]> {
    canonical_triangles(m.faces().map(|f| m.face_vertices(f).map(&map)).collect())
}

#[test]
fn stitching_the_triangles_of_closed_meshes_rebuilds_them() {
    let mut rng = Rng::new(26);
    let mut waits = 0;
    for shape in [
        shapes::octahedron(),
        shapes::icosahedron(),
        shapes::icosahedron_grid(3),
    ] {
        let orig = build(shape);
        for _ in 0..3 {
            let (m, map, w) = rebuild(&orig, &mut rng);
            waits += w;
            assert_eq!(
                (m.vertex_count(), m.undirected_edge_count(), m.face_count()),
                (
                    orig.vertex_count(),
                    orig.undirected_edge_count(),
                    orig.face_count()
                )
            );
            assert!(m.is_closed() && m.euler_characteristic() == 2);
            assert!(m.vertices().all(|v| m.fan_count(v) == 0));
            // One to one, and the triangles map onto the rebuilt ones with their winding.
            let mut image: Vec<Vertex> = map.values().copied().collect();
            image.sort();
            image.dedup();
            assert_eq!(image.len(), orig.vertex_count());
            assert_eq!(
                triangles(&orig, |v| map[&v].raw()),
                triangles(&m, |v| v.raw())
            );
        }
    }
    // Random orders do meet the transient slits, and they resolve.
    assert!(waits > 0);
}
