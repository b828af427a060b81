#![doc = include_str!("../README.md")]
//! # Overview
//!
//! A [`World`] owns a [`Mesh`], named typed [`Layer`]s, unstructured [`Dict`]s and a seeded
//! random generator, all behind `Arc`s: cloning a world is O(number of layers) and a write
//! copies only what it touches (one mesh copy for a topology edit, one 4096-value chunk for a
//! layer value). That makes snapshots, [`History`] (undo/redo) and reading on other threads
//! while editing cheap.
//!
//! Writes go through lock guards. While the mesh guard is held the mesh records its change
//! journal; when it is dropped every layer replays the journal by its own policies, and every
//! component that changed gets a new version number.
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
//! {
//!     let mut h = world.lock_layer(&HEIGHT).unwrap();
//!     h[Vertex::new(0)] = 2.0;
//! }
//! let before = world.clone(); // a cheap snapshot
//! world.lock_layer(&HEIGHT).unwrap()[Vertex::new(0)] = 5.0;
//! assert_eq!(before.layer(&HEIGHT).unwrap()[Vertex::new(0)], 2.0);
//! assert_eq!(world.layer(&DISTANCE), None); // never created
//!
//! let bytes = world.save_to_vec();
//! let back = World::load_from_slice(&bytes).unwrap();
//! assert_eq!(back, world);
//! assert_eq!(back.layer(&HEIGHT).unwrap()[Vertex::new(0)], 5.0);
//! ```

#![warn(missing_docs)]

mod error;
mod file;
mod history;
mod slot;

pub use error::WorldError;
pub use history::History;
pub use layers::{Dict, Layer, LayerInfo};

use layers::{Kind, LayerError, LayerValue, Sizes};
use quadedge::{Change, Mesh, Recording};
use rand_core::SeedableRng;
use rand_pcg::Pcg64;
use slot::Slot;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Mesh, layers, dictionaries and random generator, shared copy-on-write.
#[derive(Clone)]
pub struct World {
    mesh: Arc<Mesh>,
    mesh_version: u64,
    layers: Vec<Slot>,
    dicts: BTreeMap<String, (Arc<Dict>, u64)>,
    rng: Arc<Pcg64>,
    rng_version: u64,
    /// Grows on every write; versions are stamps from this clock.
    pub(crate) clock: u64,
}

impl World {
    /// A world around `mesh`, with no layers and a generator seeded with `seed`.
    pub fn new(mesh: Mesh, seed: u64) -> Self {
        World {
            mesh: Arc::new(mesh),
            mesh_version: 1,
            layers: Vec::new(),
            dicts: BTreeMap::new(),
            rng: Arc::new(Pcg64::seed_from_u64(seed)),
            rng_version: 1,
            clock: 1,
        }
    }

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
    /// to tell "missing" from "stored with another type".
    pub fn layer<T: LayerValue, K: Kind>(&self, info: &LayerInfo<T, K>) -> Option<&Layer<T, K>> {
        self.try_layer(info).ok().flatten()
    }

    /// Like [`World::layer`], with a typed error for a type or kind mismatch or a corrupt
    /// encoded layer.
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

    /// The dictionary named `name`.
    pub fn dict(&self, name: &str) -> Option<&Dict> {
        self.dicts.get(name).map(|(d, _)| &**d)
    }

    /// The random generator's current state (read only; draw through [`World::lock_random`]).
    pub fn random(&self) -> &Pcg64 {
        &self.rng
    }

    /// Version of the mesh: grows whenever the mesh is written.
    pub fn mesh_version(&self) -> u64 {
        self.mesh_version
    }

    /// Version of a layer (0 if missing): grows whenever its values change.
    pub fn layer_version(&self, name: &str) -> u64 {
        self.slot_index(name).map_or(0, |i| self.layers[i].version)
    }

    /// Version of a dictionary (0 if missing).
    pub fn dict_version(&self, name: &str) -> u64 {
        self.dicts.get(name).map_or(0, |d| d.1)
    }

    /// Version of the random generator's state.
    pub fn random_version(&self) -> u64 {
        self.rng_version
    }

    /// Heap bytes of everything (shared parts counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.mesh.heap_bytes() + self.layers.iter().map(Slot::heap_bytes).sum::<usize>()
    }

    /// Heap bytes `self` holds that `other` does not share (components compared by `Arc`
    /// identity; a layer with any written chunk counts in full, so this over-estimates).
    pub fn unshared_bytes(&self, other: &World) -> usize {
        let mut b = 0;
        if !Arc::ptr_eq(&self.mesh, &other.mesh) {
            b += self.mesh.heap_bytes();
        }
        for s in &self.layers {
            match other.layers.iter().find(|o| o.name == s.name) {
                Some(o) if s.shares(o) => {}
                _ => b += s.heap_bytes(),
            }
        }
        b
    }

    /// Validation failures found when layer guards were dropped, oldest first.
    pub fn take_validation_errors(&mut self) -> Vec<LayerError> {
        self.layers
            .iter_mut()
            .filter_map(|s| s.error.take())
            .collect()
    }

    // ------------------------------------------------------------------ writing

    /// Locks the mesh for writing. The mesh is copied on the first write if a snapshot shares
    /// it; the journal it records is applied to every layer when the guard is dropped.
    pub fn lock_mesh(&mut self) -> MeshGuard<'_> {
        MeshGuard {
            world: self,
            recording: None,
        }
    }

    /// Locks a layer for writing, creating it (initial values, sized to the mesh) if missing.
    ///
    /// A layer keeps the info it was created with; asking with another value type or element
    /// kind is an error, other differing settings are ignored.
    pub fn lock_layer<T: LayerValue, K: Kind>(
        &mut self,
        info: &LayerInfo<T, K>,
    ) -> Result<LayerGuard<'_, T, K>, WorldError> {
        let i = self.ensure_layer(info)?;
        let version = self.tick();
        let slot = &mut self.layers[i];
        slot.get_mut::<T, K>()?;
        Ok(LayerGuard {
            slot,
            version,
            _type: PhantomData,
        })
    }

    /// Locks two different layers at once.
    pub fn lock_layers<A: LayerValue, KA: Kind, B: LayerValue, KB: Kind>(
        &mut self,
        a: &LayerInfo<A, KA>,
        b: &LayerInfo<B, KB>,
    ) -> Result<GuardPair<'_, A, KA, B, KB>, WorldError> {
        if a.name() == b.name() {
            return Err(WorldError::SameLayerTwice(a.name().to_string()));
        }
        let i = self.ensure_layer(a)?;
        let j = self.ensure_layer(b)?;
        let version = self.tick();
        let [sa, sb] = self
            .layers
            .get_disjoint_mut([i, j])
            .expect("distinct indices");
        sa.get_mut::<A, KA>()?;
        sb.get_mut::<B, KB>()?;
        Ok((
            LayerGuard {
                slot: sa,
                version,
                _type: PhantomData,
            },
            LayerGuard {
                slot: sb,
                version,
                _type: PhantomData,
            },
        ))
    }

    fn ensure_layer<T: LayerValue, K: Kind>(
        &mut self,
        info: &LayerInfo<T, K>,
    ) -> Result<usize, WorldError> {
        match self.slot_index(info.name()) {
            Some(i) => {
                self.layers[i].check_type::<T, K>()?;
                Ok(i)
            }
            None => {
                let version = self.tick();
                let layer = Layer::with_sizes(info.clone(), Sizes::of(&self.mesh));
                self.layers.push(Slot::new(layer, version));
                Ok(self.layers.len() - 1)
            }
        }
    }

    /// Removes a layer; returns whether it existed.
    pub fn remove_layer(&mut self, name: &str) -> bool {
        match self.slot_index(name) {
            Some(i) => {
                self.layers.remove(i);
                true
            }
            None => false,
        }
    }

    /// Locks a dictionary for writing, creating an empty one if missing.
    pub fn lock_dict(&mut self, name: &str) -> DictGuard<'_> {
        let version = self.tick();
        let entry = self
            .dicts
            .entry(name.to_string())
            .or_insert_with(|| (Arc::new(Dict::default()), version));
        DictGuard { entry, version }
    }

    /// Locks the random generator; every draw advances the state saved with the world.
    pub fn lock_random(&mut self) -> RandomGuard<'_> {
        self.rng_version = self.tick();
        RandomGuard {
            rng: Arc::make_mut(&mut self.rng),
        }
    }

    fn finish_mesh_edit(&mut self, recording: Recording) {
        let version = self.tick();
        self.mesh_version = version;
        let mesh = Arc::make_mut(&mut self.mesh);
        let sizes = Sizes::of(mesh);
        match mesh.stop_recording(recording) {
            Ok(changes) => {
                if changes.is_empty() {
                    return;
                }
                let changes: Arc<[Change]> = changes.into();
                self.layers
                    .retain_mut(|s| s.apply(&changes, sizes, version));
            }
            // The mesh was replaced by one that was not recording: nothing maps old ids to
            // new ones, so every layer starts over from its initial values.
            Err(_) => {
                mesh.discard_journal();
                self.layers
                    .iter_mut()
                    .for_each(|s| s.reset_to(sizes, version))
            }
        }
    }
}

impl PartialEq for World {
    /// Same mesh, generator state, dictionaries and layer contents (compared encoded, so a
    /// loaded world equals the saved one before its layers are decoded). Versions are not
    /// compared.
    fn eq(&self, other: &Self) -> bool {
        *self.mesh == *other.mesh
            && *self.rng == *other.rng
            && self.dicts.len() == other.dicts.len()
            && self
                .dicts
                .iter()
                .zip(&other.dicts)
                .all(|(a, b)| a.0 == b.0 && a.1.0 == b.1.0)
            && self.layers.len() == other.layers.len()
            && self.layers.iter().zip(&other.layers).all(|(a, b)| {
                a.name == b.name
                    && a.kind == b.kind
                    && a.type_name == b.type_name
                    && a.encoded() == b.encoded()
            })
    }
}

impl core::fmt::Debug for World {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("World")
            .field("mesh", &*self.mesh)
            .field(
                "layers",
                &self
                    .layers
                    .iter()
                    .map(|s| (&s.name, s.kind, &s.type_name))
                    .collect::<Vec<_>>(),
            )
            .field("dicts", &self.dicts.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Write access to the mesh; see [`World::lock_mesh`].
pub struct MeshGuard<'w> {
    world: &'w mut World,
    /// The journal this guard started on first write; only the guard can read or stop it.
    recording: Option<Recording>,
}

impl Deref for MeshGuard<'_> {
    type Target = Mesh;
    fn deref(&self) -> &Mesh {
        &self.world.mesh
    }
}

impl DerefMut for MeshGuard<'_> {
    fn deref_mut(&mut self) -> &mut Mesh {
        let mesh = Arc::make_mut(&mut self.world.mesh);
        if self.recording.is_none() {
            // A journal left on by whoever built this mesh is not ours to read: start afresh.
            mesh.discard_journal();
            self.recording = mesh.record_changes().ok();
        }
        mesh
    }
}

impl Drop for MeshGuard<'_> {
    fn drop(&mut self) {
        if let Some(recording) = self.recording.take() {
            self.world.finish_mesh_edit(recording);
        }
    }
}

/// Two layer guards from [`World::lock_layers`].
pub type GuardPair<'w, A, KA, B, KB> = (LayerGuard<'w, A, KA>, LayerGuard<'w, B, KB>);

/// Write access to one layer; see [`World::lock_layer`].
///
/// Dropping it bumps the layer's version and, for layers with automatic validation, checks
/// every value: a failure is kept for [`World::take_validation_errors`]. Call
/// [`LayerGuard::commit`] to get it as a `Result` instead.
pub struct LayerGuard<'w, T: LayerValue, K: Kind> {
    slot: &'w mut Slot,
    version: u64,
    _type: PhantomData<fn() -> (T, K)>,
}

impl<T: LayerValue, K: Kind> LayerGuard<'_, T, K> {
    /// Ends the write and validates now (if the layer validates automatically).
    pub fn commit(mut self) -> Result<(), LayerError> {
        self.finish();
        match self.slot.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn finish(&mut self) {
        self.slot.version = self.version;
        let auto = self
            .slot
            .get::<T, K>()
            .map(|l| l.info().is_auto_validated())
            .unwrap_or(false);
        if auto {
            self.slot.error = self.slot.validate().err();
        }
    }
}

impl<T: LayerValue, K: Kind> Deref for LayerGuard<'_, T, K> {
    type Target = Layer<T, K>;
    fn deref(&self) -> &Layer<T, K> {
        self.slot.get::<T, K>().expect("locked layers are typed")
    }
}

impl<T: LayerValue, K: Kind> DerefMut for LayerGuard<'_, T, K> {
    fn deref_mut(&mut self) -> &mut Layer<T, K> {
        self.slot
            .get_mut::<T, K>()
            .expect("locked layers are typed")
    }
}

impl<T: LayerValue, K: Kind> Drop for LayerGuard<'_, T, K> {
    fn drop(&mut self) {
        if self.slot.version != self.version {
            self.finish();
        }
    }
}

/// Write access to a dictionary; see [`World::lock_dict`].
pub struct DictGuard<'w> {
    entry: &'w mut (Arc<Dict>, u64),
    version: u64,
}

impl Deref for DictGuard<'_> {
    type Target = Dict;
    fn deref(&self) -> &Dict {
        &self.entry.0
    }
}

impl DerefMut for DictGuard<'_> {
    fn deref_mut(&mut self) -> &mut Dict {
        self.entry.1 = self.version;
        Arc::make_mut(&mut self.entry.0)
    }
}

/// Write access to the random generator; see [`World::lock_random`].
pub struct RandomGuard<'w> {
    rng: &'w mut Pcg64,
}

impl Deref for RandomGuard<'_> {
    type Target = Pcg64;
    fn deref(&self) -> &Pcg64 {
        self.rng
    }
}

impl DerefMut for RandomGuard<'_> {
    fn deref_mut(&mut self) -> &mut Pcg64 {
        self.rng
    }
}
