//! `cargo xtask <command>`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! Commands only parse arguments and call library code or cargo; see `cargo xtask help`.

mod bench;
mod demo;
mod fuzz;
mod sphere_cmd;
mod tasks;

use std::process::ExitCode;

const HELP: &str = "\
cargo xtask <command> [options]

commands:
  demo [--vertices N] [--plates K] [--seed S] [--out DIR]
                                    build a planet world and write its outputs (the main job)
  bench [GROUP..] [--quick]         run criterion benchmarks, regenerate docs/benchmarks.md
  sphere --vertices N [--perturbation P] [--seed S] [--radius R] --out FILE.obj
                                    a Fibonacci sphere as OBJ, with build time and quality
  snapshots [--review|--accept]     run insta snapshot tests; review or accept pending ones
  fuzz [--seconds N]                fuzz the world loader (nightly + cargo-fuzz), bounded
  ci                                what .ci/run does: fmt, clippy, tests, snapshots, docs
  help                              this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => ("help", &[][..]),
    };
    // `cargo xtask bench --help` must print help, not start a ten-minute run.
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let result = match cmd {
        "demo" => demo::run(rest),
        "bench" => bench::run(rest),
        "snapshots" => tasks::snapshots(rest),
        "sphere" => sphere_cmd::run(rest),
        "fuzz" => fuzz::run(rest),
        "ci" => tasks::ci(rest),
        "help" | "--help" | "-h" => {
            print!("{HELP}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads `--name value` from an argument list.
pub fn opt<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// Parses `--name value` as a number, with a default.
pub fn num<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match opt(args, name) {
        None => Ok(default),
        Some(s) => s
            .parse()
            .map_err(|_| format!("{name} expects a number, got `{s}`")),
    }
}

/// Is the flag present?
pub fn flag(args: &[String], name: &str) -> bool {
    args.iter().any(|a| a == name)
}
