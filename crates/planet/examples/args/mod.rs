//! The command line the tectonics examples share: `SIZES STEPS SEED [REST]`.

/// The positional arguments: vertex counts (comma-separated), steps, seed, and what follows.
pub struct Args {
    pub sizes: Vec<usize>,
    pub steps: usize,
    pub seed: u64,
    /// The arguments after the seed, as given.
    pub rest: Vec<String>,
}

/// Reads the command line; the defaults stand for missing arguments, a malformed one stops
/// the example with its name.
pub fn parse(sizes: &str, steps: usize, seed: u64) -> Args {
    let args: Vec<String> = std::env::args().skip(1).collect();
    Args {
        sizes: args
            .first()
            .map_or(sizes, String::as_str)
            .split(',')
            .map(|s| s.parse().expect("vertex counts, comma-separated"))
            .collect(),
        steps: args.get(1).map_or(steps, |s| s.parse().expect("steps")),
        seed: args.get(2).map_or(seed, |s| s.parse().expect("seed")),
        rest: args.iter().skip(3).cloned().collect(),
    }
}
