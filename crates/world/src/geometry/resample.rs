//! Resampling a world with geometry in place: the stencils, the plan and the positions are
//! the world's business, not the caller's.

use super::report::EditReport;
use super::{EditError, Geometry, POSITION_NAME, check_triangulation, fault, fresh_sphere};
use crate::World;
use crate::resample::Sources;
use crate::slot::Slot;
use delaunay::resample::{StencilKinds, Stencils, stencils};
use glam::DVec3;
use layers::resample::ResamplePlan;
use layers::{ElementKind, Layer, VertexKind};
use quadedge::Mesh;

impl World {
    /// Moves the world onto a fresh Fibonacci sphere of `n` points (same radius; `jitter` and
    /// `seed` as for [`World::fibonacci_sphere`]) in place, carrying every layer over (see
    /// [`World::resample`] for the rules); the positions are the fresh sphere's points. One
    /// undoable step for a [`History`](crate::History) following the world.
    ///
    /// ```
    /// use world::{History, World};
    /// let mut world = World::fibonacci_sphere(4000, 1.0, 0.3, 1).unwrap();
    /// let mut history = History::new(1 << 30);
    /// history.commit("start", &mut world);
    /// let before = world.clone();
    /// world.resample_fresh_sphere(3000, 0.3, 2).unwrap();
    /// history.commit("resample", &mut world);
    /// assert_eq!(world.mesh().vertex_count(), 3000);
    /// history.undo(&mut world);
    /// assert!(world == before);
    /// ```
    ///
    /// # Errors
    /// The world unchanged: [`EditError::NoGeometry`], or a plane world (resample a map with
    /// [`World::resample_onto`]); [`EditError::Generate`] for a bad count or jitter;
    /// [`EditError::Resample`] when a stored layer cannot be decoded.
    pub fn resample_fresh_sphere(
        &mut self,
        n: usize,
        jitter: f64,
        seed: u64,
    ) -> Result<EditReport, EditError> {
        let Some(Geometry::Sphere { radius }) = self.geometry() else {
            return Err(EditError::NoGeometry);
        };
        let (mesh, positions) = fresh_sphere(n, radius, jitter, seed)?;
        fault::stage("resample: fresh sphere")?;
        self.resample_trusted(mesh, positions)
    }

    /// Moves the world onto `mesh`, whose vertices sit at `positions` on the same surface,
    /// in place (see [`World::resample_fresh_sphere`]). The mesh must be the Delaunay
    /// triangulation of the positions (checked exactly, one pass).
    ///
    /// # Errors
    /// The world unchanged: as [`World::with_positions`] for the new mesh and positions
    /// ([`EditError::Delaunay`] with a planar point outside the old map); layers as
    /// [`World::resample`].
    pub fn resample_onto(
        &mut self,
        mesh: Mesh,
        positions: Vec<DVec3>,
    ) -> Result<EditReport, EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        check_triangulation(&mesh, &positions, geometry)?;
        self.resample_trusted(mesh, positions)
    }

    pub(super) fn resample_trusted(
        &mut self,
        mesh: Mesh,
        positions: Vec<DVec3>,
    ) -> Result<EditReport, EditError> {
        let layers = self.carried(&mesh, positions)?;
        self.install_carried(mesh, layers)
    }

    /// Every layer carried onto `mesh`, whose vertices sit at `positions` (which become the
    /// position layer), ready for [`World::install_carried`]; the world is not changed.
    pub(super) fn carried(
        &self,
        mesh: &Mesh,
        positions: Vec<DVec3>,
    ) -> Result<Vec<Slot>, EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        let i = self
            .slot_index(POSITION_NAME)
            .ok_or(EditError::NoGeometry)?;
        let info = self.layers[i]
            .get::<DVec3, VertexKind>()
            .map_err(EditError::World)?
            .info()
            .clone();
        let kinds = StencilKinds {
            faces: self.layers.iter().any(|s| s.kind == ElementKind::Face),
            edges: self.layers.iter().any(|s| s.kind.is_edge()),
        };
        let old = self.positions();
        let s: Stencils = match geometry {
            Geometry::Sphere { .. } => {
                stencils(&delaunay::Sphere, &self.mesh, old, mesh, &positions, kinds)
            }
            Geometry::Plane => stencils(&delaunay::Plane, &self.mesh, old, mesh, &positions, kinds),
        }?;
        let plan = ResamplePlan {
            vertex_corners: &s.corners,
            vertex_weights: &s.weights,
            faces: &s.faces,
            edges: &s.edges,
        };
        let mut layers = self
            .resampled_layers(mesh, &plan, Some(i), Sources::Live)
            .map_err(EditError::Resample)?;
        // The positions are the new mesh's own, not a blend of the old ones.
        let mut positions = positions;
        positions.resize(mesh.vertex_slots(), DVec3::ZERO);
        layers[i] = Slot::new(Layer::from_values(info, positions), 0);
        Ok(layers)
    }

    /// Moves the world onto `mesh` with the `layers` [`World::carried`] made for it.
    pub(super) fn install_carried(
        &mut self,
        mut mesh: Mesh,
        layers: Vec<Slot>,
    ) -> Result<EditReport, EditError> {
        fault::stage("resample: stencils")?;
        for _ in &layers {
            fault::stage("resample: a layer carried over")?;
        }
        fault::stage("resample: before the swap")?;
        mesh.discard_journal();
        self.install_resampled(mesh, layers);
        Ok(EditReport::renumbered())
    }
}
