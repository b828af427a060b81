//! Replay of the stitching records: [`Change::Stitch`], [`Change::Unstitch`] and
//! [`Change::VertexSplit`] (see `Mesh::connect_edges` and `Mesh::disconnect_edge`).
//!
//! [`Change::Stitch`]: quadedge::Change::Stitch
//! [`Change::Unstitch`]: quadedge::Change::Unstitch
//! [`Change::VertexSplit`]: quadedge::Change::VertexSplit

use super::Replay;
use crate::info::Interpolation;
use crate::kind::{ElementKind, Kind};
use crate::value::LayerValue;
use quadedge::{StitchRecord, UnstitchRecord, VertexSplitRecord};

impl<T: LayerValue, K: Kind> Replay<'_, T, K> {
    /// Two boundary edges stitched: the merged-away vertices and the removed quad-edge are
    /// deleted (on-change policy); the survivors keep their data.
    pub(super) fn stitch(&mut self, r: &StitchRecord) {
        for v in r.removed {
            self.on_change(Self::vertex_slot(v));
        }
        self.on_change(Self::edge_slots(r.removed_edge));
    }

    /// An edge cut apart: the new edge descends from `edge.sym()` (same orientation).
    pub(super) fn unstitch(&mut self, r: &UnstitchRecord) {
        let policy = self.layer.info.interpolation_policy();
        if !K::KIND.is_edge() {
            return;
        }
        if policy == Interpolation::ResetLayer {
            self.reset_all();
            return;
        }
        self.new_edge(policy, policy.produces_value(), r.new_edge, r.edge.sym());
    }

    /// A vertex split: the new vertex sits where `from` is and copies its value.
    pub(super) fn vertex_split(&mut self, r: &VertexSplitRecord) {
        if K::KIND != ElementKind::Vertex || !r.vertex.is_valid() {
            return;
        }
        let policy = self.layer.info.interpolation_policy();
        if policy == Interpolation::ResetLayer {
            self.reset_all();
        } else if policy.produces_value() && r.from.is_valid() {
            let v = self.read(r.from.index());
            self.write(r.vertex.index(), v);
        } else {
            self.reset(r.vertex.index());
        }
    }
}
