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

mod clusters;
pub mod edits;
mod mesh;
mod motion;
mod rng;

pub use clusters::{CAP, Cluster};
pub use mesh::*;
pub use motion::{border_vertices, plate_regions, plate_turns};

/// Thread pools of 1, 2 and 4 threads: parallel code must give bit-identical results in each.
#[cfg(feature = "rayon")]
pub fn thread_pools() -> Vec<rayon::ThreadPool> {
    [1, 2, 4]
        .map(|k| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .expect("a thread pool")
        })
        .into()
}

/// Property-test settings that make a run reproducible: `cases` cases from a fixed seed (so
/// CI sees the same inputs every time), and no failure files written into the source tree.
/// `PROPTEST_CASES` still raises the count for a longer local hunt, and a failing case prints
/// its minimal input.
#[cfg(feature = "proptest")]
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngAlgorithm, RngSeed};
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(0x9E37_79B9),
        failure_persistence: None,
        ..Config::default()
    }
}
pub use rng::Rng;
