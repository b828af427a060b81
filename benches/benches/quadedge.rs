//! Construction and traversal of the quad-edge mesh against a CSR adjacency floor, and the
//! builders a sphere triangulator can feed (neighbour rings, triangles with twins).

use benches::{Csr, SIZES, closed_mesh, quadedge_sweep};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use quadedge::{Face, Mesh, Vertex};
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

/// Each vertex's neighbours counter-clockwise, back to back: `(offsets, neighbours)`.
fn rings_of(m: &Mesh) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32];
    let mut flat = Vec::with_capacity(m.directed_edge_count());
    for v in m.vertices() {
        flat.extend(m.neighbors(v).map(Vertex::raw));
        offsets.push(flat.len() as u32);
    }
    (offsets, flat)
}

/// The faces of a closed mesh as triangles, and each half-edge's twin (`3f + k` runs along
/// the `k`-th edge of face `f`).
fn triangles_and_twins(m: &Mesh) -> (Vec<[u32; 3]>, Vec<u32>) {
    let nf = m.face_count();
    let mut half_edge_of = vec![u32::MAX; m.directed_edge_count()];
    let mut tris = Vec::with_capacity(nf);
    for f in 0..nf as u32 {
        let f = Face::new(f);
        tris.push(m.face_vertices(f).map(Vertex::raw));
        for (k, e) in m.face_edges(f).into_iter().enumerate() {
            half_edge_of[e.index()] = 3 * f.raw() + k as u32;
        }
    }
    let twins = (0..3 * nf)
        .map(|h| {
            let e = m.face_edges(Face::new((h / 3) as u32))[h % 3];
            half_edge_of[e.sym().index()]
        })
        .collect();
    (tris, twins)
}

/// A 1M-vertex Fibonacci sphere rebuilt from its neighbour rings and from its triangles and
/// twins: the two inputs a sphere triangulator can produce.
fn from_rings(c: &mut Criterion) {
    let mut g = c.benchmark_group("from_rings");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let n = 1_000_000;
    let (sphere, _) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).expect("a Fibonacci sphere");
    let (offsets, flat) = rings_of(&sphere);
    let ring = |v: u32| &flat[offsets[v as usize] as usize..offsets[v as usize + 1] as usize];
    let rebuilt = Mesh::from_rings(n, ring).expect("the rings of a closed mesh");
    assert_eq!(rings_of(&rebuilt), (offsets.clone(), flat.clone()));
    let (tris, twins) = triangles_and_twins(&sphere);
    let twinned = Mesh::from_half_edges(n, &tris, &twins).expect("a closed mesh");
    assert_eq!(rings_of(&twinned).1.len(), flat.len());
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::new("from_rings", "1M"), |b| {
        b.iter(|| Mesh::from_rings(n, black_box(ring)).unwrap())
    });
    g.bench_function(BenchmarkId::new("from_half_edges", "1M"), |b| {
        b.iter(|| Mesh::from_half_edges(n, black_box(&tris), black_box(&twins)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, build, sweep, from_rings);
criterion_main!(benches);
