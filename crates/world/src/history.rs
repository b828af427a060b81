//! Undo and redo over cheap world snapshots.

use crate::World;

/// Replaces `world` by `snapshot`, keeping its version clock monotonic: versions issued after
/// an undo never repeat ones issued before it, so a renderer's cache key stays unambiguous.
fn restore(world: &mut World, snapshot: &World) {
    let clock = world.clock;
    *world = snapshot.clone();
    world.clock = world.clock.max(clock);
}

/// Labelled snapshots of a world with undo, redo and a memory bound.
///
/// Snapshots share everything that did not change (see [`World`]), so an undo step costs what
/// its edit wrote: one mesh copy for a topology edit, one chunk for a value.
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
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Committed states, oldest first; the last one is the current state.
    past: Vec<(String, World)>,
    /// States undone, most recently undone last.
    future: Vec<(String, World)>,
    max_bytes: usize,
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

    /// Records the current state of `world` under `label`; clears the redo list.
    pub fn commit(&mut self, label: impl Into<String>, world: &World) {
        self.past.push((label.into(), world.clone()));
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
        let current = self.past.pop().expect("len checked");
        self.future.push(current);
        let (label, w) = self.past.last().expect("len checked");
        restore(world, w);
        Some(label)
    }

    /// Re-applies the most recently undone state; returns its label.
    pub fn redo(&mut self, world: &mut World) -> Option<&str> {
        let next = self.future.pop()?;
        restore(world, &next.1);
        self.past.push(next);
        self.past.last().map(|(l, _)| l.as_str())
    }

    /// Labels of the committed states, oldest first.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.past.iter().map(|(l, _)| l.as_str())
    }

    /// Number of undo steps available.
    pub fn undo_steps(&self) -> usize {
        self.past.len().saturating_sub(1)
    }

    /// Number of redo steps available.
    pub fn redo_steps(&self) -> usize {
        self.future.len()
    }

    /// Estimated memory held by the snapshots beyond what each shares with its successor.
    pub fn bytes(&self) -> usize {
        let mut total = 0;
        for pair in self.past.windows(2) {
            total += pair[0].1.unshared_bytes(&pair[1].1);
        }
        if let Some((_, last)) = self.past.last() {
            total += last.heap_bytes();
        }
        total
    }
}
