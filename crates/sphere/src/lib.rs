//! # sphere
//!
//! Sphere meshes for world generation: evenly spread points on a sphere (the golden-spiral
//! Fibonacci lattice), their exact spherical Delaunay triangulation as a [`quadedge::Mesh`], and
//! the geometry the simulation needs on top (Voronoi corners and cell areas, distances,
//! quality). Keeping a mesh Delaunay while it changes (insert, remove, move) is the job of the
//! [`delaunay`] crate, re-exported here (`delaunay::is_delaunay(&delaunay::Sphere, ..)` checks a
//! sphere mesh).
//!
//! * [`fibonacci_points`] / [`fibonacci_sphere`]: any number of points along the golden
//!   spiral, optionally perturbed with a seeded generator.
//! * [`icosphere`]: the subdivided icosahedron (10 · 4^s + 2 vertices).
//! * [`triangulate`] / [`sphere_mesh`]: exact spherical Delaunay triangulation (= convex hull)
//!   of arbitrary points on a sphere with robust predicates, ~`O(n log n)`.
//! * [`geometry`]: great-circle distance, spherical areas, circumcentres, Voronoi areas, mesh
//!   quality.
//! * [`dual`]: the dual point of each face as circumcentre, centroid or a blend pulled inside
//!   the triangle (Red Blob's choice for maps).
//!
//! ```
//! let (mesh, positions) = sphere::fibonacci_sphere(1000, 6371.0, 0.0, 0).unwrap();
//! assert_eq!(mesh.face_count(), 2 * 1000 - 4);
//! assert_eq!(mesh.euler_characteristic(), 2);
//! assert_eq!(delaunay::is_delaunay(&delaunay::Sphere, &mesh, &positions), Ok(()));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod dual;
mod encloses;
mod error;
pub mod geometry;
mod hilbert;
mod icosphere;
mod jittered;
mod lattice;
mod order;
mod points;
mod seed;
mod stars;
mod triangulate;
mod visibility;

pub use delaunay;
pub use error::SphereError;
pub use hilbert::{hilbert_sort_mesh, sphere_mesh_hilbert};
pub use icosphere::{icosphere, icosphere_triangles};
pub use lattice::triangulate_fibonacci;
pub use points::{
    Perturbation, RADII, fibonacci_points, fibonacci_points_f32, perturbed_fibonacci_points,
    perturbed_fibonacci_sphere,
};
pub use triangulate::triangulate;

use glam::DVec3;
use quadedge::Mesh;

/// Plumbing the sibling crates and the benches share, not for users: it may change in any
/// release. Users get spatial order from the generators, [`hilbert_sort_mesh`] and
/// [`sphere_mesh_hilbert`].
#[doc(hidden)]
pub mod internals {
    pub use crate::hilbert::{hilbert_index, hilbert_order_plane, hilbert_order_sphere};
}

/// The largest point count accepted: `6n` directed edges must fit the mesh's 31-bit edge ids.
/// Below it, the memory a request needs is asked for with `try_reserve`, so a size this
/// machine cannot hold is [`SphereError::OutOfMemory`], not an abort.
pub const MAX_POINTS: usize = 300_000_000;

/// Bytes per vertex of a [`Mesh`] built from a triangulation, with slack: probed before the
/// mesh is built so that a mesh too large for memory is a typed error.
const MESH_BYTES_PER_VERTEX: usize = 128;

/// Peak bytes per point of a mesh build (points, sort keys, triangles, twins, the mesh): asked
/// for once up front, so that a size this machine cannot hold fails before any work.
const PEAK_BYTES_PER_POINT: usize = 256;

/// Refuses a point count whose peak memory the allocator will not grant.
pub(crate) fn probe_memory(n: usize) -> Result<(), SphereError> {
    if n > MAX_POINTS {
        return Err(SphereError::TooManyPoints(n));
    }
    drop(quadedge::internals::try_vec::<u8>(
        n.saturating_mul(PEAK_BYTES_PER_POINT),
    )?);
    Ok(())
}

/// Builds the mesh of a triangulation after checking that its memory can be had.
/// Best given the twins by value: the build then numbers the quad-edges in their buffer
/// rather than in a copy.
pub(crate) fn build_mesh<'a>(
    n: usize,
    tris: &[[u32; 3]],
    twins: impl Into<std::borrow::Cow<'a, [u32]>>,
) -> Result<Mesh, SphereError> {
    drop(quadedge::internals::try_vec::<u8>(
        n.saturating_mul(MESH_BYTES_PER_VERTEX),
    )?);
    Ok(Mesh::from_half_edges_owned(
        n,
        tris,
        twins.into().into_owned(),
    )?)
}

/// The spherical Delaunay mesh of `points` (see [`triangulate`]); vertex `i` is point `i`, and
/// a copy of the points is returned beside the mesh for use as its position layer.
///
/// Errors: those of [`triangulate`], and [`SphereError::NotEnclosingCentre`] when the points
/// lie in one closed hemisphere (a cap): their hull is no triangulation of the sphere. Every
/// `Ok` passes [`delaunay::is_delaunay`].
///
/// ```
/// use glam::DVec3;
/// let p = vec![DVec3::X, DVec3::NEG_X, DVec3::Y, DVec3::NEG_Y, DVec3::Z, DVec3::NEG_Z];
/// let (mesh, pos) = sphere::sphere_mesh(&p).unwrap();
/// assert_eq!((mesh.vertex_count(), mesh.undirected_edge_count(), mesh.face_count()), (6, 12, 8));
/// assert_eq!(pos, p);
/// ```
pub fn sphere_mesh(points: &[DVec3]) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    probe_memory(points.len())?;
    let (tris, twins) = triangulate::triangulate_with_twins(points)?;
    let mesh = build_mesh(points.len(), &tris, twins)?;
    encloses::check_encloses(&mesh, points)?;
    Ok((mesh, points.to_vec()))
}

/// A Fibonacci sphere mesh: [`fibonacci_points`] triangulated exactly, by
/// [`triangulate_fibonacci`]'s lattice path (each vertex's ring of neighbours from a few
/// Fibonacci index offsets, on all cores) without perturbation, by [`triangulate`] with it.
///
/// ```
/// let (mesh, pos) = sphere::fibonacci_sphere(100, 1.0, 0.5, 42).unwrap();
/// assert_eq!(pos.len(), 100);
/// assert_eq!(mesh.face_count(), 196);
/// mesh.check().unwrap();
/// // Same seed, same mesh.
/// assert_eq!(sphere::fibonacci_sphere(100, 1.0, 0.5, 42).unwrap(), (mesh, pos));
/// ```
///
/// # Errors
/// Those of [`fibonacci_points`] and [`triangulate`]; [`SphereError::OutOfMemory`] before any
/// work when the peak memory of the build (about 256 bytes per point) cannot be allocated;
/// [`SphereError::NotEnclosingCentre`] for a handful of strongly perturbed points that all
/// fall in one hemisphere (the unperturbed lattice always surrounds the centre, four points
/// included: see [`fibonacci_points`]).
pub fn fibonacci_sphere(
    n: usize,
    radius: f64,
    perturbation: f64,
    seed: u64,
) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    if n >= 4 {
        probe_memory(n)?;
    }
    let points = fibonacci_points(n, radius, perturbation, seed)?;
    // Perturbing the index by a fraction turns the point by up to 2.4 rad around the axis, so
    // only the unperturbed lattice keeps `i ± F_k` as neighbours; perturbed points are sorted.
    let mesh = if perturbation == 0.0 {
        lattice::lattice_mesh(&points)?
    } else {
        let (tris, twins) = triangulate::triangulate_with_twins(&points)?;
        build_mesh(n, &tris, twins)?
    };
    // The unperturbed lattice always surrounds the centre, so only perturbed points are
    // checked: from 5 points on, its poles are antipodal and the others' longitudes (golden
    // angle steps) leave no gap of a half-turn, so no plane through the poles has them all on
    // one side; 4 points are the tetrahedron of `fibonacci_points`. (Tests check every size to
    // 3,000 and 1M.)
    if perturbation != 0.0 {
        encloses::check_encloses(&mesh, &points)?;
    }
    Ok((mesh, points))
}

/// The README's example, compiled and run as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
