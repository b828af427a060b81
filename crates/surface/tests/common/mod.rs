//! Test worlds shared by the surface tests: a seeded planet with noisy relief and flat maps.
#![allow(dead_code)]

use glam::{DVec2, DVec3};
use quadedge::Mesh;
use surface::{Cells, Geometry};
use testkit::Rng;

/// Earth's radius (km).
pub const R: f64 = 6371.0;

/// A perturbed Fibonacci planet of `n` cells.
pub fn planet(n: usize, seed: u64) -> (Mesh, Vec<DVec3>, Cells) {
    let (mesh, pos) = sphere::fibonacci_sphere(n, R, 0.3, seed).unwrap();
    let cells = Cells::new(&mesh, &pos, Geometry::Sphere { radius_km: R }).unwrap();
    (mesh, pos, cells)
}

/// Relief (m) from a few random waves over the sphere: continents, basins and ranges, about
/// 40 % land.
pub fn wavy_relief(pos: &[DVec3], seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    let waves: Vec<(DVec3, f64, f64)> = (0..24)
        .map(|k| {
            let d = DVec3::from(rng.unit_vector());
            let freq = 1.5 + 1.2 * k as f64 * rng.unit_f64();
            (d, freq, rng.unit_f64() * std::f64::consts::TAU)
        })
        .collect();
    pos.iter()
        .map(|p| {
            let u = p.normalize();
            let s: f64 = waves
                .iter()
                .enumerate()
                .map(|(k, (d, f, ph))| (u.dot(*d) * f * 3.0 + ph).sin() / (1.0 + 0.3 * k as f64))
                .sum();
            (s * 900.0 - 300.0) as f32
        })
        .collect()
}

/// A jittered `nx × ny` grid with `spacing` km between points, its planar map (closed by a
/// ghost vertex, left out of the cells) and its cells at latitude `lat0_deg` on `y = 0`,
/// 1/111 degree per km northwards.
pub fn flat_map(
    nx: usize,
    ny: usize,
    spacing: f64,
    seed: u64,
    lat0_deg: f64,
) -> (plane::PlanarMap, Cells) {
    let mut rng = Rng::new(seed);
    let mut pts = Vec::with_capacity(nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            let jx = (rng.unit_f64() - 0.5) * 0.3;
            let jy = (rng.unit_f64() - 0.5) * 0.3;
            pts.push(DVec2::new(
                (i as f64 + jx) * spacing,
                (j as f64 + jy) * spacing,
            ));
        }
    }
    let map = plane::triangulate(&pts).unwrap();
    let g = Geometry::Plane {
        km_per_unit: 1.0,
        lat_at_y0_deg: lat0_deg,
        deg_per_unit: 1.0 / 111.0,
    };
    let cells = Cells::with_exterior(&map.mesh, &map.positions, g, &[map.ghost]).unwrap();
    (map, cells)
}
