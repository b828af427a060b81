//! The surface stages on a 1M-cell planet (crate `surface`), on the default rayon pool (two
//! threads on the project's machine).
//!
//! * `surface/cells`: neighbour rows, link lengths, areas and latitudes from the mesh.
//! * `surface/drainage`: priority-flood filling, flow directions, stack, drained areas and
//!   lakes. Target ≤ 0.3 s.
//! * `surface/stream_power_step`: one implicit step along a given drainage. Target ≤ 0.15 s.
//! * `surface/climate_biomes`: temperature, winds, moisture along the wind, ice and the
//!   biome of every cell. Target ≤ 0.3 s.
//! * `surface/rivers`: discharge and the river list.
//!
//! Figures in `docs/benchmark-notes.md` (section "Surface stages").

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
use std::hint::black_box;
use std::time::Duration;
use surface::{Cells, ClimateOptions, Geometry, StreamPower};

const N: usize = 1_000_000;
const R: f64 = 6371.0;

/// Continents and basins at a few scales (m), about 40 % land, with pits to fill.
fn relief(p: DVec3) -> f32 {
    let u = p / R;
    let big = (2.1 * u.x + 0.7).sin() * (1.7 * u.y).cos() + 0.8 * (2.9 * u.z - 1.3 * u.x).sin();
    let mid = 0.35 * (9.0 * u.y + 5.0 * u.z).sin() * (7.0 * u.x).cos();
    let small = 0.12 * (41.0 * u.x + 37.0 * u.y).sin() * (43.0 * u.z).cos();
    ((big + mid + small) * 2500.0 - 600.0) as f32
}

fn surface_bench(c: &mut Criterion) {
    let (mesh, pos) = sphere::fibonacci_sphere(N, R, 0.3, 1).unwrap();
    let geometry = Geometry::Sphere { radius_km: R };
    let elevation: Vec<f32> = pos.iter().map(|&p| relief(p)).collect();
    let cells = Cells::new(&mesh, &pos, geometry).unwrap();
    let d = surface::drainage(&cells, &elevation, 0.0).unwrap();
    let climate = surface::climate(&cells, &elevation, &ClimateOptions::default()).unwrap();

    let mut g = c.benchmark_group("surface");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("cells", |b| {
        b.iter(|| black_box(Cells::new(&mesh, &pos, geometry).unwrap()))
    });
    g.bench_function("drainage", |b| {
        b.iter(|| black_box(surface::drainage(&cells, &elevation, 0.0).unwrap()))
    });
    let sp = StreamPower::default();
    g.bench_function("stream_power_step", |b| {
        b.iter(|| black_box(surface::stream_power_step(&cells, &d, &elevation, None, &sp).unwrap()))
    });
    g.bench_function("climate_biomes", |b| {
        b.iter(|| {
            let c = surface::climate(&cells, &elevation, &ClimateOptions::default()).unwrap();
            let q = surface::discharge(&cells, &d, &c.precipitation_mm, 0.4).unwrap();
            black_box(surface::classify(&cells, &elevation, &c, &d, &q, 0.0).unwrap())
        })
    });
    g.bench_function("rivers", |b| {
        b.iter(|| {
            let q = surface::discharge(&cells, &d, &climate.precipitation_mm, 0.4).unwrap();
            black_box(surface::rivers(&d, &q, 10_000.0).unwrap())
        })
    });
    g.finish();
}

criterion_group!(benches, surface_bench);
criterion_main!(benches);
