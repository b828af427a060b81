//! The crate's one error type: every way an operation can refuse its input.

use core::fmt;
use quadedge::{Edge, Face, MeshError, Vertex};

/// Why a Delaunay operation refused, or could not finish.
///
/// Unless a variant says otherwise, a refused operation left the mesh and the positions
/// unchanged (the checks run before the first edit).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum DelaunayError {
    /// The positions do not cover every vertex slot of the mesh.
    PositionsTooShort {
        /// `positions.len()`.
        len: usize,
        /// [`quadedge::Mesh::vertex_slots`].
        needed: usize,
    },
    /// A position (or the query point) is NaN or infinite; `None` names the query point.
    NonFinite(Option<Vertex>),
    /// The vertex id is dead or out of range.
    DeadVertex(Vertex),
    /// The face hint is dead or out of range.
    DeadFace(Face),
    /// The face is not a triangle, or the mesh has a hole where the surface is closed.
    NotTriangulated(Face),
    /// A face is inverted (clockwise on the surface) or flat, which flips cannot repair; see
    /// [`crate::restore`] for repairing folds.
    Inverted(Face),
    /// Flips ended with this edge still not locally Delaunay (its flip would duplicate an edge
    /// or invert a face: the mesh is folded). The mesh is valid but not Delaunay.
    NotDelaunay(Edge),
    /// The flip budget ran out (a folded mesh can cycle). The mesh is valid, not Delaunay.
    FlipLimit(usize),
    /// The point coincides with an existing vertex (the predicates cannot separate them).
    Duplicate(Vertex),
    /// The point lies outside the triangulated region (plane) or inside the hull of the
    /// sphere's points (not in convex position): it cannot become a vertex.
    Outside,
    /// A moved vertex landed on another one (closer than the predicates can separate, or than
    /// the caller's tolerance). The mesh is a valid triangulation; see
    /// [`crate::RestoreOptions::merge_collisions`].
    Collision {
        /// The moved vertex.
        moved: Vertex,
        /// The vertex it landed on.
        other: Vertex,
    },
    /// Too few vertices for the operation (a sphere keeps at least a tetrahedron).
    TooFewVertices(usize),
    /// A fold could not be repaired locally within the work budget; the mesh is valid but
    /// may hold inverted faces around this vertex.
    FoldUnresolved(Vertex),
    /// The vertex cannot be removed: it is on the boundary (plane).
    BoundaryVertex(Vertex),
    /// A mesh edit failed.
    Mesh(MeshError),
}

impl fmt::Display for DelaunayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DelaunayError::*;
        match self {
            PositionsTooShort { len, needed } => {
                write!(f, "{len} positions for {needed} vertex slots")
            }
            NonFinite(Some(v)) => write!(f, "position of {v:?} is NaN or infinite"),
            NonFinite(None) => write!(f, "the point is NaN or infinite"),
            DeadVertex(v) => write!(f, "{v:?} is not a live vertex"),
            DeadFace(x) => write!(f, "{x:?} is not a live face"),
            NotTriangulated(x) => write!(f, "{x:?} is not a triangle of a closed mesh"),
            Inverted(x) => write!(f, "{x:?} is inverted or flat"),
            NotDelaunay(e) => write!(f, "{e:?} is not locally Delaunay and cannot be flipped"),
            FlipLimit(n) => write!(f, "gave up after {n} flips"),
            Duplicate(v) => write!(f, "the point coincides with {v:?}"),
            Outside => write!(f, "the point is outside the triangulation"),
            Collision { moved, other } => write!(f, "{moved:?} was moved onto {other:?}"),
            TooFewVertices(n) => write!(f, "{n} vertices are too few"),
            FoldUnresolved(v) => write!(f, "the fold at {v:?} could not be repaired locally"),
            BoundaryVertex(v) => write!(f, "{v:?} is on the boundary"),
            Mesh(e) => write!(f, "mesh edit failed: {e}"),
        }
    }
}

impl std::error::Error for DelaunayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DelaunayError::Mesh(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MeshError> for DelaunayError {
    fn from(e: MeshError) -> Self {
        DelaunayError::Mesh(e)
    }
}
