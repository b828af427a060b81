//! The mesh: flat arrays and the constant-time topology queries.

use crate::MeshError;
use crate::journal::{Change, JournalBuffer, Recording};
use crate::{Edge, Face, Vertex};

/// Marks a removed vertex in `vertex_edge` (an isolated live vertex holds `Edge::INVALID`).
pub(crate) const DEAD_VERTEX: Edge = Edge::from_raw(crate::NONE - 1);

/// An index-based quad-edge triangle mesh.
///
/// Holds the primal triangle mesh and its dual at once. Faces are triangles wound
/// counter-clockwise; edges without a face on one side form the boundary (holes have no id and
/// show up as [`Face::INVALID`]).
///
/// Every operation that changes the mesh validates its input first and returns a
/// [`MeshError`](crate::MeshError) without touching anything; every edit it accepts leaves a
/// mesh that passes [`Mesh::check`].
///
/// # Panics
/// Queries (`origin`, `left`, `face_vertices`, rings...) take ids that are alive in this mesh:
/// like slice indexing they panic on ids past the end, and on removed ids they return
/// unspecified (but memory-safe) answers. Check untrusted ids with [`Mesh::is_vertex_alive`],
/// [`Mesh::is_face_alive`] and [`Mesh::is_edge_alive`] first.
#[derive(Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mesh {
    /// Per vertex: one outgoing primal edge, `INVALID` if isolated, `DEAD_VERTEX` if removed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) vertex_edge: Vec<Edge>,
    /// Per face: one primal edge with the face on its left, `INVALID` if removed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) face_edge: Vec<Edge>,
    /// Per directed primal edge: origin vertex. `primal_origin[2q] == INVALID` marks a removed
    /// quad-edge.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) primal_origin: Vec<Vertex>,
    /// Per directed primal edge: next edge counter-clockwise around the origin.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) primal_next: Vec<Edge>,
    /// Per directed dual edge: origin face (`INVALID` for a hole).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) dual_origin: Vec<Face>,
    /// Per directed dual edge: next dual edge counter-clockwise around the origin face.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) dual_next: Vec<Edge>,

    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) free_vertices: Vec<u32>,
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) free_faces: Vec<u32>,
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub(crate) free_quads: Vec<u32>,

    pub(crate) live_vertices: u32,
    pub(crate) live_faces: u32,
    pub(crate) live_quads: u32,

    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) journal: Option<JournalBuffer>,
    /// A drained journal's buffer handed back ([`Mesh::recycle_changes`]), empty: the next
    /// journal records into it.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) journal_spare: Vec<Change>,

    /// The undo log being recorded and the state stamp ([`crate::undo`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) undo: crate::undo::UndoState,

    /// Whether a world's guard lent this mesh out ([`crate::internals::lend`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) lent: crate::lend::LendState,

    /// The buffers of [`Mesh::edit_in_parts`], cleared between calls (never compared, cloned
    /// empty, not serialized).
    #[cfg(feature = "rayon")]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) parts: crate::par::PartsScratch,
}

/// Bit-identical topology, free lists included; the journal is not compared.
impl PartialEq for Mesh {
    fn eq(&self, o: &Self) -> bool {
        self.vertex_edge == o.vertex_edge
            && self.face_edge == o.face_edge
            && self.primal_origin == o.primal_origin
            && self.primal_next == o.primal_next
            && self.dual_origin == o.dual_origin
            && self.dual_next == o.dual_next
            && self.free_vertices == o.free_vertices
            && self.free_faces == o.free_faces
            && self.free_quads == o.free_quads
            && self.live_vertices == o.live_vertices
            && self.live_faces == o.live_faces
            && self.live_quads == o.live_quads
    }
}

impl Eq for Mesh {}

impl core::fmt::Debug for Mesh {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Mesh {{ vertices: {}, edges: {}, faces: {} }}",
            self.live_vertices, self.live_quads, self.live_faces
        )
    }
}

impl Mesh {
    /// An empty mesh.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty mesh with room for about `vertices` vertices of a closed triangle mesh.
    ///
    /// # Errors
    /// As [`Mesh::reserve`]: [`MeshError::TooManyElements`] or [`MeshError::OutOfMemory`].
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError};
    /// assert!(Mesh::with_capacity(100).unwrap().heap_bytes() >= 100 * 108);
    /// assert_eq!(Mesh::with_capacity(usize::MAX).unwrap_err(), MeshError::TooManyElements);
    /// ```
    pub fn with_capacity(vertices: usize) -> Result<Self, MeshError> {
        let mut m = Self::new();
        m.reserve(vertices)?;
        Ok(m)
    }

    // ---------------------------------------------------------------- counts

    /// Number of live vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.live_vertices as usize
    }

    /// Number of live faces.
    #[inline]
    pub fn face_count(&self) -> usize {
        self.live_faces as usize
    }

    /// Number of live undirected edges, i.e. quad-edges: what
    /// [`undirected_edges`](Self::undirected_edges) yields.
    #[inline]
    pub fn undirected_edge_count(&self) -> usize {
        self.live_quads as usize
    }

    /// Number of live directed primal edges (twice the undirected ones): what
    /// [`directed_edges`](Self::directed_edges) yields.
    #[inline]
    pub fn directed_edge_count(&self) -> usize {
        2 * self.live_quads as usize
    }

    /// Length of the vertex id space (live and removed): the size of a vertex data array.
    #[inline]
    pub fn vertex_slots(&self) -> usize {
        self.vertex_edge.len()
    }

    /// Length of the face id space (live and removed).
    #[inline]
    pub fn face_slots(&self) -> usize {
        self.face_edge.len()
    }

    /// Length of the quad-edge id space (live and removed). Directed edges of either kind
    /// number twice as many.
    #[inline]
    pub fn quad_slots(&self) -> usize {
        self.primal_origin.len() / 2
    }

    /// Has any element been removed without being reused or compacted away?
    pub fn has_holes(&self) -> bool {
        !(self.free_vertices.is_empty() && self.free_faces.is_empty() && self.free_quads.is_empty())
    }

    /// V − E + F over the live elements (2 for a closed mesh of genus 0).
    pub fn euler_characteristic(&self) -> i64 {
        self.live_vertices as i64 - self.live_quads as i64 + self.live_faces as i64
    }

    /// Heap memory held by the topology arrays (capacity, not length), in bytes.
    ///
    /// For a closed triangle mesh built by [`Mesh::from_triangles`] this is 108 bytes per
    /// vertex: 3 quad-edges × 4 directed edges × (origin + next) × 4 bytes + 4 (vertex) + 2 × 4
    /// (faces).
    pub fn heap_bytes(&self) -> usize {
        use core::mem::size_of;
        self.vertex_edge.capacity() * size_of::<Edge>()
            + self.face_edge.capacity() * size_of::<Edge>()
            + self.primal_origin.capacity() * size_of::<Vertex>()
            + self.primal_next.capacity() * size_of::<Edge>()
            + self.dual_origin.capacity() * size_of::<Face>()
            + self.dual_next.capacity() * size_of::<Edge>()
            + (self.free_vertices.capacity()
                + self.free_faces.capacity()
                + self.free_quads.capacity())
                * size_of::<u32>()
    }

    /// Releases spare capacity (after a build or many removals).
    pub fn shrink_to_fit(&mut self) {
        self.vertex_edge.shrink_to_fit();
        self.face_edge.shrink_to_fit();
        self.primal_origin.shrink_to_fit();
        self.primal_next.shrink_to_fit();
        self.dual_origin.shrink_to_fit();
        self.dual_next.shrink_to_fit();
        self.free_vertices.shrink_to_fit();
        self.free_faces.shrink_to_fit();
        self.free_quads.shrink_to_fit();
    }

    // ---------------------------------------------------------------- liveness

    /// Is `v` a live vertex of this mesh?
    #[inline]
    pub fn is_vertex_alive(&self, v: Vertex) -> bool {
        matches!(self.vertex_edge.get(v.index()), Some(&e) if e != DEAD_VERTEX)
    }

    /// Is `f` a live face of this mesh?
    #[inline]
    pub fn is_face_alive(&self, f: Face) -> bool {
        matches!(self.face_edge.get(f.index()), Some(e) if e.is_valid())
    }

    /// Is `e` (primal or dual, either direction) an edge of a live quad-edge?
    #[inline]
    pub fn is_edge_alive(&self, e: Edge) -> bool {
        e.is_valid() && matches!(self.primal_origin.get(e.index() & !1), Some(v) if v.is_valid())
    }

    // ---------------------------------------------------------------- primal queries

    /// One outgoing edge of `v`, [`Edge::INVALID`] for an isolated vertex.
    ///
    /// On a boundary vertex this is the first edge of a fan counter-clockwise (the edge with a
    /// hole on its right) after a bulk build; edits keep it an outgoing edge but not
    /// necessarily that one.
    #[inline]
    pub fn vertex_edge(&self, v: Vertex) -> Edge {
        let e = self.vertex_edge[v.index()];
        if e == DEAD_VERTEX { Edge::INVALID } else { e }
    }

    /// One edge with `f` on its left.
    #[inline]
    pub fn face_edge(&self, f: Face) -> Edge {
        self.face_edge[f.index()]
    }

    /// Origin vertex of a primal edge.
    #[inline]
    pub fn origin(&self, e: Edge) -> Vertex {
        debug_assert!(e.is_primal(), "origin() of dual edge {e:?}");
        self.primal_origin[e.index()]
    }

    /// Destination vertex of a primal edge.
    #[inline]
    pub fn dest(&self, e: Edge) -> Vertex {
        debug_assert!(e.is_primal(), "dest() of dual edge {e:?}");
        self.primal_origin[e.index() ^ 1]
    }

    /// Face on the left of a primal edge ([`Face::INVALID`] on the boundary).
    #[inline]
    pub fn left(&self, e: Edge) -> Face {
        debug_assert!(e.is_primal(), "left() of dual edge {e:?}");
        self.dual_origin[e.index() ^ 1]
    }

    /// Face on the right of a primal edge ([`Face::INVALID`] on the boundary).
    #[inline]
    pub fn right(&self, e: Edge) -> Face {
        debug_assert!(e.is_primal(), "right() of dual edge {e:?}");
        self.dual_origin[e.index()]
    }

    /// Is this primal edge on the boundary (a hole on one side)?
    #[inline]
    pub fn is_boundary_edge(&self, e: Edge) -> bool {
        !self.left(e).is_valid() || !self.right(e).is_valid()
    }

    /// Is this vertex on the boundary (or isolated)?
    pub fn is_boundary_vertex(&self, v: Vertex) -> bool {
        let start = self.vertex_edge(v);
        if !start.is_valid() {
            return true;
        }
        self.outgoing(v).any(|e| !self.left(e).is_valid())
    }

    /// Does the mesh have any boundary edge?
    pub fn is_closed(&self) -> bool {
        self.directed_edges().all(|e| !self.is_boundary_edge(e))
    }

    // ---------------------------------------------------------------- dual queries

    /// Origin face of a dual edge ([`Face::INVALID`] for a hole).
    #[inline]
    pub fn dual_origin(&self, e: Edge) -> Face {
        debug_assert!(e.is_dual(), "dual_origin() of primal edge {e:?}");
        self.dual_origin[e.index()]
    }

    /// Destination face of a dual edge.
    #[inline]
    pub fn dual_dest(&self, e: Edge) -> Face {
        debug_assert!(e.is_dual(), "dual_dest() of primal edge {e:?}");
        self.dual_origin[e.index() ^ 1]
    }

    /// Vertex (Voronoi cell) on the left of a dual edge.
    #[inline]
    pub fn dual_left(&self, e: Edge) -> Vertex {
        self.origin(e.inv_rot())
    }

    /// Vertex (Voronoi cell) on the right of a dual edge.
    #[inline]
    pub fn dual_right(&self, e: Edge) -> Vertex {
        self.origin(e.rot())
    }

    // ---------------------------------------------------------------- ring navigation

    /// Next edge counter-clockwise around the origin (vertex or face) of `e`.
    #[inline]
    pub fn origin_next(&self, e: Edge) -> Edge {
        if e.is_dual() {
            self.dual_next[e.index()]
        } else {
            self.primal_next[e.index()]
        }
    }

    /// Next edge clockwise around the origin of `e`.
    #[inline]
    pub fn origin_prev(&self, e: Edge) -> Edge {
        self.origin_next(e.rot()).rot()
    }

    /// Next edge counter-clockwise around the destination of `e` (ending there).
    #[inline]
    pub fn dest_next(&self, e: Edge) -> Edge {
        self.origin_next(e.sym()).sym()
    }

    /// Next edge clockwise around the destination of `e` (ending there).
    #[inline]
    pub fn dest_prev(&self, e: Edge) -> Edge {
        self.origin_next(e.inv_rot()).inv_rot()
    }

    /// Next edge counter-clockwise around the left face of `e`.
    #[inline]
    pub fn left_next(&self, e: Edge) -> Edge {
        self.origin_next(e.inv_rot()).rot()
    }

    /// Previous edge around the left face of `e` (clockwise step).
    #[inline]
    pub fn left_prev(&self, e: Edge) -> Edge {
        self.origin_next(e).sym()
    }

    /// Next edge counter-clockwise around the right face of `e`.
    #[inline]
    pub fn right_next(&self, e: Edge) -> Edge {
        self.origin_next(e.rot()).inv_rot()
    }

    /// Previous edge around the right face of `e` (clockwise step).
    #[inline]
    pub fn right_prev(&self, e: Edge) -> Edge {
        self.origin_next(e.sym())
    }

    // ---------------------------------------------------------------- triangles

    /// The three edges of a face, counter-clockwise, starting at [`Mesh::face_edge`].
    #[inline]
    pub fn face_edges(&self, f: Face) -> [Edge; 3] {
        let e0 = self.face_edge(f);
        let e1 = self.left_next(e0);
        let e2 = self.left_next(e1);
        [e0, e1, e2]
    }

    /// The three corners of a face, counter-clockwise.
    #[inline]
    pub fn face_vertices(&self, f: Face) -> [Vertex; 3] {
        let [a, b, c] = self.face_edges(f);
        [self.origin(a), self.origin(b), self.origin(c)]
    }

    /// The faces across the three edges of `f` (in [`Mesh::face_edges`] order);
    /// [`Face::INVALID`] across a boundary edge.
    #[inline]
    pub fn face_neighbors(&self, f: Face) -> [Face; 3] {
        let [a, b, c] = self.face_edges(f);
        [self.right(a), self.right(b), self.right(c)]
    }

    /// The primal edge from `a` to `b`, if they are connected.
    pub fn find_edge(&self, a: Vertex, b: Vertex) -> Option<Edge> {
        if !self.is_vertex_alive(a) {
            return None;
        }
        self.outgoing(a).find(|&e| self.dest(e) == b)
    }

    // ---------------------------------------------------------------- journal

    /// Starts recording a [change journal](crate::journal) and returns the [`Recording`] that
    /// owns it: only its holder can read or stop the journal, so code that is handed a
    /// `&mut Mesh` to edit cannot drain or switch off a journal someone else relies on.
    ///
    /// # Errors
    /// [`MeshError::AlreadyRecording`] when a journal is being recorded already.
    pub fn record_changes(&mut self) -> Result<Recording, MeshError> {
        if self.journal.is_some() {
            return Err(MeshError::AlreadyRecording);
        }
        let recording = Recording::new();
        self.journal = Some(JournalBuffer {
            owner: recording.id(),
            changes: core::mem::take(&mut self.journal_spare),
            skip_rewires: false,
            skipped: 0,
        });
        Ok(recording)
    }

    /// Is a journal being recorded?
    pub fn is_recording(&self) -> bool {
        self.journal.is_some()
    }

    /// Takes the changes recorded so far; recording stays on.
    ///
    /// # Errors
    /// [`MeshError::NotRecording`] when no journal is being recorded for `recording` (recording
    /// was never started, or the mesh was replaced by another one).
    pub fn take_changes(&mut self, recording: &Recording) -> Result<Vec<Change>, MeshError> {
        match self.journal.as_mut() {
            Some(j) if j.owner == recording.id() => Ok(core::mem::take(&mut j.changes)),
            _ => Err(MeshError::NotRecording),
        }
    }

    /// Stops recording and returns what was recorded.
    ///
    /// # Errors
    /// [`MeshError::NotRecording`] as for [`take_changes`](Self::take_changes); a journal that
    /// belongs to another recording is left running.
    pub fn stop_recording(&mut self, recording: Recording) -> Result<Vec<Change>, MeshError> {
        match self.journal.take() {
            Some(j) if j.owner == recording.id() => Ok(j.changes),
            other => {
                self.journal = other;
                Err(MeshError::NotRecording)
            }
        }
    }

    /// Drops any journal being recorded, whoever started it; its [`Recording`] then gets
    /// [`MeshError::NotRecording`]. For a mesh taken over from code that left a journal on.
    pub fn discard_journal(&mut self) {
        self.journal = None;
    }

    /// Every mutating operation calls this: it also marks the state as changed for undo logs
    /// (clears the state stamp).
    #[inline]
    pub(crate) fn log(&mut self, change: impl FnOnce() -> Change) {
        self.undo.stamp = 0;
        if let Some(j) = self.journal.as_mut() {
            j.changes.push(change());
        }
    }
}
