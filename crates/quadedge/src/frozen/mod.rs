//! [`FrozenMesh`]: a compact, read-only copy of a [`Mesh`](crate::Mesh) for fast queries, kept
//! beside the editable mesh the way path-finding engines keep a static mesh beside their
//! dynamic one.
//!
//! See [`FrozenMesh`] for the layout.

mod build;
mod check;

pub use check::FrozenParts;

use crate::{Edge, Face, MeshError, Topology, Vertex};
use core::fmt;
use core::ops::Range;

/// Flag in `dest`: the face left of this half-edge is a hole.
const HOLE: u32 = 1 << 31;
/// Flag in `dest`: this half-edge is the even edge of its quad-edge (`Edge::is_even`).
const EVEN: u32 = 1 << 30;
/// Vertex id bits of a `dest` or `face_corner` entry.
const ID: u32 = EVEN - 1;
/// Shift of the rotation (0..=2) stored in the top bits of `face_corner`.
const ROT_SHIFT: u32 = 30;
/// A `face_rank` entry too large for a byte: the rank is found by scanning a ring.
const RANK_UNKNOWN: u8 = u8::MAX;
/// Vertex ids must fit below the flag bits.
pub const MAX_FROZEN_VERTICES: usize = ID as usize;

/// Why a frozen mesh could not be made, loaded or thawed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrozenError {
    /// The mesh has removed elements: compact or reorder it first.
    HasHoles,
    /// The mesh's quad-edges or faces are not numbered in sweep order: call
    /// [`Mesh::reorder_vertices`](crate::Mesh::reorder_vertices) first (the identity order
    /// keeps vertex ids).
    NotInSweepOrder,
    /// More than [`MAX_FROZEN_VERTICES`] vertices, or more half-edges than 31-bit ids allow.
    TooLarge,
    /// The mesh failed [`Mesh::check`](crate::Mesh::check).
    Mesh(MeshError),
    /// The frozen arrays break an invariant (a corrupt or hostile file).
    Corrupt(String),
}

impl fmt::Display for FrozenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::HasHoles => write!(f, "the mesh has removed elements; compact it first"),
            Self::NotInSweepOrder => write!(
                f,
                "the mesh is not in sweep order; call reorder_vertices first"
            ),
            Self::TooLarge => write!(f, "too many elements for a frozen mesh"),
            Self::Mesh(e) => write!(f, "the mesh is invalid: {e}"),
            Self::Corrupt(s) => write!(f, "frozen mesh invariant broken: {s}"),
        }
    }
}

impl std::error::Error for FrozenError {}

/// A compact, read-only triangle mesh: primal and dual traversal in about 50 bytes per
/// vertex, neighbour sweeps at the speed of a CSR adjacency, beside the editable mesh the way
/// path-finding engines keep a static mesh beside their dynamic one.
///
/// Layout ("ring CSR"): the outgoing half-edges of each vertex are stored together,
/// counter-clockwise from the mesh's ring entry edge, as one destination each. The neighbours
/// of a vertex are then one contiguous slice, so a neighbour sweep is a compressed-sparse-row
/// sweep. Everything else is derived from the rings on demand:
///
/// * the face left of half-edge `v → w` is `(v, w, x)` with `x` the next destination around
///   `v`; a face's id is counted at its smallest corner (`face_start` per vertex plus the rank
///   among that vertex's smallest corners), which is exactly how
///   [`Mesh::reorder_vertices`](crate::Mesh::reorder_vertices) numbers faces;
/// * edge ids likewise (`edge_start` per vertex, an edge counted at its smaller end), with the
///   quad-edge's orientation in one flag bit;
/// * the twin of `v → w` is found by scanning the short ring of `w`.
///
/// * the id of the face left of a half-edge is `face_start[m] + rank` with `m` its smallest
///   corner and `rank` one byte stored beside the half-edge, so faces around a vertex cost
///   no scan.
///
/// Closed triangle mesh: 6 half-edges × 5 bytes + 3 per-vertex prefix arrays × 4 bytes + 2
/// faces × 4 bytes = 50 bytes per vertex (the editable mesh holds 108).
///
/// Freezing needs a mesh in *sweep order* (the order
/// [`Mesh::reorder_vertices`](crate::Mesh::reorder_vertices) produces: call
/// it with a Hilbert order, or with the identity to keep vertex ids) so that every [`Vertex`],
/// [`Face`] and [`Edge`] id is shared by both meshes and every layer serves both.
///
/// Costs: [`neighbors`](Self::neighbors) and [`degree`](Self::degree) read one slice;
/// [`face_vertices`](Self::face_vertices), [`find_edge`](Self::find_edge) and every
/// twin scan one ring (`O(degree)`); [`vertex_faces`](Self::vertex_faces) reads one slice and
/// one prefix entry per face.
///
/// Made by [`FrozenMesh::freeze`], turned back into an editable mesh by
/// [`FrozenMesh::thaw`], loaded from untrusted arrays by [`FrozenMesh::from_parts`] (and by
/// serde, behind the `serde` feature), which validate everything. Queries take ids of this
/// mesh; like slice indexing they panic on ids past the end.
#[derive(Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "FrozenParts")
)]
pub struct FrozenMesh {
    /// Per vertex (+1): first slot of its ring in `dest`.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    ring_start: Vec<u32>,
    /// Per half-edge, grouped by origin vertex counter-clockwise: destination id | flags.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    dest: Vec<u32>,
    /// Per vertex (+1): first edge counted at it (edges are counted at their smaller end).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    edge_start: Vec<u32>,
    /// Per vertex (+1): first face counted at it (faces are counted at their smallest corner).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    face_start: Vec<u32>,
    /// Per face: its smallest corner | rotation of the mesh's face entry edge.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    face_corner: Vec<u32>,
    /// Per half-edge: the rank of its left face among the faces counted at that face's
    /// smallest corner ([`RANK_UNKNOWN`] past 254: found by a scan), 0 for a hole.
    face_rank: Vec<u8>,
}

impl fmt::Debug for FrozenMesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FrozenMesh {{ vertices: {}, edges: {}, faces: {} }}",
            self.vertex_count(),
            self.undirected_edge_count(),
            self.face_count()
        )
    }
}

impl FrozenMesh {
    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.ring_start.len().saturating_sub(1)
    }

    /// Number of faces.
    #[inline]
    pub fn face_count(&self) -> usize {
        self.face_corner.len()
    }

    /// Number of undirected edges.
    #[inline]
    pub fn undirected_edge_count(&self) -> usize {
        self.dest.len() / 2
    }

    /// Heap memory held by the arrays (capacity), in bytes.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.ring_start.capacity()
            + self.dest.capacity()
            + self.edge_start.capacity()
            + self.face_start.capacity()
            + self.face_corner.capacity())
            + self.face_rank.capacity()
    }

    /// Slots of `v`'s ring in `dest`.
    #[inline]
    fn ring(&self, v: u32) -> Range<usize> {
        self.ring_start[v as usize] as usize..self.ring_start[v as usize + 1] as usize
    }

    /// The slot after `j` counter-clockwise in `ring`.
    #[inline]
    fn next_slot(ring: &Range<usize>, j: usize) -> usize {
        if j + 1 == ring.end { ring.start } else { j + 1 }
    }

    /// The slot of half-edge `a → b` in `a`'s ring.
    #[inline]
    fn slot_to(&self, a: u32, b: u32) -> Option<usize> {
        let r = self.ring(a);
        let start = r.start;
        self.dest[r]
            .iter()
            .position(|&d| d & ID == b)
            .map(|k| start + k)
    }

    /// Is slot `j` of `m`'s ring (in `ring`) the smallest corner of its face?
    #[inline]
    fn is_face_corner(&self, m: u32, ring: &Range<usize>, j: usize) -> bool {
        let d = self.dest[j];
        d & HOLE == 0 && d & ID > m && self.dest[Self::next_slot(ring, j)] & ID > m
    }

    /// The face left of slot `j` of `v`'s ring: counted at its smallest corner `m`, at the
    /// rank stored beside the slot (a scan of `m`'s ring only past rank 254).
    #[inline]
    fn left_face_at(&self, v: u32, j: usize) -> Face {
        let d = self.dest[j];
        if d & HOLE != 0 {
            return Face::INVALID;
        }
        let w = d & ID;
        let x = self.dest[Self::next_slot(&self.ring(v), j)] & ID;
        let m = v.min(w).min(x);
        let rank = self.face_rank[j];
        if rank != RANK_UNKNOWN {
            return Face::new(self.face_start[m as usize] + u32::from(rank));
        }
        let slot = if m == v {
            Some(j)
        } else if m == w {
            self.slot_to(w, x)
        } else {
            self.slot_to(x, v)
        };
        match slot {
            Some(slot) => Face::new(self.face_start[m as usize] + self.corner_rank(m, slot)),
            None => Face::INVALID,
        }
    }

    /// How many faces counted at `m` come before slot `slot` of its ring.
    fn corner_rank(&self, m: u32, slot: usize) -> u32 {
        let ring = self.ring(m);
        (ring.start..slot)
            .filter(|&k| self.is_face_corner(m, &ring, k))
            .count() as u32
    }

    /// The primal edge id of slot `j` of `v`'s ring.
    fn edge_at(&self, v: u32, j: usize) -> Edge {
        let d = self.dest[j];
        let w = d & ID;
        let (owner, slot) = if v < w {
            (v, Some(j))
        } else {
            (w, self.slot_to(w, v))
        };
        let Some(slot) = slot else {
            return Edge::INVALID;
        };
        let ring = self.ring(owner);
        let rank = self.dest[ring.start..slot]
            .iter()
            .filter(|&&x| x & ID > owner)
            .count() as u32;
        let q = self.edge_start[owner as usize] + rank;
        Edge::primal(2 * q + u32::from(d & EVEN == 0))
    }

    /// The slot of the `k`-th face counted at `m`.
    fn face_slot(&self, m: u32, k: u32) -> usize {
        let ring = self.ring(m);
        ring.clone()
            .filter(|&j| self.is_face_corner(m, &ring, j))
            .nth(k as usize)
            .unwrap_or(ring.start)
    }

    /// Neighbour vertices of `v`, counter-clockwise from the mesh's ring entry edge: one
    /// contiguous slice.
    #[inline]
    pub fn neighbors(&self, v: Vertex) -> impl ExactSizeIterator<Item = Vertex> + '_ {
        self.dest[self.ring(v.raw())]
            .iter()
            .map(|&d| Vertex::new(d & ID))
    }

    /// Faces around `v`, counter-clockwise; holes skipped.
    pub fn vertex_faces(&self, v: Vertex) -> impl Iterator<Item = Face> + '_ {
        let r = self.ring(v.raw());
        r.filter(|&j| self.dest[j] & HOLE == 0)
            .map(move |j| self.left_face_at(v.raw(), j))
    }

    /// Outgoing primal edges of `v`, counter-clockwise, with the mesh's edge ids.
    pub fn outgoing(&self, v: Vertex) -> impl Iterator<Item = Edge> + '_ {
        self.ring(v.raw()).map(move |j| self.edge_at(v.raw(), j))
    }

    /// Number of edges at `v`.
    #[inline]
    pub fn degree(&self, v: Vertex) -> usize {
        self.ring(v.raw()).len()
    }

    /// The three corners of `f`, counter-clockwise, starting where the mesh's face entry edge
    /// starts.
    pub fn face_vertices(&self, f: Face) -> [Vertex; 3] {
        let c = self.face_corner[f.index()];
        let m = c & ID;
        let rot = (c >> ROT_SHIFT) as usize;
        let ring = self.ring(m);
        let j = self.face_slot(m, f.raw() - self.face_start[m as usize]);
        let corners = [
            m,
            self.dest[j] & ID,
            self.dest[Self::next_slot(&ring, j)] & ID,
        ];
        [0, 1, 2].map(|k| Vertex::new(corners[(rot + k) % 3]))
    }

    /// The faces across the three edges of `f` (in [`face_vertices`](Self::face_vertices)
    /// order), [`Face::INVALID`] across the boundary.
    pub fn face_neighbors(&self, f: Face) -> [Face; 3] {
        let c = self.face_vertices(f).map(Vertex::raw);
        [0, 1, 2].map(|k| {
            let (a, b) = (c[k], c[(k + 1) % 3]);
            match self.slot_to(b, a) {
                Some(j) => self.left_face_at(b, j),
                None => Face::INVALID,
            }
        })
    }

    /// The primal edge from `a` to `b` (the mesh's id), if they are connected.
    pub fn find_edge(&self, a: Vertex, b: Vertex) -> Option<Edge> {
        if a.index() >= self.vertex_count() {
            return None;
        }
        self.slot_to(a.raw(), b.raw())
            .map(|j| self.edge_at(a.raw(), j))
    }

    /// Is `v` on the boundary (or isolated)?
    pub fn is_boundary_vertex(&self, v: Vertex) -> bool {
        let r = self.ring(v.raw());
        r.is_empty() || self.dest[r].iter().any(|&d| d & HOLE != 0)
    }

    /// Is there no boundary edge at all?
    pub fn is_closed(&self) -> bool {
        self.dest.iter().all(|&d| d & HOLE == 0)
    }
}

impl Topology for FrozenMesh {
    fn vertex_count(&self) -> usize {
        FrozenMesh::vertex_count(self)
    }
    fn face_count(&self) -> usize {
        FrozenMesh::face_count(self)
    }
    fn undirected_edge_count(&self) -> usize {
        FrozenMesh::undirected_edge_count(self)
    }
    fn vertex_slots(&self) -> usize {
        FrozenMesh::vertex_count(self)
    }
    fn face_slots(&self) -> usize {
        FrozenMesh::face_count(self)
    }
    fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        (0..self.vertex_count() as u32).map(Vertex::new)
    }
    fn faces(&self) -> impl Iterator<Item = Face> + '_ {
        (0..self.face_count() as u32).map(Face::new)
    }
    fn neighbors(&self, v: Vertex) -> impl Iterator<Item = Vertex> + '_ {
        FrozenMesh::neighbors(self, v)
    }
    fn vertex_faces(&self, v: Vertex) -> impl Iterator<Item = Face> + '_ {
        FrozenMesh::vertex_faces(self, v)
    }
    fn degree(&self, v: Vertex) -> usize {
        FrozenMesh::degree(self, v)
    }
    fn face_vertices(&self, f: Face) -> [Vertex; 3] {
        FrozenMesh::face_vertices(self, f)
    }
    fn face_neighbors(&self, f: Face) -> [Face; 3] {
        FrozenMesh::face_neighbors(self, f)
    }
    fn find_edge(&self, a: Vertex, b: Vertex) -> Option<Edge> {
        FrozenMesh::find_edge(self, a, b)
    }
    fn is_boundary_vertex(&self, v: Vertex) -> bool {
        FrozenMesh::is_boundary_vertex(self, v)
    }
    fn is_closed(&self) -> bool {
        FrozenMesh::is_closed(self)
    }
}
