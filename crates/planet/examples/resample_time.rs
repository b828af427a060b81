//! Times the tectonic resample alone (issue 23): a planet of `n` vertices run for a few
//! steps, then resampled onto the kept sphere turned by several rotations, each timed with
//! the clean-up after it, and a hash of the saved world printed (the same bytes for any
//! build that claims to be bit-identical).
//!
//! ```text
//! cargo run --release -p quadworld-planet --example resample_time -- 1000000 [steps] [rounds] [threads]
//! ```

use planet::tectonics::{Params, Tectonics, world_ops};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: usize| args.get(i).map_or(d, |s| s.parse().expect("a number"));
    let (n, steps, rounds, threads) = (arg(0, 1_000_000), arg(1, 3), arg(2, 4), arg(3, 2));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| run(n, steps, rounds));
}

fn run(n: usize, steps: usize, rounds: usize) {
    let seed = 2026;
    let params = Params::earth(n, seed);
    let mut world = world_ops::fibonacci_world(n, params.radius_km, 0.3, seed).expect("sphere");
    let mut t = Tectonics::new(&mut world, params).expect("initial state");
    for _ in 0..steps {
        t.step(&mut world).expect("step");
    }
    let mut kept = world_ops::KeptSphere::default();
    let mut warm = world.clone();
    let cpu = cpu_seconds();
    let clock = Instant::now();
    kept.resample(&mut warm, n, 0.3, 77, 1).expect("resample");
    println!(
        "first resample (builds the sphere): {:.3} s ({:.3} s of CPU)",
        clock.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
    let (mut total_r, mut total_c, mut total_cpu) = (0.0, 0.0, 0.0);
    for k in 0..rounds {
        let mut w = world.clone();
        let cpu = cpu_seconds();
        let clock = Instant::now();
        kept.resample(&mut w, n, 0.3, 77, 100 + k as u64)
            .expect("resample");
        let r = clock.elapsed().as_secs_f64();
        let r_cpu = cpu_seconds() - cpu;
        let clock = Instant::now();
        let moved = t.clean_up(&mut w).expect("clean-up");
        let c = clock.elapsed().as_secs_f64();
        let mut h = DefaultHasher::new();
        w.save_to_vec().expect("save").hash(&mut h);
        println!(
            "turn {k}: resample {:.1} ms ({:.1} ms of CPU), clean-up {:.1} ms ({moved} moved), hash {:016x}",
            1e3 * r,
            1e3 * r_cpu,
            1e3 * c,
            h.finish()
        );
        total_r += r;
        total_cpu += r_cpu;
        total_c += c;
    }
    let m = rounds.max(1) as f64;
    println!(
        "mean: resample {:.1} ms ({:.1} ms of CPU), clean-up {:.1} ms",
        1e3 * total_r / m,
        1e3 * total_cpu / m,
        1e3 * total_c / m
    );
}

/// CPU time of every thread of this process so far (`/proc/self/task/*/schedstat`), in
/// seconds: the work done, whatever else runs on the machine.
fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    ns as f64 * 1e-9
}
