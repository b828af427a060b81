//! Construction and traversal of the quad-edge mesh against a CSR adjacency floor.

use benches::{Csr, SIZES, closed_mesh, quadedge_sweep};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use quadedge::{Mesh, Vertex};
use std::hint::black_box;
use std::time::Duration;

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("build");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, k) in SIZES {
        let (n, tris) = closed_mesh(k);
        g.throughput(Throughput::Elements(tris.len() as u64));
        g.bench_with_input(BenchmarkId::new("from_triangles", name), &tris, |b, t| {
            b.iter(|| Mesh::from_triangles(n, black_box(t)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("add_face", name), &tris, |b, t| {
            b.iter(|| {
                let mut m = Mesh::with_capacity(n).expect("capacity");
                m.add_vertices(n).unwrap();
                for tri in t {
                    m.add_face(
                        Vertex::new(tri[0]),
                        Vertex::new(tri[1]),
                        Vertex::new(tri[2]),
                    )
                    .unwrap();
                }
                m
            })
        });
        g.bench_with_input(BenchmarkId::new("csr_build", name), &tris, |b, t| {
            b.iter(|| Csr::from_triangles(n, black_box(t)))
        });
    }
    g.finish();
}

fn sweep(c: &mut Criterion) {
    let mut g = c.benchmark_group("neighbor_sweep");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, k) in SIZES {
        let (n, tris) = closed_mesh(k);
        let m = Mesh::from_triangles(n, &tris).unwrap();
        let csr = Csr::from_triangles(n, &tris);
        assert_eq!(quadedge_sweep(&m), csr.sweep());
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("quadedge", name), |b| {
            b.iter(|| quadedge_sweep(black_box(&m)))
        });
        g.bench_function(BenchmarkId::new("csr", name), |b| {
            b.iter(|| black_box(&csr).sweep())
        });
    }
    g.finish();
}

criterion_group!(benches, build, sweep);
criterion_main!(benches);
