//! Plumbing the sibling crates share, not for users: it may change in any release.
//!
//! The one fallible allocation helper of the workspace lives here (the lowest crate), so a
//! size that comes from a caller or a file becomes a typed error instead of an abort in every
//! crate the same way; each crate turns [`OutOfMemory`] into its own error with `From`.

pub use crate::lend::{Lent, end_lend, lend};
pub use crate::undo::UndoMark;

/// Where the running undo log stands (`None` when no log is on): pass it to
/// [`rollback_to_mark`] to take the mesh back to this state, costing what was written since.
pub fn undo_mark(mesh: &crate::Mesh) -> Option<UndoMark> {
    mesh.undo_mark()
}

/// Takes `mesh` back to the state of `mark` by playing the writes logged since then backwards;
/// the log goes on as if they were never made.
pub fn rollback_to_mark(mesh: &mut crate::Mesh, mark: UndoMark) {
    mesh.rollback_to_mark(mark);
}

/// The allocator could not give `bytes` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    /// Bytes asked for (saturated at `usize::MAX`).
    pub bytes: usize,
}

/// An empty vector with room for exactly `n` values of `T`.
///
/// # Errors
/// [`OutOfMemory`] when the allocator refuses (or `n` values overflow the address space).
pub fn try_vec<T>(n: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| OutOfMemory {
        bytes: n.saturating_mul(size_of::<T>()),
    })?;
    Ok(v)
}

/// A vector of `n` copies of `value`.
///
/// # Errors
/// As [`try_vec`].
pub fn try_filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, OutOfMemory> {
    let mut v = try_vec(n)?;
    v.resize(n, value);
    Ok(v)
}

/// The indices of the set bits of `words` (bit `i % 64` of word `i / 64`), in increasing
/// order: how a bit per element slot is read back as a sorted list with no sort.
pub fn set_bits<I: IntoIterator<Item = u64>>(words: I) -> SetBits<I::IntoIter> {
    SetBits {
        words: words.into_iter(),
        next_base: 0,
        base: 0,
        word: 0,
    }
}

/// The iterator of [`set_bits`].
#[derive(Clone, Debug)]
pub struct SetBits<I> {
    words: I,
    /// The index of bit 0 of the next word to load.
    next_base: usize,
    /// The index of bit 0 of `word`.
    base: usize,
    /// The bits of the current word not yet given.
    word: u64,
}

impl<I: Iterator<Item = u64>> Iterator for SetBits<I> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.word = self.words.next()?;
            self.base = self.next_base;
            self.next_base += 64;
        }
        let i = self.base + self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_sizes_are_errors_and_sane_ones_are_exact() {
        assert_eq!(
            try_vec::<u64>(usize::MAX / 4).unwrap_err(),
            OutOfMemory { bytes: usize::MAX }
        );
        assert!(try_filled(isize::MAX as usize, 0u8).is_err());
        let v = try_filled(5, 7u32).unwrap();
        assert_eq!(v, [7; 5]);
        assert_eq!(try_vec::<u32>(9).unwrap().capacity(), 9);
    }

    #[test]
    fn set_bits_gives_the_set_indices_in_order() {
        let words = [0b1001, 0, 1 << 63, u64::MAX];
        let got: Vec<usize> = set_bits(words.iter().copied()).collect();
        let mut want = vec![0, 3, 64 + 64 + 63];
        want.extend(192..256);
        assert_eq!(got, want);
        assert_eq!(set_bits([]).count(), 0);
        assert_eq!(set_bits([0, 0]).count(), 0);
        // Against a bit-by-bit reading of arbitrary words.
        let words: Vec<u64> = (0..50u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (k << 7))
            .collect();
        let slow: Vec<usize> = (0..64 * words.len())
            .filter(|&i| words[i / 64] >> (i % 64) & 1 == 1)
            .collect();
        assert_eq!(set_bits(words.iter().copied()).collect::<Vec<_>>(), slow);
    }
}
