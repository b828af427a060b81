//! Typed errors. Every failing operation leaves the mesh exactly as it was.

use crate::{Edge, Face, Vertex};
use core::fmt;

impl From<crate::internals::OutOfMemory> for MeshError {
    fn from(_: crate::internals::OutOfMemory) -> Self {
        Self::OutOfMemory
    }
}

/// Why an operation on a [`Mesh`](crate::Mesh) was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MeshError {
    /// The vertex id is out of range or names a removed vertex.
    DeadVertex(Vertex),
    /// The face id is out of range or names a removed face.
    DeadFace(Face),
    /// The edge id is out of range or names a removed quad-edge.
    DeadEdge(Edge),
    /// A primal edge was expected, a dual one was given (or the other way round).
    WrongEdgeKind(Edge),
    /// The same vertex appears twice in one face.
    RepeatedVertex(Vertex),
    /// A face with these three vertices already exists.
    FaceExists(Face),
    /// The directed edge `from → to` already has a face on its left: adding this face would
    /// glue three faces to one edge or flip the winding of a neighbour.
    EdgeOccupied {
        /// Origin of the occupied edge.
        from: Vertex,
        /// Destination of the occupied edge.
        to: Vertex,
    },
    /// The vertex would stop being a disk or half-disk (its fans cannot be ordered).
    NonManifoldVertex(Vertex),
    /// The vertex joins several unconnected fans of faces already: where the new face goes in
    /// the ring is ambiguous without geometry (a face that shares no edge with any of them
    /// could go between any two).
    AmbiguousFan(Vertex),
    /// More elements than the id spaces can address (`u32` vertex and face ids, 31-bit edge
    /// indices), or a count that overflows on the way.
    TooManyElements,
    /// The memory for the requested elements could not be reserved.
    OutOfMemory,
    /// A triangle index in a bulk build refers past the vertex count.
    IndexOutOfRange {
        /// Position of the triangle in the buffer.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
    },
    /// In [`Mesh::from_half_edges`](crate::Mesh::from_half_edges): the twin of this half-edge
    /// is out of range, not mutual, or does not run between the same two vertices reversed.
    BadTwin {
        /// The half-edge (`3 * triangle + corner`) whose twin entry is wrong.
        half_edge: usize,
    },
    /// In [`Mesh::from_rings`](crate::Mesh::from_rings): the neighbour ring of this vertex
    /// does not belong to a closed triangle mesh (too short or too long, a neighbour out of
    /// range, itself or repeated, or a face its neighbours' rings do not share).
    BadRing {
        /// The lowest vertex whose ring is wrong.
        vertex: Vertex,
        /// The first bad position in its ring (its length when the ring is too short,
        /// [`Mesh::MAX_RING`](crate::Mesh::MAX_RING) when too long).
        position: usize,
    },
    /// The edge lies on the boundary, the operation needs faces on both sides.
    BoundaryEdge(Edge),
    /// A flip would connect two vertices that are already connected.
    FlipWouldDuplicate(Edge),
    /// A split of this edge would join the new vertex twice to the same vertex: the faces on
    /// both sides share their third corner (the edge of a two-face pillow).
    SplitWouldDuplicate(Edge),
    /// A collapse would break the link condition (the result would be non-manifold or
    /// degenerate, e.g. any edge of a tetrahedron).
    CollapseNotManifold(Edge),
    /// A weight passed to split, collapse or split_face is not finite or not within
    /// `0.0..=1.0`, or the weights of a face split do not sum to 1.
    BadWeight,
    /// [`Mesh::dissolve_vertex`](crate::Mesh::dissolve_vertex): the vertex does not have
    /// exactly three edges with a face between each two (degree other than 3, or boundary).
    NotDissolvable(Vertex),
    /// [`Mesh::move_vertex`](crate::Mesh::move_vertex): the target face is one of the
    /// vertex's own faces.
    FaceOfVertex {
        /// The vertex to move.
        vertex: Vertex,
        /// The face given.
        face: Face,
    },
    /// A vertex still has edges, so it cannot be removed on its own.
    VertexInUse(Vertex),
    /// [`Mesh::connect_edges`](crate::Mesh::connect_edges): the edge has faces on both sides
    /// already (it is stitched), or on neither.
    NotBoundaryEdge(Edge),
    /// [`Mesh::connect_edges`](crate::Mesh::connect_edges): the edge has its face on the
    /// right; stitching takes the boundary half-edge with the face on its left (its `sym()`).
    WrongOrientation(Edge),
    /// [`Mesh::connect_edges`](crate::Mesh::connect_edges) was given the same edge twice.
    SameEdge(Edge),
    /// A stitch or cut would join `from` and `to` by a second edge, or make a loop when
    /// `from == to`.
    WouldDuplicateEdge {
        /// One end (after the merge).
        from: Vertex,
        /// The other end (after the merge).
        to: Vertex,
    },
    /// [`Mesh::record_changes`](crate::Mesh::record_changes) while a journal is recorded already.
    AlreadyRecording,
    /// The journal was not started by the [`Recording`](crate::journal::Recording) given, or
    /// no journal is being recorded.
    NotRecording,
    /// [`Mesh::start_undo_log`](crate::Mesh::start_undo_log) while an undo log is on.
    UndoLogOn,
    /// No undo log is being recorded.
    UndoLogOff,
    /// The undo log cannot be taken or stopped: a world's guard lent this mesh and rolls it
    /// back by that log if the guard is not committed.
    UndoLogHeld,
    /// [`Mesh::undo`](crate::Mesh::undo) / [`redo`](crate::Mesh::redo): the mesh is not in
    /// the state the log ends (starts) at: another mesh, or edited since.
    UndoStateMismatch,
    /// The mesh carries the log's state stamp but its arrays differ from what the log wrote
    /// (a write bypassed the log); nothing was changed.
    UndoContentMismatch,
    /// [`Mesh::check`](crate::Mesh::check) found a broken invariant.
    Corrupt(String),
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MeshError::*;
        match self {
            DeadVertex(v) => write!(f, "vertex {v:?} does not exist"),
            DeadFace(x) => write!(f, "face {x:?} does not exist"),
            DeadEdge(e) => write!(f, "edge {e:?} does not exist"),
            WrongEdgeKind(e) => write!(f, "edge {e:?} is of the wrong kind (primal/dual)"),
            RepeatedVertex(v) => write!(f, "vertex {v:?} appears twice in one face"),
            FaceExists(x) => write!(f, "the face already exists as {x:?}"),
            EdgeOccupied { from, to } => write!(
                f,
                "edge {from:?}->{to:?} already has a face on its left (non-manifold edge or inconsistent winding)"
            ),
            NonManifoldVertex(v) => write!(f, "vertex {v:?} would become non-manifold"),
            AmbiguousFan(v) => write!(
                f,
                "vertex {v:?} already joins several unconnected fans; the face must share an edge with one of them"
            ),
            TooManyElements => write!(
                f,
                "too many elements for the id spaces (u32 vertex and face ids, 31-bit edge ids)"
            ),
            OutOfMemory => write!(f, "not enough memory for the requested elements"),
            BadTwin { half_edge } => write!(
                f,
                "half-edge {half_edge} has a twin that is out of range, not mutual, or not its reverse"
            ),
            BadRing { vertex, position } => write!(
                f,
                "the neighbour ring of vertex {vertex:?} is not part of a closed triangle mesh at position {position}: too short or too long, a neighbour out of range, itself or repeated, or a face the neighbours' rings do not share"
            ),
            IndexOutOfRange { triangle, index } => {
                write!(
                    f,
                    "triangle {triangle} refers to vertex {index}, past the vertex count"
                )
            }
            BoundaryEdge(e) => write!(f, "edge {e:?} lies on the boundary"),
            FlipWouldDuplicate(e) => write!(
                f,
                "flipping {e:?} would connect two vertices that are already connected"
            ),
            SplitWouldDuplicate(e) => write!(
                f,
                "splitting {e:?} would create parallel edges (its two faces share their third corner)"
            ),
            CollapseNotManifold(e) => write!(
                f,
                "collapsing {e:?} would violate the link condition (non-manifold or degenerate result)"
            ),
            BadWeight => write!(
                f,
                "weights must be finite, within 0.0..=1.0 (and sum to 1 for a face split)"
            ),
            NotDissolvable(v) => write!(
                f,
                "vertex {v:?} is not an interior vertex of degree 3, so it cannot be dissolved"
            ),
            FaceOfVertex { vertex, face } => write!(
                f,
                "vertex {vertex:?} cannot move into {face:?}, one of its own faces"
            ),
            VertexInUse(v) => write!(f, "vertex {v:?} still has edges"),
            NotBoundaryEdge(e) => write!(f, "edge {e:?} is not a boundary edge"),
            WrongOrientation(e) => write!(
                f,
                "edge {e:?} has its face on the right; pass the half-edge with the face on its left"
            ),
            SameEdge(e) => write!(f, "edge {e:?} cannot be stitched to itself"),
            WouldDuplicateEdge { from, to } => write!(
                f,
                "the edit would join {from:?} and {to:?} twice (or make a loop)"
            ),
            AlreadyRecording => write!(f, "a change journal is being recorded already"),
            NotRecording => write!(f, "no change journal is being recorded for this recording"),
            UndoLogOn => write!(f, "an undo log is being recorded already"),
            UndoLogOff => write!(f, "no undo log is being recorded"),
            UndoLogHeld => write!(f, "the undo log is held by the guard that lent this mesh"),
            UndoStateMismatch => write!(
                f,
                "the mesh is not in the state this undo log applies to (another mesh, or edited since)"
            ),
            UndoContentMismatch => write!(
                f,
                "the mesh differs from what this undo log wrote; nothing was changed"
            ),
            Corrupt(s) => write!(f, "mesh invariant broken: {s}"),
        }
    }
}

impl std::error::Error for MeshError {}
