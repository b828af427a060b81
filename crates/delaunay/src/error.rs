//! The crate's one error type: every way an operation can refuse its input.

use core::fmt;
use quadedge::{Edge, Face, MeshError, Vertex};

/// Why a Delaunay operation refused, or could not finish.
///
/// Every operation of this crate that fails leaves the mesh and the positions unchanged: the
/// checks run before the first edit, insertion decides its flips before making them, and the
/// operations that can only find out half-way roll back ([`quadedge::Mesh::atomically`], or a
/// copy of the mesh for whole-mesh passes).
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
    /// or invert a face: the mesh is folded). The flips were rolled back.
    NotDelaunay(Edge),
    /// Inserting the point would need to flip this edge (the new vertex on its left) and
    /// cannot: the quad is not convex or the flip would join two vertices twice. The point is
    /// not in convex position with the points around it (on the sphere, a point a few ulps off
    /// the sphere would swallow a nearly co-circular neighbour; in the plane, a concave
    /// boundary). Nothing was changed.
    NotConvex(Edge),
    /// The flip budget ran out (a folded mesh can cycle). The flips were rolled back.
    FlipLimit(usize),
    /// The point coincides with an existing vertex (the predicates cannot separate them).
    Duplicate(Vertex),
    /// The point lies outside the triangulated region (plane), inside the hull of the sphere's
    /// points (not in convex position), or at the centre (on no sphere): it cannot become a
    /// vertex.
    Outside,
    /// A moved vertex landed on another one (closer than the predicates can separate: the same
    /// point, or on the sphere the same direction; or closer than the caller's tolerance). The repair was rolled back; see
    /// [`crate::RestoreOptions::merge_collisions`].
    Collision {
        /// The moved vertex.
        moved: Vertex,
        /// The vertex it landed on.
        other: Vertex,
    },
    /// Too few vertices for the operation (a sphere keeps at least a tetrahedron).
    TooFewVertices(usize),
    /// A fold could not be repaired locally; the repair was rolled back. From
    /// [`crate::restore`]: the motion tangled the mesh beyond local repair (vertices moved past
    /// one another, onto each other's antipodes or old places, everything moved at once, or
    /// into one hemisphere), or the mesh was not Delaunay before the move. The positions may
    /// still be valid: a triangulation from scratch (`sphere::sphere_mesh`) keeps the ids.
    FoldUnresolved(Vertex),
    /// The vertex cannot be removed: it is on the boundary (plane).
    BoundaryVertex(Vertex),
    /// The mesh (or the result the operation would have) covers the surface `times` times
    /// instead of once, though every face is counter-clockwise: vertices moved past one
    /// another so far (a permutation of places, an antipodal map) that the faces wrap the
    /// sphere more than once, which flips and local relocation cannot undo. Nothing was
    /// changed; the positions are valid, so a triangulation from scratch
    /// (`sphere::sphere_mesh`) gives their Delaunay triangulation with the same vertex ids.
    Covering {
        /// How many times the faces cover the surface.
        times: usize,
    },
    /// Removing the vertex would leave the remaining points in one closed hemisphere (they no
    /// longer surround the sphere's centre), where no triangulation of the sphere exists; or,
    /// in the plane, all on one line. Nothing was changed.
    NotSpanning(Vertex),
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
            NotConvex(e) => write!(
                f,
                "inserting the point would need an impossible flip of {e:?}"
            ),
            FlipLimit(n) => write!(f, "gave up after {n} flips"),
            Duplicate(v) => write!(f, "the point coincides with {v:?}"),
            Outside => write!(f, "the point is outside the triangulation"),
            Collision { moved, other } => write!(f, "{moved:?} was moved onto {other:?}"),
            TooFewVertices(n) => write!(f, "{n} vertices are too few"),
            FoldUnresolved(v) => write!(f, "the fold at {v:?} could not be repaired locally"),
            BoundaryVertex(v) => write!(f, "{v:?} is on the boundary"),
            Covering { times } => write!(f, "the faces cover the surface {times} times"),
            NotSpanning(v) => write!(
                f,
                "removing {v:?} would leave points that do not surround the centre"
            ),
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
