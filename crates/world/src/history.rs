//! Undo and redo over world snapshots that keep only what changed.
//!
//! The current state is a full snapshot (it shares everything with the live world). Every
//! older state keeps its layers as deltas against the state after it
//! ([`layers::AnyDelta`]: the blocks that differ), and every undone state as deltas against
//! the state before it, so an undo step costs what its edit changed, not whole layers.
//! Stepping rebuilds one state from its neighbour (a copy of each changed layer plus its
//! blocks; unchanged layers are shared, not copied).
//!
//! The mesh is not kept per state at all: once a history has committed a world, the world's
//! mesh records an undo log of its topology writes ([`quadedge::UndoLog`]), and each commit
//! takes the writes since the previous one. Undo plays them backwards on the world's own
//! mesh, redo forwards, so a flip costs a few hundred bytes of history instead of a mesh
//! copy, and no state shares the mesh (a guard's `&mut Mesh` copies nothing). Rewrites of
//! the whole topology (`compact`, `reorder`, [`World::replace_mesh`]) are logged as a copy of
//! the topology before and after: such a step costs two meshes.

use crate::World;
use crate::slot::State;
use layers::AnyDelta;
use quadedge::UndoLog;
use std::fmt;
use std::sync::Arc;

/// Replaces everything but the mesh of `world` (already moved to the state) by `snapshot`'s,
/// keeping its version clock monotonic: versions issued after an undo never repeat ones
/// issued before it, so a renderer's cache key stays unambiguous.
fn restore(world: &mut World, snapshot: &World) {
    let clock = world.clock;
    let mesh = std::mem::replace(&mut world.mesh, snapshot.mesh.clone());
    *world = snapshot.clone();
    world.mesh = mesh;
    world.mesh_logged = true;
    world.clock = world.clock.max(clock);
}

/// One committed state: a world without its mesh (a shared empty placeholder), whose typed
/// layers are full or shells (no values) with the deltas that rebuild them from a
/// neighbouring state, and the topology writes that led to it.
#[derive(Clone)]
struct Step {
    label: String,
    world: World,
    /// `(slot index, delta against the same-named layer of the neighbour)`.
    deltas: Vec<(usize, Arc<dyn AnyDelta>)>,
    /// The mesh's undo state id in this state ([`quadedge::Mesh::undo_state`]).
    mesh_state: u64,
    /// The topology writes from the previous committed state to this one; `None` when the
    /// mesh did not change (or for the oldest state kept).
    from_previous: Option<Arc<UndoLog>>,
}

impl Step {
    /// Keeps only deltas against `reference` for every typed layer it also has (with the
    /// same type): the full values are dropped.
    fn compress(&mut self, reference: &World) {
        debug_assert!(self.deltas.is_empty(), "compressed twice");
        for (i, slot) in self.world.layers.iter_mut().enumerate() {
            let State::Typed(t) = &mut slot.state else {
                continue;
            };
            let Some(State::Typed(r)) = reference
                .layers
                .iter()
                .find(|o| o.name == slot.name)
                .map(|o| &o.state)
            else {
                continue;
            };
            if let Some(delta) = t.layer.delta_to(r.layer.as_ref().as_ref()) {
                t.layer = Arc::new(delta.shell());
                self.deltas.push((i, Arc::from(delta)));
            }
        }
    }

    /// Rebuilds the full state from the same `reference` it was compressed against.
    fn expand(&mut self, reference: &World) {
        for (i, delta) in std::mem::take(&mut self.deltas) {
            let Some(slot) = self.world.layers.get_mut(i) else {
                continue;
            };
            let rebuilt = reference
                .layers
                .iter()
                .find(|o| o.name == slot.name)
                .and_then(|o| match &o.state {
                    State::Typed(r) => delta.rebuild(r.layer.as_ref().as_ref()),
                    State::Encoded { .. } => None,
                });
            debug_assert!(
                rebuilt.is_some(),
                "a delta's reference is typed by construction"
            );
            if let (Some(layer), State::Typed(t)) = (rebuilt, &mut slot.state) {
                t.layer = Arc::new(layer);
            }
        }
    }

    /// Heap bytes this step holds beyond what it shares with `next`, with the topology
    /// writes that lead from it to `next`.
    fn bytes_beyond(&self, next: &Step) -> usize {
        self.world.unshared_bytes(&next.world)
            + self
                .deltas
                .iter()
                .map(|(_, d)| d.heap_bytes())
                .sum::<usize>()
            + next.from_previous.as_ref().map_or(0, |l| l.heap_bytes())
    }
}

/// Labelled snapshots of a world with undo, redo and a memory bound.
///
/// The current state shares its layers with the world (see [`World`]); older states keep
/// only the 16 KiB blocks of each layer that differ from the next state, and the mesh's
/// topology writes between them, so an undo step costs what its edit changed: a few KiB for
/// a value, a few hundred bytes for a flip (two mesh copies for a compaction or a replaced
/// mesh: such a step holds a copy of the topology before and after).
///
/// A history follows one world: give `commit`, `undo` and `redo` the same world, or a clone
/// of it not edited since (a clone's mesh stops logging on its first edit, so the clones a
/// program keeps for other uses record nothing). Undo and redo discard edits made since the
/// last commit, as before. (A mesh replaced through a guard's `&mut Mesh` is logged like
/// [`World::replace_mesh`].) If the world's mesh lost its undo log behind the history's back
/// (another world assigned over it, an edited clone, a second history taking its log), the
/// older
/// states can no longer be rebuilt: `undo`/`redo` then return `None` and change nothing, and
/// the next commit drops them.
///
/// ```
/// use layers::{LayerInfo, VertexKind};
/// use quadedge::{Mesh, Vertex, shapes};
/// use world::{History, World};
///
/// const H: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
/// let (n, t) = shapes::octahedron();
/// let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
/// let mut history = History::new(64 << 20);
/// history.commit("start", &mut w);
/// w.update_layer(&H, |l| l[Vertex::new(0)] = 3.0).unwrap();
/// history.commit("raise v0", &mut w);
/// assert_eq!(history.undo(&mut w), Some("start"));
/// assert_eq!(w.layer(&H), None);
/// assert_eq!(history.redo(&mut w), Some("raise v0"));
/// assert_eq!(w.layer(&H).unwrap()[Vertex::new(0)], 3.0);
/// ```
#[derive(Clone, Default)]
pub struct History {
    /// Committed states, oldest first; the last one is the current state (full), each other
    /// one compressed against the one after it.
    past: Vec<Step>,
    /// States undone, most recently undone last; each compressed against the state it
    /// follows (the last one against the current state).
    future: Vec<Step>,
    max_bytes: usize,
}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History")
            .field("labels", &self.labels().collect::<Vec<_>>())
            .field("redo_steps", &self.redo_steps())
            .field("max_bytes", &self.max_bytes)
            .finish()
    }
}

impl History {
    /// A history that drops its oldest snapshots once they hold more than `max_bytes` of
    /// memory not shared with their successor.
    pub fn new(max_bytes: usize) -> Self {
        History {
            past: Vec::new(),
            future: Vec::new(),
            max_bytes,
        }
    }

    /// Records the current state of `world` under `label`; clears the redo list. The state
    /// that was current keeps only what differs from this one (one pass over each layer
    /// written since, comparing blocks, and the mesh's topology writes since). The first
    /// commit turns the undo log of `world`'s mesh on (it stays on: edits then record their
    /// writes, a few per cent slower; reading is not affected).
    pub fn commit(&mut self, label: impl Into<String>, world: &mut World) {
        let (from, log, mesh_state) = world.take_mesh_log();
        if let Some(last) = self.past.last()
            && from != Some(last.mesh_state)
        {
            // The chain of logs is broken (see the type's docs): nothing rebuilds the
            // older meshes any more.
            self.past.clear();
        }
        let from_previous = if self.past.is_empty() {
            None
        } else {
            log.map(|mut l| {
                l.shrink_to_fit();
                Arc::new(l)
            })
        };
        let step = Step {
            label: label.into(),
            world: world.without_mesh(),
            deltas: Vec::new(),
            mesh_state,
            from_previous,
        };
        if let Some(previous) = self.past.last_mut() {
            previous.compress(&step.world);
        }
        self.past.push(step);
        self.future.clear();
        while self.past.len() > 1 && self.bytes() > self.max_bytes {
            self.past.remove(0);
            self.past[0].from_previous = None;
        }
    }

    /// Steps back to the previous committed state; returns its label. `None`, changing
    /// nothing, when there is no older state or the world's mesh can no longer be taken
    /// back to it (see the type's docs).
    pub fn undo(&mut self, world: &mut World) -> Option<&str> {
        let [.., previous, current] = self.past.as_slice() else {
            return None;
        };
        let log = current.from_previous.as_deref();
        if !world.move_mesh(
            current.mesh_state,
            log.map(|l| (l, true)),
            previous.mesh_state,
        ) {
            return None;
        }
        let mut current = self.past.pop().expect("len checked");
        let previous = self.past.last_mut().expect("len checked");
        previous.expand(&current.world);
        restore(world, &previous.world);
        current.compress(&previous.world);
        self.future.push(current);
        self.past.last().map(|s| s.label.as_str())
    }

    /// Re-applies the most recently undone state; returns its label. `None`, changing
    /// nothing, when nothing was undone or the world's mesh can no longer be taken forward
    /// to it (see the type's docs).
    pub fn redo(&mut self, world: &mut World) -> Option<&str> {
        let (next, current) = (self.future.last()?, self.past.last()?);
        let log = next.from_previous.as_deref();
        if !world.move_mesh(current.mesh_state, log.map(|l| (l, false)), next.mesh_state) {
            return None;
        }
        let mut next = self.future.pop().expect("checked");
        let current = self.past.last_mut().expect("checked");
        next.expand(&current.world);
        current.compress(&next.world);
        restore(world, &next.world);
        self.past.push(next);
        self.past.last().map(|s| s.label.as_str())
    }

    /// Labels of the committed states, oldest first.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.past.iter().map(|s| s.label.as_str())
    }

    /// Number of undo steps available.
    pub fn undo_steps(&self) -> usize {
        self.past.len().saturating_sub(1)
    }

    /// Number of redo steps available.
    pub fn redo_steps(&self) -> usize {
        self.future.len()
    }

    /// Memory each undo step holds beyond what it shares with the state after it, oldest
    /// first (one entry per [`History::undo_steps`]).
    pub fn step_bytes(&self) -> impl Iterator<Item = usize> + '_ {
        self.past
            .windows(2)
            .map(|pair| pair[0].bytes_beyond(&pair[1]))
    }

    /// Estimated memory held by the snapshots: [`History::step_bytes`] plus the current
    /// state's layers in full (the mesh is the world's own, not held here).
    pub fn bytes(&self) -> usize {
        self.step_bytes().sum::<usize>() + self.past.last().map_or(0, |s| s.world.heap_bytes())
    }
}
