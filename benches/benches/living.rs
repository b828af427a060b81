//! Living planets: keeping a 1M-vertex spherical mesh exactly Delaunay while it changes, beside
//! rebuilding from scratch and beside spade's planar incremental Delaunay.
//!
//! * `living/restore`: every vertex of a 1M Fibonacci planet turned by its plate's rotation
//!   (20 plates, about half a mean edge length; folds at converging plate boundaries), then
//!   `delaunay::restore` with the moved list. Includes applying the motion.
//! * `living/scratch`: the same moved positions triangulated from scratch
//!   (`sphere::sphere_mesh`), which also loses every layer's data.
//! * `living/locate_coherent`: 1M queries along a random walk, each hinted by the previous
//!   answer. `living/locate_random`: 100k random directions, each started from
//!   `delaunay::internals::HintGrid` (a cube map of faces, about an edge wide per cell).
//! * `living/insert`: 1M random points, sorted along a Morton curve, into a 1M planet.
//! * `living/remove`: 100k random vertices out of a 1M planet.
//! * `living/{locate_random,insert,remove}_hilbert`: the same work on the same planet
//!   renumbered along a Hilbert curve (`sphere::hilbert_sort_mesh`), the spatial order spade's
//!   bulk-loaded triangulation has: at 1M the difference is cache misses.
//! * `living/insert_many`, `living/{insert,remove}_many_hilbert`, `living/remove_many`: the same points and victims
//!   through `delaunay::insert_many` / `remove_many` (which sort them along a Morton curve
//!   themselves: the victims are in random order, the points already sorted).
//! * `spade/insert`, `spade/remove`: spade's planar incremental insertion of 1M random points
//!   into a 1M triangulation and removal of 100k vertices.
//!
//! Every timed routine starts from a clone of the prepared mesh (`iter_batched`, cloning not
//! timed).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use delaunay::internals::HintGrid;
use delaunay::internals::MortonFrame;
use delaunay::{
    Location, RestoreOptions, Sphere, insert, insert_many, locate, remove, remove_many, restore,
};
use glam::DVec3;
use quadedge::Vertex;
use spade::{DelaunayTriangulation, Point2, Triangulation};
use std::hint::black_box;
use std::time::Duration;
use testkit::{Rng, plate_turns};

const N: usize = 1_000_000;

/// Morton key in the cube [-1, 1]³ (sorting the inputs spatially).
fn morton(p: DVec3) -> u64 {
    MortonFrame::of([DVec3::NEG_ONE, DVec3::ONE]).key(p)
}

fn living(c: &mut Criterion) {
    let mut g = c.benchmark_group("living");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    let (mesh, pos) = sphere::fibonacci_sphere(N, 1.0, 0.0, 0).unwrap();
    let mean_edge = (8.0 * std::f64::consts::PI / (N as f64 * 3f64.sqrt())).sqrt();
    let turns = plate_turns(&pos, 20, 0.5 * mean_edge, &mut Rng::new(1));
    let moved_pos: Vec<DVec3> = pos.iter().zip(&turns).map(|(p, q)| *q * *p).collect();
    let all: Vec<Vertex> = mesh.vertices().collect();
    {
        // One untimed run for the report: what the restore had to do.
        let (mut m, mut p) = (mesh.clone(), moved_pos.clone());
        let s = restore(
            &Sphere,
            &mut m,
            &mut p,
            Some(&all),
            &RestoreOptions::default(),
        )
        .unwrap();
        eprintln!("living/restore at {N}: {s:?}");
    }
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("restore", |b| {
        b.iter_batched(
            || (mesh.clone(), pos.clone()),
            |(mut m, mut p)| {
                for (x, q) in p.iter_mut().zip(&turns) {
                    *x = *q * *x;
                }
                restore(
                    &Sphere,
                    &mut m,
                    &mut p,
                    Some(&all),
                    &RestoreOptions::default(),
                )
                .unwrap();
                (m, p)
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("scratch", |b| {
        b.iter(|| black_box(sphere::sphere_mesh(&moved_pos).unwrap()))
    });

    // Point location.
    let mut rng = Rng::new(2);
    let mut walk = Vec::with_capacity(N);
    let mut p = rng.unit_dvec3();
    for _ in 0..N {
        p = (p + rng.unit_dvec3() * 0.5 * mean_edge).normalize();
        walk.push(p);
    }
    g.bench_function("locate_coherent", |b| {
        b.iter(|| {
            let mut hint = mesh.faces().next();
            for &q in &walk {
                let loc = locate(&Sphere, &mesh, &pos, q, hint).unwrap();
                hint = loc.face(&mesh);
            }
            black_box(hint)
        })
    });
    let random: Vec<DVec3> = (0..N).map(|_| rng.unit_dvec3()).collect();
    let mut inserts = random.clone();
    inserts.sort_unstable_by_key(|&q| morton(q));
    // 100k distinct random vertices to remove.
    let mut victims: Vec<Vertex> = Vec::with_capacity(N / 10);
    let mut taken = vec![false; N];
    while victims.len() < N / 10 {
        let v = (rng.next_u64() % N as u64) as usize;
        if !taken[v] {
            taken[v] = true;
            victims.push(Vertex::new(v as u32));
        }
    }
    let work = Work {
        random: &random[..N / 10],
        inserts: &inserts,
    };
    edits(&mut g, "", &mesh, &pos, &work, &victims);

    // The same planet renumbered along a Hilbert curve (`sphere::hilbert_sort_mesh`): the same
    // points and triangles, ids in spatial order as spade's bulk-loaded triangulation keeps
    // them. The same queries, insertions and removals (victims mapped through the remap).
    let (mut hmesh, mut hpos) = (mesh.clone(), pos.clone());
    let remap = sphere::hilbert_sort_mesh(&mut hmesh, &mut hpos).unwrap();
    let hvictims: Vec<Vertex> = victims.iter().map(|&v| remap.vertex(v).unwrap()).collect();
    edits(&mut g, "_hilbert", &hmesh, &hpos, &work, &hvictims);
    g.finish();

    // spade, planar, same sizes.
    let mut g = c.benchmark_group("spade");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(4));
    let base: Vec<Point2<f64>> = (0..N)
        .map(|_| Point2::new(rng.unit_f64(), rng.unit_f64()))
        .collect();
    let tri = DelaunayTriangulation::<Point2<f64>>::bulk_load(base).unwrap();
    let mut extra: Vec<Point2<f64>> = (0..N)
        .map(|_| Point2::new(rng.unit_f64(), rng.unit_f64()))
        .collect();
    extra.sort_unstable_by_key(|q| morton(DVec3::new(q.x * 2.0 - 1.0, q.y * 2.0 - 1.0, 0.0)));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("insert", |b| {
        b.iter_batched(
            || tri.clone(),
            |mut t| {
                for &q in &extra {
                    t.insert(q).unwrap();
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.throughput(Throughput::Elements((N / 10) as u64));
    g.bench_function("remove", |b| {
        b.iter_batched(
            || tri.clone(),
            |mut t| {
                // spade moves its last vertex into a removed slot, so any index below the
                // current count is a live vertex: remove random ones.
                let mut r = Rng::new(3);
                for _ in 0..N / 10 {
                    let i = (r.next_u64() % t.num_vertices() as u64) as usize;
                    t.remove(spade::handles::FixedVertexHandle::from_index(i));
                }
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

/// The queries and edits run on each vertex order of the planet.
struct Work<'a> {
    /// Random positions to locate.
    random: &'a [DVec3],
    /// Points to insert, Morton-sorted.
    inserts: &'a [DVec3],
}

/// `locate_random`, `insert`, `insert_many`, `remove` and `remove_many` (each name followed by
/// `suffix`) on `mesh` and `pos`.
fn edits(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    suffix: &str,
    mesh: &quadedge::Mesh,
    pos: &[DVec3],
    work: &Work<'_>,
    victims: &[Vertex],
) {
    let grid = HintGrid::new(mesh, pos);
    g.throughput(Throughput::Elements(work.random.len() as u64));
    g.bench_function(format!("locate_random{suffix}"), |b| {
        b.iter(|| {
            let mut found = 0usize;
            for &q in work.random {
                let loc = grid.locate(&Sphere, mesh, pos, q).unwrap();
                found += matches!(loc, Location::InFace(_)) as usize;
            }
            black_box(found)
        })
    });
    let inserts = work.inserts;
    g.throughput(Throughput::Elements(inserts.len() as u64));
    g.bench_function(format!("insert{suffix}"), |b| {
        b.iter_batched(
            || (mesh.clone(), pos.to_vec()),
            |(mut m, mut p)| {
                // The arrays grow once, not by doubling copies of a 1M mesh.
                m.reserve(inserts.len()).unwrap();
                p.reserve(inserts.len());
                let mut hint = None;
                for &q in inserts {
                    let ins = insert(&Sphere, &mut m, &mut p, q, hint).unwrap();
                    hint = m.vertex_faces(ins.vertex).next();
                }
                (m, p)
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(format!("insert_many{suffix}"), |b| {
        b.iter_batched(
            || (mesh.clone(), pos.to_vec()),
            |(mut m, mut p)| {
                insert_many(&Sphere, &mut m, &mut p, inserts).unwrap();
                (m, p)
            },
            BatchSize::LargeInput,
        )
    });
    g.throughput(Throughput::Elements(victims.len() as u64));
    g.bench_function(format!("remove{suffix}"), |b| {
        b.iter_batched(
            || mesh.clone(),
            |mut m| {
                for &v in victims {
                    remove(&Sphere, &mut m, pos, v).unwrap();
                }
                m
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function(format!("remove_many{suffix}"), |b| {
        b.iter_batched(
            || mesh.clone(),
            |mut m| {
                remove_many(&Sphere, &mut m, pos, victims).unwrap();
                m
            },
            BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, living);
criterion_main!(benches);
