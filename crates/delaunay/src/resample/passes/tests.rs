//! The edge pass's short cut (the walk's last face) against location alone.

use super::*;
use crate::resample::{StencilKinds, stencils};
use crate::{Plane, Sphere};
use testkit::planar_grid;

/// Every new edge's source by [`edge_by_location`] alone (the pass before the short cut),
/// directed like the new edge.
fn by_location<S: Barycentric>(m: &Meshes<'_, S>, s: &Stencils) -> Vec<Edge> {
    let mut out = vec![Edge::INVALID; 2 * m.new_mesh.quad_slots()];
    for q in 0..m.new_mesh.quad_slots() {
        let e = Edge::primal(2 * q as u32);
        if !m.new_mesh.is_edge_alive(e) {
            continue;
        }
        let (u, v) = (m.new_mesh.origin(e), m.new_mesh.dest(e));
        let (a, b) = (m.new_positions[u.index()], m.new_positions[v.index()]);
        let (old, oa, ob) = edge_by_location(m, s, u, m.surface.midpoint(a, b)).unwrap();
        let old = if (ob - oa).dot(b - a) >= 0.0 {
            old
        } else {
            old.sym()
        };
        (out[2 * q], out[2 * q + 1]) = (old, old.sym());
    }
    out
}

/// The pass's edges with and without the face pass's hints, against [`by_location`];
/// returns how many midpoints the short cut answered (from the face pass's hints).
fn same_edges<S: Barycentric + Sync>(
    surface: &S,
    (old_mesh, old_positions): (&Mesh, &[DVec3]),
    (new_mesh, new_positions): (&Mesh, &[DVec3]),
) -> usize {
    let m = Meshes {
        surface,
        old_mesh,
        old_positions,
        new_mesh,
        new_positions,
    };
    let all = stencils(
        surface,
        old_mesh,
        old_positions,
        new_mesh,
        new_positions,
        StencilKinds::ALL,
    )
    .unwrap();
    let want = by_location(&m, &all);
    assert_eq!(all.edges, want);
    let edges_only = StencilKinds {
        faces: false,
        edges: true,
    };
    let alone = stencils(
        surface,
        old_mesh,
        old_positions,
        new_mesh,
        new_positions,
        edges_only,
    )
    .unwrap();
    assert_eq!(alone.edges, want);
    (0..new_mesh.quad_slots())
        .map(|q| Edge::primal(2 * q as u32))
        .filter(|&e| new_mesh.is_edge_alive(e))
        .filter(|&e| {
            let (a, b) = (
                new_positions[new_mesh.origin(e).index()],
                new_positions[new_mesh.dest(e).index()],
            );
            let hint = Some(all.faces[new_mesh.left(e).index()]);
            edge_in_face(&m, surface.midpoint(a, b), hint)
                .unwrap()
                .is_some()
        })
        .count()
}

#[test]
fn on_the_sphere_the_short_cut_gives_the_located_edges() {
    let (old, old_pos) = sphere::fibonacci_sphere(3000, 1.0, 0.3, 1).unwrap();
    for (n, seed) in [(2000, 2), (3000, 3), (7000, 4)] {
        let (new, new_pos) = sphere::fibonacci_sphere(n, 1.0, 0.3, seed).unwrap();
        let fast = same_edges(&Sphere, (&old, &old_pos), (&new, &new_pos));
        // Almost every midpoint is strictly inside an old face.
        assert!(fast > new.undirected_edge_count() * 99 / 100, "{n}: {fast}");
    }
    // Onto itself: midpoints on (or, rounded, a hair beside) the old edges.
    same_edges(&Sphere, (&old, &old_pos), (&old, &old_pos));
}

#[test]
fn in_the_plane_the_short_cut_gives_the_located_edges_on_degenerate_grids() {
    let (old, old_pos) = planar_grid(9, (0.0, 0.0), 1.0);
    // Midpoints on old edges and vertices, strictly inside faces, and beyond the border.
    // Onto itself every midpoint is on an old edge, where the walk does not decide.
    assert_eq!(same_edges(&Plane, (&old, &old_pos), (&old, &old_pos)), 0);
    for (n, origin, s) in [
        (9, (0.0, 0.0), 1.0),
        (9, (0.5, 0.5), 1.0),
        (17, (0.0, 0.0), 0.5),
        (7, (-1.0, 0.25), 1.5),
        (12, (0.3, 0.1), 0.7),
    ] {
        let (new, new_pos) = planar_grid(n, origin, s);
        same_edges(&Plane, (&old, &old_pos), (&new, &new_pos));
    }
}
