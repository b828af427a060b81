//! [`World::resample`]: the world moved onto another mesh in place, every layer carried
//! over by a plan.

use crate::slot::{Slot, State, registered_decoder};
use crate::{World, WorldError};
use layers::resample::{ResampleError as PlanError, ResamplePlan};
use layers::{AnyLayer, ElementKind};
use quadedge::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;
use std::sync::Arc;

/// Why [`World::resample`] refused. The world is never changed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ResampleError {
    /// The plan's array for an element kind the world has layers of does not cover the new
    /// mesh (an empty array: the plan says nothing for that kind).
    SlotCount {
        /// The element kind.
        kind: ElementKind,
        /// Entries in the plan.
        len: usize,
        /// Slots of that kind in the new mesh (twice the quad-edge slots for edges).
        expected: usize,
    },
    /// A live element of the new mesh has a source that is not a live element of the old mesh
    /// (or is invalid): its value would be made up.
    DeadSource {
        /// The kind of the new element.
        kind: ElementKind,
        /// Its slot in the new mesh.
        slot: usize,
    },
    /// The plan itself is inconsistent (lengths, weights, ids past the end).
    Plan(PlanError),
    /// A layer loaded from a file could not be decoded (damaged).
    Layer(WorldError),
    /// A layer loaded from a file holds a type this process has never held, so it cannot be
    /// decoded: read it once with [`World::layer`] first.
    UnknownType {
        /// The layer's name.
        name: String,
        /// Its stored type key.
        type_key: String,
    },
}

impl core::fmt::Display for ResampleError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ResampleError::SlotCount {
                kind,
                len,
                expected,
            } => write!(
                f,
                "resample: the plan has {len} {kind} entries for {expected} slots of the new mesh"
            ),
            ResampleError::DeadSource { kind, slot } => write!(
                f,
                "resample: {kind} slot {slot} of the new mesh has no live source in the old one"
            ),
            ResampleError::Plan(e) => write!(f, "resample: {e}"),
            ResampleError::Layer(e) => write!(f, "resample: {e}"),
            ResampleError::UnknownType { name, type_key } => write!(
                f,
                "resample: layer `{name}` holds `{type_key}`, a type this process has not read"
            ),
        }
    }
}

impl std::error::Error for ResampleError {}

impl From<PlanError> for ResampleError {
    fn from(e: PlanError) -> Self {
        ResampleError::Plan(e)
    }
}

impl World {
    /// Moves this world onto `mesh` in place: every layer carried over by `plan` (computed
    /// by point location, for instance with `delaunay::resample::stencils`; a world with
    /// geometry does it all with [`World::resample_onto`] or
    /// [`World::resample_fresh_sphere`]), with the same names, types, policies and order;
    /// the same dictionaries and generator state (so the seed's sequence goes on).
    ///
    /// The rules, per layer policy, are those of [`Layer::resampled`](layers::Layer::resampled):
    /// vertex layers blend their stencil's three corners by the layer's interpolation (the
    /// heaviest corner for `MaxWeight`, exact copies where a new vertex sits on an old one),
    /// face and edge layers copy their source element's value. Mesh ids stored in
    /// dictionaries become `Null` (nothing maps an old element to one new element), as with
    /// [`MeshReplacement::ResetAll`](crate::MeshReplacement::ResetAll). Every layer gets a fresh version.
    ///
    /// The resample is one step for a [`History`](crate::History) following the world: the
    /// next commit records it, and an undo brings the old mesh and every old layer back
    /// exactly.
    ///
    /// Cost: one pass over the plan to check it, then one gather per layer.
    ///
    /// # Errors
    /// [`ResampleError`] when the plan does not cover the new mesh for a kind the world has
    /// layers of, names a dead or invalid source for a live element, holds unusable weights,
    /// or a stored layer cannot be decoded. The world is unchanged then.
    pub fn resample(&mut self, mesh: Mesh, plan: &ResamplePlan<'_>) -> Result<(), ResampleError> {
        let layers = self.resampled_layers(&mesh, plan, None, Sources::Checked)?;
        self.install_resampled(mesh, layers);
        Ok(())
    }

    /// A copy of this world moved onto `mesh` by `plan` ([`World::resample`] on a clone);
    /// `self` is untouched. A [`History`](crate::History) does not follow the copy: to keep
    /// undo across the resample, resample the world itself in place.
    ///
    /// # Errors
    /// As [`World::resample`].
    pub fn resampled(&self, mesh: Mesh, plan: &ResamplePlan<'_>) -> Result<World, ResampleError> {
        let mut copy = self.clone();
        copy.resample(mesh, plan)?;
        Ok(copy)
    }

    /// Every layer of this world carried onto `mesh` by `plan`, but layer `skip` (kept as it
    /// is, for the caller to replace); the world is not touched.
    pub(crate) fn resampled_layers(
        &self,
        mesh: &Mesh,
        plan: &ResamplePlan<'_>,
        skip: Option<usize>,
        sources: Sources,
    ) -> Result<Vec<Slot>, ResampleError> {
        plan.check_lengths()?;
        let has = |k: ElementKind| self.layers.iter().any(|s| s.kind == k);
        // Live sources skip the passes over the plan, not the coverage (indices and weights
        // are checked again by every gather).
        let checked = sources == Sources::Checked;
        if has(ElementKind::Vertex) {
            match checked {
                true => self.check_vertices(mesh, plan)?,
                false => covers(
                    ElementKind::Vertex,
                    plan.vertex_corners.len(),
                    mesh.vertex_slots(),
                )?,
            }
        }
        if has(ElementKind::Face) {
            match checked {
                true => self.check_faces(mesh, plan)?,
                false => covers(ElementKind::Face, plan.faces.len(), mesh.face_slots())?,
            }
        }
        if ElementKind::ALL.iter().any(|k| k.is_edge() && has(*k)) {
            match checked {
                true => self.check_edges(mesh, plan)?,
                false => covers(
                    ElementKind::DirectedEdge,
                    plan.edges.len(),
                    2 * mesh.quad_slots(),
                )?,
            }
        }
        // Every layer at once (each gather is parallel too); the first error in layer order.
        let layers: Vec<Result<Slot, ResampleError>> = self
            .layers
            .par_iter()
            .enumerate()
            .map(|(i, slot)| match skip == Some(i) {
                true => Ok(slot.clone()),
                false => resampled_slot(slot, plan),
            })
            .collect();
        layers.into_iter().collect()
    }

    /// Swaps in `mesh` and the layers made for it (infallible: everything was checked).
    /// As [`World::replace_mesh`] with [`MeshReplacement::ResetAll`](crate::MeshReplacement::ResetAll), without resetting the
    /// old layers first (they are replaced whole).
    pub(crate) fn install_resampled(&mut self, mesh: Mesh, layers: Vec<Slot>) {
        self.swap_mesh(mesh);
        let version = self.tick();
        self.mesh_version = version;
        self.forget_dict_ids(false, version);
        self.layers = layers;
        for i in 0..self.layers.len() {
            let stamp = self.tick();
            self.layers[i].version = stamp;
        }
    }

    fn check_vertices(&self, mesh: &Mesh, plan: &ResamplePlan<'_>) -> Result<(), ResampleError> {
        let kind = ElementKind::Vertex;
        covers(kind, plan.vertex_corners.len(), mesh.vertex_slots())?;
        let check = |i: usize| -> Result<(), ResampleError> {
            if !mesh.is_vertex_alive(Vertex::new(i as u32)) {
                return Ok(());
            }
            let c = plan.vertex_corners[i];
            if !c.iter().all(|&u| self.mesh.is_vertex_alive(u)) {
                return Err(ResampleError::DeadSource { kind, slot: i });
            }
            ResamplePlan::check_weights(plan.vertex_weights[i], i)?;
            Ok(())
        };
        // The lowest bad slot, found on all cores, then its error.
        match (0..mesh.vertex_slots())
            .into_par_iter()
            .find_first(|&i| check(i).is_err())
        {
            Some(i) => check(i),
            None => Ok(()),
        }
    }

    fn check_faces(&self, mesh: &Mesh, plan: &ResamplePlan<'_>) -> Result<(), ResampleError> {
        let kind = ElementKind::Face;
        covers(kind, plan.faces.len(), mesh.face_slots())?;
        let bad = |i: usize| {
            mesh.is_face_alive(Face::new(i as u32)) && !self.mesh.is_face_alive(plan.faces[i])
        };
        match (0..mesh.face_slots())
            .into_par_iter()
            .find_first(|&i| bad(i))
        {
            Some(slot) => Err(ResampleError::DeadSource { kind, slot }),
            None => Ok(()),
        }
    }

    fn check_edges(&self, mesh: &Mesh, plan: &ResamplePlan<'_>) -> Result<(), ResampleError> {
        let kind = ElementKind::DirectedEdge;
        covers(kind, plan.edges.len(), 2 * mesh.quad_slots())?;
        let bad = |i: usize| {
            let src = plan.edges[i];
            mesh.is_edge_alive(Edge::primal(i as u32 & !1))
                && !(src.is_primal() && self.mesh.is_edge_alive(src))
        };
        match (0..plan.edges.len())
            .into_par_iter()
            .find_first(|&i| bad(i))
        {
            Some(slot) => Err(ResampleError::DeadSource { kind, slot }),
            None => Ok(()),
        }
    }
}

/// One layer carried onto the new mesh by `plan`.
fn resampled_slot(slot: &Slot, plan: &ResamplePlan<'_>) -> Result<Slot, ResampleError> {
    let typed = match &slot.state {
        State::Typed(t) => t,
        State::Encoded { .. } => {
            let decode = registered_decoder(&slot.type_key, slot.kind).ok_or_else(|| {
                ResampleError::UnknownType {
                    name: slot.name.clone(),
                    type_key: slot.type_key.clone(),
                }
            })?;
            slot.typed_with(decode).map_err(ResampleError::Layer)?
        }
    };
    let new: Box<dyn AnyLayer> = typed.layer.resampled(plan)?;
    let mut t = typed.clone();
    t.layer = Arc::new(new);
    let mut s = slot.clone();
    s.state = State::Typed(t);
    Ok(s)
}

/// Whether a plan's sources must be checked against the old mesh.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sources {
    /// A caller's plan: every source of a live element checked live in the old mesh.
    Checked,
    /// Stencils this world computed on its own mesh for `mesh`: point location answers live
    /// elements only.
    Live,
}

/// Does a plan array of `len` entries cover `slots` slots?
fn covers(kind: ElementKind, len: usize, slots: usize) -> Result<(), ResampleError> {
    if len == slots {
        Ok(())
    } else {
        Err(ResampleError::SlotCount {
            kind,
            len,
            expected: slots,
        })
    }
}
