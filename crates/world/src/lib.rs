#![doc = include_str!("../README.md")]
//! # Overview
//!
//! A [`World`] owns a [`Mesh`], named typed [`Layer`]s, unstructured [`Dict`]s and a seeded
//! random generator, all behind `Arc`s: cloning a world is O(number of layers) and a write
//! copies only what it touches (the mesh on the first topology edit after a clone, a layer's
//! values on its first write after a clone). That makes snapshots and reading on other
//! threads while editing cheap. A [`History`] (undo/redo) shares no mesh with the world: it
//! keeps the mesh's topology writes (an undo log) and the changed 16 KiB blocks of layers.
//!
//! Writes go through lock guards, kept only by their `commit()` (dropped without it, a guard
//! rolls back: the world is `==` to what it was, same versions). While the mesh guard is
//! held the mesh records its change journal; when it is committed every layer replays the
//! journal by its own policies (and ids stored in dictionaries follow it too). To work on
//! the mesh and several layers at once use a [`Transaction`]; to edit the mesh with its
//! positions at hand, as a contiguous `Vec`, use
//! [`World::lock_mesh_and_positions`]. Replacing the whole mesh is an explicit operation,
//! [`World::replace_mesh`], that says what happens to each layer.
//!
//! # Versions
//!
//! Every component (mesh, each layer, each dictionary, the random generator) carries a
//! *version*: a stamp from the world's clock that changes exactly when the component's data
//! changes — a mutable access through a guard, a draw from the generator, a journal replay
//! that changed values. Locking without writing changes nothing. Stamps never repeat, not
//! even after an undo, so they make sound cache keys. (One approximation: a layer loaded from
//! a file and not decoded yet cannot tell whether a mesh edit changes its values without
//! decoding, so every mesh edit that records something stamps it.) (A [`Layer`]'s own
//! [`write_count`](Layer::write_count) is a different thing: a count of its mutable
//! accesses, which the world compares to decide whether to stamp.)
//!
//! ```
//! use layers::{Interpolation, LayerInfo, VertexKind, EdgeKind};
//! use quadedge::{Mesh, Vertex, shapes};
//! use world::World;
//!
//! const HEIGHT: LayerInfo<f32, VertexKind> =
//!     LayerInfo::new("height").interpolation(Interpolation::Lerp).range(-10.0, 10.0);
//! const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);
//!
//! let (n, t) = shapes::octahedron();
//! let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 42);
//! let mut h = world.lock_layer(&HEIGHT).unwrap();
//! h[Vertex::new(0)] = 2.0;
//! h.commit().unwrap(); // dropped without `commit`, the guard would roll back
//! let before = world.clone(); // a cheap snapshot
//! world.update_layer(&HEIGHT, |l| l[Vertex::new(0)] = 5.0).unwrap();
//! assert_eq!(before.layer(&HEIGHT).unwrap()[Vertex::new(0)], 2.0);
//! assert_eq!(world.layer(&DISTANCE), None); // never created
//!
//! let bytes = world.save_to_vec().unwrap();
//! let back = World::load_from_slice(&bytes).unwrap();
//! assert_eq!(back, world);
//! assert_eq!(back.layer(&HEIGHT).unwrap()[Vertex::new(0)], 5.0);
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod edit;
mod eq;
mod error;
mod file;
mod geometry;
mod guards;
mod history;
mod mesh_log;
mod pending;
mod positions;
pub mod resample;
mod rollback;
#[doc(hidden)]
pub mod sample;
mod slot;
mod sparse;
mod stored;
mod transaction;

pub use edit::MeshReplacement;
pub use error::WorldError;
pub use file::{FORMAT_VERSION, MAX_NAME_BYTES};
pub use geometry::{
    ColumnId, EditError, EditReport, FreshSphere, Geometry, MoveOptions, NewValues, PLANE_POSITION,
    POSITION_NAME, SPHERE_POSITION, Sample, ValuesError,
};
pub use guards::{DictGuard, LayerGuard, LayerPairGuard, MeshGuard, RandomGuard};
pub use history::History;
pub use layers::{Dict, Layer, LayerInfo};
pub use positions::MeshPositionsGuard;
pub use transaction::Transaction;

use layers::{Kind, LayerValue};
use quadedge::Mesh;
use rand_core::SeedableRng;
use rand_pcg::Pcg64;
use slot::Slot;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Mesh, layers, dictionaries and random generator, shared copy-on-write.
pub struct World {
    mesh: Arc<Mesh>,
    mesh_version: u64,
    layers: Vec<Slot>,
    dicts: BTreeMap<String, (Arc<Dict>, u64)>,
    rng: Arc<Pcg64>,
    rng_version: u64,
    /// Grows on every write; versions are stamps from this clock.
    pub(crate) clock: u64,
    /// The mesh as it was shared when the running mesh edit began: an edit that changes
    /// nothing puts it back, so the copy `&mut Mesh` forced is dropped and snapshots stay
    /// shared.
    pub(crate) mesh_before_edit: Option<std::sync::Weak<Mesh>>,
    /// A [`History`] follows this world: its mesh keeps its undo log through edits. Not
    /// cloned: a clone's mesh stops logging on its first edit, so copies kept for other
    /// uses do not record writes nobody takes.
    pub(crate) mesh_logged: bool,
    /// The position array a whole replacement (a motion of every vertex) left behind when
    /// nothing else held it: the next one writes into it instead of allocating and
    /// page-faulting a fresh array. Not part of the world's value (not compared, not cloned).
    pub(crate) spare_positions: Vec<glam::DVec3>,
}

/// A snapshot: shares every component (O(number of layers)).
impl Clone for World {
    fn clone(&self) -> Self {
        World {
            mesh: self.mesh.clone(),
            mesh_version: self.mesh_version,
            layers: self.layers.clone(),
            dicts: self.dicts.clone(),
            rng: self.rng.clone(),
            rng_version: self.rng_version,
            clock: self.clock,
            mesh_before_edit: None,
            mesh_logged: false,
            spare_positions: Vec::new(),
        }
    }
}

impl World {
    /// A world around `mesh`, with no layers and a generator seeded with `seed`. A journal
    /// or undo log left recording on `mesh` is discarded (nothing could read it).
    pub fn new(mut mesh: Mesh, seed: u64) -> Self {
        mesh.discard_journal();
        let _ = mesh.stop_undo_log();
        World {
            mesh: Arc::new(mesh),
            mesh_version: 1,
            layers: Vec::new(),
            dicts: BTreeMap::new(),
            rng: Arc::new(Pcg64::seed_from_u64(seed)),
            rng_version: 1,
            clock: 1,
            mesh_before_edit: None,
            mesh_logged: false,
            spare_positions: Vec::new(),
        }
    }

    /// A fresh stamp from the clock.
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn slot_index(&self, name: &str) -> Option<usize> {
        self.layers.iter().position(|s| s.name == name)
    }

    // ------------------------------------------------------------------ reading

    /// The mesh.
    pub fn mesh(&self) -> &Mesh {
        &self.mesh
    }

    /// The layer described by `info`, if it exists with this type and kind.
    ///
    /// A layer loaded from a file is decoded here on first access. Use [`World::try_layer`]
    /// to tell "missing" from "stored with another type" or "stored damaged".
    pub fn layer<T: LayerValue, K: Kind>(&self, info: &LayerInfo<T, K>) -> Option<&Layer<T, K>> {
        self.try_layer(info).ok().flatten()
    }

    /// Like [`World::layer`], with a typed error.
    ///
    /// # Errors
    ///
    /// [`WorldError::LayerMismatch`] when the layer exists with another type or kind. For a
    /// layer loaded from a file and decoded here: [`WorldError::Corrupt`] when its bytes do
    /// not decode or disagree with its section (name, length, policies, an empty range), and
    /// [`WorldError::Invalid`] when its values fail its own validation (a value outside its
    /// range): invalid data is never handed out.
    pub fn try_layer<T: LayerValue, K: Kind>(
        &self,
        info: &LayerInfo<T, K>,
    ) -> Result<Option<&Layer<T, K>>, WorldError> {
        match self.slot_index(info.name()) {
            None => Ok(None),
            Some(i) => self.layers[i].get::<T, K>().map(Some),
        }
    }

    /// Names of all layers, in creation order.
    pub fn layer_names(&self) -> impl Iterator<Item = &str> {
        self.layers.iter().map(|s| s.name.as_str())
    }

    /// Names of all dictionaries, in order.
    pub fn dict_names(&self) -> impl Iterator<Item = &str> {
        self.dicts.keys().map(String::as_str)
    }

    /// The dictionary named `name`.
    pub fn dict(&self, name: &str) -> Option<&Dict> {
        self.dicts.get(name).map(|(d, _)| &**d)
    }

    /// The random generator's current state (read only; draw through [`World::lock_random`]).
    pub fn random(&self) -> &Pcg64 {
        &self.rng
    }

    /// Version of the mesh (see [Versions](crate#versions)).
    pub fn mesh_version(&self) -> u64 {
        self.mesh_version
    }

    /// Version of a layer (see [Versions](crate#versions)); 0 if missing.
    pub fn layer_version(&self, name: &str) -> u64 {
        self.slot_index(name).map_or(0, |i| self.layers[i].version)
    }

    /// Version of a dictionary (see [Versions](crate#versions)); 0 if missing.
    pub fn dict_version(&self, name: &str) -> u64 {
        self.dicts.get(name).map_or(0, |d| d.1)
    }

    /// Version of the random generator's state (see [Versions](crate#versions)).
    pub fn random_version(&self) -> u64 {
        self.rng_version
    }

    /// Heap bytes of everything (shared parts counted in full), the position array kept for
    /// the next motion included.
    pub fn heap_bytes(&self) -> usize {
        let spare = self.spare_positions.capacity() * size_of::<glam::DVec3>();
        self.mesh.heap_bytes() + self.layers.iter().map(Slot::heap_bytes).sum::<usize>() + spare
    }

    /// Heap bytes `self` holds that `other` does not share: the mesh when it is not the same
    /// allocation, and each layer's chunks that are not the same allocations (what an undo
    /// snapshot costs: one chunk after writing one value).
    pub fn unshared_bytes(&self, other: &World) -> usize {
        let mut b = 0;
        if !Arc::ptr_eq(&self.mesh, &other.mesh) {
            b += self.mesh.heap_bytes();
        }
        for s in &self.layers {
            b += match other.layers.iter().find(|o| o.name == s.name) {
                Some(o) => s.unshared_bytes(o),
                None => s.heap_bytes(),
            };
        }
        b
    }
}
