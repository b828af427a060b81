//! Undo and redo over world snapshots that keep only what changed.
//!
//! The current state is a full snapshot (it shares everything with the live world). Every
//! older state keeps its layers as deltas against the state after it
//! ([`layers::AnyDelta`]: the blocks that differ), and every undone state as deltas against
//! the state before it, so an undo step costs what its edit changed, not whole layers.
//! Stepping rebuilds one state from its neighbour (a copy of each changed layer plus its
//! blocks; unchanged layers are shared, not copied).

use crate::World;
use crate::slot::State;
use layers::AnyDelta;
use std::fmt;
use std::sync::Arc;

/// Replaces `world` by `snapshot`, keeping its version clock monotonic: versions issued after
/// an undo never repeat ones issued before it, so a renderer's cache key stays unambiguous.
fn restore(world: &mut World, snapshot: &World) {
    let clock = world.clock;
    *world = snapshot.clone();
    world.clock = world.clock.max(clock);
}

/// One committed state: a full world, or a world whose typed layers are shells (no values)
/// with the deltas that rebuild them from a neighbouring state.
#[derive(Clone)]
struct Step {
    label: String,
    world: World,
    /// `(slot index, delta against the same-named layer of the neighbour)`.
    deltas: Vec<(usize, Arc<dyn AnyDelta>)>,
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

    /// Heap bytes this step holds beyond what it shares with `next`.
    fn bytes_beyond(&self, next: &World) -> usize {
        self.world.unshared_bytes(next)
            + self
                .deltas
                .iter()
                .map(|(_, d)| d.heap_bytes())
                .sum::<usize>()
    }
}

/// Labelled snapshots of a world with undo, redo and a memory bound.
///
/// The current state shares everything with the world (see [`World`]); older states keep
/// only the 16 KiB blocks of each layer that differ from the next state, so an undo step
/// costs what its edit changed: a few KiB for a value,
/// one mesh copy for a topology edit.
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
/// history.commit("start", &w);
/// w.lock_layer(&H).unwrap()[Vertex::new(0)] = 3.0;
/// history.commit("raise v0", &w);
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
    /// written since, comparing blocks).
    pub fn commit(&mut self, label: impl Into<String>, world: &World) {
        let step = Step {
            label: label.into(),
            world: world.clone(),
            deltas: Vec::new(),
        };
        if let Some(previous) = self.past.last_mut() {
            previous.compress(&step.world);
        }
        self.past.push(step);
        self.future.clear();
        while self.past.len() > 1 && self.bytes() > self.max_bytes {
            self.past.remove(0);
        }
    }

    /// Steps back to the previous committed state; returns its label.
    pub fn undo(&mut self, world: &mut World) -> Option<&str> {
        if self.past.len() < 2 {
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

    /// Re-applies the most recently undone state; returns its label.
    pub fn redo(&mut self, world: &mut World) -> Option<&str> {
        let mut next = self.future.pop()?;
        let current = self.past.last_mut().expect("a redo follows an undo");
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
            .map(|pair| pair[0].bytes_beyond(&pair[1].world))
    }

    /// Estimated memory held by the snapshots: [`History::step_bytes`] plus the current
    /// state in full.
    pub fn bytes(&self) -> usize {
        self.step_bytes().sum::<usize>() + self.past.last().map_or(0, |s| s.world.heap_bytes())
    }
}
