//! [`Layer`]: one typed value per mesh element, following the mesh through its journal.

use crate::any::ApplyOutcome;
use crate::error::LayerError;
use crate::info::{Interpolation, LayerInfo, OnChange};
use crate::kind::{ElementKind, Kind, Sizes};
use crate::storage::{ChunkSlices, Chunked, Values};
use crate::value::LayerValue;
use core::fmt;
use core::ops::{Index, IndexMut};
use quadedge::{Change, CollapseRecord, Edge, Remap, SplitRecord};

/// One value of type `T` per element of kind `K` (seed: `Layer<T, Layer_type>`).
///
/// * Indexed by the kind's id type: `positions[vertex]`, `distance[edge]`. An id of the wrong
///   kind does not compile; an id past the end panics like slice indexing (use
///   [`Layer::get`] for an `Option`).
/// * Stored in chunks of [`CHUNK`](crate::CHUNK) values behind `Arc`s: `clone` is cheap and a
///   write after a clone copies one chunk, which is what the world's copy-on-write undo needs.
/// * Its length is the mesh's slot count for `K` (dead slots included), kept so by
///   [`Layer::apply_changes`], which replays the mesh's change journal according to the
///   policies in [`LayerInfo`].
///
/// ```
/// use layers::{Layer, LayerInfo, VertexKind};
/// use quadedge::Vertex;
/// const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height").initial(1.0);
/// let mut h = Layer::new(HEIGHT, 4);
/// h[Vertex::new(2)] = 5.0;
/// let snapshot = h.clone(); // shares every chunk
/// h[Vertex::new(3)] = 7.0; // copies one chunk
/// assert_eq!(snapshot.iter().sum::<f32>(), 8.0);
/// assert_eq!(h.iter().sum::<f32>(), 14.0);
/// assert_eq!(h.entries().nth(2), Some((Vertex::new(2), &5.0)));
/// ```
///
/// An id of another kind is a type error:
///
/// ```compile_fail
/// use layers::{Layer, LayerInfo, VertexKind};
/// let h = Layer::new(LayerInfo::<f32, VertexKind>::new("height"), 4);
/// let _ = h[quadedge::Face::new(0)];
/// ```
pub struct Layer<T, K> {
    info: LayerInfo<T, K>,
    data: Chunked<T>,
    version: u64,
}

impl<T: LayerValue, K: Kind> Clone for Layer<T, K> {
    /// Shares every chunk with `self` (O(len / CHUNK)).
    fn clone(&self) -> Self {
        Self {
            info: self.info.clone(),
            data: self.data.clone(),
            version: self.version,
        }
    }
}

impl<T: LayerValue, K: Kind> fmt::Debug for Layer<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layer")
            .field("name", &self.info.name())
            .field("kind", &K::KIND)
            .field("len", &self.len())
            .field("values", &DebugValues(self))
            .finish()
    }
}

struct DebugValues<'a, T, K>(&'a Layer<T, K>);

impl<T: LayerValue, K: Kind> fmt::Debug for DebugValues<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 16;
        let mut l = f.debug_list();
        l.entries(self.0.iter().take(SHOWN));
        if self.0.len() > SHOWN {
            l.entry(&format_args!("… {} more", self.0.len() - SHOWN));
        }
        l.finish()
    }
}

/// Same description and same values (versions are not compared).
impl<T: LayerValue, K: Kind> PartialEq for Layer<T, K> {
    fn eq(&self, o: &Self) -> bool {
        self.info == o.info && self.len() == o.len() && self.iter().eq(o.iter())
    }
}

impl<T: LayerValue, K: Kind> Layer<T, K> {
    /// A layer of `len` initial values.
    pub fn new(info: LayerInfo<T, K>, len: usize) -> Self {
        let data = Chunked::filled(len, *info.initial_value());
        Self {
            info,
            data,
            version: 0,
        }
    }

    /// A layer sized for a mesh with these slot counts ([`Sizes::of`]).
    pub fn with_sizes(info: LayerInfo<T, K>, sizes: Sizes) -> Self {
        Self::new(info, K::KIND.slots(sizes))
    }

    /// A layer holding `values` (index `i` is element `K::id(i)`).
    pub fn from_values(info: LayerInfo<T, K>, values: Vec<T>) -> Self {
        Self {
            info,
            data: Chunked::from_vec(values),
            version: 0,
        }
    }

    /// The layer's description.
    pub fn info(&self) -> &LayerInfo<T, K> {
        &self.info
    }

    /// The layer's name.
    pub fn name(&self) -> &str {
        self.info.name()
    }

    /// The element kind.
    pub const fn kind(&self) -> ElementKind {
        K::KIND
    }

    /// Number of values (the mesh's slot count for `K`).
    #[inline]
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// No values at all?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.len() == 0
    }

    /// Counts writes: bumped by every mutable access and by journal replays that changed
    /// something. Lets owners (renderer caches, autosave) notice modifications.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The value of `id`, `None` past the end.
    #[inline]
    pub fn get(&self, id: K::Id) -> Option<&T> {
        self.data.get(K::index(id))
    }

    /// The value of `id` for writing (copies its chunk if shared), `None` past the end.
    #[inline]
    pub fn get_mut(&mut self, id: K::Id) -> Option<&mut T> {
        self.version += 1;
        self.data.get_mut(K::index(id))
    }

    /// All values in id order. Allocates nothing; `sum`/`fold`/`for_each` run per chunk slice.
    #[inline]
    pub fn iter(&self) -> Values<'_, T> {
        Values::new(self.data.chunk_slices())
    }

    /// `(id, value)` for every slot in id order (dead slots included: the layer does not know
    /// which are alive; filter with the mesh).
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (K::Id, &T)> + '_ {
        self.iter().enumerate().map(|(i, v)| (K::id(i), v))
    }

    /// All values for writing (every chunk is made unique first).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.version += 1;
        self.data.chunk_slices_mut().flat_map(|c| c.iter_mut())
    }

    /// `(id, value)` for writing.
    pub fn entries_mut(&mut self) -> impl Iterator<Item = (K::Id, &mut T)> + '_ {
        self.iter_mut().enumerate().map(|(i, v)| (K::id(i), v))
    }

    /// The values as slices of at most [`CHUNK`](crate::CHUNK) elements, in order: the fastest
    /// way to run a kernel over a layer.
    pub fn chunks(&self) -> ChunkSlices<'_, T> {
        self.data.chunk_slices()
    }

    /// Mutable chunk slices (each chunk made unique first).
    pub fn chunks_mut(&mut self) -> impl Iterator<Item = &mut [T]> + '_ {
        self.version += 1;
        self.data.chunk_slices_mut()
    }

    /// Copies the values out.
    pub fn to_vec(&self) -> Vec<T> {
        let mut v = Vec::with_capacity(self.len());
        for c in self.chunks() {
            v.extend_from_slice(c);
        }
        v
    }

    /// Sets every value to `value`.
    pub fn fill(&mut self, value: T) {
        self.version += 1;
        self.data.fill(value);
    }

    /// Sets every value to the initial value.
    pub fn reset(&mut self) {
        self.fill(*self.info.initial_value());
    }

    /// Grows (with the initial value) or shrinks to `len`.
    pub fn resize(&mut self, len: usize) {
        if len != self.len() {
            self.version += 1;
            self.data.resize(len, *self.info.initial_value());
        }
    }

    /// Number of chunks `self` and `other` share (for tests and memory accounting).
    pub fn shared_chunks(&self, other: &Self) -> usize {
        self.data.shared_chunks(&other.data)
    }

    /// Heap bytes held (shared chunks counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.data.heap_bytes() + self.info.name().len()
    }

    /// Checks every value against the range; reports the first offender (in id order).
    /// Values are never clamped: a bad value is a bug upstream.
    pub fn validate(&self) -> Result<(), LayerError> {
        let (min, max) = (self.info.min_value(), self.info.max_value());
        if min.is_none() && max.is_none() {
            return Ok(());
        }
        match self.iter().position(|v| !self.info.accepts(v)) {
            None => Ok(()),
            Some(i) => Err(LayerError::OutOfRange {
                layer: self.name().to_owned(),
                element: K::KIND.element(i),
                value: format!("{:?}", self.data.get(i).expect("in bounds")),
                min: min.map(|m| format!("{m:?}")),
                max: max.map(|m| format!("{m:?}")),
            }),
        }
    }

    /// Replays mesh changes (in order) according to the layer's policies, then sets the length
    /// to `K::KIND.slots(sizes)` (the mesh's slot counts after the changes).
    ///
    /// Returns [`ApplyOutcome::Remove`] as soon as a `RemoveLayer` policy triggers (the layer
    /// is then left half-updated and should be dropped). Ids past the end grow the layer with
    /// the initial value; reads past the end see the initial value; `INVALID` ids are skipped,
    /// so a malformed journal never panics.
    pub fn apply_changes(&mut self, changes: &[Change], sizes: Sizes) -> ApplyOutcome {
        let target = K::KIND.slots(sizes);
        let mut run = Replay {
            layer: self,
            all_initial: false,
            changed: false,
        };
        // Grow once up front so the per-event writes never resize. Slots that the journal
        // creates later start from the initial value either way, so this changes no result.
        if run.layer.len() < target {
            let init = *run.layer.info.initial_value();
            run.layer.data.resize(target, init);
            run.changed = true;
        }
        for c in changes {
            if run.change(c).is_err() {
                return ApplyOutcome::Remove;
            }
        }
        if run.layer.len() != target {
            let init = *run.layer.info.initial_value();
            run.layer.data.resize(target, init);
            run.changed = true;
        }
        if run.changed {
            self.version += 1;
            ApplyOutcome::Changed
        } else {
            ApplyOutcome::Unchanged
        }
    }
}

/// `Err` means "remove the layer".
type Step = Result<(), RemoveLayer>;
struct RemoveLayer;

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
struct Replay<'a, T, K> {
    layer: &'a mut Layer<T, K>,
    /// Every value is the initial one (after a `ResetAll`), so another `ResetAll` is free.
    all_initial: bool,
    changed: bool,
}

impl<T: LayerValue, K: Kind> Replay<'_, T, K> {
    fn initial(&self) -> T {
        *self.layer.info.initial_value()
    }

    fn read(&self, i: usize) -> T {
        self.layer
            .data
            .get(i)
            .copied()
            .unwrap_or_else(|| self.initial())
    }

    fn write(&mut self, i: usize, v: T) {
        let data = &mut self.layer.data;
        if i >= data.len() {
            let init = *self.layer.info.initial_value();
            data.resize(i + 1, init);
        }
        *data.get_mut(i).expect("just grown") = v;
        self.all_initial = false;
        self.changed = true;
    }

    fn reset(&mut self, i: usize) {
        let init = self.initial();
        let data = &mut self.layer.data;
        if i >= data.len() {
            data.resize(i + 1, init);
        } else {
            *data.get_mut(i).expect("in bounds") = init;
        }
        self.changed = true;
    }

    fn reset_all(&mut self) {
        if !self.all_initial {
            let init = self.initial();
            self.layer.data.fill(init);
            self.all_initial = true;
            self.changed = true;
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

    fn on_change(&mut self, slots: Slots) -> Step {
        if slots.n == 0 {
            return Ok(());
        }
        match self.layer.info.on_change_policy() {
            OnChange::Keep => {}
            OnChange::ResetAffected => {
                for &i in slots.as_slice() {
                    self.reset(i);
                }
            }
            OnChange::ResetAll => self.reset_all(),
            OnChange::RemoveLayer => return Err(RemoveLayer),
        }
        Ok(())
    }

    fn change(&mut self, c: &Change) -> Step {
        match (c, K::KIND) {
            (Change::VerticesAdded { first, count }, ElementKind::Vertex) if first.is_valid() => {
                let (a, n) = (first.index(), *count as usize);
                for i in a..(a + n).min(self.layer.len()) {
                    self.reset(i);
                }
                if a + n > self.layer.len() {
                    let init = self.initial();
                    self.layer.data.resize(a + n, init);
                    self.changed = true;
                }
            }
            (Change::FaceAdded(f), ElementKind::Face) if f.is_valid() => self.reset(f.index()),
            (Change::EdgeAdded(e), _) => {
                for &i in Self::edge_slots(*e).as_slice() {
                    self.reset(i);
                }
            }
            (Change::VertexRemoved(v), ElementKind::Vertex) if v.is_valid() => {
                self.on_change(Slots::one(v.index()))?
            }
            (Change::FaceRemoved(f), ElementKind::Face) if f.is_valid() => {
                self.on_change(Slots::one(f.index()))?
            }
            (Change::EdgeRemoved(e), _) => self.on_change(Self::edge_slots(*e))?,
            (Change::Flip(r), ElementKind::Face) => {
                for f in r.faces {
                    if f.is_valid() {
                        self.on_change(Slots::one(f.index()))?;
                    }
                }
            }
            (Change::Flip(r), _) => self.on_change(Self::edge_slots(r.edge))?,
            (Change::Split(r), _) => self.split(r)?,
            (Change::Collapse(r), _) => self.collapse(r)?,
            (Change::Compact(remap), _) => self.compact(remap),
            _ => {}
        }
        Ok(())
    }

    /// The blended value for the value-producing policies, `None` for the others.
    fn blend(policy: Interpolation, a: &T, b: &T, t: f32) -> Option<T> {
        Some(match policy {
            Interpolation::KeepSrc => *a,
            Interpolation::KeepDest => *b,
            Interpolation::Lerp => T::lerp(a, b, t),
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
            | Interpolation::ResetAffected
            | Interpolation::ResetAll
            | Interpolation::RemoveLayer => return None,
        })
    }

    fn split(&mut self, r: &SplitRecord) -> Step {
        let policy = self.layer.info.interpolation_policy();
        match policy {
            Interpolation::RemoveLayer => return Err(RemoveLayer),
            Interpolation::ResetAll => {
                self.reset_all();
                return Ok(());
            }
            _ => {}
        }
        let carry = policy.produces_value();
        match K::KIND {
            ElementKind::Vertex => {
                if !r.vertex.is_valid() {
                    return Ok(());
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
                    if !new.is_valid() {
                        continue;
                    }
                    if carry && from.is_valid() {
                        let v = self.read(from.index());
                        self.write(new.index(), v);
                    } else {
                        self.reset(new.index());
                        if policy == Interpolation::ResetAffected && from.is_valid() {
                            self.reset(from.index());
                        }
                    }
                }
            }
            _ => {
                if carry {
                    let (pairs, n) = Self::descent(r.new_edge, r.edge);
                    for &(new, from) in &pairs[..n] {
                        let v = self.read(from);
                        self.write(new, v);
                    }
                } else {
                    for &i in Self::edge_slots(r.new_edge).as_slice() {
                        self.reset(i);
                    }
                    if policy == Interpolation::ResetAffected {
                        for &i in Self::edge_slots(r.edge).as_slice() {
                            self.reset(i);
                        }
                    }
                }
                for e in r.cross_edges {
                    for &i in Self::edge_slots(e).as_slice() {
                        self.reset(i);
                    }
                }
            }
        }
        Ok(())
    }

    fn collapse(&mut self, r: &CollapseRecord) -> Step {
        match K::KIND {
            ElementKind::Vertex => {
                let policy = self.layer.info.interpolation_policy();
                if r.survivor.is_valid() {
                    match policy {
                        Interpolation::RemoveLayer => return Err(RemoveLayer),
                        Interpolation::ResetAll => self.reset_all(),
                        Interpolation::ResetAffected => self.reset(r.survivor.index()),
                        Interpolation::DontCare => {}
                        _ => {
                            let a = self.read(r.origin.index());
                            let b = self.read(r.dest.index());
                            if let Some(v) = Self::blend(policy, &a, &b, r.t) {
                                self.write(r.survivor.index(), v);
                            }
                        }
                    }
                }
                if r.removed.is_valid() {
                    self.on_change(Slots::one(r.removed.index()))?;
                }
            }
            ElementKind::Face => {
                for f in r.removed_faces {
                    if f.is_valid() {
                        self.on_change(Slots::one(f.index()))?;
                    }
                }
            }
            _ => {
                for e in r.removed_edges {
                    self.on_change(Self::edge_slots(e))?;
                }
            }
        }
        Ok(())
    }

    fn compact(&mut self, remap: &Remap) {
        let map: &[u32] = match K::KIND {
            ElementKind::Vertex => &remap.vertices,
            ElementKind::Face => &remap.faces,
            _ => &remap.quads,
        };
        let per = if K::KIND.is_directed() { 2 } else { 1 };
        let new_len = per * map.iter().filter(|&&n| n != Remap::DEAD).count();
        let mut out = vec![self.initial(); new_len];
        for (i, v) in self.layer.iter().enumerate() {
            if let Some(&n) = map.get(i / per)
                && n != Remap::DEAD
            {
                let j = n as usize * per + i % per;
                if let Some(slot) = out.get_mut(j) {
                    *slot = *v;
                }
            }
        }
        self.layer.data = Chunked::from_vec(out);
        self.all_initial = false;
        self.changed = true;
    }
}

impl<T: LayerValue, K: Kind> Index<K::Id> for Layer<T, K> {
    type Output = T;

    #[inline]
    fn index(&self, id: K::Id) -> &T {
        match self.data.get(K::index(id)) {
            Some(v) => v,
            None => out_of_bounds(self.name(), &id, self.len()),
        }
    }
}

impl<T: LayerValue, K: Kind> IndexMut<K::Id> for Layer<T, K> {
    #[inline]
    fn index_mut(&mut self, id: K::Id) -> &mut T {
        let len = self.len();
        self.version += 1;
        match self.data.get_mut(K::index(id)) {
            Some(v) => v,
            None => out_of_bounds(self.info.name(), &id, len),
        }
    }
}

#[cold]
#[inline(never)]
fn out_of_bounds(name: &str, id: &dyn fmt::Debug, len: usize) -> ! {
    panic!("layer `{name}`: {id:?} is past the end (len {len})")
}

impl<'a, T: LayerValue, K: Kind> IntoIterator for &'a Layer<T, K> {
    type Item = &'a T;
    type IntoIter = Values<'a, T>;
    fn into_iter(self) -> Values<'a, T> {
        self.iter()
    }
}

// ------------------------------------------------------------------------------------ serde

mod serde_impl {
    use super::*;
    use serde::de::{self, DeserializeOwned, SeqAccess, Visitor};
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    struct Seq<'a, T>(&'a Chunked<T>);

    impl<T: LayerValue> Serialize for Seq<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(Values::new(self.0.chunk_slices()))
        }
    }

    struct SeqOwned<T>(Chunked<T>);

    impl<'de, T: LayerValue + DeserializeOwned> Deserialize<'de> for SeqOwned<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V<T>(core::marker::PhantomData<T>);
            impl<'de, T: LayerValue> Visitor<'de> for V<T> {
                type Value = Chunked<T>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a sequence of layer values")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Chunked<T>, A::Error> {
                    let mut c = Chunked::new();
                    while let Some(v) = seq.next_element::<T>()? {
                        c.push(v);
                    }
                    Ok(c)
                }
            }
            d.deserialize_seq(V(core::marker::PhantomData))
                .map(SeqOwned)
        }
    }

    /// Serialized as `{ kind, type_name, info, values }`; `kind` and `type_name` are checked on
    /// the way back so data never lands in a layer of another type.
    impl<T: LayerValue, K: Kind> Serialize for Layer<T, K> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Layer", 4)?;
            st.serialize_field("kind", &K::KIND)?;
            st.serialize_field("type_name", T::type_name())?;
            st.serialize_field("info", &self.info)?;
            st.serialize_field("values", &Seq(&self.data))?;
            st.end()
        }
    }

    #[derive(Deserialize)]
    #[serde(bound(deserialize = "T: LayerValue"), rename = "Layer")]
    struct Owned<T, K> {
        kind: ElementKind,
        type_name: String,
        info: LayerInfo<T, K>,
        values: SeqOwned<T>,
    }

    impl<'de, T: LayerValue, K: Kind> Deserialize<'de> for Layer<T, K> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let o = Owned::<T, K>::deserialize(d)?;
            if o.kind != K::KIND {
                return Err(de::Error::custom(format_args!(
                    "layer `{}` is a {} layer, expected {}",
                    o.info.name(),
                    o.kind,
                    K::KIND
                )));
            }
            if o.type_name != T::type_name() {
                return Err(de::Error::custom(format_args!(
                    "layer `{}` holds `{}`, expected `{}`",
                    o.info.name(),
                    o.type_name,
                    T::type_name()
                )));
            }
            Ok(Layer {
                info: o.info,
                data: o.values.0,
                version: 0,
            })
        }
    }
}
