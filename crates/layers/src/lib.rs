//! # layers
//!
//! Data attached to a [`quadedge`] mesh: one typed value per vertex, face or edge
//! ([`Layer`]), plus unstructured key–value data ([`Dict`]).
//!
//! * **Typed.** `Layer<T, K>` is indexed by the id type of its element kind `K`
//!   ([`VertexKind`], [`FaceKind`], [`EdgeKind`], [`DirectedEdgeKind`], [`DualEdgeKind`],
//!   [`DirectedDualEdgeKind`]); indexing a vertex layer with a face does not compile.
//! * **Slices, cheap to copy.** Values live in one `Arc`ed array: [`Layer::as_slice`] and
//!   [`Layer::as_mut_slice`] lend them whole, cloning a layer is O(1) and the first write after
//!   a clone copies the array once. An undo step keeps only the blocks that changed
//!   ([`Layer::delta_to`], [`BLOCK_BYTES`] per block), which is what lets a world keep undo
//!   snapshots of many large layers.
//! * **Follows the mesh without knowing topology.** [`Layer::apply_changes`] replays the mesh's
//!   [change journal](quadedge::journal) according to two policies in the layer's
//!   [`LayerInfo`]: [`OnChange`] (deleted elements, flipped edges and faces) and
//!   [`Interpolation`] (elements created by a split, the survivor of a collapse).
//! * **Type-erasable.** [`AnyLayer`] lets a world store layers of any type in one map and apply
//!   journals to all of them; [`journal_removes_layer`] answers the policy question for a
//!   layer whose type is not known yet. Every value type names itself in files with a fixed
//!   [`LayerValue::TYPE_KEY`].
//!
//! ```
//! use glam::Vec3;
//! use layers::{Interpolation, Layer, LayerInfo, Sizes, VertexKind, ApplyOutcome};
//! use quadedge::{Change, Edge, Face, SplitRecord, Vertex};
//!
//! const POSITION: LayerInfo<Vec3, VertexKind> =
//!     LayerInfo::new("position").interpolation(Interpolation::Slerp);
//!
//! let mut pos = Layer::new(POSITION, 2);
//! pos[Vertex::new(0)] = Vec3::X;
//! pos[Vertex::new(1)] = Vec3::Y;
//! // The mesh split edge v0 → v1 at t = 0.5 and made vertex 2.
//! let split = Change::Split(SplitRecord {
//!     origin: Vertex::new(0), dest: Vertex::new(1), t: 0.5, vertex: Vertex::new(2),
//!     edge: Edge::primal(0), new_edge: Edge::primal(2),
//!     cross_edges: [Edge::INVALID; 2], faces: [(Face::INVALID, Face::INVALID); 2],
//! });
//! let sizes = Sizes { vertices: 3, faces: 0, quads: 2 };
//! assert_eq!(pos.apply_changes(&[split], sizes), ApplyOutcome::Changed);
//! assert!((pos[Vertex::new(2)].length() - 1.0).abs() < 1e-6);
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod any;
mod dict;
mod error;
mod info;
mod kind;
mod layer;
mod layer_serde;
#[cfg(feature = "rayon")]
mod par;
mod removal;
mod replay;
pub mod resample;
mod storage;
mod value;

pub use any::{AnyDelta, AnyLayer, ApplyOutcome};
pub use dict::{Dict, DictError, MAX_DEPTH, Value, ValueType, journal_moves_ids};
pub use error::LayerError;
pub use info::{Interpolation, LayerInfo, OnChange};
pub use kind::{
    DirectedDualEdgeKind, DirectedEdgeKind, DualEdgeKind, EdgeKind, ElementId, ElementKind,
    FaceKind, Kind, Sizes, VertexKind,
};
pub use layer::{Layer, LayerDelta};
pub use removal::journal_removes_layer;
pub use storage::{BLOCK_BYTES, CHUNK, CHUNK_SHIFT, ChunkSlices, Values};
pub use value::{Interpolate, LayerValue};
