//! A small, deterministic driver for instruction-count profiling (`valgrind --tool=callgrind`):
//! `cargo run --release -p quadworld-delaunay --example profile -- <insert|remove|locate|restore> [n]`.
//! Wall-clock figures live in the criterion bench `benches/benches/living.rs`.

use delaunay::{RestoreOptions, Sphere, insert, locate, remove, restore};
use glam::{DQuat, DVec3};
use quadedge::Vertex;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn f64(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn unit(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.f64(), self.f64(), self.f64()) * 2.0 - DVec3::ONE;
            let l = v.length_squared();
            if l > 1e-6 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("insert", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50_000);
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).unwrap();
    let mut rng = Rng(7);
    let t = std::time::Instant::now();
    match what {
        "insert" => {
            let mut pts: Vec<DVec3> = (0..n).map(|_| rng.unit()).collect();
            let order = sphere::hilbert_order_sphere(&pts);
            pts = order.iter().map(|&i| pts[i as usize]).collect();
            let mut hint = None;
            for &p in &pts {
                let ins = insert(&Sphere, &mut mesh, &mut pos, p, hint).unwrap();
                hint = mesh.vertex_faces(ins.vertex).next();
            }
        }
        "remove" => {
            for _ in 0..n / 10 {
                let v = Vertex::new((rng.next() % n as u64) as u32);
                if mesh.is_vertex_alive(v) {
                    remove(&Sphere, &mut mesh, &pos, v).unwrap();
                }
            }
        }
        "locate" => {
            let f0 = mesh.faces().next();
            let mut hits = 0usize;
            for _ in 0..n / 10 {
                let p = rng.unit();
                hits += locate(&Sphere, &mesh, &pos, p, f0).is_ok() as usize;
            }
            assert_eq!(hits, n / 10);
        }
        "restore" => {
            let edge = (8.0 * std::f64::consts::PI / (n as f64 * 3f64.sqrt())).sqrt();
            let centres: Vec<DVec3> = (0..20).map(|_| rng.unit()).collect();
            let turns: Vec<DQuat> = (0..20)
                .map(|_| DQuat::from_axis_angle(rng.unit(), 0.5 * edge * (0.5 + rng.f64())))
                .collect();
            for p in &mut pos {
                let k = (0..20)
                    .max_by(|&a, &b| p.dot(centres[a]).total_cmp(&p.dot(centres[b])))
                    .unwrap();
                *p = turns[k] * *p;
            }
            let all: Vec<Vertex> = mesh.vertices().collect();
            let s = restore(
                &Sphere,
                &mut mesh,
                &mut pos,
                Some(&all),
                &RestoreOptions::default(),
            )
            .unwrap();
            eprintln!("{s:?}");
        }
        other => panic!("unknown mode {other}"),
    }
    eprintln!("{what} at {n}: {:?}", t.elapsed());
}
