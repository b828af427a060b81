//! Tectonic plates: the sample points of the planet split into connected regions.
//!
//! Plates grow from random seed vertices by a randomised flood over vertex neighbours: each
//! step takes a random vertex from the frontier, so borders come out ragged like real plate
//! boundaries rather than the straight bisectors a plain breadth-first search would draw.

use quadedge::{Topology, Vertex};
use rand::Rng;

/// Marks a vertex that belongs to no plate (only isolated vertices stay so).
pub const NO_PLATE: u32 = u32::MAX;

/// Splits the live vertices of `mesh` into `plates` connected plates.
///
/// Generic over [`Topology`]: it only walks neighbours, so it runs on the editable `Mesh` and
/// on a `FrozenMesh` alike (same ids, same plates).
///
/// Returns the plate id of every vertex slot (`NO_PLATE` for removed or unreachable ones)
/// and the seed vertex of each plate. Fewer plates than asked are made when the mesh has
/// fewer vertices.
pub fn grow_plates<R: Rng>(
    mesh: &impl Topology,
    plates: usize,
    rng: &mut R,
) -> (Vec<u32>, Vec<Vertex>) {
    let mut plate = vec![NO_PLATE; mesh.vertex_slots()];
    let live: Vec<Vertex> = mesh.vertices().collect();
    let k = plates.min(live.len());
    let mut seeds = Vec::with_capacity(k);
    let mut frontier: Vec<Vertex> = Vec::new();
    while seeds.len() < k {
        let v = live[rng.random_range(0..live.len())];
        if plate[v.index()] == NO_PLATE {
            plate[v.index()] = seeds.len() as u32;
            seeds.push(v);
            frontier.push(v);
        }
    }
    while !frontier.is_empty() {
        let i = rng.random_range(0..frontier.len());
        let v = frontier[i];
        let p = plate[v.index()];
        // Claim one unclaimed neighbour; the vertex leaves the frontier once it has none.
        match mesh.neighbors(v).find(|n| plate[n.index()] == NO_PLATE) {
            Some(n) => {
                plate[n.index()] = p;
                frontier.push(n);
            }
            None => {
                frontier.swap_remove(i);
            }
        }
    }
    (plate, seeds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadedge::{FrozenMesh, Mesh, shapes};
    use rand::SeedableRng;

    #[test]
    fn every_vertex_joins_exactly_one_connected_plate() {
        let (n, t) = shapes::icosahedron_grid(12);
        let mesh = Mesh::from_triangles(n, &t).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let (plate, seeds) = grow_plates(&mesh, 9, &mut rng);
        assert_eq!(seeds.len(), 9);
        assert!(plate.iter().all(|&p| p < 9));
        // Each plate is connected: a flood from its seed within the plate reaches all of it.
        for (id, &s) in seeds.iter().enumerate() {
            let id = id as u32;
            let mut seen = vec![false; n];
            let mut stack = vec![s];
            seen[s.index()] = true;
            while let Some(v) = stack.pop() {
                for w in mesh.neighbors(v) {
                    if plate[w.index()] == id && !seen[w.index()] {
                        seen[w.index()] = true;
                        stack.push(w);
                    }
                }
            }
            let members = plate.iter().filter(|&&p| p == id).count();
            assert_eq!(seen.iter().filter(|&&x| x).count(), members);
            assert!(members > 0);
        }
        // Same seed, same plates.
        let mut rng2 = rand_pcg::Pcg64::seed_from_u64(7);
        assert_eq!(grow_plates(&mesh, 9, &mut rng2).0, plate);
    }

    #[test]
    fn a_frozen_mesh_grows_the_same_plates() {
        let (n, t) = shapes::icosahedron_grid(10);
        let mut mesh = Mesh::from_triangles(n, &t).unwrap();
        let identity: Vec<u32> = (0..n as u32).collect();
        mesh.reorder_vertices(&identity).unwrap();
        let frozen = FrozenMesh::freeze(&mesh).unwrap();
        let mut a = rand_pcg::Pcg64::seed_from_u64(3);
        let mut b = rand_pcg::Pcg64::seed_from_u64(3);
        assert_eq!(
            grow_plates(&mesh, 6, &mut a),
            grow_plates(&frozen, 6, &mut b)
        );
    }
}
