//! A living planet through the `World` front door (issue 22's targets): a 500,000-vertex
//! jittered planet with 6 layers.
//!
//! * `planet_world/step_history`: one step of plate motion (every vertex turned by its
//!   plate's rotation, up to half a mean edge; exact restore), 1,000 removals, 1,500
//!   insertions and a `History` commit. Each iteration continues the same world (the step is
//!   what a simulation does over and over). `planet_world/step` is the same without a history.
//! * `planet_world/resample_history`: the world moved in place onto a fresh jittered sphere of
//!   500,000 points (stencils, every layer, positions) and the history commit after it.
//!
//! Run on one thread for the CPU figure (`RAYON_NUM_THREADS=1 cargo bench -p benches --features
//! bench --bench planet_world`) and on two for the wall-clock one.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{DQuat, DVec3};
use layers::{EdgeKind, FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::Vertex;
use std::hint::black_box;
use std::time::Duration;
use testkit::Rng;
use world::{History, MoveOptions, World};

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
        let (mut h, mut p) = w.lock_layers(&HEIGHT, &PLATE).unwrap();
        for (i, q) in pos.iter().enumerate() {
            h[Vertex::new(i as u32)] = q.z as f32;
            p[Vertex::new(i as u32)] = nearest(&centres, *q) as u32;
        }
    }
    w.lock_layer(&AGE).unwrap().fill(1.0);
    w.lock_layer(&AREA).unwrap().fill(1.0);
    w.lock_layer(&LENGTH).unwrap().fill(1.0);
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
    {
        let mut w = base.clone();
        g.bench_function("step", |b| b.iter(|| step(&mut w, &turns, &mut rng)));
    }
    {
        let mut w = base.clone();
        let mut history = History::new(usize::MAX);
        history.commit("start", &mut w);
        let mut k = 0;
        g.bench_function("step_history", |b| {
            b.iter(|| {
                step(&mut w, &turns, &mut rng);
                k += 1;
                history.commit(format!("step {k}"), &mut w);
            })
        });
    }
    {
        let mut w = base.clone();
        let mut history = History::new(usize::MAX);
        history.commit("start", &mut w);
        let mut seed = 0;
        g.bench_function("resample_history", |b| {
            b.iter(|| {
                seed += 1;
                w.resample_fresh_sphere(N, 0.3, seed).unwrap();
                history.commit("resample", &mut w);
                // Keep the history from holding every resample of the run.
                history = History::new(usize::MAX);
                history.commit("start", &mut w);
                black_box(&w);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, planet_world);
criterion_main!(benches);
