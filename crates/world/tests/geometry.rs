//! The world's geometric operations against a shadow copy: after every `Ok` the world is the
//! exact Delaunay triangulation of its positions with every layer sized to it; after every
//! `Err` it is `==` to the shadow with the same versions; undo and redo (across resamples
//! too) reproduce the recorded worlds exactly; save and load round-trip.

use glam::{DQuat, DVec3};
use layers::{EdgeKind, FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::Vertex;
use testkit::Rng;
use world::{EditError, FreshSphere, Geometry, History, MoveOptions, World};

const HEIGHT: LayerInfo<f32, VertexKind> =
    LayerInfo::new("height").interpolation(Interpolation::Lerp);
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
const AREA: LayerInfo<f64, FaceKind> = LayerInfo::new("area");
const LENGTH: LayerInfo<f32, EdgeKind> = LayerInfo::new("length").initial(-1.0);

mod common;
use common::versions;

/// The world is valid: mesh check, exact Delaunay, layers sized to the mesh, positions on
/// the sphere.
fn assert_valid(w: &World) {
    w.mesh().check().unwrap();
    let pos = w.positions();
    assert_eq!(pos.len(), w.mesh().vertex_slots());
    assert_eq!(
        delaunay::is_delaunay(&delaunay::Sphere, w.mesh(), pos),
        Ok(())
    );
    assert_eq!(
        w.layer(&HEIGHT).unwrap().len(),
        w.mesh().vertex_slots(),
        "layers follow"
    );
    let r = match w.geometry() {
        Some(Geometry::Sphere { radius }) => radius,
        g => panic!("geometry {g:?}"),
    };
    for v in w.mesh().vertices() {
        assert!((pos[v.index()].length() - r).abs() <= 1e-9 * r);
    }
}

fn planet(n: usize, seed: u64) -> World {
    planet_of_radius(n, seed, 1.0)
}

/// [`planet`] on a sphere of `radius` (heights from the unit direction).
fn planet_of_radius(n: usize, seed: u64, radius: f64) -> World {
    let mut w = World::fibonacci_sphere(n, radius, 0.3, seed).unwrap();
    let pos: Vec<DVec3> = w.positions().iter().map(|&p| p / radius).collect();
    {
        let mut pair = w.lock_layers(&HEIGHT, &PLATE).unwrap();
        let (h, p) = pair.parts();
        for v in 0..pos.len() {
            h[Vertex::new(v as u32)] = pos[v].z as f32 * 100.0;
            p[Vertex::new(v as u32)] = (pos[v].x > 0.0) as u32;
        }
        pair.commit().unwrap();
    }
    w.lock_layer(&AREA).unwrap().commit().unwrap();
    w.lock_layer(&LENGTH).unwrap().commit().unwrap();
    w.update_dict("meta", |d| d.set("seed", seed as i64));
    w
}

fn random_point(rng: &mut Rng) -> DVec3 {
    DVec3::from_array(rng.unit_vector())
}

fn live(w: &World, rng: &mut Rng, k: usize) -> Vec<Vertex> {
    let all: Vec<Vertex> = w.mesh().vertices().collect();
    let mut out: Vec<Vertex> = (0..k).map(|_| all[rng.below(all.len())]).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// One random operation; some are built to fail. Returns whether it was `Ok`.
fn step(w: &mut World, rng: &mut Rng, history: &mut History, tally: &mut [usize; 2]) -> bool {
    let op = rng.below(8);
    let r: Result<(), EditError> = match op {
        // A plate turning: half of the planet rotates a little.
        0 => {
            let turn =
                DQuat::from_axis_angle(DVec3::from_array(rng.unit_vector()), 0.02 * rng.unit_f64());
            let axis = DVec3::from_array(rng.unit_vector());
            w.move_all(
                |_, p| if p.dot(axis) > 0.0 { turn * p } else { p },
                &MoveOptions::default(),
            )
            .map(drop)
        }
        // A permutation: vertices moved onto each other's places (fails or repairs).
        1 => {
            let vs = live(w, rng, 4);
            let mut targets: Vec<DVec3> = vs.iter().map(|v| w.positions()[v.index()]).collect();
            targets.rotate_left(1);
            let moves: Vec<_> = vs.iter().copied().zip(targets).collect();
            w.move_vertices(&moves, &MoveOptions::default()).map(drop)
        }
        2 => {
            let pts: Vec<DVec3> = (0..1 + rng.below(20)).map(|_| random_point(rng)).collect();
            w.insert_points(&pts).map(drop)
        }
        // A duplicate point: refused.
        3 => {
            let v = live(w, rng, 1)[0];
            let mut pts = vec![random_point(rng)];
            pts.push(w.positions()[v.index()]);
            w.insert_points(&pts).map(drop)
        }
        4 => {
            let k = 1 + rng.below(15);
            let mut vs = live(w, rng, k);
            if rng.one_in(4) {
                vs.push(vs[0]); // named twice: refused
            }
            w.remove_vertices(&vs).map(drop)
        }
        5 => {
            let n = w.mesh().vertex_count();
            let s = (4.0 * std::f64::consts::PI / n as f64).sqrt();
            let o = delaunay::AdaptOptions {
                max_passes: 2,
                ..Default::default()
            };
            w.refine(|_, p| s * (1.2 - 0.4 * p.z), &o).map(drop)
        }
        6 => {
            let n = if rng.one_in(5) {
                2
            } else {
                150 + rng.below(100)
            };
            if rng.one_in(2) {
                w.resample_fresh_sphere(n, 0.3, rng.next_u64()).map(drop)
            } else {
                // A kept sphere, turned (too few points: refused when it is made).
                let fresh = FreshSphere::fibonacci(n, 1.0, 0.3, rng.next_u64());
                let turn = random_turn(rng);
                fresh.and_then(|f| w.resample_onto_turned(&f, turn).map(drop))
            }
        }
        _ => {
            let p = random_point(rng);
            w.move_vertices(&[(live(w, rng, 1)[0], p * 2.0)], &MoveOptions::default())
                .map(drop)
        }
    };
    tally[r.is_ok() as usize] += 1;
    if r.is_ok() && rng.one_in(2) {
        history.commit(format!("op {op}"), w);
    }
    r.is_ok()
}

#[test]
fn random_world_operations_are_all_or_nothing() {
    random_world_operations(1..=3, 80);
}

/// `cargo xtask stress`: many more sequences, longer.
#[test]
#[ignore]
fn stress_random_world_operations() {
    random_world_operations(1..=200, 300);
}

fn random_world_operations(seeds: std::ops::RangeInclusive<u64>, steps: usize) {
    let mut tally = [0, 0];
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut w = planet(200, seed);
        let mut history = History::new(1 << 30);
        history.commit("start", &mut w);
        for _ in 0..steps {
            let shadow = w.clone();
            let before = versions(&w);
            if step(&mut w, &mut rng, &mut history, &mut tally) {
                assert_valid(&w);
            } else {
                assert!(w == shadow, "a failed operation changed the world");
                assert_eq!(versions(&w), before, "a failed operation stamped versions");
            }
        }
        // Undo everything back to the start, recording each state, then redo it all.
        history.commit("end", &mut w);
        let mut states = vec![w.clone()];
        while history.undo(&mut w).is_some() {
            assert_valid(&w);
            states.push(w.clone());
        }
        states.pop();
        while history.redo(&mut w).is_some() {
            let expected = states.pop().unwrap();
            assert!(w == expected, "redo reproduces the recorded world");
        }
        let back = World::load_from_slice(&w.save_to_vec().unwrap()).unwrap();
        assert!(back == w);
        assert_eq!(back.geometry(), w.geometry());
    }
    assert!(tally[0] > 20 && tally[1] > 100, "{tally:?}");
}

#[test]
fn undo_across_a_resample_restores_the_world_exactly() {
    let mut w = planet(500, 4);
    let mut history = History::new(1 << 30);
    history.commit("start", &mut w);
    w.move_all(
        |_, p| DQuat::from_rotation_z(0.05) * p,
        &MoveOptions::default(),
    )
    .unwrap();
    history.commit("turn", &mut w);
    let before = w.clone();
    w.resample_fresh_sphere(300, 0.3, 9).unwrap();
    assert_eq!(w.mesh().vertex_count(), 300);
    assert_valid(&w);
    history.commit("resample", &mut w);
    assert_eq!(history.undo_steps(), 2);
    assert_eq!(history.undo(&mut w), Some("turn"));
    assert!(w == before);
    assert_valid(&w);
}

#[test]
fn inserted_points_are_stored_exactly_and_reported() {
    let mut w = planet(300, 5);
    let p = DVec3::new(0.3, -0.2, 0.7).normalize();
    let (new, report) = w.insert_points(&[p]).unwrap();
    assert_eq!(w.positions()[new[0].index()], p);
    assert_eq!(report.created, new);
    assert!(!report.faces.is_empty() && !report.edges.is_empty());
    // The new vertex took its height from its face, by the layer's interpolation.
    let h = w.layer(&HEIGHT).unwrap()[new[0]];
    assert!((h - p.z as f32 * 100.0).abs() < 5.0, "{h}");
}

#[test]
fn hostile_inputs_are_typed_errors_and_change_nothing() {
    let mut w = planet(300, 6);
    let shadow = w.clone();
    let dead = Vertex::new(100_000);
    let cases: Vec<Result<(), EditError>> = vec![
        w.move_vertices(&[(dead, DVec3::X)], &MoveOptions::default())
            .map(drop),
        w.move_vertices(&[(Vertex::new(3), DVec3::NAN)], &MoveOptions::default())
            .map(drop),
        w.move_vertices(&[(Vertex::new(3), DVec3::ZERO)], &MoveOptions::default())
            .map(drop),
        w.insert_points(&[DVec3::new(0.0, 0.0, 0.5)]).map(drop),
        w.insert_points(&[DVec3::INFINITY]).map(drop),
        w.remove_vertices(&[dead]).map(drop),
        w.resample_fresh_sphere(3, 0.3, 1).map(drop),
        w.resample_fresh_sphere(100, 1.5, 1).map(drop),
        w.refine(|_, _| -1.0, &Default::default()).map(drop),
    ];
    for (i, r) in cases.iter().enumerate() {
        assert!(r.is_err(), "case {i} was accepted");
    }
    assert!(w == shadow);
    // A world without positions says so.
    let mut bare = World::new(w.mesh().clone(), 1);
    assert!(matches!(
        bare.insert_points(&[DVec3::X]),
        Err(EditError::NoGeometry)
    ));
    assert!(bare.geometry().is_none() && bare.positions().is_empty());
}

#[test]
fn removing_down_to_the_tetrahedron_and_no_further() {
    let mut w = planet(12, 7);
    let vs: Vec<Vertex> = w.mesh().vertices().collect();
    let shadow = w.clone();
    assert!(w.remove_vertices(&vs[..9]).is_err(), "three vertices left");
    assert!(w == shadow);
}

/// Without its report, the same removal (mesh and layers) and the same refusals.
#[test]
fn removing_unreported_is_the_same_edit() {
    let w = planet(800, 3);
    let vs: Vec<Vertex> = w.mesh().vertices().step_by(3).collect();
    let (mut reported, mut unreported, mut refused) = (w.clone(), w.clone(), w.clone());
    reported.remove_vertices(&vs).unwrap();
    unreported.remove_vertices_unreported(&vs).unwrap();
    assert!(reported == unreported && unreported.mesh().vertex_count() == 800 - vs.len());
    let (twice, dead) = ([vs[0], vs[1], vs[0]], &vs[..1]);
    assert!(refused.remove_vertices_unreported(&twice).is_err() && refused == w);
    assert!(unreported.remove_vertices_unreported(dead).is_err() && reported == unreported);
}

#[test]
fn sample_blends_by_the_layers_policy() {
    let w = planet(2000, 8);
    for k in 0..50 {
        let p = DVec3::new((k as f64).sin(), (k as f64 * 1.3).cos(), 0.4).normalize();
        let s = w.sample(&HEIGHT, p).unwrap().unwrap();
        assert!(
            (s.value - p.z as f32 * 100.0).abs() < 3.0,
            "{} vs {}",
            s.value,
            p.z * 100.0
        );
        let plate = w.sample(&PLATE, p).unwrap().unwrap();
        assert!(
            s.corners
                .iter()
                .any(|c| w.layer(&PLATE).unwrap()[c.0] == plate.value)
        );
        assert!(w.nearest_vertex(p).unwrap().is_valid());
    }
}

/// `edit` applied to a copy of `base` on each of testkit's thread pools.
fn on_every_pool(base: &World, edit: impl Fn(&mut World) + Sync) -> Vec<World> {
    let run = |pool: &rayon::ThreadPool| {
        pool.install(|| {
            let mut w = base.clone();
            edit(&mut w);
            w
        })
    };
    testkit::thread_pools().iter().map(run).collect()
}

#[test]
fn resampling_gives_the_same_world_for_any_thread_count() {
    // Several chunks of stencils and of every gather.
    let base = planet(20_000, 4);
    let worlds = on_every_pool(&base, |w| {
        w.resample_fresh_sphere(17_000, 0.3, 8).unwrap();
    });
    assert_valid(&worlds[0]);
    assert!(worlds[0].layer(&PLATE).unwrap().as_slice().contains(&1));
    assert!(worlds.iter().all(|w| *w == worlds[0]), "1, 2 and 4 threads");
}

/// A uniformly random rotation.
fn random_turn(rng: &mut Rng) -> DQuat {
    let axis = DVec3::from_array(rng.unit_vector());
    DQuat::from_axis_angle(axis, std::f64::consts::TAU * rng.unit_f64())
}

#[test]
fn a_turned_sphere_resample_is_the_checked_resample_onto_the_turned_points() {
    let mut rng = Rng::new(21);
    let template = World::fibonacci_sphere(1500, 1.0, 0.3, 11).unwrap();
    let fresh = FreshSphere::from_world(&template).unwrap();
    assert_eq!(fresh.vertex_count(), 1500);
    assert!((fresh.radius() - 1.0).abs() < 1e-15);
    for size in [1.0, 6371.0] {
        let base = planet_of_radius(2000, 10, size);
        // Scaled from the template's radius to the world's, both as measured.
        let radius = match base.geometry() {
            Some(Geometry::Sphere { radius }) => radius,
            g => panic!("{g:?}"),
        };
        let scale = radius / fresh.radius();
        let turn = random_turn(&mut rng);
        let mut turned = base.clone();
        turned.resample_onto_turned(&fresh, turn).unwrap();
        assert_valid(&turned);
        // The same world by the fully checked path: the template's mesh at the turned points.
        let points: Vec<DVec3> = template
            .positions()
            .iter()
            .map(|&p| (turn * p) * scale)
            .collect();
        let mut checked = base.clone();
        checked
            .resample_onto(template.mesh().clone(), points)
            .unwrap();
        assert!(turned == checked, "radius {size}");
        // The data came along: heights follow the turned positions' height field.
        let (h, pos) = (turned.layer(&HEIGHT).unwrap(), turned.positions());
        for v in turned.mesh().vertices() {
            assert!((h[v] - (pos[v.index()].z / radius) as f32 * 100.0).abs() < 6.0);
        }
    }
}

/// A latitude-longitude sphere: every quad between two rings and two meridians is an
/// isosceles trapezoid, so cocircular up to the rounding of its coordinates.
fn uv_sphere(rings: usize, meridians: usize) -> World {
    let mut points = vec![DVec3::Z, DVec3::NEG_Z];
    for i in 1..=rings {
        let theta = std::f64::consts::PI * i as f64 / (rings + 1) as f64;
        for j in 0..meridians {
            let phi = std::f64::consts::TAU * j as f64 / meridians as f64;
            let (s, c) = theta.sin_cos();
            points.push(DVec3::new(s * phi.cos(), s * phi.sin(), c));
        }
    }
    let (mesh, pos) = sphere::sphere_mesh(&points).unwrap();
    World::with_positions(mesh, pos, Geometry::Sphere { radius: 1.0 }, 1).unwrap()
}

#[test]
fn a_turn_that_breaks_circle_tests_is_repaired_to_exact_delaunay() {
    let template = uv_sphere(30, 60);
    let fresh = FreshSphere::from_world(&template).unwrap();
    let mut rng = Rng::new(22);
    let mut broken = 0;
    for _ in 0..4 {
        let turn = random_turn(&mut rng);
        let mut w = planet(3000, 12);
        let scale = match w.geometry() {
            Some(Geometry::Sphere { radius }) => radius / fresh.radius(),
            g => panic!("{g:?}"),
        };
        let points: Vec<DVec3> = (template.positions().iter())
            .map(|&p| (turn * p) * scale)
            .collect();
        // The rounding of the turn breaks some of the 1800 nearly cocircular quads.
        let plain = delaunay::is_delaunay(&delaunay::Sphere, template.mesh(), &points);
        broken += usize::from(plain.is_err());
        w.resample_onto_turned(&fresh, turn).unwrap();
        assert_valid(&w);
        assert_eq!(w.mesh().vertex_count(), 1802);
        assert!(
            w.positions()[..1802] == points[..],
            "the turned points, stored exactly"
        );
    }
    assert!(broken > 0, "no turn needed a repair");
}

#[test]
fn hostile_turned_resamples_are_typed_errors_and_change_nothing() {
    let fresh = FreshSphere::fibonacci(200, 1.0, 0.3, 1).unwrap();
    for (n, r, jitter) in [(3, 1.0, 0.3), (500, -1.0, 0.3), (500, f64::NAN, 0.3)] {
        assert!(matches!(
            FreshSphere::fibonacci(n, r, jitter, 1),
            Err(EditError::Generate(_))
        ));
    }
    let mut w = planet(300, 12);
    let shadow = w.clone();
    let bad = [
        DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0),
        DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        DQuat::from_xyzw(0.0, 0.0, 0.0, 2.0),
        DQuat::from_xyzw(0.0, 0.0, 1e-3, 1.0),
    ];
    for turn in bad {
        assert!(matches!(
            w.resample_onto_turned(&fresh, turn),
            Err(EditError::Turn(_))
        ));
    }
    assert!(w == shadow);
    // Worlds without positions: no sphere to take, none to resample.
    let mut bare = World::new(w.mesh().clone(), 1);
    assert!(matches!(
        FreshSphere::from_world(&bare),
        Err(EditError::NoGeometry)
    ));
    assert!(matches!(
        bare.resample_onto_turned(&fresh, DQuat::IDENTITY),
        Err(EditError::NoGeometry)
    ));
    assert_eq!(bare.mesh().vertex_count(), 300);
    let (mesh, points) = testkit::planar_grid(6, (0.0, 0.0), 1.0);
    let mut map = World::with_positions(mesh, points, Geometry::Plane, 1).unwrap();
    let map_shadow = map.clone();
    assert!(matches!(
        map.resample_onto_turned(&fresh, DQuat::IDENTITY),
        Err(EditError::NoGeometry)
    ));
    assert!(map == map_shadow);
}

#[test]
fn undo_across_a_turned_resample_and_the_same_world_for_any_thread_count() {
    let fresh = FreshSphere::fibonacci(17_000, 1.0, 0.3, 8).unwrap();
    let turn = DQuat::from_axis_angle(DVec3::new(0.3, -0.5, 0.8).normalize(), 2.0);
    let base = planet(20_000, 4);
    let worlds = on_every_pool(&base, |w| {
        let mut history = History::new(1 << 30);
        history.commit("start", w);
        w.resample_onto_turned(&fresh, turn).unwrap();
        history.commit("resample", w);
        let after = w.clone();
        assert_eq!(history.undo(w), Some("start"));
        assert!(*w == base);
        assert_eq!(history.redo(w), Some("resample"));
        assert!(*w == after);
    });
    assert_valid(&worlds[0]);
    assert!(worlds.iter().all(|w| *w == worlds[0]), "1, 2 and 4 threads");
}
