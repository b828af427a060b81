//! The sweep against one queue over everything, and against exact distances.

use super::*;
use std::collections::VecDeque;

/// A source at every `step`-th vertex, tagged by `tag` of its vertex.
fn every(pos: &[DVec3], step: usize, tag: impl Fn(usize) -> u32) -> Vec<Source> {
    (0..pos.len())
        .step_by(step)
        .map(|v| Source {
            vertex: Vertex::new(v as u32),
            point: pos[v],
            tag: tag(v),
        })
        .collect()
}

/// The sweep as one queue over every vertex (the reference the regions must match).
fn one_queue(
    mesh: &Mesh,
    pos: &[DVec3],
    radius_km: f64,
    sources: &[Source],
    limit_km: f64,
    region: Option<&[u32]>,
) -> (Vec<f64>, Vec<u32>) {
    let n = mesh.vertex_slots();
    let (mut key, mut tag, mut src) = (vec![f64::INFINITY; n], vec![NONE; n], vec![NONE; n]);
    let arc = (limit_km / radius_km).min(std::f64::consts::PI);
    let chord_limit = 2.0 * radius_km * (0.5 * arc).sin();
    let mut queue = VecDeque::new();
    let mut queued = vec![false; n];
    for (i, s) in sources.iter().enumerate() {
        let v = s.vertex.index();
        let d = pos[v].distance(s.point);
        if d <= chord_limit && d < key[v] {
            (key[v], tag[v], src[v]) = (d, s.tag, i as u32);
            if !std::mem::replace(&mut queued[v], true) {
                queue.push_back(v);
            }
        }
    }
    while let Some(v) = queue.pop_front() {
        queued[v] = false;
        let s = sources[src[v] as usize];
        for u in mesh.neighbors(Vertex::new(v as u32)) {
            let u = u.index();
            if region.is_some_and(|r| r[u] != r[v]) {
                continue;
            }
            let d = pos[u].distance(s.point);
            if d < key[u] && d <= chord_limit {
                (key[u], tag[u], src[u]) = (d, s.tag, src[v]);
                if !std::mem::replace(&mut queued[u], true) {
                    queue.push_back(u);
                }
            }
        }
    }
    (key, tag)
}

/// Sources at vertices `a` (tag 1) and `b` (tag 2).
fn two_sources(pos: &[DVec3], a: usize, b: usize) -> [Source; 2] {
    [(a, 1), (b, 2)].map(|(v, tag)| Source {
        vertex: Vertex::new(v as u32),
        point: pos[v],
        tag,
    })
}

#[test]
fn distances_are_great_circle_distances_to_the_nearest_source() {
    let (mesh, pos) = sphere::fibonacci_sphere(4000, 6371.0, 0.0, 1).unwrap();
    let sources = two_sources(&pos, 10, 3000);
    let mut sweep = Sweep::default();
    sweep.run(&mesh, &pos, 6371.0, &sources, 3000.0, None);
    for (v, &p) in pos.iter().enumerate() {
        let exact = sources
            .iter()
            .map(|s| (sphere::geometry::great_circle_distance(p, s.point), s.tag))
            .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
        if exact.0 < 2900.0 {
            assert!(
                (f64::from(sweep.dist(v)) - exact.0).abs() < 1.0,
                "{v}: {} vs {}",
                sweep.dist(v),
                exact.0
            );
            assert_eq!(sweep.tag(v), exact.1);
        }
        if exact.0 > 3100.0 {
            assert_eq!(sweep.dist(v), FAR);
        }
    }
}

#[test]
fn regions_on_any_thread_count_match_one_queue_bit_for_bit() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(20_000, r, 0.3, 4).unwrap();
    // Six regions by longitude, sources along their borders and a few inside.
    let region: Vec<u32> = pos
        .iter()
        .map(|p| ((p.y.atan2(p.x) + std::f64::consts::PI) / 1.05) as u32)
        .collect();
    let sources: Vec<Source> = mesh
        .vertices()
        .filter(|&v| {
            v.index() % 97 == 0
                || mesh
                    .neighbors(v)
                    .any(|u| region[u.index()] != region[v.index()])
        })
        .map(|v| Source {
            vertex: v,
            point: (pos[v.index()] + DVec3::splat(40.0)).normalize() * r,
            tag: v.raw() % 1000,
        })
        .collect();
    let (key, tag) = one_queue(&mesh, &pos, r, &sources, 900.0, Some(&region));
    let mut sweep = Sweep::default();
    // Twice on the same arrays (the reset), on one and on two threads.
    for threads in [1, 2, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| sweep.run(&mesh, &pos, r, &sources, 900.0, Some(&region)));
        let mut reached = 0;
        for v in 0..mesh.vertex_slots() {
            assert_eq!(sweep.chord(v).to_bits(), key[v].to_bits(), "{v}");
            assert_eq!(sweep.tag(v), tag[v]);
            reached += usize::from(key[v].is_finite());
        }
        assert_eq!(sweep.reached().len(), reached);
        assert!(sweep.reached().windows(2).all(|w| w[0] < w[1]));
        assert!(reached > 5000 && reached < 20_000, "{reached}");
    }
    // A different sweep on the same arrays forgets the first one.
    sweep.run(&mesh, &pos, r, &sources[..1], 100.0, None);
    assert!(sweep.reached().len() < 50);
    assert_eq!(sweep.dist(sources[500].vertex.index()), FAR);
}

#[test]
fn clusters_on_any_thread_count_match_one_queue_bit_for_bit() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(20_000, r, 0.3, 5).unwrap();
    // Clumps of sources (some close enough to share vertices, most not), off their
    // vertices, over the whole sphere (no regions).
    let sources: Vec<Source> = (0..mesh.vertex_slots() as u32)
        .filter(|i| i % 401 < 3 || i % 1999 == 7)
        .map(|i| Source {
            vertex: Vertex::new(i),
            point: (pos[i as usize] + DVec3::new(30.0, -20.0, 10.0)).normalize() * r,
            tag: i % 7,
        })
        .collect();
    let reach: Vec<Reach> = sources
        .iter()
        .map(|s| Reach::new(s.point, 2.0 * r * (0.5 * 600.0 / r).sin()))
        .collect();
    let groups = clusters::groups(&reach);
    assert!(
        groups.len() > 5 && groups.iter().any(|g| g.len() > 3),
        "{groups:?}"
    );
    let (key, tag) = one_queue(&mesh, &pos, r, &sources, 600.0, None);
    let mut sweep = Sweep::default();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| sweep.run(&mesh, &pos, r, &sources, 600.0, None));
        for v in 0..mesh.vertex_slots() {
            assert_eq!(sweep.chord(v).to_bits(), key[v].to_bits(), "{v}");
            assert_eq!(sweep.tag(v), tag[v]);
        }
        let reached = key.iter().filter(|k| k.is_finite()).count();
        assert_eq!(sweep.reached().len(), reached);
        assert!(reached > 5000, "{reached}");
    }
}

#[test]
fn a_short_reach_neither_claims_nor_shields_what_lies_beyond_it() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(6000, r, 0.0, 3).unwrap();
    // Source 1 reaches 700 km, source 2 (about 1500 km away) 3000 km.
    let far = (0..pos.len())
        .min_by_key(|&v| {
            let d = sphere::geometry::great_circle_distance(pos[v], pos[10]);
            ((d - 1500.0).abs() * 1000.0) as u64
        })
        .unwrap();
    let sources = two_sources(&pos, 10, far);
    let reach = |s: &Source| if s.tag == 1 { 700.0 } else { 3000.0 };
    let mut sweep = Sweep::default();
    sweep.run_limited(&mesh, &pos, r, &sources, reach, None);
    let (mut near_one, mut beyond) = (0, 0);
    for (v, &p) in pos.iter().enumerate() {
        let d: Vec<f64> = sources
            .iter()
            .map(|s| sphere::geometry::great_circle_distance(p, s.point))
            .collect();
        let expect = if d[0] < 690.0 && d[0] < d[1] - 50.0 {
            Some(1)
        } else if d[1] < 2950.0 && (d[0] > 710.0 || d[1] < d[0] - 50.0) {
            Some(2)
        } else if d[1] > 3050.0 && d[0] > 710.0 {
            Some(u32::MAX)
        } else {
            None
        };
        if let Some(t) = expect {
            assert_eq!(sweep.tag(v), t, "{v}: {d:?}");
            near_one += usize::from(t == 1);
            beyond += usize::from(t == 2 && d[0] < d[1]);
        }
    }
    // Vertices nearer to source 1 but beyond its reach were taken by source 2.
    assert!(near_one > 10 && beyond > 40, "{near_one} {beyond}");
}

#[test]
fn an_unordered_sweep_is_the_same_field_with_the_same_vertices() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(8000, r, 0.3, 5).unwrap();
    let region: Vec<u32> = pos.iter().map(|p| u32::from(p.z > 1000.0)).collect();
    let sources = every(&pos, 211, |v| v as u32);
    let (key, tag) = one_queue(&mesh, &pos, r, &sources, 700.0, Some(&region));
    let mut sweep = Sweep::default();
    for pool in testkit::thread_pools() {
        pool.install(|| {
            sweep
                .unordered()
                .run(&mesh, &pos, r, &sources, 700.0, Some(&region))
        });
        for v in 0..mesh.vertex_slots() {
            assert_eq!(sweep.chord(v).to_bits(), key[v].to_bits(), "{v}");
            assert_eq!(sweep.tag(v), tag[v]);
        }
        let mut reached = sweep.reached().to_vec();
        reached.sort_unstable();
        let expect: Vec<u32> = (0..mesh.vertex_slots() as u32)
            .filter(|&v| key[v as usize].is_finite())
            .collect();
        assert_eq!(reached, expect);
    }
}

#[test]
fn beyond_is_never_wrong_and_sure_well_past_its_distance() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(6000, r, 0.0, 2).unwrap();
    let sources = two_sources(&pos, 10, 4000);
    let mut sweep = Sweep::default();
    sweep.run(&mesh, &pos, r, &sources, 2500.0, None);
    let (mut sure, mut open) = (0, 0);
    // The chord against the cut, as the squares' test stands for.
    let by_chord = |km: f64, v: usize| {
        let arc = (km * (1.0 + 1e-6) / r).min(std::f64::consts::PI);
        sweep.chord(v) > 2.0 * r * (0.5 * arc).sin()
    };
    for km in [0.0, 180.0, 180.00001, 1000.0, 2500.0] {
        let beyond = sweep.beyond(km);
        for v in 0..pos.len() {
            assert_eq!(beyond(v), by_chord(km, v), "{km} {v}");
            let d = f64::from(sweep.dist(v));
            if beyond(v) {
                assert!(d >= km, "{v}: {d} < {km}");
                sure += 1;
            } else if d > km * (1.0 + 1e-5) + 1e-9 {
                panic!("{v}: {d} is well beyond {km} but not told");
            } else {
                open += 1;
            }
        }
    }
    assert!(sure > 1000 && open > 100, "{sure} {open}");
    // Out-of-range distances: only what no source reached, or what is truly beyond.
    for km in [f64::NAN, -5.0, 1e9, f64::INFINITY] {
        let beyond = sweep.beyond(km);
        for v in 0..pos.len() + 10 {
            assert_eq!(beyond(v), by_chord(km, v), "{km} {v}");
            if beyond(v) {
                let d = sweep.dist(v);
                assert!(d == FAR || f64::from(d) >= km, "{km} {v}: {d}");
            }
        }
    }
}

/// The squares' tests decide as the rounded roots do, at ties and within an ulp of them.
#[test]
fn squares_order_as_their_rounded_roots() {
    let mut rng = testkit::Rng::new(23);
    let mut close = 0;
    for k in 0..200_000 {
        // A chord, and squares around its square: equal roots, an ulp apart, far apart.
        let c = 1e-3 + rng.unit_f64() * 2e4;
        let c2 = c * c;
        let step = |x: f64, n: i64| f64::from_bits((x.to_bits() as i64 + n) as u64);
        let a = step(c2, rng.below(9) as i64 - 4);
        let b = match k % 3 {
            0 => step(a, rng.below(9) as i64 - 4),
            1 => a * (1.0 + (rng.unit_f64() - 0.5) * 1e-11),
            _ => a * (0.5 + rng.unit_f64()),
        };
        close += usize::from(a.sqrt() == b.sqrt() && a != b);
        assert_eq!(nearer(a, b), a.sqrt() < b.sqrt(), "{a:e} {b:e}");
        assert_eq!(nearer(a, f64::INFINITY), a.sqrt() < f64::INFINITY);
        let reach = Reach::new(DVec3::ZERO, c);
        assert_eq!(reach.holds(a), a.sqrt() <= c, "{a:e} within {c:e}");
        assert_eq!(reach.holds(b), b.sqrt() <= c, "{b:e} within {c:e}");
    }
    // Squares whose roots round alike did occur (the case the roots decide).
    assert!(close > 1000, "{close}");
    assert!(!Reach::new(DVec3::ZERO, -1.0).holds(0.0));
}

/// The groups by region, counted into place (small region values) or sorted (sparse ones):
/// each region's sources in input order, the regions in increasing order.
#[test]
fn groups_by_region_are_the_sorted_sources() {
    let mut rng = testkit::Rng::new(31);
    for (n, values) in [
        (0, 1),
        (1, 1),
        (500, 12),
        (3000, 40),
        (200, 1 << 30),
        (50, u32::MAX),
    ] {
        let of: Vec<u32> = (0..n)
            .map(|_| match values {
                u32::MAX => u32::MAX - rng.below(3) as u32,
                _ => rng.below(values as usize) as u32,
            })
            .collect();
        let mut sorted: Vec<(u32, u32)> = of.iter().copied().zip(0..).collect();
        sorted.sort_unstable();
        let expect: Vec<Vec<u32>> = sorted
            .chunk_by(|a, b| a.0 == b.0)
            .map(|g| g.iter().map(|k| k.1).collect())
            .collect();
        assert_eq!(
            clusters::by_region(&of),
            expect,
            "{n} sources, {values} values"
        );
    }
}

/// Each source's reach as its own limit gives it, whether the limits come in runs, alternate
/// or are all the same (the last limit's chord is kept between sources).
#[test]
fn each_source_reaches_as_its_own_limit_says() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(3000, r, 0.3, 6).unwrap();
    let sources = every(&pos, 37, |v| v as u32);
    let limits = [
        700.0,
        700.0,
        700.0,
        250.0,
        700.0,
        1e9,
        1e9,
        -3.0,
        f64::NAN,
        250.0,
    ];
    let limit = |s: &Source| limits[(s.tag as usize / 37) % limits.len()];
    let mut sweep = Sweep::default();
    sweep.run_limited(&mesh, &pos, r, &sources, limit, None);
    for (s, got) in sources.iter().zip(&sweep.reach) {
        let arc = (limit(s) / r).min(std::f64::consts::PI);
        let expect = Reach::new(s.point, 2.0 * r * (0.5 * arc).sin());
        let bits = |x: &Reach| [x.chord, x.above, x.within].map(f64::to_bits);
        assert_eq!(bits(got), bits(&expect), "{}", limit(s));
        assert_eq!(got.point, s.point);
    }
}

/// Slots cleared as they are read leave the next sweep nothing to reset, and what was not
/// cleared is reset as before: the next sweep is that of fresh arrays.
#[test]
fn cleared_slots_leave_the_next_sweep_as_fresh() {
    let r = 6371.0;
    let (mesh, pos) = sphere::fibonacci_sphere(6000, r, 0.3, 7).unwrap();
    let region: Vec<u32> = pos.iter().map(|p| u32::from(p.x > 0.0)).collect();
    let (first, second) = (every(&pos, 97, |_| 1), every(&pos, 401, |_| 2));
    let mut fresh = Sweep::default();
    fresh.run(&mesh, &pos, r, &second, 500.0, Some(&region));
    let n = mesh.vertex_slots();
    for cut in [0, n / 2, n, n + 10] {
        let mut sweep = Sweep::default();
        sweep
            .unordered()
            .run(&mesh, &pos, r, &first, 900.0, Some(&region));
        let reached = sweep.reached().len();
        (0..cut.min(n)).for_each(|i| sweep.clear(i));
        sweep.cleared(cut);
        assert!(sweep.reached().iter().all(|&v| v as usize >= cut));
        assert!(cut > 0 || sweep.reached().len() == reached);
        for i in 0..cut.min(n) {
            assert_eq!((sweep.dist(i), sweep.tag(i)), (FAR, NONE), "{i}");
        }
        sweep.run(&mesh, &pos, r, &second, 500.0, Some(&region));
        for v in 0..n {
            assert_eq!(
                sweep.chord(v).to_bits(),
                fresh.chord(v).to_bits(),
                "{cut} {v}"
            );
            assert_eq!(sweep.tag(v), fresh.tag(v));
        }
        assert_eq!(sweep.reached(), fresh.reached());
    }
}
