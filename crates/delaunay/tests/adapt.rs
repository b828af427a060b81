//! Refining and coarsening by a size field: the result is Delaunay, valid, converged, follows
//! the field; layers of a world follow; hostile sizes and options change nothing.

mod common;

use common::Rng;
use delaunay::{
    AdaptError, AdaptOptions, AdaptStats, Plane, Sphere, Violation, adapt, is_delaunay,
};
use glam::DVec3;
use layers::{FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex};
use world::World;

/// The fraction of edges that must end within `[4/5, 4/3]` of their target. Measured on the
/// fields below: 0.80 for the random 4× fields, 0.93 for uniform coarsening, 0.999 for uniform
/// refinement. Nearly every edge outside is short, kept by the collapses' guard
/// against making an edge longer than the split bound: without moving vertices (relaxation,
/// which would detach positions from the layers' data) a Delaunay triangulation of irregular
/// points keeps that spread.
const WITHIN_BOUNDS: f64 = 0.75;

/// Mean spacing of `n` points on the unit sphere.
fn spacing(n: usize) -> f64 {
    (4.0 * std::f64::consts::PI / n as f64).sqrt()
}

/// A smooth random field varying 4× across the sphere: `base · 2^(d · p)`, with `d` a random
/// direction (plus a gentler second term so that the extremes are not antipodal).
fn field(rng: &mut Rng, base: f64) -> impl Fn(DVec3) -> f64 + Copy {
    let d1 = rng.unit_dvec3();
    let d2 = rng.unit_dvec3();
    move |p: DVec3| base * 2f64.powf(0.8 * d1.dot(p) + 0.2 * d2.dot(p))
}

/// The vertex count a field asks for: the integral of `1 / ((√3/2) s²)` over the sphere (the
/// area per vertex of equilateral triangles of side `s`), summed over a fine lattice.
fn expected_vertices(s: impl Fn(DVec3) -> f64) -> f64 {
    let n = 20_000;
    let pts = sphere::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
    let cell = 4.0 * std::f64::consts::PI / n as f64;
    pts.iter()
        .map(|&p| cell / (0.75f64.sqrt() * s(p).powi(2)))
        .sum()
}

fn run_sphere(n: usize, seed: u64) -> (Mesh, Vec<DVec3>, AdaptStats, f64) {
    let mut rng = Rng::new(seed);
    let s = field(&mut rng, 1.1 * spacing(n));
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.3, seed).unwrap();
    let opts = AdaptOptions {
        sample_new_vertices: true,
        ..AdaptOptions::default()
    };
    let stats = adapt(&Sphere, &mut mesh, &mut pos, |_, p| s(p), &opts).unwrap();
    (mesh, pos, stats, expected_vertices(s))
}

#[test]
fn random_fields_on_spheres_converge_and_stay_delaunay() {
    for seed in 1..=3 {
        let (mesh, pos, stats, expected) = run_sphere(3000, seed);
        mesh.check().unwrap();
        assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()), "seed {seed}");
        assert_eq!(pos.len(), mesh.vertex_slots());
        assert!(stats.converged, "seed {seed}: {stats:?}");
        assert!(stats.splits > 0 && stats.collapses > 0 && stats.flips > 0);
        assert!(
            stats.within_bounds() >= WITHIN_BOUNDS,
            "seed {seed}: {:.3} {stats:?}",
            stats.within_bounds()
        );
        let ratio = mesh.vertex_count() as f64 / expected;
        assert!(
            (0.7..1.5).contains(&ratio),
            "seed {seed}: {ratio} {stats:?}"
        );
        // Every live position is on the unit sphere.
        for v in mesh.vertices() {
            assert!((pos[v.index()].length() - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn adapt_is_deterministic_and_idempotent() {
    let (m1, p1, _, _) = run_sphere(1500, 9);
    let (m2, p2, _, _) = run_sphere(1500, 9);
    assert_eq!(m1, m2);
    assert_eq!(p1, p2);
    // A second run on a converged mesh changes nothing.
    let mut rng = Rng::new(9);
    let s = field(&mut rng, 1.1 * spacing(1500));
    let (mut m3, mut p3) = (m1.clone(), p1.clone());
    let opts = AdaptOptions {
        sample_new_vertices: true,
        ..AdaptOptions::default()
    };
    let again = adapt(&Sphere, &mut m3, &mut p3, |_, p| s(p), &opts).unwrap();
    assert_eq!((again.splits, again.collapses, again.passes), (0, 0, 1));
    assert_eq!(m3, m1);
}

#[test]
fn uniform_refinement_and_coarsening() {
    // Halving the target roughly quadruples the vertices; doubling it quarters them.
    let n = 2000;
    let h = spacing(n) * 1.1;
    for (factor, want) in [(0.5, 4.0), (2.0, 0.25)] {
        let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).unwrap();
        let stats = adapt(
            &Sphere,
            &mut mesh,
            &mut pos,
            |_, _| h * factor,
            &AdaptOptions::default(),
        )
        .unwrap();
        let ratio = mesh.vertex_count() as f64 / n as f64;
        assert!(
            (want * 0.7..want * 1.4).contains(&ratio),
            "{factor}: {ratio} {stats:?}"
        );
        assert!(stats.within_bounds() >= WITHIN_BOUNDS, "{stats:?}");
        assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
        mesh.check().unwrap();
    }
}

const POSITION: LayerInfo<DVec3, VertexKind> = LayerInfo::new("position");
const LINEAR: LayerInfo<f64, VertexKind> =
    LayerInfo::new("linear").interpolation(Interpolation::Lerp);
const TAG: LayerInfo<u32, VertexKind> = LayerInfo::new("tag");
const AREA: LayerInfo<f32, FaceKind> = LayerInfo::new("area");

fn world_of(mesh: Mesh, points: &[DVec3], f: impl Fn(DVec3) -> f64) -> World {
    let mut world = World::new(mesh, 1);
    {
        let mut g = world.lock_mesh_and_positions(&POSITION).unwrap();
        g.parts().1.copy_from_slice(points);
        g.commit();
    }
    {
        let mut l = world.lock_layer(&LINEAR).unwrap();
        for (i, &p) in points.iter().enumerate() {
            l[Vertex::new(i as u32)] = f(p);
        }
        l.commit().unwrap();
    }
    world.update_layer(&TAG, |l| l[Vertex::new(0)] = 7).unwrap();
    world.lock_layer(&AREA).unwrap().commit().unwrap();
    world
}

fn adapt_world(world: &mut World, surface: &impl delaunay::Metric, s: f64) -> AdaptStats {
    let mut g = world.lock_mesh_and_positions(&POSITION).unwrap();
    let (mesh, pos) = g.parts();
    // Varies 4× (0.4 s to 1.6 s) along x.
    let stats = adapt(
        surface,
        mesh,
        pos,
        |_, p| s * (1.0 + 0.6 * (3.0 * p.x).sin()),
        &AdaptOptions {
            sample_new_vertices: true,
            ..AdaptOptions::default()
        },
    )
    .unwrap();
    g.commit();
    stats
}

fn assert_layer_lengths(world: &World) {
    let m = world.mesh();
    assert_eq!(world.layer(&POSITION).unwrap().len(), m.vertex_slots());
    assert_eq!(world.layer(&LINEAR).unwrap().len(), m.vertex_slots());
    assert_eq!(world.layer(&TAG).unwrap().len(), m.vertex_slots());
    assert_eq!(world.layer(&AREA).unwrap().len(), m.face_slots());
}

#[test]
fn a_world_on_the_sphere_follows() {
    let (mesh, points) = sphere::fibonacci_sphere(2000, 1.0, 0.3, 4).unwrap();
    let f = |p: DVec3| 2.0 * p.x - p.y + 0.5 * p.z + 3.0;
    let mut world = world_of(mesh, &points, f);
    let stats = adapt_world(&mut world, &Sphere, 1.1 * spacing(2000));
    assert!(stats.splits > 0 && stats.collapses > 0, "{stats:?}");
    assert_layer_lengths(&world);
    let pos = world.layer(&POSITION).unwrap().to_vec();
    assert_eq!(is_delaunay(&Sphere, world.mesh(), &pos), Ok(()));
    world.mesh().check().unwrap();
    // New vertices sit on the great circle, the lerp layer on the chord: equal up to the
    // chord's sagitta, which is tiny at these edge lengths.
    let lin = world.layer(&LINEAR).unwrap();
    for v in world.mesh().vertices() {
        assert!((lin[v] - f(pos[v.index()])).abs() < 0.05, "{v:?}");
    }
}

#[test]
fn a_linear_field_is_reproduced_exactly_in_the_plane() {
    // A jittered grid in the unit square, triangulated and made Delaunay.
    let k = 30u32;
    let mut rng = Rng::new(3);
    let mut pts = Vec::new();
    for j in 0..k {
        for i in 0..k {
            let interior = i > 0 && j > 0 && i < k - 1 && j < k - 1;
            let jit = if interior { 0.3 } else { 0.0 };
            pts.push(DVec3::new(
                (i as f64 + jit * (rng.unit_f64() - 0.5)) / (k - 1) as f64,
                (j as f64 + jit * (rng.unit_f64() - 0.5)) / (k - 1) as f64,
                0.0,
            ));
        }
    }
    let mut tris = Vec::new();
    for j in 0..k - 1 {
        for i in 0..k - 1 {
            let a = j * k + i;
            tris.push([a, a + 1, a + k + 1]);
            tris.push([a, a + k + 1, a + k]);
        }
    }
    let mut mesh = Mesh::from_triangles(pts.len(), &tris).unwrap();
    delaunay::make_delaunay(&Plane, &mut mesh, &pts).unwrap();
    let f = |p: DVec3| 3.0 * p.x - 2.0 * p.y + 0.25;
    let mut world = world_of(mesh, &pts, f);
    let stats = adapt_world(&mut world, &Plane, 1.1 / (k - 1) as f64);
    assert!(stats.splits > 0 && stats.collapses > 0, "{stats:?}");
    assert_layer_lengths(&world);
    let pos = world.layer(&POSITION).unwrap().to_vec();
    assert_eq!(is_delaunay(&Plane, world.mesh(), &pos), Ok(()));
    world.mesh().check().unwrap();
    let lin = world.layer(&LINEAR).unwrap();
    for v in world.mesh().vertices() {
        assert!((lin[v] - f(pos[v.index()])).abs() < 1e-12, "{v:?}");
    }
    // The outline is kept: the corners are still there.
    for c in [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)] {
        assert!(world.mesh().vertices().any(|v| pos[v.index()] == c));
    }
}

#[test]
fn hostile_sizes_and_options_change_nothing() {
    let (mesh, pos) = sphere::fibonacci_sphere(500, 1.0, 0.3, 2).unwrap();
    let h = spacing(500);
    for bad in [f64::NAN, -1.0, 0.0, f64::INFINITY, -0.0, f64::NEG_INFINITY] {
        let (mut m, mut p) = (mesh.clone(), pos.clone());
        let r = adapt(
            &Sphere,
            &mut m,
            &mut p,
            |v, _| if v.index() == 77 { bad } else { h },
            &AdaptOptions::default(),
        );
        match r {
            Err(AdaptError::BadSize { vertex, size }) => {
                assert_eq!(vertex, Vertex::new(77));
                assert!(size.is_nan() == bad.is_nan());
            }
            other => panic!("{bad}: {other:?}"),
        }
        assert_eq!((m, p), (mesh.clone(), pos.clone()));
    }
    for o in [
        AdaptOptions {
            collapse_below: 2.0,
            ..AdaptOptions::default()
        },
        AdaptOptions {
            split_above: f64::NAN,
            ..AdaptOptions::default()
        },
        AdaptOptions {
            collapse_below: 0.0,
            ..AdaptOptions::default()
        },
        AdaptOptions {
            max_passes: 0,
            ..AdaptOptions::default()
        },
    ] {
        let (mut m, mut p) = (mesh.clone(), pos.clone());
        assert_eq!(
            adapt(&Sphere, &mut m, &mut p, |_, _| h, &o),
            Err(AdaptError::BadOptions)
        );
        assert_eq!((m, p), (mesh.clone(), pos.clone()));
    }
    // A folded or non-Delaunay input is refused before any edit.
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    p[100] = -p[100];
    let before = p.clone();
    assert!(matches!(
        adapt(&Sphere, &mut m, &mut p, |_, _| h, &AdaptOptions::default()),
        Err(AdaptError::NotDelaunay(Violation::Inverted(_)))
    ));
    assert_eq!((&m, &p), (&mesh, &before));
    // Positions too short, or not finite.
    let (mut m, mut p) = (mesh.clone(), pos[..10].to_vec());
    assert!(matches!(
        adapt(&Sphere, &mut m, &mut p, |_, _| h, &AdaptOptions::default()),
        Err(AdaptError::Delaunay(_))
    ));
    let (mut m, mut p) = (mesh.clone(), pos.clone());
    p[3] = DVec3::NAN;
    assert!(matches!(
        adapt(&Sphere, &mut m, &mut p, |_, _| h, &AdaptOptions::default()),
        Err(AdaptError::Delaunay(_))
    ));
    assert_eq!(m, mesh);
}

#[test]
fn an_absurdly_small_target_stops_at_the_vertex_budget() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(200, 1.0, 0.3, 2).unwrap();
    let opts = AdaptOptions {
        max_vertices: Some(3000),
        ..AdaptOptions::default()
    };
    let stats = adapt(&Sphere, &mut mesh, &mut pos, |_, _| 1e-300, &opts).unwrap();
    assert!(stats.budget_reached && !stats.converged);
    assert!(mesh.vertex_count() <= 3000 + 1);
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    mesh.check().unwrap();
    // A huge target coarsens down to what the link condition allows, and stays valid.
    let stats = adapt(&Sphere, &mut mesh, &mut pos, |_, _| 1e300, &opts).unwrap();
    assert!(mesh.vertex_count() < 50, "{stats:?}");
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    mesh.check().unwrap();
}

#[test]
fn a_moving_field_over_many_rounds_keeps_every_invariant() {
    // A fine spot that wanders over the sphere: each round refines where it goes and coarsens
    // where it was, on the previous round's mesh.
    let n = 1500;
    let h = 1.1 * spacing(n);
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.3, 8).unwrap();
    let mut rng = Rng::new(21);
    let opts = AdaptOptions {
        sample_new_vertices: true,
        max_passes: 4,
        ..AdaptOptions::default()
    };
    for round in 0..6 {
        let spot = rng.unit_dvec3();
        let s = |p: DVec3| h * (0.5 + 0.75 * (1.0 - spot.dot(p)));
        let stats = adapt(&Sphere, &mut mesh, &mut pos, |_, p| s(p), &opts).unwrap();
        mesh.check().unwrap();
        assert_eq!(pos.len(), mesh.vertex_slots(), "round {round}");
        assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()), "round {round}");
        assert!(
            stats.splits > 0 && stats.collapses > 0,
            "round {round}: {stats:?}"
        );
        assert_eq!(
            stats.long_edges + stats.short_edges > 0,
            stats.within_bounds() < 1.0
        );
    }
}
