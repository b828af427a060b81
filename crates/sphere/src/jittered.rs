//! The jittered Fibonacci sphere on all cores: the rings of the moved lattice (found from the
//! lattice's Fibonacci offsets, checked exactly, see [`crate::stars`]), renamed along the
//! Hilbert curve of the points and built into the mesh in that order.

use crate::hilbert::hilbert_order_sphere;
use crate::{SphereError, probe_memory, stars};
use glam::DVec3;
use quadedge::{Mesh, MeshError};
use rayon::prelude::*;

/// The spherical Delaunay mesh of `points`, a Fibonacci lattice of `radius` moved in its
/// tangent planes (in lattice index order), with vertex `i` at point `order[i]` of the
/// Hilbert order of the points ([`hilbert_order_sphere`]: the same numbering as
/// [`sphere_mesh_hilbert`](crate::sphere_mesh_hilbert)); returns the mesh and its positions.
/// When the rings cannot be had (a move beyond their reach, or a radius whose coordinates
/// need scaling), the exact incremental path gives the same triangulation.
pub(crate) fn jittered_mesh(
    points: &[DVec3],
    radius: f64,
) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    let n = points.len();
    probe_memory(n)?;
    // The rings' filters assume coordinates that need no scaling (see `order::scale_for`).
    // The rings' filters assume coordinates that need no scaling (see `order::scale_for`).
    if n >= stars::MIN_POINTS && (1e-59..=1e59).contains(&radius) {
        let order = hilbert_order_sphere(points);
        let mut rank: Vec<u32> = quadedge::internals::try_vec(n)?;
        rank.resize(n, 0);
        for (i, &o) in order.iter().enumerate() {
            rank[o as usize] = i as u32;
        }
        let numbering = stars::Numbering {
            order: &order,
            rank: &rank,
        };
        if let Some((rings, _)) = stars::jittered_stars(points, numbering) {
            drop(rank);
            match Mesh::from_rings(n, |v| rings.ring(v)) {
                Ok(mesh) if mesh.face_count() == 2 * n - 4 => {
                    drop(rings);
                    let mut sorted: Vec<DVec3> = quadedge::internals::try_vec(n)?;
                    sorted.par_extend(order.par_iter().map(|&o| points[o as usize]));
                    return Ok((mesh, sorted));
                }
                Err(e @ (MeshError::OutOfMemory | MeshError::TooManyElements)) => {
                    return Err(e.into());
                }
                // Rings that disagree (a co-circular tie decided two ways): the exact path.
                _ => {}
            }
        }
    }
    let (mesh, positions, _) = crate::sphere_mesh_hilbert(points)?;
    Ok((mesh, positions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Perturbation;
    use testkit::canonical_triangles as canonical;

    fn triangles(mesh: &Mesh) -> Vec<[u32; 3]> {
        mesh.faces()
            .map(|f| mesh.face_vertices(f).map(|v| v.raw()))
            .collect()
    }

    /// The rings' mesh against the incremental path on the same points: the same positions
    /// in the same order and the same triangles.
    fn same_as_incremental(n: usize, amplitude: f64, seed: u64) {
        let p = crate::perturbed_fibonacci_points(n, 2.0, Perturbation::Tangent(amplitude), seed)
            .unwrap();
        let (mesh, pos) = jittered_mesh(&p, 2.0).unwrap();
        let (want, want_pos, _) = crate::sphere_mesh_hilbert(&p).unwrap();
        assert_eq!(pos, want_pos, "{n} {amplitude} {seed}");
        assert_eq!(
            canonical(triangles(&mesh)),
            canonical(triangles(&want)),
            "{n} {amplitude} {seed}"
        );
    }

    #[test]
    fn the_rings_give_the_incremental_triangulation() {
        for n in [12, 13, 100, 1000, 4097, 20_011] {
            for amplitude in [0.0, 0.1, 0.3, 0.5, 0.9] {
                same_as_incremental(n, amplitude, 1);
            }
        }
    }

    #[test]
    fn the_rings_path_is_taken_and_repairs_rings() {
        // Seed 0 at 100,000 points: 8 rings disagree at first (measured).
        let n = 100_000;
        let p = crate::perturbed_fibonacci_points(n, 1.0, Perturbation::Tangent(0.3), 0).unwrap();
        let order = hilbert_order_sphere(&p);
        let mut rank = vec![0u32; n];
        for (i, &o) in order.iter().enumerate() {
            rank[o as usize] = i as u32;
        }
        let numbering = stars::Numbering {
            order: &order,
            rank: &rank,
        };
        let (_, redone) = stars::jittered_stars(&p, numbering).unwrap();
        assert!(redone > 0);
        same_as_incremental(n, 0.3, 0);
    }

    #[test]
    fn the_mesh_is_the_same_with_1_2_and_4_threads() {
        let n = 60_000;
        let runs: Vec<_> = testkit::thread_pools()
            .iter()
            .map(|pool| {
                pool.install(|| {
                    crate::perturbed_fibonacci_sphere(n, 1.0, Perturbation::Tangent(0.3), 4)
                        .unwrap()
                })
            })
            .collect();
        for (mesh, pos) in &runs[1..] {
            assert!(*mesh == runs[0].0);
            assert_eq!(*pos, runs[0].1);
        }
        let (mesh, pos) = &runs[0];
        mesh.check().unwrap();
        assert_eq!(delaunay::is_delaunay(&delaunay::Sphere, mesh, pos), Ok(()));
    }
}
