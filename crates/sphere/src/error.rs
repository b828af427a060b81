//! Typed errors: every way user input can be rejected.

use core::fmt;
use quadedge::MeshError;

/// Why points could not be generated or triangulated.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SphereError {
    /// Fewer than four points: a closed triangulation of the sphere needs at least a tetrahedron.
    TooFewPoints(usize),
    /// More points than the `u32` vertex ids (and the mesh's 31-bit edge ids) can address.
    TooManyPoints(usize),
    /// A coordinate is NaN or infinite.
    NonFinite {
        /// Index of the offending point.
        index: usize,
    },
    /// Two points are exactly equal.
    Duplicate {
        /// The smaller index.
        first: usize,
        /// The larger index.
        second: usize,
    },
    /// All points lie in one plane (on one circle of the sphere): there is no closed hull.
    Coplanar,
    /// The point lies inside or on the convex hull of the points inserted before it, so it cannot
    /// be a vertex of the spherical Delaunay triangulation. Happens for points that are not on a
    /// common sphere, or for near-duplicates closer than the rounding error of their coordinates.
    NotInConvexPosition {
        /// Index of the offending point.
        index: usize,
    },
    /// The radius must be finite and within `1e-100..=1e100` (beyond, the points' coordinates
    /// under- or overflow while they are computed).
    InvalidRadius(f64),
    /// The perturbation must lie within `0.0..1.0`, so that no two perturbed indices collide.
    InvalidPerturbation(f64),
    /// The subdivision level would overflow the vertex id space.
    TooManySubdivisions(u32),
    /// A [`DualCentre::Blend`](crate::dual::DualCentre::Blend) weight outside `0.0..=1.0`.
    InvalidBlend(f64),
    /// Allocating this many bytes failed: the input is too large for this machine's memory.
    OutOfMemory {
        /// The refused request.
        bytes: usize,
    },
    /// The points are so far from unit scale (beyond `1e±60`) that the exact predicates could
    /// over- or underflow, and scaling them by a power of two would round this point's
    /// coordinates (one of them would turn subnormal).
    Unscalable {
        /// Index of the offending point.
        index: usize,
    },
    /// The hull is a tetrahedron thinner than the rounding of the coordinates (no
    /// floating-point point lies strictly inside it) with more points to insert; the points
    /// are coplanar for every practical purpose.
    TooFlat,
    /// All points lie in one closed hemisphere (a cap, one great circle and a point beside it,
    /// a strongly perturbed handful): their hull does not hold the sphere's centre
    /// strictly inside, so it is no triangulation of the sphere (its rim faces turn away from
    /// the centre or pass through it). [`crate::triangulate`] still returns that hull.
    NotEnclosingCentre,
    /// A Delaunay operation refused its input or could not finish.
    Delaunay(delaunay::DelaunayError),
    /// Building the quad-edge mesh failed (should not happen for a valid triangulation).
    Mesh(MeshError),
}

impl fmt::Display for SphereError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SphereError::*;
        match self {
            TooFewPoints(n) => write!(f, "need at least 4 points, got {n}"),
            TooManyPoints(n) => write!(f, "{n} points are too many for u32 vertex ids"),
            NonFinite { index } => write!(f, "point {index} has a NaN or infinite coordinate"),
            Duplicate { first, second } => write!(f, "points {first} and {second} are equal"),
            Coplanar => write!(f, "all points lie in one plane"),
            NotInConvexPosition { index } => write!(
                f,
                "point {index} lies inside the convex hull of the others (not on the sphere, or a near-duplicate)"
            ),
            InvalidRadius(r) => write!(f, "radius {r} is not within 1e-100..=1e100"),
            InvalidPerturbation(p) => write!(f, "perturbation {p} is not within 0.0..1.0"),
            TooManySubdivisions(s) => write!(f, "{s} subdivisions are too many"),
            InvalidBlend(t) => write!(f, "dual centre blend {t} is not within 0.0..=1.0"),
            OutOfMemory { bytes } => write!(f, "could not allocate {bytes} bytes"),
            Unscalable { index } => write!(
                f,
                "point {index} cannot be scaled exactly into the range of the exact predicates"
            ),
            TooFlat => write!(f, "the points' hull is flatter than their rounding"),
            NotEnclosingCentre => write!(
                f,
                "the points lie in one closed hemisphere: their hull does not surround the centre"
            ),
            Delaunay(e) => write!(f, "{e}"),
            Mesh(e) => write!(f, "mesh construction failed: {e}"),
        }
    }
}

impl std::error::Error for SphereError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SphereError::Mesh(e) => Some(e),
            SphereError::Delaunay(e) => Some(e),
            _ => None,
        }
    }
}

impl From<delaunay::DelaunayError> for SphereError {
    fn from(e: delaunay::DelaunayError) -> Self {
        SphereError::Delaunay(e)
    }
}

impl From<quadedge::internals::OutOfMemory> for SphereError {
    fn from(e: quadedge::internals::OutOfMemory) -> Self {
        Self::OutOfMemory { bytes: e.bytes }
    }
}

impl From<MeshError> for SphereError {
    fn from(e: MeshError) -> Self {
        SphereError::Mesh(e)
    }
}
