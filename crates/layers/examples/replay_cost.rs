//! Rough cost of replaying edge splits into a `Vec3` position layer under each vector
//! policy (one run, not a benchmark: the numbers that count come from criterion in
//! `benches/`). `cargo run -p quadworld-layers --example replay_cost --release`

use glam::Vec3;
use layers::{Interpolation, Layer, LayerInfo, Sizes, VertexKind};
use quadedge::{Change, Edge, Face, SplitRecord, Vertex};
use std::time::Instant;

fn main() {
    const N: u32 = 1 << 20;
    let mut rng = testkit::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next_u64();
    for t in [0.5, 0.3] {
        run(N, t, &mut next);
    }
}

fn run(n: u32, t: f32, next: &mut impl FnMut() -> u64) {
    let journal: Vec<Change> = (0..n)
        .map(|i| {
            Change::Split(SplitRecord {
                origin: Vertex::new((next() % n as u64) as u32),
                dest: Vertex::new((next() % n as u64) as u32),
                t,
                vertex: Vertex::new(n + i),
                edge: Edge::primal(0),
                new_edge: Edge::primal(2),
                cross_edges: [Edge::INVALID; 2],
                faces: [(Face::INVALID, Face::INVALID); 2],
            })
        })
        .collect();
    let sizes = Sizes {
        vertices: 2 * n as usize,
        faces: 0,
        quads: 0,
    };
    for policy in [
        Interpolation::Lerp,
        Interpolation::Nlerp,
        Interpolation::Slerp,
    ] {
        let info = LayerInfo::<Vec3, VertexKind>::new("p").interpolation(policy);
        let values = (0..n)
            .map(|i| Vec3::new((i as f32).sin(), (i as f32).cos(), 0.3).normalize())
            .collect();
        let mut layer = Layer::from_values(info, values);
        let start = Instant::now();
        let _ = layer.apply_changes(&journal, sizes);
        println!(
            "{policy:?} at t = {t}: {n} splits replayed in {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
