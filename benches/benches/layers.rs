//! Layers against plain `Vec`s: sequential passes, random reads, clone-then-write, and journal
//! replay of 1M splits into four layers.

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use layers::{
    DirectedEdgeKind, EdgeKind, FaceKind, Interpolation, Layer, LayerInfo, Sizes, VertexKind,
};
use quadedge::{Change, Edge, Face, SplitRecord, Vertex};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1 << 20;

/// Deterministic random bits from the workspace's one test RNG.
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut r = testkit::Rng::new(seed);
    move || r.next_u64()
}

fn f32_layer() -> (Layer<f32, VertexKind>, Vec<f32>) {
    let v: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 0.001).collect();
    (Layer::from_values(LayerInfo::new("x"), v.clone()), v)
}

fn sequential(c: &mut Criterion) {
    let (layer, vec) = f32_layer();
    let mut g = c.benchmark_group("layers_sequential_sum_1M_f32");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("vec", |b| b.iter(|| black_box(&vec).iter().sum::<f32>()));
    g.bench_function("layer_iter", |b| {
        b.iter(|| black_box(&layer).iter().sum::<f32>())
    });
    g.bench_function("layer_for_loop", |b| {
        b.iter(|| {
            let mut s = 0.0f32;
            for x in black_box(&layer) {
                s += x;
            }
            s
        })
    });
    g.bench_function("layer_chunks", |b| {
        b.iter(|| {
            black_box(&layer)
                .chunks()
                .map(|c| c.iter().sum::<f32>())
                .sum::<f32>()
        })
    });
    g.finish();
}

fn random(c: &mut Criterion) {
    let (layer, vec) = f32_layer();
    let mut r = rng(7);
    let idx: Vec<u32> = (0..N).map(|_| (r() % N as u64) as u32).collect();
    let mut g = c.benchmark_group("layers_random_read_1M_f32");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("vec", |b| {
        b.iter(|| {
            let v = black_box(&vec);
            idx.iter().map(|&i| v[i as usize]).sum::<f32>()
        })
    });
    g.bench_function("layer", |b| {
        b.iter(|| {
            let l = black_box(&layer);
            idx.iter().map(|&i| l[Vertex::new(i)]).sum::<f32>()
        })
    });
    g.finish();
}

fn clone_write(c: &mut Criterion) {
    let (layer, vec) = f32_layer();
    let mut g = c.benchmark_group("layers_clone_then_one_write_1M_f32");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("vec", |b| {
        b.iter(|| {
            let mut v = black_box(&vec).clone();
            v[12345] = 1.0;
            v
        })
    });
    g.bench_function("layer", |b| {
        b.iter(|| {
            let mut l = black_box(&layer).clone();
            l[Vertex::new(12345)] = 1.0;
            l
        })
    });
    g.finish();
}

/// 1M splits on a mesh that starts with 1M vertices (3M quads, 2M faces).
fn split_journal(splits: usize) -> (Sizes, Sizes, Vec<Change>) {
    let start = Sizes {
        vertices: N,
        faces: 2 * N,
        quads: 3 * N,
    };
    let mut s = start;
    let mut r = rng(11);
    let mut j = Vec::with_capacity(splits);
    for _ in 0..splits {
        let pick = |r: &mut dyn FnMut() -> u64, n: usize| (r() % n as u64) as u32;
        let origin = Vertex::new(pick(&mut r, s.vertices));
        let dest = Vertex::new(pick(&mut r, s.vertices));
        let edge = Edge::primal(2 * pick(&mut r, s.quads));
        let from = [
            Face::new(pick(&mut r, s.faces)),
            Face::new(pick(&mut r, s.faces)),
        ];
        let q = s.quads as u32;
        let f = s.faces as u32;
        j.push(Change::Split(SplitRecord {
            origin,
            dest,
            t: 0.5,
            vertex: Vertex::new(s.vertices as u32),
            edge,
            new_edge: Edge::of_quad(q),
            cross_edges: [Edge::of_quad(q + 1), Edge::of_quad(q + 2)],
            faces: [(Face::new(f), from[0]), (Face::new(f + 1), from[1])],
        }));
        s.vertices += 1;
        s.quads += 3;
        s.faces += 2;
    }
    (start, s, j)
}

fn replay(c: &mut Criterion) {
    let (start, end, journal) = split_journal(N);
    let height = Layer::with_sizes(LayerInfo::<f32, VertexKind>::new("height"), start);
    let pos = Layer::with_sizes(
        LayerInfo::<Vec3, VertexKind>::new("position")
            .initial(Vec3::Z)
            .interpolation(Interpolation::Slerp),
        start,
    );
    let dist = Layer::with_sizes(LayerInfo::<f32, EdgeKind>::new("distance"), start);
    let flow = Layer::with_sizes(LayerInfo::<u32, DirectedEdgeKind>::new("flow"), start);
    let plate = Layer::with_sizes(LayerInfo::<u16, FaceKind>::new("plate"), start);
    let mut g = c.benchmark_group("layers_apply_1M_splits");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(8));
    g.bench_function(
        BenchmarkId::new("4_layers", "height+position+distance+plate"),
        |b| {
            b.iter_batched(
                || (height.clone(), pos.clone(), dist.clone(), plate.clone()),
                |(mut h, mut p, mut d, mut f)| {
                    let _ = h.apply_changes(&journal, end);
                    let _ = p.apply_changes(&journal, end);
                    let _ = d.apply_changes(&journal, end);
                    let _ = f.apply_changes(&journal, end);
                    (h, p, d, f)
                },
                BatchSize::PerIteration,
            )
        },
    );
    g.bench_function(BenchmarkId::new("1_layer", "directed_flow"), |b| {
        b.iter_batched(
            || flow.clone(),
            |mut l| {
                let _ = l.apply_changes(&journal, end);
                l
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, sequential, random, clone_write, replay);
criterion_main!(benches);
