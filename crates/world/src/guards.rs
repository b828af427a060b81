//! Lock guards: write access to one component, finished (journal replayed, version stamped,
//! validation run) by `commit` or when dropped. No guard leaves an error behind: what cannot
//! be committed is rolled back, and `commit` says so.

use crate::slot::Slot;
use crate::{Dict, World};
use layers::{Kind, Layer, LayerError, LayerValue};
use quadedge::{Mesh, Recording};
use rand_pcg::Pcg64;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Write access to the mesh; see [`World::lock_mesh`].
///
/// The journal that lets layers follow the edit belongs to the guard: the `&mut Mesh` it
/// lends cannot read or stop it (that needs the guard's [`Recording`]), and starting another
/// one fails with `AlreadyRecording`. Replacing the mesh through the `&mut Mesh` (or
/// discarding its journal) leaves nothing that maps old ids to new ones: the guard then ends
/// as [`World::replace_mesh`] with
/// [`MeshReplacement::ResetAll`](crate::MeshReplacement::ResetAll) does (every layer reset,
/// mesh ids in dictionaries cleared), whether committed or dropped. Ending the guard cannot
/// fail, so dropping it is the same as committing it.
///
/// ```
/// use quadedge::{Mesh, shapes};
/// use world::World;
/// let (n, t) = shapes::octahedron();
/// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
/// let mut mesh = world.lock_mesh();
/// assert!(mesh.record_changes().is_err()); // the guard's journal is running
/// *mesh = Mesh::new(); // a replacement: the data is reset with it
/// mesh.commit();
/// assert_eq!(world.mesh().vertex_count(), 0);
/// ```
pub struct MeshGuard<'w> {
    world: &'w mut World,
    /// The journal this guard started on first write; only the guard can read or stop it.
    recording: Option<Recording>,
}

impl<'w> MeshGuard<'w> {
    pub(crate) fn new(world: &'w mut World) -> Self {
        MeshGuard {
            world,
            recording: None,
        }
    }

    /// Ends the edit now: replays the journal into every layer and dictionary (or resets
    /// them after a replacement; see the type's docs).
    pub fn commit(mut self) {
        if let Some(r) = self.recording.take() {
            self.world.finish_mesh_edit(r);
        }
    }
}

impl Deref for MeshGuard<'_> {
    type Target = Mesh;
    fn deref(&self) -> &Mesh {
        &self.world.mesh
    }
}

impl DerefMut for MeshGuard<'_> {
    fn deref_mut(&mut self) -> &mut Mesh {
        self.world.start_mesh_edit(&mut self.recording)
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
/// If the guard was used to write (a mutable access), ending it stamps the layer's version.
/// For a layer with automatic validation, ending it also checks every value: values outside
/// the range are not kept, the layer goes back to what it was when locked (values and
/// version), and [`LayerGuard::commit`] returns the error; dropping the guard without
/// `commit` rolls back the same way, so an invalid layer is never stored. (Such a guard holds
/// the layer's values as they were, so its first write copies them once.) A guard only read
/// from changes nothing.
pub struct LayerGuard<'w, T: LayerValue, K: Kind> {
    slot: &'w mut Slot,
    stamp: u64,
    writes_before: Option<u64>,
    /// The layer as locked, for a layer that validates automatically: put back if invalid.
    before: Option<Slot>,
    finished: bool,
    _type: PhantomData<fn() -> (T, K)>,
}

impl<'w, T: LayerValue, K: Kind> LayerGuard<'w, T, K> {
    pub(crate) fn new(slot: &'w mut Slot, stamp: u64) -> Self {
        let writes_before = slot.write_count();
        let auto = slot
            .get::<T, K>()
            .is_ok_and(|l| l.info().is_auto_validated());
        LayerGuard {
            before: auto.then(|| slot.clone()),
            slot,
            stamp,
            writes_before,
            finished: false,
            _type: PhantomData,
        }
    }

    /// Ends the write and validates now (if the layer validates automatically).
    ///
    /// # Errors
    ///
    /// The first value outside the layer's range ([`LayerError::OutOfRange`]) or an empty
    /// range ([`LayerError::BadRange`]), for layers with automatic validation that were
    /// written through this guard; the layer is then as it was when locked.
    pub fn commit(mut self) -> Result<(), LayerError> {
        self.finish()
    }

    fn finish(&mut self) -> Result<(), LayerError> {
        if std::mem::replace(&mut self.finished, true) {
            return Ok(());
        }
        if self.slot.write_count() == self.writes_before {
            return Ok(());
        }
        if let Some(before) = self.before.take()
            && let Err(e) = self.slot.validate()
        {
            *self.slot = before;
            return Err(e);
        }
        self.slot.version = self.stamp;
        Ok(())
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
        // Invalid values were rolled back; there is no one left to tell.
        let _ = self.finish();
    }
}

/// Write access to a dictionary; see [`World::lock_dict`].
pub struct DictGuard<'w> {
    entry: &'w mut (Arc<Dict>, u64),
    stamp: u64,
}

impl<'w> DictGuard<'w> {
    pub(crate) fn new(entry: &'w mut (Arc<Dict>, u64), stamp: u64) -> Self {
        DictGuard { entry, stamp }
    }
}

impl Deref for DictGuard<'_> {
    type Target = Dict;
    fn deref(&self) -> &Dict {
        &self.entry.0
    }
}

impl DerefMut for DictGuard<'_> {
    fn deref_mut(&mut self) -> &mut Dict {
        self.entry.1 = self.stamp;
        Arc::make_mut(&mut self.entry.0)
    }
}

/// Write access to the random generator; see [`World::lock_random`]. Drawing needs
/// `&mut Pcg64`, so the version is stamped on the first mutable access.
pub struct RandomGuard<'w> {
    rng: &'w mut Arc<Pcg64>,
    version: &'w mut u64,
    stamp: u64,
}

impl<'w> RandomGuard<'w> {
    pub(crate) fn new(rng: &'w mut Arc<Pcg64>, version: &'w mut u64, stamp: u64) -> Self {
        RandomGuard {
            rng,
            version,
            stamp,
        }
    }
}

impl Deref for RandomGuard<'_> {
    type Target = Pcg64;
    fn deref(&self) -> &Pcg64 {
        self.rng
    }
}

impl DerefMut for RandomGuard<'_> {
    fn deref_mut(&mut self) -> &mut Pcg64 {
        *self.version = self.stamp;
        Arc::make_mut(self.rng)
    }
}
