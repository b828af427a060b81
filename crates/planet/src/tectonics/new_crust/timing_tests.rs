//! The crust stage on a large planet, timed: `cargo test --release -p quadworld-planet --lib
//! stress_new_crust -- --ignored --nocapture` (CRUST_N, CRUST_REPS, CRUST_STEPS,
//! CRUST_THREADS to change the size, repetitions, steps before and threads). Each repetition
//! runs the last two steps again from a snapshot (the first warms the buffers) and times the
//! second's creation; prints a fingerprint of the world, to compare builds.

use super::*;
use crate::tectonics::{Tectonics, world_ops};
use std::hash::{Hash, Hasher};

fn fingerprint(w: &World) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mesh = w.mesh();
    for f in mesh.faces() {
        (f.raw(), mesh.face_vertices(f).map(|v| v.raw())).hash(&mut h);
    }
    let pos = w.positions();
    for v in mesh.vertices() {
        (v.raw(), pos[v.index()].to_array().map(f64::to_bits)).hash(&mut h);
    }
    for x in w.layer(&PLATE).unwrap().as_slice() {
        x.hash(&mut h);
    }
    for x in w.layer(&AGE).unwrap().as_slice() {
        x.to_bits().hash(&mut h);
    }
    for x in w.layer(&RIDGE).unwrap().as_slice() {
        x.hash(&mut h);
    }
    h.finish()
}

/// Nanoseconds on a CPU of this thread and of all the process's threads (from
/// `/proc`: the machine is shared, and wall time under load says little).
fn cpu_ns() -> (u64, u64) {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let own = read(std::path::Path::new("/proc/thread-self/schedstat"));
    let all = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .map(|e| read(&e.unwrap().path().join("schedstat")))
        .sum();
    (own, all)
}

#[test]
#[ignore]
fn stress_new_crust_timing() {
    let var = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let (n, reps, steps) = (
        var("CRUST_N", 500_000),
        var("CRUST_REPS", 9),
        var("CRUST_STEPS", 6),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(var("CRUST_THREADS", 2))
        .build()
        .unwrap();
    pool.install(|| {
        let params = Params::earth(n, 2026);
        let mut world = world_ops::fibonacci_world(n, params.radius_km, 0.3, 2026).unwrap();
        let mut t = Tectonics::new(&mut world, params).unwrap();
        for _ in 2..steps {
            t.step(&mut world).unwrap();
        }
        let mut times = Vec::new();
        let mut prints = Vec::new();
        let mut made = 0;
        let mut cpu = Vec::new();
        for _ in 0..reps {
            let (mut w, mut t) = (world.clone(), t.clone());
            t.step(&mut w).unwrap();
            let mut at = [(0, 0); 2];
            let r = t
                .step_traced(&mut w, |stage, _| match stage {
                    "subduction" => at[0] = cpu_ns(),
                    "creation" => at[1] = cpu_ns(),
                    _ => {}
                })
                .unwrap();
            let ms = |a: u64, b: u64| (b - a) as f64 * 1e-6;
            cpu.push((ms(at[0].0, at[1].0), ms(at[0].1, at[1].1)));
            times.push(r.times.creation * 1e3);
            prints.push(fingerprint(&w));
            made = r.created;
        }
        assert!(prints.windows(2).all(|p| p[0] == p[1]));
        times.sort_by(f64::total_cmp);
        cpu.sort_by(|a, b| a.0.total_cmp(&b.0));
        let main: Vec<f64> = cpu.iter().map(|c| c.0).collect();
        let mut all: Vec<f64> = cpu.iter().map(|c| c.1).collect();
        all.sort_by(f64::total_cmp);
        println!(
            "cpu ms: main thread min {:.2} median {:.2}; all threads min {:.2} median {:.2}",
            main[0],
            main[main.len() / 2],
            all[0],
            all[all.len() / 2]
        );
        println!(
            "new_crust at {n}, step {steps}: made {made}, fingerprint {:016x}, ms min {:.2} median {:.2} max {:.2}",
            prints[0],
            times[0],
            times[times.len() / 2],
            times[times.len() - 1]
        );
    });
}
