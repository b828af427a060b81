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
            index: index as u32,
            old,
            new,
        }
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
