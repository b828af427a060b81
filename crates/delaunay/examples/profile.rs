//! A small, deterministic driver for instruction-count profiling (`valgrind --tool=callgrind`):
//! `cargo run --release -p quadworld-delaunay --example profile -- <insert|remove|locate|grid|restore> [n] [hilbert]`.
//! Wall-clock figures live in the criterion bench `benches/benches/living.rs`.

use delaunay::{RestoreOptions, Sphere, insert, locate, remove, restore};
use glam::DVec3;
use quadedge::Vertex;
use testkit::{Rng, plate_turns};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("insert", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50_000);
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).unwrap();
    // A third argument `hilbert` renumbers the planet along a Hilbert curve first (locality).
    if args.get(3).is_some_and(|a| a == "hilbert") {
        sphere::hilbert_sort_mesh(&mut mesh, &mut pos).unwrap();
    }
    let mut rng = Rng::new(7);
    let t = std::time::Instant::now();
    match what {
        "insert" => {
            let mut pts: Vec<DVec3> = (0..n).map(|_| rng.unit_dvec3()).collect();
            let order = sphere::internals::hilbert_order_sphere(&pts);
            pts = order.iter().map(|&i| pts[i as usize]).collect();
            mesh.reserve(n).unwrap();
            pos.reserve(n);
            let mut hint = None;
            for &p in &pts {
                let ins = insert(&Sphere, &mut mesh, &mut pos, p, hint).unwrap();
                hint = mesh.vertex_faces(ins.vertex).next();
            }
        }
        "remove" => {
            for _ in 0..n / 10 {
                let v = Vertex::new((rng.next_u64() % n as u64) as u32);
                if mesh.is_vertex_alive(v) {
                    remove(&Sphere, &mut mesh, &pos, v).unwrap();
                }
            }
        }
        "locate" => {
            let f0 = mesh.faces().next();
            let mut hits = 0usize;
            for _ in 0..n / 10 {
                let p = rng.unit_dvec3();
                hits += locate(&Sphere, &mesh, &pos, p, f0).is_ok() as usize;
            }
            assert_eq!(hits, n / 10);
        }
        "grid" => {
            let grid = delaunay::internals::HintGrid::new(&mesh, &pos);
            let mut hits = 0usize;
            for _ in 0..n / 10 {
                let p = rng.unit_dvec3();
                hits += grid.locate(&Sphere, &mesh, &pos, p).is_ok() as usize;
            }
            assert_eq!(hits, n / 10);
        }
        "restore" => {
            let edge = (8.0 * std::f64::consts::PI / (n as f64 * 3f64.sqrt())).sqrt();
            let turns = plate_turns(&pos, 20, 0.5 * edge, &mut rng);
            for (p, q) in pos.iter_mut().zip(&turns) {
                *p = *q * *p;
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
