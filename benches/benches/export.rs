//! Exports of a scalar layer from a 1M-vertex planet.
//!
//! * `export/heightmap_4096x2048`: [`export::heightmap::equirectangular`] of the unperturbed
//!   1M Fibonacci planet, one thread (point location by walking from the previous pixel's
//!   face, barycentric interpolation). Target ≤ 1 s.
//! * `export/png16_4096x2048`: quantising that map to 16 bits and encoding the PNG.
//! * `export/glb_scalar_relief`: the `.glb` bytes with colours, an `_ELEVATION` attribute and
//!   relief.
//!
//! Measured (release, one thread, the shared 2-core machine at a load average of 6–9, so
//! absolute times are inflated): heightmap 0.49 s (0.69 s at load 9) for 8.4M pixels from
//! 1M vertices, about 230 instructions per pixel under callgrind (point location ~120, the
//! rest interpolation and the grid); 16-bit PNG 0.16 s; glTF with scalar and relief 0.34 s.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use export::colormap::{ColorMap, colorize};
use export::gltf::{GlbOptions, glb_bytes};
use export::heightmap::equirectangular;
use glam::Vec3;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1_000_000;
const W: u32 = 4096;
const H: u32 = 2048;

/// A smooth field with some structure at several scales.
fn elevation(p: Vec3) -> f32 {
    (3.0 * p.x).sin() * (2.0 * p.y).cos() + 0.3 * (11.0 * p.z + 5.0 * p.x).sin()
}

fn export_bench(c: &mut Criterion) {
    let (mesh, pos) = sphere::fibonacci_sphere(N, 1.0, 0.0, 0).unwrap();
    let pos = export::positions_f32(&pos);
    let values: Vec<f32> = pos.iter().map(|&p| elevation(p)).collect();
    let map = equirectangular(&mesh, &pos, &values, W, H).unwrap();

    let mut g = c.benchmark_group("export");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(u64::from(W) * u64::from(H)));
    g.bench_function("heightmap_4096x2048", |b| {
        b.iter(|| black_box(equirectangular(&mesh, &pos, &values, W, H).unwrap()))
    });
    g.bench_function("png16_4096x2048", |b| {
        b.iter(|| black_box(map.png16_bytes(None).unwrap()))
    });
    g.throughput(Throughput::Elements(N as u64));
    let colors = colorize(&values, &ColorMap::Terrain { sea_level: 0.0 }, (-1.3, 1.3));
    let opts = GlbOptions {
        colors: Some(&colors),
        scalar: Some(("_ELEVATION", &values)),
        relief: Some(0.02),
    };
    g.bench_function("glb_scalar_relief", |b| {
        b.iter(|| black_box(glb_bytes(&mesh, &pos, &opts).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, export_bench);
criterion_main!(benches);
