//! Feeds arbitrary bytes to the mesh as a sequence of edits on a small starting mesh (the
//! driver shared with the `stress_` tests, `testkit::edits`): every accepted edit must leave
//! a mesh that passes `check()`, every rejected one must leave it bit-identical and log
//! nothing. The first byte picks the starting mesh (pillow, lone triangle, solids, disks,
//! a bowtie, bare vertices).
#![no_main]

use libfuzzer_sys::fuzz_target;
use testkit::edits::{Bytes, START_MESHES, run_sequence};

/// Edits per input at most: enough to grow and shrink a small mesh, short enough to keep
/// thousands of runs per second.
const MAX_EDITS: usize = 400;

fuzz_target!(|data: &[u8]| {
    let Some((&start, rest)) = data.split_first() else {
        return;
    };
    // About three bytes per edit; stop when the input is used up.
    let steps = (rest.len() / 3).min(MAX_EDITS);
    run_sequence(start as usize % START_MESHES, steps, &mut Bytes(rest));
});
