//! Forced failures for tests: every fallible stage of a geometric world operation calls
//! [`stage`], and a test can make the `n`th call from now fail, to prove that a failure at
//! any stage leaves the world exactly as it was. Compiled to nothing outside this crate's
//! unit tests.

use super::EditError;

#[cfg(test)]
thread_local! {
    /// Stages left before the forced failure (`0`: none armed). Per thread, so tests running
    /// side by side do not trip each other; stages are only passed on the calling thread.
    static COUNTDOWN: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A fallible stage named `what`: `Ok` unless a test armed a failure for this one.
#[inline]
pub(crate) fn stage(what: &'static str) -> Result<(), EditError> {
    #[cfg(test)]
    {
        let left = COUNTDOWN.get();
        if left > 0 {
            COUNTDOWN.set(left - 1);
            if left == 1 {
                return Err(EditError::Injected(what));
            }
        }
    }
    let _ = what;
    Ok(())
}

/// Arms a failure at the `n`th stage from now (`n ≥ 1`); `0` disarms.
#[cfg(test)]
pub(crate) fn fail_at(n: u32) {
    COUNTDOWN.set(n);
}
