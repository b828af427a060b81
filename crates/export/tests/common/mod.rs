//! Test meshes with positions: the sphere crate's icospheres, one with a hole, and regions.
#![allow(dead_code)]

use glam::Vec3;
use quadedge::Mesh;

/// Triangles and unit positions of an icosphere subdivided `level` times
/// (`10 * 4^level + 2` vertices), counter-clockwise from outside: the sphere crate's.
pub fn icosphere_data(level: u32) -> (Vec<[u32; 3]>, Vec<Vec3>) {
    let (pos, tris) = sphere::icosphere_triangles(level, 1.0).unwrap();
    (tris, pos.iter().map(|p| p.as_vec3()).collect())
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

/// A Fibonacci sphere of `n` points (poles on ±Y), `f32` positions.
pub fn fibonacci(n: usize) -> (Mesh, Vec<Vec3>) {
    let (mesh, pos) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).unwrap();
    (mesh, pos.iter().map(|p| p.as_vec3()).collect())
}

/// The mesh in sweep order (same vertex ids) and its frozen copy, to check that exports are
/// the same for both implementations of `quadedge::Topology`.
pub fn with_frozen(mut mesh: Mesh) -> (Mesh, quadedge::FrozenMesh) {
    let identity: Vec<u32> = (0..mesh.vertex_count() as u32).collect();
    mesh.reorder_vertices(&identity).unwrap();
    let frozen = quadedge::FrozenMesh::freeze(&mesh).unwrap();
    (mesh, frozen)
}
