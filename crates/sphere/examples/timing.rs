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
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(1_000_000);
    let pert: f64 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(0.0);
    let mode = args.get(3).cloned().unwrap_or_else(|| "sphere".into());
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let threads = rayon::current_num_threads();
    let p = if mode == "random" || mode == "hilbert" {
        let mut s = 7u64;
        let mut u = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| {
                let z = 2.0 * u() - 1.0;
                let t = std::f64::consts::TAU * u();
                let r = (1.0 - z * z).sqrt();
                glam::DVec3::new(r * t.cos(), r * t.sin(), z)
            })
            .collect()
    } else {
        sphere::fibonacci_points(n, 1.0, pert, 0).unwrap()
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
