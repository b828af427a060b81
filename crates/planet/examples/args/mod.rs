//! The command line the tectonics examples share: `SIZES STEPS SEED [REST…]`.

/// Reads the positional arguments: vertex counts (comma-separated), steps, seed, and the
/// arguments after the seed as given. The defaults stand for missing arguments; a malformed
/// one stops the example with its name.
pub fn parse(sizes: &str, steps: usize, seed: u64) -> (Vec<usize>, usize, u64, Vec<String>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    (
        args.first()
            .map_or(sizes, String::as_str)
            .split(',')
            .map(|s| s.parse().expect("vertex counts, comma-separated"))
            .collect(),
        args.get(1).map_or(steps, |s| s.parse().expect("steps")),
        args.get(2).map_or(seed, |s| s.parse().expect("seed")),
        args.iter().skip(3).cloned().collect(),
    )
}
