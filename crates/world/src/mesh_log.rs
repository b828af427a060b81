//! The world's side of topology undo: the mesh's undo log, taken at each history commit and
//! played back or forward on the world's own mesh.

use crate::World;
use quadedge::{Mesh, UndoLog};
use std::sync::{Arc, OnceLock};

/// The empty mesh that stands in for the mesh in a history's states (they keep none).
fn placeholder() -> Arc<Mesh> {
    static EMPTY: OnceLock<Arc<Mesh>> = OnceLock::new();
    EMPTY.get_or_init(|| Arc::new(Mesh::new())).clone()
}

/// The mesh for writing: copied first when a snapshot shares it, keeping the spare capacity
/// ([`Mesh::clone_keeping_capacity`]: the edits that follow grow it without reallocating the
/// whole mesh).
pub(crate) fn writable(mesh: &mut Arc<Mesh>) -> &mut Mesh {
    if Arc::strong_count(mesh) > 1 {
        *mesh = Arc::new(mesh.clone_keeping_capacity());
    }
    // Unique now: no copy (weak references, if any, are let go).
    Arc::make_mut(mesh)
}

impl World {
    /// A snapshot of everything but the mesh (an empty placeholder stands in for it).
    pub(crate) fn without_mesh(&self) -> World {
        let mut w = self.clone();
        w.mesh = placeholder();
        w
    }

    /// Takes the mesh's topology writes since the last take: `(the state they start at, the
    /// writes, the current state)`. Starts the undo log if it is off (no start state then).
    /// Copies nothing when the mesh is unchanged since the last take.
    pub(crate) fn take_mesh_log(&mut self) -> (Option<u64>, Option<UndoLog>, u64) {
        self.mesh_logged = true;
        let start = self.mesh.undo_log_start();
        let state = self.mesh.undo_state();
        match start {
            Some(s) if s == state => (Some(s), None, s),
            Some(_) => match writable(&mut self.mesh).take_undo_log() {
                Ok(log) => {
                    let (from, to) = (log.from_state(), log.to_state());
                    (Some(from), Some(log), to)
                }
                Err(_) => unreachable!("the log is on"),
            },
            None => {
                let mesh = writable(&mut self.mesh);
                let _ = mesh.start_undo_log();
                (None, None, mesh.undo_state())
            }
        }
    }

    /// Takes the mesh from committed state `at` (plus any writes made since, which are
    /// dropped) through `step` (a log and whether to play it backwards) to state `to`, and
    /// restarts its undo log there. `false`, with the mesh unchanged, when the mesh's log
    /// does not start at `at` (see [`crate::History`]).
    pub(crate) fn move_mesh(&mut self, at: u64, step: Option<(&UndoLog, bool)>, to: u64) -> bool {
        if self.mesh.undo_log_start() != Some(at) {
            return false;
        }
        match step {
            Some((log, true)) if log.to_state() != at || log.from_state() != to => return false,
            Some((log, false)) if log.from_state() != at || log.to_state() != to => return false,
            None if at != to => return false,
            _ => {}
        }
        let mesh = writable(&mut self.mesh);
        let Ok(since) = mesh.stop_undo_log() else {
            return false;
        };
        let moved = mesh.undo(&since).is_ok()
            && match step {
                None => true,
                Some((log, true)) => mesh.undo(log).is_ok(),
                Some((log, false)) => mesh.redo(log).is_ok(),
            };
        if !moved {
            // Only writes that bypassed the log get here: put the uncommitted ones back.
            let _ = mesh.redo(&since);
            let _ = mesh.start_undo_log();
            return false;
        }
        let _ = mesh.start_undo_log();
        debug_assert_eq!(mesh.undo_state(), to);
        self.mesh_logged = true;
        true
    }
}
