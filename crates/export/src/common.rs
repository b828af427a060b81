//! Input validation, vertex compaction and safe file creation shared by the exporters.

use crate::ExportError;
use glam::Vec3;
use quadedge::{Topology, Vertex};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Checks that a per-vertex array has one entry per vertex slot.
pub(crate) fn check_len(
    what: &'static str,
    mesh: &impl Topology,
    got: usize,
) -> Result<(), ExportError> {
    let expected = mesh.vertex_slots();
    if got == expected {
        Ok(())
    } else {
        Err(ExportError::LengthMismatch {
            what,
            expected,
            got,
        })
    }
}

/// Validates the common inputs: a mesh with faces, positions (and colours) per vertex slot,
/// finite positions on live vertices (NaN would end up in files and in glTF bounds).
/// A position whose coordinates can be checked for finiteness (`f32` or `f64` vectors).
pub(crate) trait Finite {
    fn finite(&self) -> bool;
}

impl Finite for Vec3 {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

impl Finite for glam::DVec3 {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

pub(crate) fn check_inputs<P: Finite>(
    mesh: &impl Topology,
    positions: &[P],
    colors: Option<&[[u8; 3]]>,
) -> Result<(), ExportError> {
    if mesh.face_count() == 0 {
        return Err(ExportError::EmptyMesh);
    }
    check_len("positions", mesh, positions.len())?;
    if let Some(c) = colors {
        check_len("colors", mesh, c.len())?;
    }
    for v in mesh.vertices() {
        if !positions[v.index()].finite() {
            return Err(ExportError::NonFinitePosition { vertex: v });
        }
    }
    Ok(())
}

/// Live vertices renumbered densely, because file formats index vertices `0..n` while a mesh
/// that had elements removed has dead slots.
pub(crate) struct Compact {
    /// Slot → dense index (`u32::MAX` for dead slots).
    pub dense: Vec<u32>,
    /// Dense index → vertex.
    pub live: Vec<Vertex>,
}

impl Compact {
    pub fn new(mesh: &impl Topology) -> Result<Self, ExportError> {
        // PLY stores indices as `int`, so stay within i32 for every format.
        if mesh.vertex_count() >= i32::MAX as usize || mesh.face_count() >= (i32::MAX / 3) as usize
        {
            return Err(ExportError::TooLarge { what: "mesh" });
        }
        let mut dense = vec![u32::MAX; mesh.vertex_slots()];
        let mut live = Vec::with_capacity(mesh.vertex_count());
        for v in mesh.vertices() {
            dense[v.index()] = live.len() as u32;
            live.push(v);
        }
        Ok(Self { dense, live })
    }

    /// The dense corner indices of a face, counter-clockwise from outside.
    #[inline]
    pub fn face(&self, mesh: &impl Topology, f: quadedge::Face) -> [u32; 3] {
        mesh.face_vertices(f).map(|v| self.dense[v.index()])
    }
}

/// Converts double-precision positions (as a world simulation usually keeps them) into the
/// `f32` positions every exporter and the renderer take; file formats and GPUs use `f32`.
///
/// ```
/// use glam::DVec3;
/// let p = export::positions_f32(&[DVec3::new(1.0, 2.0, 3.0)]);
/// assert_eq!(p[0], glam::Vec3::new(1.0, 2.0, 3.0));
/// ```
pub fn positions_f32(positions: &[glam::DVec3]) -> Vec<Vec3> {
    positions.iter().map(|p| p.as_vec3()).collect()
}

/// Checks the path before creating anything, so that the common mistakes give an error that
/// says what is wrong rather than a bare "No such file or directory".
fn check_path(path: &Path) -> Result<(), ExportError> {
    if path.as_os_str().is_empty() {
        return Err(ExportError::Io {
            path: path.to_path_buf(),
            source: io::Error::new(io::ErrorKind::InvalidInput, "empty path"),
        });
    }
    if path.is_dir() {
        return Err(ExportError::IsADirectory {
            path: path.to_path_buf(),
        });
    }
    // The nearest existing ancestor must be a directory; a regular file there means the user
    // put a file name where a directory was meant.
    let mut ancestor = path.parent();
    while let Some(a) = ancestor {
        if a.as_os_str().is_empty() {
            break;
        }
        match fs::metadata(a) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => {
                return Err(ExportError::NotADirectory {
                    path: a.to_path_buf(),
                });
            }
            Err(_) => ancestor = a.parent(),
        }
    }
    Ok(())
}

fn temp_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes a file through a temporary sibling and a rename, so that a failed export never
/// leaves a truncated file behind (nor clobbers a good one from an earlier run).
pub(crate) fn write_file(
    path: &Path,
    body: impl FnOnce(&mut BufWriter<File>) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    check_path(path)?;
    let tmp = temp_sibling(path);
    let io_err = |p: &Path| {
        let p = p.to_path_buf();
        move |source| ExportError::Io { path: p, source }
    };
    // Report the user's path, not the temporary name, when the directory is the problem.
    let file = File::create(&tmp).map_err(io_err(path))?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    let result = body(&mut w)
        .map_err(|e| match e {
            ExportError::Writer(source) => ExportError::Io {
                path: path.to_path_buf(),
                source,
            },
            other => other,
        })
        .and_then(|()| w.flush().map_err(io_err(path)))
        .and_then(|()| fs::rename(&tmp, path).map_err(io_err(path)));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Maps the I/O errors of a caller-supplied writer.
pub(crate) fn w_err(e: io::Error) -> ExportError {
    ExportError::Writer(e)
}

/// `write_all` with the crate's error.
pub(crate) fn put(w: &mut impl Write, bytes: &[u8]) -> Result<(), ExportError> {
    w.write_all(bytes).map_err(w_err)
}
