//! Contiguous copy-on-write storage, with block deltas for undo history.
//!
//! Values live in one `Vec` behind an [`Arc`], so a layer lends them as a plain slice
//! (`&[T]` / `&mut [T]`) that geometry and export code can take directly. Cloning a layer
//! (a snapshot) clones the `Arc`; the first write after it copies the array once (a
//! `memcpy`, about 1 ms per 8 MB), later writes go straight to the now unique array.
//!
//! What an undo history keeps is not the whole old array but a [`Delta`]: the fixed-size
//! blocks ([`BLOCK_BYTES`] each) of the old version that differ from the newer one. Writing
//! one value between two snapshots therefore costs one block in history, as the chunked
//! storage this replaces did, while sweeps run over one slice.

use crate::value::LayerValue;
use std::sync::Arc;

/// log2 of [`CHUNK`].
pub const CHUNK_SHIFT: u32 = 12;
/// Values per slice handed out by [`Layer::chunks`](crate::Layer::chunks): 4096, a size that
/// keeps a kernel's working set in cache and splits a layer into parallel tasks.
pub const CHUNK: usize = 1 << CHUNK_SHIFT;
/// Bytes per block of a history `Delta` (at least one value per block): a write of one
/// value between two snapshots keeps this much of the old version.
pub const BLOCK_BYTES: usize = 16 << 10;

/// Values per delta block for `T`.
const fn block_len<T>() -> usize {
    let size = size_of::<T>();
    if size == 0 || size >= BLOCK_BYTES {
        1
    } else {
        BLOCK_BYTES / size
    }
}

/// The slices of at most [`CHUNK`] values that make up a layer, in order.
pub type ChunkSlices<'a, T> = std::slice::Chunks<'a, T>;
/// Iterator over the values of a layer in id order (a slice iterator).
pub type Values<'a, T> = std::slice::Iter<'a, T>;

#[derive(Clone)]
pub(crate) struct Dense<T> {
    values: Arc<Vec<T>>,
}

impl<T: Copy> Dense<T> {
    pub(crate) fn filled(len: usize, value: T) -> Self {
        Self::from_vec(vec![value; len])
    }

    /// Like [`Dense::filled`], but an allocation failure (or a length whose bytes overflow
    /// `isize`) is `None` instead of an abort.
    pub(crate) fn try_filled(len: usize, value: T) -> Option<Self> {
        quadedge::internals::try_filled(len, value)
            .ok()
            .map(Self::from_vec)
    }

    pub(crate) fn from_vec(values: Vec<T>) -> Self {
        Self {
            values: Arc::new(values),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.values.capacity()
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        &self.values
    }

    /// The array itself when no snapshot shares it, else `None` (nothing is copied).
    pub(crate) fn into_unshared_vec(self) -> Option<Vec<T>> {
        Arc::try_unwrap(self.values).ok()
    }

    /// The values for writing; copies them first (once) if a snapshot shares them. The copy
    /// holds exactly `len` values, so no snapshot keeps an over-allocated array.
    #[inline]
    pub(crate) fn as_mut_vec(&mut self) -> &mut Vec<T> {
        Arc::make_mut(&mut self.values)
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        self.values.get(i)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i < self.len() {
            self.as_mut_vec().get_mut(i)
        } else {
            None
        }
    }

    /// Grows or shrinks to `len`; new values are `fill`. A shared array is copied only up to
    /// what is kept.
    pub(crate) fn resize(&mut self, len: usize, fill: T) {
        if len == self.len() {
            return;
        }
        if Arc::get_mut(&mut self.values).is_none() {
            let keep = len.min(self.len());
            let mut v = Vec::with_capacity(len);
            v.extend_from_slice(&self.values[..keep]);
            v.resize(len, fill);
            self.values = Arc::new(v);
        } else {
            self.as_mut_vec().resize(len, fill);
        }
    }

    /// Sets every value; a shared array is replaced rather than copied and overwritten.
    pub(crate) fn fill(&mut self, value: T) {
        match Arc::get_mut(&mut self.values) {
            Some(v) => v.fill(value),
            None => self.values = Arc::new(vec![value; self.values.len()]),
        }
    }

    /// Do `self` and `other` hold the same array (a snapshot not written since)?
    pub(crate) fn shares(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.values, &other.values)
    }

    /// Heap bytes of the array and its `Arc`.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.values.capacity() * size_of::<T>() + size_of::<Vec<T>>() + 2 * size_of::<usize>()
    }
}

/// The blocks of an old version of a layer that differ from a newer version: enough to
/// rebuild the old version from the newer one (see the module docs).
#[derive(Clone)]
pub(crate) struct Delta<T> {
    /// Length of the old version.
    len: usize,
    /// `(first index, old values)` of every block that differs, in index order.
    blocks: Vec<(usize, Box<[T]>)>,
}

impl<T: LayerValue> Delta<T> {
    /// What turns `newer` back into `old`.
    pub(crate) fn between(old: &Dense<T>, newer: &Dense<T>) -> Self {
        if old.shares(newer) {
            return Delta {
                len: old.len(),
                blocks: Vec::new(),
            };
        }
        let block = block_len::<T>();
        let (old, new) = (old.as_slice(), newer.as_slice());
        let mut blocks: Vec<_> = old
            .chunks(block)
            .enumerate()
            .filter_map(|(b, values)| {
                let start = b * block;
                let same = new
                    .get(start..start + values.len())
                    .is_some_and(|n| n.iter().zip(values).all(|(x, y)| x.bits_eq(y)));
                (!same).then(|| (start, Box::from(values)))
            })
            .collect();
        blocks.shrink_to_fit();
        Delta {
            len: old.len(),
            blocks,
        }
    }

    /// The old version, rebuilt from the same `newer` that [`Delta::between`] was given.
    /// Positions past `newer` that no block covers cannot exist; `fill` stands in for them
    /// only so a misuse cannot panic.
    pub(crate) fn rebuild(&self, newer: &Dense<T>, fill: T) -> Dense<T> {
        if self.blocks.is_empty() && self.len == newer.len() {
            return newer.clone(); // unchanged: share, copy nothing
        }
        let new = newer.as_slice();
        let mut v = Vec::with_capacity(self.len);
        v.extend_from_slice(&new[..self.len.min(new.len())]);
        v.resize(self.len, fill);
        for (start, values) in &self.blocks {
            if let Some(dst) = v.get_mut(*start..*start + values.len()) {
                dst.copy_from_slice(values);
            }
        }
        Dense::from_vec(v)
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<(usize, Box<[T]>)>()
            + self
                .blocks
                .iter()
                .map(|(_, b)| b.len() * size_of::<T>())
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_after_clone_copies_once_and_leaves_the_clone_alone() {
        let a = Dense::filled(10 * CHUNK, 0u8);
        let mut b = a.clone();
        assert!(a.shares(&b));
        *b.get_mut(3 * CHUNK + 1).unwrap() = 1;
        assert!(!a.shares(&b));
        assert_eq!(a.get(3 * CHUNK + 1), Some(&0));
        assert_eq!(b.get(3 * CHUNK + 1), Some(&1));
        let before = b.as_slice().as_ptr();
        *b.get_mut(7).unwrap() = 2;
        assert_eq!(b.as_slice().as_ptr(), before, "unique: written in place");
    }

    #[test]
    fn fill_and_resize_of_a_shared_array_do_not_touch_the_snapshot() {
        let a = Dense::from_vec((0..100u32).collect());
        let mut b = a.clone();
        b.fill(7);
        let mut c = a.clone();
        c.resize(120, 9);
        let mut d = a.clone();
        d.resize(3, 0);
        assert_eq!(a.as_slice(), (0..100).collect::<Vec<_>>());
        assert!(b.as_slice().iter().all(|&x| x == 7));
        assert_eq!(&c.as_slice()[98..102], [98, 99, 9, 9]);
        assert_eq!(c.len(), 120);
        assert_eq!(d.as_slice(), [0, 1, 2]);
        assert_eq!(d.heap_bytes(), 3 * 4 + size_of::<Vec<u32>>() + 16);
    }

    #[test]
    fn a_one_value_delta_holds_one_block() {
        let n = 1 << 20;
        let old = Dense::filled(n, 1.0f32);
        let mut new = old.clone();
        *new.get_mut(n / 2 + 3).unwrap() = 2.0;
        let d = Delta::between(&old, &new);
        assert_eq!(d.blocks.len(), 1);
        assert!(d.heap_bytes() <= BLOCK_BYTES + 64);
        assert_eq!(d.rebuild(&new, 0.0).as_slice(), old.as_slice());
        let same = Delta::between(&new, &new);
        assert_eq!(same.heap_bytes(), 0);
        assert!(
            same.rebuild(&new, 0.0).shares(&new),
            "an empty delta shares, copies nothing"
        );
    }

    proptest::proptest! {
        #![proptest_config(testkit::proptest_config(256))]
        /// A delta rebuilds the old version exactly, whatever the two lengths and writes
        /// (`NaN` and `-0.0` included: blocks compare bit for bit).
        #[test]
        fn delta_rebuilds_the_old_version(
            old_len in 0usize..3 * 4096 + 7,
            new_len in 0usize..3 * 4096 + 7,
            writes in proptest::collection::vec((0usize..4 * 4096, 0u8..3), 0..8),
        ) {
            let old = Dense::from_vec((0..old_len).map(|i| i as f64).collect());
            let mut new = old.clone();
            new.resize(new_len, 0.5);
            for (i, w) in writes {
                if let Some(x) = new.get_mut(i) {
                    *x = [f64::NAN, -0.0, 3.0][w as usize];
                }
            }
            let back = Delta::between(&old, &new).rebuild(&new, 1e9);
            proptest::prop_assert_eq!(back.len(), old_len);
            proptest::prop_assert!(back.as_slice().iter().zip(old.as_slice()).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}
