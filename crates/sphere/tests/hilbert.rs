//! Hilbert orders: the curve itself, permutations, determinism, locality, hostile points.

use glam::{DVec2, DVec3};
use sphere::internals::{hilbert_index, hilbert_order_plane, hilbert_order_sphere};
use sphere::{SphereError, hilbert_sort_mesh, sphere_mesh_hilbert};

fn is_permutation(order: &[u32], n: usize) -> bool {
    let mut seen = vec![false; n];
    order.len() == n
        && order
            .iter()
            .all(|&i| (i as usize) < n && !std::mem::replace(&mut seen[i as usize], true))
}

#[test]
fn hilbert_index_is_a_continuous_bijection_of_the_grid() {
    for bits in 1..=5 {
        let n = 1u32 << bits;
        let mut cell_at = vec![None; (n * n) as usize];
        for x in 0..n {
            for y in 0..n {
                let d = hilbert_index(x, y, bits) as usize;
                assert!(cell_at[d].is_none(), "two cells at {d}");
                cell_at[d] = Some((x, y));
            }
        }
        let cells: Vec<(u32, u32)> = cell_at.into_iter().map(Option::unwrap).collect();
        assert_eq!(cells[0], (0, 0));
        assert_eq!(*cells.last().unwrap(), (n - 1, 0));
        for w in cells.windows(2) {
            let step = w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1);
            assert_eq!(step, 1, "{:?} → {:?} at {bits} bits", w[0], w[1]);
        }
    }
    // The largest grids do not overflow.
    assert_eq!(hilbert_index(0, 0, 32), 0);
    assert_eq!(hilbert_index(u32::MAX, 0, 32), u64::MAX);
}

/// Mean distance between consecutive points of an order.
fn mean_step<P: Copy>(p: &[P], order: &[u32], dist: impl Fn(P, P) -> f64) -> f64 {
    let total: f64 = order
        .windows(2)
        .map(|w| dist(p[w[0] as usize], p[w[1] as usize]))
        .sum();
    total / (order.len() - 1) as f64
}

#[test]
fn sphere_order_is_a_deterministic_local_permutation() {
    let n = 20_000;
    let p = sphere::fibonacci_points(n, 6371.0, 0.5, 9).unwrap();
    let order = hilbert_order_sphere(&p);
    assert!(is_permutation(&order, n));
    assert_eq!(hilbert_order_sphere(&p), order);
    // Scaling the points does not change the order: only directions count.
    let unit: Vec<DVec3> = p.iter().map(|q| q.normalize()).collect();
    assert_eq!(hilbert_order_sphere(&unit), order);
    // Fibonacci order jumps around the globe (~golden angle per step); the curve stays near.
    let d = |a: DVec3, b: DVec3| a.distance(b);
    let identity: Vec<u32> = (0..n as u32).collect();
    let curve = mean_step(&unit, &order, d);
    let spiral = mean_step(&unit, &identity, d);
    // Mean spacing of n points on the unit sphere is about sqrt(4π / n) ≈ 0.025.
    assert!(curve < 0.05, "curve step {curve}");
    assert!(spiral > 10.0 * curve, "spiral step {spiral}, curve {curve}");
}

#[test]
fn plane_order_is_a_deterministic_local_permutation() {
    // Scattered points in a 100 × 30 rectangle: a perturbed Fibonacci sphere, flattened.
    let n = 10_000;
    let p: Vec<DVec2> = sphere::fibonacci_points(n, 1.0, 0.9, 5)
        .unwrap()
        .iter()
        .map(|q| DVec2::new(50.0 * q.x, 15.0 + 15.0 * q.y))
        .collect();
    let order = hilbert_order_plane(&p);
    assert!(is_permutation(&order, n));
    assert_eq!(hilbert_order_plane(&p), order);
    let d = |a: DVec2, b: DVec2| a.distance(b);
    let identity: Vec<u32> = (0..n as u32).collect();
    assert!(mean_step(&p, &order, d) * 10.0 < mean_step(&p, &identity, d));
    // Translation does not change the order.
    let moved: Vec<DVec2> = p.iter().map(|&q| q + DVec2::new(1e3, -7.0)).collect();
    assert_eq!(hilbert_order_plane(&moved), order);
}

#[test]
fn hostile_points_give_permutations_without_panicking() {
    let bad3 = [
        DVec3::ZERO,
        DVec3::NAN,
        DVec3::new(f64::INFINITY, 0.0, 0.0),
        DVec3::new(f64::NEG_INFINITY, f64::NAN, 1.0),
        DVec3::X,
        DVec3::X,
        DVec3::new(-0.0, -0.0, -1.0),
        DVec3::splat(f64::MAX),
        DVec3::splat(f64::MIN_POSITIVE),
    ];
    assert!(is_permutation(&hilbert_order_sphere(&bad3), bad3.len()));
    assert!(hilbert_order_sphere(&[]).is_empty());
    let bad2 = [
        DVec2::NAN,
        DVec2::new(f64::MAX, f64::MIN),
        DVec2::new(f64::INFINITY, 1.0),
        DVec2::ZERO,
        DVec2::ZERO,
        DVec2::new(-f64::MAX, f64::MAX),
    ];
    assert!(is_permutation(&hilbert_order_plane(&bad2), bad2.len()));
    // All points equal: a zero-size box.
    assert_eq!(hilbert_order_plane(&[DVec2::ONE; 3]), [0, 1, 2]);
    assert!(hilbert_order_plane(&[]).is_empty());
}

#[test]
fn hilbert_sort_mesh_keeps_positions_on_their_vertices() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(3000, 1.0, 0.7, 5).unwrap();
    let (before_mesh, before_pos) = (mesh.clone(), pos.clone());
    let remap = hilbert_sort_mesh(&mut mesh, &mut pos).unwrap();
    mesh.check().unwrap();
    delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos).unwrap();
    for v in before_mesh.vertices() {
        let nv = remap.vertex(v).unwrap();
        assert_eq!(pos[nv.index()], before_pos[v.index()]);
        let mut old: Vec<DVec3> = before_mesh
            .neighbors(v)
            .map(|w| before_pos[w.index()])
            .collect();
        let mut new: Vec<DVec3> = mesh.neighbors(nv).map(|w| pos[w.index()]).collect();
        old.sort_by(|a, b| a.to_array().partial_cmp(&b.to_array()).unwrap());
        new.sort_by(|a, b| a.to_array().partial_cmp(&b.to_array()).unwrap());
        assert_eq!(old, new);
    }
    // Wrong position count: typed error, nothing changed.
    let snapshot = (mesh.clone(), pos.clone());
    let mut short = pos[..10].to_vec();
    assert!(hilbert_sort_mesh(&mut mesh, &mut short).is_err());
    assert_eq!((mesh, pos), snapshot);
}

#[test]
fn sphere_mesh_hilbert_keeps_points_and_reports_original_indices() {
    let p = sphere::fibonacci_points(5000, 2.0, 0.8, 17).unwrap();
    let (mesh, pos, order) = sphere_mesh_hilbert(&p).unwrap();
    mesh.check().unwrap();
    assert!(is_permutation(&order, p.len()));
    assert_eq!(order, hilbert_order_sphere(&p));
    for (i, &o) in order.iter().enumerate() {
        assert_eq!(pos[i], p[o as usize]);
    }
    delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos).unwrap();
    // Same triangles as the mesh in input order, after mapping ids.
    let (plain, _) = sphere::sphere_mesh(&p).unwrap();
    let canon = |t: [u32; 3]| {
        let k = (0..3).min_by_key(|&k| t[k]).unwrap();
        [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
    };
    let mut a: Vec<[u32; 3]> = mesh
        .faces()
        .map(|f| canon(mesh.face_vertices(f).map(|v| order[v.index()])))
        .collect();
    let mut b: Vec<[u32; 3]> = plain
        .faces()
        .map(|f| canon(plain.face_vertices(f).map(|v| v.raw())))
        .collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);

    // Errors name indices of the caller's points.
    let mut bad = p.clone();
    bad[1234] = DVec3::new(f64::NAN, 0.0, 1.0);
    assert_eq!(
        sphere_mesh_hilbert(&bad).unwrap_err(),
        SphereError::NonFinite { index: 1234 }
    );
    let mut dup = p.clone();
    dup[4000] = dup[17];
    assert_eq!(
        sphere_mesh_hilbert(&dup).unwrap_err(),
        SphereError::Duplicate {
            first: 17,
            second: 4000
        }
    );
}

/// Points to mesh sorts on all cores: the same mesh, positions and order with 1, 2 and 4
/// threads, vertices in Hilbert order, and the original index of each vertex returned.
#[test]
fn sphere_mesh_hilbert_is_the_same_with_1_2_and_4_threads() {
    let mut rng = testkit::Rng::new(11);
    let points: Vec<DVec3> = (0..60_000)
        .map(|_| DVec3::from_array(rng.unit_vector()))
        .collect();
    let runs: Vec<_> = testkit::thread_pools()
        .iter()
        .map(|pool| pool.install(|| sphere_mesh_hilbert(&points).unwrap()))
        .collect();
    for run in &runs[1..] {
        assert!(run.0 == runs[0].0);
        assert_eq!(run.2, runs[0].2);
        assert!(
            run.1
                .iter()
                .zip(&runs[0].1)
                .all(|(a, b)| a.to_array().map(f64::to_bits) == b.to_array().map(f64::to_bits))
        );
    }
    let (mesh, positions, order) = &runs[0];
    assert_eq!(order, &hilbert_order_sphere(&points));
    assert!(
        positions
            .iter()
            .zip(order)
            .all(|(p, &i)| *p == points[i as usize])
    );
    mesh.check().unwrap();
    assert_eq!(
        delaunay::is_delaunay(&delaunay::Sphere, mesh, positions),
        Ok(())
    );
}

/// The sorted path's own checks: duplicates among many points sharing one Hilbert cell, points
/// so small that the exact predicates need them scaled, and a point inside the hull.
#[test]
fn sphere_mesh_hilbert_finds_duplicates_in_one_cell_and_scales_tiny_points() {
    // 3,000 points in a cap far smaller than one Hilbert cell (equal keys), three far points.
    let mut p: Vec<DVec3> = (0..3000)
        .map(|i| DVec3::new(1.0, i as f64 * 1e-13, (i % 7) as f64 * 1e-13))
        .collect();
    p.extend([DVec3::NEG_X, DVec3::Y, DVec3::NEG_Z]);
    let order = hilbert_order_sphere(&p);
    assert!(order.windows(2).take(10).all(|w| w[0] < w[1]), "one cell");
    let mut dup = p.clone();
    dup.push(p[1234]);
    assert_eq!(
        sphere_mesh_hilbert(&dup).unwrap_err(),
        SphereError::Duplicate {
            first: 1234,
            second: 3003
        }
    );

    // A radius of 1e-80: scaled by a power of two inside, returned unscaled, same mesh.
    let unit = sphere::fibonacci_points(3000, 1.0, 0.7, 5).unwrap();
    let tiny: Vec<DVec3> = unit.iter().map(|&q| q * 2f64.powi(-266)).collect();
    let (m1, pos1, o1) = sphere_mesh_hilbert(&unit).unwrap();
    let (m2, pos2, o2) = sphere_mesh_hilbert(&tiny).unwrap();
    assert_eq!(o1, o2);
    assert!(m1 == m2);
    assert!(pos2.iter().zip(&o2).all(|(q, &i)| *q == tiny[i as usize]));
    delaunay::is_delaunay(&delaunay::Sphere, &m1, &pos1).unwrap();

    // A point well inside the hull is named by its input index.
    let mut inner = unit.clone();
    inner[777] *= 0.5;
    assert_eq!(
        sphere_mesh_hilbert(&inner).unwrap_err(),
        SphereError::NotInConvexPosition { index: 777 }
    );
}

/// Timings of `sphere_mesh_hilbert` on inputs that are quadratic without randomised rounds
/// (printed; speed is judged by comparing the lines, not asserted): two latitude rings and
/// twenty rings at 100k and 400k points against uniform random points. Each is checked
/// Delaunay.
#[test]
#[ignore = "stress: run with --release -- --ignored stress_ --nocapture"]
fn stress_hilbert_rings_scale_like_random_points() {
    let mut rng = testkit::Rng::new(5);
    for n in [100_000usize, 400_000] {
        let rings = |count: usize| -> Vec<DVec3> {
            (0..n)
                .map(|i| {
                    let ring = i % count;
                    let t = (i / count) as f64 * std::f64::consts::TAU / (n / count) as f64
                        + ring as f64;
                    let y = -0.9 + 1.8 * (ring as f64 + 0.5) / count as f64;
                    let r = (1.0 - y * y).sqrt();
                    DVec3::new(r * t.cos(), y, r * t.sin())
                })
                .collect()
        };
        let random: Vec<DVec3> = (0..n)
            .map(|_| DVec3::from_array(rng.unit_vector()))
            .collect();
        let mut line = format!("n={n}:");
        for (name, p) in [
            ("2 rings", rings(2)),
            ("20 rings", rings(20)),
            ("random", random),
        ] {
            let t = std::time::Instant::now();
            let (mesh, pos, _) = sphere_mesh_hilbert(&p).unwrap();
            line += &format!(" {name} {:?};", t.elapsed());
            assert_eq!(mesh.face_count(), 2 * n - 4);
            assert_eq!(
                delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos),
                Ok(())
            );
        }
        eprintln!("{line}");
    }
}
