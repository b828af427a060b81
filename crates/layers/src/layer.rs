//! [`Layer`]: one typed value per mesh element, following the mesh through its journal.

use crate::error::LayerError;
use crate::info::LayerInfo;
use crate::kind::{ElementKind, Kind, Sizes};
use crate::storage::{ChunkSlices, Chunked, Values};
use crate::value::LayerValue;
use core::fmt;
use core::ops::{Index, IndexMut};

/// One value of type `T` per element of kind `K`.
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
    pub(crate) info: LayerInfo<T, K>,
    pub(crate) data: Chunked<T>,
    pub(crate) writes: u64,
}

impl<T: LayerValue, K: Kind> Clone for Layer<T, K> {
    /// Shares every chunk with `self` (O(len / CHUNK)).
    fn clone(&self) -> Self {
        Self {
            info: self.info.clone(),
            data: self.data.clone(),
            writes: self.writes,
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

/// Same description and same values (write counts are not compared). Values compare with
/// `==` (so a `NaN` differs from itself); [`Layer::bits_eq`] compares bit for bit.
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
            writes: 0,
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
            writes: 0,
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

    /// How many mutable accesses (and journal replays that changed something) this layer has
    /// seen. A count, not a stamp: owners compare it before and after lending the layer out to
    /// learn whether it may have been written (the world's
    /// [`layer_version`](../world/struct.World.html#method.layer_version) is built on it).
    pub fn write_count(&self) -> u64 {
        self.writes
    }

    /// Same description and same values bit for bit ([`LayerValue::bits_eq`]): a `NaN`
    /// equals itself, `0.0` differs from `-0.0`. What "same saved contents" means.
    pub fn bits_eq(&self, o: &Self) -> bool {
        self.info.bits_eq(&o.info)
            && self.len() == o.len()
            && self
                .chunks()
                .zip(o.chunks())
                .all(|(a, b)| a.iter().zip(b).all(|(x, y)| x.bits_eq(y)))
    }

    /// The value of `id`, `None` past the end.
    #[inline]
    pub fn get(&self, id: K::Id) -> Option<&T> {
        self.data.get(K::index(id))
    }

    /// The value of `id` for writing (copies its chunk if shared), `None` past the end.
    #[inline]
    pub fn get_mut(&mut self, id: K::Id) -> Option<&mut T> {
        self.writes += 1;
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
        self.writes += 1;
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
        self.writes += 1;
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
        self.writes += 1;
        self.data.fill(value);
    }

    /// Sets every value to the initial value.
    pub fn reset(&mut self) {
        self.fill(*self.info.initial_value());
    }

    /// Grows (with the initial value) or shrinks to `len`.
    pub fn resize(&mut self, len: usize) {
        if len != self.len() {
            self.writes += 1;
            self.data.resize(len, *self.info.initial_value());
        }
    }

    /// Number of chunks `self` and `other` share (for tests and memory accounting).
    pub fn shared_chunks(&self, other: &Self) -> usize {
        self.data.shared_chunks(&other.data)
    }

    /// Heap bytes `self` holds that `other` does not share: what keeping `self` as an undo
    /// snapshot of `other` costs (a write after a clone costs one chunk).
    pub fn unshared_bytes(&self, other: &Self) -> usize {
        self.data.unshared_bytes(&other.data)
    }

    /// Heap bytes held (shared chunks counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.data.heap_bytes() + self.info.name().len()
    }

    /// Checks every value against the range; reports the first offender (in id order).
    /// Values are never clamped: a bad value is a bug upstream.
    ///
    /// # Errors
    ///
    /// [`LayerError::BadRange`] when the range itself is empty (`min > max` or a bound that is
    /// not comparable, such as `NaN`); [`LayerError::OutOfRange`] for the first value outside
    /// `min ..= max`.
    pub fn validate(&self) -> Result<(), LayerError> {
        let (min, max) = (self.info.min_value(), self.info.max_value());
        if min.is_none() && max.is_none() {
            return Ok(());
        }
        let unordered = |m: &T| !m.in_range(m, m);
        if min.is_some_and(unordered)
            || max.is_some_and(unordered)
            || min.zip(max).is_some_and(|(lo, hi)| !lo.in_range(lo, hi))
        {
            return Err(LayerError::BadRange {
                layer: self.name().to_owned(),
                min: min.map(|m| format!("{m:?}")),
                max: max.map(|m| format!("{m:?}")),
            });
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
        self.writes += 1;
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
