//! The world: clone, lock-write-unlock after a snapshot, undo/redo, save and load (1 and 2
//! threads, `save/threads_k`, `load/threads_k`), on a 1M-vertex mesh with 8 layers. Memory
//! costs come from a counting allocator.

use benches::alloc::{Counting, record, retained};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quadedge::{Mesh, Vertex};
use std::hint::black_box;
use std::time::{Duration, Instant};
use world::sample::{HEIGHT, eight_layer_world};
use world::{History, World};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn big_world() -> World {
    let (n, t) = benches::closed_mesh(316);
    eight_layer_world(Mesh::from_triangles(n, &t).unwrap()).unwrap()
}

fn world_benches(c: &mut Criterion) {
    let mut w = big_world();
    let n = w.mesh().vertex_count();
    let mut g = c.benchmark_group("world_1M");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("clone", |b| b.iter(|| black_box(&w).clone()));
    g.bench_function("lock_write_one_value_after_snapshot", |b| {
        b.iter_batched(
            || w.clone(),
            |mut x| {
                x.update_layer(&HEIGHT, |l| l[Vertex::new(12345)] = 1.0)
                    .unwrap();
                x
            },
            criterion::BatchSize::LargeInput,
        )
    });
    let mut history = History::new(usize::MAX);
    history.commit("a", &mut w);
    w.update_layer(&HEIGHT, |l| l[Vertex::new(7)] = 2.0)
        .unwrap();
    history.commit("b", &mut w);
    g.bench_function("undo_redo", |b| {
        b.iter(|| {
            history.undo(&mut w);
            history.redo(&mut w);
        })
    });
    let bytes = w.save_to_vec().unwrap();
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(format!("save/threads_{threads}"), |b| {
            b.iter(|| pool.install(|| black_box(&w).save_to_vec().unwrap()))
        });
        g.bench_function(format!("load/threads_{threads}"), |b| {
            b.iter(|| pool.install(|| World::load_from_slice(black_box(&bytes)).unwrap()))
        });
        g.bench_function(format!("load_and_decode/threads_{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let x = World::load_from_slice(black_box(&bytes)).unwrap();
                    black_box(x.layer(&HEIGHT).unwrap().len());
                    x
                })
            })
        });
    }
    g.finish();

    // Memory: what an undo step keeps.
    let snap = w.clone();
    let (_, one_value) = retained(|| {
        w.update_layer(&HEIGHT, |l| l[Vertex::new(99)] = 5.0)
            .unwrap();
    });
    drop(snap);
    // A topology edit in a history: the mesh's undo log, not a mesh copy.
    {
        let mut m = w.lock_mesh();
        let e = m.vertex_edge(Vertex::new(4321));
        m.flip(e).unwrap();
        m.commit();
    }
    history.commit("flip", &mut w);
    let topology = history.step_bytes().last().unwrap_or(0);
    let t = Instant::now();
    let loaded = World::load_from_slice(&bytes).unwrap();
    let load_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let saved = loaded.save_to_vec().unwrap();
    let save_s = t.elapsed().as_secs_f64();
    assert_eq!(saved.len(), bytes.len());
    drop(loaded);
    // The file against the world it was saved from (mesh and every layer decoded).
    let mem = w.heap_bytes();
    record(
        "facts.tsv",
        &format!(
            "world (1M vertices, 8 layers): undo step after writing one f32 value\t{one_value} bytes\n\
             world (1M vertices, 8 layers): undo step after one flip (History: the mesh's undo log)\t{topology} bytes\n\
             world (1M vertices, 8 layers): file size / in-memory size of the saved world\t{:.3} ({} / {} bytes)\n\
             world (1M vertices, 8 layers): load (lazy layers) MB/s, one run\t{:.0}\n\
             world (1M vertices, 8 layers): save MB/s, one run\t{:.0}\n\
             world (1M vertices): vertex count\t{n}\n",
            bytes.len() as f64 / mem as f64,
            bytes.len(),
            mem,
            bytes.len() as f64 / 1e6 / load_s,
            bytes.len() as f64 / 1e6 / save_s,
        ),
    );
}

/// What a guard's rollback costs (`guard_rollback_500k`): a layer guard holds the values as
/// locked, so its first write copies the layer once; a mesh guard without a history records a
/// private undo log. Floors in the same run: the same write on a bare `Layer` (what a guard
/// cost before it could roll back, without a history), and with a snapshot alive (what a
/// written guard cost before, and costs now, when a history shares the layer).
fn rollback_benches(c: &mut Criterion) {
    use layers::{Layer, LayerInfo, VertexKind};
    const F: LayerInfo<f32, VertexKind> = LayerInfo::new("f");
    let (n, t) = benches::closed_mesh(224); // 501,762 vertices
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    w.update_layer(&F, |l| l.fill(1.0)).unwrap();
    let v = Vertex::new(12_345);
    let mut g = c.benchmark_group("guard_rollback_500k");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("lock_write_commit", |b| {
        b.iter(|| w.update_layer(&F, |l| l[v] += 1.0).unwrap())
    });
    g.bench_function("lock_read_commit", |b| {
        b.iter(|| {
            let l = w.lock_layer(&F).unwrap();
            black_box(l[v]);
            l.commit().unwrap();
        })
    });
    let mut bare = Layer::new(F, w.mesh().vertex_slots());
    g.bench_function("bare_layer_write_floor", |b| {
        b.iter(|| bare[black_box(v)] += 1.0)
    });
    let snapshot = w.clone();
    g.bench_function("lock_write_commit_with_snapshot", |b| {
        b.iter_batched(
            || w.clone(),
            |mut x| {
                x.update_layer(&F, |l| l[v] += 1.0).unwrap();
                x
            },
            criterion::BatchSize::LargeInput,
        )
    });
    drop(snapshot);
    g.bench_function("lock_mesh_flip_commit", |b| {
        b.iter(|| {
            w.update_mesh(|m| {
                let e = m.vertex_edge(v);
                black_box(m.flip(e).is_ok())
            })
        })
    });
    let mut mesh = w.mesh().clone();
    g.bench_function("bare_mesh_flip_floor", |b| {
        b.iter(|| {
            let e = mesh.vertex_edge(v);
            black_box(mesh.flip(e).is_ok())
        })
    });
    g.finish();
}

criterion_group!(benches, world_benches, rollback_benches);
criterion_main!(benches);
