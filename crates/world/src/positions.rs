//! The mesh and its positions, lent together for geometric editing (Delaunay insert, remove,
//! move), with every other layer following through the journal.

use crate::{LayerInfo, World, WorldError};
use glam::DVec3;
use layers::{LayerValue, VertexKind};
use quadedge::{Mesh, Recording, Vertex};

impl World {
    /// Locks the mesh and the positions layer `info` together (creating the layer if
    /// missing): [`MeshPositionsGuard::parts`] lends `(&mut Mesh, &mut Vec<DVec3>)`, the
    /// positions as one contiguous `Vec` indexed by vertex index (`len == vertex_slots()` on
    /// entry), which is what geometric algorithms want.
    ///
    /// When the guard ends, the mesh's journal is replayed into every layer, the positions
    /// layer included (so its length and policies are right for new and removed vertices),
    /// and then the `Vec`'s values are written into the positions layer for every live vertex
    /// whose index is below the `Vec`'s length. When no value changed, nothing is
    /// written, copied or stamped. The `Vec` is the caller's: it is not resized for new
    /// vertices (their slots past its end keep the interpolated value) nor permuted by a
    /// `compact()` inside the guard: the `Vec` is read by the indices the mesh has when the
    /// guard ends, so permute it with the `Remap` that `compact()` returns (or compact after
    /// the guard). If a policy of the positions
    /// layer removes it during the edit, there is nothing to write back.
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
    /// g.commit().unwrap();
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
        if let Some(i) = self.slot_index(info.name()) {
            self.layers[i].get_mut::<DVec3, VertexKind>()?;
        }
        let i = self.ensure_layer(info);
        let positions = self.layers[i].get::<DVec3, VertexKind>()?.to_vec();
        Ok(MeshPositionsGuard {
            world: self,
            recording: None,
            name: info.name().to_owned(),
            positions,
            lent: false,
        })
    }
}

/// The mesh and its positions; see [`World::lock_mesh_and_positions`]. Replacing the mesh
/// through [`parts`](Self::parts) is reported as by [`MeshGuard`](crate::MeshGuard).
pub struct MeshPositionsGuard<'w> {
    world: &'w mut World,
    recording: Option<Recording>,
    name: String,
    positions: Vec<DVec3>,
    lent: bool,
}

impl MeshPositionsGuard<'_> {
    /// The mesh and the positions for writing.
    pub fn parts(&mut self) -> (&mut Mesh, &mut Vec<DVec3>) {
        self.lent = true;
        let mesh = self.world.start_mesh_edit(&mut self.recording);
        (mesh, &mut self.positions)
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh {
        self.world.mesh()
    }

    /// The positions as they are in the guard.
    pub fn positions(&self) -> &[DVec3] {
        &self.positions
    }

    /// Ends the edit now (see [`World::lock_mesh_and_positions`]).
    ///
    /// # Errors
    ///
    /// [`WorldError::MeshReplacedInGuard`] when the mesh was replaced through the guard.
    pub fn commit(mut self) -> Result<(), WorldError> {
        self.finish()
    }

    fn finish(&mut self) -> Result<(), WorldError> {
        let result = match self.recording.take() {
            Some(r) => self.world.finish_mesh_edit(r),
            None => Ok(()),
        };
        if std::mem::take(&mut self.lent) {
            self.write_back();
        }
        result
    }

    fn write_back(&mut self) {
        let world = &mut *self.world;
        let Some(i) = world.slot_index(&self.name) else {
            return; // a policy removed the layer
        };
        let stamp = world.clock + 1;
        let mesh = &world.mesh;
        let Ok(layer) = world.layers[i].get_mut::<DVec3, VertexKind>() else {
            return;
        };
        let before = layer.write_count();
        let n = self.positions.len().min(layer.len());
        let lent = &self.positions[..n];
        let live = |idx: usize| mesh.is_vertex_alive(Vertex::new(idx as u32));
        // Compare first, through slices: positions that did not change copy nothing.
        let changed = |(idx, (p, old)): (usize, (&DVec3, &DVec3))| live(idx) && !old.bits_eq(p);
        if lent.iter().zip(layer.as_slice()).enumerate().any(changed) {
            let dst = layer.as_mut_slice();
            for (idx, (p, old)) in lent.iter().zip(dst.iter_mut()).enumerate() {
                if live(idx) {
                    *old = *p;
                }
            }
        }
        if layer.write_count() != before {
            world.clock = stamp;
            world.layers[i].version = stamp;
        }
    }
}

impl Drop for MeshPositionsGuard<'_> {
    fn drop(&mut self) {
        if let Err(e) = self.finish() {
            self.world.errors.push(e);
        }
    }
}
