//! [`Layer`]: one typed value per mesh element, following the mesh through its journal.

use crate::error::LayerError;
use crate::info::LayerInfo;
use crate::kind::{ElementKind, Kind, Sizes};
use crate::storage::{CHUNK, ChunkSlices, Delta, Dense, Values};
use crate::value::LayerValue;
use core::fmt;
use core::ops::{Index, IndexMut};

/// One value of type `T` per element of kind `K`.
///
/// * Indexed by the kind's id type: `positions[vertex]`, `distance[edge]`. An id of the wrong
///   kind does not compile; an id past the end panics like slice indexing (use
///   [`Layer::get`] for an `Option`).
/// * Stored contiguously behind an `Arc`: [`Layer::as_slice`] / [`Layer::as_mut_slice`] lend
///   the values as one slice; `clone` is O(1) and the first write after a clone copies the
///   values once. An undo history keeps only what changed ([`Layer::delta_to`]).
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
/// let snapshot = h.clone(); // shares the values
/// h[Vertex::new(3)] = 7.0; // copies them once
/// assert_eq!(h.as_slice(), [1.0, 1.0, 5.0, 7.0]);
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
    pub(crate) data: Dense<T>,
    pub(crate) writes: u64,
}

impl<T: LayerValue, K: Kind> Clone for Layer<T, K> {
    /// Shares the values with `self` (O(1)).
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
    ///
    /// # Panics
    ///
    /// Allocation failure aborts, as for any `Vec`; a length that comes from outside the
    /// program (a file, a user) should go through [`Layer::try_new`].
    pub fn new(info: LayerInfo<T, K>, len: usize) -> Self {
        let data = Dense::filled(len, *info.initial_value());
        Self {
            info,
            data,
            writes: 0,
        }
    }

    /// A layer of `len` initial values, or [`LayerError::OutOfMemory`] (nothing allocated)
    /// when `len` values cannot be allocated.
    ///
    /// ```
    /// use layers::{Layer, LayerError, LayerInfo, VertexKind};
    /// let info: LayerInfo<f64, VertexKind> = LayerInfo::new("height");
    /// assert_eq!(Layer::try_new(info.clone(), 3).unwrap().len(), 3);
    /// assert!(matches!(
    ///     Layer::try_new(info, usize::MAX / 2),
    ///     Err(LayerError::OutOfMemory { .. })
    /// ));
    /// ```
    ///
    /// # Errors
    ///
    /// [`LayerError::OutOfMemory`] when the allocation fails or its size overflows.
    pub fn try_new(info: LayerInfo<T, K>, len: usize) -> Result<Self, LayerError> {
        let Some(data) = Dense::try_filled(len, *info.initial_value()) else {
            return Err(LayerError::OutOfMemory {
                layer: info.name().to_string(),
                len,
            });
        };
        Ok(Self {
            info,
            data,
            writes: 0,
        })
    }

    /// A layer sized for a mesh with these slot counts ([`Sizes::of`]).
    pub fn with_sizes(info: LayerInfo<T, K>, sizes: Sizes) -> Self {
        Self::new(info, K::KIND.slots(sizes))
    }

    /// A layer holding `values` (index `i` is element `K::id(i)`).
    pub fn from_values(info: LayerInfo<T, K>, values: Vec<T>) -> Self {
        Self {
            info,
            data: Dense::from_vec(values),
            writes: 0,
        }
    }

    /// The values' array, taken whole, when no snapshot shares it (`None` when one does:
    /// nothing is copied). For a caller that replaced this layer and reuses its array as the
    /// next replacement's room instead of allocating (and page-faulting) a fresh one.
    pub fn into_unshared_values(self) -> Option<Vec<T>> {
        self.data.into_unshared_vec()
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

    /// Values the storage has room for before it grows (at least [`Layer::len`]): a
    /// replacement array made with this capacity grows no sooner than the one it replaces.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.data.capacity()
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
                .as_slice()
                .iter()
                .zip(o.as_slice())
                .all(|(x, y)| x.bits_eq(y))
    }

    /// The value of `id`, `None` past the end.
    #[inline]
    pub fn get(&self, id: K::Id) -> Option<&T> {
        self.data.get(K::index(id))
    }

    /// The value at a point inside the triangle of elements `ids` with barycentric `weights`,
    /// blended by the layer's interpolation policy exactly as a vertex inserted there gets it
    /// (`None` for policies that produce no value, such as `Reset`, or an id past the end).
    pub fn blend3(&self, ids: [K::Id; 3], weights: [f32; 3]) -> Option<T> {
        let [a, b, c] = ids.map(|id| self.data.get(K::index(id)));
        let v = [a?, b?, c?];
        crate::replay::Replay::<T, K>::blend3(self.info.interpolation_policy(), v, weights)
    }

    /// The value of `id` for writing (copies the values first if shared), `None` past the end.
    #[inline]
    pub fn get_mut(&mut self, id: K::Id) -> Option<&mut T> {
        self.writes += 1;
        self.data.get_mut(K::index(id))
    }

    /// All values in id order, as one slice: what geometry and export functions take.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self.data.as_slice()
    }

    /// All values for writing, as one slice (copied once first if a snapshot shares them).
    /// Counts as a write ([`Layer::write_count`]) whether or not a value changes.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.writes += 1;
        self.data.as_mut_vec()
    }

    /// The values as the `Vec` that holds them, for code that grows or shrinks the array
    /// itself, such as a mesh editor adding vertices (copied once first if a snapshot shares
    /// them). Counts as a write. The layer's length is the `Vec`'s.
    #[inline]
    pub fn values_vec_mut(&mut self) -> &mut Vec<T> {
        self.writes += 1;
        self.data.as_mut_vec()
    }

    /// All values in id order. Allocates nothing.
    #[inline]
    pub fn iter(&self) -> Values<'_, T> {
        self.as_slice().iter()
    }

    /// `(id, value)` for every slot in id order (dead slots included: the layer does not know
    /// which are alive; filter with the mesh).
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (K::Id, &T)> + '_ {
        self.iter().enumerate().map(|(i, v)| (K::id(i), v))
    }

    /// All values for writing (copied once first if shared).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.as_mut_slice().iter_mut()
    }

    /// `(id, value)` for writing.
    pub fn entries_mut(&mut self) -> impl Iterator<Item = (K::Id, &mut T)> + '_ {
        self.iter_mut().enumerate().map(|(i, v)| (K::id(i), v))
    }

    /// The values as slices of at most [`CHUNK`](crate::CHUNK) elements, in order (for
    /// kernels that work block by block).
    pub fn chunks(&self) -> ChunkSlices<'_, T> {
        self.as_slice().chunks(CHUNK)
    }

    /// Mutable slices of at most [`CHUNK`](crate::CHUNK) elements.
    pub fn chunks_mut(&mut self) -> std::slice::ChunksMut<'_, T> {
        self.as_mut_slice().chunks_mut(CHUNK)
    }

    /// Copies the values out.
    pub fn to_vec(&self) -> Vec<T> {
        self.as_slice().to_vec()
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

    /// Do `self` and `other` hold the very same values array (a clone not written since)?
    pub fn shares_values(&self, other: &Self) -> bool {
        self.data.shares(&other.data)
    }

    /// Heap bytes `self` holds that `other` does not share: 0 for a clone not written
    /// since, else the whole array. An undo history keeps less: [`Layer::delta_to`].
    pub fn unshared_bytes(&self, other: &Self) -> usize {
        if self.shares_values(other) {
            0
        } else {
            self.data.heap_bytes()
        }
    }

    /// Heap bytes held (shared values counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.data.heap_bytes() + self.info.name().len()
    }

    /// What turns `newer` (a later version of this layer) back into `self`: the
    /// [`BLOCK_BYTES`](crate::BLOCK_BYTES) blocks of `self` that differ from `newer`, compared
    /// bit for bit. This is what an undo step keeps; see [`LayerDelta::rebuild`].
    ///
    /// ```
    /// use layers::{Layer, LayerInfo, VertexKind};
    /// use quadedge::Vertex;
    /// let old = Layer::new(LayerInfo::<f32, VertexKind>::new("h"), 1 << 20);
    /// let mut new = old.clone();
    /// new[Vertex::new(7)] = 1.0; // copies the 4 MiB array once
    /// let delta = old.delta_to(&new);
    /// assert!(delta.heap_bytes() <= 64 << 10);
    /// assert!(delta.rebuild(&new).bits_eq(&old));
    /// ```
    pub fn delta_to(&self, newer: &Self) -> LayerDelta<T, K> {
        LayerDelta {
            info: self.info.clone(),
            writes: self.writes,
            delta: Delta::between(&self.data, &newer.data),
        }
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

    /// The value of `id`.
    ///
    /// # Panics
    ///
    /// When `id` is past the end, like slice indexing ([`Layer::get`] returns `None`).
    #[inline]
    fn index(&self, id: K::Id) -> &T {
        match self.data.get(K::index(id)) {
            Some(v) => v,
            None => out_of_bounds(self.name(), &id, self.len()),
        }
    }
}

impl<T: LayerValue, K: Kind> IndexMut<K::Id> for Layer<T, K> {
    /// The value of `id` for writing (copies the values first if shared).
    ///
    /// # Panics
    ///
    /// When `id` is past the end ([`Layer::get_mut`] returns `None`).
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

impl<'a, T: LayerValue, K: Kind> IntoIterator for &'a mut Layer<T, K> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> std::slice::IterMut<'a, T> {
        self.iter_mut()
    }
}

/// An old version of a layer kept as the blocks that differ from a newer version
/// ([`Layer::delta_to`]).
#[derive(Clone)]
pub struct LayerDelta<T, K> {
    info: LayerInfo<T, K>,
    writes: u64,
    delta: Delta<T>,
}

impl<T: LayerValue, K: Kind> LayerDelta<T, K> {
    /// The old version's description.
    pub fn info(&self) -> &LayerInfo<T, K> {
        &self.info
    }

    /// The old version, rebuilt from the same `newer` layer the delta was taken against
    /// (one copy of its values plus the kept blocks).
    pub fn rebuild(&self, newer: &Layer<T, K>) -> Layer<T, K> {
        Layer {
            info: self.info.clone(),
            data: self.delta.rebuild(&newer.data, *self.info.initial_value()),
            writes: self.writes,
        }
    }

    /// Heap bytes held (the kept blocks and their table).
    pub fn heap_bytes(&self) -> usize {
        self.delta.heap_bytes() + self.info.name().len()
    }
}

impl<T: LayerValue, K: Kind> fmt::Debug for LayerDelta<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerDelta")
            .field("name", &self.info.name())
            .field("heap_bytes", &self.heap_bytes())
            .finish()
    }
}
