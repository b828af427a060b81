//! What limits the scaling of a neighbour sweep, measured so that a busy machine does not
//! hide it: wall time per sweep and the process's CPU time per sweep (all threads), on
//! rayon's global pool (`RAYON_NUM_THREADS`).
//!
//! ```text
//! RAYON_NUM_THREADS=1 cargo run --release -p quadworld-sphere --example sweep_scaling
//! RAYON_NUM_THREADS=2 cargo run --release -p quadworld-sphere --example sweep_scaling
//! ```
//!
//! CPU time with 2 threads over CPU time with 1 is the work the second thread adds (1.00:
//! none; above: splitting, waiting, memory stalls). When it stays near 1.00, two threads
//! give 2× as soon as two cores are free, whatever a loaded machine shows in wall time.

use rayon::prelude::*;
use std::time::Instant;

/// User + system CPU time of this process so far, in seconds (Linux `/proc/self/stat`).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 here; 100 Hz ticks.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let (mesh, positions) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).unwrap();
    let src: Vec<f64> = positions.iter().map(|p| p.y.sin()).collect();
    let mut dst = vec![0.0; n];
    let threads = rayon::current_num_threads();
    for (shape, chunk) in [("chunks_4096", 4096), ("per_value", 0)] {
        let sweep = |dst: &mut [f64]| {
            let mean = |v: usize| {
                let (mut sum, mut k) = (0.0, 0.0);
                for w in mesh.neighbors(quadedge::Vertex::new(v as u32)) {
                    sum += src[w.index()];
                    k += 1.0;
                }
                sum / k
            };
            if chunk == 0 {
                dst.par_iter_mut()
                    .enumerate()
                    .for_each(|(v, d)| *d = mean(v));
            } else {
                dst.par_chunks_mut(chunk).enumerate().for_each(|(c, out)| {
                    for (k, d) in out.iter_mut().enumerate() {
                        *d = mean(c * chunk + k);
                    }
                });
            }
        };
        for _ in 0..10 {
            sweep(&mut dst);
        }
        let reps = 200;
        let (t, c) = (Instant::now(), cpu_seconds());
        for _ in 0..reps {
            sweep(&mut dst);
        }
        let wall = t.elapsed().as_secs_f64() / reps as f64;
        let cpu = (cpu_seconds() - c) / reps as f64;
        println!(
            "sweep {shape}: {:.2} ms wall, {:.2} ms CPU per sweep ({threads} threads, n={n})",
            wall * 1e3,
            cpu * 1e3
        );
    }
}
