//! Spherical Delaunay triangulation: our exact incremental path against delaunator on a
//! stereographic projection and chull's 3D hull.
//!
//! * `sphere/triangulate`: `sphere::triangulate` (general path, triangles only).
//! * `sphere/triangulate_fibonacci`: the lattice path on the same points (rings, mesh, then
//!   its triangles).
//! * `sphere/triangulate_perturbed`: the general path on perturbed Fibonacci points.
//! * `sphere/fibonacci_sphere`: points + the lattice's rings + `Mesh::from_rings`.
//! * `delaunator/stereographic`: delaunator on the points projected from the north pole
//!   (not exact: it leaves a hole of triangles around the projection pole and uses floating
//!   point predicates on the projected coordinates), the usual shortcut.
//! * `chull/hull`: chull's exact (big-integer) quickhull, up to 10k points only.
//! * `cap_plus_far/*`: `sphere::triangulate` on the clustered families of `testkit::Cluster`
//!   (a dense cap alone, with three far points on the sphere, with the same three a million
//!   times farther out, and the other neighbours at 100k), against uniform random points: the
//!   families must stay within 2× of the cap alone at every size (issue 21).
//! * `jittered/*`: the jittered planet's sphere at 500k and 1M, built from its rings against
//!   the incremental path on the same points (issue 22).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
use std::hint::black_box;
use std::time::Duration;

fn stereographic(points: &[DVec3]) -> Vec<delaunator::Point> {
    // Project from the north pole (0, 0, 1) onto the plane z = 0; the pole itself maps to
    // infinity, so Fibonacci's first point, at (0, 1, 0) in y-up, is fine to keep here.
    points
        .iter()
        .map(|p| {
            let p = p.normalize();
            let d = 1.0 - p.z;
            delaunator::Point {
                x: p.x / d,
                y: p.y / d,
            }
        })
        .collect()
}

fn triangulation(c: &mut Criterion) {
    let mut g = c.benchmark_group("sphere");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3));
    for n in [10_000usize, 100_000, 1_000_000] {
        let points = sphere::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("triangulate", n), &points, |b, p| {
            b.iter(|| sphere::triangulate(black_box(p)).unwrap())
        });
        g.bench_with_input(
            BenchmarkId::new("triangulate_fibonacci", n),
            &points,
            |b, p| b.iter(|| sphere::triangulate_fibonacci(black_box(p)).unwrap()),
        );
        g.bench_with_input(BenchmarkId::new("fibonacci_sphere", n), &n, |b, &n| {
            b.iter(|| sphere::fibonacci_sphere(black_box(n), 1.0, 0.0, 0).unwrap())
        });
        let perturbed = sphere::fibonacci_points(n, 1.0, 0.5, 1).unwrap();
        g.bench_with_input(
            BenchmarkId::new("triangulate_perturbed", n),
            &perturbed,
            |b, p| b.iter(|| sphere::triangulate(black_box(p)).unwrap()),
        );
        let projected = stereographic(&points);
        g.bench_with_input(
            BenchmarkId::new("delaunator_stereographic", n),
            &projected,
            |b, p| b.iter(|| delaunator::triangulate(black_box(p))),
        );
        if n <= 10_000 {
            let input: Vec<Vec<f64>> = points.iter().map(|p| p.to_array().to_vec()).collect();
            g.bench_with_input(BenchmarkId::new("chull", n), &input, |b, p| {
                b.iter(|| chull::ConvexHullWrapper::try_new(black_box(p), None).unwrap())
            });
        }
    }
    g.finish();
}

fn clustered(c: &mut Criterion) {
    use testkit::Cluster;
    let mut g = c.benchmark_group("cap_plus_far");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3));
    for n in [10_000usize, 100_000, 1_000_000] {
        g.throughput(Throughput::Elements(n as u64));
        let mut rng = testkit::Rng::new(7);
        let uniform: Vec<DVec3> = (0..n).map(|_| rng.unit_dvec3()).collect();
        let mut inputs = vec![("uniform", uniform)];
        for family in Cluster::ALL {
            let main = matches!(
                family,
                Cluster::Cap | Cluster::CapPlusFar | Cluster::CapPlusDistant
            );
            if main || n == 100_000 {
                inputs.push((family.name(), family.points(n, 1)));
            }
        }
        for (name, points) in &inputs {
            g.bench_with_input(BenchmarkId::new(*name, n), points, |b, p| {
                b.iter(|| sphere::triangulate(black_box(p)).unwrap())
            });
        }
    }
    g.finish();
}

/// The jittered planet's sphere (tangent jitter 0.3, Hilbert order), as
/// `World::fibonacci_sphere` and `World::resample_fresh_sphere` make it:
/// `jittered/rings` (`perturbed_fibonacci_sphere`: the moved lattice's rings on all cores)
/// against `jittered/incremental` (the same points through `sphere_mesh_hilbert`).
fn jittered(c: &mut Criterion) {
    use sphere::Perturbation;
    let mut g = c.benchmark_group("jittered");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(4));
    for n in [500_000usize, 1_000_000] {
        let jitter = Perturbation::Tangent(0.3);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("rings", n), &n, |b, &n| {
            b.iter(|| sphere::perturbed_fibonacci_sphere(black_box(n), 1.0, jitter, 1).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("incremental", n), &n, |b, &n| {
            b.iter(|| {
                let p = sphere::perturbed_fibonacci_points(black_box(n), 1.0, jitter, 1).unwrap();
                sphere::sphere_mesh_hilbert(&p).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, triangulation, clustered, jittered);
criterion_main!(benches);
