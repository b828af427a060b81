//! Wrappers around cargo: CI steps, stress runs and snapshot review.

use crate::cli::SnapshotArgs;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the parent of this crate's folder).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Runs a command in the workspace root, failing with its name if it fails.
pub fn run(program: &str, args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    eprintln!("$ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

fn cargo(args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    run(env!("CARGO"), args, env)
}

/// Pending `.snap.new` files below the workspace.
fn pending_snapshots() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in rd.flatten() {
            let p = entry.path();
            let name = entry.file_name();
            if p.is_dir() {
                if name != "target" && name != ".git" {
                    walk(&p, out);
                }
            } else if name.to_string_lossy().ends_with(".snap.new") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out.sort();
    out
}

/// `cargo xtask snapshots [--review|--accept]`.
pub fn snapshots(args: &SnapshotArgs) -> Result<(), String> {
    let (review, accept) = (args.review, args.accept);
    // Run the tests writing new snapshots next to the old ones, never failing on a mismatch,
    // so every difference is collected in one pass.
    let result = cargo(
        &["test", "--workspace", "--quiet"],
        &[("INSTA_UPDATE", "new"), ("INSTA_FORCE_PASS", "1")],
    );
    let pending = pending_snapshots();
    if pending.is_empty() {
        result?;
        println!("snapshots: all up to date");
        return Ok(());
    }
    if accept {
        for p in &pending {
            let target = p.with_extension(""); // foo.snap.new -> foo.snap
            std::fs::rename(p, &target).map_err(|e| format!("{}: {e}", p.display()))?;
            println!("accepted {}", target.display());
        }
        return Ok(());
    }
    if review {
        let has_insta = Command::new(env!("CARGO"))
            .args(["insta", "--version"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if has_insta {
            return cargo(&["insta", "review"], &[]);
        }
    }
    println!("{} pending snapshot(s):", pending.len());
    for p in &pending {
        println!("  {}", p.strip_prefix(root()).unwrap_or(p).display());
    }
    println!(
        "review: `cargo insta review` (cargo install cargo-insta) or diff by hand; accept all: `cargo xtask snapshots --accept`"
    );
    Err("snapshots differ".into())
}

/// `cargo xtask ci`: the same steps as `.ci/run`: fmt, clippy (the benches with their
/// feature), tidy, the README's test command, snapshots and docs.
pub fn ci() -> Result<(), String> {
    cargo(&["fmt", "--all", "--check"], &[])?;
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    // The bench binaries need the `bench` feature (criterion and the peers).
    cargo(
        &[
            "clippy",
            "-p",
            "benches",
            "--all-targets",
            "--features",
            "bench",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    crate::tidy::run()?;
    cargo(
        &["test", "--workspace"],
        &[("INSTA_UPDATE", "no"), ("CI", "true")],
    )?;
    // The viewer in headless Chromium, as `.ci/run` does (it installs Chromium and npm).
    crate::view::test()?;
    if !pending_snapshots().is_empty() {
        return Err("pending .snap.new files: run `cargo xtask snapshots --review`".into());
    }
    cargo(
        &["doc", "--workspace", "--no-deps"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    println!("ci: all green");
    Ok(())
}

/// `cargo xtask stress`: the long adversarial `#[ignore]` tests, optimised.
pub fn stress() -> Result<(), String> {
    cargo(
        &[
            "test",
            "--release",
            "--workspace",
            "--",
            "--ignored",
            "stress_",
        ],
        &[],
    )
}

/// `cargo metadata --format-version 1 --no-deps` for this workspace, parsed.
pub fn metadata() -> Result<Value, String> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata printed no JSON: {e}"))
}
