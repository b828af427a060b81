//! Writing: locks, layer creation and removal, replacing the mesh, and the journal replay
//! that ends every mesh edit.

use crate::guards::{DictGuard, LayerGuard, LayerPairGuard, MeshGuard, RandomGuard};
use crate::rollback::HeldLayer;
use crate::slot::Slot;
use crate::{World, WorldError};
use layers::{ElementKind, Kind, Layer, LayerInfo, LayerValue, Sizes, journal_moves_ids};
use quadedge::{Change, Mesh, Recording};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// A journal shared by the layers that keep it for later (those still encoded), made once.
pub(crate) type Shared = OnceLock<Arc<[Change]>>;

/// What happens to layers and stored ids when [`World::replace_mesh`] swaps in a new mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshReplacement {
    /// Nothing maps old ids to new ones: every layer goes back to its initial values (sized
    /// to the new mesh) and every id stored in a dictionary becomes `Null`.
    ResetAll,
    /// The new mesh numbers its vertices like the old one (same `vertex_slots`, vertex `i` is
    /// the same point, as when re-triangulating the same positions): vertex layers and vertex
    /// ids in dictionaries are kept; face and edge layers reset, their ids become `Null`.
    KeepVertexData,
}

impl World {
    /// Locks the mesh for writing; [`MeshGuard::commit`] keeps the edit (the journal the
    /// mesh records is replayed into every layer), dropping the guard rolls it back by the
    /// undo log. The mesh is copied on the first write only if a snapshot shares it.
    pub fn lock_mesh(&mut self) -> MeshGuard<'_> {
        MeshGuard::new(self)
    }

    /// Locks a layer for writing, creating it (initial values, sized to the mesh) if missing;
    /// [`LayerGuard::commit`] keeps the writes (and the creation), dropping the guard puts the
    /// layer back as it was (removes it if created).
    ///
    /// A layer keeps the info it was created with; asking with another value type or element
    /// kind, or with other settings (initial value, range, validation, policies), is an
    /// error. The layer's version changes only if the guard is used to write.
    ///
    /// # Errors
    ///
    /// [`WorldError::LayerMismatch`] for another type or kind,
    /// [`WorldError::LayerSettingsDiffer`] for other settings, [`WorldError::Invalid`] for a
    /// new auto-validated layer whose initial value is outside its range (or whose range is
    /// empty); for a layer loaded from a file, the decode errors of [`World::try_layer`].
    /// Nothing changes on error.
    pub fn lock_layer<T: LayerValue, K: Kind>(
        &mut self,
        info: &LayerInfo<T, K>,
    ) -> Result<LayerGuard<'_, T, K>, WorldError> {
        self.check_layer(info)?;
        let created = self.slot_index(info.name()).is_none();
        let i = self.ensure_layer(info);
        let stamp = self.tick();
        let held = HeldLayer::new(self, i, created, stamp);
        Ok(LayerGuard::new(self, held))
    }

    /// Locks two different layers at once (see [`World::transaction`] for more, or for
    /// mixing reads and writes with the mesh); [`LayerPairGuard::commit`] keeps the writes of
    /// both or neither, dropping the guard puts both back.
    ///
    /// # Errors
    ///
    /// [`WorldError::SameLayerTwice`], or the errors of [`World::lock_layer`] for either.
    /// Nothing changes on error: neither layer is created unless both can be locked.
    pub fn lock_layers<A: LayerValue, KA: Kind, B: LayerValue, KB: Kind>(
        &mut self,
        a: &LayerInfo<A, KA>,
        b: &LayerInfo<B, KB>,
    ) -> Result<LayerPairGuard<'_, A, KA, B, KB>, WorldError> {
        if a.name() == b.name() {
            return Err(WorldError::SameLayerTwice(a.name().to_string()));
        }
        self.check_layer(a)?;
        self.check_layer(b)?;
        let created_a = self.slot_index(a.name()).is_none();
        let i = self.ensure_layer(a);
        let created_b = self.slot_index(b.name()).is_none();
        let j = self.ensure_layer(b);
        let (stamp_a, stamp_b) = (self.tick(), self.tick());
        let held = [
            HeldLayer::new(self, i, created_a, stamp_a),
            HeldLayer::new(self, j, created_b, stamp_b),
        ];
        Ok(LayerPairGuard::new(self, held))
    }

    /// Can `info` be locked? An existing layer of its name must have its type, kind and
    /// settings; a new one must accept its own initial value when it validates itself.
    pub(crate) fn check_layer<T: LayerValue, K: Kind>(
        &mut self,
        info: &LayerInfo<T, K>,
    ) -> Result<(), WorldError> {
        match self.slot_index(info.name()) {
            Some(i) => {
                let layer = self.layers[i].get_mut::<T, K>()?;
                if layer.info().bits_eq(info) {
                    Ok(())
                } else {
                    Err(WorldError::LayerSettingsDiffer(info.name().to_string()))
                }
            }
            None if info.is_auto_validated() => Layer::new(info.clone(), 1)
                .validate()
                .map_err(WorldError::Invalid),
            None => Ok(()),
        }
    }

    /// The index of the layer named like `info`, created if missing. The caller has checked
    /// it with [`World::check_layer`].
    pub(crate) fn ensure_layer<T: LayerValue, K: Kind>(&mut self, info: &LayerInfo<T, K>) -> usize {
        match self.slot_index(info.name()) {
            Some(i) => i,
            None => {
                let version = self.tick();
                let layer = Layer::with_sizes(info.clone(), Sizes::of(&self.mesh));
                self.layers.push(Slot::new(layer, version));
                self.layers.len() - 1
            }
        }
    }

    /// Locks `info` (creating it if missing), lets `f` write it and commits: `lock_layer`,
    /// the writes and [`LayerGuard::commit`] in one call. A panic in `f` rolls back.
    ///
    /// ```
    /// use layers::{LayerInfo, VertexKind};
    /// use quadedge::{Mesh, Vertex, shapes};
    /// use world::World;
    /// const HEIGHT: LayerInfo<f32, VertexKind> =
    ///     LayerInfo::new("height").range(0.0, 9.0).auto_validate(true);
    /// let (n, t) = shapes::octahedron();
    /// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    /// world.update_layer(&HEIGHT, |h| h[Vertex::new(2)] = 5.0).unwrap();
    /// assert!(world.update_layer(&HEIGHT, |h| h.fill(10.0)).is_err()); // out of range
    /// assert_eq!(world.layer(&HEIGHT).unwrap()[Vertex::new(2)], 5.0);
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`World::lock_layer`], and [`WorldError::Invalid`] when the commit refuses
    /// the values (the layer is then as it was).
    pub fn update_layer<T: LayerValue, K: Kind, R>(
        &mut self,
        info: &LayerInfo<T, K>,
        f: impl FnOnce(&mut Layer<T, K>) -> R,
    ) -> Result<R, WorldError> {
        let mut guard = self.lock_layer(info)?;
        let r = f(&mut guard);
        guard.commit()?;
        Ok(r)
    }

    /// Locks the mesh, lets `f` edit it and commits ([`World::lock_mesh`] and
    /// [`MeshGuard::commit`] in one call; a panic in `f` rolls back). `f`'s result is
    /// returned as it is: an edit that fails has changed nothing (every `Mesh` edit checks
    /// first), so the commit keeps what succeeded.
    pub fn update_mesh<R>(&mut self, f: impl FnOnce(&mut Mesh) -> R) -> R {
        let mut guard = self.lock_mesh();
        let r = f(&mut guard);
        guard.commit();
        r
    }

    /// Locks the dictionary `name` (creating it if missing), lets `f` write it and commits
    /// ([`World::lock_dict`] and [`DictGuard::commit`] in one call).
    pub fn update_dict<R>(&mut self, name: &str, f: impl FnOnce(&mut layers::Dict) -> R) -> R {
        let mut guard = self.lock_dict(name);
        let r = f(&mut guard);
        guard.commit();
        r
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

    /// Locks a dictionary for writing, creating an empty one if missing; [`DictGuard::commit`]
    /// keeps the writes (and the creation), dropping the guard puts the dictionary back as it
    /// was (removes it if created). Its version changes when it is created and when the
    /// guard is used to write.
    pub fn lock_dict(&mut self, name: &str) -> DictGuard<'_> {
        let stamp = self.tick();
        DictGuard::new(self, name, stamp)
    }

    /// Locks the random generator; [`RandomGuard::commit`] keeps the draws, each advancing
    /// the state saved with the world; dropping the guard puts the state back. The version
    /// changes only if the guard is used to draw.
    pub fn lock_random(&mut self) -> RandomGuard<'_> {
        let stamp = self.tick();
        RandomGuard::new(&mut self.rng, &mut self.rng_version, stamp)
    }

    /// Replaces the whole mesh, saying what happens to the data (see [`MeshReplacement`]).
    /// A journal or undo log left recording on `mesh` is discarded. When a [`History`](crate::History)
    /// follows this world, the replacement is logged as a copy of the old and the new
    /// topology (an undo step that costs two meshes).
    ///
    /// # Errors
    ///
    /// [`WorldError::VertexSlotsDiffer`] for [`MeshReplacement::KeepVertexData`] when the new
    /// mesh has another number of vertex slots; nothing changes then.
    pub fn replace_mesh(&mut self, mesh: Mesh, how: MeshReplacement) -> Result<(), WorldError> {
        if how == MeshReplacement::KeepVertexData && mesh.vertex_slots() != self.mesh.vertex_slots()
        {
            return Err(WorldError::VertexSlotsDiffer {
                old: self.mesh.vertex_slots(),
                new: mesh.vertex_slots(),
            });
        }
        self.swap_mesh(mesh);
        self.after_replacement(how);
        Ok(())
    }

    /// Puts `mesh` in place of the world's mesh (logged for a history following the world);
    /// layers and versions are the caller's business.
    pub(crate) fn swap_mesh(&mut self, mut mesh: Mesh) {
        mesh.discard_journal();
        let _ = mesh.stop_undo_log();
        if self.mesh_logged && self.mesh.is_undo_logging() {
            // A history follows this mesh: log the replacement (two topology copies) so that
            // undo brings the old mesh back.
            Arc::make_mut(&mut self.mesh).replace_topology(mesh);
        } else {
            self.mesh = Arc::new(mesh);
        }
    }

    pub(crate) fn after_replacement(&mut self, how: MeshReplacement) {
        let version = self.tick();
        self.mesh_version = version;
        let sizes = Sizes::of(&self.mesh);
        let keep_vertices = how == MeshReplacement::KeepVertexData;
        for s in &mut self.layers {
            let keep = keep_vertices && s.kind == ElementKind::Vertex;
            s.replace(sizes, keep, version);
        }
        self.forget_dict_ids(keep_vertices, version);
    }

    /// Mesh ids in dictionaries become `Null` (vertex ids kept with `keep_vertices`).
    pub(crate) fn forget_dict_ids(&mut self, keep_vertices: bool, version: u64) {
        for (dict, v) in self.dicts.values_mut() {
            if dict.has_ids() && Arc::make_mut(dict).forget_ids(keep_vertices) {
                *v = version;
            }
        }
    }

    /// Ends a mesh edit: replays its journal into every layer and dictionary by `replay`
    /// (the positions guard wraps the replay to keep the values it lent).
    ///
    /// If the journal is gone, the mesh was replaced (or its journal discarded) through the
    /// `&mut Mesh` lent: nothing maps old ids to new ones, so the edit ends as a replacement
    /// by [`MeshReplacement::ResetAll`].
    pub(crate) fn finish_mesh_edit_with(
        &mut self,
        recording: Recording,
        replay: impl FnOnce(&mut World, Vec<Change>),
    ) {
        let before = self.mesh_before_edit.take();
        let mesh = Arc::make_mut(&mut self.mesh);
        match mesh.stop_recording(recording) {
            Ok(changes) => {
                if changes.is_empty()
                    && let Some(shared) = before.and_then(|w| w.upgrade())
                    // Unjournaled calls (`reserve`, `shrink_to_fit`) change capacities only;
                    // compare anyway, so nothing that differs is ever dropped.
                    && *shared == *self.mesh
                {
                    self.mesh = shared;
                }
                replay(self, changes);
            }
            Err(_) => {
                mesh.discard_journal();
                self.after_replacement(MeshReplacement::ResetAll);
            }
        }
    }

    pub(crate) fn apply_journal(&mut self, changes: Vec<Change>) {
        let flips_only = flips_only(&changes);
        self.apply_journal_known(changes, flips_only);
    }

    /// [`World::apply_journal`] told whether the journal is [`flips_only`].
    pub(crate) fn apply_journal_known(&mut self, changes: Vec<Change>, flips_only: bool) {
        if changes.is_empty() {
            self.recycle_journal(changes);
            return;
        }
        let version = self.tick();
        self.mesh_version = version;
        let sizes = Sizes::of(&self.mesh);
        if !(flips_only && self.layers.iter().all(|s| s.skips_flips(sizes))) {
            // Each layer replays the journal on its own: one task per layer, on all cores
            // (each layer's values are what a serial replay makes). The journal is copied
            // into an `Arc` only for a layer still encoded (which keeps it for later).
            let shared = Shared::new();
            let keep: Vec<bool> = self
                .layers
                .par_iter_mut()
                .with_max_len(1)
                .map(|s| {
                    (flips_only && s.skips_flips(sizes))
                        || s.apply(&changes, &shared, sizes, version)
                })
                .collect();
            let mut keep = keep.into_iter();
            self.layers.retain(|_| keep.next().unwrap_or(true));
        }
        // The journal is read for moved ids only when a dictionary holds ids.
        if self.dicts.values().any(|(d, _)| d.has_ids()) && journal_moves_ids(&changes) {
            for (dict, v) in self.dicts.values_mut() {
                if dict.has_ids() && Arc::make_mut(dict).apply_changes(&changes) {
                    *v = version;
                }
            }
        }
        self.recycle_journal(changes);
    }

    /// The next edit journals into this buffer (unless a snapshot shares the mesh), an empty
    /// journal's too: it holds the room of the last large one.
    pub(crate) fn recycle_journal(&mut self, changes: Vec<Change>) {
        if let Some(mesh) = Arc::get_mut(&mut self.mesh) {
            mesh.recycle_changes(changes);
        }
    }
}

/// Is the journal made of flips and vertex moves alone (a motion's repair)? They make and
/// remove no vertex, so they leave every vertex value as it is: vertex layers skip them. On all
/// cores for a long journal (the same answer).
pub(crate) fn flips_only(changes: &[Change]) -> bool {
    let moves = |c: &Change| matches!(c, Change::Flip(_) | Change::VertexMoved(_));
    if changes.len() >= 1 << 14 {
        changes.par_iter().with_min_len(1 << 12).all(moves)
    } else {
        changes.iter().all(moves)
    }
}

/// Starts the journal of a mesh edit on `mesh` (copying it first if a clone shares it; see
/// [`World::start_mesh_edit`]) and lends it. A function of the fields, so that a guard can
/// lend a layer beside the mesh.
pub(crate) fn start_edit<'m>(
    mesh: &'m mut Arc<Mesh>,
    before: &mut Option<std::sync::Weak<Mesh>>,
    recording: &mut Option<Recording>,
    logged: bool,
) -> &'m mut Mesh {
    if recording.is_none() {
        *before = (Arc::strong_count(mesh) > 1).then(|| Arc::downgrade(mesh));
    }
    let mesh = crate::mesh_log::writable(mesh);
    if recording.is_none() {
        // A journal left on by whoever built this mesh is not ours to read: start afresh.
        mesh.discard_journal();
        *recording = mesh.record_changes().ok();
        if !logged {
            // An undo log inherited from the world this one was cloned from: no history
            // follows this world, so nothing would take it.
            let _ = mesh.stop_undo_log();
        }
    }
    mesh
}
