//! Adversarial edit sequences through the public API (driver in `testkit::edits`): pillow and
//! multigraph attempts, link-condition violations, dead and garbage ids, absurd counts. After
//! every accepted edit the mesh passes `check()`; after every rejected one it is bit-identical
//! and nothing was logged.
//!
//! `cargo test` runs a fixed, fast set of seeds; the `stress_` test runs over a million edits:
//! `cargo test --release -p quadworld-quadedge -- --ignored stress_`.

use testkit::Rng;
use testkit::edits::{Bytes, START_MESHES, Tally, run_sequence};

fn run(seeds: core::ops::Range<u64>, steps: usize) -> Tally {
    let mut total = Tally::default();
    for seed in seeds {
        let mut rng = Rng::new(0x5EED_0000 + seed);
        total.add(&run_sequence(seed as usize % START_MESHES, steps, &mut rng));
    }
    total
}

#[test]
fn adversarial_edit_sequences_keep_the_contract() {
    let t = run(0..120, 400);
    // Both outcomes must be exercised, or the test proves nothing.
    assert!(t.accepted > 10_000 && t.rejected > 10_000, "{t}");
    // Every kind of edit is both accepted and rejected somewhere (compact and add_vertex
    // cannot fail).
    for (k, [a, r]) in t.by_kind.iter().enumerate() {
        let name = testkit::edits::EditOp::KINDS[k];
        assert!(*a > 0, "{name} never accepted: {t}");
        assert!(
            *r > 0 || name == "compact" || name == "add_vertex",
            "{name} never rejected: {t}"
        );
    }
}

#[test]
fn byte_driven_sequences_keep_the_contract() {
    // What the fuzz target does, on a few fixed inputs.
    let mut rng = Rng::new(99);
    for k in 0..200 {
        let bytes: Vec<u8> = (0..600).map(|_| rng.next_u32() as u8).collect();
        let mut src = Bytes(&bytes);
        run_sequence(k % START_MESHES, 150, &mut src);
    }
    // Empty and constant inputs too.
    for b in [0u8, 1, 0xFF] {
        let bytes = vec![b; 64];
        run_sequence(0, 100, &mut Bytes(&bytes));
    }
}

/// Over a million edits. Run with
/// `cargo test --release -p quadworld-quadedge -- --ignored stress_ --nocapture`.
#[test]
#[ignore]
fn stress_mesh_edit_sequences() {
    let steps = 500;
    let seeds = 10_000u64;
    let t = run(1_000..1_000 + seeds, steps);
    let total = t.accepted + t.rejected;
    eprintln!(
        "stress_mesh_edit_sequences: {total} edits over {seeds} sequences, 0 contract violations \
         ({t}; per kind accepted/rejected)"
    );
    assert!(total >= 1_000_000);
}
