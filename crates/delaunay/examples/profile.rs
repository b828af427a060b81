//! A small, deterministic driver for instruction-count profiling (`valgrind --tool=callgrind`):
//! `cargo run --release -p quadworld-delaunay --example profile -- <insert|remove|locate|grid|restore> [n] [hilbert]`.
//! Wall-clock figures live in the criterion bench `benches/benches/living.rs`.

use delaunay::{RestoreOptions, Sphere, insert, locate, remove, restore};
use glam::{DQuat, DVec3};
use quadedge::Vertex;

/// The workspace's generator, with directions as `DVec3`.
struct Rng(testkit::Rng);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(testkit::Rng::new(seed))
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn f64(&mut self) -> f64 {
        self.0.unit_f64()
    }
    fn unit(&mut self) -> DVec3 {
        DVec3::from_array(self.0.unit_vector())
    }
}

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
            let mut pts: Vec<DVec3> = (0..n).map(|_| rng.unit()).collect();
            let order = sphere::hilbert_order_sphere(&pts);
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
        "grid" => {
            let grid = delaunay::hint::HintGrid::new(&mesh, &pos);
            let mut hits = 0usize;
            for _ in 0..n / 10 {
                let p = rng.unit();
                hits += grid.locate(&Sphere, &mesh, &pos, p).is_ok() as usize;
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
