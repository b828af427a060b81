//! Meshes and canonical forms shared by the reorder and frozen-mesh tests.
#![allow(dead_code)]

use quadedge::{Edge, Face, Mesh, Vertex, shapes};

pub fn build(shape: (usize, Vec<[u32; 3]>)) -> Mesh {
    let (n, t) = shape;
    let m = Mesh::from_triangles(n, &t).unwrap();
    m.check().unwrap();
    m
}

/// A deterministic xorshift: the same edits on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as usize % n.max(1)
    }

    /// A uniformly random permutation of `0..n` (Fisher–Yates).
    pub fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut p: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            p.swap(i, self.below(i + 1));
        }
        p
    }
}

/// `base` after `steps` random flips, splits, collapses and face removals: ids with holes,
/// rings whose entry edges are no longer the bulk-build ones, boundaries opened by removals.
pub fn edited(base: Mesh, seed: u64, steps: usize) -> Mesh {
    let mut m = base;
    let mut rng = Rng::new(seed);
    for _ in 0..steps {
        let q = rng.below(m.quad_slots()) as u32;
        let e = Edge::of_quad(q);
        if !m.is_edge_alive(e) {
            continue;
        }
        let e = if rng.below(2) == 0 { e } else { e.sym() };
        let _ = match rng.below(10) {
            0..=3 => m.flip(e).map(|_| ()),
            4..=6 => m.split(e, 0.5).map(|_| ()),
            7..=8 => m.collapse(e, 0.5).map(|_| ()),
            _ => {
                let f = Face::new(rng.below(m.face_slots()) as u32);
                m.remove_face(f)
            }
        };
    }
    m.check().unwrap();
    m
}

/// Named test meshes without holes: closed and open shapes, and edited ones compacted.
pub fn meshes() -> Vec<(&'static str, Mesh)> {
    let mut out = vec![
        ("tetrahedron", build(shapes::tetrahedron())),
        ("octahedron", build(shapes::octahedron())),
        ("icosahedron", build(shapes::icosahedron())),
        ("grid3", build(shapes::icosahedron_grid(3))),
        ("disk", build(shapes::disk(7))),
        ("strip", build(shapes::strip(9))),
    ];
    for seed in 1..=3 {
        let mut m = edited(build(shapes::icosahedron_grid(4)), seed, 300);
        m.compact();
        out.push(("edited grid", m));
    }
    let mut m = edited(build(shapes::disk(12)), 9, 40);
    m.compact();
    out.push(("edited disk", m));
    out
}

/// Every face as its corners rotated to start at the smallest, sorted: equal for two meshes
/// with the same triangles whatever their face ids and entry edges.
pub fn triangle_set(m: &Mesh, vertex_map: impl Fn(Vertex) -> u32) -> Vec<[u32; 3]> {
    let mut out: Vec<[u32; 3]> = m
        .faces()
        .map(|f| {
            let t = m.face_vertices(f).map(&vertex_map);
            let k = (0..3).min_by_key(|&k| t[k]).unwrap();
            [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
        })
        .collect();
    out.sort_unstable();
    out
}
