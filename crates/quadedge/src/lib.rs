#![doc = include_str!("../README.md")]
//! # Overview
//!
//! An index-based quad-edge triangle mesh (Guibas & Stolfi 1985) that holds a primal triangle
//! mesh (the Delaunay triangulation of a world) and its dual (the Voronoi diagram) at once.
//!
//! * Ids are typed `u32`s: [`Vertex`], [`Face`], [`Edge`]. An edge id carries the dual flag in
//!   bit 31 and the direction in bit 0, so [`Edge::rot`], [`Edge::sym`] and [`Edge::inv_rot`] are
//!   bit operations.
//! * Storage is structure-of-arrays: per vertex one outgoing edge, per face one edge, per
//!   directed primal and dual edge its origin and its `origin_next`. That is 108 bytes per vertex
//!   for a closed triangle mesh.
//! * The crate holds topology only. Positions and any other data live in layers keyed by the ids
//!   (crate `layers`), which follow edits through the [change journal](journal).
//!
//! ```
//! use quadedge::{Mesh, Vertex};
//!
//! // A tetrahedron, counter-clockwise seen from outside.
//! let mesh = Mesh::from_triangles(4, &[[0, 2, 1], [0, 3, 2], [0, 1, 3], [1, 2, 3]]).unwrap();
//! assert_eq!((mesh.vertex_count(), mesh.undirected_edge_count(), mesh.face_count()), (4, 6, 4));
//! assert_eq!(mesh.euler_characteristic(), 2);
//! let mut around: Vec<Vertex> = mesh.neighbors(Vertex::new(0)).collect();
//! around.sort();
//! assert_eq!(around, [Vertex::new(1), Vertex::new(2), Vertex::new(3)]);
//! mesh.check().unwrap();
//! ```

#![warn(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
#![forbid(unsafe_op_in_unsafe_fn)]
// Index loops over parallel flat arrays are the point of this crate.
#![allow(clippy::needless_range_loop)]

/// `Mesh { fields.. }` with every other field at its default (`Mesh` has `Drop`, so struct
/// update syntax cannot move the rest out of `Mesh::default()`).
macro_rules! mesh_with {
    ($($field:ident: $value:expr),* $(,)?) => {{
        let mut m = $crate::Mesh::default();
        $(m.$field = $value;)*
        m
    }};
}

mod build;
mod check;
mod compact;
mod describe;
mod edit;
mod error;
mod frozen;
mod ids;
#[doc(hidden)]
pub mod internals;
mod iter;
pub mod journal;
mod lend;
mod mesh;
#[cfg(feature = "rayon")]
mod par;
mod reorder;
#[cfg(feature = "serde")]
mod serde_bytes;
pub mod shapes;
mod slots;
mod topology;
mod undo;

pub use error::MeshError;
pub use frozen::{FrozenError, FrozenMesh, FrozenParts, MAX_FROZEN_VERTICES};
pub use ids::{DUAL_BIT, Edge, Face, NONE, Vertex};
pub use iter::*;
pub use journal::{
    Change, CollapseRecord, DissolveRecord, FaceSplitRecord, FlipRecord, MoveRecord, Recording,
    Remap, SplitRecord, StitchRecord, UnstitchRecord, VertexSplitRecord,
};
pub use mesh::Mesh;
#[cfg(feature = "rayon")]
pub use par::{MeshPart, PAR_CHUNK, PartError};
pub use reorder::ReorderError;
pub use topology::Topology;
pub use undo::UndoLog;
