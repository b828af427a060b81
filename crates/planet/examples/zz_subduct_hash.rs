//! Temporary (not committed): a hash of every layer after the steps, and per-step timings.
use planet::tectonics::*;
use std::hash::{Hash, Hasher};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let steps: usize = a[2].parse().unwrap();
    let params = Params::earth(n, 2026);
    let mut world = world_ops::fibonacci_world(n, params.radius_km, 0.3, 2026).unwrap();
    let mut t = Tectonics::new(&mut world, params).unwrap();
    let mut sub = 0.0;
    for _ in 0..steps {
        let r = t.step(&mut world).unwrap();
        sub += r.times.subduction;
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let m = world.mesh();
    for v in m.vertices() {
        v.hash(&mut h);
        world.positions()[v.index()]
            .to_array()
            .map(f64::to_bits)
            .hash(&mut h);
        world.layer(&PLATE).unwrap().as_slice()[v.index()].hash(&mut h);
        world.layer(&CRUST).unwrap().as_slice()[v.index()].hash(&mut h);
        world.layer(&AGE).unwrap().as_slice()[v.index()]
            .to_bits()
            .hash(&mut h);
        world.layer(&ELEVATION).unwrap().as_slice()[v.index()]
            .to_bits()
            .hash(&mut h);
        world.layer(&OROGENY).unwrap().as_slice()[v.index()].hash(&mut h);
        world.layer(&RIDGE).unwrap().as_slice()[v.index()].hash(&mut h);
        for u in m.neighbors(v) {
            u.hash(&mut h);
        }
    }
    println!(
        "n {n} steps {steps} hash {:016x} vertices {} subduction {:.1} ms/step",
        h.finish(),
        m.vertex_count(),
        1e3 * sub / steps as f64
    );
}
