//! Traversal and memory against peers, on one planar Delaunay triangulation of random points.
//!
//! Every structure holds the same triangulation: delaunator's half-edge arrays (the compact
//! triangle-and-twin layout many planet generators use), spade's DCEL, our quad-edge mesh
//! built from delaunator's triangles, and a CSR adjacency (the floor). Memory is measured with
//! a counting global allocator: bytes still allocated after construction, inputs excluded.

use benches::Csr;
use benches::alloc::{Counting, retained};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use quadedge::Mesh;
use spade::{DelaunayTriangulation, Point2, Triangulation};
use std::hint::black_box;
use std::time::Duration;

#[global_allocator]
static GLOBAL: Counting = Counting;

fn points(n: usize) -> Vec<(f64, f64)> {
    // The workspace's one deterministic test RNG.
    let mut rng = testkit::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut r = || rng.unit_f64();
    (0..n).map(|_| (r(), r())).collect()
}

/// delaunator's arrays plus the per-vertex entry half-edge its users have to add themselves.
struct HalfEdges {
    triangles: Vec<usize>,
    halfedges: Vec<usize>,
    /// Per vertex, a half-edge ending there (the first of its fan on the hull).
    inedge: Vec<usize>,
}

fn next_he(e: usize) -> usize {
    if e % 3 == 2 { e - 2 } else { e + 1 }
}

impl HalfEdges {
    fn new(n: usize, t: delaunator::Triangulation) -> Self {
        let mut inedge = vec![usize::MAX; n];
        for e in 0..t.triangles.len() {
            let v = t.triangles[next_he(e)];
            if inedge[v] == usize::MAX || t.halfedges[e] == delaunator::EMPTY {
                inedge[v] = e;
            }
        }
        HalfEdges {
            triangles: t.triangles,
            halfedges: t.halfedges,
            inedge,
        }
    }

    fn sweep(&self) -> u64 {
        let mut sum = 0u64;
        for &start in &self.inedge {
            if start == usize::MAX {
                continue;
            }
            let mut e = start;
            loop {
                sum += self.triangles[e] as u64;
                let out = next_he(e);
                let twin = self.halfedges[out];
                if twin == delaunator::EMPTY {
                    sum += self.triangles[next_he(out)] as u64;
                    break;
                }
                e = twin;
                if e == start {
                    break;
                }
            }
        }
        sum
    }
}

/// Sum over every vertex of its neighbours' ids, through spade's handles.
fn spade_sweep(t: &DelaunayTriangulation<Point2<f64>>) -> u64 {
    let mut sum = 0u64;
    for v in t.vertices() {
        for e in v.out_edges() {
            sum += e.to().fix().index() as u64;
        }
    }
    sum
}

fn traversal(c: &mut Criterion) {
    let mut g = c.benchmark_group("traversal_planar");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let mut mem = String::new();
    for (name, n) in [("10k", 10_000usize), ("100k", 100_000), ("1M", 1_000_000)] {
        let pts = points(n);
        let dpts: Vec<delaunator::Point> = pts
            .iter()
            .map(|&(x, y)| delaunator::Point { x, y })
            .collect();
        let (tri, tri_bytes) = retained(|| delaunator::triangulate(&dpts));
        let tris: Vec<[u32; 3]> = tri
            .triangles
            .chunks(3)
            .map(|c| [c[0] as u32, c[2] as u32, c[1] as u32])
            .collect();
        let (mesh, qe_bytes) = retained(|| {
            let mut m = Mesh::from_triangles(n, &tris).expect("delaunator output is a valid mesh");
            m.shrink_to_fit();
            m
        });
        let (csr, csr_bytes) = retained(|| Csr::from_triangles(n, &tris));
        let (he, he_bytes) = retained(|| HalfEdges::new(n, tri));
        let spade_pts: Vec<Point2<f64>> = pts.iter().map(|&(x, y)| Point2::new(x, y)).collect();
        let (sp_stable, _) = retained(|| {
            DelaunayTriangulation::<Point2<f64>>::bulk_load_stable(spade_pts.clone())
                .expect("valid points")
        });
        let (sp, sp_bytes) = retained(|| {
            DelaunayTriangulation::<Point2<f64>>::bulk_load(spade_pts).expect("valid points")
        });
        // spade's `bulk_load` renumbers the vertices in its insertion order (sorted around the
        // centre), which gives its sweep memory locality the input order lacks. The same mesh
        // with spade's numbering shows what that order is worth to the quad-edge arrays.
        let spade_tris: Vec<[u32; 3]> = sp
            .inner_faces()
            .map(|f| f.vertices().map(|v| v.fix().index() as u32))
            .collect();
        let mesh_spade_order =
            Mesh::from_triangles(n, &spade_tris).expect("spade output is a valid mesh");
        for (s, b) in [
            ("quadedge", qe_bytes),
            ("csr", csr_bytes),
            ("delaunator half-edges", tri_bytes + he_bytes),
            ("spade", sp_bytes),
        ] {
            mem.push_str(&format!("{s}\t{name}\t{:.1}\n", b as f64 / n as f64));
        }
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("quadedge", name), |b| {
            b.iter(|| benches::quadedge_sweep(black_box(&mesh)))
        });
        g.bench_function(BenchmarkId::new("quadedge_spade_order", name), |b| {
            b.iter(|| benches::quadedge_sweep(black_box(&mesh_spade_order)))
        });
        g.bench_function(BenchmarkId::new("csr", name), |b| {
            b.iter(|| black_box(&csr).sweep())
        });
        g.bench_function(BenchmarkId::new("delaunator_halfedges", name), |b| {
            b.iter(|| black_box(&he).sweep())
        });
        g.bench_function(BenchmarkId::new("spade", name), |b| {
            b.iter(|| spade_sweep(black_box(&sp)))
        });
        g.bench_function(BenchmarkId::new("spade_stable_order", name), |b| {
            b.iter(|| spade_sweep(black_box(&sp_stable)))
        });
    }
    g.finish();
    benches::alloc::record("memory.tsv", &mem);
}

criterion_group!(benches, traversal);
criterion_main!(benches);
