//! Test meshes with positions: icospheres by midpoint subdivision.
#![allow(dead_code)]

use glam::Vec3;
use quadedge::Mesh;
use std::collections::HashMap;

/// The 12 corners matching `quadedge::shapes::icosahedron()`'s indices.
pub fn icosahedron_positions() -> Vec<Vec3> {
    let t = (1.0 + 5f32.sqrt()) / 2.0;
    [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect()
}

/// Triangles and unit positions of an icosphere subdivided `level` times
/// (`10 * 4^level + 2` vertices), counter-clockwise from outside.
pub fn icosphere_data(level: u32) -> (Vec<[u32; 3]>, Vec<Vec3>) {
    let mut pos = icosahedron_positions();
    let (_, mut tris) = quadedge::shapes::icosahedron();
    for _ in 0..level {
        let mut mid: HashMap<(u32, u32), u32> = HashMap::new();
        let mut next = Vec::with_capacity(tris.len() * 4);
        for &[a, b, c] in &tris {
            let mut m = |u: u32, w: u32| {
                *mid.entry((u.min(w), u.max(w))).or_insert_with(|| {
                    pos.push((pos[u as usize] + pos[w as usize]).normalize());
                    pos.len() as u32 - 1
                })
            };
            let (ab, bc, ca) = (m(a, b), m(b, c), m(c, a));
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        tris = next;
    }
    for t in &tris {
        let [a, b, c] = t.map(|i| pos[i as usize]);
        assert!((b - a).cross(c - a).dot(a + b + c) > 0.0, "winding");
    }
    (tris, pos)
}

pub fn icosphere(level: u32) -> (Mesh, Vec<Vec3>) {
    let (tris, pos) = icosphere_data(level);
    (Mesh::from_triangles(pos.len(), &tris).unwrap(), pos)
}

/// An icosphere whose vertex slot 0 is dead (removed), to exercise compaction.
pub fn icosphere_with_hole(level: u32) -> (Mesh, Vec<Vec3>) {
    let (tris, pos) = icosphere_data(level);
    let shifted: Vec<[u32; 3]> = tris.iter().map(|t| t.map(|i| i + 1)).collect();
    let mut mesh = Mesh::from_triangles(pos.len() + 1, &shifted).unwrap();
    mesh.remove_vertex(quadedge::Vertex::new(0)).unwrap();
    let mut p = vec![Vec3::ZERO];
    p.extend(pos);
    (mesh, p)
}

/// Region = nearest of a few fixed "plate" centres; colour per region with a little
/// per-vertex variation so individual cells show.
pub fn regions_and_colors(pos: &[Vec3]) -> (Vec<u32>, Vec<[u8; 3]>) {
    let plates = [
        Vec3::new(1.0, 0.2, 0.3),
        Vec3::new(-0.3, 1.0, 0.1),
        Vec3::new(0.2, -0.6, 0.9),
        Vec3::new(-1.0, -0.4, -0.2),
        Vec3::new(0.1, 0.3, -1.0),
        Vec3::new(0.7, -0.9, -0.3),
        Vec3::new(-0.5, 0.4, 0.9),
    ]
    .map(|p| p.normalize());
    let palette: [[i32; 3]; 7] = [
        [70, 130, 180],
        [200, 170, 90],
        [90, 170, 90],
        [180, 90, 90],
        [150, 110, 190],
        [220, 140, 60],
        [90, 190, 190],
    ];
    let mut regions = Vec::with_capacity(pos.len());
    let mut colors = Vec::with_capacity(pos.len());
    for (i, p) in pos.iter().enumerate() {
        let p = p.normalize_or_zero();
        let r = (0..plates.len())
            .max_by(|&a, &b| plates[a].dot(p).total_cmp(&plates[b].dot(p)))
            .unwrap();
        regions.push(r as u32);
        let jitter = ((i as u32).wrapping_mul(2654435761) >> 27) as i32 - 16;
        colors.push(palette[r].map(|c| (c + jitter).clamp(0, 255) as u8));
    }
    (regions, colors)
}
