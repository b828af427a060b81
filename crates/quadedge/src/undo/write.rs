//! The only way edits write the topology: every write goes through these helpers, which record
//! what they overwrite when `LOG` is set. Edits are generic over `const LOG: bool` and test
//! whether a log is on once, so the plain path is the same code as before the log existed
//! (a per-write test measured 20–25% slower flips).

use super::log::{Op, Target, Write};
use crate::{Edge, Face, Mesh, Vertex};

/// Generates the set / push helpers of one topology array.
macro_rules! array_writers {
    ($set:ident, $push:ident, $field:ident, $ty:ty, $target:expr) => {
        #[doc = concat!("Writes `", stringify!($field), "[i]`, recording the old value when the undo log is on.")]
        #[inline(always)]
        pub(crate) fn $set<const LOG: bool>(&mut self, i: usize, x: $ty) {
            if LOG {
                self.record(Write::new($target, Op::Set, i, self.$field[i].0, x.0));
            }
            self.$field[i] = x;
        }

        #[doc = concat!("Appends to `", stringify!($field), "`, recording it when the undo log is on.")]
        #[inline(always)]
        pub(crate) fn $push<const LOG: bool>(&mut self, x: $ty) {
            if LOG {
                self.record(Write::new($target, Op::Push, self.$field.len(), 0, x.0));
            }
            self.$field.push(x);
        }
    };
}

impl Mesh {
    /// Appends a write to the undo log (only reached with `LOG` set).
    #[inline]
    pub(crate) fn record(&mut self, w: Write) {
        if let Some(r) = self.undo.rec.as_deref_mut() {
            r.push(w);
        }
    }

    array_writers!(
        set_vertex_edge,
        push_vertex_edge,
        vertex_edge,
        Edge,
        Target::VertexEdge
    );
    array_writers!(
        set_face_edge,
        push_face_edge,
        face_edge,
        Edge,
        Target::FaceEdge
    );
    array_writers!(
        set_primal_origin,
        push_primal_origin,
        primal_origin,
        Vertex,
        Target::PrimalOrigin
    );
    array_writers!(
        set_primal_next,
        push_primal_next,
        primal_next,
        Edge,
        Target::PrimalNext
    );
    array_writers!(
        set_dual_origin,
        push_dual_origin,
        dual_origin,
        Face,
        Target::DualOrigin
    );
    array_writers!(
        set_dual_next,
        push_dual_next,
        dual_next,
        Edge,
        Target::DualNext
    );

    /// The free list and the live counter of one element kind.
    #[inline(always)]
    fn kind_fields(&mut self, list: Target) -> (&mut Vec<u32>, &mut u32, Target) {
        match list {
            Target::FreeVertices => (
                &mut self.free_vertices,
                &mut self.live_vertices,
                Target::LiveVertices,
            ),
            Target::FreeFaces => (
                &mut self.free_faces,
                &mut self.live_faces,
                Target::LiveFaces,
            ),
            _ => (
                &mut self.free_quads,
                &mut self.live_quads,
                Target::LiveQuads,
            ),
        }
    }

    /// Pops an id from free list `list` (a `Free*` target), recording it.
    #[inline(always)]
    pub(crate) fn pop_free<const LOG: bool>(&mut self, list: Target) -> Option<u32> {
        let (ids, _, _) = self.kind_fields(list);
        let len = ids.len();
        let id = ids.pop()?;
        if LOG {
            self.record(Write::new(list, Op::Pop, len - 1, id, 0));
        }
        Some(id)
    }

    /// Pushes a released id on free list `list` (a `Free*` target), recording it.
    #[inline(always)]
    pub(crate) fn push_free<const LOG: bool>(&mut self, list: Target, id: u32) {
        let (ids, _, _) = self.kind_fields(list);
        let len = ids.len();
        ids.push(id);
        if LOG {
            self.record(Write::new(list, Op::Push, len, 0, id));
        }
    }

    /// Sets the live count of the kind of free list `list` to `count`, recording it.
    #[inline(always)]
    pub(crate) fn set_live<const LOG: bool>(&mut self, list: Target, count: u32) {
        let (_, live, target) = self.kind_fields(list);
        let old = core::mem::replace(live, count);
        if LOG {
            self.record(Write::new(target, Op::Set, 0, old, count));
        }
    }

    /// Appends `n` isolated vertices (`Edge::INVALID`) in one recorded step.
    pub(crate) fn extend_vertex_edge<const LOG: bool>(&mut self, n: usize) {
        let len = self.vertex_edge.len();
        if LOG {
            self.record(Write::new(
                Target::VertexEdge,
                Op::Extend,
                len,
                n as u32,
                Edge::INVALID.0,
            ));
        }
        self.vertex_edge.resize(len + n, Edge::INVALID);
    }

    /// Starts a bulk rewrite that bypasses the write helpers (compaction, reordering): with
    /// the undo log on, returns a copy of the topology to pass to
    /// [`end_bulk_write`](Self::end_bulk_write), which records the rewrite as a whole.
    pub(crate) fn begin_bulk_write(&self) -> Option<Box<Mesh>> {
        self.undo
            .rec
            .as_ref()
            .map(|_| Box::new(self.topology_clone()))
    }

    /// Ends a bulk rewrite started by [`begin_bulk_write`](Self::begin_bulk_write).
    pub(crate) fn end_bulk_write(&mut self, before: Option<Box<Mesh>>) {
        let Some(before) = before else { return };
        let after = Box::new(self.topology_clone());
        if let Some(r) = self.undo.rec.as_deref_mut() {
            r.push_whole([before, after]);
        }
    }

    /// A copy of the topology alone (no journal, no undo log), with exact capacities.
    pub(crate) fn topology_clone(&self) -> Mesh {
        mesh_with! {
            vertex_edge: copy_of(&self.vertex_edge),
            face_edge: copy_of(&self.face_edge),
            primal_origin: copy_of(&self.primal_origin),
            primal_next: copy_of(&self.primal_next),
            dual_origin: copy_of(&self.dual_origin),
            dual_next: copy_of(&self.dual_next),
            free_vertices: self.free_vertices.clone(),
            free_faces: self.free_faces.clone(),
            free_quads: self.free_quads.clone(),
            live_vertices: self.live_vertices,
            live_faces: self.live_faces,
            live_quads: self.live_quads,
        }
    }

    /// Moves the topology out (leaving this mesh's empty) as a mesh of its own, with exact
    /// capacities like [`topology_clone`](Self::topology_clone)'s; no journal, no undo log.
    pub(crate) fn take_topology(&mut self) -> Mesh {
        mesh_with! {
            vertex_edge: moved(&mut self.vertex_edge),
            face_edge: moved(&mut self.face_edge),
            primal_origin: moved(&mut self.primal_origin),
            primal_next: moved(&mut self.primal_next),
            dual_origin: moved(&mut self.dual_origin),
            dual_next: moved(&mut self.dual_next),
            free_vertices: moved(&mut self.free_vertices),
            free_faces: moved(&mut self.free_faces),
            free_quads: moved(&mut self.free_quads),
            live_vertices: self.live_vertices,
            live_faces: self.live_faces,
            live_quads: self.live_quads,
        }
    }

    /// Replaces the topology by `other`'s (keeping this mesh's journal and undo log).
    pub(crate) fn copy_topology_from(&mut self, other: &Mesh) {
        self.vertex_edge.clone_from(&other.vertex_edge);
        self.face_edge.clone_from(&other.face_edge);
        self.primal_origin.clone_from(&other.primal_origin);
        self.primal_next.clone_from(&other.primal_next);
        self.dual_origin.clone_from(&other.dual_origin);
        self.dual_next.clone_from(&other.dual_next);
        self.free_vertices.clone_from(&other.free_vertices);
        self.free_faces.clone_from(&other.free_faces);
        self.free_quads.clone_from(&other.free_quads);
        self.live_vertices = other.live_vertices;
        self.live_faces = other.live_faces;
        self.live_quads = other.live_quads;
    }
}

/// Arrays at least this long are copied on all cores (with the `rayon` feature).
#[cfg(feature = "rayon")]
const PAR_COPY: usize = 1 << 16;

/// A copy of `v` with exact capacity. With `rayon`, a long one is copied on all cores: the
/// first touch of the fresh pages is most of the cost of a large copy, and it parallelises.
fn copy_of<T: Copy + Send + Sync>(v: &[T]) -> Vec<T> {
    #[cfg(feature = "rayon")]
    if v.len() >= PAR_COPY {
        use rayon::prelude::*;
        let mut out = Vec::with_capacity(v.len());
        out.par_extend(v.par_iter().copied());
        return out;
    }
    v.to_vec()
}

/// `v`'s contents with exact capacity, `v` left empty (shrinking a large buffer remaps its
/// pages rather than copying them).
fn moved<T>(v: &mut Vec<T>) -> Vec<T> {
    let mut v = core::mem::take(v);
    v.shrink_to_fit();
    v
}
