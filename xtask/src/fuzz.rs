//! `cargo xtask fuzz [--seconds N] [--target NAME]`: runs one cargo-fuzz target for a bounded
//! time with the nightly toolchain (`cargo +nightly fuzz`). Not part of CI.

use crate::cli::{FuzzArgs, FuzzTarget};
use crate::tasks::{root, run as sh};
use std::process::Command;

pub fn run(args: &FuzzArgs) -> Result<(), String> {
    let have = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !have {
        sh("cargo", &["install", "cargo-fuzz", "--locked"], &[])?;
    }
    let target = args.target.name();
    let corpus = root().join("fuzz/corpus").join(target);
    std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    if args.target == FuzzTarget::LoadWorld {
        seed_world(&corpus)?;
    }
    let max_time = format!("-max_total_time={}", args.seconds);
    let corpus_arg = corpus.to_string_lossy().into_owned();
    sh(
        "cargo",
        &[
            "+nightly",
            "fuzz",
            "run",
            target,
            &corpus_arg,
            "--",
            &max_time,
            "-rss_limit_mb=2048",
        ],
        &[],
    )
}

/// Seeds the loader's corpus with a real saved world so the fuzzer starts from valid structure.
fn seed_world(corpus: &std::path::Path) -> Result<(), String> {
    let (mesh, pos) = sphere::fibonacci_sphere(40, 1.0, 0.3, 1).map_err(|e| e.to_string())?;
    let mut w = world::World::new(mesh, 1);
    {
        let mut p = w
            .lock_layer(&planet::demo::POSITION)
            .map_err(|e| e.to_string())?;
        for (i, x) in pos.iter().enumerate() {
            p[quadedge::Vertex::new(i as u32)] = *x;
        }
        p.commit().map_err(|e| e.to_string())?;
    }
    w.update_dict("meta", |d| d.set("name", "seed"));
    w.save(corpus.join("seed.world")).map_err(|e| e.to_string())
}
