//! The boundary band: the edges joining two plates, found by one pass over the edge arrays on
//! all cores (in edge order whatever the thread count). The front, new crust and relief stages
//! start from it instead of scanning every vertex's ring or every face.

use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;

/// Every live undirected edge whose two ends are on different plates, in edge order (the
/// order of [`Mesh::undirected_edges`]).
pub(super) fn boundary_edges(mesh: &Mesh, plate: &[u32]) -> Vec<Edge> {
    (0..mesh.quad_slots() as u32)
        .into_par_iter()
        .with_min_len(4096)
        .filter_map(|q| {
            let e = Edge::of_quad(q);
            if !mesh.is_edge_alive(e) {
                return None;
            }
            (plate[mesh.origin(e).index()] != plate[mesh.dest(e).index()]).then_some(e)
        })
        .collect()
}

/// The ends of `edges`, each once, in increasing order.
pub(super) fn ends(mesh: &Mesh, edges: &[Edge]) -> Vec<Vertex> {
    let mut v: Vec<Vertex> = edges
        .iter()
        .flat_map(|&e| [mesh.origin(e), mesh.dest(e)])
        .collect();
    v.par_sort_unstable();
    v.dedup();
    v
}

/// The live faces on either side of `edges`, each once, in increasing order: on a
/// triangulation, exactly the faces whose corners are not all on one plate when `edges` are
/// the [`boundary_edges`].
pub(super) fn sides(mesh: &Mesh, edges: &[Edge]) -> Vec<Face> {
    let mut f: Vec<Face> = edges
        .iter()
        .flat_map(|&e| [mesh.left(e), mesh.right(e)])
        .filter(|&f| mesh.is_face_alive(f))
        .collect();
    f.par_sort_unstable();
    f.dedup();
    f
}

/// The vertex nearest to `q`, by a greedy walk from `v` to ever nearer neighbours. On a
/// Delaunay triangulation the walk ends at the nearest vertex (a vertex nearer to `q` than
/// all its neighbours has `q` in its Voronoi cell, which its neighbours bound), the answer of
/// [`delaunay::nearest_vertex`] (same distance key) without its exact point location: `q` is a few cells from `v`.
pub(super) fn nearest_from(mesh: &Mesh, pos: &[DVec3], v: Vertex, q: DVec3) -> Vertex {
    use delaunay::Surface;
    let far = |u: Vertex| delaunay::Sphere.distance_key(q, pos[u.index()]);
    let mut best = v;
    let mut key = far(v);
    loop {
        let mut moved = false;
        for u in mesh.neighbors(best) {
            let k = far(u);
            if k < key {
                (best, key, moved) = (u, k, true);
            }
        }
        if !moved {
            return best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_is_what_a_scan_of_every_ring_and_face_finds() {
        let (mesh, pos) = sphere::fibonacci_sphere(5000, 1.0, 0.3, 2).unwrap();
        let plate: Vec<u32> = pos
            .iter()
            .map(|p| u32::from(p.x > 0.1) + 2 * u32::from(p.z > -0.3))
            .collect();
        let edges = boundary_edges(&mesh, &plate);
        let scan: Vec<Edge> = mesh
            .undirected_edges()
            .filter(|&e| plate[mesh.origin(e).index()] != plate[mesh.dest(e).index()])
            .collect();
        assert_eq!(edges, scan);
        assert!(edges.len() > 100);
        let rings: Vec<Vertex> = mesh
            .vertices()
            .filter(|&v| {
                mesh.neighbors(v)
                    .any(|u| plate[u.index()] != plate[v.index()])
            })
            .collect();
        assert_eq!(ends(&mesh, &edges), rings);
        let mixed: Vec<Face> = mesh
            .faces()
            .filter(|&f| {
                let [a, b, c] = mesh.face_vertices(f).map(|v| plate[v.index()]);
                !(a == b && b == c)
            })
            .collect();
        assert_eq!(sides(&mesh, &edges), mixed);
    }
}
