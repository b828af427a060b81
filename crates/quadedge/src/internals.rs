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
}
