//! Planar maps at about 1M points: Poisson-disc sampling and the exact ghost-closed planar
//! Delaunay mesh, beside delaunator and spade on the same points in the same run.
//!
//! * `plane/poisson_disc`: Bridson sampling with boundary points (~1M points).
//! * `plane/triangles`: the exact triangulation with its ghost closure as flat triangle and
//!   twin arrays (`plane::triangulate_half_edges`), the output delaunator also gives.
//! * `plane/triangulate`: the same plus the quad-edge mesh (`Mesh::from_half_edges`).
//! * `plane/map_total`: sampling + triangulation + ghost closure + mesh, the target
//!   (≤ 1 s).
//! * `delaunator/planar`: delaunator's triangles and half-edges (floating-point in-circle, no
//!   ghost closure, no mesh).
//! * `spade/bulk_load`: spade's exact planar Delaunay (its own half-edge structure).

use criterion::{Criterion, criterion_group, criterion_main};
use spade::Triangulation;
use std::hint::black_box;
use std::time::Duration;

/// A square whose Poisson-disc set holds about 1M points at spacing 1.
const SIDE: f64 = 1100.0;

fn planar(c: &mut Criterion) {
    let pts = plane::poisson_disc(SIDE, SIDE, 1.0, 1).unwrap();
    let n = pts.points.len();
    println!("plane bench: {n} points");
    let mut g = c.benchmark_group("plane");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("poisson_disc", |b| {
        b.iter(|| plane::poisson_disc(SIDE, SIDE, 1.0, black_box(1)).unwrap())
    });
    g.bench_function("triangles", |b| {
        b.iter(|| plane::triangulate_half_edges(black_box(&pts.points)).unwrap())
    });
    g.bench_function("triangulate", |b| {
        b.iter(|| plane::triangulate(black_box(&pts.points)).unwrap())
    });
    g.bench_function("map_total", |b| {
        b.iter(|| {
            let p = plane::poisson_disc(SIDE, SIDE, 1.0, black_box(1)).unwrap();
            plane::triangulate(&p.points).unwrap()
        })
    });
    g.finish();

    let dpts: Vec<delaunator::Point> = pts
        .points
        .iter()
        .map(|p| delaunator::Point { x: p.x, y: p.y })
        .collect();
    let mut g = c.benchmark_group("delaunator");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("planar", |b| {
        b.iter(|| delaunator::triangulate(black_box(&dpts)))
    });
    g.finish();

    let spts: Vec<spade::Point2<f64>> = pts
        .points
        .iter()
        .map(|p| spade::Point2::new(p.x, p.y))
        .collect();
    let mut g = c.benchmark_group("spade");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("bulk_load", |b| {
        b.iter(|| {
            spade::DelaunayTriangulation::<spade::Point2<f64>>::bulk_load(black_box(spts.clone()))
                .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, planar);
criterion_main!(benches);
