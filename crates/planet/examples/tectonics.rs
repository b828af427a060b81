//! The tectonic simulation without the demo, for measuring: one planet per vertex count,
//! same seed and settings, with per-stage times and the resolution figures between them.
//!
//! ```text
//! cargo run --release -p quadworld-planet --example tectonics -- 20000,100000,1000000 60 [seed] [threads]
//! ```

mod args;

use planet::tectonics::{Params, Tectonics, binned_elevation, correlation, summarize, world_ops};
use std::time::Instant;

fn main() {
    let (sizes, steps, seed, rest) = args::parse("20000,100000", 60, 2026);
    let threads: usize = rest.first().map_or(2, |s| s.parse().expect("threads"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let mut results = Vec::new();
    for &n in &sizes {
        let (summary, bins) = pool.install(|| run(n, steps, seed));
        results.push((n, summary, bins));
    }
    println!("\nresolution figures (same seed {seed}, {steps} steps):");
    for (n, s, _) in &results {
        println!(
            "  {n:>9} vertices: land {:.1} %, live plates {}",
            100.0 * s.land_fraction,
            s.live_plates
        );
    }
    for w in results.windows(2) {
        let ((na, sa, ba), (nb, sb, bb)) = (&w[0], &w[1]);
        let worst_area = sa
            .plate_areas_km2
            .iter()
            .zip(&sb.plate_areas_km2)
            .filter(|(a, b)| a.max(**b) > 0.01 * 5.1e8)
            .map(|(a, b)| (a - b).abs() / a.max(*b))
            .fold(0.0, f64::max);
        let per: Vec<String> = sa
            .plate_areas_km2
            .iter()
            .zip(&sb.plate_areas_km2)
            .enumerate()
            .map(|(p, (a, b))| {
                let d = if a.max(*b) > 0.0 {
                    100.0 * (b - a) / a.max(*b)
                } else {
                    0.0
                };
                format!("{p}: {:.2}/{:.2} ({d:+.1} %)", a / 5.1e6, b / 5.1e6)
            })
            .collect();
        println!("  plate areas, % of the sphere: {}", per.join(", "));
        println!(
            "  {na} vs {nb}: land diff {:.2} pp, 5° block elevation correlation {:.3}, worst plate area diff {:.1} %",
            100.0 * (sa.land_fraction - sb.land_fraction).abs(),
            correlation(ba, bb),
            100.0 * worst_area
        );
    }
}

fn run(n: usize, steps: usize, seed: u64) -> (planet::tectonics::Summary, Vec<f64>) {
    let clock = Instant::now();
    let params = Params::earth(n, seed);
    let mut world = world_ops::fibonacci_world(n, params.radius_km, 0.3, seed).expect("sphere");
    let built = clock.elapsed().as_secs_f64();
    let mut t = Tectonics::new(&mut world, params).expect("initial state");
    let init = clock.elapsed().as_secs_f64() - built;
    let mut worst: f64 = 0.0;
    let sim = Instant::now();
    let mut steady = Vec::new();
    let mut repair = [0usize; 3];
    // Continental vertices shortened, sutured, and steps with a suture.
    let mut collision = [0usize; 3];
    for _ in 0..steps {
        let r = t.step(&mut world).expect("step");
        collision[0] += r.shortened;
        collision[1] += r.sutured;
        collision[2] += usize::from(r.sutured > 0);
        repair[0] += r.restore.flips;
        repair[1] += r.restore.folds;
        repair[2] += r.restore.relocated;
        worst = worst.max(r.seconds);
        if !r.resampled && r.rifted.is_none() {
            steady.push(r.seconds);
        }
    }
    steady.sort_by(f64::total_cmp);
    let median = steady.get(steady.len() / 2).copied().unwrap_or(0.0);
    let total = sim.elapsed().as_secs_f64();
    t.clean_up(&mut world).expect("clean-up");
    t.measure_areas(&world);
    let s = summarize(&world, t.plates.len());
    println!(
        "{n} vertices: sphere {built:.2} s, initial state {init:.2} s, {steps} steps {total:.2} s \
         ({:.1} ms/step, median plain step {:.1} ms, worst {:.1} ms); subducted {}, created {}, now {} vertices",
        1e3 * total / steps.max(1) as f64,
        1e3 * median,
        1e3 * worst,
        t.subducted,
        t.created,
        s.vertices
    );
    let per: Vec<String> = t
        .times
        .named()
        .iter()
        .map(|(k, v)| format!("{k} {:.1}", 1e3 * v / steps.max(1) as f64))
        .collect();
    println!("  ms per step by stage: {}", per.join(", "));
    println!(
        "  motion repair: {} flips, {} folds, {} relocated",
        repair[0], repair[1], repair[2]
    );
    println!(
        "  collisions: {} continental vertices shortened, {} sutured (in {} steps)",
        collision[0], collision[1], collision[2]
    );
    println!(
        "  land {:.1} %, elevation {:.0} .. {:.0} m, percentiles {:?}, lonely {:.4} %, split plates {}",
        100.0 * s.land_fraction,
        s.min_m,
        s.max_m,
        s.percentiles,
        100.0 * s.lonely_fraction,
        s.split_plates
    );
    let (_, _, bins) = binned_elevation(&world, 5.0);
    (s, bins)
}
