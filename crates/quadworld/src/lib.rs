#![doc = include_str!("../README.md")]
//! # Where things are
//!
//! - [`World`] (from the `world` crate): the front door. A planet or a map is one world:
//!   mesh, positions, typed layers, dictionaries, a seeded generator; every geometric edit
//!   ([`World::move_vertices`], [`World::insert_points`], [`World::remove_vertices`],
//!   [`World::refine`], [`World::resample_fresh_sphere`]) is all or nothing on the whole
//!   world, and [`History`] undoes any of them.
//! - [`mesh`]: the quad-edge topology (ids, traversal, the Voronoi dual, low-level edits).
//! - [`layers`]: typed per-element data and the interpolation policies that decide what new
//!   elements get.
//! - [`delaunay`], [`sphere`]: the exact algorithms and generators the world uses (for
//!   callers who manage meshes and positions themselves).
//! - [`plane`] (feature `plane`): flat maps; [`export`] (feature `export`): files and
//!   pictures, with [`io`] taking a world directly; [`surface`] (feature `surface`):
//!   drainage, erosion, rivers, climate and biomes; `planet` (feature `planet`): the
//!   tectonic pipeline.
//! - [`Error`]: every error of the library converts into it, so `?` works in `main`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
#[cfg(feature = "export")]
pub mod io;

pub use error::Error;
pub use glam;
pub use world::{
    ColumnId, EditError, EditReport, FreshSphere, Geometry, History, Layer, LayerInfo, MoveOptions,
    NewValues, Sample, ValuesError, World, WorldError,
};

/// The quad-edge mesh: ids, traversal, the Voronoi dual, low-level edits, the change journal.
pub mod mesh {
    pub use quadedge::*;
}

/// Typed data per vertex, face or edge, with interpolation policies; key–value dicts.
pub mod layers {
    pub use layers::*;
}

/// Exact Delaunay maintenance on a mesh and a `Vec` of positions (what the world's
/// operations call).
pub mod delaunay {
    pub use delaunay::*;
}

/// Sphere generators and spherical geometry (distances, areas, Voronoi cells).
pub mod sphere {
    pub use sphere::*;
}

/// Flat maps: Poisson-disc points, planar Delaunay closed by a ghost vertex.
#[cfg(feature = "plane")]
pub mod plane {
    pub use plane::*;
}

/// OBJ / PLY / glTF writers and the PNG renderers (plain slices in; see [`io`]
/// for a world in).
#[cfg(feature = "export")]
pub mod export {
    pub use export::*;
}

/// Surface stages over a world's relief: drainage, erosion, rivers, climate, biomes.
#[cfg(feature = "surface")]
pub mod surface {
    pub use surface::*;
}

/// The tectonic planet pipeline and the demo.
#[cfg(feature = "planet")]
pub mod planet {
    pub use planet::*;
}

/// The repository README's example, compiled and run as a doc test.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct RepositoryReadmeDoctests;
