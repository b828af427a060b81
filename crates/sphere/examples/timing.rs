//! Wall-clock timing of the triangulation paths outside criterion (for big `N`, and for
//! `/usr/bin/time -v` peak memory):
//!
//! ```text
//! cargo run --release -p quadworld-sphere --example timing -- N [PERTURBATION] [sphere|lattice|general|random|hilbert]
//! ```
//!
//! `sphere` (the default, with N = 1,000,000): the whole `fibonacci_sphere`, printed as
//! `fibonacci_sphere <time>`; the thread count follows `RAYON_NUM_THREADS`. `hilbert`:
//! `sphere_mesh_hilbert` (points to mesh in Hilbert order) on uniform random points; `lattice`: `triangulate_fibonacci` on Fibonacci points; `general`: `triangulate` on them;
//! `random`: `triangulate` on uniform random points. `REPS` (env) sets the repetitions,
//! `NOMESH` (env) skips `Mesh::from_triangles`.
use std::time::Instant;
/// The argument at `k`, parsed, or `default` when absent; a bad one ends the run with a
/// message.
fn arg<T: std::str::FromStr>(args: &[String], k: usize, default: T) -> T {
    match args.get(k) {
        None => default,
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("usage: timing N [PERTURBATION] [sphere|lattice|general|random|hilbert]; bad argument {s:?}");
            std::process::exit(2)
        }),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = arg(&args, 1, 1_000_000);
    let pert: f64 = arg(&args, 2, 0.0);
    let mode: String = arg(&args, 3, "sphere".to_string());
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let threads = rayon::current_num_threads();
    let p: Vec<glam::DVec3> = if mode == "random" || mode == "hilbert" {
        let mut rng = testkit::Rng::new(7);
        (0..n).map(|_| rng.unit_dvec3()).collect()
    } else {
        match sphere::fibonacci_points(n, 1.0, pert, 0) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2)
            }
        }
    };
    if mode == "sphere" {
        drop(p);
        for _ in 0..reps {
            let t = Instant::now();
            let (m, _) = sphere::fibonacci_sphere(n, 1.0, pert, 0).unwrap();
            println!(
                "fibonacci_sphere {:?} (n={n}, {threads} threads, {} faces)",
                t.elapsed(),
                m.face_count()
            );
        }
        return;
    }
    if mode == "hilbert" {
        for _ in 0..reps {
            let t = Instant::now();
            let (m, _, _) = sphere::sphere_mesh_hilbert(&p).unwrap();
            println!(
                "sphere_mesh_hilbert {:?} (n={n} random points, {threads} threads, {} faces)",
                t.elapsed(),
                m.face_count()
            );
        }
        return;
    }
    for _ in 0..reps {
        let t = Instant::now();
        let tris = if mode == "lattice" {
            sphere::triangulate_fibonacci(&p).unwrap()
        } else {
            sphere::triangulate(&p).unwrap()
        };
        let t1 = t.elapsed();
        if std::env::var("NOMESH").is_ok() {
            println!("n={n} {mode} triangulate {t1:?} triangles {}", tris.len());
            continue;
        }
        let m = quadedge::Mesh::from_triangles(n, &tris).unwrap();
        println!(
            "n={n} {mode} triangulate {t1:?} +mesh {:?} faces {}",
            t.elapsed(),
            m.face_count()
        );
    }
}
