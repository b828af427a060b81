//! The records of an undo log and how one is applied (checked first, then written).

use crate::{Edge, Face, Mesh, Vertex};

/// Which array or counter a write touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Target {
    VertexEdge,
    FaceEdge,
    PrimalOrigin,
    PrimalNext,
    DualOrigin,
    DualNext,
    FreeVertices,
    FreeFaces,
    FreeQuads,
    LiveVertices,
    LiveFaces,
    LiveQuads,
}

/// What a write did to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Op {
    /// `target[index]` went from `old` to `new` (a counter: `index` 0).
    Set,
    /// `new` was appended at `index` (the length before).
    Push,
    /// The primal edge `index` was flipped ([`crate::Mesh::flip`]); `old` and `new` are the
    /// edges its left and right faces named before, `flags` which of its two ends named it
    /// (bit 0: the origin, bit 1: the destination). One record for a flip's twenty writes:
    /// the rest of the old state is read back off the flipped quad.
    Flip,
    /// The inverse of [`Op::Flip`]: the edge `index`, flipped, is turned back.
    Unflip,
    /// Face `index` was split by the new vertex `old` ([`crate::Mesh::split_face_compact`]);
    /// `flags` say how many ids came off each free list. One record for about seventy writes.
    FaceSplit,
    /// The inverse of [`Op::FaceSplit`].
    Unsplit,
    /// `old` was removed from `index` (the new length).
    Pop,
    /// `old` copies of `new` were appended at `index`.
    Extend,
    /// `old` copies of `new` were removed from `index` (the new length).
    Shrink,
    /// The whole topology was rewritten: `index` names a `[before, after]` pair of copies,
    /// `old` is 1 when it is applied from `after` back to `before`.
    Whole,
}

/// One recorded write: 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Write {
    target: Target,
    op: Op,
    flags: u8,
    index: u32,
    old: u32,
    new: u32,
}

impl Write {
    #[inline(always)]
    pub(crate) fn new(target: Target, op: Op, index: usize, old: u32, new: u32) -> Self {
        Self {
            target,
            op,
            flags: 0,
            index: index as u32,
            old,
            new,
        }
    }

    /// The record of a flip of primal edge `e` (see [`Op::Flip`]): the edges its faces named
    /// before, and whether its origin and destination named it.
    #[inline(always)]
    pub(crate) fn flip(e: Edge, faces: [Edge; 2], ends: [bool; 2]) -> Self {
        Self {
            target: Target::PrimalNext,
            op: Op::Flip,
            flags: u8::from(ends[0]) | (u8::from(ends[1]) << 1),
            index: e.0,
            old: faces[0].0,
            new: faces[1].0,
        }
    }

    /// The record of a split of face `f` by the new vertex `v` (see [`Op::FaceSplit`]).
    #[inline(always)]
    pub(crate) fn face_split(f: Face, v: Vertex, flags: u8) -> Self {
        Self {
            target: Target::FaceEdge,
            op: Op::FaceSplit,
            flags,
            index: f.0,
            old: v.0,
            new: 0,
        }
    }

    /// The face, the vertex and the flags of a face-split record.
    pub(crate) fn split_parts(self) -> (Face, Vertex, u8) {
        (Face(self.index), Vertex(self.old), self.flags)
    }

    /// The write that takes the state after `self` back to the state before it.
    pub(crate) fn inverse(self) -> Self {
        let (op, old, new) = match self.op {
            Op::Set => (Op::Set, self.new, self.old),
            Op::Push => (Op::Pop, self.new, 0),
            Op::Pop => (Op::Push, 0, self.old),
            Op::Extend => (Op::Shrink, self.old, self.new),
            Op::Shrink => (Op::Extend, self.old, self.new),
            Op::Whole => (Op::Whole, self.old ^ 1, 0),
            Op::Flip => (Op::Unflip, self.old, self.new),
            Op::Unflip => (Op::Flip, self.old, self.new),
            Op::FaceSplit => (Op::Unsplit, self.old, self.new),
            Op::Unsplit => (Op::FaceSplit, self.old, self.new),
        };
        Self {
            op,
            old,
            new,
            ..self
        }
    }
}

impl Write {
    /// The same write with a whole-rewrite index counted from `base` (for replaying the tail
    /// of a recorder's pairs split off at `base`).
    pub(crate) fn rebased(self, base: usize) -> Self {
        if self.op == Op::Whole {
            Self {
                index: self.index - base as u32,
                ..self
            }
        } else {
            self
        }
    }
}

/// A before/after pair of whole-topology copies, for rewrites that touch everything.
pub(crate) type WholePair = [Box<Mesh>; 2];

/// The writes recorded since the log was started or last taken.
#[derive(Clone, Debug)]
pub(crate) struct Recorder {
    /// State stamp of the mesh when recording (re)started.
    pub(crate) start: u64,
    /// Array lengths then.
    pub(crate) start_lens: [u32; 9],
    pub(crate) writes: Vec<Write>,
    pub(crate) wholes: Vec<WholePair>,
}

impl Recorder {
    #[inline(always)]
    pub(crate) fn push(&mut self, w: Write) {
        self.writes.push(w);
    }

    pub(crate) fn push_whole(&mut self, pair: WholePair) {
        let k = self.wholes.len();
        self.wholes.push(pair);
        self.writes
            .push(Write::new(Target::VertexEdge, Op::Whole, k, 0, 0));
    }
}

/// A u32 id stored in the topology arrays.
trait Raw: Copy + PartialEq {
    fn to_raw(self) -> u32;
    fn from_raw(raw: u32) -> Self;
}

macro_rules! raw_id {
    ($($t:ty),*) => {$(
        impl Raw for $t {
            #[inline(always)]
            fn to_raw(self) -> u32 {
                self.0
            }
            #[inline(always)]
            fn from_raw(raw: u32) -> Self {
                Self(raw)
            }
        }
    )*};
}
raw_id!(Edge, Vertex, Face);

impl Raw for u32 {
    fn to_raw(self) -> u32 {
        self
    }
    fn from_raw(raw: u32) -> Self {
        raw
    }
}

/// Applies `w` to `v` if `v` is in the state `w` starts from; `false` (and `v` untouched)
/// otherwise.
fn apply_vec<T: Raw>(v: &mut Vec<T>, w: Write) -> bool {
    let i = w.index as usize;
    match w.op {
        Op::Set => match v.get_mut(i) {
            Some(x) if x.to_raw() == w.old => {
                *x = T::from_raw(w.new);
                true
            }
            _ => false,
        },
        Op::Push if v.len() == i => {
            v.push(T::from_raw(w.new));
            true
        }
        Op::Pop if v.len() == i + 1 && v[i].to_raw() == w.old => {
            v.pop();
            true
        }
        Op::Extend if v.len() == i => {
            if v.try_reserve_exact(w.old as usize).is_err() {
                return false;
            }
            v.resize(i + w.old as usize, T::from_raw(w.new));
            true
        }
        Op::Shrink
            if v.len() == i + w.old as usize && v[i..].iter().all(|x| x.to_raw() == w.new) =>
        {
            v.truncate(i);
            true
        }
        _ => false,
    }
}

impl Mesh {
    /// Lengths of the nine arrays, the cheap first test that a log fits this mesh.
    pub(crate) fn array_lens(&self) -> [u32; 9] {
        [
            self.vertex_edge.len(),
            self.face_edge.len(),
            self.primal_origin.len(),
            self.primal_next.len(),
            self.dual_origin.len(),
            self.dual_next.len(),
            self.free_vertices.len(),
            self.free_faces.len(),
            self.free_quads.len(),
        ]
        .map(|n| n as u32)
    }

    /// Applies one write if the mesh is in the state it starts from (`false` and nothing
    /// changed otherwise), and records it when an undo log is on.
    pub(crate) fn apply_write(&mut self, w: Write, wholes: &[WholePair]) -> bool {
        let ok = match w.target {
            _ if w.op == Op::Flip => self.apply_flip(w),
            _ if w.op == Op::Unflip => self.apply_unflip(w),
            _ if w.op == Op::FaceSplit => self.apply_face_split(w),
            _ if w.op == Op::Unsplit => self.apply_face_unsplit(w),
            _ if w.op == Op::Whole => {
                let Some(pair) = wholes.get(w.index as usize) else {
                    return false;
                };
                let (from, to) = if w.old == 0 {
                    (&pair[0], &pair[1])
                } else {
                    (&pair[1], &pair[0])
                };
                if *self != **from {
                    return false;
                }
                self.copy_topology_from(to);
                if let Some(r) = self.undo.rec.as_deref_mut() {
                    r.push_whole([
                        Box::new(from.topology_clone()),
                        Box::new(to.topology_clone()),
                    ]);
                }
                return true;
            }
            Target::VertexEdge => apply_vec(&mut self.vertex_edge, w),
            Target::FaceEdge => apply_vec(&mut self.face_edge, w),
            Target::PrimalOrigin => apply_vec(&mut self.primal_origin, w),
            Target::PrimalNext => apply_vec(&mut self.primal_next, w),
            Target::DualOrigin => apply_vec(&mut self.dual_origin, w),
            Target::DualNext => apply_vec(&mut self.dual_next, w),
            Target::FreeVertices => apply_vec(&mut self.free_vertices, w),
            Target::FreeFaces => apply_vec(&mut self.free_faces, w),
            Target::FreeQuads => apply_vec(&mut self.free_quads, w),
            Target::LiveVertices => apply_counter(&mut self.live_vertices, w),
            Target::LiveFaces => apply_counter(&mut self.live_faces, w),
            Target::LiveQuads => apply_counter(&mut self.live_quads, w),
        };
        if ok && let Some(r) = self.undo.rec.as_deref_mut() {
            r.push(w);
        }
        ok
    }
}

fn apply_counter(c: &mut u32, w: Write) -> bool {
    if w.op == Op::Set && w.index == 0 && *c == w.old {
        *c = w.new;
        true
    } else {
        false
    }
}

/// The quad of a flip: its four outer edges, the ends `[a, b]` of the flipped edge, its faces
/// and its opposite corners `[c, d]`.
type FlipQuad = ([Edge; 4], [Vertex; 2], [Face; 2], [Vertex; 2]);

impl Mesh {
    /// The flipped quad of a live interior primal edge `e` (a → b): `[ln, lp, rn, rp]`
    /// (b → c, c → a, a → d, d → b), the ends `[a, b]`, the faces `[fl, fr]`, `[c, d]`; `None`
    /// for an edge that is dead, dual or on the boundary.
    fn flip_quad(&self, e: Edge) -> Option<FlipQuad> {
        if e.is_dual() || !self.is_edge_alive(e) {
            return None;
        }
        let (fl, fr) = (self.left(e), self.right(e));
        if !fl.is_valid() || !fr.is_valid() {
            return None;
        }
        let es = e.sym();
        let quad = [
            self.oprev(es),
            self.onext(e).sym(),
            self.oprev(e),
            self.onext(es).sym(),
        ];
        if !self.all_alive([e, es, quad[0], quad[1]]) || !self.all_alive([quad[2], quad[3], e, e]) {
            return None;
        }
        let ab = [
            self.primal_origin[e.index()],
            self.primal_origin[es.index()],
        ];
        let cd = [quad[1], quad[3]].map(|x| self.primal_origin[x.index()]);
        Some((quad, ab, [fl, fr], cd))
    }

    /// Redoes a recorded flip if the mesh is in the state it was made from (its faces name
    /// the recorded edges, its ends as recorded, no parallel edge would result).
    fn apply_flip(&mut self, w: Write) -> bool {
        let e = Edge(w.index);
        let Some((quad, [a, b], [fl, fr], [c, d])) = self.flip_quad(e) else {
            return false;
        };
        let fits = self.face_edge.get(fl.index()) == Some(&Edge(w.old))
            && self.face_edge.get(fr.index()) == Some(&Edge(w.new))
            && (self.vertex_edge[a.index()] == e) == (w.flags & 1 != 0)
            && (self.vertex_edge[b.index()] == e.sym()) == (w.flags & 2 != 0)
            && c != d
            && !self.ring_reaches(quad[0].sym(), quad[1], d);
        if fits {
            self.flip_writes(e, quad, [a, b], [fl, fr]);
        }
        fits
    }

    /// Turns a recorded flip back if the mesh is in the state it left (the flipped edge `e`,
    /// d → c, named by both its faces and, as recorded, by the ends it took over): every
    /// slot the flip wrote gets its old value, read off the quad or from the record.
    fn apply_unflip(&mut self, w: Write) -> bool {
        let e = Edge(w.index);
        let es = e.sym();
        // After the flip: lp = c → a is before e.sym() around c, ln = b → c after it; rp =
        // d → b is before e around d, rn = a → d after it.
        if e.is_dual() || !self.is_edge_alive(e) {
            return false;
        }
        let (fl, fr) = (self.left(e), self.right(e));
        if !fl.is_valid() || !fr.is_valid() {
            return false;
        }
        let (lp, ln) = (self.oprev(es), self.onext(es).sym());
        let (rp, rn) = (self.oprev(e), self.onext(e).sym());
        if !self.all_alive([lp, ln, rp, rn]) || !self.all_alive([e, es, e, e]) {
            return false;
        }
        let (a, b) = (
            self.primal_origin[rn.index()],
            self.primal_origin[ln.index()],
        );
        let fits = self.face_edge.get(fl.index()) == Some(&e)
            && self.face_edge.get(fr.index()) == Some(&es)
            && (w.flags & 1 == 0 || self.vertex_edge[a.index()] == rn)
            && (w.flags & 2 == 0 || self.vertex_edge[b.index()] == ln)
            && a != b;
        if !fits {
            return false;
        }
        // The origin rings as they were: a and b get the edge back, c and d lose it.
        self.set_next::<false>(rn, e);
        self.set_next::<false>(ln, es);
        self.set_next::<false>(lp, ln.sym());
        self.set_next::<false>(es, rp.sym());
        self.set_next::<false>(rp, rn.sym());
        self.set_next::<false>(e, lp.sym());
        self.set_primal_origin::<false>(e.index(), a);
        self.set_primal_origin::<false>(es.index(), b);
        self.set_dual_origin::<false>(ln.index() ^ 1, fl);
        self.set_dual_origin::<false>(rn.index() ^ 1, fr);
        self.set_face_edge::<false>(fl.index(), Edge(w.old));
        self.set_face_edge::<false>(fr.index(), Edge(w.new));
        if w.flags & 1 != 0 {
            self.set_vertex_edge::<false>(a.index(), e);
        }
        if w.flags & 2 != 0 {
            self.set_vertex_edge::<false>(b.index(), es);
        }
        true
    }

    /// Are these primal edges alive and their origins live vertices (so that a record read
    /// against a tampered mesh is refused, not a panic)?
    fn all_alive(&self, edges: [Edge; 4]) -> bool {
        edges.iter().all(|&x| {
            x.is_primal()
                && self.is_edge_alive(x)
                && self.primal_origin[x.index()].index() < self.vertex_edge.len()
        })
    }
}
