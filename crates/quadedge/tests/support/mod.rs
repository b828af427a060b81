//! Meshes and canonical forms shared by the reorder and frozen-mesh tests.
#![allow(dead_code)]

use quadedge::{Mesh, Vertex, shapes};
use testkit::Rng;
use testkit::edits::{START_MESHES, apply, pick_op, start_mesh};

pub fn build(shape: (usize, Vec<[u32; 3]>)) -> Mesh {
    let (n, t) = shape;
    let m = Mesh::from_triangles(n, &t).unwrap();
    m.check().unwrap();
    m
}

/// A uniformly random permutation of `0..n`.
pub fn permutation(rng: &mut Rng, n: usize) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    rng.shuffle(&mut p);
    p
}

/// `base` after `steps` edits from the shared adversarial generator (flips, splits, face
/// splits, collapses, dissolves, face removals and additions, pillows, bad ids): ids with
/// holes, entry edges that are no longer the bulk-build ones, boundaries opened by removals.
pub fn edited(base: Mesh, seed: u64, steps: usize) -> Mesh {
    let mut m = base;
    let mut rng = Rng::new(seed);
    for _ in 0..steps {
        let op = pick_op(&m, &mut rng);
        let _ = apply(&mut m, op);
    }
    m.check().unwrap();
    m
}

/// Named test meshes without holes: closed and open shapes, the shared start meshes (pillow,
/// bowtie, bare vertices, ...), and edited ones compacted.
pub fn meshes() -> Vec<(String, Mesh)> {
    let mut out: Vec<(String, Mesh)> = vec![
        ("grid3".into(), build(shapes::icosahedron_grid(3))),
        ("disk".into(), build(shapes::disk(7))),
        ("strip".into(), build(shapes::strip(9))),
    ];
    for k in 0..START_MESHES {
        out.push((format!("start mesh {k}"), start_mesh(k)));
        let mut m = edited(start_mesh(k), 40 + k as u64, 200);
        m.compact();
        out.push((format!("edited start mesh {k}"), m));
    }
    for seed in 1..=3 {
        let mut m = edited(build(shapes::icosahedron_grid(4)), seed, 300);
        m.compact();
        out.push((format!("edited grid {seed}"), m));
    }
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
