//! The tectonic simulation's step (issue 23's target: one step at 500,000 vertices ≤ 0.1 s
//! on 2 threads).
//!
//! * `tectonics/step_500k_2threads`: the steps of one planet's 80-Myr history (40 steps of
//!   2 Myr, seed 2026), one per iteration, in order, on a pool of 2 threads; after the 40th
//!   step a fresh planet is built (not timed). So the mean is over every kind of step: the
//!   plain ones, the two resamples onto a fresh sphere and the rift.
//!
//! Per-stage times and the median plain step are the `tectonics` example's
//! (`cargo run --release -p quadworld-planet --example tectonics -- 500000 40 2026 2`).

use criterion::{Criterion, criterion_group, criterion_main};
use planet::tectonics::{Params, Tectonics, world_ops};
use std::hint::black_box;
use std::time::{Duration, Instant};
use world::World;

const N: usize = 500_000;
const SEED: u64 = 2026;
const HISTORY_STEPS: usize = 40;

/// A planet at the start of its history.
fn fresh() -> (World, Tectonics) {
    let params = Params::earth(N, SEED);
    let mut world =
        world_ops::fibonacci_world(N, params.radius_km, 0.3, SEED).expect("the bench's sphere");
    let tectonics = Tectonics::new(&mut world, params).expect("the bench's initial state");
    (world, tectonics)
}

fn tectonics(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("thread pool");
    let mut g = c.benchmark_group("tectonics");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    let mut planet = pool.install(fresh);
    let mut steps_done = 0;
    g.bench_function("step_500k_2threads", |b| {
        b.iter_custom(|iters| {
            let mut timed = Duration::ZERO;
            for _ in 0..iters {
                if steps_done == HISTORY_STEPS {
                    planet = pool.install(fresh);
                    steps_done = 0;
                }
                let (world, t) = &mut planet;
                let clock = Instant::now();
                let report = pool.install(|| t.step(world)).expect("a tectonic step");
                timed += clock.elapsed();
                black_box(report);
                steps_done += 1;
            }
            timed
        })
    });
    g.finish();
}

criterion_group!(benches, tectonics);
criterion_main!(benches);
