//! The one error type of the surface stages.

use thiserror::Error;

/// Why a surface stage refused its input. Every stage checks everything before it writes, so
/// an error leaves the caller's data unchanged.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum SurfaceError {
    /// A per-vertex slice is not one entry per vertex slot.
    #[error("{what}: expected {expected} values (one per vertex slot), got {got}")]
    LengthMismatch {
        /// Which input.
        what: &'static str,
        /// The number of vertex slots.
        expected: usize,
        /// The slice's length.
        got: usize,
    },
    /// A live vertex has a NaN or infinite value (or a position at the centre of a sphere).
    #[error("{what}: vertex {vertex} has a non-finite or degenerate value")]
    NonFinite {
        /// Which input.
        what: &'static str,
        /// The vertex index.
        vertex: u32,
    },
    /// A parameter is outside its documented range.
    #[error("{name}: {reason}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What is expected of it.
        reason: &'static str,
    },
    /// The mesh has no live vertex, or more neighbour entries than 32-bit ids can address.
    #[error("mesh: {0}")]
    BadMesh(&'static str),
    /// A world layer could not be read or written.
    #[error("layer {name}: {reason}")]
    Layer {
        /// The layer's name.
        name: String,
        /// The world's complaint.
        reason: String,
    },
}

/// Checks that `values` has one finite entry per slot on every live cell.
pub(crate) fn check_values<T: Copy + Into<f64>>(
    what: &'static str,
    live: &[bool],
    values: &[T],
) -> Result<(), SurfaceError> {
    if values.len() != live.len() {
        return Err(SurfaceError::LengthMismatch {
            what,
            expected: live.len(),
            got: values.len(),
        });
    }
    match (0..values.len()).find(|&i| live[i] && !values[i].into().is_finite()) {
        Some(i) => Err(SurfaceError::NonFinite {
            what,
            vertex: i as u32,
        }),
        None => Ok(()),
    }
}

/// A parameter check: `ok` or the error naming it.
pub(crate) fn param(
    ok: bool,
    name: &'static str,
    reason: &'static str,
) -> Result<(), SurfaceError> {
    if ok {
        Ok(())
    } else {
        Err(SurfaceError::InvalidParameter { name, reason })
    }
}
