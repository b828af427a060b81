//! The continental budget over a run: land and continental fractions every few steps, and
//! what the collisions shortened and the margins accreted, per vertex count.
//!
//! ```text
//! cargo run --release -p quadworld-planet --example budget -- 20000,100000 100 [seed] [every]
//! ```

mod args;

use planet::tectonics::{Params, Tectonics, continental_fraction, summarize, world_ops};

fn main() {
    let (sizes, steps, seed, rest) = args::parse("20000,100000", 100, 2026);
    let every: usize = rest.first().map_or(10, |s| s.parse().expect("every"));
    for &n in &sizes {
        let params = Params::earth(n, seed);
        let mut world = world_ops::fibonacci_world(n, params.radius_km, 0.3, seed).expect("sphere");
        let mut t = Tectonics::new(&mut world, params).expect("initial state");
        let line = |t: &Tectonics, world: &world::World| {
            let s = summarize(world, t.plates.len());
            let b = &t.budget;
            format!(
                "{n:>8} seed {seed} {:>5.0} Myr: land {:5.1} %, continental {:5.1} %, shortened {:.2e} km², accreted {:.2e} km², arcs {:.2e} km³, stored {:.2e} km³, highest {:.0} m",
                t.time_myr,
                100.0 * s.land_fraction,
                100.0 * continental_fraction(world),
                b.shortened_km2,
                b.accreted_km2,
                b.arcs_km3,
                b.stored_km3,
                s.max_m
            )
        };
        println!("{}", line(&t, &world));
        for k in 1..=steps {
            t.step(&mut world).expect("step");
            if k % every == 0 || k == steps {
                println!("{}", line(&t, &world));
            }
        }
    }
}
