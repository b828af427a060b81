use super::*;

#[test]
fn the_band_is_what_a_scan_of_every_ring_and_face_finds() {
    let (mesh, pos) = sphere::fibonacci_sphere(5000, 1.0, 0.3, 2).unwrap();
    let plate: Vec<u32> = pos
        .iter()
        .map(|p| u32::from(p.x > 0.1) + 2 * u32::from(p.z > -0.3))
        .collect();
    let edges = boundary_edges(&mesh, &plate);
    let scan: Vec<Edge> = mesh
        .undirected_edges()
        .filter(|&e| plate[mesh.origin(e).index()] != plate[mesh.dest(e).index()])
        .collect();
    assert_eq!(edges, scan);
    assert!(edges.len() > 100);
    let rings = testkit::border_vertices(&mesh, &plate);
    assert_eq!(ends(&mesh, &edges), rings);
    let mixed: Vec<Face> = mesh
        .faces()
        .filter(|&f| {
            let [a, b, c] = mesh.face_vertices(f).map(|v| plate[v.index()]);
            !(a == b && b == c)
        })
        .collect();
    assert_eq!(sides(&mesh, &edges), mixed);
}

/// From the band's vertices (any order, duplicates or extra vertices do no harm, the
/// scan's answer on 1, 2 and 4 threads), after random plate motions.
#[test]
fn the_band_from_its_vertices_is_the_scan() {
    let mut total = 0;
    for seed in 0..4 {
        let mut rng = testkit::Rng::new(seed + 7);
        let mut world = world::World::fibonacci_sphere(3000, 1.0, 0.3, seed).unwrap();
        let (plate, turns) = testkit::plate_regions(world.positions(), 5, 0.02, &mut rng);
        let mut band = Vec::new();
        let options = world::MoveOptions::default();
        world
            .turn_regions_in_steps_banded(&plate, &turns, 2, &options, &mut band)
            .unwrap();
        let mesh = world.mesh();
        let scan = boundary_edges(mesh, &plate);
        for pool in testkit::thread_pools() {
            assert_eq!(pool.install(|| from_vertices(mesh, &plate, &band)), scan);
        }
        // Extra vertices inside the plates, in another order.
        let mut more: Vec<Vertex> = band.iter().rev().copied().collect();
        more.extend(mesh.vertices().step_by(11));
        more.sort_by_key(|v| v.index() % 7);
        more.dedup();
        assert_eq!(from_vertices(mesh, &plate, &more), scan);
        total += scan.len();
    }
    assert!(total > 1000, "{total}");
}

/// The walk that skips the vertex it came from ends where a walk scanning every
/// neighbour of every step ends, from random starts to random points a few cells away
/// and far away.
#[test]
fn the_walk_skipping_where_it_came_from_ends_where_the_full_walk_ends() {
    let world = world::World::fibonacci_sphere(20_000, 6371.0, 0.3, 9).unwrap();
    let (mesh, pos) = (world.mesh(), world.positions());
    let full = |v: Vertex, q: DVec3| {
        let (mut best, mut key) = (v, distance_key(pos, v, q));
        loop {
            let from = best;
            for u in mesh.neighbors(from) {
                let k = distance_key(pos, u, q);
                if k < key {
                    (best, key) = (u, k);
                }
            }
            if best == from {
                return best;
            }
        }
    };
    let mut rng = testkit::Rng::new(12);
    let n = mesh.vertex_slots() as u32;
    for k in 0..4000 {
        let v = Vertex::new(rng.below(n as usize) as u32);
        let spread = if k % 2 == 0 { 300.0 } else { 6000.0 };
        let offset = DVec3::new(
            rng.unit_f64() - 0.5,
            rng.unit_f64() - 0.5,
            rng.unit_f64() - 0.5,
        ) * spread;
        let q = (pos[v.index()] + offset).normalize() * 6371.0;
        assert_eq!(nearest_from(mesh, pos, v, q), full(v, q));
    }
}

/// The filtered comparison answers as the plain one, bit for bit: keys of neighbours,
/// the vertex's own key and keys a few units of rounding either side (ties the squares
/// cannot tell), queries near and far (beyond 90°, where the key is positive).
#[test]
fn a_key_compared_by_squares_is_the_key_compared() {
    let world = world::World::fibonacci_sphere(3000, 6371.0, 0.3, 9).unwrap();
    let (mesh, pos) = (world.mesh(), world.positions());
    let mut rng = testkit::Rng::new(5);
    let n = mesh.vertex_slots();
    let (mut told, mut all) = (0usize, 0usize);
    for k in 0..3000 {
        let v = Vertex::new(rng.below(n) as u32);
        let spread = [50.0, 400.0, 9000.0, 20000.0][k % 4];
        let offset = DVec3::new(
            rng.unit_f64() - 0.5,
            rng.unit_f64() - 0.5,
            rng.unit_f64() - 0.5,
        ) * spread;
        let q = (pos[v.index()] + offset).normalize() * 6371.0 * (1.0 + 1e-3 * rng.unit_f64());
        let kv = distance_key(pos, v, q);
        let ulps = |x: f64, d: i64| f64::from_bits((x.to_bits() as i64 + d) as u64);
        for u in mesh.neighbors(v).chain([v]) {
            let ku = distance_key(pos, u, q);
            let keys = [
                kv,
                ku,
                ulps(ku, 1),
                ulps(ku, -1),
                ulps(ku, 3),
                ulps(ku, -3),
                -ku,
                0.0,
            ];
            for key in keys {
                let plain = (ku < key).then_some(ku);
                let filtered = nearer_key(pos, u, q, key);
                assert_eq!(
                    plain.map(f64::to_bits),
                    filtered.map(f64::to_bits),
                    "{u:?} {key}"
                );
                all += 1;
                told += usize::from(plain.is_none());
            }
        }
    }
    assert!(all > 100_000 && told > all / 4, "{told} of {all}");
}

#[test]
fn the_band_follows_removals_insertions_and_plate_changes() {
    let mut world = world::World::fibonacci_sphere(4000, 1.0, 0.3, 5).unwrap();
    let mut plate: Vec<u32> = world
        .positions()
        .iter()
        .map(|p| u32::from(p.y > 0.2) + 2 * u32::from(p.z > 0.1))
        .collect();
    let mut band = boundary_edges(world.mesh(), &plate);
    // Remove vertices along the band, and change the plate of others.
    let ends = ends(world.mesh(), &band);
    let gone: Vec<Vertex> = ends.iter().step_by(5).copied().collect();
    let report = world.remove_vertices(&gone).unwrap();
    let moved: Vec<Vertex> = ends.iter().skip(2).step_by(7).copied().collect();
    for v in &moved {
        plate[v.index()] = 3 - plate[v.index()].min(3);
    }
    let mesh = world.mesh();
    let touched = report.edges.iter().copied().chain(around(mesh, &moved));
    update(mesh, &plate, &mut band, touched);
    assert_eq!(band, boundary_edges(mesh, &plate));
    // Insert points in the faces across the band (the new vertices on plate 0).
    let faces = sides(world.mesh(), &band);
    let points: Vec<(DVec3, Face)> = faces
        .iter()
        .step_by(3)
        .map(|&f| {
            let [a, b, c] = world
                .mesh()
                .face_vertices(f)
                .map(|v| world.positions()[v.index()]);
            ((a + b + c).normalize(), f)
        })
        .collect();
    let (new, report) = world.insert_points_near(&points).unwrap();
    for v in &new {
        if plate.len() <= v.index() {
            plate.resize(v.index() + 1, 0);
        }
        plate[v.index()] = 0;
    }
    let mesh = world.mesh();
    let before = band.len();
    update(mesh, &plate, &mut band, report.edges);
    assert_eq!(band, boundary_edges(mesh, &plate));
    assert!(before > 100 && band.len() > 100 && !new.is_empty());
}

/// A strip of neighbouring removals: the rings of the shore after it hold every edge
/// the removal made (the band as a scan finds it), and the shore is every neighbour of a
/// removed vertex that stays.
#[test]
fn the_band_follows_a_removal_from_its_shore() {
    let mut world = world::World::fibonacci_sphere(4000, 1.0, 0.3, 6).unwrap();
    let plate: Vec<u32> = world
        .positions()
        .iter()
        .map(|p| u32::from(p.z > 0.0))
        .collect();
    let mut band = boundary_edges(world.mesh(), &plate);
    // Two rows either side of the equator, most of them: clusters, not lone vertices.
    let gone: Vec<Vertex> = world
        .mesh()
        .vertices()
        .filter(|v| world.positions()[v.index()].z.abs() < 0.04 && v.index() % 5 != 0)
        .collect();
    let shore = shore(world.mesh(), &gone);
    let mut expected: Vec<Vertex> = gone
        .iter()
        .flat_map(|&v| world.mesh().neighbors(v))
        .filter(|u| !gone.contains(u))
        .collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(shore, expected);
    world.remove_vertices_unreported(&gone).unwrap();
    let mesh = world.mesh();
    update(mesh, &plate, &mut band, around(mesh, &shore));
    assert_eq!(band, boundary_edges(mesh, &plate));
    assert!(gone.len() > 100 && band.len() > 50);
}
