//! Journal replay: how a [`Layer`] follows the mesh's change journal by its policies.
//!
//! A journal may come from a file, so nothing in it is trusted: ids past the end are ignored
//! or read as the initial value, `INVALID` ids are skipped, and the layer never grows past
//! what the caller's [`Sizes`] and the journal's own remaps account for.

use crate::any::ApplyOutcome;
use crate::info::{Interpolation, OnChange};
use crate::kind::{ElementKind, Kind, Sizes};
use crate::layer::Layer;
use crate::removal::journal_removes_layer;
use crate::storage::Dense;
use crate::value::{LayerValue, heaviest_index, lightest_index};
use quadedge::{
    Change, CollapseRecord, DissolveRecord, Edge, Face, FaceSplitRecord, Remap, SplitRecord, Vertex,
};

mod stitch;

impl<T: LayerValue, K: Kind> Layer<T, K> {
    /// Replays mesh changes (in order) according to the layer's policies, then sets the length
    /// to `K::KIND.slots(sizes)` (the mesh's slot counts after the changes).
    ///
    /// Returns [`ApplyOutcome::Remove`] without touching the layer when a `RemoveLayer` /
    /// `DropLayer` policy triggers anywhere in `changes` (see [`journal_removes_layer`]).
    ///
    /// `sizes` is trusted (pass [`Sizes::of`] the edited mesh); the journal is not: ids past
    /// the end read as the initial value, writes past both the current length and `sizes` are
    /// dropped, and `INVALID` ids are skipped, so a malformed journal never panics and never
    /// makes the layer larger than `sizes` and the journal's own remaps.
    pub fn apply_changes(&mut self, changes: &[Change], sizes: Sizes) -> ApplyOutcome {
        let info = &self.info;
        if journal_removes_layer(
            K::KIND,
            info.on_change_policy(),
            info.interpolation_policy(),
            changes,
        ) {
            return ApplyOutcome::Remove;
        }
        let target = K::KIND.slots(sizes);
        let mut limit = self.len().max(target);
        for c in changes {
            if let Change::Compact(remap) = c {
                limit = limit.max(
                    remap_for::<K>(remap)
                        .len()
                        .saturating_mul(K::KIND.per_quad()),
                );
            }
        }
        let mut run = Replay {
            layer: self,
            limit,
            all_initial: false,
            changed: false,
        };
        // Grow once up front so the per-event writes never resize. Slots that the journal
        // creates later start from the initial value either way, so this changes no result.
        if run.layer.len() < target {
            run.resize(target);
        }
        for c in changes {
            run.change(c);
        }
        run.resize(target);
        if run.changed {
            self.writes += 1;
            ApplyOutcome::Changed
        } else {
            ApplyOutcome::Unchanged
        }
    }
}

fn remap_for<K: Kind>(remap: &Remap) -> &[u32] {
    match K::KIND {
        ElementKind::Vertex => &remap.vertices,
        ElementKind::Face => &remap.faces,
        _ => &remap.quads,
    }
}

/// Up to two storage slots (an element of a directed edge kind has two).
#[derive(Clone, Copy)]
struct Slots {
    idx: [usize; 2],
    n: usize,
}

impl Slots {
    const NONE: Slots = Slots { idx: [0; 2], n: 0 };
    fn one(i: usize) -> Self {
        Slots { idx: [i, 0], n: 1 }
    }
    fn as_slice(&self) -> &[usize] {
        &self.idx[..self.n]
    }
}

/// One journal replay: the layer plus what we know about it during the replay.
pub(crate) struct Replay<'a, T, K> {
    layer: &'a mut Layer<T, K>,
    /// No slot at or past this index is ever written (see [`Layer::apply_changes`]).
    limit: usize,
    /// Every value is the initial one (after a `ResetAll`), so another `ResetAll` is free.
    all_initial: bool,
    changed: bool,
}

impl<T: LayerValue, K: Kind> Replay<'_, T, K> {
    fn initial(&self) -> T {
        *self.layer.info.initial_value()
    }

    fn resize(&mut self, len: usize) {
        if self.layer.len() != len {
            let init = self.initial();
            self.layer.data.resize(len, init);
            self.changed = true;
        }
    }

    fn read(&self, i: usize) -> T {
        self.layer
            .data
            .get(i)
            .copied()
            .unwrap_or_else(|| self.initial())
    }

    fn write(&mut self, i: usize, v: T) {
        if i >= self.limit {
            return;
        }
        if i >= self.layer.len() {
            self.resize(i + 1);
        }
        if let Some(slot) = self.layer.data.get_mut(i) {
            *slot = v;
        }
        self.all_initial = false;
        self.changed = true;
    }

    fn reset(&mut self, i: usize) {
        if i >= self.limit {
            return;
        }
        let init = self.initial();
        if i >= self.layer.len() {
            self.resize(i + 1);
        } else if let Some(slot) = self.layer.data.get_mut(i) {
            *slot = init;
            self.changed = true;
        }
    }

    fn reset_all(&mut self) {
        if !self.all_initial {
            let init = self.initial();
            self.layer.data.fill(init);
            self.all_initial = true;
            self.changed = true;
        }
    }

    fn reset_slots(&mut self, slots: Slots) {
        for &i in slots.as_slice() {
            self.reset(i);
        }
    }

    /// The slots of quad-edge `e` in this (edge) layer; none for other kinds or `INVALID`.
    fn edge_slots(e: Edge) -> Slots {
        if !K::KIND.is_edge() || !e.is_valid() {
            return Slots::NONE;
        }
        if K::KIND.is_directed() {
            let b = e.base().index();
            Slots {
                idx: [b, b + 1],
                n: 2,
            }
        } else {
            Slots::one(e.quad())
        }
    }

    fn vertex_slot(v: Vertex) -> Slots {
        if K::KIND == ElementKind::Vertex && v.is_valid() {
            Slots::one(v.index())
        } else {
            Slots::NONE
        }
    }

    fn face_slot(f: Face) -> Slots {
        if K::KIND == ElementKind::Face && f.is_valid() {
            Slots::one(f.index())
        } else {
            Slots::NONE
        }
    }

    /// `(new slot, ancestor slot)` pairs for edge `new` descending from `from` with the same
    /// orientation (journal convention: `new.sym()` from `from.sym()`, duals follow `rot()`).
    fn descent(new: Edge, from: Edge) -> ([(usize, usize); 2], usize) {
        if !K::KIND.is_edge() || !new.is_valid() || !from.is_valid() {
            return ([(0, 0); 2], 0);
        }
        let pair = |a: Edge, b: Edge| (a.index(), b.index());
        match K::KIND {
            ElementKind::DirectedEdge => ([pair(new, from), pair(new.sym(), from.sym())], 2),
            ElementKind::DirectedDualEdge => {
                let (n, f) = (new.rot(), from.rot());
                ([pair(n, f), pair(n.sym(), f.sym())], 2)
            }
            _ => ([(new.quad(), from.quad()), (0, 0)], 1),
        }
    }

    /// An element was deleted or rewired. `RemoveLayer` was handled before the replay began.
    fn on_change(&mut self, slots: Slots) {
        if slots.n == 0 {
            return;
        }
        match self.layer.info.on_change_policy() {
            OnChange::Keep | OnChange::RemoveLayer => {}
            OnChange::ResetAffected => self.reset_slots(slots),
            OnChange::ResetAll => self.reset_all(),
        }
    }

    fn change(&mut self, c: &Change) {
        match c {
            Change::VerticesAdded { first, count } if K::KIND == ElementKind::Vertex => {
                if !first.is_valid() {
                    return;
                }
                let a = first.index();
                let end = a.saturating_add(*count as usize).min(self.limit);
                for i in a..end.min(self.layer.len()) {
                    self.reset(i);
                }
                if end > self.layer.len() {
                    self.resize(end);
                }
            }
            Change::FaceAdded(f) => self.reset_slots(Self::face_slot(*f)),
            Change::EdgeAdded(e) => self.reset_slots(Self::edge_slots(*e)),
            Change::VertexRemoved(v) => self.on_change(Self::vertex_slot(*v)),
            Change::FaceRemoved(f) => self.on_change(Self::face_slot(*f)),
            Change::EdgeRemoved(e) => self.on_change(Self::edge_slots(*e)),
            Change::Flip(r) => {
                for f in r.faces {
                    self.on_change(Self::face_slot(f));
                }
                self.on_change(Self::edge_slots(r.edge));
            }
            Change::VertexMoved(r) => {
                // The vertex keeps its data; its spokes and four faces were rewired.
                for f in std::iter::once(r.closed).chain(r.faces) {
                    self.on_change(Self::face_slot(f));
                }
                for e in r.spokes {
                    self.on_change(Self::edge_slots(e));
                }
            }
            Change::Split(r) => self.split(r),
            Change::FaceSplit(r) => self.split_face(r),
            Change::Collapse(r) => self.collapse(r),
            Change::VertexDissolved(r) => self.dissolve(r),
            Change::Compact(remap) => self.compact(remap),
            Change::Stitch(r) => self.stitch(r),
            Change::Unstitch(r) => self.unstitch(r),
            Change::VertexSplit(r) => self.vertex_split(r),
            _ => {}
        }
    }

    /// The blended value for the value-producing policies, `None` for the others.
    fn blend(policy: Interpolation, a: &T, b: &T, t: f32) -> Option<T> {
        Some(match policy {
            Interpolation::KeepSrc => *a,
            Interpolation::KeepDest => *b,
            Interpolation::Lerp => T::lerp(a, b, t),
            Interpolation::Nlerp => T::nlerp(a, b, t),
            Interpolation::Slerp => T::slerp(a, b, t),
            Interpolation::MinValue => T::min_value(a, b),
            Interpolation::MaxValue => T::max_value(a, b),
            Interpolation::MinWeight => {
                if 1.0 - t <= t {
                    *a
                } else {
                    *b
                }
            }
            Interpolation::MaxWeight => {
                if 1.0 - t >= t {
                    *a
                } else {
                    *b
                }
            }
            Interpolation::DontCare
            | Interpolation::Reset
            | Interpolation::ResetLayer
            | Interpolation::DropLayer => return None,
        })
    }

    /// [`Replay::blend`] for three weighted sources (a vertex inserted inside a face).
    pub(crate) fn blend3(policy: Interpolation, v: [&T; 3], w: [f32; 3]) -> Option<T> {
        Some(match policy {
            Interpolation::KeepSrc => *v[0],
            Interpolation::KeepDest => *v[2],
            Interpolation::Lerp => T::lerp3(v, w),
            Interpolation::Nlerp => T::nlerp3(v, w),
            Interpolation::Slerp => T::slerp3(v, w),
            Interpolation::MinValue => T::min_value(&T::min_value(v[0], v[1]), v[2]),
            Interpolation::MaxValue => T::max_value(&T::max_value(v[0], v[1]), v[2]),
            Interpolation::MinWeight => *v[lightest_index(w)],
            Interpolation::MaxWeight => *v[heaviest_index(w)],
            Interpolation::DontCare
            | Interpolation::Reset
            | Interpolation::ResetLayer
            | Interpolation::DropLayer => return None,
        })
    }

    fn split(&mut self, r: &SplitRecord) {
        let policy = self.layer.info.interpolation_policy();
        if policy == Interpolation::ResetLayer {
            self.reset_all();
            return;
        }
        let carry = policy.produces_value();
        match K::KIND {
            ElementKind::Vertex => {
                if !r.vertex.is_valid() {
                    return;
                }
                let (a, b) = (self.read(r.origin.index()), self.read(r.dest.index()));
                match Self::blend(policy, &a, &b, r.t) {
                    Some(v) if r.origin.is_valid() && r.dest.is_valid() => {
                        self.write(r.vertex.index(), v)
                    }
                    _ => self.reset(r.vertex.index()),
                }
            }
            ElementKind::Face => {
                for (new, from) in r.faces {
                    self.new_face(policy, new, from);
                }
            }
            _ => {
                self.new_edge(policy, carry, r.new_edge, r.edge);
                for e in r.cross_edges {
                    self.reset_slots(Self::edge_slots(e));
                }
            }
        }
    }

    /// A vertex inserted inside a face: its value from the three corners by their weights;
    /// the two faces cut from the split face follow it like faces cut by an edge split; the
    /// spokes (no ancestor) start from the initial value.
    fn split_face(&mut self, r: &FaceSplitRecord) {
        let policy = self.layer.info.interpolation_policy();
        if policy == Interpolation::ResetLayer {
            self.reset_all();
            return;
        }
        match K::KIND {
            ElementKind::Vertex => {
                if !r.vertex.is_valid() {
                    return;
                }
                let [a, b, c] = r.corners.map(|v| self.read(v.index()));
                match Self::blend3(policy, [&a, &b, &c], r.weights) {
                    Some(v) if r.corners.iter().all(|c| c.is_valid()) => {
                        self.write(r.vertex.index(), v)
                    }
                    _ => self.reset(r.vertex.index()),
                }
            }
            ElementKind::Face => {
                for new in &r.faces[1..] {
                    self.new_face(policy, *new, r.face);
                }
            }
            _ => {
                for e in r.spokes {
                    self.reset_slots(Self::edge_slots(e));
                }
            }
        }
    }

    /// A vertex of degree 3 dissolved: it, two faces and three spokes are deleted, and the
    /// merged face is rewired (all by the on-change policy).
    fn dissolve(&mut self, r: &DissolveRecord) {
        self.on_change(Self::vertex_slot(r.vertex));
        for f in r.removed_faces.into_iter().chain([r.face]) {
            self.on_change(Self::face_slot(f));
        }
        for e in r.removed_edges {
            self.on_change(Self::edge_slots(e));
        }
    }

    /// Face `new` was cut from face `from` (which keeps its id).
    fn new_face(&mut self, policy: Interpolation, new: Face, from: Face) {
        if !new.is_valid() {
            return;
        }
        if policy.produces_value() && from.is_valid() {
            let v = self.read(from.index());
            self.write(new.index(), v);
        } else {
            self.reset(new.index());
            if policy == Interpolation::Reset && from.is_valid() {
                self.reset(from.index());
            }
        }
    }

    /// Edge `new` descends from edge `from` (same orientation).
    fn new_edge(&mut self, policy: Interpolation, carry: bool, new: Edge, from: Edge) {
        if carry {
            let (pairs, n) = Self::descent(new, from);
            for &(new, from) in &pairs[..n] {
                let v = self.read(from);
                self.write(new, v);
            }
        } else {
            self.reset_slots(Self::edge_slots(new));
            if policy == Interpolation::Reset {
                self.reset_slots(Self::edge_slots(from));
            }
        }
    }

    fn collapse(&mut self, r: &CollapseRecord) {
        match K::KIND {
            ElementKind::Vertex => {
                let policy = self.layer.info.interpolation_policy();
                if r.survivor.is_valid() {
                    match policy {
                        Interpolation::ResetLayer => self.reset_all(),
                        Interpolation::Reset => self.reset(r.survivor.index()),
                        Interpolation::DontCare | Interpolation::DropLayer => {}
                        _ => {
                            let a = self.read(r.origin.index());
                            let b = self.read(r.dest.index());
                            if let Some(v) = Self::blend(policy, &a, &b, r.t) {
                                self.write(r.survivor.index(), v);
                            }
                        }
                    }
                }
                self.on_change(Self::vertex_slot(r.removed));
            }
            ElementKind::Face => {
                for f in r.removed_faces {
                    self.on_change(Self::face_slot(f));
                }
            }
            _ => {
                for e in r.removed_edges {
                    self.on_change(Self::edge_slots(e));
                }
            }
        }
    }

    fn compact(&mut self, remap: &Remap) {
        let map = remap_for::<K>(remap);
        let per = K::KIND.per_quad();
        let new_len = per * map.iter().filter(|&&n| n != Remap::DEAD).count();
        let mut out = vec![self.initial(); new_len];
        for (i, v) in self.layer.iter().enumerate() {
            if let Some(&n) = map.get(i / per)
                && n != Remap::DEAD
            {
                let j = (n as usize).saturating_mul(per).saturating_add(i % per);
                if let Some(slot) = out.get_mut(j) {
                    *slot = *v;
                }
            }
        }
        self.layer.data = Dense::from_vec(out);
        self.all_initial = false;
        self.changed = true;
    }
}
