//! The one error type of planar map construction.

use std::fmt;

/// Why a planar map could not be built or checked. Every operation that returns it left its
/// inputs unchanged.
#[derive(Clone, Debug, PartialEq)]
pub enum PlaneError {
    /// A size or spacing is not a positive finite number (or lies outside the range the exact
    /// predicates accept, about `1e-30 ..= 1e30`).
    InvalidArgument {
        /// Which argument (`"width"`, `"height"`, `"spacing"`).
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// The rectangle would hold more points than the limit.
    TooManyPoints {
        /// The estimated point count.
        estimated: f64,
        /// The limit ([`crate::MAX_POINTS`]).
        limit: usize,
    },
    /// The memory for the requested size could not be allocated (asked for before any work).
    OutOfMemory {
        /// Bytes requested.
        bytes: usize,
    },
    /// The point set is not usable: fewer than three points, all collinear, or a coordinate
    /// that is not finite or outside the range the exact predicates accept.
    BadPoints(&'static str),
    /// Two input points are equal (indices into the input).
    Duplicate {
        /// The point inserted first.
        first: usize,
        /// The later point equal to it.
        second: usize,
    },
    /// The mesh refused an operation.
    Mesh(quadedge::MeshError),
    /// A mesh or positions array that is not a ghost-closed planar triangulation.
    NotPlanarMap(&'static str),
    /// A violation of the planar Delaunay property of the map's real part (after a repair
    /// this means the input was degenerate beyond what flips can fix).
    NotDelaunay(delaunay::Violation),
}

impl fmt::Display for PlaneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidArgument { name, value } => write!(
                f,
                "{name} must be a positive finite number between 1e-30 and 1e30, got {value}"
            ),
            Self::TooManyPoints { estimated, limit } => write!(
                f,
                "about {estimated:.0} points requested, more than the limit of {limit}"
            ),
            Self::OutOfMemory { bytes } => write!(f, "cannot allocate {bytes} bytes"),
            Self::BadPoints(why) => write!(f, "unusable points: {why}"),
            Self::Duplicate { first, second } => {
                write!(f, "points {first} and {second} are equal")
            }
            Self::Mesh(e) => write!(f, "mesh error: {e}"),
            Self::NotPlanarMap(why) => write!(f, "not a ghost-closed planar map: {why}"),
            Self::NotDelaunay(v) => write!(f, "not planar Delaunay: {v:?}"),
        }
    }
}

impl std::error::Error for PlaneError {}

impl From<quadedge::internals::OutOfMemory> for PlaneError {
    fn from(e: quadedge::internals::OutOfMemory) -> Self {
        Self::OutOfMemory { bytes: e.bytes }
    }
}

impl From<quadedge::MeshError> for PlaneError {
    fn from(e: quadedge::MeshError) -> Self {
        Self::Mesh(e)
    }
}
