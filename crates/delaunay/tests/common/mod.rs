//! Helpers shared by the integration tests: plate motions, canonical triangle sets (the
//! seeded generator is testkit's).

#![allow(dead_code)]

use glam::{DQuat, DVec3};
use quadedge::{Mesh, Vertex};

pub use testkit::Rng;

/// The triangles of a mesh as sorted vertex triples, each rotated to start at its smallest id.
pub fn triangle_set(mesh: &Mesh) -> Vec<[u32; 3]> {
    let mut t: Vec<[u32; 3]> = mesh
        .faces()
        .map(|f| canonical(mesh.face_vertices(f).map(|v| v.raw())))
        .collect();
    t.sort_unstable();
    t
}

pub use testkit::canonical_triangle as canonical;

/// The from-scratch triangulation of the live vertices' positions, in the mesh's vertex ids.
pub fn from_scratch(mesh: &Mesh, pos: &[DVec3]) -> Vec<[u32; 3]> {
    let live: Vec<Vertex> = mesh.vertices().collect();
    let pts: Vec<DVec3> = live.iter().map(|v| pos[v.index()]).collect();
    let mut t: Vec<[u32; 3]> = sphere::triangulate(&pts)
        .unwrap()
        .into_iter()
        .map(|t| canonical(t.map(|i| live[i as usize].raw())))
        .collect();
    t.sort_unstable();
    t
}

/// Splits the vertices into `plates` plates (nearest of random centres) and turns each plate
/// about its own random axis by an angle up to `max_angle`. Returns the moved vertices.
pub fn plate_motion(
    mesh: &Mesh,
    pos: &mut [DVec3],
    plates: usize,
    max_angle: f64,
    rng: &mut Rng,
) -> Vec<Vertex> {
    let centres: Vec<DVec3> = (0..plates).map(|_| rng.unit_dvec3()).collect();
    let turns: Vec<DQuat> = (0..plates)
        .map(|_| DQuat::from_axis_angle(rng.unit_dvec3(), max_angle * (rng.unit_f64() * 2.0 - 1.0)))
        .collect();
    let mut moved = Vec::new();
    for v in mesh.vertices() {
        let p = pos[v.index()];
        let k = (0..plates)
            .max_by(|&a, &b| p.dot(centres[a]).total_cmp(&p.dot(centres[b])))
            .unwrap();
        let q = turns[k] * p;
        if q != p {
            pos[v.index()] = q;
            moved.push(v);
        }
    }
    moved
}

/// Do the points lie in one closed hemisphere (up to rounding)? Independent of the library: a
/// separating great circle can be turned until it passes through two of the points (or one,
/// or is any circle through an antipodal pair), so its pole is among `±(p × q)` and `±p`.
pub fn in_closed_hemisphere(points: &[DVec3]) -> bool {
    let tol = 1e-12;
    let fits = |u: DVec3| {
        u.length() > 1e-300
            && points
                .iter()
                .all(|p| p.dot(u) >= -tol * u.length() * p.length())
    };
    points.iter().any(|&p| fits(p) || fits(-p))
        || points.iter().enumerate().any(|(i, &p)| {
            points[i + 1..].iter().any(|&q| {
                let n = p.cross(q);
                fits(n) || fits(-n)
            })
        })
}
