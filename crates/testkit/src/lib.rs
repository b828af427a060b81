//! Shared helpers for tests and benchmarks across the workspace: one deterministic RNG, one
//! edge picker and a few small mesh assertions, so that no test or bench carries its own copy.
//!
//! Everything here is deterministic: the same seed gives the same sequence on every platform,
//! so a failing case can be replayed from its seed.
//!
//! ```
//! use testkit::Rng;
//! let mut a = Rng::new(7);
//! let mut b = Rng::new(7);
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(10) < 10);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod mesh;
mod rng;

pub use mesh::*;
pub use rng::Rng;
