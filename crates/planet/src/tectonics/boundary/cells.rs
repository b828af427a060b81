//! A vertex's flat cell (km²), as [`accretion::flat_cell`] computes it, by one walk around the
//! vertex: the collision ranges weigh tens of thousands of cells a step.
//!
//! [`accretion::flat_cell`] sums a third of the flat area of each face around the vertex,
//! each face's corners read from the face ([`Mesh::face_vertices`]: two steps around the face
//! and three origins). Around a vertex the corners are known already (the vertex, a
//! neighbour and the next neighbour counter-clockwise); only where the face's corner list
//! starts is read (its edge and that edge's origin), so that each face's area is the same
//! expression on the same corners in the same order: the same bits.

#[cfg(test)]
use crate::tectonics::accretion;
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// [`accretion::flat_cell`] of `v`, bit for bit (see the module docs).
pub(super) fn flat_cell(mesh: &Mesh, pos: &[DVec3], v: Vertex) -> f64 {
    let start = mesh.vertex_edge(v);
    if !start.is_valid() {
        return std::iter::empty::<f64>().sum();
    }
    let x = pos[v.index()];
    let area = |a: DVec3, b: DVec3, c: DVec3| (b - a).cross(c - a).length() / 6.0;
    let mut e = start;
    let mut pu = pos[mesh.dest(e).index()];
    std::iter::from_fn(|| {
        loop {
            if !e.is_valid() {
                return None;
            }
            // The face left of `v → u` has corners `v, u, w` counter-clockwise, `w` the next
            // neighbour around `v`.
            let next = mesh.origin_next(e);
            let w = mesh.dest(next);
            let pw = pos[w.index()];
            let f = mesh.left(e);
            let here = e;
            let pu_here = pu;
            e = if next == start {
                quadedge::Edge::INVALID
            } else {
                next
            };
            pu = pw;
            if !f.is_valid() {
                continue;
            }
            let first = mesh.face_edge(f);
            let a = if first == here {
                area(x, pu_here, pw)
            } else if mesh.origin(first) == mesh.dest(here) {
                area(pu_here, pw, x)
            } else {
                area(pw, x, pu_here)
            };
            return Some(a);
        }
    })
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit for bit the faces' sum, on a sphere after removals (faces whose corner lists start
    /// at any of their corners).
    #[test]
    fn the_ring_walk_gives_the_faces_sum_bit_for_bit() {
        let mut world = world::World::fibonacci_sphere(3000, 6371.0, 0.3, 4).unwrap();
        let gone: Vec<Vertex> = world.mesh().vertices().step_by(7).collect();
        world.remove_vertices(&gone).unwrap();
        let (mesh, pos) = (world.mesh(), world.positions());
        let mut n = 0;
        for v in mesh.vertices() {
            let (a, b) = (flat_cell(mesh, pos, v), accretion::flat_cell(mesh, pos, v));
            assert_eq!(a.to_bits(), b.to_bits(), "{v:?}");
            assert!(a > 0.0);
            n += 1;
        }
        assert!(n > 2000);
    }
}
