//! [`Transaction`]: the mesh and any number of layers at once, each borrowed for reading or
//! writing, checked at run time like a `RefCell`.

use crate::rollback::{Checkpoint, MeshEdit};
use crate::slot::Slot;
use crate::{LayerInfo, World, WorldError};
use layers::{Kind, Layer, LayerValue};
use quadedge::Mesh;
use std::cell::{Ref, RefCell, RefMut};
use std::sync::Arc;

impl World {
    /// Opens a transaction: the mesh and any number of layers borrowed at the same time, some
    /// for reading and some for writing (read plate ids while writing positions and editing
    /// the mesh). Borrows are checked at run time; a conflicting one is an error, not a panic.
    ///
    /// Layers see the mesh's edits when [`Transaction::sync`] is called (no borrow may be
    /// held then; the borrow checker sees to it) and when the transaction ends; until then
    /// new elements have no slot in them. Versions are stamped at the end for the mesh (if
    /// edited) and every layer written through the transaction.
    ///
    /// A transaction is atomic: [`Transaction::commit`] keeps everything or, when it refuses
    /// a layer, nothing; dropped without `commit`, the world is put back as it was (the mesh
    /// by the undo log, layers, dictionaries and versions from the `Arc`s held when opened).
    ///
    /// ```
    /// use layers::{LayerInfo, VertexKind};
    /// use quadedge::{Mesh, Vertex, shapes};
    /// use world::World;
    /// const PLATE: LayerInfo<u16, VertexKind> = LayerInfo::new("plate");
    /// const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
    /// let (n, t) = shapes::octahedron();
    /// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    /// world.update_layer(&PLATE, |p| p[Vertex::new(1)] = 3).unwrap();
    /// let mut tx = world.transaction();
    /// tx.create(&HEIGHT).unwrap();
    /// {
    ///     let plate = tx.read(&PLATE).unwrap();
    ///     let mut height = tx.write(&HEIGHT).unwrap();
    ///     let mesh = tx.mesh().unwrap();
    ///     for v in mesh.vertices() {
    ///         height[v] = f32::from(plate[v]);
    ///     }
    ///     assert!(tx.write(&PLATE).is_err()); // already borrowed for reading
    /// }
    /// tx.commit().unwrap();
    /// assert_eq!(world.layer(&HEIGHT).unwrap()[Vertex::new(1)], 3.0);
    /// ```
    pub fn transaction(&mut self) -> Transaction<'_> {
        let mut tx = Transaction {
            mesh: RefCell::new(Arc::new(Mesh::new())),
            edit: RefCell::new(None),
            slots: Vec::new(),
            names: Vec::new(),
            saved: Some(Checkpoint::of(self)),
            world: self,
        };
        tx.take_out();
        tx
    }
}

/// See [`World::transaction`]. Kept by [`Transaction::commit`], all or nothing; dropped
/// without it, the world is put back as it was when the transaction was opened.
#[must_use = "a transaction dropped without `commit()` rolls everything back"]
pub struct Transaction<'w> {
    world: &'w mut World,
    mesh: RefCell<Arc<Mesh>>,
    edit: RefCell<Option<MeshEdit>>,
    slots: Vec<RefCell<Slot>>,
    /// The slots' names, readable while a slot is borrowed for writing.
    names: Vec<String>,
    /// The world as opened (but the mesh); `None` once the transaction ended.
    saved: Option<Checkpoint>,
}

impl Transaction<'_> {
    /// Moves the mesh and the layers out of the world into cells.
    fn take_out(&mut self) {
        *self.mesh.get_mut() = std::mem::replace(&mut self.world.mesh, Arc::new(Mesh::new()));
        self.slots = std::mem::take(&mut self.world.layers)
            .into_iter()
            .map(RefCell::new)
            .collect();
        self.names = self
            .slots
            .iter_mut()
            .map(|s| s.get_mut().name.clone())
            .collect();
    }

    /// Moves them back.
    fn put_back(&mut self) {
        self.world.mesh = std::mem::replace(self.mesh.get_mut(), Arc::new(Mesh::new()));
        self.world.layers = std::mem::take(&mut self.slots)
            .into_iter()
            .map(RefCell::into_inner)
            .collect();
        self.names.clear();
    }

    fn index(&self, name: &str) -> Result<usize, WorldError> {
        self.names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| WorldError::NoSuchLayer(name.to_owned()))
    }

    /// Creates the layer (initial values, sized to the mesh) if missing; first replays the
    /// mesh's edits so far into the other layers ([`Transaction::sync`]).
    ///
    /// # Errors
    ///
    /// The errors of [`World::lock_layer`].
    pub fn create<T: LayerValue, K: Kind>(
        &mut self,
        info: &LayerInfo<T, K>,
    ) -> Result<(), WorldError> {
        if let Ok(i) = self.index(info.name()) {
            let layer = self.slots[i].get_mut().get_mut::<T, K>()?;
            return if layer.info().bits_eq(info) {
                Ok(())
            } else {
                Err(WorldError::LayerSettingsDiffer(info.name().to_string()))
            };
        }
        if info.is_auto_validated() {
            Layer::new(info.clone(), 1)
                .validate()
                .map_err(WorldError::Invalid)?;
        }
        // A new layer is sized to the mesh as it is now: bring the journal up to date first,
        // so the edits made so far are not replayed into it a second time.
        self.sync();
        let stamp = self.world.tick();
        let layer = Layer::with_sizes(info.clone(), layers::Sizes::of(self.mesh.get_mut()));
        self.slots.push(RefCell::new(Slot::new(layer, stamp)));
        self.names.push(info.name().to_owned());
        Ok(())
    }

    /// The layer `info` for reading.
    ///
    /// # Errors
    ///
    /// [`WorldError::NoSuchLayer`], [`WorldError::Borrowed`] when it is borrowed for writing,
    /// and the errors of [`World::try_layer`].
    pub fn read<T: LayerValue, K: Kind>(
        &self,
        info: &LayerInfo<T, K>,
    ) -> Result<Ref<'_, Layer<T, K>>, WorldError> {
        let cell = &self.slots[self.index(info.name())?];
        let slot = cell
            .try_borrow()
            .map_err(|_| WorldError::Borrowed(info.name().to_owned()))?;
        slot.get::<T, K>()?;
        Ok(Ref::map(slot, |s| s.get::<T, K>().expect("checked")))
    }

    /// The layer `info` for writing.
    ///
    /// # Errors
    ///
    /// [`WorldError::NoSuchLayer`] (create it with [`Transaction::create`]),
    /// [`WorldError::Borrowed`] when it is borrowed already, and the errors of
    /// [`World::try_layer`].
    pub fn write<T: LayerValue, K: Kind>(
        &self,
        info: &LayerInfo<T, K>,
    ) -> Result<RefMut<'_, Layer<T, K>>, WorldError> {
        let cell = &self.slots[self.index(info.name())?];
        let mut slot = cell
            .try_borrow_mut()
            .map_err(|_| WorldError::Borrowed(info.name().to_owned()))?;
        slot.get_mut::<T, K>()?;
        Ok(RefMut::map(slot, |s| s.get_mut::<T, K>().expect("checked")))
    }

    /// The mesh for reading.
    ///
    /// # Errors
    ///
    /// [`WorldError::Borrowed`] when it is borrowed for writing.
    pub fn mesh(&self) -> Result<Ref<'_, Mesh>, WorldError> {
        let m = self
            .mesh
            .try_borrow()
            .map_err(|_| WorldError::Borrowed("mesh".into()))?;
        Ok(Ref::map(m, |a| &**a))
    }

    /// The mesh for writing; its journal starts on the first call.
    ///
    /// # Errors
    ///
    /// [`WorldError::Borrowed`] when it is borrowed already.
    pub fn mesh_mut(&self) -> Result<RefMut<'_, Mesh>, WorldError> {
        let m = self
            .mesh
            .try_borrow_mut()
            .map_err(|_| WorldError::Borrowed("mesh".into()))?;
        let mut edit = self.edit.borrow_mut();
        let logged = self.world.mesh_logged;
        Ok(RefMut::map(m, |a| MeshEdit::start(a, &mut edit, logged)))
    }

    /// Replays the mesh's edits so far into every layer (and ids in dictionaries), so that
    /// new elements have slots and removed ones follow their policies. A mesh replaced
    /// through [`Transaction::mesh_mut`] resets the data now, as at the end of a mesh guard.
    /// Nothing is validated or kept yet: that is [`Transaction::commit`]'s job.
    pub fn sync(&mut self) {
        let Some(mut edit) = self.edit.get_mut().take() else {
            return;
        };
        self.put_back();
        self.world.sync_mesh_edit(&mut edit);
        *self.edit.get_mut() = Some(edit);
        self.take_out();
    }

    /// Ends the transaction: replays the mesh's journal into every layer and stamps versions,
    /// or changes nothing.
    ///
    /// # Errors
    ///
    /// [`WorldError::Invalid`] with the first layer written through the transaction with
    /// values its automatic validation refuses: the whole transaction is then rolled back
    /// (the mesh edit and every layer), as if dropped.
    pub fn commit(mut self) -> Result<(), WorldError> {
        let saved = self.saved.take().expect("saved until the transaction ends");
        self.put_back();
        let edit = self.edit.get_mut().take();
        let world = &mut *self.world;
        let mut written = Vec::new();
        for (i, slot) in world.layers.iter().enumerate() {
            let before = saved.layer(&slot.name).map_or(Some(0), Slot::write_count);
            if slot.write_count() == before {
                continue;
            }
            if slot.auto_validated()
                && let Err(e) = slot.validate()
            {
                roll_back(world, saved, edit);
                return Err(WorldError::Invalid(e));
            }
            written.push(i);
        }
        for i in written {
            let stamp = world.tick();
            world.layers[i].version = stamp;
        }
        // Released before the replay, so the replay writes layers in place.
        drop(saved);
        if let Some(edit) = edit {
            world.commit_mesh_edit(edit, |w, changes| w.apply_journal(changes));
        }
        Ok(())
    }
}

/// Puts the world back as the checkpoint and the mesh edit found it.
fn roll_back(world: &mut World, saved: Checkpoint, edit: Option<MeshEdit>) {
    saved.put_back(world);
    if let Some(edit) = edit {
        world.roll_back_mesh_edit(edit);
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        let Some(saved) = self.saved.take() else {
            return;
        };
        self.put_back();
        let edit = self.edit.get_mut().take();
        roll_back(self.world, saved, edit);
    }
}
