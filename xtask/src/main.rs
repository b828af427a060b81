//! `cargo xtask <command>`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! Commands only parse arguments (strictly: an unknown flag or a missing value is an error)
//! and call library code or cargo; `cargo xtask help` lists them, `cargo xtask <command>
//! --help` shows each one's options and defaults.

#![forbid(unsafe_code)]

mod bench;
mod cli;
mod demo;
mod fuzz;
mod map_cmd;
mod map_surface;
mod sphere_cmd;
mod tasks;
mod tidy;
mod view;

use clap::Parser;
use cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Prints the help (exit 0) or the parse error with a usage line (exit 2).
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Demo(a) => demo::run(&a),
        Command::Sphere(a) => sphere_cmd::run(&a),
        Command::Map(a) => {
            map_cmd::run(a.width, a.height, a.spacing, a.seed, &a.out).map_err(|e| e.to_string())
        }
        Command::Bench(a) => bench::run(&a),
        Command::Snapshots(a) => tasks::snapshots(&a),
        Command::Ci => tasks::ci(),
        Command::Fuzz(a) => fuzz::run(&a),
        Command::Stress => tasks::stress(),
        Command::Tidy => tidy::run(),
        Command::View(a) => view::run(&a),
        Command::ViewTest => view::test(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
