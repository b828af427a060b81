//! The Fibonacci lattice path: the lattice's exact spherical Delaunay mesh, on all cores.
//!
//! The lattice is triangulated vertex by vertex ([`crate::stars`]: each vertex's ring of
//! neighbours from a few Fibonacci index offsets, checked exactly) and the mesh is built
//! from the rings ([`Mesh::from_rings`], which checks that they agree), both in parallel and
//! both the same bits whatever the thread count. Input that only looks like the lattice, or
//! rings that a co-circular tie made disagree, take the one-core incremental path: points
//! inserted in index order, each walk started at a lattice neighbour.

use crate::order::{check_input, scale_for};
use crate::triangulate::{Hint, Parts, Triangulator, triangulate_with_twins};
use crate::{SphereError, build_mesh, stars};
use glam::DVec3;
use quadedge::{Mesh, MeshError};

/// [`triangulate`](crate::triangulate) for points in Fibonacci-lattice order, as [`crate::fibonacci_points`] makes
/// them without perturbation: the same exact result, faster. (A perturbed index turns its
/// point by up to 2.4 rad around the axis, which breaks the lattice: use [`triangulate`](crate::triangulate).)
///
/// Each vertex's ring of neighbours is found on its own, on all cores, among the few
/// lattice points `i ± F_j` (Fibonacci numbers: the golden spiral puts index-distance-`F_j`
/// points next to each other) and checked with exact predicates (see the crate README);
/// triangles are listed by lowest corner. Input that only looks like the lattice, or rings
/// that do not check out, take the one-core incremental path: points inserted in index order,
/// each walk started at the nearest lattice neighbour. Every decision is an exact predicate,
/// so any point set gives its correct triangulation, only slower if it is not the lattice.
/// Exact duplicates in a lattice-looking input are reported as
/// [`SphereError::NotInConvexPosition`] rather than [`SphereError::Duplicate`].
///
/// ```
/// let p = sphere::fibonacci_points(1000, 1.0, 0.0, 3).unwrap();
/// let mut a = sphere::triangulate_fibonacci(&p).unwrap();
/// let mut b = sphere::triangulate(&p).unwrap();
/// let canon = |t: &mut Vec<[u32; 3]>| {
///     for x in t.iter_mut() {
///         let k = (0..3).min_by_key(|&k| x[k]).unwrap();
///         x.rotate_left(k);
///     }
///     t.sort();
/// };
/// canon(&mut a);
/// canon(&mut b);
/// assert_eq!(a, b);
/// ```
pub fn triangulate_fibonacci(points: &[DVec3]) -> Result<Vec<[u32; 3]>, SphereError> {
    let mesh = lattice_mesh(points)?;
    Ok(mesh
        .faces()
        .map(|f| mesh.face_vertices(f).map(|v| v.raw()))
        .collect())
}

/// The mesh of [`triangulate_fibonacci`]: from the lattice's rings on all cores when they
/// check out, else from the one-core incremental path (the same hull, other numbering).
pub(crate) fn lattice_mesh(points: &[DVec3]) -> Result<Mesh, SphereError> {
    let n = check_input(points)?;
    if scale_for(points)?.is_some() || !crate::points::looks_like_lattice(points) {
        let (tris, twins) = triangulate_with_twins(points)?;
        return build_mesh(n, &tris, twins);
    }
    if n >= stars::MIN_POINTS
        && let Some(rings) = stars::lattice_stars(points)
    {
        match Mesh::from_rings(n, |v| rings.ring(v)) {
            Ok(mesh) if mesh.face_count() == 2 * n - 4 => return Ok(mesh),
            Err(e @ (MeshError::OutOfMemory | MeshError::TooManyElements)) => return Err(e.into()),
            // Rings that disagree (a co-circular tie decided two ways): the exact path below.
            _ => {}
        }
    }
    let (tris, twins) = match lattice_hull(points)? {
        Some(parts) => parts,
        None => triangulate_with_twins(points)?,
    };
    build_mesh(n, &tris, twins)
}

/// The one-core lattice path: points of a Fibonacci lattice inserted in index order, each walk
/// started at the lattice neighbour `i − F_k` nearest to point `i`. `None` when the walks ran
/// over budget: the input only looked like a lattice.
pub(crate) fn lattice_hull(points: &[DVec3]) -> Result<Option<Parts>, SphereError> {
    let n = points.len();
    let mut fib = vec![1u32, 2];
    while let Some(&f) = fib.last() {
        let g = f as u64 + fib[fib.len() - 2] as u64;
        if g >= n as u64 {
            break;
        }
        fib.push(g as u32);
    }
    let hint = Hint::Lattice { fib, k: 0 };
    let mut t = Triangulator::new(points, None, hint)?;
    // A lattice walk is a few steps per point; far more means the input only looked like a
    // lattice at the sampled points: the caller starts again on the general path.
    t.walk_budget = Some(64 * n as u64 + 10_000);
    t.run()?;
    Ok((!t.over_budget).then(|| t.into_parts()))
}

#[cfg(test)]
mod tests {
    use super::*;

    use testkit::canonical_triangles as canonical;

    #[test]
    fn the_rings_give_the_hull_of_the_one_core_path_and_of_the_general_path() {
        for n in [12, 16, 17, 100, 288, 1000, 4097, 20_011] {
            let points = crate::fibonacci_points(n, 3.0, 0.0, 0).unwrap();
            let tris = triangulate_fibonacci(&points).unwrap();
            let (one, _) = lattice_hull(&points).unwrap().unwrap();
            let general = crate::triangulate(&points).unwrap();
            assert_eq!(canonical(tris.clone()), canonical(one), "{n}");
            assert_eq!(canonical(tris), canonical(general), "{n}");
        }
        // Below the rings' minimum the one-core path answers alone.
        let points = crate::fibonacci_points(9, 1.0, 0.0, 0).unwrap();
        let (one, _) = lattice_hull(&points).unwrap().unwrap();
        assert_eq!(
            canonical(triangulate_fibonacci(&points).unwrap()),
            canonical(one)
        );
    }

    #[test]
    fn the_lattice_mesh_is_numbered_from_its_rings() {
        // Vertex `v`'s first edge goes to the first neighbour of its ring, and faces are
        // numbered by their lowest corner: face 0 is at vertex 0.
        let points = crate::fibonacci_points(1000, 1.0, 0.0, 0).unwrap();
        let mesh = lattice_mesh(&points).unwrap();
        mesh.check().unwrap();
        let rings = stars::lattice_stars(&points).unwrap();
        for v in mesh.vertices() {
            let ring: Vec<u32> = mesh.neighbors(v).map(|w| w.raw()).collect();
            assert_eq!(ring, rings.ring(v.raw()), "{v:?}");
        }
        assert!(
            mesh.face_vertices(quadedge::Face::new(0))
                .contains(&quadedge::Vertex::new(0))
        );
    }

    #[test]
    fn a_lattice_with_one_point_moved_gets_its_own_hull() {
        // Point 70,001 is not among the indices the lattice check samples: the input still
        // looks like a lattice, the bands must prove or refuse what the move changed.
        let n = 140_000;
        let mut points = crate::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
        let spacing = (4.0 * core::f64::consts::PI / n as f64).sqrt();
        let p = points[70_001];
        let tangent = p.cross(DVec3::Y).normalize();
        points[70_001] = (p + tangent * (0.45 * spacing)).normalize();
        assert!(crate::points::looks_like_lattice(&points));
        let banded = crate::triangulate_fibonacci(&points).unwrap();
        let general = crate::triangulate(&points).unwrap();
        assert_eq!(canonical(banded), canonical(general));
    }

    #[test]
    fn fibonacci_sphere_is_the_same_with_1_2_and_4_threads() {
        let n = 140_000;
        assert!(n > 8 * stars::CHUNK);
        let runs: Vec<_> = testkit::thread_pools()
            .iter()
            .map(|pool| pool.install(|| crate::fibonacci_sphere(n, 2.0, 0.0, 0).unwrap()))
            .collect();
        for (mesh, positions) in &runs[1..] {
            assert!(*mesh == runs[0].0);
            assert!(
                positions
                    .iter()
                    .zip(&runs[0].1)
                    .all(|(a, b)| a.to_array().map(f64::to_bits) == b.to_array().map(f64::to_bits))
            );
        }
        let (mesh, positions) = &runs[0];
        assert_eq!(mesh.face_count(), 2 * n - 4);
        mesh.check().unwrap();
        assert_eq!(
            delaunay::is_delaunay(&delaunay::Sphere, mesh, positions),
            Ok(())
        );
    }
}
