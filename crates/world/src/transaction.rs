//! [`Transaction`]: the mesh and any number of layers at once, each borrowed for reading or
//! writing, checked at run time like a `RefCell`.

use crate::slot::Slot;
use crate::{LayerInfo, World, WorldError};
use layers::{Kind, Layer, LayerValue};
use quadedge::{Mesh, Recording};
use std::cell::{Ref, RefCell, RefMut};
use std::sync::{Arc, Weak};

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
    /// ```
    /// use layers::{LayerInfo, VertexKind};
    /// use quadedge::{Mesh, Vertex, shapes};
    /// use world::World;
    /// const PLATE: LayerInfo<u16, VertexKind> = LayerInfo::new("plate");
    /// const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
    /// let (n, t) = shapes::octahedron();
    /// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    /// world.lock_layer(&PLATE).unwrap()[Vertex::new(1)] = 3;
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
            recording: RefCell::new(None),
            mesh_before_edit: RefCell::new(None),
            slots: Vec::new(),
            names: Vec::new(),
            writes_before: Vec::new(),
            validated_before: Vec::new(),
            invalid: None,
            done: false,
            world: self,
        };
        tx.take_out();
        tx
    }
}

/// See [`World::transaction`]. Dropping it ends it like [`Transaction::commit`]: what
/// `commit` would refuse (invalid values in a layer that validates automatically) is rolled
/// back the same way, so nothing invalid is ever stored and no error is left behind.
pub struct Transaction<'w> {
    world: &'w mut World,
    mesh: RefCell<Arc<Mesh>>,
    recording: RefCell<Option<Recording>>,
    /// The mesh as shared before [`Transaction::mesh_mut`] copied it (see the world's
    /// field of the same name): put back if the edit changes nothing.
    mesh_before_edit: RefCell<Option<Weak<Mesh>>>,
    slots: Vec<RefCell<Slot>>,
    /// The slots' names, readable while a slot is borrowed for writing.
    names: Vec<String>,
    writes_before: Vec<Option<u64>>,
    /// The layers that validate automatically, as taken out: put back if written invalid.
    validated_before: Vec<Option<Slot>>,
    /// The first layer found invalid (and rolled back), for [`Transaction::commit`].
    invalid: Option<layers::LayerError>,
    done: bool,
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
        self.writes_before = self
            .slots
            .iter_mut()
            .map(|s| s.get_mut().write_count())
            .collect();
        self.validated_before = self
            .slots
            .iter_mut()
            .map(|s| is_auto_validated(s.get_mut()).then(|| s.get_mut().clone()))
            .collect();
    }

    /// Moves them back and stamps the layers written meanwhile; a layer written with values
    /// its automatic validation refuses goes back to what it was when taken out.
    fn put_back(&mut self) {
        self.world.mesh = std::mem::replace(self.mesh.get_mut(), Arc::new(Mesh::new()));
        let slots = std::mem::take(&mut self.slots);
        let before = std::mem::take(&mut self.writes_before);
        let validated = std::mem::take(&mut self.validated_before);
        for ((cell, before), validated) in slots.into_iter().zip(before).zip(validated) {
            let mut slot = cell.into_inner();
            if slot.write_count() != before {
                match (validated, slot.validate()) {
                    (Some(old), Err(e)) => {
                        slot = old;
                        self.invalid.get_or_insert(e);
                    }
                    _ => slot.version = self.world.tick(),
                }
            }
            self.world.layers.push(slot);
        }
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
        let slot = Slot::new(layer, stamp);
        self.validated_before
            .push(info.is_auto_validated().then(|| slot.clone()));
        self.slots.push(RefCell::new(slot));
        self.names.push(info.name().to_owned());
        self.writes_before.push(Some(0));
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
        let mut recording = self.recording.borrow_mut();
        let mut before = self.mesh_before_edit.borrow_mut();
        let logged = self.world.mesh_logged;
        Ok(RefMut::map(m, |a| {
            crate::edit::start_edit(a, &mut before, &mut recording, logged)
        }))
    }

    /// Replays the mesh's edits so far into every layer (and ids in dictionaries), so that
    /// new elements have slots and removed ones follow their policies. A mesh replaced
    /// through [`Transaction::mesh_mut`] resets the data as at the end of a mesh guard. Layers
    /// written with values their automatic validation refuses are rolled back here, as by
    /// [`Transaction::commit`].
    pub fn sync(&mut self) {
        let Some(recording) = self.recording.get_mut().take() else {
            return;
        };
        self.put_back();
        self.world.mesh_before_edit = self.mesh_before_edit.get_mut().take();
        if self.world.sync_mesh_edit(&recording) {
            *self.recording.get_mut() = Some(recording);
            *self.mesh_before_edit.get_mut() = self.world.mesh_before_edit.take();
        } else {
            self.world.finish_mesh_edit(recording);
        }
        self.take_out();
    }

    /// Ends the transaction: replays the mesh's journal into every layer and stamps versions.
    ///
    /// # Errors
    ///
    /// [`WorldError::Invalid`] with the first layer written through the transaction with
    /// values its automatic validation refuses: that layer's writes are rolled back (as they
    /// are when the transaction is dropped); the mesh edit and the other layers are kept.
    pub fn commit(mut self) -> Result<(), WorldError> {
        self.finish();
        match self.invalid.take() {
            Some(e) => Err(WorldError::Invalid(e)),
            None => Ok(()),
        }
    }

    fn finish(&mut self) {
        if std::mem::replace(&mut self.done, true) {
            return;
        }
        self.put_back();
        self.world.mesh_before_edit = self.mesh_before_edit.get_mut().take();
        if let Some(r) = self.recording.get_mut().take() {
            self.world.finish_mesh_edit(r);
        }
    }
}

fn is_auto_validated(slot: &Slot) -> bool {
    match &slot.state {
        crate::slot::State::Typed(t) => t.layer.is_auto_validated(),
        crate::slot::State::Encoded { .. } => false,
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}
