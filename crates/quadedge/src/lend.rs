//! A mesh lent out by an owner that must be able to take the lending back (a world's lock
//! guard): while lent, the undo log can be neither taken nor stopped through the borrow, and a
//! lent mesh that is dropped — replaced by assignment through the `&mut Mesh` — moves its
//! contents to the lender instead of freeing them. So the owner can put the old mesh back
//! without ever having copied it.

use crate::Mesh;
use std::sync::{Arc, OnceLock};

/// The lender's end of a lending ([`lend`]): where the lent mesh goes if it is dropped.
#[derive(Debug)]
pub struct Lent(Arc<OnceLock<Mesh>>);

/// A mesh's end of a lending: not cloned (a clone is not lent), not compared, not saved.
#[derive(Debug, Default)]
pub(crate) struct LendState(Option<Arc<OnceLock<Mesh>>>);

impl Clone for LendState {
    fn clone(&self) -> Self {
        LendState(None)
    }
}

impl LendState {
    pub(crate) fn is_lent(&self) -> bool {
        self.0.is_some()
    }
}

impl Drop for Mesh {
    fn drop(&mut self) {
        if let Some(lender) = self.lent.0.take()
            && Arc::strong_count(&lender) > 1
        {
            // A move, not a copy: the arrays go to the lender as they are.
            let _ = lender.set(std::mem::take(self));
        }
    }
}

/// Lends `mesh` (see the module docs). One lending at a time: lending again replaces it.
pub fn lend(mesh: &mut Mesh) -> Lent {
    let shared = Arc::new(OnceLock::new());
    mesh.lent = LendState(Some(shared.clone()));
    Lent(shared)
}

/// Ends the lending `lent` if `mesh` is the mesh lent; `false` (changing nothing) when it is
/// another one: the lent mesh was replaced, see [`Lent::take_dropped`].
pub fn end_lend(mesh: &mut Mesh, lent: &Lent) -> bool {
    match &mesh.lent.0 {
        Some(l) if Arc::ptr_eq(l, &lent.0) => {
            mesh.lent = LendState(None);
            true
        }
        _ => false,
    }
}

impl Lent {
    /// The lent mesh, if it was dropped while lent (it is no longer lent then); `None` if it
    /// still lives somewhere (the borrower swapped it out and kept it) or was never dropped.
    pub fn take_dropped(mut self) -> Option<Mesh> {
        Arc::get_mut(&mut self.0).and_then(OnceLock::take)
    }
}
