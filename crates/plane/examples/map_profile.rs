//! The planar map pipeline at about 1M points, phase by phase, beside delaunator on the same
//! points: `cargo run --release -p quadworld-plane --example map_profile [side] [repeats]`.
//!
//! Prints wall time and the process's CPU time (user + system, from `/proc/self/stat`) per
//! phase: on a shared machine the CPU time is the steadier figure, since wall time also
//! counts the time other processes hold the cores (the sampler's two threads both count, so
//! its CPU time is the work, not the wall time of an idle machine). Also the entry point for
//! profilers (`perf record`, `valgrind --tool=callgrind`). The criterion comparison is
//! `benches/benches/plane.rs`.

use std::time::Instant;

/// User + system CPU seconds of this process so far (Linux; zero elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// Runs `f`, returns its result with (wall, CPU) seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (c0, t0) = (cpu_seconds(), Instant::now());
    let out = f();
    (out, t0.elapsed().as_secs_f64(), cpu_seconds() - c0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let side: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1100.0);
    let repeats: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut sums = [[0.0f64; 2]; 4];
    for _ in 0..repeats {
        let (pts, w0, c0) = timed(|| plane::poisson_disc(side, side, 1.0, 1).expect("sampling"));
        let (tris, w1, c1) =
            timed(|| plane::triangulate_half_edges(&pts.points).expect("triangles"));
        drop(tris);
        let (map, w2, c2) = timed(|| plane::triangulate(&pts.points).expect("triangulation"));
        drop(map);
        let dpts: Vec<delaunator::Point> = pts
            .points
            .iter()
            .map(|p| delaunator::Point { x: p.x, y: p.y })
            .collect();
        let (d, w3, c3) = timed(|| delaunator::triangulate(&dpts));
        drop(d);
        for (s, (w, c)) in sums
            .iter_mut()
            .zip([(w0, c0), (w1, c1), (w2, c2), (w3, c3)])
        {
            s[0] += w;
            s[1] += c;
        }
        println!(
            "{} points: sampling {w0:.3} s (cpu {c0:.2}), triangles {w1:.3} s (cpu {c1:.2}), \
             triangulate with mesh {w2:.3} s (cpu {c2:.2}), delaunator {w3:.3} s (cpu {c3:.2})",
            pts.points.len()
        );
    }
    let r = repeats as f64;
    let [s, t, m, d] = sums.map(|[w, c]| [w / r, c / r]);
    println!(
        "mean wall: sampling {:.3}, triangles {:.3}, mesh {:.3}, total {:.3}, delaunator {:.3}; \
         total / delaunator {:.2}",
        s[0],
        t[0],
        m[0],
        s[0] + m[0],
        d[0],
        (s[0] + m[0]) / d[0]
    );
    println!(
        "mean cpu: sampling {:.2}, triangles {:.2}, mesh {:.2}, total {:.2}, delaunator {:.2}; \
         total / delaunator {:.2}",
        s[1],
        t[1],
        m[1],
        s[1] + m[1],
        d[1],
        (s[1] + m[1]) / d[1]
    );
}
