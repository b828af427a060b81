//! `World::turn_regions` and its sub-stepped forms: exact repair, equal to separate calls,
//! refusals that change nothing.

use crate::{MoveOptions, World};
use glam::DQuat;

/// Caps of a sphere turned against each other, many times: the mesh stays exactly
/// Delaunay and every vertex sits where its cap's turns took it.
#[test]
fn turned_caps_stay_delaunay_and_land_where_turned() {
    let mut world = World::fibonacci_sphere(3000, 1.0, 0.3, 5).unwrap();
    let region: Vec<u32> = world
        .positions()
        .iter()
        .map(|p| match (p.z > 0.2, p.x > 0.0) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 7, // stays
        })
        .collect();
    let turns = [
        DQuat::from_rotation_z(0.01),
        DQuat::from_axis_angle(glam::DVec3::new(1.0, 1.0, 0.0).normalize(), -0.008),
    ];
    let start = world.positions().to_vec();
    let mut flips = 0;
    for _ in 0..10 {
        let (s, _) = world
            .turn_regions(&region, &turns, &MoveOptions::default())
            .unwrap();
        flips += s.flips + s.relocation_flips;
    }
    assert!(flips > 0);
    let pos = world.positions();
    delaunay::is_delaunay(&delaunay::Sphere, world.mesh(), pos).unwrap();
    for v in world.mesh().vertices() {
        let i = v.index();
        let mut expect = start[i];
        if let Some(q) = turns.get(region[i] as usize) {
            for _ in 0..10 {
                expect = (*q * expect).normalize();
            }
        }
        assert!((pos[i] - expect).length() < 1e-9, "{v:?}");
    }
}

/// Sub-steps in one edit repair exactly as one call per sub-step: the same mesh (so the
/// band carried from sub-step to sub-step missed no vertex: debug builds also compare it
/// with the full pass), the same flips, folds and relocations, positions within rounding,
/// a Delaunay result; zero steps change nothing.
#[test]
fn sub_steps_in_one_edit_repair_as_separate_calls() {
    let start = World::fibonacci_sphere(4000, 1.0, 0.3, 9).unwrap();
    let region: Vec<u32> = start
        .positions()
        .iter()
        .map(|p| match (p.z > 0.3, p.y > 0.1) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 2,
        })
        .collect();
    let turns = [
        DQuat::from_rotation_z(0.03),
        DQuat::from_axis_angle(glam::DVec3::new(1.0, 0.0, 1.0).normalize(), -0.025),
        DQuat::from_rotation_x(0.02),
    ];
    let options = MoveOptions::default();
    let mut one = start.clone();
    let (s, report) = one
        .turn_regions_in_steps(&region, &turns, 6, &options)
        .unwrap();
    let mut each = start.clone();
    let mut sum = delaunay::RestoreStats::default();
    for _ in 0..6 {
        let (t, _) = each.turn_regions(&region, &turns, &options).unwrap();
        sum.flips += t.flips;
        sum.folds += t.folds;
        sum.relocated += t.relocated;
        sum.relocation_flips += t.relocation_flips;
        sum.relocation_moves += t.relocation_moves;
    }
    assert!(s.folds > 0 && s.relocated > 0, "{s:?}");
    assert_eq!(s, sum);
    assert!(one.mesh() == each.mesh());
    for (a, b) in one.positions().iter().zip(each.positions()) {
        assert!((*a - *b).length() < 1e-12);
    }
    assert_eq!(report.moved.len(), 4000);
    delaunay::is_delaunay(&delaunay::Sphere, one.mesh(), one.positions()).unwrap();
    let mut same = start.clone();
    let (s, report) = same
        .turn_regions_in_steps(&region, &turns, 0, &options)
        .unwrap();
    assert_eq!((s.flips, report.moved.len()), (0, 0));
    assert!(same == start);
}

#[test]
fn a_bad_turn_or_an_off_plane_point_changes_nothing() {
    let mut world = World::fibonacci_sphere(500, 1.0, 0.3, 5).unwrap();
    let before = world.clone();
    let region = vec![0; 500];
    let zero = [glam::DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0)];
    let e = world.turn_regions(&region, &zero, &MoveOptions::default());
    assert!(matches!(e, Err(crate::EditError::Item { index: 0, .. })));
    let nan = [glam::DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0)];
    assert!(
        world
            .turn_regions(&region, &nan, &MoveOptions::default())
            .is_err()
    );
    // The motion without a report fails the same way.
    let e = world.turn_regions_in_steps_unreported(&region, &zero, 3, &MoveOptions::default());
    assert!(matches!(e, Err(crate::EditError::Item { index: 0, .. })));
    assert!(world == before);
    // A whole sphere turned as one region: nothing to repair, every vertex moved.
    let (s, r) = world
        .turn_regions(
            &region,
            &[DQuat::from_rotation_x(1.0)],
            &MoveOptions::default(),
        )
        .unwrap();
    assert_eq!((s.flips, s.folds), (0, 0));
    assert_eq!(r.moved.len(), 500);
    delaunay::is_delaunay(&delaunay::Sphere, world.mesh(), world.positions()).unwrap();
}

/// Random plates (random centres, axes and speeds, some fast enough to fold the boundary
/// and relocate vertices far) turned in random numbers of sub-steps: after every motion the
/// mesh is valid and exactly the Delaunay triangulation of the positions (every face
/// counter-clockwise, every edge's circle test, the covering), and relocations moved
/// vertices in one edit.
#[test]
fn random_rigid_turns_stay_exactly_delaunay() {
    let mut moves = 0;
    for seed in 0..6 {
        let mut rng = testkit::Rng::new(seed);
        let mut world = World::fibonacci_sphere(2500, 1.0, 0.3, seed).unwrap();
        let spacing = (4.0 * std::f64::consts::PI / 2500.0).sqrt();
        for _ in 0..6 {
            let plates = 2 + rng.below(6);
            let angle = spacing * (0.2 + rng.unit_f64());
            let (region, turns) =
                testkit::plate_regions(world.positions(), plates, angle, &mut rng);
            let steps = 1 + rng.below(3);
            let options = MoveOptions::default();
            let s = world
                .turn_regions_in_steps_unreported(&region, &turns, steps, &options)
                .unwrap();
            moves += s.relocation_moves;
            world.mesh().check().unwrap();
            let pos = world.positions();
            assert_eq!(
                delaunay::is_delaunay(&delaunay::Sphere, world.mesh(), pos),
                Ok(())
            );
        }
    }
    assert!(moves > 1000, "{moves} relocations moved a vertex");
}

/// The band handed back by the banded motion is the scan of every vertex's ring after it,
/// the world is the one the motion without it makes, on one thread and on two, and zero
/// steps hand back the band as it stands.
#[test]
fn the_banded_motion_hands_back_the_band_a_scan_finds() {
    let scan = |world: &World, region: &[u32], regions: usize| -> Vec<quadedge::Vertex> {
        let which = |v: quadedge::Vertex| region[v.index()].min(regions as u32);
        let mesh = world.mesh();
        mesh.vertices()
            .filter(|&v| mesh.neighbors(v).any(|u| which(u) != which(v)))
            .collect()
    };
    let mut sizes = 0;
    for seed in 0..4 {
        let mut rng = testkit::Rng::new(seed + 40);
        let mut world = World::fibonacci_sphere(2500, 1.0, 0.3, seed).unwrap();
        let spacing = (4.0 * std::f64::consts::PI / 2500.0).sqrt();
        for round in 0..4 {
            let plates = 2 + rng.below(6);
            let angle = spacing * (0.2 + rng.unit_f64());
            let (mut region, turns) =
                testkit::plate_regions(world.positions(), plates, angle, &mut rng);
            // Some vertices beyond the turns (they stay, one region with any such value).
            for r in region.iter_mut().step_by(97) {
                *r = turns.len() as u32 + (*r % 3);
            }
            let steps = round % 3;
            let options = MoveOptions::default();
            let mut plain = world.clone();
            plain
                .turn_regions_in_steps_unreported(&region, &turns, steps, &options)
                .unwrap();
            let mut bands = Vec::new();
            for pool in testkit::thread_pools() {
                let mut banded = world.clone();
                let mut band = vec![quadedge::Vertex::new(3)];
                pool.install(|| {
                    banded
                        .turn_regions_in_steps_banded(&region, &turns, steps, &options, &mut band)
                        .unwrap()
                });
                assert!(banded == plain, "seed {seed} round {round}");
                assert_eq!(band, scan(&banded, &region, turns.len()));
                bands.push(band);
            }
            assert!(bands.iter().all(|b| *b == bands[0]));
            sizes += bands[0].len();
            world = plain;
        }
    }
    assert!(sizes > 2000, "{sizes}");
    // A refused motion leaves the band empty.
    let mut world = World::fibonacci_sphere(500, 1.0, 0.3, 5).unwrap();
    let zero = [DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0)];
    let mut band = vec![quadedge::Vertex::new(1)];
    let e =
        world.turn_regions_in_steps_banded(&[0; 500], &zero, 2, &MoveOptions::default(), &mut band);
    assert!(e.is_err() && band.is_empty());
}

/// The array a motion leaves for the next one is never a snapshot's: a motion after a clone
/// leaves the clone's positions as they were, and motions through the reused array give
/// the world that fresh arrays give (a clone starts with none).
#[test]
fn reused_position_arrays_change_no_snapshot_and_no_result() {
    let mut world = World::fibonacci_sphere(3000, 1.0, 0.3, 9).unwrap();
    let region: Vec<u32> = world
        .positions()
        .iter()
        .map(|p| u32::from(p.z < 0.1))
        .collect();
    let turns = [DQuat::from_rotation_z(0.006)];
    let options = MoveOptions::default();
    world.turn_regions(&region, &turns, &options).unwrap();
    assert!(
        !world.spare_positions.is_empty(),
        "the first motion leaves its old array"
    );
    let snapshot = world.clone();
    assert!(snapshot.spare_positions.is_empty());
    // Counted in the world's heap: the one thing the snapshot does not hold.
    let spare = world.spare_positions.capacity() * size_of::<glam::DVec3>();
    assert_eq!(world.heap_bytes(), snapshot.heap_bytes() + spare);
    let kept = snapshot.positions().to_vec();
    let mut fresh = world.clone();
    for _ in 0..3 {
        world.turn_regions(&region, &turns, &options).unwrap();
        fresh.spare_positions = Vec::new();
        fresh.turn_regions(&region, &turns, &options).unwrap();
        assert!(world == fresh);
    }
    assert_eq!(snapshot.positions(), kept.as_slice());
    assert!(world.positions() != kept.as_slice());
}

/// Two lists merged are their sorted union, each vertex once, whether they come sorted (the
/// merge) or not (the sort).
#[test]
fn merged_lists_are_their_sorted_union() {
    use quadedge::Vertex;
    let v = |xs: &[u32]| xs.iter().map(|&x| Vertex::new(x)).collect::<Vec<_>>();
    let merged = super::rigid::merged;
    assert_eq!(
        merged(&v(&[1, 4, 9]), &v(&[0, 4, 5, 12])),
        v(&[0, 1, 4, 5, 9, 12])
    );
    assert_eq!(merged(&v(&[2, 2, 3]), &v(&[])), v(&[2, 3]));
    assert_eq!(merged(&v(&[]), &v(&[7])), v(&[7]));
    assert_eq!(merged(&v(&[9, 1, 4]), &v(&[4, 0])), v(&[0, 1, 4, 9]));
    let mut rng = testkit::Rng::new(3);
    for _ in 0..50 {
        let mut list = |n: usize| -> Vec<Vertex> {
            let mut l: Vec<Vertex> = (0..n).map(|_| Vertex::new(rng.below(300) as u32)).collect();
            l.sort_unstable();
            l
        };
        let (a, b) = (list(120), list(80));
        let mut expect = [a.clone(), b.clone()].concat();
        expect.sort_unstable();
        expect.dedup();
        assert_eq!(merged(&a, &b), expect);
    }
}

const AGE: layers::LayerInfo<f32, layers::VertexKind> =
    layers::LayerInfo::new("age").interpolation(layers::Interpolation::Lerp);
const LENGTH: layers::LayerInfo<f32, layers::EdgeKind> =
    layers::LayerInfo::new("length").initial(-1.0);

/// The motion without a report counts its flips and moves instead of journaling them when
/// every layer is a vertex layer (`Mesh::skip_rewires`): it makes the world and the versions
/// of the reported motion, whose journal holds them all; with an edge layer it journals them.
#[test]
fn a_motion_without_flip_records_makes_the_reported_world_and_versions() {
    let options = MoveOptions::default();
    for (seed, edge_layer) in [(1, false), (2, false), (3, true)] {
        let mut start = World::fibonacci_sphere(3000, 1.0, 0.3, seed).unwrap();
        start
            .update_layer(&AGE, |l| {
                let values = l.as_mut_slice();
                values
                    .iter_mut()
                    .enumerate()
                    .for_each(|(i, v)| *v = i as f32)
            })
            .unwrap();
        if edge_layer {
            start.update_layer(&LENGTH, |l| l.fill(2.0)).unwrap();
        }
        let mut rng = testkit::Rng::new(seed);
        let (region, turns) = testkit::plate_regions(start.positions(), 5, 0.15, &mut rng);
        let still = vec![DQuat::IDENTITY; turns.len()];
        for turns in [turns, still] {
            let (mut skip, mut full) = (start.clone(), start.clone());
            let s = skip.turn_regions_in_steps_unreported(&region, &turns, 2, &options);
            let (t, _) = full
                .turn_regions_in_steps(&region, &turns, 2, &options)
                .unwrap();
            assert_eq!(s.unwrap(), t);
            assert!(skip == full);
            assert_eq!(skip.mesh_version(), full.mesh_version());
            for name in ["position", "age", "length"] {
                assert_eq!(skip.layer_version(name), full.layer_version(name), "{name}");
            }
            if turns[0] != DQuat::IDENTITY {
                assert!(t.flips > 0 && t.relocated > 0, "{t:?}");
                assert!(skip.mesh_version() > start.mesh_version());
            }
        }
    }
}
