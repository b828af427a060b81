//! The global validity check: `delaunay::is_delaunay` on a 1M-vertex Fibonacci planet (faces
//! oriented, every edge locally Delaunay, and since issue 21 the faces cover the sphere once),
//! and `delaunay::delaunay_report` on the same mesh, beside `local_only`: the same face and edge
//! loops without the covering count (the check as it was before), so the covering's cost is a
//! same-run ratio. Figures: `docs/benchmark-notes.md`, section "Global validity".

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use delaunay::{Sphere, Surface, delaunay_report, is_delaunay};
use glam::DVec3;
use quadedge::{Edge, Mesh};
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 1_000_000;

/// The check as it was before the covering count (issue 21), line for line with the crate's
/// loops (first face violation, else the least non-Delaunay edge): the same-run baseline.
fn local_only(mesh: &Mesh, pos: &[DVec3]) -> Result<(), Edge> {
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        if mesh.face_neighbors(f).iter().any(|g| !g.is_valid()) {
            return Err(Edge::INVALID);
        }
        let [a, b, c] = corners.map(|v| pos[v.index()]);
        if !(a.is_finite() && b.is_finite() && c.is_finite()) || Sphere.orient(a, b, c) < 0.0 {
            return Err(Edge::INVALID);
        }
    }
    let mut least: Option<Edge> = None;
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        for (k, g) in mesh.face_neighbors(f).into_iter().enumerate() {
            if !g.is_valid() || g <= f {
                continue;
            }
            let (a, b, c) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            let Some(d) = mesh
                .face_vertices(g)
                .into_iter()
                .find(|&x| x != a && x != b)
            else {
                continue;
            };
            let [pa, pb, pc, pd] = [a, b, c, d].map(|v| pos[v.index()]);
            if !(pa + pb + pc + pd).is_finite() {
                return Err(Edge::INVALID);
            }
            if Sphere.in_circle(pa, pb, pc, pd) > 0.0 {
                let e = mesh.find_edge(a, b).map_or(Edge::INVALID, Edge::base);
                least = Some(least.map_or(e, |l| l.min(e)));
            }
        }
    }
    least.map_or(Ok(()), Err)
}

/// Interleaved best of `rounds` of the baseline and of `is_delaunay`, printed with the ratio.
fn compare(label: &str, mesh: &Mesh, pos: &[DVec3], rounds: usize) {
    let (mut best_local, mut best_full) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(local_only(mesh, pos)).unwrap();
        best_local = best_local.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(is_delaunay(&Sphere, mesh, pos)).unwrap();
        best_full = best_full.min(t.elapsed().as_secs_f64());
    }
    println!(
        "validity {label}: local_only {:.2} ms, is_delaunay {:.2} ms (best of {rounds}, interleaved): {:+.1}%",
        best_local * 1e3,
        best_full * 1e3,
        (best_full / best_local - 1.0) * 100.0
    );
}

fn validity(c: &mut Criterion) {
    let mut g = c.benchmark_group("validity");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(4));
    let (mesh, pos) = sphere::fibonacci_sphere(N, 1.0, 0.3, 1).unwrap();
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("is_delaunay", |b| {
        b.iter(|| black_box(is_delaunay(&Sphere, &mesh, &pos)))
    });
    for n in [10_000usize, 100_000] {
        let (m, p) = sphere::fibonacci_sphere(n, 1.0, 0.3, 1).unwrap();
        compare(&format!("at {n}"), &m, &p, 41);
    }
    compare(&format!("at {N}"), &mesh, &pos, 9);
    g.bench_function("local_only", |b| {
        b.iter(|| black_box(local_only(&mesh, &pos)))
    });
    g.bench_function("delaunay_report", |b| {
        b.iter(|| black_box(delaunay_report(&Sphere, &mesh, &pos).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, validity);
criterion_main!(benches);
