//! Edit throughput on a ~1M-vertex closed mesh: flip, split and collapse (with its link check),
//! journal off and on, and `compact()` after 10% of the elements died.
//!
//! Targets (single-threaded): flip ≥ 10 M/s, split ≥ 5 M/s, collapse ≥ 2 M/s; the journal
//! costs at most 30%.
//!
//! Two edge orders: `sweep` visits quad-edges in id order (the memory locality of a pass over
//! the mesh), `random` picks them uniformly, where every operation waits on several cache and
//! TLB misses in the ~100 MB of arrays and throughput is bound by memory latency.

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use quadedge::{Edge, Mesh, Vertex, shapes};
use std::hint::black_box;
use std::time::{Duration, Instant};
use testkit::Rng;

/// Geodesic grid of frequency 316: 998 562 vertices, 1 996 920 faces.
const FREQUENCY: u32 = 316;
/// Operations per batch for split and compact setups.
const BATCH: usize = 200_000;

fn base_mesh() -> Mesh {
    let (n, tris) = shapes::icosahedron_grid(FREQUENCY);
    Mesh::from_triangles(n, &tris).unwrap()
}

/// Random primal edges of live quad-edges (random direction).
fn random_edges(m: &Mesh, n: usize, seed: u64) -> Vec<Edge> {
    let mut rng = Rng::new(seed);
    let quads = m.quad_slots();
    (0..n)
        .map(|_| {
            let e = Edge::of_quad(rng.below(quads) as u32);
            if rng.next_u64() & 1 == 0 { e } else { e.sym() }
        })
        .collect()
}

/// Every `step`-th quad-edge in id order (a sweep with memory locality), `n` of them, cycling.
fn sweep_edges(m: &Mesh, n: usize) -> Vec<Edge> {
    let quads = m.quad_slots();
    (0..n)
        .map(|i| Edge::of_quad(((i * 3) % quads) as u32))
        .collect()
}

/// Edges whose closed neighbourhoods are pairwise disjoint: each collapse succeeds whatever
/// the others did.
fn independent_edges(m: &Mesh, seed: u64) -> Vec<Edge> {
    let mut rng = Rng::new(seed);
    let mut marked = vec![false; m.vertex_slots()];
    let mut out = Vec::new();
    let quads = m.quad_slots();
    for _ in 0..4 * quads {
        let e = Edge::of_quad(rng.below(quads) as u32);
        let (a, b) = (m.origin(e), m.dest(e));
        let hood = || {
            [a, b]
                .into_iter()
                .chain(m.neighbors(a))
                .chain(m.neighbors(b))
        };
        if hood().any(|x: Vertex| marked[x.index()]) {
            continue;
        }
        for x in hood() {
            marked[x.index()] = true;
        }
        out.push(e);
    }
    out
}

fn flip(c: &mut Criterion, base: &Mesh) {
    let mut g = c.benchmark_group("edit/flip");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.throughput(Throughput::Elements(1));
    let random = random_edges(base, 1 << 22, 1);
    let sweep = sweep_edges(base, 1 << 22);
    for (order, edges, journal) in [
        ("random", &random, false),
        ("random", &random, true),
        ("sweep", &sweep, false),
        ("sweep", &sweep, true),
    ] {
        let mut m = base.clone();
        let rec = journal.then(|| m.record_changes().unwrap());
        let mut i = 0usize;
        let mut ok = 0u64;
        let mut tried = 0u64;
        let name = format!(
            "{order}/{}",
            if journal { "journal_on" } else { "journal_off" }
        );
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    let e = edges[i & (edges.len() - 1)];
                    i += 1;
                    ok += m.flip(black_box(e)).is_ok() as u64;
                    // Drain the journal as a layer would, now and then.
                    if let Some(rec) = rec.as_ref().filter(|_| i & 0xffff == 0) {
                        black_box(m.take_changes(rec).ok());
                    }
                }
                tried += iters;
                start.elapsed()
            })
        });
        eprintln!(
            "flip {name}: {:.1}% of {tried} flips accepted",
            100.0 * ok as f64 / tried.max(1) as f64
        );
        m.check().unwrap();
    }
    g.finish();
}

fn split(c: &mut Criterion, base: &Mesh) {
    let mut g = c.benchmark_group("edit/split");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.throughput(Throughput::Elements(BATCH as u64));
    let random = random_edges(base, BATCH, 2);
    let sweep = sweep_edges(base, BATCH);
    for (order, edges, journal) in [
        ("random", &random, false),
        ("random", &random, true),
        ("sweep", &sweep, false),
        ("sweep", &sweep, true),
    ] {
        let name = format!(
            "{order}/{}",
            if journal { "journal_on" } else { "journal_off" }
        );
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_batched(
                || {
                    let mut m = base.clone();
                    m.reserve(BATCH).expect("reserve");
                    if journal {
                        let _rec = m.record_changes().unwrap();
                    }
                    m
                },
                |mut m| {
                    for &e in edges.iter() {
                        m.split(black_box(e), 0.5).unwrap();
                    }
                    m
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

fn collapse(c: &mut Criterion, base: &Mesh) {
    let mut g = c.benchmark_group("edit/collapse");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let random = independent_edges(base, 3);
    let mut sweep = random.clone();
    sweep.sort();
    eprintln!("collapse: {} independent edges per batch", random.len());
    g.throughput(Throughput::Elements(random.len() as u64));
    for (order, edges, journal) in [
        ("random", &random, false),
        ("random", &random, true),
        ("sweep", &sweep, false),
        ("sweep", &sweep, true),
    ] {
        let name = format!(
            "{order}/{}",
            if journal { "journal_on" } else { "journal_off" }
        );
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_batched(
                || {
                    let mut m = base.clone();
                    if journal {
                        let _rec = m.record_changes().unwrap();
                    }
                    m
                },
                |mut m| {
                    for &e in edges.iter() {
                        m.collapse(black_box(e), 0.5).unwrap();
                    }
                    m
                },
                BatchSize::PerIteration,
            )
        });
    }
    // Random edges: a mix of accepted collapses and link-condition rejections.
    let random = random_edges(base, BATCH, 4);
    let mut accepted = 0usize;
    g.throughput(Throughput::Elements(random.len() as u64));
    g.bench_function(BenchmarkId::from_parameter("random_attempts"), |b| {
        b.iter_batched(
            || base.clone(),
            |mut m| {
                accepted = 0;
                for &e in &random {
                    accepted += m.collapse(black_box(e), 0.5).is_ok() as usize;
                }
                m
            },
            BatchSize::PerIteration,
        )
    });
    eprintln!(
        "collapse random_attempts: {accepted} of {} accepted",
        random.len()
    );
    g.finish();
}

fn compact(c: &mut Criterion, base: &Mesh) {
    let mut g = c.benchmark_group("edit/compact");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    // Kill 10% of the vertices (and with them 10% of the faces and quad-edges) by collapses.
    let mut dead = base.clone();
    let target = base.vertex_count() / 10;
    let mut rng = Rng::new(5);
    let mut removed = 0;
    while removed < target {
        let e = Edge::of_quad(rng.below(dead.quad_slots()) as u32);
        removed += dead.collapse(e, 0.5).is_ok() as usize;
    }
    eprintln!(
        "compact: {} of {} vertex slots, {} of {} faces, {} of {} quad-edges alive",
        dead.vertex_count(),
        dead.vertex_slots(),
        dead.face_count(),
        dead.face_slots(),
        dead.undirected_edge_count(),
        dead.quad_slots()
    );
    g.throughput(Throughput::Elements(
        (dead.vertex_slots() + dead.face_slots() + dead.quad_slots()) as u64,
    ));
    for journal in [false, true] {
        let name = if journal { "journal_on" } else { "journal_off" };
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_batched(
                || {
                    let mut m = dead.clone();
                    if journal {
                        let _rec = m.record_changes().unwrap();
                    }
                    m
                },
                |mut m| {
                    black_box(m.compact());
                    m
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

fn edits(c: &mut Criterion) {
    let base = base_mesh();
    flip(c, &base);
    split(c, &base);
    collapse(c, &base);
    compact(c, &base);
}

criterion_group!(benches, edits);
criterion_main!(benches);
