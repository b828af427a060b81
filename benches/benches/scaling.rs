//! Scaling: the same operation on 1 and 2 threads side by side in one run (target for the
//! neighbour sweep: 2 threads ≥ 1.8× one thread). `cargo xtask bench` turns every
//! `…/threads_1` and `…/threads_2` pair into a row of the "Scaling" section with the ratio.
//!
//! * `neighbour_sum/threads_k`: a 1M-vertex Fibonacci planet, each vertex's value in a vertex
//!   layer set to the mean of its neighbours' values in another layer, one rayon task per
//!   layer chunk ([`layers::CHUNK`] values), as a client writes it.
//! * `neighbour_sum_per_value/threads_k`: the same through `par_iter_mut().enumerate()`
//!   (rayon's adaptive splitting down to single values): the cost of the iterator's shape.
//! * `neighbour_sum_64k/threads_k`: tasks of 65,536 values: the cost of many small tasks.
//! * `stream/threads_k`: `dst = 2·a + b` over three 1M-value slices: the memory-bandwidth
//!   floor of a sweep that reads and writes every value once.
//! * `fibonacci_sphere/threads_k`: the whole 1M-vertex Fibonacci sphere (points, each
//!   vertex's ring, `Mesh::from_rings`).
//! * `check_par/threads_k`: `Mesh::check_par` on the 1M mesh.
//!
//! The machine's load average when the run starts goes to `facts.tsv`: on a shared machine
//! the second thread only helps when a core is free.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use layers::{CHUNK, Layer, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1_000_000;
const HEIGHT: LayerInfo<f64, VertexKind> = LayerInfo::new("height");
const SMOOTH: LayerInfo<f64, VertexKind> = LayerInfo::new("smooth");

/// The mean of `v`'s neighbours' values.
#[inline]
fn neighbour_mean(mesh: &Mesh, src: &[f64], v: usize) -> f64 {
    let (mut sum, mut k) = (0.0, 0.0);
    for w in mesh.neighbors(Vertex::new(v as u32)) {
        sum += src[w.index()];
        k += 1.0;
    }
    sum / k
}

/// One pass writing every value of `dst` from `src` in tasks of `chunk` values.
fn sweep_chunks(mesh: &Mesh, src: &[f64], dst: &mut [f64], chunk: usize) {
    dst.par_chunks_mut(chunk).enumerate().for_each(|(c, out)| {
        for (k, d) in out.iter_mut().enumerate() {
            *d = neighbour_mean(mesh, src, c * chunk + k);
        }
    });
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn scaling(c: &mut Criterion) {
    benches::alloc::record(
        "facts.tsv",
        &format!(
            "load average (1, 5, 15 min) when the scaling bench started\t{}\n",
            load_average()
        ),
    );
    let (mesh, positions) = sphere::fibonacci_sphere(N, 1.0, 0.0, 0).unwrap();
    let height = Layer::from_values(HEIGHT, positions.iter().map(|p| p.y.sin()).collect());
    let mut smooth = Layer::new(SMOOTH, N);
    let pools: Vec<(usize, rayon::ThreadPool)> = [1, 2]
        .map(|k| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .unwrap();
            (k, pool)
        })
        .into();

    let mut g = c.benchmark_group("scaling");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(N as u64));
    let mut reference: Option<Vec<f64>> = None;
    for (op, chunk) in [
        ("neighbour_sum", CHUNK),
        ("neighbour_sum_per_value", 0),
        ("neighbour_sum_64k", 1 << 16),
    ] {
        for (k, pool) in &pools {
            let id = BenchmarkId::new(format!("{op}/threads_{k}"), "1M");
            g.bench_function(id, |b| {
                b.iter(|| {
                    pool.install(|| {
                        let src = height.as_slice();
                        let dst = smooth.as_mut_slice();
                        if chunk == 0 {
                            dst.par_iter_mut()
                                .enumerate()
                                .for_each(|(v, d)| *d = neighbour_mean(&mesh, src, v));
                        } else {
                            sweep_chunks(&mesh, src, dst, chunk);
                        }
                    })
                })
            });
            // Every shape and thread count writes the same bits.
            let out = smooth.as_slice().to_vec();
            match &reference {
                None => reference = Some(out),
                Some(r) => assert!(r.iter().zip(&out).all(|(a, b)| a.to_bits() == b.to_bits())),
            }
        }
    }
    let (a, b) = (height.as_slice().to_vec(), vec![1.5; N]);
    let mut dst = vec![0.0; N];
    for (k, pool) in &pools {
        g.bench_function(
            BenchmarkId::new(format!("stream/threads_{k}"), "1M"),
            |bench| {
                bench.iter(|| {
                    pool.install(|| {
                        dst.par_chunks_mut(CHUNK)
                            .zip(a.par_chunks(CHUNK).zip(b.par_chunks(CHUNK)))
                            .for_each(|(d, (x, y))| {
                                for ((d, x), y) in d.iter_mut().zip(x).zip(y) {
                                    *d = 2.0 * x + y;
                                }
                            })
                    })
                })
            },
        );
    }
    for (k, pool) in &pools {
        g.bench_function(
            BenchmarkId::new(format!("check_par/threads_{k}"), "1M"),
            |b| b.iter(|| pool.install(|| black_box(&mesh).check_par().unwrap())),
        );
    }
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (k, pool) in &pools {
        g.bench_function(
            BenchmarkId::new(format!("fibonacci_sphere/threads_{k}"), "1M"),
            |b| {
                b.iter(|| {
                    pool.install(|| sphere::fibonacci_sphere(black_box(N), 1.0, 0.0, 0).unwrap())
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);
