//! The global validity check: `delaunay::is_delaunay` on a 1M-vertex Fibonacci planet (faces
//! oriented, every edge locally Delaunay, and since issue 21 the faces cover the sphere once),
//! and `delaunay::delaunay_report` on the same mesh, beside `local_only`: the same face and edge
//! loops without the covering count (the check as it was before), so the covering's cost is a
//! same-run ratio. Figures: `docs/benchmark-notes.md`, section "Global validity".

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use delaunay::{Sphere, Surface, delaunay_report, is_delaunay};
use glam::DVec3;
use quadedge::{Mesh, Topology};
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 1_000_000;

/// The local conditions only, with the loops of `is_delaunay` (orientation of every face, the
/// circle test of every interior edge once): the baseline the covering count is added to.
fn local_only(mesh: &Mesh, pos: &[DVec3]) -> bool {
    for f in mesh.faces() {
        if mesh.face_neighbors(f).iter().any(|g| !g.is_valid()) {
            return false;
        }
        let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
        if !(a + b + c).is_finite() || Sphere.orient(a, b, c) <= 0.0 {
            return false;
        }
    }
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        for (k, g) in mesh.face_neighbors(f).into_iter().enumerate() {
            if g <= f {
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
            if !(pa + pb + pc + pd).is_finite() || Sphere.in_circle(pa, pb, pc, pd) > 0.0 {
                return false;
            }
        }
    }
    true
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
    assert!(local_only(&mesh, &pos));
    // Interleaved, best of seven: on a shared machine the minimum is the figure to compare.
    let (mut best_local, mut best_full) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..7 {
        let t = Instant::now();
        black_box(local_only(&mesh, &pos));
        best_local = best_local.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(is_delaunay(&Sphere, &mesh, &pos)).unwrap();
        best_full = best_full.min(t.elapsed().as_secs_f64());
    }
    println!(
        "validity at {N}: local_only {:.1} ms, is_delaunay {:.1} ms (best of 7, interleaved): {:+.1}%",
        best_local * 1e3,
        best_full * 1e3,
        (best_full / best_local - 1.0) * 100.0
    );
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
