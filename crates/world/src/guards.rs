//! Lock guards: write access to one component, finished (journal replayed, version stamped,
//! validation run) when dropped.

use crate::slot::Slot;
use crate::{Dict, World, WorldError};
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
/// discarding its journal) is detected when the guard ends: the data is then reset as by
/// [`MeshReplacement::ResetAll`](crate::MeshReplacement::ResetAll) and
/// [`WorldError::MeshReplacedInGuard`] is returned by [`MeshGuard::commit`] or, when the guard
/// is just dropped, kept for [`World::take_errors`]. Use [`World::replace_mesh`] to replace
/// the mesh on purpose.
///
/// ```
/// use quadedge::{Mesh, shapes};
/// use world::{World, WorldError};
/// let (n, t) = shapes::octahedron();
/// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
/// let mut mesh = world.lock_mesh();
/// assert!(mesh.record_changes().is_err()); // the guard's journal is running
/// *mesh = Mesh::new(); // a silent replacement…
/// assert!(matches!(mesh.commit(), Err(WorldError::MeshReplacedInGuard))); // …is reported
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

    /// Ends the edit now: replays the journal into every layer and dictionary.
    ///
    /// # Errors
    ///
    /// [`WorldError::MeshReplacedInGuard`] when the mesh was replaced through the guard (the
    /// data has then been reset; see the type's docs).
    pub fn commit(mut self) -> Result<(), WorldError> {
        match self.recording.take() {
            Some(r) => self.world.finish_mesh_edit(r),
            None => Ok(()),
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
        if let Some(recording) = self.recording.take()
            && let Err(e) = self.world.finish_mesh_edit(recording)
        {
            self.world.errors.push(e);
        }
    }
}

/// Two layer guards from [`World::lock_layers`].
pub type GuardPair<'w, A, KA, B, KB> = (LayerGuard<'w, A, KA>, LayerGuard<'w, B, KB>);

/// Write access to one layer; see [`World::lock_layer`].
///
/// If the guard was used to write (a mutable access), dropping it stamps the layer's version
/// and, for layers with automatic validation, checks every value: a failure is kept for
/// [`World::take_validation_errors`]. Call [`LayerGuard::commit`] to get it as a `Result`
/// instead. A guard only read from changes nothing.
pub struct LayerGuard<'w, T: LayerValue, K: Kind> {
    slot: &'w mut Slot,
    stamp: u64,
    writes_before: Option<u64>,
    finished: bool,
    _type: PhantomData<fn() -> (T, K)>,
}

impl<'w, T: LayerValue, K: Kind> LayerGuard<'w, T, K> {
    pub(crate) fn new(slot: &'w mut Slot, stamp: u64) -> Self {
        let writes_before = slot.write_count();
        LayerGuard {
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
    /// written through this guard.
    pub fn commit(mut self) -> Result<(), LayerError> {
        self.finish();
        match self.slot.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if self.slot.write_count() == self.writes_before {
            return;
        }
        self.slot.version = self.stamp;
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
        self.finish();
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
