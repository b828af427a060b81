//! Chunked copy-on-write storage.
//!
//! Values live in fixed-size chunks of [`CHUNK`] elements, each behind its own [`Arc`]. Cloning
//! a layer clones the chunk table (one pointer per 4096 values) and bumps reference counts; a
//! later write copies only the chunk it touches (`Arc::make_mut`). Indexing is a shift and a
//! mask, so random reads cost one extra (almost always cached) load compared to a `Vec`, and
//! sequential iteration runs over plain chunk slices.
//!
//! Every chunk but the last holds exactly [`CHUNK`] values. The last one grows by doubling up
//! to [`CHUNK`] so small layers stay small and one-at-a-time growth is amortised O(1); its
//! slots past `len` hold a filler value and are never exposed.

use std::sync::Arc;

/// log2 of [`CHUNK`].
pub const CHUNK_SHIFT: u32 = 12;
/// Values per chunk: 4096, so a chunk of 16-byte values is 64 KiB.
pub const CHUNK: usize = 1 << CHUNK_SHIFT;
const MASK: usize = CHUNK - 1;
/// Smallest capacity of a partial last chunk.
const MIN_TAIL: usize = 16;

#[derive(Clone)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Arc<[T]>>,
    len: usize,
}

impl<T: Copy> Chunked<T> {
    pub(crate) const fn new() -> Self {
        Self {
            chunks: Vec::new(),
            len: 0,
        }
    }

    pub(crate) fn filled(len: usize, value: T) -> Self {
        let mut s = Self::new();
        s.resize(len, value);
        s
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        if i < self.len {
            debug_assert!(
                self.chunks
                    .get(i >> CHUNK_SHIFT)
                    .is_some_and(|c| (i & MASK) < c.len())
            );
            // SAFETY: the type's invariant (see `invariant_holds`, kept by every method
            // that changes `chunks` or `len`): `chunks.len() == len.div_ceil(CHUNK)`, every
            // chunk but the last holds `CHUNK` values and the last at least
            // `len - (chunks.len() - 1) * CHUNK`. So `i < len` puts `i >> CHUNK_SHIFT` below
            // `chunks.len()` and `i & MASK` below that chunk's length.
            // Measured: the two redundant bounds checks made 1M random reads 1.46x a `Vec`'s
            // time; without them 1.22x (benches/benches/layers.rs, random_read).
            #[allow(unsafe_code)]
            unsafe {
                Some(
                    self.chunks
                        .get_unchecked(i >> CHUNK_SHIFT)
                        .get_unchecked(i & MASK),
                )
            }
        } else {
            None
        }
    }

    /// The layout invariant `get` relies on.
    #[cfg(test)]
    fn invariant_holds(&self) -> bool {
        let n = self.chunks.len();
        n == self.len.div_ceil(CHUNK)
            && self.chunks[..n.saturating_sub(1)]
                .iter()
                .all(|c| c.len() == CHUNK)
            && self
                .chunks
                .last()
                .is_none_or(|c| c.len() >= self.len - (n - 1) * CHUNK && c.len() <= CHUNK)
    }

    /// Mutable access; copies the chunk first if another clone shares it.
    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i < self.len {
            Some(&mut Arc::make_mut(&mut self.chunks[i >> CHUNK_SHIFT])[i & MASK])
        } else {
            None
        }
    }

    /// Capacity of the current last chunk (0 when there is none).
    fn tail_capacity(&self) -> usize {
        self.chunks.last().map_or(0, |c| c.len())
    }

    /// Grows or shrinks to `len`; new values are `fill`.
    pub(crate) fn resize(&mut self, len: usize, fill: T) {
        if len <= self.len {
            self.truncate(len);
            return;
        }
        // Fill the spare slots of the last chunk first (they hold stale filler).
        let used_in_tail = self.len - (self.chunks.len().saturating_sub(1) << CHUNK_SHIFT);
        if !self.chunks.is_empty() && used_in_tail < self.tail_capacity() {
            let cap = self.tail_capacity();
            let end = cap.min(used_in_tail + (len - self.len));
            let tail = Arc::make_mut(self.chunks.last_mut().expect("non-empty"));
            tail[used_in_tail..end].fill(fill);
            self.len += end - used_in_tail;
        }
        while self.len < len {
            let base = self.chunks.len().saturating_sub(1) << CHUNK_SHIFT;
            let used = self.len - base;
            if !self.chunks.is_empty() && used < CHUNK {
                // The partial last chunk is full: reallocate it bigger (doubling).
                let need = used + (len - self.len);
                let cap = need.max(2 * used).next_power_of_two().min(CHUNK);
                let old = self.chunks.pop().expect("non-empty");
                let grown: Arc<[T]> = old[..used]
                    .iter()
                    .copied()
                    .chain(std::iter::repeat_n(fill, cap - used))
                    .collect();
                self.chunks.push(grown);
                self.len = base + cap.min(need);
            } else {
                let need = len - self.len;
                let cap = if need >= CHUNK {
                    CHUNK
                } else {
                    need.next_power_of_two().max(MIN_TAIL)
                };
                self.chunks
                    .push(std::iter::repeat_n(fill, cap).collect::<Arc<[T]>>());
                self.len += need.min(CHUNK);
            }
        }
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let chunks = len.div_ceil(CHUNK);
        self.chunks.truncate(chunks);
        self.len = len;
    }

    #[inline]
    pub(crate) fn push(&mut self, value: T) {
        let i = self.len;
        if i < self.chunks.len() << CHUNK_SHIFT && (i & MASK) < self.tail_capacity() {
            self.len += 1;
            Arc::make_mut(self.chunks.last_mut().expect("non-empty"))[i & MASK] = value;
        } else {
            self.resize(i + 1, value);
        }
    }

    pub(crate) fn fill(&mut self, value: T) {
        let len = self.len;
        for chunk in self.chunk_slices_mut() {
            chunk.fill(value);
        }
        debug_assert_eq!(len, self.len);
    }

    /// The valid part of every chunk, in order.
    #[inline]
    pub(crate) fn chunk_slices(&self) -> ChunkSlices<'_, T> {
        ChunkSlices {
            chunks: self.chunks.iter(),
            remaining: self.len,
        }
    }

    /// The valid part of every chunk, mutable (each chunk copied first if shared).
    pub(crate) fn chunk_slices_mut(&mut self) -> impl Iterator<Item = &mut [T]> + '_ {
        let mut remaining = self.len;
        self.chunks.iter_mut().map(move |c| {
            let n = remaining.min(CHUNK);
            remaining -= n;
            &mut Arc::make_mut(c)[..n]
        })
    }

    /// Number of chunks stored in both `self` and `other` (same allocation).
    pub(crate) fn shared_chunks(&self, other: &Self) -> usize {
        self.chunks
            .iter()
            .zip(&other.chunks)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count()
    }

    /// Heap bytes of `self` not shared with `other` (chunks compared by allocation).
    pub(crate) fn unshared_bytes(&self, other: &Self) -> usize {
        let table = self.chunks.capacity() * size_of::<Arc<[T]>>();
        let data: usize = self
            .chunks
            .iter()
            .enumerate()
            .filter(|(i, c)| !other.chunks.get(*i).is_some_and(|o| Arc::ptr_eq(c, o)))
            .map(|(_, c)| c.len() * size_of::<T>() + 2 * size_of::<usize>())
            .sum();
        table + data
    }

    #[cfg(test)]
    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Heap bytes owned, counting shared chunks fully (an upper bound for one clone).
    pub(crate) fn heap_bytes(&self) -> usize {
        let table = self.chunks.capacity() * size_of::<Arc<[T]>>();
        let data: usize = self
            .chunks
            .iter()
            .map(|c| c.len() * size_of::<T>() + 2 * size_of::<usize>())
            .sum();
        table + data
    }

    pub(crate) fn from_vec(values: Vec<T>) -> Self {
        let len = values.len();
        let chunks = values.chunks(CHUNK).map(Arc::from).collect();
        Self { chunks, len }
    }
}

/// Iterator over the valid slice of every chunk.
#[derive(Clone)]
pub struct ChunkSlices<'a, T> {
    chunks: std::slice::Iter<'a, Arc<[T]>>,
    remaining: usize,
}

impl<'a, T> Iterator for ChunkSlices<'a, T> {
    type Item = &'a [T];

    #[inline]
    fn next(&mut self) -> Option<&'a [T]> {
        let c = self.chunks.next()?;
        let n = self.remaining.min(CHUNK);
        self.remaining -= n;
        Some(&c[..n])
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl<T> ExactSizeIterator for ChunkSlices<'_, T> {}

/// Iterator over the values of a layer, chunk by chunk (allocates nothing).
///
/// `fold` (and so `sum`, `for_each`, `max_by`…) runs a tight loop over each chunk slice, which
/// is why sequential passes match a plain slice.
#[derive(Clone)]
pub struct Values<'a, T> {
    front: std::slice::Iter<'a, T>,
    rest: ChunkSlices<'a, T>,
}

impl<'a, T> Values<'a, T> {
    pub(crate) fn new(rest: ChunkSlices<'a, T>) -> Self {
        Self {
            front: [].iter(),
            rest,
        }
    }
}

impl<'a, T> Iterator for Values<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.front.next() {
                return Some(x);
            }
            self.front = self.rest.next()?.iter();
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.front.len() + self.rest.remaining;
        (n, Some(n))
    }

    #[inline]
    fn fold<B, F: FnMut(B, &'a T) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = self.front.fold(init, &mut f);
        for chunk in self.rest {
            acc = chunk.iter().fold(acc, &mut f);
        }
        acc
    }
}

impl<T> ExactSizeIterator for Values<'_, T> {}
impl<T> std::iter::FusedIterator for Values<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(c: &Chunked<u32>) -> Vec<u32> {
        assert!(c.invariant_holds());
        Values::new(c.chunk_slices()).copied().collect()
    }

    #[test]
    fn grows_one_at_a_time_across_chunks() {
        let mut c = Chunked::new();
        for i in 0..(2 * CHUNK as u32 + 5) {
            c.push(i);
            assert_eq!(c.len(), i as usize + 1);
        }
        let v = collect(&c);
        assert_eq!(v, (0..2 * CHUNK as u32 + 5).collect::<Vec<_>>());
        assert_eq!(c.chunk_count(), 3);
        assert_eq!(c.get(CHUNK + 7), Some(&(CHUNK as u32 + 7)));
        assert_eq!(c.get(c.len()), None);
    }

    #[test]
    fn resize_truncate_and_refill_do_not_expose_stale_values() {
        let mut c = Chunked::filled(10, 1u32);
        c.truncate(3);
        c.resize(12, 7);
        assert_eq!(collect(&c), [1, 1, 1, 7, 7, 7, 7, 7, 7, 7, 7, 7]);
        c.resize(CHUNK * 3 + 1, 9);
        assert_eq!(c.len(), CHUNK * 3 + 1);
        assert_eq!(c.chunk_count(), 4);
        assert!(collect(&c)[12..].iter().all(|&x| x == 9));
        c.truncate(CHUNK);
        assert_eq!(c.chunk_count(), 1);
        c.resize(CHUNK + 2, 5);
        assert_eq!(&collect(&c)[CHUNK - 1..], [9, 5, 5]);
    }

    #[test]
    fn write_after_clone_copies_one_chunk() {
        let a = Chunked::filled(10 * CHUNK, 0u8);
        let mut b = a.clone();
        assert_eq!(a.shared_chunks(&b), 10);
        *b.get_mut(3 * CHUNK + 1).unwrap() = 1;
        assert_eq!(a.shared_chunks(&b), 9);
        assert_eq!(a.get(3 * CHUNK + 1), Some(&0));
        assert_eq!(b.get(3 * CHUNK + 1), Some(&1));
    }

    #[test]
    fn from_vec_round_trips() {
        let v: Vec<u32> = (0..(CHUNK as u32 + 3)).collect();
        let c = Chunked::from_vec(v.clone());
        assert_eq!(collect(&c), v);
        let mut c = c;
        c.push(99);
        assert_eq!(c.len(), v.len() + 1);
    }

    proptest::proptest! {
        /// The layout invariant `get` relies on survives any sequence of size changes, and the
        /// contents match a `Vec` doing the same.
        #[test]
        fn matches_a_vec(ops in proptest::collection::vec((0u8..5, 0usize..3 * CHUNK), 1..40)) {
            let mut c = Chunked::new();
            let mut v: Vec<u32> = Vec::new();
            for (k, (op, n)) in ops.into_iter().enumerate() {
                let x = k as u32;
                match op {
                    0 => { c.resize(n, x); v.resize(n, x); }
                    1 => { c.truncate(n); v.truncate(n); }
                    2 => { for _ in 0..n % 100 { c.push(x); v.push(x); } }
                    3 => if n < v.len() { *c.get_mut(n).unwrap() = x + 1000; v[n] = x + 1000; },
                    _ => { let d = c.clone(); c.fill(x); v.fill(x); proptest::prop_assert!(d.invariant_holds()); }
                }
                proptest::prop_assert!(c.invariant_holds());
                proptest::prop_assert_eq!(c.len(), v.len());
                for i in [0, v.len() / 2, v.len().saturating_sub(1), v.len()] {
                    proptest::prop_assert_eq!(c.get(i), v.get(i));
                }
            }
            proptest::prop_assert_eq!(collect(&c), v);
        }
    }
}
