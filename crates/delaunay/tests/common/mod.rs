//! Helpers shared by the integration tests: a seeded generator, plate motions, canonical
//! triangle sets.

#![allow(dead_code)]

use glam::{DQuat, DVec3};
use quadedge::{Mesh, Vertex};

/// A small seeded generator (SplitMix64), so tests are deterministic.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// A uniform direction.
    pub fn unit(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.f64(), self.f64(), self.f64()) * 2.0 - DVec3::ONE;
            let l = v.length_squared();
            if l > 1e-6 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
}

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
    let centres: Vec<DVec3> = (0..plates).map(|_| rng.unit()).collect();
    let turns: Vec<DQuat> = (0..plates)
        .map(|_| DQuat::from_axis_angle(rng.unit(), max_angle * (rng.f64() * 2.0 - 1.0)))
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
