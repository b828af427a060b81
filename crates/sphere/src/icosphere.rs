//! Subdivided icosahedron.

use crate::SphereError;
use glam::DVec3;
use quadedge::Mesh;
use std::collections::HashMap;

/// An icosahedron whose faces are each cut into four `subdivisions` times, with all vertices
/// pushed onto the sphere of `radius`: `10 · 4^s + 2` vertices, `20 · 4^s` faces,
/// counter-clockwise seen from outside.
///
/// The most uniform of the classic sphere meshes, but with only these vertex counts;
/// [`crate::fibonacci_sphere`] takes any count. The faces are exactly what subdivision makes,
/// which is Delaunay up to rounding of co-circular quads.
///
/// ```
/// let (mesh, pos) = sphere::icosphere(2, 1.0).unwrap();
/// assert_eq!((mesh.vertex_count(), mesh.face_count()), (162, 320));
/// assert_eq!(mesh.euler_characteristic(), 2);
/// assert!(pos.iter().all(|p| (p.length() - 1.0).abs() < 1e-15));
/// ```
pub fn icosphere(subdivisions: u32, radius: f64) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    let (positions, tris) = icosphere_triangles(subdivisions, radius)?;
    let mesh = Mesh::from_triangles(positions.len(), &tris)?;
    Ok((mesh, positions))
}

/// [`icosphere`] as positions and a triangle index buffer.
pub fn icosphere_triangles(
    subdivisions: u32,
    radius: f64,
) -> Result<(Vec<DVec3>, Vec<[u32; 3]>), SphereError> {
    if !(radius.is_finite() && radius > 0.0) {
        return Err(SphereError::InvalidRadius(radius));
    }
    if subdivisions > 12 {
        // 10 · 4^13 + 2 vertices exceed the mesh's 31-bit edge ids.
        return Err(SphereError::TooManySubdivisions(subdivisions));
    }
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut pos: Vec<DVec3> = [
        (-1.0, phi, 0.0),
        (1.0, phi, 0.0),
        (-1.0, -phi, 0.0),
        (1.0, -phi, 0.0),
        (0.0, -1.0, phi),
        (0.0, 1.0, phi),
        (0.0, -1.0, -phi),
        (0.0, 1.0, -phi),
        (phi, 0.0, -1.0),
        (phi, 0.0, 1.0),
        (-phi, 0.0, -1.0),
        (-phi, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| DVec3::new(x, y, z).normalize())
    .collect();
    // Same corner numbering as quadedge's icosahedron, so its face list applies.
    let (_, mut tris) = quadedge::shapes::icosahedron();
    for _ in 0..subdivisions {
        let mut mid: HashMap<(u32, u32), u32> = HashMap::with_capacity(tris.len() * 3 / 2);
        let mut midpoint = |a: u32, b: u32, pos: &mut Vec<DVec3>| -> u32 {
            let key = (a.min(b), a.max(b));
            *mid.entry(key).or_insert_with(|| {
                pos.push((pos[a as usize] + pos[b as usize]).normalize());
                pos.len() as u32 - 1
            })
        };
        let mut next = Vec::with_capacity(tris.len() * 4);
        for &[a, b, c] in &tris {
            let ab = midpoint(a, b, &mut pos);
            let bc = midpoint(b, c, &mut pos);
            let ca = midpoint(c, a, &mut pos);
            next.extend_from_slice(&[[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        tris = next;
    }
    for p in &mut pos {
        *p *= radius;
    }
    Ok((pos, tris))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_orientation_and_validity() {
        for s in 0..4 {
            let (mesh, pos) = icosphere(s, 3.0).unwrap();
            let nv = 10 * 4usize.pow(s) + 2;
            assert_eq!(mesh.vertex_count(), nv);
            assert_eq!(mesh.face_count(), 2 * nv - 4);
            mesh.check().unwrap();
            for f in mesh.faces() {
                let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
                assert!((b - a).cross(c - a).dot(a) > 0.0, "face {f:?} is clockwise");
            }
        }
        assert!(icosphere(13, 1.0).is_err());
        assert!(icosphere(1, -1.0).is_err());
    }
}
