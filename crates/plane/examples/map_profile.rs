//! Times the planar map pipeline at about 1M points, for profilers (`perf record`,
//! `valgrind --tool=callgrind`): `cargo run --release -p quadworld-plane --example map_profile
//! [side] [repeats] [sample]`. The criterion comparison with peers is `benches/benches/plane.rs`.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let side: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1100.0);
    let repeats: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    // `sample`: the sampling alone (for counting its cycles apart from the triangulation).
    let sample_only = args.next().as_deref() == Some("sample");
    for _ in 0..repeats {
        let t0 = Instant::now();
        let pts = plane::poisson_disc(side, side, 1.0, 1).expect("sampling");
        let t1 = Instant::now();
        if sample_only {
            println!(
                "{} points: sampling {:.3} s",
                pts.points.len(),
                (t1 - t0).as_secs_f64()
            );
            continue;
        }
        let map = plane::triangulate(&pts.points).expect("triangulation");
        let t2 = Instant::now();
        println!(
            "{} points: sampling {:.3} s, triangulation + ghost closure + mesh {:.3} s, total {:.3} s ({} faces)",
            pts.points.len(),
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t2 - t0).as_secs_f64(),
            map.mesh.face_count()
        );
    }
}
