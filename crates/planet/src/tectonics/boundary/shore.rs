//! The removal's shore (the removed vertices' neighbours that stay, [`band::shore`]) in two
//! parts: the consumed ocean's neighbours marked beside the collisions' decisions, the
//! shortened crust's added once those are known.

#[cfg(any(doc, test))]
use crate::tectonics::band;
use quadedge::internals::set_bits;
use quadedge::{Mesh, Vertex};

/// One bit per vertex slot: the neighbours of `vertices`.
pub(super) fn neighbour_bits(mesh: &Mesh, vertices: &[Vertex]) -> Vec<u64> {
    let mut near = vec![0u64; mesh.vertex_slots().div_ceil(64)];
    mark_neighbours(mesh, vertices, &mut near);
    near
}

/// Sets the bits of the neighbours of `vertices` in `near`.
fn mark_neighbours(mesh: &Mesh, vertices: &[Vertex], near: &mut [u64]) {
    for &v in vertices {
        for u in mesh.neighbors(v) {
            near[u.index() / 64] |= 1 << (u.index() % 64);
        }
    }
}

/// [`band::shore`] of `gone` (sorted), with `near` the [`neighbour_bits`] of the vertices
/// of `gone` not in `more`: the neighbours of `gone` that stay, in increasing order.
pub(super) fn shore(
    mesh: &Mesh,
    mut near: Vec<u64>,
    gone: &[Vertex],
    more: &[Vertex],
) -> Vec<Vertex> {
    mark_neighbours(mesh, more, &mut near);
    for &v in gone {
        near[v.index() / 64] &= !(1 << (v.index() % 64));
    }
    set_bits(near.iter().copied())
        .map(|i| Vertex::new(i as u32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In two parts, the shore a single pass finds: clustered and scattered removals, the
    /// second part overlapping the first's neighbours.
    #[test]
    fn the_shore_in_two_parts_is_the_shore() {
        let (mesh, _) = sphere::fibonacci_sphere(4000, 1.0, 0.3, 3).unwrap();
        let doomed: Vec<Vertex> = (0..4000).filter(|i| i % 7 < 3).map(Vertex::new).collect();
        let taken: Vec<Vertex> = (0..4000).filter(|i| i % 11 == 3).map(Vertex::new).collect();
        let taken: Vec<Vertex> = taken.into_iter().filter(|v| !doomed.contains(v)).collect();
        let mut gone = doomed.clone();
        gone.extend_from_slice(&taken);
        gone.sort_unstable();
        let near = neighbour_bits(&mesh, &doomed);
        let two = shore(&mesh, near, &gone, &taken);
        assert_eq!(two, band::shore(&mesh, &gone));
        assert!(two.len() > 500 && two.iter().all(|v| gone.binary_search(v).is_err()));
    }
}
