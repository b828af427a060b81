//! Wavefront OBJ: the lowest common denominator every 3D tool opens.
//!
//! Text, so large meshes give large files (about 40 bytes per vertex plus 20 per face); prefer
//! [`ply`](crate::ply) or [`gltf`](crate::gltf) for big planets.

use crate::ExportError;
use crate::common::{Compact, check_inputs, w_err, write_file};
use glam::Vec3;
use quadedge::Topology;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `mesh` as an OBJ file: one `v x y z` line per live vertex, one `f a b c` line per
/// face (1-based, counter-clockwise seen from outside, as the mesh winds them).
///
/// `positions` is indexed by vertex id and must have [`Topology::vertex_slots`] entries; dead slots
/// are skipped and the live vertices renumbered densely, since OBJ indices cannot skip.
/// The file is written to a temporary sibling first and renamed into place, so a failure
/// leaves no half-written file.
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap();
/// # let dir = tmp.path();
/// use glam::Vec3;
/// let (n, tris) = quadedge::shapes::tetrahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::new(1., 1., 1.), Vec3::new(1., -1., -1.), Vec3::new(-1., 1., -1.), Vec3::new(-1., -1., 1.)];
/// export::obj::write_obj(dir.join("tetra.obj"), &mesh, &pos)?;
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn write_obj(
    path: impl AsRef<Path>,
    mesh: &impl Topology,
    positions: &[Vec3],
) -> Result<(), ExportError> {
    check_inputs(mesh, positions, None)?;
    write_file(path.as_ref(), |w| write_obj_to(w, mesh, positions))
}

/// Writes OBJ text to any writer (buffered internally). See [`write_obj`].
pub fn write_obj_to<W: Write>(
    writer: W,
    mesh: &impl Topology,
    positions: &[Vec3],
) -> Result<(), ExportError> {
    check_inputs(mesh, positions, None)?;
    let compact = Compact::new(mesh)?;
    let mut w = BufWriter::with_capacity(1 << 16, writer);
    writeln!(
        w,
        "# quadworld export: {} vertices, {} faces",
        compact.live.len(),
        mesh.face_count()
    )
    .map_err(w_err)?;
    for v in &compact.live {
        let p = positions[v.index()];
        writeln!(w, "v {} {} {}", p.x, p.y, p.z).map_err(w_err)?;
    }
    for f in mesh.faces() {
        let [a, b, c] = compact.face(mesh, f);
        writeln!(w, "f {} {} {}", a + 1, b + 1, c + 1).map_err(w_err)?;
    }
    w.flush().map_err(w_err)
}
