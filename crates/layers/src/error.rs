//! Errors of typed layers.

use crate::kind::{ElementId, ElementKind};
use core::fmt;

/// What went wrong with a layer.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum LayerError {
    /// [`Layer::validate`](crate::Layer::validate) found a value outside the layer's range
    /// (the first one in id order).
    OutOfRange {
        /// The layer's name.
        layer: String,
        /// The element holding the value.
        element: ElementId,
        /// The value, `Debug`-formatted.
        value: String,
        /// The lower bound, `Debug`-formatted (`None` when unbounded).
        min: Option<String>,
        /// The upper bound, `Debug`-formatted (`None` when unbounded).
        max: Option<String>,
    },
    /// The layer's range is empty: `min > max`, or a bound that compares with nothing (`NaN`).
    BadRange {
        /// The layer's name.
        layer: String,
        /// The lower bound, `Debug`-formatted.
        min: Option<String>,
        /// The upper bound, `Debug`-formatted.
        max: Option<String>,
    },
    /// A type-erased layer is not of the kind asked for (or serialized data names another).
    WrongKind {
        /// The layer's name.
        layer: String,
        /// The kind asked for.
        expected: ElementKind,
        /// The kind it has.
        found: ElementKind,
    },
    /// A type-erased layer does not hold the value type asked for.
    WrongType {
        /// The layer's name.
        layer: String,
        /// [`LayerValue::TYPE_KEY`](crate::LayerValue::TYPE_KEY) asked for.
        expected: &'static str,
        /// [`LayerValue::TYPE_KEY`](crate::LayerValue::TYPE_KEY) it holds.
        found: &'static str,
    },
    /// [`Layer::try_new`](crate::Layer::try_new) could not allocate `len` values (an absurd
    /// length, or not enough memory); nothing was allocated.
    OutOfMemory {
        /// The layer's name.
        layer: String,
        /// The number of values asked for.
        len: usize,
    },
}

impl fmt::Display for LayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerError::OutOfRange {
                layer,
                element,
                value,
                min,
                max,
            } => write!(
                f,
                "layer `{layer}`: value {value} of {element} is outside {}..={}",
                min.as_deref().unwrap_or(""),
                max.as_deref().unwrap_or("")
            ),
            LayerError::WrongKind {
                layer,
                expected,
                found,
            } => write!(
                f,
                "layer `{layer}` is a {found} layer, not a {expected} layer"
            ),
            LayerError::WrongType {
                layer,
                expected,
                found,
            } => write!(f, "layer `{layer}` holds `{found}`, not `{expected}`"),
            LayerError::OutOfMemory { layer, len } => {
                write!(f, "layer `{layer}`: cannot allocate {len} values")
            }
            LayerError::BadRange { layer, min, max } => write!(
                f,
                "layer `{layer}`: the range {}..={} is empty",
                min.as_deref().unwrap_or(""),
                max.as_deref().unwrap_or("")
            ),
        }
    }
}

impl std::error::Error for LayerError {}
