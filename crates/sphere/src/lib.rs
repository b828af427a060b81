//! # sphere
//!
//! Sphere meshes for world generation (seed 002, "Creating a Sphere"): evenly spread points on
//! a sphere, their exact spherical Delaunay triangulation as a [`quadedge::Mesh`], and the
//! geometry the simulation needs on top (Voronoi corners and cell areas, distances, quality).
//!
//! * [`fibonacci_points`] / [`fibonacci_sphere`]: any number of points along the golden
//!   spiral, optionally perturbed with a seeded generator.
//! * [`icosphere`]: the subdivided icosahedron (10 · 4^s + 2 vertices).
//! * [`triangulate`] / [`sphere_mesh`]: exact spherical Delaunay triangulation (= convex hull)
//!   of arbitrary points on a sphere with robust predicates, ~`O(n log n)`.
//! * [`is_delaunay`] / [`make_delaunay`]: check and restore the Delaunay property after edits.
//! * [`geometry`]: great-circle distance, spherical areas, circumcentres, Voronoi areas, mesh
//!   quality.
//!
//! ```
//! let (mesh, positions) = sphere::fibonacci_sphere(1000, 6371.0, 0.0, 0).unwrap();
//! assert_eq!(mesh.face_count(), 2 * 1000 - 4);
//! assert_eq!(mesh.euler_characteristic(), 2);
//! assert!(sphere::is_delaunay(&mesh, &positions).is_ok());
//! ```

#![warn(missing_docs)]

mod delaunay;
mod error;
pub mod geometry;
mod hilbert;
mod icosphere;
mod points;

pub use delaunay::{
    find_non_delaunay_edge, is_delaunay, make_delaunay, triangulate, triangulate_fibonacci,
};
pub use error::SphereError;
pub use hilbert::{
    hilbert_index, hilbert_order_plane, hilbert_order_sphere, hilbert_sort_mesh,
    sphere_mesh_hilbert,
};
pub use icosphere::{icosphere, icosphere_triangles};
pub use points::{fibonacci_points, fibonacci_points_f32};

use glam::DVec3;
use quadedge::Mesh;

/// The largest point count accepted: `6n` directed edges must fit the mesh's 31-bit edge ids.
pub const MAX_POINTS: usize = 300_000_000;

/// The spherical Delaunay mesh of `points` (see [`triangulate`]); vertex `i` is point `i`, and
/// a copy of the points is returned beside the mesh for use as its position layer.
///
/// ```
/// use glam::DVec3;
/// let p = vec![DVec3::X, DVec3::NEG_X, DVec3::Y, DVec3::NEG_Y, DVec3::Z, DVec3::NEG_Z];
/// let (mesh, pos) = sphere::sphere_mesh(&p).unwrap();
/// assert_eq!((mesh.vertex_count(), mesh.undirected_edge_count(), mesh.face_count()), (6, 12, 8));
/// assert_eq!(pos, p);
/// ```
pub fn sphere_mesh(points: &[DVec3]) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    let (tris, twins) = delaunay::triangulate_with_twins(points)?;
    let mesh = Mesh::from_half_edges(points.len(), &tris, &twins)?;
    Ok((mesh, points.to_vec()))
}

/// A Fibonacci sphere mesh: [`fibonacci_points`] triangulated exactly, by
/// [`triangulate_fibonacci`] (using the lattice to skip the sort) without perturbation, by
/// [`triangulate`] with it.
///
/// ```
/// let (mesh, pos) = sphere::fibonacci_sphere(100, 1.0, 0.5, 42).unwrap();
/// assert_eq!(pos.len(), 100);
/// assert_eq!(mesh.face_count(), 196);
/// mesh.check().unwrap();
/// // Same seed, same mesh.
/// assert_eq!(sphere::fibonacci_sphere(100, 1.0, 0.5, 42).unwrap(), (mesh, pos));
/// ```
pub fn fibonacci_sphere(
    n: usize,
    radius: f64,
    perturbation: f64,
    seed: u64,
) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    let points = fibonacci_points(n, radius, perturbation, seed)?;
    // Perturbing the index by a fraction turns the point by up to 2.4 rad around the axis, so
    // only the unperturbed lattice keeps `i − F_k` as neighbours; perturbed points are sorted.
    let (tris, twins) = if perturbation == 0.0 {
        delaunay::triangulate_fibonacci_with_twins(&points)?
    } else {
        delaunay::triangulate_with_twins(&points)?
    };
    let mesh = Mesh::from_half_edges(n, &tris, &twins)?;
    Ok((mesh, points))
}

/// The README's example, compiled and run as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
