//! Binary PLY: compact, exact `f32` positions (or `f64` ones, for checkers that need every
//! bit), per-vertex colours; opens in MeshLab, Blender and CloudCompare.

use crate::ExportError;
use crate::common::{Compact, Finite, check_inputs, put, write_file};
use glam::{DVec3, Vec3};
use quadedge::Topology;
use std::io::Write;
use std::path::Path;

/// The PLY header this crate writes, exposed so that callers (and tests) can predict the file
/// size: `header.len() + vertices * (12 + 3 if coloured) + faces * 13`.
pub fn ply_header(vertices: usize, faces: usize, with_colors: bool) -> String {
    header::<Vec3>(vertices, faces, with_colors)
}

/// A position type PLY can store: `f32` (`float`) or `f64` (`double`) coordinates.
#[allow(private_bounds)]
pub trait PlyPosition: Copy + Finite {
    /// The PLY scalar type of a coordinate.
    const PLY_TYPE: &'static str;
    /// Appends the three coordinates, little-endian.
    fn put(&self, buf: &mut Vec<u8>);
}

impl PlyPosition for Vec3 {
    const PLY_TYPE: &'static str = "float";
    fn put(&self, buf: &mut Vec<u8>) {
        for c in self.to_array() {
            buf.extend_from_slice(&c.to_le_bytes());
        }
    }
}

impl PlyPosition for DVec3 {
    const PLY_TYPE: &'static str = "double";
    fn put(&self, buf: &mut Vec<u8>) {
        for c in self.to_array() {
            buf.extend_from_slice(&c.to_le_bytes());
        }
    }
}

/// The header for positions of type `P`.
fn header<P: PlyPosition>(vertices: usize, faces: usize, with_colors: bool) -> String {
    let mut h = String::from("ply\nformat binary_little_endian 1.0\ncomment quadworld export\n");
    h += &format!("element vertex {vertices}\n");
    let t = P::PLY_TYPE;
    h += &format!("property {t} x\nproperty {t} y\nproperty {t} z\n");
    if with_colors {
        h += "property uchar red\nproperty uchar green\nproperty uchar blue\n";
    }
    h += &format!("element face {faces}\n");
    h += "property list uchar int vertex_indices\nend_header\n";
    h
}

/// Writes `mesh` as binary little-endian PLY: `float x y z` (`double` for `DVec3` positions,
/// which keep every bit of the world's positions) (+ `uchar red green blue` when
/// `colors` is given) per live vertex, and `list uchar int vertex_indices` per face,
/// counter-clockwise from outside.
///
/// `positions` and `colors` are indexed by vertex id ([`Topology::vertex_slots`] entries); live
/// vertices are renumbered densely. Written via a temporary file and a rename.
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap();
/// # let dir = tmp.path();
/// use glam::{DVec3, Vec3};
/// let (n, tris) = quadedge::shapes::tetrahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::new(1., 1., 1.), Vec3::new(1., -1., -1.), Vec3::new(-1., 1., -1.), Vec3::new(-1., -1., 1.)];
/// let colors = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]];
/// export::ply::write_ply(dir.join("tetra.ply"), &mesh, &pos, Some(&colors))?;
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn write_ply<P: PlyPosition>(
    path: impl AsRef<Path>,
    mesh: &impl Topology,
    positions: &[P],
    colors: Option<&[[u8; 3]]>,
) -> Result<(), ExportError> {
    check_inputs(mesh, positions, colors)?;
    write_file(path.as_ref(), |w| write_ply_to(w, mesh, positions, colors))
}

/// Writes binary PLY to any writer. See [`write_ply`].
pub fn write_ply_to<W: Write, P: PlyPosition>(
    mut writer: W,
    mesh: &impl Topology,
    positions: &[P],
    colors: Option<&[[u8; 3]]>,
) -> Result<(), ExportError> {
    check_inputs(mesh, positions, colors)?;
    let compact = Compact::new(mesh)?;
    let header = header::<P>(compact.live.len(), mesh.face_count(), colors.is_some());
    put(&mut writer, header.as_bytes())?;

    // Encode in blocks: one write per block keeps unbuffered writers fast too.
    let stride = 3 * size_of::<P>() + if colors.is_some() { 3 } else { 0 };
    let mut buf = Vec::with_capacity(4096 * stride);
    for chunk in compact.live.chunks(4096) {
        buf.clear();
        for v in chunk {
            positions[v.index()].put(&mut buf);
            if let Some(colors) = colors {
                buf.extend_from_slice(&colors[v.index()]);
            }
        }
        put(&mut writer, &buf)?;
    }
    buf.clear();
    for f in mesh.faces() {
        buf.push(3);
        for i in compact.face(mesh, f) {
            buf.extend_from_slice(&(i as i32).to_le_bytes());
        }
        if buf.len() >= 1 << 16 {
            put(&mut writer, &buf)?;
            buf.clear();
        }
    }
    put(&mut writer, &buf)?;
    writer.flush().map_err(crate::common::w_err)
}
