//! Typed errors of the world.

use core::fmt;
use layers::{ElementId, ElementKind, LayerError};

/// What went wrong in a world operation or while loading a file.
#[derive(Debug)]
#[non_exhaustive]
pub enum WorldError {
    /// A layer of that name exists with another value type or element kind.
    LayerMismatch {
        /// The layer's name.
        name: String,
        /// Kind and type stored in the world.
        stored: (ElementKind, String),
        /// Kind and type asked for.
        requested: (ElementKind, String),
    },
    /// A layer of that name exists with other settings (initial value, range, validation or
    /// policies): a layer keeps the info it was created with.
    LayerSettingsDiffer(String),
    /// Two infos of one `lock_layers` call name the same layer.
    SameLayerTwice(String),
    /// No layer of that name (a [`Transaction`](crate::Transaction) does not create layers on
    /// access).
    NoSuchLayer(String),
    /// The layer (or `"mesh"`) is borrowed in a way that conflicts with this access.
    Borrowed(String),
    /// [`MeshReplacement::KeepVertexData`](crate::MeshReplacement::KeepVertexData) with a mesh
    /// of another vertex id space.
    VertexSlotsDiffer {
        /// Vertex slots of the current mesh.
        old: usize,
        /// Vertex slots of the new mesh.
        new: usize,
    },
    /// A layer or dictionary name is too long for the file format.
    NameTooLong {
        /// Its length in bytes.
        bytes: usize,
        /// The longest the format carries.
        max: usize,
    },
    /// A dictionary nests lists and dictionaries deeper than the format allows.
    TooDeep {
        /// The dictionary's name.
        dict: String,
        /// Its depth.
        depth: usize,
        /// The deepest allowed ([`layers::MAX_DEPTH`]).
        max: usize,
    },
    /// A component could not be encoded.
    Unsaveable {
        /// Which section.
        section: String,
        /// Why.
        reason: String,
    },
    /// An element id past the end of a layer ([`World::set_layer_values`](crate::World::set_layer_values)).
    PastTheEnd {
        /// The layer's name.
        layer: String,
        /// The first such element.
        element: ElementId,
        /// The layer's length.
        len: usize,
    },
    /// A layer failed validation.
    Invalid(LayerError),
    /// Reading or writing a file failed.
    Io(std::io::Error),
    /// The file does not start with the world magic number.
    BadMagic,
    /// The file was written by an unknown format version.
    UnsupportedVersion(u32),
    /// The file ends in the middle of a section.
    Truncated,
    /// A section's checksum does not match: the file was damaged.
    Checksum {
        /// Which section.
        section: String,
    },
    /// A section decoded to something impossible.
    Corrupt {
        /// Which section.
        section: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::LayerMismatch {
                name,
                stored,
                requested,
            } => write!(
                f,
                "layer `{name}` is a {} layer of `{}`, asked for a {} layer of `{}`",
                stored.0, stored.1, requested.0, requested.1
            ),
            WorldError::LayerSettingsDiffer(n) => {
                write!(f, "layer `{n}` exists with other settings")
            }
            WorldError::SameLayerTwice(n) => write!(f, "layer `{n}` requested twice in one lock"),
            WorldError::NoSuchLayer(n) => write!(f, "no layer `{n}`"),
            WorldError::Borrowed(n) => write!(f, "`{n}` is borrowed already"),
            WorldError::VertexSlotsDiffer { old, new } => write!(
                f,
                "the new mesh has {new} vertex slots, not {old}: vertex data cannot be kept"
            ),
            WorldError::NameTooLong { bytes, max } => {
                write!(f, "a name of {bytes} bytes is longer than {max}")
            }
            WorldError::TooDeep { dict, depth, max } => {
                write!(
                    f,
                    "dictionary `{dict}` nests {depth} levels deep, more than {max}"
                )
            }
            WorldError::Unsaveable { section, reason } => {
                write!(f, "cannot save `{section}`: {reason}")
            }
            WorldError::PastTheEnd {
                layer,
                element,
                len,
            } => write!(
                f,
                "{element:?} is past the end of layer `{layer}` ({len} entries)"
            ),
            WorldError::Invalid(e) => write!(f, "{e}"),
            WorldError::Io(e) => write!(f, "i/o error: {e}"),
            WorldError::BadMagic => write!(f, "not a world file (bad magic number)"),
            WorldError::UnsupportedVersion(v) => write!(f, "unsupported world file version {v}"),
            WorldError::Truncated => write!(f, "world file is truncated"),
            WorldError::Checksum { section } => {
                write!(f, "checksum mismatch in section `{section}`")
            }
            WorldError::Corrupt { section, reason } => {
                write!(f, "corrupt section `{section}`: {reason}")
            }
        }
    }
}

impl std::error::Error for WorldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WorldError::Io(e) => Some(e),
            WorldError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for WorldError {
    fn from(e: std::io::Error) -> Self {
        WorldError::Io(e)
    }
}

impl From<LayerError> for WorldError {
    fn from(e: LayerError) -> Self {
        WorldError::Invalid(e)
    }
}
