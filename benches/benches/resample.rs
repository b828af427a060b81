//! Resampling a world onto another mesh: a 1M-vertex world with 4 vertex layers (`f32` lerp,
//! `f64` lerp, `u32` heaviest corner, `DVec3` slerp) onto a fresh 1M Fibonacci sphere.
//!
//! * `resample/stencils`: `delaunay::resample::stencils` for the vertices (a hint grid over the
//!   old mesh, then one exact walk per new vertex, barycentric weights).
//! * `resample/world`: `World::resample` with those stencils (the plan checked against both
//!   meshes, then one gather per layer).
//! * `resample/total`: both, the figure of the target (≤ 0.5 s, one thread).
//!
//! The old planet is a tangent-jittered lattice (seed 1), the new one another (seed 2), so no
//! new point falls on an old one; both in spiral (Fibonacci index) order, then both
//! renumbered along a Hilbert curve. Mesh clones are not timed (`iter_batched`). Before the
//! criterion runs, each layout prints the CPU time of one stencils + resample (with a mesh
//! clone, 0.07 s, printed apart): on the shared machine wall time mostly counts waiting.
//!
//! Measured (release, one thread, the shared 2-core machine): at a load average of 4,
//! `total_hilbert` 0.50 s wall (0.39 s CPU: stencils 1M onto 1M + `World::resample` of 4
//! layers), `total_spiral` 1.16 s wall (0.72 s CPU). The walks and the gathers are
//! memory-bound, so meshes in spatial order (`sphere::hilbert_sort_mesh`) are what meets the
//! 0.5 s target; in spiral order every query and every gather lands on a cold cache line. At
//! a load average of 8–9 the wall times were 2–4× the CPU times.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use delaunay::Sphere;
use delaunay::resample::{StencilKinds, stencils};
use glam::DVec3;
use layers::resample::ResamplePlan;
use layers::{Interpolation, LayerInfo, VertexKind};
use quadedge::Mesh;
use sphere::Perturbation;
use std::hint::black_box;
use std::time::Duration;
use world::World;

const N: usize = 1_000_000;

const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
const ELEVATION: LayerInfo<f32, VertexKind> = LayerInfo::new("elevation");
const TEMPERATURE: LayerInfo<f64, VertexKind> = LayerInfo::new("temperature");
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);

/// The old world (4 vertex layers) and the new mesh, both in spiral (Fibonacci index) order
/// or both renumbered along a Hilbert curve.
struct Setup {
    world: World,
    old_pos: Vec<DVec3>,
    new: Mesh,
    new_pos: Vec<DVec3>,
}

fn setup(hilbert: bool) -> Setup {
    let jitter = Perturbation::Tangent(0.3);
    let (mut old, mut old_pos) = sphere::perturbed_fibonacci_sphere(N, 1.0, jitter, 1).unwrap();
    let (mut new, mut new_pos) = sphere::perturbed_fibonacci_sphere(N, 1.0, jitter, 2).unwrap();
    if hilbert {
        sphere::hilbert_sort_mesh(&mut old, &mut old_pos).unwrap();
        sphere::hilbert_sort_mesh(&mut new, &mut new_pos).unwrap();
    }
    let mut w = World::new(old, 1);
    w.update_layer(&POSITION, |l| l.as_mut_slice().copy_from_slice(&old_pos))
        .unwrap();
    {
        let mut pair = w.lock_layers(&ELEVATION, &TEMPERATURE).unwrap();
        let (e, t) = pair.parts();
        for (i, p) in old_pos.iter().enumerate() {
            e.as_mut_slice()[i] = (p.x * 3.0).sin() as f32;
            t.as_mut_slice()[i] = p.y * 30.0;
        }
        pair.commit().unwrap();
    }
    {
        let mut plate = w.lock_layer(&PLATE).unwrap();
        for (i, p) in old_pos.iter().enumerate() {
            plate.as_mut_slice()[i] = (p.x > 0.0) as u32 + 2 * (p.z > 0.0) as u32;
        }
        plate.commit().unwrap();
    }
    Setup {
        world: w,
        old_pos,
        new,
        new_pos,
    }
}

/// CPU seconds this thread has used (user + system, from `/proc/thread-self/stat`, in clock
/// ticks of 10 ms), or `None` off Linux: on a shared, loaded machine wall time counts the
/// time the thread waited for a core, CPU time does not.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which ends with the last ')'): utime and stime are the
    // 12th and 13th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Runs `f` `runs` times and prints its mean CPU time per run.
fn print_cpu_time<T>(what: &str, runs: usize, mut f: impl FnMut() -> T) {
    let before = thread_cpu_seconds();
    let wall = std::time::Instant::now();
    for _ in 0..runs {
        black_box(f());
    }
    let wall = wall.elapsed().as_secs_f64() / runs as f64;
    if let (Some(a), Some(b)) = (before, thread_cpu_seconds()) {
        eprintln!(
            "{what}: {:.3} s CPU, {wall:.3} s wall per run ({runs} runs)",
            (b - a) / runs as f64
        );
    }
}

fn resample_bench(c: &mut Criterion) {
    let kinds = StencilKinds::default();
    let mut g = c.benchmark_group("resample");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(N as u64));
    for (name, hilbert) in [("spiral", false), ("hilbert", true)] {
        let Setup {
            world: w,
            old_pos,
            new,
            new_pos,
        } = setup(hilbert);
        let old = w.mesh().clone();
        let s = stencils(&Sphere, &old, &old_pos, &new, &new_pos, kinds).unwrap();
        let plan = ResamplePlan {
            vertex_corners: &s.corners,
            vertex_weights: &s.weights,
            ..Default::default()
        };
        print_cpu_time(&format!("resample {name}: stencils + world"), 5, || {
            let s = stencils(&Sphere, &old, &old_pos, &new, &new_pos, kinds).unwrap();
            let plan = ResamplePlan {
                vertex_corners: &s.corners,
                vertex_weights: &s.weights,
                ..Default::default()
            };
            w.resampled(new.clone(), &plan).unwrap()
        });
        print_cpu_time(&format!("resample {name}: mesh clone alone"), 5, || {
            new.clone()
        });
        g.bench_function(format!("stencils_{name}"), |b| {
            b.iter(|| black_box(stencils(&Sphere, &old, &old_pos, &new, &new_pos, kinds).unwrap()))
        });
        g.bench_function(format!("world_{name}"), |b| {
            b.iter_batched(
                || new.clone(),
                |m| black_box(w.resampled(m, &plan).unwrap()),
                BatchSize::LargeInput,
            )
        });
        g.bench_function(format!("total_{name}"), |b| {
            b.iter_batched(
                || new.clone(),
                |m| {
                    let s = stencils(&Sphere, &old, &old_pos, &m, &new_pos, kinds).unwrap();
                    let plan = ResamplePlan {
                        vertex_corners: &s.corners,
                        vertex_weights: &s.weights,
                        ..Default::default()
                    };
                    black_box(w.resampled(m, &plan).unwrap())
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, resample_bench);
criterion_main!(benches);
