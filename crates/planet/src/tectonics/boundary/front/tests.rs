//! The flood against a test of every vertex.

use super::*;
use crate::tectonics::OCEANIC;

/// Two plates split by the great circle `x = 0`, the one at `x > 0` turning about `-y` so
/// that it runs into the other where `z > 0` and leaves it where `z < 0`; `omega` in radians
/// per Myr. Returns the world, the plates, the settings and the plate of every vertex.
fn converging(n: usize, omega: f64) -> (World, Vec<Plate>, Params, Vec<u32>) {
    let params = Params::earth(n, 3);
    let world = world_ops::fibonacci_world(n, params.radius_km, 0.3, 3).unwrap();
    let plate: Vec<u32> = world_ops::positions(&world)
        .iter()
        .map(|p| u32::from(p.x > 0.0))
        .collect();
    let still = Plate {
        pole: DVec3::Z,
        omega: 0.0,
        area_km2: 0.0,
        parent: None,
    };
    let moving = Plate {
        pole: -DVec3::Y,
        omega,
        ..still
    };
    (world, vec![still, moving], params, plate)
}

/// Every vertex of `plate` whose landing the front test calls an overlap, tested one by one
/// from itself (no flood, no distance filter): the vertex and where it lands.
fn every_overlap(
    world: &World,
    plates: &[Plate],
    params: &Params,
    plate: &[u32],
    mover: u32,
) -> Vec<(Vertex, Vertex)> {
    let (mesh, pos) = (world.mesh(), world_ops::positions(world));
    let dt = params.time_step_myr;
    let turn = |p: &Plate| DQuat::from_axis_angle(p.pole, p.omega * dt);
    let other = 1 - mover;
    let q_of =
        |x: DVec3| turn(&plates[other as usize]).inverse() * (turn(&plates[mover as usize]) * x);
    mesh.vertices()
        .filter(|v| plate[v.index()] == mover)
        .filter_map(|v| {
            let q = q_of(pos[v.index()]);
            let w = band::nearest_from(mesh, pos, v, q);
            let near = pos[w.index()].distance(q) < OVERLAP_CELLS * params.spacing_km
                || !mesh.neighbors(w).any(|u| plate[u.index()] == mover);
            (plate[w.index()] == other && near).then_some((v, w))
        })
        .collect()
}

#[test]
fn the_flood_finds_the_overlaps_a_test_of_every_vertex_finds() {
    // About four cells of closing per step at 20k vertices: several rows overlap.
    let (world, plates, params, plate) = converging(20_000, 0.1);
    let crust = vec![OCEANIC; plate.len()];
    let edges = band::boundary_edges(world.mesh(), &plate);
    let ends = band::ends(world.mesh(), &edges);
    // The moving plate is the faster: its ocean dives, and the still one's overlaps (none
    // here: it does not move) are not acted on.
    let polarity = Polarity::new();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            find_overlaps(
                &world,
                &plates,
                &params,
                (&plate, &crust),
                ((&mut edges.clone(), false), &ends),
                &polarity,
            )
        })
    };
    let found = run(2);
    let one = run(1);
    assert!(
        found
            .iter()
            .zip(&one)
            .all(|(a, b)| a.vertex == b.vertex && a.landed == b.landed)
            && found.len() == one.len(),
        "same overlaps on 1 and 2 threads"
    );
    // The moving plate's crust dives: the flood finds every overlap a test of every vertex
    // finds (the front is smooth), landing on the same vertex.
    let all = every_overlap(&world, &plates, &params, &plate, 1);
    assert!(all.len() > 300, "{} overlaps", all.len());
    assert!(found.windows(2).all(|w| w[0].vertex < w[1].vertex));
    let of = |p: u32| -> Vec<(Vertex, Vertex)> {
        found
            .iter()
            .filter(|o| plate[o.vertex.index()] == p)
            .map(|o| (o.vertex, o.landed))
            .collect()
    };
    assert_eq!(of(1), all);
    assert!(
        found
            .iter()
            .all(|o| !o.other_continental && o.other != plate[o.vertex.index()])
    );
    // The still plate overrides: its front row's overlaps are found (the plate across runs
    // into them), but the flood does not go on behind them.
    let still = every_overlap(&world, &plates, &params, &plate, 0);
    let front = of(0);
    assert!(!front.is_empty() && front.len() < still.len());
    assert!(front.iter().all(|f| still.binary_search(f).is_ok()));
}

#[test]
fn a_still_pair_of_plates_overlaps_nowhere() {
    let (world, mut plates, params, plate) = converging(5_000, 0.0);
    plates[1].omega = 0.0;
    let crust = vec![OCEANIC; plate.len()];
    let edges = band::boundary_edges(world.mesh(), &plate);
    let ends = band::ends(world.mesh(), &edges);
    let found = find_overlaps(
        &world,
        &plates,
        &params,
        (&plate, &crust),
        ((&mut edges.clone(), false), &ends),
        &Polarity::new(),
    );
    assert!(found.is_empty());
}

/// The first row from the band's vertices by their rings is the one a pass over the boundary
/// edges finds (both ends of each edge where the plate across closes in, sorted, the lowest
/// plate and vertex across kept), and the edges met on those rings are the band's, once each;
/// on random plates and motions, on 1, 2 and 4 threads.
#[test]
fn the_first_row_from_the_rings_is_the_one_from_the_edges() {
    let mut total = 0;
    for seed in 0..4 {
        let mut rng = testkit::Rng::new(seed + 90);
        let params = Params::earth(8000, seed);
        let world = world_ops::fibonacci_world(8000, params.radius_km, 0.3, seed).unwrap();
        let (mesh, pos) = (world.mesh(), world_ops::positions(&world));
        let k = 3 + rng.below(5);
        let (plate, _) = testkit::plate_regions(pos, k, 0.01, &mut rng);
        let plates: Vec<Plate> = (0..k)
            .map(|_| Plate {
                pole: DVec3::new(rng.unit_f64() - 0.5, rng.unit_f64() - 0.5, 0.3).normalize(),
                omega: 0.01 * rng.unit_f64(),
                area_km2: 0.0,
                parent: None,
            })
            .collect();
        let edges = band::boundary_edges(mesh, &plate);
        let closing = |v: Vertex, u: Vertex| {
            let (mine, theirs) = (
                &plates[plate[v.index()] as usize],
                &plates[plate[u.index()] as usize],
            );
            let x = pos[v.index()];
            let c = (theirs.velocity(x) - mine.velocity(x)).dot(pos[u.index()] - x);
            (c < 0.0).then_some((v, plate[u.index()], u))
        };
        let mut old: Vec<(Vertex, u32, Vertex)> = edges
            .iter()
            .flat_map(|&e| {
                let (v, u) = (mesh.origin(e), mesh.dest(e));
                [closing(v, u), closing(u, v)].into_iter().flatten()
            })
            .collect();
        old.sort_unstable();
        old.dedup_by_key(|(v, _, _)| *v);
        let ends = band::ends(mesh, &edges);
        for pool in testkit::thread_pools() {
            let (row, met) = pool.install(|| first_row(mesh, pos, &plates, &plate, &ends, true));
            assert_eq!(row, old);
            // The band's edges met on the same rings, once each: the band once sorted.
            assert_eq!(met.len(), edges.len());
            assert_eq!(band::in_edge_order_of(mesh, &plate, met), edges);
            let (alone, none) = first_row(mesh, pos, &plates, &plate, &ends, false);
            assert!(alone == old && none.is_empty());
        }
        total += old.len();
    }
    assert!(total > 500, "{total}");
}
