//! The mesh and its positions, lent together for geometric editing (Delaunay insert, remove,
//! move), with every other layer following through the journal.

use crate::rollback::{HeldLayer, MeshEdit};
use crate::{LayerInfo, World, WorldError};
use glam::DVec3;
use layers::VertexKind;
use quadedge::{Change, Mesh, Vertex};
use rayon::prelude::*;

impl World {
    /// Locks the mesh and the positions layer `info` together (creating the layer if
    /// missing): [`MeshPositionsGuard::parts`] lends `(&mut Mesh, &mut Vec<DVec3>)`, the
    /// positions layer's own storage (`len == vertex_slots()` on entry; copied once first if
    /// a snapshot shares it, otherwise nothing is copied in or out), indexed by vertex index,
    /// which is what geometric algorithms want.
    ///
    /// When the guard ends, the mesh's journal is replayed into every layer, the positions
    /// layer included (so its length and policies are right for new and removed vertices),
    /// and the caller's values win: every live vertex below the `Vec`'s length keeps the
    /// value the caller left in the `Vec` (new vertices past its end get the interpolated
    /// value). A `compact()` inside the guard: the `Vec` is read by the indices the mesh has
    /// when the guard ends (permute it with the `Remap` that `compact()` returns, or compact
    /// after the guard). Shrinking the `Vec` below its length on entry drops those values:
    /// the slots come back with the layer's initial value. If a policy of the positions
    /// layer removes it during the edit, there is nothing to write back. Calling
    /// [`parts`](MeshPositionsGuard::parts) counts as a write of the positions (their version
    /// changes, as through a layer guard); a guard that never lends changes nothing.
    ///
    /// [`MeshPositionsGuard::commit`] keeps all that; dropping the guard rolls the mesh back
    /// by the undo log and puts the positions back as they were (removes the layer if the
    /// lock created it). The guard holds the positions as locked, so the first
    /// [`parts`](MeshPositionsGuard::parts) copies them once (a kept
    /// [`History`](crate::History) makes that copy anyway).
    ///
    /// ```
    /// use glam::DVec3;
    /// use layers::{Interpolation, LayerInfo, VertexKind};
    /// use quadedge::{Mesh, Vertex, shapes};
    /// use world::World;
    /// const POS: LayerInfo<DVec3, VertexKind> =
    ///     LayerInfo::new("position").interpolation(Interpolation::Slerp);
    /// let (n, t) = shapes::octahedron();
    /// let mut world = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    /// let mut g = world.lock_mesh_and_positions(&POS).unwrap();
    /// let (mesh, pos) = g.parts();
    /// let v = mesh.add_vertex();
    /// pos.resize(mesh.vertex_slots(), DVec3::ZERO);
    /// pos[v.index()] = DVec3::Z;
    /// g.commit();
    /// assert_eq!(world.layer(&POS).unwrap()[Vertex::new(6)], DVec3::Z);
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`World::lock_layer`] for `info`.
    pub fn lock_mesh_and_positions(
        &mut self,
        info: &LayerInfo<DVec3, VertexKind>,
    ) -> Result<MeshPositionsGuard<'_>, WorldError> {
        self.check_layer(info)?;
        let created = self.slot_index(info.name()).is_none();
        let i = self.ensure_layer(info);
        let len_on_entry = self.layers[i].get::<DVec3, VertexKind>()?.len();
        let stamp = self.tick();
        let held = HeldLayer::new(self, i, created, stamp);
        Ok(MeshPositionsGuard {
            world: self,
            edit: None,
            name: info.name().to_owned(),
            len_on_entry,
            held: Some(held),
        })
    }
}

/// The mesh and its positions; see [`World::lock_mesh_and_positions`]. Kept by
/// [`MeshPositionsGuard::commit`]; dropped without it, the mesh and the positions are put
/// back as they were. Replacing the mesh through [`parts`](Self::parts) ends the guard as a
/// replacement, as for [`MeshGuard`](crate::MeshGuard).
#[must_use = "a mesh and positions guard dropped without `commit()` rolls its writes back"]
pub struct MeshPositionsGuard<'w> {
    world: &'w mut World,
    edit: Option<MeshEdit>,
    name: String,
    /// The positions' length when locked: the journal replays from there.
    len_on_entry: usize,
    /// The positions as locked; `None` once the guard ended.
    held: Option<HeldLayer>,
}

/// The caller's values that the journal replay would overwrite, kept across it.
pub(crate) enum Kept {
    /// `(vertex index, value)` for vertices the journal adds or merges below the length on
    /// entry, and every value past it.
    Slots(Vec<(usize, DVec3)>),
    /// All values, by final index (the journal renumbers vertices).
    All(Vec<DVec3>),
}

impl MeshPositionsGuard<'_> {
    /// The mesh and the positions for writing (the layer's own storage).
    pub fn parts(&mut self) -> (&mut Mesh, &mut Vec<DVec3>) {
        let world = &mut *self.world;
        let i = world
            .slot_index(&self.name)
            .expect("the layer lives while the guard does");
        let mesh = MeshEdit::start(&mut world.mesh, &mut self.edit, world.mesh_logged);
        let layer = world.layers[i]
            .get_mut::<DVec3, VertexKind>()
            .expect("typed when locked");
        (mesh, layer.values_vec_mut())
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh {
        self.world.mesh()
    }

    /// The positions as they are in the guard.
    pub fn positions(&self) -> &[DVec3] {
        let i = self.world.slot_index(&self.name).expect("locked");
        self.world.layers[i]
            .get::<DVec3, VertexKind>()
            .map_or(&[], |l| l.as_slice())
    }

    /// Keeps the edit (see [`World::lock_mesh_and_positions`]). Cannot be refused.
    pub fn commit(mut self) {
        let held = self.held.take().expect("held until the guard ends");
        // Written before the replay, which counts as a write of its own.
        let written = held.written(self.world);
        let stamp = self.world.tick();
        let (name, len) = (self.name.as_str(), self.len_on_entry);
        if let Some(edit) = self.edit.take() {
            self.world.commit_mesh_edit(edit, |w, changes| {
                let kept = w.keep_lent(name, len, &changes);
                w.apply_journal(changes);
                if let Some(kept) = kept {
                    w.put_back_lent(name, kept);
                }
            });
        }
        if written && let Some(i) = self.world.slot_index(name) {
            self.world.layers[i].version = stamp;
        }
    }
}

impl World {
    /// Before the replay: brings the lent positions back to their length on entry (what the
    /// journal starts from) and keeps the caller's values the replay would overwrite.
    pub(crate) fn keep_lent(&mut self, name: &str, len: usize, changes: &[Change]) -> Option<Kept> {
        let i = self.slot_index(name)?;
        let layer = self.layers[i].get_mut::<DVec3, VertexKind>().ok()?;
        let initial = *layer.info().initial_value();
        let values = layer.values_vec_mut();
        // One ordered pass over the journal on all cores (a motion's holds hundreds of
        // thousands of flips): the slots each record names, or `None` for a compaction.
        let named: Vec<Option<(usize, usize)>> = changes
            .par_iter()
            .with_min_len(4096)
            .filter_map(|c| named_slots(c, len))
            .collect();
        if named.iter().any(Option::is_none) {
            let all = values.clone();
            values.resize(len, initial);
            return Some(Kept::All(all));
        }
        let mut kept: Vec<(usize, DVec3)> = Vec::new();
        for (start, end) in named.into_iter().flatten() {
            kept.extend((start..end).filter_map(|i| values.get(i).map(|&p| (i, p))));
        }
        kept.retain(|&(idx, _)| idx < len);
        if values.len() > len {
            kept.extend(values.drain(len..).enumerate().map(|(k, p)| (len + k, p)));
        } else {
            values.resize(len, initial);
        }
        Some(Kept::Slots(kept))
    }

    /// After the replay: the caller's values win for live vertices.
    pub(crate) fn put_back_lent(&mut self, name: &str, kept: Kept) {
        let Some(i) = self.slot_index(name) else {
            return; // a policy removed the layer
        };
        let mesh = &self.mesh;
        let Ok(layer) = self.layers[i].get_mut::<DVec3, VertexKind>() else {
            return;
        };
        let values = layer.values_vec_mut();
        let live = |idx: usize| mesh.is_vertex_alive(Vertex::new(idx as u32));
        match kept {
            Kept::Slots(slots) => {
                for (idx, p) in slots {
                    if live(idx)
                        && let Some(x) = values.get_mut(idx)
                    {
                        *x = p;
                    }
                }
            }
            Kept::All(all) => {
                for (idx, (x, p)) in values.iter_mut().zip(all).enumerate() {
                    if live(idx) {
                        *x = p;
                    }
                }
            }
        }
    }
}

/// The vertex slots below `len` whose positions a journal record writes (`start..end`), as
/// the replay would (new vertices, splits, the survivor of a collapse); `Some(None)` for a
/// compaction (every slot moves); `None` for a record that writes none.
fn named_slots(change: &Change, len: usize) -> Option<Option<(usize, usize)>> {
    let one = |v: Vertex| Some(Some((v.index(), v.index() + 1)));
    match change {
        Change::Compact(_) => Some(None),
        Change::VerticesAdded { first, count } => {
            let start = first.index().min(len);
            let end = (first.index() + *count as usize).min(len);
            (start < end).then_some(Some((start, end)))
        }
        Change::Split(r) => one(r.vertex),
        Change::FaceSplit(r) => one(r.vertex),
        Change::Collapse(r) => one(r.survivor),
        Change::VertexSplit(r) => one(r.vertex),
        _ => None,
    }
}

impl Drop for MeshPositionsGuard<'_> {
    fn drop(&mut self) {
        let Some(held) = self.held.take() else {
            return;
        };
        held.put_back(self.world);
        if let Some(edit) = self.edit.take() {
            self.world.roll_back_mesh_edit(edit);
        }
    }
}
