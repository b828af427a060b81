//! The one error type of the crate.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why an export or a render failed.
///
/// Every variant that concerns a file names the path, so that a message shown to a user says
/// which file could not be written and why.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExportError {
    /// Creating, writing or renaming the file at `path` failed.
    Io {
        /// The file (or temporary sibling) that could not be written.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// Writing to a caller-supplied writer failed (the `*_to` functions).
    Writer(io::Error),
    /// A component of the output path exists but is not a directory (e.g. a regular file).
    NotADirectory {
        /// The path component that is not a directory.
        path: PathBuf,
    },
    /// The output path names an existing directory.
    IsADirectory {
        /// The offending path.
        path: PathBuf,
    },
    /// The mesh has no live face, so there is nothing to export or render.
    EmptyMesh,
    /// A per-vertex array does not have one entry per vertex slot of the mesh.
    LengthMismatch {
        /// Which array (`"positions"`, `"colors"`, `"regions"`, `"rgb"`).
        what: &'static str,
        /// The length required ([`quadedge::Mesh::vertex_slots`] for vertex data).
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A live vertex has a NaN or infinite coordinate.
    NonFinitePosition {
        /// The vertex id.
        vertex: quadedge::Vertex,
    },
    /// The output would not fit the format's 32-bit sizes (glTF, PLY counts).
    TooLarge {
        /// What overflowed.
        what: &'static str,
    },
    /// A rendering or export option is out of its valid range.
    InvalidOption {
        /// The option's name.
        name: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A live vertex has a NaN or infinite value in a per-vertex scalar array.
    NonFiniteValue {
        /// Which array (`"values"`, `"scalar"`, `"hillshade"`).
        what: &'static str,
        /// The vertex id.
        vertex: quadedge::Vertex,
    },
    /// The operation needs a closed mesh (every edge between two faces), e.g. a whole sphere
    /// for an equirectangular heightmap.
    OpenMesh,
    /// An animation frame differs in size from the first frame.
    FrameSizeMismatch {
        /// The index of the offending frame.
        frame: usize,
        /// The first frame's `(width, height)`.
        expected: (u32, u32),
        /// The offending frame's `(width, height)`.
        got: (u32, u32),
    },
    /// PNG encoding failed for a reason other than I/O.
    Png(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "cannot write {}: {source}", path.display()),
            Self::Writer(e) => write!(f, "write failed: {e}"),
            Self::NotADirectory { path } => {
                write!(f, "{} exists but is not a directory", path.display())
            }
            Self::IsADirectory { path } => {
                write!(f, "{} is a directory, expected a file path", path.display())
            }
            Self::EmptyMesh => f.write_str("the mesh has no faces"),
            Self::LengthMismatch {
                what,
                expected,
                got,
            } => write!(
                f,
                "{what} has {got} entries, expected {expected} (one per vertex slot)"
            ),
            Self::NonFinitePosition { vertex } => {
                write!(f, "vertex {vertex} has a non-finite position")
            }
            Self::TooLarge { what } => write!(f, "{what} is too large for the output format"),
            Self::InvalidOption { name, reason } => write!(f, "invalid option {name}: {reason}"),
            Self::NonFiniteValue { what, vertex } => {
                write!(f, "{what} of vertex {vertex} is not finite")
            }
            Self::OpenMesh => f.write_str("the mesh has a boundary; a closed mesh is needed"),
            Self::FrameSizeMismatch {
                frame,
                expected,
                got,
            } => write!(
                f,
                "frame {frame} is {}x{}, expected {}x{} like the first frame",
                got.0, got.1, expected.0, expected.1
            ),
            Self::Png(m) => write!(f, "PNG encoding failed: {m}"),
        }
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Writer(e) => Some(e),
            _ => None,
        }
    }
}
