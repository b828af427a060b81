//! Locality: the neighbour sweep on a 1M random-point sphere mesh in input order, after
//! Hilbert reordering, and on the Fibonacci-ordered mesh; the frozen mesh against the CSR
//! floor on the same reordered mesh; the cost of ordering, reordering and freezing, and of
//! random points to mesh (`sphere_mesh_hilbert` against `sphere_mesh`).

use benches::{Csr, quadedge_sweep};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
use quadedge::{FrozenMesh, Mesh, Topology, Vertex};
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 1_000_000;

/// `n` uniform random directions: points drawn in the cube by a fixed xorshift, kept inside
/// the unit ball, projected onto the sphere.
fn random_points(n: usize) -> Vec<DVec3> {
    let mut rng = testkit::Rng::new(0x2545_F491_4F6C_DD1D);
    let mut r = || rng.unit_f64() * 2.0 - 1.0;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = DVec3::new(r(), r(), r());
        let l = p.length_squared();
        if l > 1e-6 && l <= 1.0 {
            out.push(p / l.sqrt());
        }
    }
    out
}

/// A random permutation of `0..n` (Fisher–Yates on a fixed xorshift).
fn permutation(n: usize) -> Vec<u32> {
    let mut rng = testkit::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i + 1));
    }
    p
}

/// Sum over every vertex of its neighbours' ids, through the frozen rings.
fn frozen_sweep(f: &FrozenMesh) -> u64 {
    let mut sum = 0u64;
    for v in 0..f.vertex_count() as u32 {
        for w in f.neighbors(Vertex::new(v)) {
            sum += w.raw() as u64;
        }
    }
    sum
}

/// The same sweep written against the shared trait (what generic algorithms pay).
fn topology_sweep(t: &impl Topology) -> u64 {
    let mut sum = 0u64;
    for v in t.vertices() {
        for w in t.neighbors(v) {
            sum += w.raw() as u64;
        }
    }
    sum
}

/// Sum over every vertex of the ids of the faces around it (the dual: Voronoi corners).
fn faces_around_sweep(t: &impl Topology) -> u64 {
    let mut sum = 0u64;
    for v in t.vertices() {
        for f in t.vertex_faces(v) {
            sum += f.raw() as u64;
        }
    }
    sum
}

fn triangles(m: &Mesh) -> Vec<[u32; 3]> {
    m.faces()
        .map(|f| m.face_vertices(f).map(Vertex::raw))
        .collect()
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    eprintln!("{what}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    out
}

fn locality(c: &mut Criterion) {
    let points = random_points(N);
    let (random, _) = timed("random points → mesh (input order)", || {
        sphere::sphere_mesh(&points).unwrap()
    });
    let order = timed("hilbert_order_sphere", || {
        sphere::internals::hilbert_order_sphere(&points)
    });
    let mut hilbert = random.clone();
    timed("reorder_vertices", || {
        hilbert.reorder_vertices(&order).unwrap()
    });
    let (sorted_build, _, _) = timed("sphere_mesh_hilbert (sort, then points → mesh)", || {
        sphere::sphere_mesh_hilbert(&points).unwrap()
    });
    let (fibonacci, fib_points) = sphere::fibonacci_sphere(N, 1.0, 0.0, 0).unwrap();
    // The same lattice with its ids shuffled, then put back in order by the Hilbert curve:
    // the same degrees as the Fibonacci mesh, so only the order differs.
    let shuffle = permutation(N);
    let mut fib_shuffled = fibonacci.clone();
    fib_shuffled.reorder_vertices(&shuffle).unwrap();
    let mut fib_hilbert = fib_shuffled.clone();
    let shuffled_points: Vec<DVec3> = shuffle.iter().map(|&i| fib_points[i as usize]).collect();
    fib_hilbert
        .reorder_vertices(&sphere::internals::hilbert_order_sphere(&shuffled_points))
        .unwrap();
    let frozen = timed("freeze", || FrozenMesh::freeze(&hilbert).unwrap());
    let csr = Csr::from_triangles(N, &triangles(&hilbert));
    let expected = csr.sweep();
    // The lattice in sweep order (identity) to freeze it, and its CSR: the regular-degree floor.
    let mut fib_sweep = fibonacci.clone();
    let identity: Vec<u32> = (0..N as u32).collect();
    fib_sweep.reorder_vertices(&identity).unwrap();
    let fib_frozen = FrozenMesh::freeze(&fib_sweep).unwrap();
    let fib_csr = Csr::from_triangles(N, &triangles(&fibonacci));
    assert_eq!(frozen_sweep(&fib_frozen), fib_csr.sweep());
    assert_eq!(quadedge_sweep(&hilbert), expected);
    assert_eq!(frozen_sweep(&frozen), expected);
    assert_eq!(topology_sweep(&frozen), expected);
    for (name, bytes) in [
        ("mesh", hilbert.heap_bytes()),
        ("frozen", frozen.heap_bytes()),
        ("csr", csr.heap_bytes()),
    ] {
        eprintln!("{name}: {:.1} bytes/vertex", bytes as f64 / N as f64);
    }

    let mut g = c.benchmark_group("locality_sweep_1M");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(N as u64));
    for (name, m) in [
        ("random_input_order", &random),
        ("hilbert_reordered", &hilbert),
        ("hilbert_sorted_points", &sorted_build),
        ("fibonacci_order", &fibonacci),
        ("fibonacci_shuffled", &fib_shuffled),
        ("fibonacci_shuffled_hilbert", &fib_hilbert),
    ] {
        g.bench_function(BenchmarkId::new("quadedge", name), |b| {
            b.iter(|| quadedge_sweep(black_box(m)))
        });
    }
    g.bench_function(BenchmarkId::new("frozen", "hilbert_reordered"), |b| {
        b.iter(|| frozen_sweep(black_box(&frozen)))
    });
    g.bench_function(
        BenchmarkId::new("frozen_via_trait", "hilbert_reordered"),
        |b| b.iter(|| topology_sweep(black_box(&frozen))),
    );
    g.bench_function(BenchmarkId::new("csr", "hilbert_reordered"), |b| {
        b.iter(|| black_box(&csr).sweep())
    });
    assert_eq!(faces_around_sweep(&frozen), faces_around_sweep(&hilbert));
    g.bench_function(
        BenchmarkId::new("faces_around_mesh", "hilbert_reordered"),
        |b| b.iter(|| faces_around_sweep(black_box(&hilbert))),
    );
    g.bench_function(
        BenchmarkId::new("faces_around_frozen", "hilbert_reordered"),
        |b| b.iter(|| faces_around_sweep(black_box(&frozen))),
    );
    g.bench_function(BenchmarkId::new("frozen", "fibonacci_order"), |b| {
        b.iter(|| frozen_sweep(black_box(&fib_frozen)))
    });
    g.bench_function(BenchmarkId::new("csr", "fibonacci_order"), |b| {
        b.iter(|| black_box(&fib_csr).sweep())
    });
    g.finish();

    let mut g = c.benchmark_group("locality_build_1M");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("hilbert_order_sphere", |b| {
        b.iter(|| sphere::internals::hilbert_order_sphere(black_box(&points)))
    });
    // Points to mesh, the target (≤ 0.6 s at 1M): sorted along the Hilbert curve
    // first (ids in spatial order, original index returned), and in input order.
    g.bench_function("sphere_mesh_hilbert", |b| {
        b.iter(|| sphere::sphere_mesh_hilbert(black_box(&points)).unwrap())
    });
    g.bench_function("sphere_mesh_input_order", |b| {
        b.iter(|| sphere::sphere_mesh(black_box(&points)).unwrap())
    });
    g.bench_function("reorder_vertices", |b| {
        b.iter_batched(
            || random.clone(),
            |mut m| m.reorder_vertices(&order).unwrap(),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("mesh_check", |b| {
        b.iter(|| black_box(&hilbert).check().unwrap())
    });
    g.bench_function("freeze", |b| {
        b.iter(|| FrozenMesh::freeze(black_box(&hilbert)).unwrap())
    });
    g.bench_function("thaw", |b| b.iter(|| black_box(&frozen).thaw().unwrap()));
    g.bench_function("frozen_check", |b| {
        b.iter(|| black_box(&frozen).check().unwrap())
    });
    g.finish();
}

criterion_group!(benches, locality);
criterion_main!(benches);
