//! Area a plate gains or loses along a boundary that only slides (or barely closes), per step
//! and by stage, at several vertex counts: two hemispheres turning in opposite senses about
//! the z axis, the equator a transform 40,000 km long; `CLOSING` adds a turn about the x axis
//! that closes half the equator and opens the other half at `CLOSING` times the sliding.
//! Nothing should change with the vertex count; docs/benchmark-notes.md ("Plate areas V")
//! has the figures.
//!
//! ```text
//! cargo run --release -p quadworld-planet --example transform_drift -- 100000,300000 [CLOSING] [oo|oc|co|cc] [STEPS]
//! ```

use glam::DVec3;
use planet::tectonics::{
    CONTINENTAL, CRUST, OCEANIC, PLATE, POSITION, Params, Tectonics, plate_areas, world_ops,
};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args
        .first()
        .map_or("100000,300000", String::as_str)
        .split(',')
        .map(|s| s.parse().expect("vertex counts, comma-separated"))
        .collect();
    let closing: f64 = args.get(1).map_or(0.0, |s| s.parse().expect("closing"));
    let crust = match args.get(2).map(String::as_str) {
        Some("oc") => [OCEANIC, CONTINENTAL],
        Some("co") => [CONTINENTAL, OCEANIC],
        Some("cc") => [CONTINENTAL, CONTINENTAL],
        _ => [OCEANIC, OCEANIC],
    };
    let steps: usize = args.get(3).map_or(12, |s| s.parse().expect("steps"));
    for n in sizes {
        let mut params = Params::earth(n, 1);
        params.plates = 2;
        params.rift_every_myr = 0.0;
        params.resample_every_myr = 0.0;
        let r = params.radius_km;
        let mut world = world_ops::fibonacci_world(n, r, 0.3, 1).expect("sphere");
        let mut t = Tectonics::new(&mut world, params).expect("initial state");
        let south: Vec<bool> = world
            .layer(&POSITION)
            .expect("positions")
            .as_slice()
            .iter()
            .map(|p| p.z < 0.0)
            .collect();
        let mut g = world.lock_layer(&PLATE).expect("plates");
        for (x, &s) in g.as_mut_slice().iter_mut().zip(&south) {
            *x = u32::from(s);
        }
        g.commit().expect("plates");
        let mut g = world.lock_layer(&CRUST).expect("crust");
        for (x, &s) in g.as_mut_slice().iter_mut().zip(&south) {
            *x = crust[usize::from(s)];
        }
        g.commit().expect("crust");
        // 2.5 cm/yr each way at the equator (5 cm/yr of sliding); plate 1 a shade faster, so
        // it is the one that dives where two oceans meet.
        let w = 25.0 / r;
        let spins = [
            DVec3::Z * w + DVec3::X * (closing * w),
            -DVec3::Z * w * 1.01 - DVec3::X * (closing * w),
        ];
        for (p, s) in t.plates.iter_mut().zip(spins) {
            p.pole = s.normalize();
            p.omega = s.length();
        }
        let start = plate_areas(&world, 2)[0];
        let mut by = BTreeMap::<&str, f64>::new();
        let mut per_step = Vec::new();
        for _ in 0..steps {
            let before = plate_areas(&world, 2)[0];
            let mut last = before;
            t.step_traced(&mut world, |stage, w| {
                let a = plate_areas(w, 2)[0];
                *by.entry(stage).or_default() += a - last;
                last = a;
            })
            .expect("step");
            per_step.push(format!("{:.0}", (last - before) / 1e3));
        }
        let end = plate_areas(&world, 2)[0];
        println!(
            "{n} vertices: plate 0 gains {:.0} thousand km² in {steps} steps ({} per step)",
            (end - start) / 1e3,
            per_step.join(" ")
        );
        let stages: Vec<String> = by
            .iter()
            .map(|(k, v)| format!("{k} {:.0}", v / 1e3))
            .collect();
        println!("  by stage (thousand km²): {}", stages.join(", "));
    }
}
