//! Construction, edit throughput and memory against a peer, on one closed triangulation.
//!
//! The triangulation is the Fibonacci sphere (`sphere::fibonacci_sphere`, unit radius, no
//! perturbation) at 10k, 100k and 1M vertices; its triangles are the index buffer every structure
//! is built from, its points the positions the peer stores.
//!
//! Peer: `tri-mesh` 0.6 (half-edge mesh with `flip_edge`, `split_edge`, `collapse_edge`).
//!
//! Edits run over one list of edges chosen up front as vertex pairs: every 7th edge of the
//! mesh, kept when its closed neighbourhood (both ends and their neighbours) is disjoint from
//! the ones already kept, so each operation meets the same local configuration in every
//! structure whatever the others did. Each sample edits a fresh clone (cloning is not timed).
//! Throughput is reported per operation.
//!
//! Memory: heap bytes each structure keeps after construction, per vertex, appended to
//! `target/criterion/memory.tsv` as `structure\tn\tbytes_per_vertex`.

use benches::alloc::{Counting, record, retained};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use quadedge::{Edge, Mesh, Vertex};
use std::hint::black_box;
use std::time::{Duration, Instant};
use three_d_asset::{Indices, Positions, TriMesh};

#[global_allocator]
static A: Counting = Counting;

/// Vertex counts measured.
const SIZES: [(&str, usize); 3] = [("10k", 10_000), ("100k", 100_000), ("1M", 1_000_000)];
/// Stride through the quad-edges when choosing the edit edges.
const STRIDE: usize = 7;

/// The shared input: vertex count, triangles, positions on the unit sphere.
struct Input {
    n: usize,
    tris: Vec<[u32; 3]>,
    positions: Vec<tri_mesh::Vector3<f64>>,
}

fn input(n: usize) -> Input {
    let (m, p) = sphere::fibonacci_sphere(n, 1.0, 0.0, 1).expect("fibonacci sphere");
    let tris = m
        .faces()
        .map(|f| m.face_vertices(f).map(|v| v.raw()))
        .collect();
    let positions = p
        .iter()
        .map(|q| tri_mesh::Vector3::new(q.x, q.y, q.z))
        .collect();
    Input { n, tris, positions }
}

fn ours(inp: &Input) -> Mesh {
    Mesh::from_triangles(inp.n, &inp.tris).expect("valid triangulation")
}

/// An order of `tris` that `add_face` accepts one by one: faces refused because a vertex
/// already joins several unconnected fans are retried after the others (found once, untimed).
fn add_face_order(inp: &Input) -> Vec<[u32; 3]> {
    let mut m = Mesh::new();
    m.add_vertices(inp.n).expect("vertices");
    let mut order = Vec::with_capacity(inp.tris.len());
    let mut todo = inp.tris.clone();
    while !todo.is_empty() {
        let (mut later, before) = (Vec::new(), order.len());
        for t in todo {
            match m.add_face(Vertex::new(t[0]), Vertex::new(t[1]), Vertex::new(t[2])) {
                Ok(_) => order.push(t),
                Err(quadedge::MeshError::AmbiguousFan(_)) => later.push(t),
                Err(e) => panic!("face {t:?}: {e}"),
            }
        }
        assert!(order.len() > before, "add_face order: no progress");
        todo = later;
    }
    order
}

fn ours_add_face(n: usize, order: &[[u32; 3]]) -> Mesh {
    let mut m = Mesh::new();
    m.add_vertices(n).expect("vertices");
    for t in order {
        m.add_face(Vertex::new(t[0]), Vertex::new(t[1]), Vertex::new(t[2]))
            .expect("face");
    }
    m
}

fn index_buffer(inp: &Input) -> TriMesh {
    TriMesh {
        positions: Positions::F64(inp.positions.clone()),
        indices: Indices::U32(inp.tris.iter().flatten().copied().collect()),
        ..Default::default()
    }
}

/// tri-mesh vertex ids by our vertex index (its ids deref to the input index).
fn peer_vertices(p: &tri_mesh::Mesh) -> Vec<tri_mesh::VertexID> {
    let mut ids: Vec<_> = p.vertex_iter().collect();
    ids.sort_by_key(|v| **v);
    for (i, v) in ids.iter().enumerate() {
        assert_eq!(**v as usize, i, "tri-mesh renumbered vertices");
    }
    ids
}

/// Vertex pairs of edges with pairwise disjoint closed neighbourhoods.
fn edit_pairs(m: &Mesh) -> Vec<(Vertex, Vertex)> {
    let mut marked = vec![false; m.vertex_slots()];
    let mut out = Vec::new();
    for e in m.undirected_edges().step_by(STRIDE) {
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
        out.push((a, b));
    }
    out
}

/// Times `op` over a fresh clone of `base` per sample, cloning untimed.
fn timed<M: Clone>(base: &M, iters: u64, op: impl FnMut(&mut M)) -> Duration {
    timed_after(base, iters, |_| {}, op)
}

/// [`timed`] with an untimed preparation of each clone.
fn timed_after<M: Clone>(
    base: &M,
    iters: u64,
    mut prep: impl FnMut(&mut M),
    mut op: impl FnMut(&mut M),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let mut m = base.clone();
        prep(&mut m);
        let t = Instant::now();
        op(&mut m);
        total += t.elapsed();
        drop(black_box(m));
    }
    total
}

fn construct(c: &mut Criterion, sized: &[(&str, Input)]) {
    let mut g = c.benchmark_group("edit_peers/construct");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let mut mem = String::new();
    for (name, inp) in sized {
        g.throughput(Throughput::Elements(inp.tris.len() as u64));
        let buf = index_buffer(inp);
        let order = add_face_order(inp);
        g.bench_function(BenchmarkId::new("quadedge_from_triangles", name), |b| {
            b.iter(|| ours(black_box(inp)))
        });
        g.bench_function(BenchmarkId::new("quadedge_add_face", name), |b| {
            b.iter(|| ours_add_face(inp.n, black_box(&order)))
        });
        g.bench_function(BenchmarkId::new("tri_mesh", name), |b| {
            b.iter(|| tri_mesh::Mesh::new(black_box(&buf)))
        });
        let per_vertex = |bytes: isize| bytes as f64 / inp.n as f64;
        let (m, b1) = retained(|| ours(inp));
        drop(m);
        let (m, b2) = retained(|| ours_add_face(inp.n, &order));
        drop(m);
        let (p, b3) = retained(|| tri_mesh::Mesh::new(&buf));
        drop(p);
        for (s, b) in [
            ("quadedge_from_triangles", b1),
            ("quadedge_add_face", b2),
            ("tri_mesh", b3),
        ] {
            mem.push_str(&format!("{s}\t{}\t{:.1}\n", inp.n, per_vertex(b)));
        }
    }
    g.finish();
    eprint!("{mem}");
    record("memory.tsv", &mem);
}

/// The edit edges resolved in each structure.
struct Edits {
    ours: Vec<Edge>,
    peer: Vec<tri_mesh::HalfEdgeID>,
    /// Midpoints for the peer's split (ours carries no positions).
    mid: Vec<tri_mesh::Vector3<f64>>,
}

fn edits(inp: &Input, m: &Mesh, p: &tri_mesh::Mesh) -> Edits {
    let ids = peer_vertices(p);
    let pairs = edit_pairs(m);
    let ours = pairs
        .iter()
        .map(|&(a, b)| m.find_edge(a, b).expect("our edge"))
        .collect();
    let peer = pairs
        .iter()
        .map(|&(a, b)| {
            p.connecting_edge(ids[a.index()], ids[b.index()])
                .expect("peer edge")
        })
        .collect();
    let mid = pairs
        .iter()
        .map(|&(a, b)| 0.5 * (inp.positions[a.index()] + inp.positions[b.index()]))
        .collect();
    Edits { ours, peer, mid }
}

fn edit(c: &mut Criterion, sized: &[(&str, Input)]) {
    let mut g = c.benchmark_group("edit_peers");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (name, inp) in sized {
        let m = ours(inp);
        let p = tri_mesh::Mesh::new(&index_buffer(inp));
        let e = edits(inp, &m, &p);
        let k = e.ours.len();
        eprintln!("edit_peers/{name}: {k} edges per sample");
        g.throughput(Throughput::Elements(k as u64));

        g.bench_function(BenchmarkId::new("flip/quadedge", name), |b| {
            b.iter_custom(|iters| {
                timed(&m, iters, |m| {
                    for &x in &e.ours {
                        m.flip(x).expect("flip");
                    }
                })
            })
        });
        g.bench_function(BenchmarkId::new("flip/tri_mesh", name), |b| {
            b.iter_custom(|iters| {
                timed(&p, iters, |p| {
                    for &x in &e.peer {
                        p.flip_edge(x).expect("flip");
                    }
                })
            })
        });
        g.bench_function(BenchmarkId::new("split/quadedge", name), |b| {
            b.iter_custom(|iters| {
                timed(&m, iters, |m| {
                    for &x in &e.ours {
                        black_box(m.split(x, 0.5).expect("split"));
                    }
                })
            })
        });
        // A clone has no spare capacity, so the first split reallocates every array (a copy
        // of the whole mesh). A refinement pass would reserve first: both are shown.
        g.bench_function(BenchmarkId::new("split/quadedge_reserved", name), |b| {
            b.iter_custom(|iters| {
                timed_after(
                    &m,
                    iters,
                    |m| m.reserve(k).expect("reserve"),
                    |m| {
                        for &x in &e.ours {
                            black_box(m.split(x, 0.5).expect("split"));
                        }
                    },
                )
            })
        });
        g.bench_function(BenchmarkId::new("split/tri_mesh", name), |b| {
            b.iter_custom(|iters| {
                timed(&p, iters, |p| {
                    for (&x, &q) in e.peer.iter().zip(&e.mid) {
                        black_box(p.split_edge(x, q));
                    }
                })
            })
        });
        g.bench_function(BenchmarkId::new("collapse/quadedge", name), |b| {
            b.iter_custom(|iters| {
                timed(&m, iters, |m| {
                    for &x in &e.ours {
                        black_box(m.collapse(x, 0.5).expect("collapse"));
                    }
                })
            })
        });
        g.bench_function(BenchmarkId::new("collapse/tri_mesh", name), |b| {
            b.iter_custom(|iters| {
                timed(&p, iters, |p| {
                    for &x in &e.peer {
                        black_box(p.collapse_edge(x));
                    }
                })
            })
        });
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    let sized: Vec<_> = SIZES.iter().map(|&(s, n)| (s, input(n))).collect();
    construct(c, &sized);
    edit(c, &sized);
}

criterion_group!(benches, all);
criterion_main!(benches);
