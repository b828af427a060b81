//! The two perturbations of the Fibonacci lattice, measured: nearest-neighbour distances
//! relative to the spacing `√(4π / n)` (unit sphere), the triangulation, determinism.

use glam::DVec3;
use quadedge::Mesh;
use sphere::{Perturbation, SphereError, perturbed_fibonacci_points, perturbed_fibonacci_sphere};

const N: usize = 20_000;

/// Nearest-neighbour statistics: (minimum, 5th percentile, median), over the spacing.
struct Spread {
    min: f64,
    p05: f64,
    median: f64,
}

/// Each vertex's nearest-neighbour distance over the spacing, by vertex id.
/// The nearest neighbour of a point is one of its Delaunay neighbours: one pass over the rings.
fn nearest(mesh: &Mesh, pos: &[DVec3]) -> Vec<f64> {
    let spacing = (4.0 * std::f64::consts::PI / mesh.vertex_count() as f64).sqrt();
    mesh.vertices()
        .map(|v| {
            mesh.neighbors(v)
                .map(|u| pos[v.index()].distance(pos[u.index()]))
                .fold(f64::INFINITY, f64::min)
                / spacing
        })
        .collect()
}

fn spread(nn: &[f64]) -> Spread {
    let mut nn = nn.to_vec();
    nn.sort_by(f64::total_cmp);
    Spread {
        min: nn[0],
        p05: nn[nn.len() / 20],
        median: nn[nn.len() / 2],
    }
}

/// Each point's nearest-neighbour distance over the spacing, by point index (a tangent
/// jitter's mesh numbers the points along the Hilbert curve).
fn nearest_of(p: Perturbation) -> Vec<f64> {
    let (mesh, pos) = perturbed_fibonacci_sphere(N, 1.0, p, 11).unwrap();
    mesh.check().unwrap();
    assert_eq!(mesh.face_count(), 2 * N - 4);
    assert!(delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos).is_ok());
    assert!(pos.iter().all(|q| (q.length() - 1.0).abs() < 1e-12));
    let by_vertex = nearest(&mesh, &pos);
    let Perturbation::Tangent(_) = p else {
        return by_vertex;
    };
    let points = perturbed_fibonacci_points(N, 1.0, p, 11).unwrap();
    let order = sphere::internals::hilbert_order_sphere(&points);
    let mut by_point = vec![0.0; N];
    for (v, &o) in order.iter().enumerate() {
        assert_eq!(pos[v], points[o as usize]);
        by_point[o as usize] = by_vertex[v];
    }
    by_point
}

fn measure(p: Perturbation) -> Spread {
    spread(&nearest_of(p))
}

#[test]
fn tangent_jitter_keeps_the_minimum_distance() {
    let lattice = nearest_of(Perturbation::None);
    // The lattice's own spread: 0.946 of the spacing or more for 95% of the points (the
    // minimum, 0.564, is at the poles).
    let l = spread(&lattice);
    assert!(l.p05 > 0.94 && l.median > 0.95 && l.min > 0.55);
    for a in [0.1, 0.2, 0.3, 0.4] {
        let nn = nearest_of(Perturbation::Tangent(a));
        // Each point moves at most `a` spacings, so no pair closes by more than `2a`: every
        // point keeps its lattice nearest-neighbour distance minus `2a`.
        for (i, (&now, &was)) in nn.iter().zip(&lattice).enumerate() {
            assert!(
                now >= was - 2.0 * a - 1e-9,
                "{a}: point {i}: {now} < {was} - 2a"
            );
        }
        // And the bulk stays near the lattice's spacing (measured: see the README).
        let s = spread(&nn);
        assert!(s.p05 >= 0.94 - 1.3 * a, "{a}: 5% at {}", s.p05);
        assert!(s.median >= 0.95 - 0.6 * a, "{a}: median {}", s.median);
    }
}

#[test]
fn spiral_perturbation_leaves_near_duplicates() {
    // The measurement behind the tangent jitter: the index offset closes pairs far more.
    let s = measure(Perturbation::Spiral(0.5));
    let t = measure(Perturbation::Tangent(0.3));
    assert!(s.p05 < 0.2, "{}", s.p05);
    assert!(s.median < 0.6, "{}", s.median);
    assert!(t.p05 > 2.0 * s.p05 && t.min > 5.0 * s.min);
}

#[test]
fn tangent_jitter_is_seeded() {
    let a = perturbed_fibonacci_points(3000, 5.0, Perturbation::Tangent(0.35), 4).unwrap();
    let b = perturbed_fibonacci_points(3000, 5.0, Perturbation::Tangent(0.35), 4).unwrap();
    let c = perturbed_fibonacci_points(3000, 5.0, Perturbation::Tangent(0.35), 5).unwrap();
    let plain = perturbed_fibonacci_points(3000, 5.0, Perturbation::None, 4).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    // Every point within `amplitude · spacing` of its lattice point (chord, radius 5).
    let reach = 0.35 * 5.0 * (4.0 * std::f64::consts::PI / 3000.0).sqrt();
    for (p, q) in a.iter().zip(&plain) {
        assert!(p.distance(*q) <= reach * (1.0 + 1e-12));
        assert!((p.length() - 5.0).abs() < 1e-12);
    }
    // Zero amplitude is the lattice; the spiral variant is the old generator.
    assert_eq!(
        perturbed_fibonacci_points(3000, 5.0, Perturbation::Tangent(0.0), 4).unwrap(),
        plain
    );
    assert_eq!(
        perturbed_fibonacci_points(3000, 5.0, Perturbation::Spiral(0.5), 4).unwrap(),
        sphere::fibonacci_points(3000, 5.0, 0.5, 4).unwrap()
    );
}

#[test]
fn bad_amplitudes_are_refused() {
    for a in [-0.1, 1.0, 2.0, f64::NAN, f64::INFINITY] {
        let r = perturbed_fibonacci_points(100, 1.0, Perturbation::Tangent(a), 0);
        assert!(
            matches!(r, Err(SphereError::InvalidPerturbation(x)) if x.to_bits() == a.to_bits()),
            "{a}: {r:?}"
        );
        assert!(perturbed_fibonacci_sphere(100, 1.0, Perturbation::Tangent(a), 0).is_err());
    }
    assert_eq!(
        perturbed_fibonacci_points(3, 1.0, Perturbation::Tangent(0.2), 0),
        Err(SphereError::TooFewPoints(3))
    );
}
