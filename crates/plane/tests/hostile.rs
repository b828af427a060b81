//! Hostile point sets for the triangulator, as deterministic property tests (fixed seeds):
//! duplicates, collinear rows, co-circular lattices, points on the rectangle's border,
//! non-finite and out-of-range coordinates, too few points, all points on one line. Valid
//! sets must give the exact planar Delaunay triangulation (checked against spade), invalid
//! ones a typed error.

mod common;

use common::{assert_matches_spade, lattice_subset, uniform_points};
use glam::DVec2;
use plane::PlaneError;
use testkit::Rng;

/// Exact duplicates anywhere in the input are reported with the indices of two equal points.
#[test]
fn duplicates_give_the_indices_of_two_equal_points() {
    for seed in 1..40u64 {
        let mut rng = Rng::new(seed);
        let mut pts = uniform_points(50 + rng.below(200), seed);
        let copies = 1 + rng.below(3);
        for _ in 0..copies {
            let from = rng.below(pts.len());
            let at = rng.below(pts.len() + 1);
            pts.insert(at, pts[from]);
        }
        match plane::triangulate(&pts) {
            Err(PlaneError::Duplicate { first, second }) => {
                assert_ne!(first, second);
                assert_eq!(pts[first], pts[second], "seed {seed}");
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    // All points equal.
    let same = [DVec2::ONE; 5];
    assert!(matches!(
        plane::triangulate(&same),
        Err(PlaneError::Duplicate { .. })
    ));
    // Duplicates of the first triangle's corners and on hull edges.
    let pts = [
        DVec2::ZERO,
        DVec2::X,
        DVec2::Y,
        DVec2::new(0.5, 0.0),
        DVec2::new(0.5, 0.0),
    ];
    assert!(matches!(
        plane::triangulate(&pts),
        Err(PlaneError::Duplicate {
            first: 3,
            second: 4
        } | PlaneError::Duplicate {
            first: 4,
            second: 3
        })
    ));
}

/// Points on a few horizontal lines (long collinear runs inside and on the hull), with and
/// without scattered points between the lines.
#[test]
fn collinear_rows_are_exactly_delaunay() {
    for seed in 0..24u64 {
        let mut rng = Rng::new(seed + 100);
        let rows = 2 + rng.below(5);
        let mut pts: Vec<DVec2> = Vec::new();
        for r in 0..rows {
            let count = 2 + rng.below(30);
            let y = (r * 3) as f64;
            let mut xs: Vec<u64> = (0..count).map(|_| rng.next_u64() % 1000).collect();
            xs.sort_unstable();
            xs.dedup();
            pts.extend(xs.iter().map(|&x| DVec2::new(x as f64 * 0.01, y)));
        }
        if seed % 2 == 1 {
            pts.extend(uniform_points(40, seed).iter().map(|p| *p * 0.9));
        }
        assert_matches_spade(&pts);
    }
}

/// Full and partial square lattices (every cell a co-circular quad), also shifted far from
/// the origin and scaled, where rounding is coarse.
#[test]
fn cocircular_lattices_are_exactly_delaunay() {
    for (side, scale, shift) in [(7u32, 1.0, 0.0), (11, 0.125, 1e6), (9, 3.0, -7e8)] {
        let pts: Vec<DVec2> = (0..side * side)
            .map(|i| DVec2::new((i % side) as f64, (i / side) as f64) * scale + shift)
            .collect();
        let map = plane::triangulate(&pts).unwrap();
        assert_eq!(map.hull().len() as u32, 4 * (side - 1));
        assert_eq!(map.real_faces().count() as u32, 2 * (side - 1) * (side - 1));
        assert_matches_spade(&pts);
    }
    for seed in 0..16 {
        let pts = lattice_subset(10, 20 + seed * 5, seed);
        if pts.len() >= 3 && plane::triangulate(&pts).is_ok() {
            assert_matches_spade(&pts);
        }
    }
}

/// Points only on the border of a rectangle (a convex polygon with collinear sides and no
/// interior point), and border points with a few inside.
#[test]
fn points_on_the_rectangle_border() {
    for seed in 0..16u64 {
        let mut rng = Rng::new(seed + 7);
        let (w, h) = (1 + rng.below(40), 1 + rng.below(40));
        let mut pts: Vec<DVec2> = Vec::new();
        for x in 0..w {
            pts.push(DVec2::new(x as f64, 0.0));
            pts.push(DVec2::new((x + 1) as f64, h as f64));
        }
        for y in 0..h {
            pts.push(DVec2::new(w as f64, y as f64));
            pts.push(DVec2::new(0.0, (y + 1) as f64));
        }
        rng.shuffle(&mut pts);
        let map = plane::triangulate(&pts).unwrap();
        // Every border point is a hull vertex: no flat triangle along a side.
        assert_eq!(map.hull().len(), pts.len());
        assert_eq!(map.real_faces().count(), pts.len() - 2);
        assert_matches_spade(&pts);
        for i in 0..rng.below(5) {
            pts.push(DVec2::new(0.5 + (i % w) as f64, 0.5 + (i % h) as f64));
        }
        assert_matches_spade(&pts);
    }
    // The sampler's boundary points: exactly the hull.
    let p = plane::poisson_disc(9.0, 4.0, 0.7, 3).unwrap();
    let map = plane::triangulate(&p.points).unwrap();
    assert_eq!(map.hull().len(), p.boundary_count);
    assert_matches_spade(&p.points);
}

/// A non-finite or out-of-range coordinate anywhere is refused before any work.
#[test]
fn bad_coordinates_are_typed_errors() {
    let bad = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        2e30,
        -1e31,
        1e-41,
        -3e-300,
        f64::MIN_POSITIVE / 4.0,
    ];
    for (k, &x) in bad.iter().enumerate() {
        for seed in 0..6u64 {
            let mut pts = uniform_points(30, seed);
            let i = (seed as usize * 7 + k) % pts.len();
            if seed % 2 == 0 {
                pts[i].x = x;
            } else {
                pts[i].y = x;
            }
            assert!(
                matches!(plane::triangulate(&pts), Err(PlaneError::BadPoints(_))),
                "{x} at {i}"
            );
        }
    }
    // The extremes of the accepted range triangulate exactly.
    let edge = [
        DVec2::new(-1e30, -1e30),
        DVec2::new(1e30, -1e30),
        DVec2::new(0.0, 1e30),
        DVec2::new(1e-40, 0.0),
        DVec2::new(0.0, 1e-40),
    ];
    assert_matches_spade(&edge);
}

/// Fewer than three points, and every collinear set, however long or however placed.
#[test]
fn too_few_and_collinear_sets_are_typed_errors() {
    for n in 0..3 {
        let pts = uniform_points(n, 1);
        assert!(matches!(
            plane::triangulate(&pts),
            Err(PlaneError::BadPoints(_))
        ));
    }
    for seed in 0..20u64 {
        let mut rng = Rng::new(seed + 31);
        let (dx, dy) = (rng.below(7) as f64 - 3.0, rng.below(7) as f64 - 3.0);
        let (dx, dy) = if dx == 0.0 && dy == 0.0 {
            (1.0, 0.5)
        } else {
            (dx, dy)
        };
        let n = 3 + rng.below(300);
        let mut ts: Vec<u64> = (0..n).map(|_| rng.next_u64() % 100_000).collect();
        ts.sort_unstable();
        ts.dedup();
        if ts.len() < 3 {
            continue;
        }
        let mut pts: Vec<DVec2> = ts
            .iter()
            .map(|&t| DVec2::new(5.0 + dx * t as f64, -2.0 + dy * t as f64))
            .collect();
        rng.shuffle(&mut pts);
        assert!(
            matches!(plane::triangulate(&pts), Err(PlaneError::BadPoints(_))),
            "seed {seed}"
        );
        // One point off the line makes it valid: a fan of flat-free triangles.
        pts.push(DVec2::new(5.0 - dy, -2.0 + dx));
        let map = plane::triangulate(&pts).unwrap();
        assert_eq!(map.real_faces().count(), pts.len() - 2);
        assert_matches_spade(&pts);
    }
}
