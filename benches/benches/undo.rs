//! Topology undo and all cores, on a 1M-vertex Fibonacci sphere.
//!
//! * Printed: the undo log after one flip, split and collapse (target ≤ 64 KiB, against a
//!   whole mesh copy), and log bytes per edit over each sweep.
//! * `undo/{flip,split,collapse}/log_{off,on}`: edit throughput with the undo log off (must
//!   not drop against the edits before the log existed, see `edit`) and on, the log taken
//!   every 4096 edits as a history taking steps would.
//! * `undo/undo_flips`: playing a 4096-flip log back.
//! * `par/neighbour_sum/{seq,threads_1,threads_2}`: a neighbour-sum sweep writing one value
//!   per vertex slot (target: 2 threads ≥ 1.8× one thread).
//!
//! Run with `cargo bench -p benches --features rayon --bench undo`.

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use quadedge::{Edge, Mesh, PAR_CHUNK, Vertex};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 1_000_000;
/// Edits per batch for split and collapse.
const BATCH: usize = 100_000;

fn fibonacci() -> Mesh {
    let (m, _) = sphere::fibonacci_sphere(N, 1.0, 0.0, 1).expect("fibonacci sphere");
    m
}

/// Every third quad-edge in id order, cycling: a sweep with memory locality.
fn sweep_edges(m: &Mesh, n: usize) -> Vec<Edge> {
    let quads = m.quad_slots();
    (0..n)
        .map(|i| Edge::of_quad(((i * 3) % quads) as u32))
        .collect()
}

/// Bytes of the log of the first accepted edit among `edges`.
fn one_edit_log(base: &Mesh, edges: &[Edge], edit: impl Fn(&mut Mesh, Edge) -> bool) -> usize {
    let mut m = base.clone();
    m.start_undo_log().unwrap();
    for &e in edges {
        if edit(&mut m, e) {
            let mut log = m.take_undo_log().unwrap();
            log.shrink_to_fit();
            let mut back = m.clone();
            back.undo(&log).unwrap();
            assert!(back == *base);
            return log.heap_bytes();
        }
    }
    panic!("no edit accepted");
}

fn report_log_sizes(base: &Mesh) {
    let edges = sweep_edges(base, 1000);
    let flip = one_edit_log(base, &edges, |m, e| m.flip(e).is_ok());
    let split = one_edit_log(base, &edges, |m, e| m.split(e, 0.5).is_ok());
    let collapse = one_edit_log(base, &edges, |m, e| m.collapse(e, 0.5).is_ok());
    eprintln!(
        "undo log on a {}-vertex Fibonacci sphere: one flip {flip} B, one split {split} B, \
         one collapse {collapse} B; a whole mesh copy is {} B",
        base.vertex_count(),
        base.heap_bytes()
    );
    assert!(flip.max(split).max(collapse) <= 64 * 1024);
}

fn edits(c: &mut Criterion, base: &Mesh) {
    let mut g = c.benchmark_group("undo");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let flips = sweep_edges(base, 1 << 20);
    g.throughput(Throughput::Elements(1));
    for on in [false, true] {
        let mut m = base.clone();
        if on {
            m.start_undo_log().unwrap();
        }
        let (mut i, mut bytes, mut taken) = (0usize, 0usize, 0usize);
        let name = format!("flip/log_{}", if on { "on" } else { "off" });
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    let e = flips[i & (flips.len() - 1)];
                    i += 1;
                    black_box(m.flip(black_box(e)).ok());
                    // Take the log now and then, as a history taking snapshots would.
                    if on && i & 0xfff == 0 {
                        bytes += m.take_undo_log().unwrap().len() * 16;
                        taken += 0x1000;
                    }
                }
                start.elapsed()
            })
        });
        if on {
            eprintln!(
                "flip log_on: {:.0} log bytes per flip tried",
                bytes as f64 / taken.max(1) as f64
            );
        }
    }
    let splits = sweep_edges(base, BATCH);
    g.throughput(Throughput::Elements(BATCH as u64));
    for on in [false, true] {
        let name = format!("split/log_{}", if on { "on" } else { "off" });
        let mut bytes = 0;
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_batched(
                || {
                    let mut m = base.clone();
                    m.reserve(BATCH).unwrap();
                    if on {
                        m.start_undo_log().unwrap();
                    }
                    m
                },
                |mut m| {
                    bytes = 0;
                    for (i, &e) in splits.iter().enumerate() {
                        m.split(black_box(e), 0.5).unwrap();
                        if on && i & 0xfff == 0xfff {
                            bytes += m.take_undo_log().unwrap().heap_bytes();
                        }
                    }
                    m
                },
                BatchSize::PerIteration,
            )
        });
        if on {
            eprintln!(
                "split log_on: {:.0} log bytes per split",
                bytes as f64 / BATCH as f64
            );
        }
    }
    let collapses: Vec<Edge> = sweep_edges(base, 3 * BATCH);
    g.throughput(Throughput::Elements(collapses.len() as u64));
    for on in [false, true] {
        let name = format!("collapse/log_{}", if on { "on" } else { "off" });
        let (mut bytes, mut accepted) = (0, 0);
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_batched(
                || {
                    let mut m = base.clone();
                    if on {
                        m.start_undo_log().unwrap();
                    }
                    m
                },
                |mut m| {
                    (accepted, bytes) = (0, 0);
                    for (i, &e) in collapses.iter().enumerate() {
                        accepted += m.collapse(black_box(e), 0.5).is_ok() as usize;
                        if on && i & 0xfff == 0xfff {
                            bytes += m.take_undo_log().unwrap().heap_bytes();
                        }
                    }
                    m
                },
                BatchSize::PerIteration,
            )
        });
        if on {
            eprintln!(
                "collapse log_on: {accepted} of {} accepted, {:.0} log bytes per collapse tried \
                 (log taken every 4096)",
                collapses.len(),
                bytes as f64 / (collapses.len() & !0xfff) as f64
            );
        }
    }
    // Playing back a log of 4096 flips (undo then redo, so the mesh returns).
    let mut m = base.clone();
    m.start_undo_log().unwrap();
    for &e in &flips[..4096] {
        let _ = m.flip(e);
    }
    let log = m.stop_undo_log().unwrap();
    g.throughput(Throughput::Elements(4096));
    g.bench_function(BenchmarkId::from_parameter("undo_redo_4096_flips"), |b| {
        b.iter(|| {
            m.undo(&log).unwrap();
            m.redo(&log).unwrap();
        })
    });
    g.finish();
}

/// Sum of √(neighbour id) per vertex slot: a stand-in for a smoothing pass over a layer.
#[inline]
fn neighbour_sum(m: &Mesh, i: usize) -> f64 {
    let v = Vertex::new(i as u32);
    if !m.is_vertex_alive(v) {
        return 0.0;
    }
    m.neighbors(v).map(|w| (w.raw() as f64).sqrt()).sum()
}

fn parallel(c: &mut Criterion, base: &Mesh) {
    let mut g = c.benchmark_group("par/neighbour_sum");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.throughput(Throughput::Elements(base.vertex_count() as u64));
    let mut out = vec![0.0; base.vertex_slots()];
    g.bench_function(BenchmarkId::from_parameter("seq"), |b| {
        b.iter(|| {
            for (i, x) in out.iter_mut().enumerate() {
                *x = neighbour_sum(base, i);
            }
        })
    });
    let want = out.clone();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(
            BenchmarkId::from_parameter(format!("threads_{threads}")),
            |b| {
                b.iter(|| {
                    pool.install(|| {
                        out.par_iter_mut()
                            .with_min_len(PAR_CHUNK)
                            .enumerate()
                            .for_each(|(i, x)| *x = neighbour_sum(base, i))
                    })
                })
            },
        );
        assert!(
            out.iter()
                .zip(&want)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    let base = fibonacci();
    report_log_sizes(&base);
    parallel(c, &base);
    edits(c, &base);
}

criterion_group!(undo_benches, benches);
criterion_main!(undo_benches);
