//! Suturing: a small continent that collides with a larger one joins its plate whole; a
//! large one keeps its plate and is shortened. Two plates set by hand on a 6,000-vertex
//! sphere: plate 1, a cap of ocean round a round continent, runs at 10 cm/yr into plate 0's
//! large continent.

use glam::{DQuat, DVec3};
use planet::tectonics::{
    CONTINENTAL, CRUST, OCEANIC, PLATE, Params, SUTURE_MAX_KM2, Tectonics, world_ops,
};
use quadedge::Vertex;
use world::World;

const N: usize = 6000;

/// The world and simulation: plate 1's continent of radius `terrane_km` inside its plate of
/// radius `terrane_km + 300`, plate 0's continent of radius 2,500 km just beyond (all other
/// plates empty), plate 0 turning slowly about another pole.
fn collision(terrane_km: f64) -> (World, Tectonics) {
    let mut params = Params::earth(N, 5);
    params.rift_every_myr = 0.0;
    params.resample_every_myr = 0.0;
    let r = params.radius_km;
    let mut world = world_ops::fibonacci_world(N, r, 0.3, 5).unwrap();
    let mut t = Tectonics::new(&mut world, params).unwrap();
    let p = DVec3::X;
    let plate_km = terrane_km + 300.0;
    let gap = (plate_km + 2500.0) / r;
    let q = DVec3::new(gap.cos(), gap.sin(), 0.0);
    let km = |a: DVec3, b: DVec3| a.angle_between(b) * r;
    let pos = world_ops::positions(&world).to_vec();
    let all: Vec<Vertex> = world.mesh().vertices().collect();
    let plate: Vec<u32> = all
        .iter()
        .map(|v| u32::from(km(pos[v.index()], p) < plate_km))
        .collect();
    let crust: Vec<u8> = all
        .iter()
        .map(|v| {
            let x = pos[v.index()];
            if km(x, p) < terrane_km || km(x, q) < 2500.0 {
                CONTINENTAL
            } else {
                OCEANIC
            }
        })
        .collect();
    world.set_layer_values(&PLATE, &all, |k| plate[k]).unwrap();
    world.set_layer_values(&CRUST, &all, |k| crust[k]).unwrap();
    for pl in &mut t.plates {
        pl.omega = 0.0;
    }
    // 10 cm/yr = 100 km/Myr, from P towards Q; plate 0 at 2 cm/yr about the Z axis' side.
    t.plates[1].pole = p.cross(q).normalize();
    t.plates[1].omega = 100.0 / r;
    t.plates[0].pole = DVec3::new(0.0, 0.6, 0.8).normalize();
    t.plates[0].omega = 20.0 / r;
    (world, t)
}

/// The live continental vertices of `plate`, in vertex order.
fn continental_on(world: &World, plate: u32) -> Vec<Vertex> {
    let (p, c) = (
        world.layer(&PLATE).unwrap().as_slice(),
        world.layer(&CRUST).unwrap().as_slice(),
    );
    world
        .mesh()
        .vertices()
        .filter(|v| p[v.index()] == plate && c[v.index()] == CONTINENTAL)
        .collect()
}

#[test]
fn a_small_terrane_sutures_whole_and_then_moves_with_its_new_plate() {
    // A continent of 500 km radius: 0.8 million km², under the line.
    let (mut world, mut t) = collision(500.0);
    const { assert!(std::f64::consts::PI * 500.0 * 500.0 < SUTURE_MAX_KM2) };
    let terrane = continental_on(&world, 1);
    assert!(terrane.len() > 5, "{} cells", terrane.len());
    let mut sutured_at = None;
    for step in 0..12 {
        let before = continental_on(&world, 1);
        let r = t.step(&mut world).unwrap();
        if r.sutured > 0 {
            // The whole terrane, none of it shortened: every continental vertex plate 1 had
            // is alive and on plate 0.
            assert_eq!(r.sutured, before.len(), "step {step}");
            assert_eq!(r.shortened, 0, "step {step}");
            assert!(continental_on(&world, 1).is_empty());
            let plate = world.layer(&PLATE).unwrap().as_slice();
            assert!(before.iter().all(|v| world.mesh().is_vertex_alive(*v)));
            assert!(before.iter().all(|v| plate[v.index()] == 0));
            sutured_at = Some((step, before));
            break;
        }
        assert_eq!(
            r.shortened, 0,
            "step {step}: the small terrane is shortened"
        );
    }
    let (step, moved) = sutured_at.expect("no suture in 24 Myr");
    assert!(step > 0, "the terrane sutured before it met the continent");
    // One more step: the terrane turns with plate 0 (where the restore does not move it).
    let turn = DQuat::from_axis_angle(t.plates[0].pole, t.plates[0].omega * 2.0);
    let before = world_ops::positions(&world).to_vec();
    t.step(&mut world).unwrap();
    let after = world_ops::positions(&world);
    let alive: Vec<Vertex> = moved
        .into_iter()
        .filter(|v| world.mesh().is_vertex_alive(*v))
        .collect();
    assert!(!alive.is_empty());
    for v in alive {
        let want = turn * before[v.index()];
        assert!(
            after[v.index()].distance(want) < 1e-6,
            "{v:?} left plate 0's motion"
        );
    }
}

#[test]
fn a_large_continent_keeps_its_plate_and_is_shortened() {
    // A continent of 1,500 km radius: 7 million km², far over the line.
    let (mut world, mut t) = collision(1500.0);
    const { assert!(std::f64::consts::PI * 1500.0 * 1500.0 > SUTURE_MAX_KM2) };
    let start = continental_on(&world, 1).len();
    let (mut shortened, mut accreted) = (0, 0);
    for step in 0..12 {
        let before: std::collections::BTreeSet<Vertex> =
            continental_on(&world, 1).into_iter().collect();
        let r = t.step(&mut world).unwrap();
        assert_eq!(r.sutured, 0, "step {step}");
        shortened += r.shortened;
        // The continental budget may accrete ocean floor onto plate 1's margins.
        accreted += continental_on(&world, 1)
            .iter()
            .filter(|v| !before.contains(v))
            .count();
    }
    assert!(shortened > 0, "no collision in 24 Myr");
    assert_eq!(
        continental_on(&world, 1).len(),
        start - shortened + accreted
    );
}

#[test]
fn a_continent_shortened_under_the_line_keeps_shortening() {
    // 700 km radius: 1.5 million km², over the line at first contact. Its front shortens by
    // the convergence until what is left is under the line; the pair was weighed once, so the
    // remnant does not suture (it did, at a step that depended on the mesh).
    let (mut world, mut t) = collision(700.0);
    const { assert!(std::f64::consts::PI * 700.0 * 700.0 > SUTURE_MAX_KM2) };
    let r = t.params.radius_km;
    let cell = 4.0 * std::f64::consts::PI * r * r / N as f64;
    let mut under = false;
    let mut shortened = 0;
    for step in 0..16 {
        let report = t.step(&mut world).unwrap();
        assert_eq!(report.sutured, 0, "step {step}: the remnant sutured");
        shortened += report.shortened;
        let left = continental_on(&world, 1).len();
        under |= left > 0 && shortened > 0 && (left as f64) * cell < 0.8 * SUTURE_MAX_KM2;
    }
    assert!(
        under,
        "the continent never fell under the line while colliding"
    );
}

#[test]
fn suturing_is_the_same_on_one_and_two_threads() {
    let runs: Vec<(Vec<u32>, Vec<usize>)> = testkit::thread_pools()
        .iter()
        .take(2)
        .map(|pool| {
            pool.install(|| {
                let (mut world, mut t) = collision(500.0);
                let sutured = (0..10).map(|_| t.step(&mut world).unwrap().sutured);
                let sutured = sutured.collect();
                (world.layer(&PLATE).unwrap().to_vec(), sutured)
            })
        })
        .collect();
    assert!(runs[0].1.iter().sum::<usize>() > 0);
    assert_eq!(runs[0], runs[1]);
}
