//! Variable resolution: refining and coarsening a 1M-vertex planet by a size field.
//!
//! * `adapt/one_pass`: one pass of `delaunay::adapt` (the entry check that the input is
//!   Delaunay, a split sweep, a collapse sweep, the flips back to Delaunay) on the unperturbed
//!   1M Fibonacci planet, with a target edge length `h · 2^(d · p)` varying 4× across the
//!   sphere (`h` about the lattice's edge, `d` a fixed direction): half the sphere refines,
//!   the other half coarsens.
//!
//! Measured (release, one thread, the shared 2-core machine at a load average of 7–10, so
//! absolute times are inflated): one pass 0.97 s (1.30 s at load 8) for 865,936 splits,
//! 245,768 collapses and 608,725 flips, 1M → 1.62M vertices. Run to the 16-pass cap (not
//! timed here): 7.2 s, 1.37M vertices, 87.7% of the edges within `[4/5, 4/3]` of their target,
//! the rest short edges kept by the collapse guard; a few pockets still split and collapse at
//! the cap.
//!
//! Every timed routine starts from a clone of the prepared mesh (`iter_batched`, cloning not
//! timed).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use delaunay::{AdaptOptions, Sphere, adapt};
use glam::DVec3;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1_000_000;

fn adapt_bench(c: &mut Criterion) {
    let (mesh, pos) = sphere::fibonacci_sphere(N, 1.0, 0.0, 0).unwrap();
    let h = 1.1 * (4.0 * std::f64::consts::PI / N as f64).sqrt();
    let d = DVec3::new(0.3, 0.8, -0.5).normalize();
    let size = move |_: quadedge::Vertex, p: DVec3| h * 2f64.powf(d.dot(p));
    let opts = AdaptOptions {
        max_passes: 1,
        sample_new_vertices: true,
        ..AdaptOptions::default()
    };
    {
        // One untimed run, so that the report can say what a pass does.
        let (mut m, mut p) = (mesh.clone(), pos.clone());
        let s = adapt(&Sphere, &mut m, &mut p, size, &opts).unwrap();
        eprintln!(
            "adapt one pass on {N}: {} → {} vertices, {s:?}",
            N,
            m.vertex_count()
        );
    }
    let mut g = c.benchmark_group("adapt");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("one_pass", |b| {
        b.iter_batched(
            || (mesh.clone(), pos.clone()),
            |(mut m, mut p)| {
                let s = adapt(&Sphere, &mut m, &mut p, size, &opts).unwrap();
                black_box((m, p, s))
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, adapt_bench);
criterion_main!(benches);
