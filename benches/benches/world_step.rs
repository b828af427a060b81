//! A world step as a simulation client runs it, at 500k vertices: four neighbour sweeps
//! (each reads one vertex layer and writes another), a few single-value writes and an undo
//! snapshot. Side by side in the same run: indexing the layers per element (the access
//! pattern the chunked storage offered: the way a client ran a step before contiguous
//! layers, the baseline), borrowing them as slices, and slices with the sweeps on a rayon
//! pool of 1 and of 2 threads (target: 2× faster than the baseline).

use criterion::{Criterion, criterion_group, criterion_main};
use layers::{Layer, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex};
use rayon::prelude::*;
use std::time::Duration;
use world::{History, World};

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const TEMPERATURE: LayerInfo<f32, VertexKind> = LayerInfo::new("temperature");
const MOISTURE: LayerInfo<f32, VertexKind> = LayerInfo::new("moisture");
const SWEEPS: usize = 4;

#[derive(Clone, Copy)]
enum Access {
    Index,
    Slices,
    ParallelSlices,
}

fn world_500k() -> World {
    // 10 k² + 2 vertices: k = 224 gives 501,762.
    let (n, t) = benches::closed_mesh(224);
    let mut w = World::new(Mesh::from_triangles(n, &t).unwrap(), 1);
    w.update_layer(&HEIGHT, |l| {
        for (i, h) in l.as_mut_slice().iter_mut().enumerate() {
            *h = (i as f32 * 0.37).sin();
        }
    })
    .unwrap();
    w.update_layer(&TEMPERATURE, |l| l.fill(15.0)).unwrap();
    w.update_layer(&MOISTURE, |l| l.fill(0.5)).unwrap();
    w
}

/// Mean of the neighbours' values, per element through the layers' indexing.
fn sweep_indexed(mesh: &Mesh, src: &Layer<f32, VertexKind>, dst: &mut Layer<f32, VertexKind>) {
    for v in mesh.vertices() {
        let (mut sum, mut k) = (0.0f32, 0.0f32);
        for n in mesh.neighbors(v) {
            sum += src[n];
            k += 1.0;
        }
        dst[v] = sum / k;
    }
}

/// The same through slices.
fn sweep_slices(mesh: &Mesh, src: &[f32], dst: &mut [f32]) {
    for v in mesh.vertices() {
        let (mut sum, mut k) = (0.0f32, 0.0f32);
        for n in mesh.neighbors(v) {
            sum += src[n.index()];
            k += 1.0;
        }
        dst[v.index()] = sum / k;
    }
}

/// The same on rayon's pool: each value from its own inputs, so the bits do not depend on
/// the thread count.
fn sweep_parallel(mesh: &Mesh, src: &[f32], dst: &mut [f32]) {
    dst.par_iter_mut().enumerate().for_each(|(i, d)| {
        let v = Vertex::new(i as u32);
        if mesh.is_vertex_alive(v) {
            let (mut sum, mut k) = (0.0f32, 0.0f32);
            for n in mesh.neighbors(v) {
                sum += src[n.index()];
                k += 1.0;
            }
            *d = sum / k;
        }
    });
}

fn step(w: &mut World, history: &mut History, access: Access, t: usize) {
    for s in 0..SWEEPS {
        let (from, to) = if s % 2 == 0 {
            (&HEIGHT, &TEMPERATURE)
        } else {
            (&TEMPERATURE, &HEIGHT)
        };
        // The mesh read and two layers borrowed at once, as a client does it.
        let tx = w.transaction();
        let mesh = tx.mesh().unwrap();
        let src = tx.read(from).unwrap();
        let mut dst = tx.write(to).unwrap();
        match access {
            Access::Index => sweep_indexed(&mesh, &src, &mut dst),
            Access::Slices => sweep_slices(&mesh, src.as_slice(), dst.as_mut_slice()),
            Access::ParallelSlices => sweep_parallel(&mesh, src.as_slice(), dst.as_mut_slice()),
        }
        drop((mesh, src, dst));
        tx.commit().unwrap();
    }
    {
        let mut m = w.lock_layer(&MOISTURE).unwrap();
        for i in 0..8u32 {
            m[Vertex::new(i * 1000 + t as u32 % 1000)] = t as f32;
        }
        m.commit().unwrap();
    }
    history.commit("step", w);
}

fn world_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("world_step_500k");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    let base = world_500k();
    for (name, access, threads) in [
        ("index_per_element", Access::Index, 1),
        ("slices", Access::Slices, 1),
        ("slices_parallel/threads_1", Access::ParallelSlices, 1),
        ("slices_parallel/threads_2", Access::ParallelSlices, 2),
    ] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut w = base.clone();
        let mut history = History::new(64 << 20);
        history.commit("start", &mut w);
        let mut t = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                t += 1;
                pool.install(|| step(&mut w, &mut history, access, t));
            })
        });
    }
    g.finish();
}

criterion_group!(benches, world_step);
criterion_main!(benches);
