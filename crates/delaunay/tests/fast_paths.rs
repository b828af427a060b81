//! The fast paths against the exact ones: floating-point filters that must defer to exact
//! arithmetic on near-degenerate input, and the hint grid for point location.

mod common;

use common::Rng;
use delaunay::internals::HintGrid;
use delaunay::predicates::{orient3d_exact, orient3d_static, static_orient3d_bound};
use delaunay::{DelaunayError, Location, Sphere, insert, is_delaunay, locate, remove};
use glam::DVec3;
use quadedge::Face;

/// The exact sign of `orient3d` for coordinates that are multiples of 2⁻³² below 2: scaled to
/// integers, the determinant is exact in i128.
fn sign_by_integers(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> i32 {
    let to_int = |x: f64| (x * (1u64 << 32) as f64) as i128;
    let diff = |p: [f64; 3]| [0, 1, 2].map(|k| to_int(p[k]) - to_int(d[k]));
    let (a, b, c) = (diff(a), diff(b), diff(c));
    let det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0]);
    det.signum() as i32
}

/// Coordinates in [1/4, 1), multiples of 2⁻²⁹: dyadic combinations with weights in eighths
/// stay multiples of 2⁻³², exact for the integer check above.
fn grid_point(rng: &mut Rng) -> [f64; 3] {
    [0; 3].map(|_| 0.25 + (rng.below(3 << 27) as f64) / (1u64 << 29) as f64)
}

#[test]
fn filters_defer_to_exact_arithmetic_on_coplanar_points() {
    let mut rng = Rng::new(11);
    let bound = static_orient3d_bound(1.0);
    let mut zeros = 0;
    for _ in 0..2000 {
        let [a, b, c] = [0; 3].map(|_| grid_point(&mut rng));
        // d on the plane of a, b, c (an exact affine combination with dyadic weights), then
        // nudged by one unit of the grid in one coordinate, or not at all.
        let (s, t) = (rng.below(8) as f64 / 8.0, rng.below(8) as f64 / 8.0);
        let mut d = [0, 1, 2].map(|k| a[k] + s * (b[k] - a[k]) + t * (c[k] - a[k]));
        let nudge = rng.below(3);
        if nudge < 2 {
            d[rng.below(3)] += if nudge == 0 { 1.0 } else { -1.0 } / (1u64 << 32) as f64;
        }
        let exact = sign_by_integers(a, b, c, d);
        zeros += (exact == 0) as usize;
        let filtered = orient3d_exact(a, b, c, d);
        let fast = orient3d_static(a, b, c, d, bound);
        assert_eq!(filtered.signum() as i32 * (filtered != 0.0) as i32, exact);
        assert_eq!(fast.signum() as i32 * (fast != 0.0) as i32, exact);
    }
    // The test feeds the degenerate case it claims to.
    assert!(zeros > 100, "{zeros} coplanar quadruples");
}

#[test]
fn co_circular_and_nearly_duplicate_insertions_stay_delaunay() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(400, 1.0, 0.0, 0).unwrap();
    // Points on one small circle (co-circular up to rounding), nearly duplicate points, an
    // exact duplicate.
    let axis = DVec3::new(0.3, -0.5, 0.8).normalize();
    let u = axis.any_orthonormal_vector();
    let w = axis.cross(u);
    let ring: Vec<DVec3> = (0..24)
        .map(|k| {
            let t = k as f64 * std::f64::consts::TAU / 24.0;
            (axis * 0.95 + (u * t.cos() + w * t.sin()) * (1.0 - 0.95f64 * 0.95).sqrt()).normalize()
        })
        .collect();
    let mut hint = None;
    let mut inserted = Vec::new();
    for &p in &ring {
        let ins = insert(&Sphere, &mut mesh, &mut pos, p, hint).unwrap();
        hint = mesh.vertex_faces(ins.vertex).next();
        inserted.push(ins.vertex);
    }
    assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    // Each again, turned along the circle by 1e-9 rad: nearly duplicate and nearly
    // co-circular with its neighbours on the ring.
    let turn = glam::DQuat::from_axis_angle(axis, 1e-9);
    for &p in &ring {
        let ins = insert(&Sphere, &mut mesh, &mut pos, turn * p, hint).unwrap();
        inserted.push(ins.vertex);
        assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    }
    assert_eq!(
        insert(&Sphere, &mut mesh, &mut pos, ring[5], None),
        Err(DelaunayError::Duplicate(inserted[5]))
    );
    for v in inserted {
        remove(&Sphere, &mut mesh, &pos, v).unwrap();
        assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
    }
    mesh.check().unwrap();
}

#[test]
fn hint_grid_locates_like_a_walk_from_anywhere() {
    let (mut mesh, mut pos) = sphere::fibonacci_sphere(3000, 1.0, 0.4, 5).unwrap();
    let grid = HintGrid::new(&mesh, &pos);
    assert!(grid.cell_count() >= 6 && grid.cell_count() <= mesh.face_count());
    // Cells no face centre fell in borrow a neighbouring cell's face: with them filled in
    // cell order instead, one of these probes started 1.4 away.
    let mut rng = Rng::new(21);
    for _ in 0..3000 {
        let p = rng.unit_dvec3();
        let from_grid = grid.locate(&Sphere, &mesh, &pos, p).unwrap();
        assert_eq!(from_grid, locate(&Sphere, &mesh, &pos, p, None).unwrap());
        // The hint is close: its face's corners are within a few cells (about 0.06 wide
        // here: 6 · 22² cells) and an edge of p.
        let [a, _, _] = mesh.face_vertices(grid.hint(p)).map(|v| pos[v.index()]);
        assert!(a.distance(p) < 0.25, "hint {} away", a.distance(p));
    }
    // Vertices are found as themselves; axis directions and cube edges fall in a cell.
    for k in [0usize, 17, 2999] {
        assert!(matches!(
            grid.locate(&Sphere, &mesh, &pos, pos[k]).unwrap(),
            Location::OnVertex(v) if v.index() == k
        ));
    }
    for p in [
        DVec3::X,
        DVec3::NEG_Z,
        DVec3::ONE,
        DVec3::new(1.0, -1.0, 0.0),
    ] {
        grid.locate(&Sphere, &mesh, &pos, p).unwrap();
    }
    // After edits the grid may hold dead faces: still exact, from another start.
    let mut grid = grid;
    for _ in 0..300 {
        let v = quadedge::Vertex::new(rng.below(3000) as u32);
        if mesh.is_vertex_alive(v) {
            remove(&Sphere, &mut mesh, &pos, v).unwrap();
        }
    }
    for _ in 0..200 {
        let p = rng.unit_dvec3();
        let loc = grid.locate(&Sphere, &mesh, &pos, p).unwrap();
        assert_eq!(loc, locate(&Sphere, &mesh, &pos, p, None).unwrap());
        if let Some(f) = loc.face(&mesh) {
            grid.remember(p, f);
            assert_eq!(grid.hint(p), f);
        }
    }
    insert(&Sphere, &mut mesh, &mut pos, rng.unit_dvec3(), None).unwrap();
}

#[test]
fn hint_grid_refuses_hostile_queries_and_empty_meshes() {
    let (mesh, pos) = sphere::fibonacci_sphere(200, 1.0, 0.0, 0).unwrap();
    let grid = HintGrid::new(&mesh, &pos);
    for p in [DVec3::NAN, DVec3::INFINITY, DVec3::new(f64::NAN, 1.0, 0.0)] {
        assert_eq!(
            grid.locate(&Sphere, &mesh, &pos, p),
            Err(DelaunayError::NonFinite(None))
        );
    }
    // The zero vector falls in some cell (no panic); locate answers exactly for it.
    let _ = grid.hint(DVec3::ZERO);
    // Positions shorter than the mesh: faces with missing corners are skipped, not read.
    let short = HintGrid::new(&mesh, &pos[..10]);
    assert_eq!(short.cell_count(), grid.cell_count());
    let empty = quadedge::Mesh::new();
    let g = HintGrid::new(&empty, &[]);
    assert_eq!(g.hint(DVec3::X), Face::INVALID);
    assert!(g.locate(&Sphere, &empty, &[], DVec3::X).is_err());
}
