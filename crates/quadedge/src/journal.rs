//! The change journal: what a mutating operation did, in element terms.
//!
//! Data layers live outside the topology (crate `layers`). To follow the mesh they replay the
//! journal instead of knowing how flips or collapses are wired. Recording is off by default and
//! costs one predictable branch per operation; switch it on with [`Mesh::record_changes`] and
//! drain it with [`Mesh::take_changes`]. A journal whose readers all skip flips and vertex moves
//! can count them instead of recording them ([`Mesh::skip_rewires`]).
//!
//! Conventions every event follows:
//! - Edge ids in events are primal. An event about a whole quad-edge names its base edge
//!   ([`Edge::base`]); a "descends from" pair keeps orientation: `new` and `from` point the same
//!   way, so `new.sym()` descends from `from.sym()` and the dual edges follow `rot()`.
//! - An element id that is reused after removal is reported as added again: its data starts over
//!   from the layer's initial value.
//!
//! [`Mesh::record_changes`]: crate::Mesh::record_changes
//! [`Mesh::take_changes`]: crate::Mesh::take_changes
//! [`Mesh::skip_rewires`]: crate::Mesh::skip_rewires

use crate::ids::{DUAL_BIT, NONE};
use crate::{Edge, Face, Vertex};

/// Proof of having started a journal with [`Mesh::record_changes`](crate::Mesh::record_changes):
/// the key to read it ([`Mesh::take_changes`](crate::Mesh::take_changes)) and to stop it
/// ([`Mesh::stop_recording`](crate::Mesh::stop_recording)). Not `Clone`: one owner per journal.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "without the Recording the journal can never be read or stopped"]
pub struct Recording {
    id: u64,
}

impl Recording {
    pub(crate) fn new() -> Self {
        use core::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
        }
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }
}

/// The changes being recorded and the recording that owns them.
#[derive(Clone, Debug)]
pub(crate) struct JournalBuffer {
    pub(crate) owner: u64,
    pub(crate) changes: Vec<Change>,
    /// Are flips and vertex moves counted instead of recorded
    /// ([`Mesh::skip_rewires`](crate::Mesh::skip_rewires))?
    pub(crate) skip_rewires: bool,
    /// Flips and vertex moves counted instead of recorded.
    pub(crate) skipped: u64,
}

/// One journal entry.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Change {
    /// Vertices `first .. first + count` were created (fresh or reused ids, initial data).
    VerticesAdded {
        /// The first new vertex.
        first: Vertex,
        /// How many consecutive ids.
        count: u32,
    },
    /// A face was created by `add_face` (initial data).
    FaceAdded(Face),
    /// A quad-edge was created by `add_face` (initial data); the id is its base edge.
    EdgeAdded(Edge),
    /// An isolated vertex was removed.
    VertexRemoved(Vertex),
    /// A face was removed.
    FaceRemoved(Face),
    /// A quad-edge was removed (it had no face left on either side); the id is its base edge.
    EdgeRemoved(Edge),
    /// An edge was flipped.
    Flip(FlipRecord),
    /// An edge was split by a new vertex.
    Split(SplitRecord),
    /// An edge was collapsed into one vertex.
    Collapse(CollapseRecord),
    /// Holes were removed from the id spaces; every id changed by `remap`.
    Compact(Remap),
    /// A face was split into three by a new vertex.
    FaceSplit(FaceSplitRecord),
    /// A vertex of degree 3 was removed and its three faces merged into one.
    VertexDissolved(DissolveRecord),
    /// Two boundary edges were stitched into one interior edge
    /// ([`Mesh::connect_edges`](crate::Mesh::connect_edges)).
    Stitch(StitchRecord),
    /// An interior edge was cut into two boundary edges
    /// ([`Mesh::disconnect_edge`](crate::Mesh::disconnect_edge)); the vertex splits it needs
    /// follow as [`Change::VertexSplit`] records.
    Unstitch(UnstitchRecord),
    /// A fan of a vertex's faces was moved to a new vertex, so that every vertex keeps a
    /// single fan (after [`Mesh::disconnect_edge`](crate::Mesh::disconnect_edge) or
    /// [`Mesh::remove_face`](crate::Mesh::remove_face)).
    VertexSplit(VertexSplitRecord),
    /// A vertex of degree 3 moved into another face ([`Mesh::move_vertex`](crate::Mesh::move_vertex)):
    /// it keeps its id and data, its spokes and faces were rewired.
    VertexMoved(MoveRecord),
}

/// What [`Mesh::move_vertex`](crate::Mesh::move_vertex) did.
///
/// No element was added or removed. `vertex` keeps its data (it is the same point, moved);
/// the spokes now join other vertices and the four faces have other corners, so layers treat
/// the spokes, `closed` and `faces` as changed (on-change policy), as for a flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveRecord {
    /// The moved vertex.
    pub vertex: Vertex,
    /// Its neighbours before the move, counter-clockwise: the corners of `closed`.
    pub from: [Vertex; 3],
    /// The face that spans `from` after the move (it was left of `spokes[0]`).
    pub closed: Face,
    /// The corners of the target face, counter-clockwise as
    /// [`Mesh::face_vertices`](crate::Mesh::face_vertices) gave them: `vertex`'s new neighbours.
    pub to: [Vertex; 3],
    /// `vertex → to[i]`: the old spokes (same quad-edges), rewired.
    pub spokes: [Edge; 3],
    /// `faces[i]` is `(vertex, to[i], to[(i + 1) % 3])`; `faces[0]` is the target face.
    pub faces: [Face; 3],
}

/// What [`Mesh::connect_edges`](crate::Mesh::connect_edges) did.
///
/// The quad-edge of `edge` stays and now has a face on both sides; the other quad-edge is
/// removed, and so are the vertices that met the survivors (their data follows the on-change
/// policy; the survivors keep theirs, as PathEngine's `connectEdges` keeps the first edge's
/// vertices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StitchRecord {
    /// The kept edge, as given (its face on the left; now the other face on its right).
    pub edge: Edge,
    /// Base id of the removed quad-edge (the second edge given).
    pub removed_edge: Edge,
    /// The vertices merged into `edge`'s origin and destination, in that order; `INVALID`
    /// where the two ends were one vertex already.
    pub removed: [Vertex; 2],
}

/// What [`Mesh::disconnect_edge`](crate::Mesh::disconnect_edge) did.
///
/// `edge` keeps its quad-edge and its left face and gets a hole on its right; `new_edge` runs
/// the other way with the former right face on its left and descends from `edge.sym()` (same
/// orientation, journal convention).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnstitchRecord {
    /// The cut edge, as given.
    pub edge: Edge,
    /// The new boundary edge on the other side of the cut.
    pub new_edge: Edge,
}

/// A vertex split: `vertex` is new (or a reused id) and took over one fan of `from`; its data
/// is a copy of `from`'s (both sit at the same place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VertexSplitRecord {
    /// The vertex that was split and keeps the other fan.
    pub from: Vertex,
    /// The new vertex.
    pub vertex: Vertex,
}

/// What [`Mesh::flip`](crate::Mesh::flip) did.
///
/// The quad-edge keeps its id but connects other vertices; both faces keep their ids but
/// change their corners. Layers treat edge and faces as "changed" (on-change policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlipRecord {
    /// The flipped edge as it is after the flip (points from `new[0]` to `new[1]`).
    pub edge: Edge,
    /// Endpoints before the flip, origin then destination.
    pub old: [Vertex; 2],
    /// Endpoints after the flip, origin then destination.
    pub new: [Vertex; 2],
    /// The two faces on either side: left of `edge`, then right of `edge`.
    pub faces: [Face; 2],
}

/// What [`Mesh::split`](crate::Mesh::split) did to edge `origin → dest`.
///
/// The split edge keeps its quad-edge id but now ends at `vertex`; `new_edge` is the other half
/// (`vertex → dest`), descending from `edge` with the same orientation. `cross_edges` connect
/// `vertex` to the opposite corners of the former faces (no ancestor: initial data); `faces`
/// lists each new face with the old face it was cut from. Missing entries (a boundary edge
/// has only one face) are `INVALID`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitRecord {
    /// The original edge's origin.
    pub origin: Vertex,
    /// The original edge's destination.
    pub dest: Vertex,
    /// Weight of `dest`: the new vertex sits at `lerp(origin, dest, t)`.
    pub t: f32,
    /// The new vertex.
    pub vertex: Vertex,
    /// The split edge, now `origin → vertex`.
    pub edge: Edge,
    /// The other half, `vertex → dest`; descends from `edge`.
    pub new_edge: Edge,
    /// New edges from `vertex` to the opposite corners: left side, then right side.
    pub cross_edges: [Edge; 2],
    /// `(new face, face it was cut from)`: left side, then right side.
    pub faces: [(Face, Face); 2],
}

/// What [`Mesh::collapse`](crate::Mesh::collapse) did to edge `origin → dest`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollapseRecord {
    /// The collapsed edge's origin.
    pub origin: Vertex,
    /// The collapsed edge's destination.
    pub dest: Vertex,
    /// Weight of `dest`: the surviving vertex's data is `lerp(origin, dest, t)`.
    pub t: f32,
    /// The vertex that remains (`origin` or `dest`); the other one is removed.
    pub survivor: Vertex,
    /// The vertex removed by the collapse.
    pub removed: Vertex,
    /// Quad-edges removed (base ids): the collapsed edge, then one merged side edge per
    /// removed face. Unused slots are `INVALID`.
    pub removed_edges: [Edge; 3],
    /// Faces removed (left, then right of the collapsed edge); `INVALID` on a boundary side.
    pub removed_faces: [Face; 2],
}

/// What [`Mesh::split_face`](crate::Mesh::split_face) did.
///
/// The new vertex's data is the weighted sum of the corners' data; the spokes have no ancestor
/// (initial data); `faces[1]` and `faces[2]` were cut from `face` (which is `faces[0]` and
/// keeps its id, with a smaller triangle).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FaceSplitRecord {
    /// The split face; its id is kept for `faces[0]`.
    pub face: Face,
    /// The corners of `face` before the split, counter-clockwise as
    /// [`Mesh::face_vertices`](crate::Mesh::face_vertices) gave them.
    pub corners: [Vertex; 3],
    /// Barycentric weights of `corners` for the new vertex (each in `0..=1`, summing to 1).
    pub weights: [f32; 3],
    /// The new vertex.
    pub vertex: Vertex,
    /// New primal edges `vertex → corners[i]`.
    pub spokes: [Edge; 3],
    /// `faces[i]` is `(vertex, corners[i], corners[(i + 1) % 3])`; `faces[0] == face`.
    pub faces: [Face; 3],
}

/// What [`Mesh::dissolve_vertex`](crate::Mesh::dissolve_vertex) did.
///
/// `face` keeps its id and now spans `corners`; its data follows the on-change policy, as do
/// the removed elements'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DissolveRecord {
    /// The removed vertex.
    pub vertex: Vertex,
    /// Its three neighbours, counter-clockwise: the corners of the merged face.
    pub corners: [Vertex; 3],
    /// The merged face (one of the three former faces around `vertex`).
    pub face: Face,
    /// The two other former faces, removed.
    pub removed_faces: [Face; 2],
    /// Base ids of the three removed spokes.
    pub removed_edges: [Edge; 3],
}

/// Old index → new index, per element kind, as produced by [`Mesh::compact`](crate::Mesh::compact)
/// and [`Mesh::reorder_vertices`](crate::Mesh::reorder_vertices).
///
/// Dead elements map to [`Remap::DEAD`] (which is [`NONE`]). After `compact()` survivors keep
/// their relative order (`new <= old`); after `reorder_vertices` the map is any permutation of
/// the survivors, so code that follows a remap must not assume either.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Remap {
    /// Per old vertex index.
    pub vertices: Vec<u32>,
    /// Per old face index.
    pub faces: Vec<u32>,
    /// Per old quad-edge number (`Edge::quad`). Directed edge `2q + s` maps to `2 * quads[q] + s`.
    pub quads: Vec<u32>,
}

impl Remap {
    /// Marker for an element that did not survive.
    pub const DEAD: u32 = NONE;

    /// The new id of a vertex, `None` if it was dead.
    pub fn vertex(&self, v: Vertex) -> Option<Vertex> {
        match self.vertices.get(v.index()) {
            Some(&n) if n != Self::DEAD => Some(Vertex::new(n)),
            _ => None,
        }
    }

    /// The new id of a face, `None` if it was dead.
    pub fn face(&self, f: Face) -> Option<Face> {
        match self.faces.get(f.index()) {
            Some(&n) if n != Self::DEAD => Some(Face::new(n)),
            _ => None,
        }
    }

    /// The new id of a directed edge (primal or dual), `None` if it was dead.
    pub fn edge(&self, e: Edge) -> Option<Edge> {
        match self.quads.get(e.quad()) {
            Some(&n) if n != Self::DEAD => {
                let raw = (e.raw() & DUAL_BIT) | (n << 1) | (e.raw() & 1);
                Some(Edge::from_raw(raw))
            }
            _ => None,
        }
    }

    /// Number of vertices after compaction.
    pub fn vertex_count(&self) -> usize {
        self.vertices.iter().filter(|&&n| n != Self::DEAD).count()
    }

    /// Number of faces after compaction.
    pub fn face_count(&self) -> usize {
        self.faces.iter().filter(|&&n| n != Self::DEAD).count()
    }

    /// Number of quad-edges after compaction.
    pub fn quad_count(&self) -> usize {
        self.quads.iter().filter(|&&n| n != Self::DEAD).count()
    }
}

impl crate::Mesh {
    /// From now on the journal of `recording` counts flips and vertex moves instead of
    /// recording them ([`Change::Flip`], [`Change::VertexMoved`]); every other change is
    /// recorded as before. For an owner whose readers all skip both (data on vertices only:
    /// neither adds or removes an element, and a moved vertex keeps its data), so that a long
    /// repair by flips does not write and drop a record per flip. The count
    /// ([`skipped_rewires`](Self::skipped_rewires)) tells whether the mesh changed all the
    /// same. Recording stays in this mode until it stops.
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// let rec = m.record_changes().unwrap();
    /// m.skip_rewires(&rec).unwrap();
    /// m.flip(m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap()).unwrap();
    /// assert_eq!(m.skipped_rewires(&rec), Ok(1));
    /// assert!(m.stop_recording(rec).unwrap().is_empty());
    /// ```
    ///
    /// # Errors
    /// [`MeshError::NotRecording`](crate::MeshError::NotRecording) when no journal is being
    /// recorded for `recording`; nothing changes then.
    pub fn skip_rewires(&mut self, recording: &Recording) -> Result<(), crate::MeshError> {
        match self.journal.as_mut() {
            Some(j) if j.owner == recording.id() => {
                j.skip_rewires = true;
                Ok(())
            }
            _ => Err(crate::MeshError::NotRecording),
        }
    }

    /// How many flips and vertex moves the journal of `recording` counted instead of
    /// recording since it started ([`skip_rewires`](Self::skip_rewires)); those an
    /// [`atomically`](Self::atomically) edit undid are not counted.
    ///
    /// # Errors
    /// [`MeshError::NotRecording`](crate::MeshError::NotRecording) when no journal is being
    /// recorded for `recording`.
    pub fn skipped_rewires(&self, recording: &Recording) -> Result<u64, crate::MeshError> {
        match self.journal.as_ref() {
            Some(j) if j.owner == recording.id() => Ok(j.skipped),
            _ => Err(crate::MeshError::NotRecording),
        }
    }

    /// `Mesh::log` for a flip or a vertex move: counted instead of recorded when the journal
    /// skips them ([`Mesh::skip_rewires`]).
    #[inline]
    pub(crate) fn log_rewire(&mut self, change: impl FnOnce() -> Change) {
        self.undo.stamp = 0;
        if let Some(j) = self.journal.as_mut() {
            match j.skip_rewires {
                true => j.skipped += 1,
                false => j.changes.push(change()),
            }
        }
    }

    /// Hands back the buffer of a journal the caller has read: the next
    /// [`record_changes`](Self::record_changes) records into it, so a large edit after a
    /// large edit does not grow its journal from nothing again (a reallocation and a page
    /// fault per 4 KiB). Kept only while no larger than twice the topology, else dropped.
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// let rec = m.record_changes().unwrap();
    /// m.flip(m.find_edge(Vertex::new(0), Vertex::new(2)).unwrap()).unwrap();
    /// let changes = m.stop_recording(rec).unwrap();
    /// assert_eq!(changes.len(), 1);
    /// m.recycle_changes(changes);
    /// let rec = m.record_changes().unwrap();
    /// assert!(m.take_changes(&rec).unwrap().is_empty());
    /// ```
    pub fn recycle_changes(&mut self, mut changes: Vec<Change>) {
        let room = 2 * self.heap_bytes() / core::mem::size_of::<Change>();
        if changes.capacity() > self.journal_spare.capacity() && changes.capacity() <= room {
            changes.clear();
            self.journal_spare = changes;
        }
    }
}
