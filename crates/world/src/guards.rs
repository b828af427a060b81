//! Lock guards: write access to one component. A guard keeps its writes only through an
//! explicit `commit`; dropped without it (a `?` on the way, a panic unwinding), it rolls back
//! and the world is `==` to what it was before the lock, with the same versions (see
//! [`crate::rollback`] for how, without copying the mesh).

use crate::rollback::{HeldLayer, MeshEdit};
use crate::{Dict, World};
use layers::{Kind, Layer, LayerError, LayerValue};
use quadedge::Mesh;
use rand_pcg::Pcg64;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// Write access to the mesh; see [`World::lock_mesh`]. Kept by [`MeshGuard::commit`] (the
/// journal replayed into every layer and dictionary); dropped without it, the mesh is put
/// back by the undo log and nothing else changes.
///
/// The journal that lets layers follow the edit belongs to the guard: the `&mut Mesh` it
/// lends cannot read or stop it, and starting another one fails with `AlreadyRecording`; nor
/// can it take or stop the undo log the rollback needs (`UndoLogHeld`). Replacing the mesh
/// through the `&mut Mesh` (`*guard = mesh`, or discarding its journal) leaves nothing that
/// maps old ids to new ones: committed, the guard then ends as [`World::replace_mesh`] with
/// [`MeshReplacement::ResetAll`](crate::MeshReplacement::ResetAll) does (every layer reset,
/// mesh ids in dictionaries cleared); dropped, it puts the old mesh back (it was moved aside,
/// not copied). One case cannot roll back: a mesh swapped out of the guard
/// (`std::mem::replace`) and still held by the caller when the guard ends; the replacement is
/// then kept as by a commit.
///
/// ```
/// use quadedge::{Mesh, shapes};
/// use world::World;
/// let (n, t) = shapes::octahedron();
/// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
/// let before = world.clone();
/// let mut mesh = world.lock_mesh();
/// assert!(mesh.record_changes().is_err()); // the guard's journal is running
/// *mesh = Mesh::new();
/// drop(mesh); // no commit: rolled back
/// assert_eq!(world, before);
/// let mut mesh = world.lock_mesh();
/// *mesh = Mesh::new(); // a replacement: the data is reset with it
/// mesh.commit();
/// assert_eq!(world.mesh().vertex_count(), 0);
/// ```
#[must_use = "a mesh guard dropped without `commit()` rolls its writes back"]
pub struct MeshGuard<'w> {
    world: &'w mut World,
    /// Started on the first write; only the guard can read or stop its journal.
    edit: Option<MeshEdit>,
}

impl<'w> MeshGuard<'w> {
    pub(crate) fn new(world: &'w mut World) -> Self {
        MeshGuard { world, edit: None }
    }

    /// Keeps the edit: replays the journal into every layer and dictionary (or resets them
    /// after a replacement; see the type's docs). Cannot be refused.
    pub fn commit(mut self) {
        if let Some(edit) = self.edit.take() {
            self.world
                .commit_mesh_edit(edit, |w, changes| w.apply_journal(changes));
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
        let logged = self.world.mesh_logged;
        MeshEdit::start(&mut self.world.mesh, &mut self.edit, logged)
    }
}

impl Drop for MeshGuard<'_> {
    fn drop(&mut self) {
        if let Some(edit) = self.edit.take() {
            self.world.roll_back_mesh_edit(edit);
        }
    }
}

/// Write access to one layer; see [`World::lock_layer`]. Kept by [`LayerGuard::commit`]
/// (which refuses invalid values of a layer that validates itself); dropped without it, the
/// layer is put back as locked (removed if the lock created it).
///
/// The guard holds the layer's values as they were (an `Arc`, shared copy-on-write), so its
/// first write copies them once — a copy a kept [`History`](crate::History) makes anyway. A
/// guard only read from copies and changes nothing.
#[must_use = "a layer guard dropped without `commit()` rolls its writes back"]
pub struct LayerGuard<'w, T: LayerValue, K: Kind> {
    world: &'w mut World,
    held: Option<HeldLayer>,
    _type: PhantomData<fn() -> (T, K)>,
}

impl<'w, T: LayerValue, K: Kind> LayerGuard<'w, T, K> {
    pub(crate) fn new(world: &'w mut World, held: HeldLayer) -> Self {
        LayerGuard {
            world,
            held: Some(held),
            _type: PhantomData,
        }
    }

    fn index(&self) -> usize {
        self.held.as_ref().expect("held until the guard ends").index
    }

    /// Keeps the writes: stamps the layer's version if it was written.
    ///
    /// # Errors
    ///
    /// The first value outside the layer's range ([`LayerError::OutOfRange`]) or an empty
    /// range ([`LayerError::BadRange`]), for layers with automatic validation that were
    /// written through this guard; the layer is then put back as it was when locked.
    pub fn commit(mut self) -> Result<(), LayerError> {
        let held = self.held.take().expect("held until the guard ends");
        match held.check(self.world) {
            Ok(()) => {
                held.keep(self.world);
                Ok(())
            }
            Err(e) => {
                held.put_back(self.world);
                Err(e)
            }
        }
    }
}

impl<T: LayerValue, K: Kind> Deref for LayerGuard<'_, T, K> {
    type Target = Layer<T, K>;
    fn deref(&self) -> &Layer<T, K> {
        self.world.layers[self.index()]
            .get::<T, K>()
            .expect("locked layers are typed")
    }
}

impl<T: LayerValue, K: Kind> DerefMut for LayerGuard<'_, T, K> {
    fn deref_mut(&mut self) -> &mut Layer<T, K> {
        let i = self.index();
        self.world.layers[i]
            .get_mut::<T, K>()
            .expect("locked layers are typed")
    }
}

impl<T: LayerValue, K: Kind> Drop for LayerGuard<'_, T, K> {
    fn drop(&mut self) {
        if let Some(held) = self.held.take() {
            held.put_back(self.world);
        }
    }
}

/// The value and element types of a [`LayerPairGuard`], as a marker.
type PairTypes<A, KA, B, KB> = fn() -> ((A, KA), (B, KB));

/// Write access to two different layers at once; see [`World::lock_layers`]. Kept by
/// [`LayerPairGuard::commit`], both or neither; dropped without it, both are put back.
#[must_use = "a layer pair guard dropped without `commit()` rolls its writes back"]
pub struct LayerPairGuard<'w, A: LayerValue, KA: Kind, B: LayerValue, KB: Kind> {
    world: &'w mut World,
    /// `[first, second]` while held.
    held: Option<[HeldLayer; 2]>,
    _type: PhantomData<PairTypes<A, KA, B, KB>>,
}

impl<'w, A: LayerValue, KA: Kind, B: LayerValue, KB: Kind> LayerPairGuard<'w, A, KA, B, KB> {
    pub(crate) fn new(world: &'w mut World, held: [HeldLayer; 2]) -> Self {
        LayerPairGuard {
            world,
            held: Some(held),
            _type: PhantomData,
        }
    }

    fn indices(&self) -> [usize; 2] {
        let [a, b] = self.held.as_ref().expect("held until the guard ends");
        [a.index, b.index]
    }

    /// The first layer, for reading.
    pub fn first(&self) -> &Layer<A, KA> {
        self.world.layers[self.indices()[0]]
            .get::<A, KA>()
            .expect("locked layers are typed")
    }

    /// The second layer, for reading.
    pub fn second(&self) -> &Layer<B, KB> {
        self.world.layers[self.indices()[1]]
            .get::<B, KB>()
            .expect("locked layers are typed")
    }

    /// Both layers, for writing.
    pub fn parts(&mut self) -> (&mut Layer<A, KA>, &mut Layer<B, KB>) {
        let indices = self.indices();
        let [sa, sb] = self
            .world
            .layers
            .get_disjoint_mut(indices)
            .expect("distinct names, distinct slots");
        (
            sa.get_mut::<A, KA>().expect("locked layers are typed"),
            sb.get_mut::<B, KB>().expect("locked layers are typed"),
        )
    }

    /// Keeps the writes of both layers, or of neither.
    ///
    /// # Errors
    ///
    /// As [`LayerGuard::commit`], for the first layer refused; both layers are then put
    /// back as they were when locked.
    pub fn commit(mut self) -> Result<(), LayerError> {
        let [a, b] = self.held.take().expect("held until the guard ends");
        match a.check(self.world).and_then(|()| b.check(self.world)) {
            Ok(()) => {
                a.keep(self.world);
                b.keep(self.world);
                Ok(())
            }
            Err(e) => {
                put_back_pair([a, b], self.world);
                Err(e)
            }
        }
    }
}

/// Puts two held layers back, the higher index first (a created layer is removed).
fn put_back_pair([a, b]: [HeldLayer; 2], world: &mut World) {
    let (high, low) = if a.index > b.index { (a, b) } else { (b, a) };
    high.put_back(world);
    low.put_back(world);
}

impl<A: LayerValue, KA: Kind, B: LayerValue, KB: Kind> Drop for LayerPairGuard<'_, A, KA, B, KB> {
    fn drop(&mut self) {
        if let Some(held) = self.held.take() {
            put_back_pair(held, self.world);
        }
    }
}

/// Write access to a dictionary; see [`World::lock_dict`]. Kept by [`DictGuard::commit`];
/// dropped without it, the dictionary is put back as locked (removed if the lock created
/// it).
#[must_use = "a dictionary guard dropped without `commit()` rolls its writes back"]
pub struct DictGuard<'w> {
    world: &'w mut World,
    name: String,
    stamp: u64,
    /// The dictionary and version when locked (`None` inside: created by the lock); `None`
    /// once committed.
    saved: Option<Option<(Arc<Dict>, u64)>>,
}

impl<'w> DictGuard<'w> {
    pub(crate) fn new(world: &'w mut World, name: &str, stamp: u64) -> Self {
        let saved = world.dicts.get(name).cloned();
        world
            .dicts
            .entry(name.to_string())
            .or_insert_with(|| (Arc::new(Dict::default()), stamp));
        DictGuard {
            world,
            name: name.to_string(),
            stamp,
            saved: Some(saved),
        }
    }

    fn entry(&self) -> &(Arc<Dict>, u64) {
        self.world.dicts.get(&self.name).expect("locked")
    }

    /// Keeps the writes. Cannot be refused.
    pub fn commit(mut self) {
        self.saved = None;
    }
}

impl Deref for DictGuard<'_> {
    type Target = Dict;
    fn deref(&self) -> &Dict {
        &self.entry().0
    }
}

impl DerefMut for DictGuard<'_> {
    fn deref_mut(&mut self) -> &mut Dict {
        let entry = self.world.dicts.get_mut(&self.name).expect("locked");
        entry.1 = self.stamp;
        Arc::make_mut(&mut entry.0)
    }
}

impl Drop for DictGuard<'_> {
    fn drop(&mut self) {
        match self.saved.take() {
            None => {}
            Some(Some(saved)) => {
                self.world
                    .dicts
                    .insert(std::mem::take(&mut self.name), saved);
            }
            Some(None) => {
                self.world.dicts.remove(&self.name);
            }
        }
    }
}

/// Write access to the random generator; see [`World::lock_random`]. Drawing needs
/// `&mut Pcg64`, so the version is stamped on the first mutable access. Kept by
/// [`RandomGuard::commit`]; dropped without it, the state and version are put back (the
/// draws are taken back: the next guard draws the same numbers).
#[must_use = "a random guard dropped without `commit()` rolls its draws back"]
pub struct RandomGuard<'w> {
    rng: &'w mut Arc<Pcg64>,
    version: &'w mut u64,
    stamp: u64,
    /// The state and version when locked; `None` once committed.
    saved: Option<(Arc<Pcg64>, u64)>,
}

impl<'w> RandomGuard<'w> {
    pub(crate) fn new(rng: &'w mut Arc<Pcg64>, version: &'w mut u64, stamp: u64) -> Self {
        let saved = Some((rng.clone(), *version));
        RandomGuard {
            rng,
            version,
            stamp,
            saved,
        }
    }

    /// Keeps the draws. Cannot be refused.
    pub fn commit(mut self) {
        self.saved = None;
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

impl Drop for RandomGuard<'_> {
    fn drop(&mut self) {
        if let Some((rng, version)) = self.saved.take() {
            *self.rng = rng;
            *self.version = version;
        }
    }
}
