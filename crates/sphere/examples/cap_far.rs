//! Clustered inputs against the cap alone (issue 21: a dense cap plus a few far points used to
//! take about `n^1.75`). For each size, the best of `REPS` (env, default 3) runs of
//! `sphere::triangulate` on every family of [`testkit::Cluster`] and on uniform random and
//! jittered Fibonacci points, each with its ratio to the cap alone of the same size, measured
//! in the same run:
//!
//! ```text
//! cargo run --release -p quadworld-sphere --example cap_far -- 10000,50000,100000,200000,500000,1000000
//! ```
//!
//! A second argument keeps only the named families (`cap_alone` always runs, as the
//! reference), e.g. `uniform,fibonacci_jittered`.
use std::time::{Duration, Instant};
use testkit::{Cluster, Rng};

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "10000,50000,100000,200000".into())
        .split(',')
        .map(|s| {
            s.parse().unwrap_or_else(|_| {
                eprintln!("usage: cap_far N[,N...]; bad size {s:?}");
                std::process::exit(2)
            })
        })
        .collect();
    let only: Option<Vec<String>> = std::env::args()
        .nth(2)
        .map(|s| s.split(',').map(str::to_string).collect());
    let wanted = |name: &str| {
        name == Cluster::Cap.name() || only.as_ref().is_none_or(|o| o.iter().any(|w| w == name))
    };
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    println!("family              n         best ms  / cap alone");
    for n in sizes {
        let mut inputs: Vec<(&str, Vec<glam::DVec3>)> = Cluster::ALL
            .iter()
            .map(|c| (c.name(), c.points(n, 1)))
            .collect();
        let mut rng = Rng::new(7);
        inputs.push(("uniform", (0..n).map(|_| rng.unit_dvec3()).collect()));
        let jittered = sphere::fibonacci_points(n, 1.0, 0.5, 1).expect("valid size");
        inputs.push(("fibonacci_jittered", jittered));
        let mut cap = Duration::ZERO;
        for (name, p) in inputs.iter().filter(|(name, _)| wanted(name)) {
            let t = best_of(reps, p);
            if *name == Cluster::Cap.name() {
                cap = t;
            }
            println!(
                "{name:<19} {n:>8} {:>11.2} {:>8.2}",
                t.as_secs_f64() * 1e3,
                t.as_secs_f64() / cap.as_secs_f64()
            );
        }
    }
}

/// The shortest of `reps` runs of `sphere::triangulate` on `p`.
fn best_of(reps: usize, p: &[glam::DVec3]) -> Duration {
    (0..reps.max(1))
        .map(|_| {
            let t = Instant::now();
            let tris = sphere::triangulate(p).expect("the families are in convex position");
            let d = t.elapsed();
            assert_eq!(tris.len(), 2 * p.len() - 4);
            d
        })
        .min()
        .unwrap_or_default()
}
