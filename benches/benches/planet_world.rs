//! A living planet through the `World` front door (issue 22's targets): a 500,000-vertex
//! jittered planet with 6 layers.
//!
//! * `planet_world/step_history`: one step of plate motion (every vertex turned by its
//!   plate's rotation, up to half a mean edge; exact restore), 1,000 removals, 1,500
//!   insertions and a `History` commit, from the same planet every iteration (a snapshot, not
//!   timed). `planet_world/step` is the same without a history.
//! * `planet_world/resample_history`: the world moved in place onto a fresh jittered sphere of
//!   500,000 points (stencils, every layer, positions) and the history commit after it.
//!
//! Run on one thread for the CPU figure (`RAYON_NUM_THREADS=1 cargo bench -p benches --features
//! bench --bench planet_world`) and on two for the wall-clock one.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use glam::{DQuat, DVec3};
use layers::{EdgeKind, FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::Vertex;
use std::hint::black_box;
use std::time::{Duration, Instant};
use testkit::Rng;
use world::{FreshSphere, History, MoveOptions, World};

const N: usize = 500_000;
const PLATES: usize = 20;

const HEIGHT: LayerInfo<f32, VertexKind> =
    LayerInfo::new("height").interpolation(Interpolation::Lerp);
const AGE: LayerInfo<f32, VertexKind> =
    LayerInfo::new("age").interpolation(Interpolation::MinValue);
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
const AREA: LayerInfo<f32, FaceKind> = LayerInfo::new("area");
const LENGTH: LayerInfo<f32, EdgeKind> = LayerInfo::new("length");

/// The planet: positions plus five layers; plates by nearest of `PLATES` random centres.
fn planet() -> (World, Vec<DVec3>, Vec<DQuat>) {
    let mut w = World::fibonacci_sphere(N, 1.0, 0.3, 5).unwrap();
    let mut rng = Rng::new(11);
    let centres: Vec<DVec3> = (0..PLATES).map(|_| rng.unit_dvec3()).collect();
    let mean_edge = (8.0 * std::f64::consts::PI / (N as f64 * 3f64.sqrt())).sqrt();
    let turns: Vec<DQuat> = (0..PLATES)
        .map(|_| DQuat::from_axis_angle(rng.unit_dvec3(), 0.5 * mean_edge * rng.unit_f64()))
        .collect();
    let pos = w.positions().to_vec();
    {
        let mut pair = w.lock_layers(&HEIGHT, &PLATE).unwrap();
        let (h, p) = pair.parts();
        for (i, q) in pos.iter().enumerate() {
            h[Vertex::new(i as u32)] = q.z as f32;
            p[Vertex::new(i as u32)] = nearest(&centres, *q) as u32;
        }
        pair.commit().unwrap();
    }
    w.update_layer(&AGE, |l| l.fill(1.0)).unwrap();
    w.update_layer(&AREA, |l| l.fill(1.0)).unwrap();
    w.update_layer(&LENGTH, |l| l.fill(1.0)).unwrap();
    (w, centres, turns)
}

fn nearest(centres: &[DVec3], p: DVec3) -> usize {
    (0..centres.len())
        .max_by(|&a, &b| p.dot(centres[a]).total_cmp(&p.dot(centres[b])))
        .unwrap_or(0)
}

/// One simulation step: motion, removals, insertions.
fn step(w: &mut World, turns: &[DQuat], rng: &mut Rng) {
    let plates = w.layer(&PLATE).unwrap().as_slice().to_vec();
    w.move_all(
        |v, p| turns[plates[v.index()] as usize] * p,
        &MoveOptions::default(),
    )
    .unwrap();
    let slots = w.mesh().vertex_slots();
    let mut gone: Vec<Vertex> = (0..1000)
        .map(|_| Vertex::new(rng.below(slots) as u32))
        .filter(|&v| w.mesh().is_vertex_alive(v))
        .collect();
    gone.sort_unstable();
    gone.dedup();
    w.remove_vertices(&gone).unwrap();
    let points: Vec<DVec3> = (0..1500).map(|_| rng.unit_dvec3()).collect();
    w.insert_points(&points).unwrap();
}

fn planet_world(c: &mut Criterion) {
    let mut g = c.benchmark_group("planet_world");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(8));
    let (base, _, turns) = planet();
    let mut rng = Rng::new(3);
    // Every iteration starts from the same planet (a snapshot: cloning shares everything and
    // is not timed), so each measures one step, not a planet drifting further every time.
    g.bench_function("step", |b| {
        b.iter_batched(
            || base.clone(),
            |mut w| {
                step(&mut w, &turns, &mut rng);
                w
            },
            BatchSize::PerIteration,
        )
    });
    // With a history: the history must follow the world it commits (a clone's mesh stops
    // logging on its first edit), so each iteration makes its own pair, untimed.
    let fresh = || {
        let mut w = base.clone();
        let mut h = History::new(usize::MAX);
        h.commit("start", &mut w);
        (w, h)
    };
    g.bench_function("step_history", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (mut w, mut h) = fresh();
                let start = Instant::now();
                step(&mut w, &turns, &mut rng);
                h.commit("step", &mut w);
                total += start.elapsed();
                black_box((w, h));
            }
            total
        })
    });
    let mut seed = 0;
    g.bench_function("resample_history", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (mut w, mut h) = fresh();
                seed += 1;
                let start = Instant::now();
                w.resample_fresh_sphere(N, 0.3, seed).unwrap();
                h.commit("resample", &mut w);
                total += start.elapsed();
                black_box((w, h));
            }
            total
        })
    });
    // The same resample onto one kept sphere, turned anew each time (no sphere built).
    let kept = FreshSphere::fibonacci(N, 1.0, 0.3, 99).unwrap();
    g.bench_function("resample_turned_history", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (mut w, mut h) = fresh();
                let turn = DQuat::from_axis_angle(rng.unit_dvec3(), 2.0);
                let start = Instant::now();
                w.resample_onto_turned(&kept, turn).unwrap();
                h.commit("resample", &mut w);
                total += start.elapsed();
                black_box((w, h));
            }
            total
        })
    });
    g.finish();
}

criterion_group!(benches, planet_world);
criterion_main!(benches);
