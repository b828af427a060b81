//! The way back for lock guards: what a guard dropped without `commit` puts back.
//!
//! The mesh is taken back by the undo log, never by a copy: the history's log when one runs
//! (its writes since a mark are played back and forgotten), otherwise a private log started
//! for the edit. A mesh replaced wholesale through the guard's `&mut Mesh` is not lost
//! either: the guard lent it ([`quadedge::internals::lend`]), so dropping it moved its arrays
//! to the guard. Layers, dictionaries and the generator are put back from the `Arc`s held
//! when locked (copy-on-write: the first write after the lock copies the values once, which a
//! kept [`History`](crate::History) pays anyway).

use crate::edit::MeshReplacement;
use crate::slot::{Slot, State};
use crate::{Dict, World};
use layers::LayerError;
use quadedge::internals::{Lent, UndoMark, end_lend, lend, rollback_to_mark, undo_mark};
use quadedge::{Change, Mesh, Recording};
use std::collections::BTreeMap;
use std::sync::{Arc, Weak};

/// How a mesh edit's writes are played back.
enum Back {
    /// A log ran already (a history's): the writes since this mark.
    Mark(UndoMark),
    /// No log ran: a private one, started for the edit and stopped at its end.
    Private,
}

/// A guard's running mesh edit: the journal that layers replay on commit and the way back.
pub(crate) struct MeshEdit {
    /// The journal of the mesh being edited (of the replacement after a replacement was
    /// synced, see `reset_at_sync`).
    recording: Option<Recording>,
    /// The mesh as shared with a snapshot before the edit copied it: put back by a commit
    /// that changed nothing (cleared when a sync replays changes).
    before: Option<Weak<Mesh>>,
    /// The same, kept for the rollback: the snapshot's mesh is the mesh as it was.
    shared: Option<Weak<Mesh>>,
    lent: Lent,
    back: Back,
    /// A transaction synced after the mesh was replaced: the data was reset to the
    /// replacement then, and `recording` is the replacement's journal.
    reset_at_sync: bool,
}

impl MeshEdit {
    /// Starts a guard's edit on `mesh` on the first call (copying a mesh a snapshot shares,
    /// starting the journal and the way back, lending it) and lends it.
    pub(crate) fn start<'m>(
        mesh: &'m mut Arc<Mesh>,
        edit: &mut Option<MeshEdit>,
        logged: bool,
    ) -> &'m mut Mesh {
        if edit.is_none() {
            let before = (Arc::strong_count(mesh) > 1).then(|| Arc::downgrade(mesh));
            let m = Arc::make_mut(mesh);
            // A journal left on by whoever built this mesh is not ours to read.
            m.discard_journal();
            if !logged {
                // An undo log inherited from the world this one was cloned from: no history
                // follows this world, so nothing would take it.
                let _ = m.stop_undo_log();
            }
            let back = match undo_mark(m) {
                Some(mark) => Back::Mark(mark),
                None => {
                    let _ = m.start_undo_log();
                    Back::Private
                }
            };
            *edit = Some(MeshEdit {
                recording: m.record_changes().ok(),
                shared: before.clone(),
                before,
                lent: lend(m),
                back,
                reset_at_sync: false,
            });
        }
        Arc::make_mut(mesh)
    }
}

impl World {
    /// Replays what the edit's journal recorded so far into every layer and dictionary,
    /// keeping the edit running. A mesh replaced through the guard resets the data now (the
    /// edit can still be rolled back: the old mesh waits in the lending).
    pub(crate) fn sync_mesh_edit(&mut self, edit: &mut MeshEdit) {
        let Some(recording) = edit.recording.as_ref() else {
            return;
        };
        let mesh = Arc::make_mut(&mut self.mesh);
        match mesh.take_changes(recording) {
            Ok(changes) => {
                if !changes.is_empty() {
                    edit.before = None;
                }
                self.apply_journal(changes);
            }
            Err(_) => {
                // Replaced (or its journal discarded): the data follows the replacement,
                // whose own journal records from here.
                mesh.discard_journal();
                edit.recording = mesh.record_changes().ok();
                edit.reset_at_sync = true;
                edit.before = None;
                self.after_replacement(MeshReplacement::ResetAll);
            }
        }
    }

    /// Ends the edit, keeping it: the journal is replayed by `replay` into every layer and
    /// dictionary. A mesh replaced through the guard ends as
    /// [`World::replace_mesh`] with [`MeshReplacement::ResetAll`] does (logged for a history
    /// when the old mesh came back to the guard).
    pub(crate) fn commit_mesh_edit(
        &mut self,
        edit: MeshEdit,
        replay: impl FnOnce(&mut World, Vec<Change>),
    ) {
        let MeshEdit {
            recording,
            before,
            lent,
            back,
            reset_at_sync,
            ..
        } = edit;
        let mesh = Arc::make_mut(&mut self.mesh);
        if end_lend(mesh, &lent) {
            if let Back::Private = back {
                let _ = mesh.stop_undo_log();
            }
            self.mesh_before_edit = before;
            match recording {
                Some(r) => self.finish_mesh_edit_with(r, replay),
                None => self.replaced_through_guard(),
            }
            return;
        }
        // Replaced through the guard.
        if reset_at_sync && let Some(r) = recording {
            drop(lent.take_dropped());
            self.finish_mesh_edit_with(r, replay);
            return;
        }
        let replacement = std::mem::take(mesh);
        match lent.take_dropped() {
            Some(old) => {
                *mesh = old;
                mesh.discard_journal();
                if let Back::Private = back {
                    let _ = mesh.stop_undo_log();
                }
                self.swap_mesh(replacement);
            }
            None => *mesh = replacement,
        }
        self.replaced_through_guard();
    }

    fn replaced_through_guard(&mut self) {
        Arc::make_mut(&mut self.mesh).discard_journal();
        self.after_replacement(MeshReplacement::ResetAll);
    }

    /// Takes the edit back: the mesh is `==` to what it was before, with its version, and
    /// nothing replays the journal. `false` when that is impossible because the guard's mesh
    /// was swapped out and is still held by the caller: the edit is then kept as a
    /// replacement (see [`World::commit_mesh_edit`]).
    pub(crate) fn roll_back_mesh_edit(&mut self, edit: MeshEdit) -> bool {
        let MeshEdit {
            shared, lent, back, ..
        } = edit;
        let mesh = Arc::make_mut(&mut self.mesh);
        if !end_lend(mesh, &lent) {
            let Some(old) = lent.take_dropped() else {
                self.replaced_through_guard();
                return false;
            };
            *mesh = old;
        }
        mesh.discard_journal();
        if let Some(shared) = shared.and_then(|w| w.upgrade()) {
            // The edit wrote to a copy: the snapshot's mesh is the mesh as it was.
            self.mesh = shared;
            return true;
        }
        match back {
            Back::Mark(mark) => rollback_to_mark(mesh, mark),
            Back::Private => {
                if let Ok(log) = mesh.stop_undo_log() {
                    let undone = mesh.undo(&log);
                    debug_assert!(undone.is_ok(), "the guard's log covers its writes");
                }
            }
        }
        true
    }
}

/// A layer as a guard locked it: put back on rollback (removed if the lock created it).
pub(crate) struct HeldLayer {
    pub index: usize,
    /// The values and version when locked; `None` for a layer the lock created.
    saved: Option<(State, u64)>,
    writes_before: Option<u64>,
    /// The version stamped on commit if the guard wrote.
    stamp: u64,
}

impl HeldLayer {
    pub(crate) fn new(world: &World, index: usize, created: bool, stamp: u64) -> Self {
        let slot = &world.layers[index];
        HeldLayer {
            index,
            saved: (!created).then(|| (slot.state.clone(), slot.version)),
            writes_before: if created { Some(0) } else { slot.write_count() },
            stamp,
        }
    }

    /// Was the layer written through the guard?
    pub(crate) fn written(&self, world: &World) -> bool {
        world.layers[self.index].write_count() != self.writes_before
    }

    /// Checks what commit would keep: the values of a written layer that validates itself.
    pub(crate) fn check(&self, world: &World) -> Result<(), LayerError> {
        let slot = &world.layers[self.index];
        if self.written(world) && slot.auto_validated() {
            slot.validate()?;
        }
        Ok(())
    }

    /// Keeps the writes: stamps the version if written.
    pub(crate) fn keep(self, world: &mut World) {
        if self.written(world) {
            world.layers[self.index].version = self.stamp;
        }
    }

    /// Puts the layer back as locked (removes it if the lock created it). Layers locked
    /// together are put back from the highest index down.
    pub(crate) fn put_back(self, world: &mut World) {
        match self.saved {
            Some((state, version)) => {
                let slot = &mut world.layers[self.index];
                slot.state = state;
                slot.version = version;
            }
            None => {
                world.layers.remove(self.index);
            }
        }
    }
}

/// Everything but the mesh, as a transaction found it (`Arc`s: O(number of layers)).
pub(crate) struct Checkpoint {
    layers: Vec<Slot>,
    dicts: BTreeMap<String, (Arc<Dict>, u64)>,
    mesh_version: u64,
}

impl Checkpoint {
    pub(crate) fn of(world: &World) -> Self {
        Checkpoint {
            layers: world.layers.clone(),
            dicts: world.dicts.clone(),
            mesh_version: world.mesh_version,
        }
    }

    /// The layer of this name as found, if it existed.
    pub(crate) fn layer(&self, name: &str) -> Option<&Slot> {
        self.layers.iter().find(|s| s.name == name)
    }

    pub(crate) fn put_back(self, world: &mut World) {
        world.layers = self.layers;
        world.dicts = self.dicts;
        world.mesh_version = self.mesh_version;
    }
}
