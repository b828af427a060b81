//! # delaunay
//!
//! Exact Delaunay maintenance on [`quadedge::Mesh`] triangulations, for any [`Surface`] with
//! exact `orient` and `in_circle` predicates: the unit sphere ([`Sphere`], points on any
//! sphere around the origin) and the plane ([`Plane`]).
//!
//! * [`is_delaunay`] / [`delaunay_report`]: inverted or flat faces, non-Delaunay edges and the
//!   global covering (the faces cover the surface exactly once, [`covering`]), typed.
//! * [`make_delaunay`], [`make_delaunay_around`], [`make_delaunay_from_edges`]: Lawson flips,
//!   globally or from what changed; never `Ok` with a non-Delaunay result.
//! * [`locate`] / [`nearest_vertex`]: visibility walk from a hint.
//! * [`insert`] / [`remove`]: incremental insertion (face or edge split, then flips) and
//!   Delaunay vertex removal (ear flips, then a dissolve).
//! * [`insert_many`] / [`remove_many`]: the same in batches, in spatial order (coherent
//!   memory access at a million vertices); [`insert_many_atomic`]: all or nothing, positions
//!   and dead slots included.
//! * [`restore`]: after moving any set of vertices, the exact Delaunay triangulation again,
//!   keeping every vertex id: flips for small moves, local relocation for folds.
//! * [`adapt`]: refine and coarsen by a size field (splits, collapses, flips), still Delaunay.
//!
//! Positions are a `Vec<DVec3>` indexed by vertex id, as a world's position layer holds them
//! (`World::lock_mesh_and_positions` hands out exactly `(&mut Mesh, &mut Vec<DVec3>)`, and the
//! other layers follow the edits through the mesh's journal).
//!
//! ```
//! use delaunay::{Sphere, is_delaunay, restore, RestoreOptions};
//! let (mut mesh, mut pos) = sphere::fibonacci_sphere(2000, 1.0, 0.3, 9).unwrap();
//! // Turn a cap of the sphere by a few degrees: faces at its rim fold.
//! let axis = glam::DVec3::new(0.3, 0.9, 0.1).normalize();
//! let turn = glam::DQuat::from_axis_angle(axis, 0.05);
//! let moved: Vec<quadedge::Vertex> = mesh.vertices().filter(|v| pos[v.index()].dot(axis) > 0.5).collect();
//! for v in &moved {
//!     pos[v.index()] = turn * pos[v.index()];
//! }
//! let stats = restore(&Sphere, &mut mesh, &mut pos, Some(&moved), &RestoreOptions::default()).unwrap();
//! assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
//! assert_eq!(mesh.vertex_count(), 2000);
//! mesh.check().unwrap();
//! # let _ = stats;
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod adapt;
mod batch;
mod brio;
mod check;
pub mod covering;
mod error;
mod flips;
mod hint;
mod insert;
mod locate;
mod morton;
mod planned;
pub mod predicates;
mod remove;
// The resample stencils are the world's plumbing (`World::resample_onto` is the user's door).
#[doc(hidden)]
pub mod resample;
mod restore;

pub use adapt::{AdaptError, AdaptOptions, AdaptStats, Metric, adapt};
pub use batch::{BatchError, insert_many, insert_many_atomic, remove_many};
pub use check::{Report, Violation, delaunay_report, is_delaunay};
pub use error::DelaunayError;
pub use flips::{make_delaunay, make_delaunay_around, make_delaunay_from_edges};
pub use insert::{Inserted, insert, insert_keeping};
pub use locate::{Location, locate, nearest_vertex};
pub use planned::insert_in_order;
pub use predicates::{Plane, Sphere, Surface};
pub use remove::{Removed, remove, remove_many_in_parts};
pub use restore::{
    RestoreOptions, RestoreStats, restore, restore_rigid_band, restore_with_changes,
};

/// Plumbing the sibling crates (and the benches) share, not for users: it may change in any
/// release. Users locate points with [`locate`] and a world's operations.
#[doc(hidden)]
pub mod internals {
    pub use crate::brio::{Rounds, brio_rounds, hash as brio_hash};
    pub use crate::hint::HintGrid;
    pub use crate::morton::{MortonFrame, refine_runs};
    pub use crate::remove::remove_many_in_parts_within;
}

/// The README's example, compiled and run as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
