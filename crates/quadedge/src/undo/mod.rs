//! Topology undo by what changed: an undo log of array writes.
//!
//! With the log on ([`Mesh::start_undo_log`]), every write an edit makes to the topology
//! arrays, free lists and live counts is recorded with its old and new value (16 bytes each;
//! a flip writes about 20). [`Mesh::take_undo_log`] hands the writes over as an [`UndoLog`];
//! [`Mesh::undo`] plays it backwards and [`Mesh::redo`] forwards, restoring the mesh
//! bit-identically (`==`, free lists included). Off, the log costs one predictable branch
//! per edit: each edit is generic over `const LOG: bool` and dispatches once.
//!
//! A log only fits the state it was taken from. Every mesh state that a log starts or ends at
//! carries a stamp, unique in the process: edits clear it, taking a log or undoing sets it,
//! clones share it (a clone is the same state). `undo` requires the mesh to carry the log's
//! end stamp and its array lengths, then checks every write against the current value as it
//! goes; any mismatch (another mesh, an edit since, a write that bypassed the log) rolls back
//! what was done and returns a typed error, so a log never leaves a corrupt mesh.
//!
//! Bulk rewrites (`compact`) record a copy of the whole topology before and after: the log of
//! a compaction is as large as two meshes.

mod log;
mod write;

// The parts' edits (`par`, behind `rayon`) write undo ops directly.
#[cfg(feature = "rayon")]
pub(crate) use log::Op;
pub(crate) use log::Target;

/// A point in the running undo log ([`crate::internals::undo_mark`]).
#[derive(Clone, Copy, Debug)]
pub struct UndoMark {
    writes: usize,
    wholes: usize,
    stamp: u64,
}
pub(crate) use log::Write;
use log::{Recorder, WholePair};

use crate::{Mesh, MeshError};

/// The undo state of a mesh: its state stamp and the log being recorded, if any.
#[derive(Clone, Debug, Default)]
pub(crate) struct UndoState {
    /// Names the current state for logs; 0 when unknown (edited since the last stamp).
    pub(crate) stamp: u64,
    pub(crate) rec: Option<Box<Recorder>>,
    /// The buffer of the last private log ([`Mesh::atomically`]), cleared: the next one records
    /// into it instead of growing a fresh one (no reallocation and page faults per edit).
    pub(crate) spare: Vec<Write>,
}

/// Recording buffers larger than this (in writes, 16 bytes each) are released when a take
/// leaves them mostly unused.
const KEPT_WRITES: usize = 1 << 16;

/// Is a recording buffer large and mostly unused (released rather than kept)?
#[allow(clippy::ptr_arg)] // The capacity is the point.
fn idle(writes: &Vec<Write>) -> bool {
    writes.capacity() > KEPT_WRITES && writes.capacity() > 4 * writes.len()
}

/// A fresh, process-unique, non-zero state stamp.
fn fresh_stamp() -> u64 {
    use core::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The topology writes between two mesh states, from [`Mesh::take_undo_log`]: play it back
/// with [`Mesh::undo`], forward again with [`Mesh::redo`]. Opaque; its size is what changed
/// ([`UndoLog::heap_bytes`]), not the size of the mesh.
#[derive(Clone)]
pub struct UndoLog {
    before: u64,
    after: u64,
    before_lens: [u32; 9],
    after_lens: [u32; 9],
    writes: Vec<Write>,
    wholes: Vec<WholePair>,
}

impl UndoLog {
    /// Heap memory held by the log, in bytes.
    pub fn heap_bytes(&self) -> usize {
        self.writes.capacity() * core::mem::size_of::<Write>()
            + self.wholes.capacity() * core::mem::size_of::<WholePair>()
            + self
                .wholes
                .iter()
                .flatten()
                .map(|m| core::mem::size_of::<Mesh>() + m.heap_bytes())
                .sum::<usize>()
    }

    /// Number of recorded writes (a whole-topology rewrite counts as one).
    pub fn len(&self) -> usize {
        self.writes.len()
    }

    /// Does the log change nothing?
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty()
    }

    /// Keeps only the memory the log needs.
    pub fn shrink_to_fit(&mut self) {
        self.writes.shrink_to_fit();
        self.wholes.shrink_to_fit();
    }

    /// The state the log starts at (see [`Mesh::undo_state`]).
    #[doc(hidden)]
    pub fn from_state(&self) -> u64 {
        self.before
    }

    /// The state the log ends at (see [`Mesh::undo_state`]).
    #[doc(hidden)]
    pub fn to_state(&self) -> u64 {
        self.after
    }
}

impl core::fmt::Debug for UndoLog {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "UndoLog {{ writes: {}, whole rewrites: {}, bytes: {} }}",
            self.writes.len(),
            self.wholes.len(),
            self.heap_bytes()
        )
    }
}

impl Mesh {
    /// Starts recording an undo log of every topology write.
    ///
    /// # Errors
    /// [`MeshError::UndoLogOn`] when a log is being recorded already.
    ///
    /// ```
    /// use quadedge::{Mesh, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let before = m.clone();
    /// m.start_undo_log().unwrap();
    /// let e = m.directed_edges().next().unwrap();
    /// m.flip(e).unwrap();
    /// let after = m.clone();
    /// let log = m.take_undo_log().unwrap();
    /// assert!(log.heap_bytes() < 1024);
    /// m.undo(&log).unwrap();
    /// assert_eq!(m, before);
    /// m.redo(&log).unwrap();
    /// assert_eq!(m, after);
    /// ```
    pub fn start_undo_log(&mut self) -> Result<(), MeshError> {
        if self.undo.rec.is_some() {
            return Err(MeshError::UndoLogOn);
        }
        if self.undo.stamp == 0 {
            self.undo.stamp = fresh_stamp();
        }
        let mut writes = core::mem::take(&mut self.undo.spare);
        writes.clear();
        self.undo.rec = Some(Box::new(Recorder {
            start: self.undo.stamp,
            start_lens: self.array_lens(),
            writes,
            wholes: Vec::new(),
        }));
        Ok(())
    }

    /// Is an undo log being recorded?
    pub fn is_undo_logging(&self) -> bool {
        self.undo.rec.is_some()
    }

    /// The id of the mesh's current state for undo logs: process-unique, shared by clones
    /// (a clone is the same state), 0 when the mesh was edited since a log last named its
    /// state. A log taken now would end at this state (a fresh id if 0).
    #[doc(hidden)] // Plumbing of the world's history: matching logs to states.
    pub fn undo_state(&self) -> u64 {
        self.undo.stamp
    }

    /// The state the running undo log starts at, if one is being recorded: a log taken now
    /// would go from there to the current state.
    #[doc(hidden)] // Plumbing of the world's history: matching logs to states.
    pub fn undo_log_start(&self) -> Option<u64> {
        self.undo.rec.as_ref().map(|r| r.start)
    }

    /// Replaces this mesh's topology by `other`'s (this mesh keeps its journal, if any, and
    /// its undo log). With an undo log on, the replacement is recorded as one whole rewrite,
    /// like a compaction's: the log then holds both topologies (the old one moved in, the new
    /// one copied), so an undo brings this mesh back exactly. `other`'s own undo log and
    /// journal are dropped.
    pub fn replace_topology(&mut self, other: Mesh) {
        let mut other = other;
        // The old topology is dropped anyway: with a log on it moves into the log as the
        // state before, and only the new one is copied (on all cores with `rayon`).
        let before = self
            .undo
            .rec
            .is_some()
            .then(|| Box::new(self.take_topology()));
        self.vertex_edge = std::mem::take(&mut other.vertex_edge);
        self.face_edge = std::mem::take(&mut other.face_edge);
        self.primal_origin = std::mem::take(&mut other.primal_origin);
        self.primal_next = std::mem::take(&mut other.primal_next);
        self.dual_origin = std::mem::take(&mut other.dual_origin);
        self.dual_next = std::mem::take(&mut other.dual_next);
        self.free_vertices = std::mem::take(&mut other.free_vertices);
        self.free_faces = std::mem::take(&mut other.free_faces);
        self.free_quads = std::mem::take(&mut other.free_quads);
        self.live_vertices = other.live_vertices;
        self.live_faces = other.live_faces;
        self.live_quads = other.live_quads;
        self.undo.stamp = 0;
        self.end_bulk_write(before);
    }

    /// Takes the writes recorded since the log was started or last taken, as an [`UndoLog`]
    /// from that state to the current one; recording goes on from here.
    ///
    /// # Errors
    /// [`MeshError::UndoLogOff`] when no log is being recorded, [`MeshError::UndoLogHeld`]
    /// when the mesh is lent by a world's guard (its rollback needs the log).
    pub fn take_undo_log(&mut self) -> Result<UndoLog, MeshError> {
        if self.undo.rec.is_none() {
            return Err(MeshError::UndoLogOff);
        }
        if self.lent.is_lent() {
            return Err(MeshError::UndoLogHeld);
        }
        if self.undo.stamp == 0 {
            self.undo.stamp = fresh_stamp();
        }
        let stamp = self.undo.stamp;
        let lens = self.array_lens();
        let r = self.undo.rec.as_deref_mut().ok_or(MeshError::UndoLogOff)?;
        // The log takes the recording buffer itself, trimmed in place (no copy); recording
        // goes on in a buffer of the same room, unless the old one was mostly idle.
        let room = if idle(&r.writes) {
            0
        } else {
            r.writes.capacity()
        };
        let mut writes = core::mem::replace(&mut r.writes, Vec::with_capacity(room));
        writes.shrink_to_fit();
        let log = UndoLog {
            before: r.start,
            after: stamp,
            before_lens: r.start_lens,
            after_lens: lens,
            writes,
            wholes: core::mem::take(&mut r.wholes),
        };
        r.start = stamp;
        r.start_lens = lens;
        Ok(log)
    }

    /// Stops recording and returns what was recorded since the last take.
    ///
    /// # Errors
    /// As [`take_undo_log`](Self::take_undo_log).
    pub fn stop_undo_log(&mut self) -> Result<UndoLog, MeshError> {
        if self.undo.rec.is_some() && self.lent.is_lent() {
            return Err(MeshError::UndoLogHeld);
        }
        let mut log = self.stop_undo_log_untrimmed()?;
        log.writes.shrink_to_fit();
        Ok(log)
    }

    /// [`Mesh::stop_undo_log`] whose log keeps the recording buffer as it is (for
    /// [`Mesh::recycle_undo_log`]).
    pub(crate) fn stop_undo_log_untrimmed(&mut self) -> Result<UndoLog, MeshError> {
        let rec = self.undo.rec.take().ok_or(MeshError::UndoLogOff)?;
        if self.undo.stamp == 0 {
            self.undo.stamp = fresh_stamp();
        }
        let Recorder {
            start,
            start_lens,
            writes,
            wholes,
        } = *rec;
        Ok(UndoLog {
            before: start,
            after: self.undo.stamp,
            before_lens: start_lens,
            after_lens: self.array_lens(),
            writes,
            wholes,
        })
    }

    /// Keeps the buffer of a private log that is no longer needed for the next one (see
    /// [`UndoState::spare`]), unless it is mostly idle.
    pub(crate) fn recycle_undo_log(&mut self, log: UndoLog) {
        let mut writes = log.writes;
        // Mostly idle now, but no larger than twice the topology: kept too, or the next mass
        // edit (a motion after a small insertion) grows it again from nothing, with a page
        // fault per 4 KiB.
        let room = 2 * self.heap_bytes() / core::mem::size_of::<Write>();
        let keep = !idle(&writes) || writes.capacity() <= room;
        if keep && writes.capacity() > self.undo.spare.capacity() {
            // Cleared: a clone of the mesh copies no stale writes.
            writes.clear();
            self.undo.spare = writes;
        }
    }

    /// Takes the mesh back from the state at the end of `log` to the state at its start,
    /// bit-identically. With an undo log on, the writes are recorded like an edit's.
    ///
    /// Does not write the change journal: data layers are restored by their own history.
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::UndoStateMismatch`] when the mesh is not in the state the
    /// log ends at (another mesh, or edited since); [`MeshError::UndoContentMismatch`] when
    /// the stamps agree but the arrays do not (a write bypassed the log).
    pub fn undo(&mut self, log: &UndoLog) -> Result<(), MeshError> {
        if self.undo.stamp != log.after || self.array_lens() != log.after_lens {
            return Err(MeshError::UndoStateMismatch);
        }
        let inverse = log.writes.iter().rev().map(|w| w.inverse());
        self.play(inverse, log.writes.iter().copied(), &log.wholes)?;
        self.undo.stamp = log.before;
        Ok(())
    }

    /// Takes the mesh from the state at the start of `log` to the state at its end: the
    /// inverse of [`undo`](Self::undo).
    ///
    /// # Errors
    /// As [`undo`](Self::undo), for the state the log starts at.
    pub fn redo(&mut self, log: &UndoLog) -> Result<(), MeshError> {
        if self.undo.stamp != log.before || self.array_lens() != log.before_lens {
            return Err(MeshError::UndoStateMismatch);
        }
        let back = log.writes.iter().rev().map(|w| w.inverse());
        self.play(log.writes.iter().copied(), back, &log.wholes)?;
        self.undo.stamp = log.after;
        Ok(())
    }

    /// Where the running undo log stands: pass it to [`Mesh::rollback_to_mark`] to take the
    /// mesh back to this state without a copy. `None` when no log is being recorded.
    pub(crate) fn undo_mark(&self) -> Option<UndoMark> {
        self.undo.rec.as_ref().map(|r| UndoMark {
            writes: r.writes.len(),
            wholes: r.wholes.len(),
            stamp: self.undo.stamp,
        })
    }

    /// Takes the mesh back to the state of `mark` by playing the writes recorded since then
    /// backwards, and forgets them: the log goes on as if they were never made. Costs what
    /// was written since the mark, never a copy of the mesh.
    pub(crate) fn rollback_to_mark(&mut self, mark: UndoMark) {
        let Some(mut rec) = self.undo.rec.take() else {
            debug_assert!(false, "rollback_to_mark: the log was stopped");
            return;
        };
        let wholes = rec.wholes.split_off(mark.wholes.min(rec.wholes.len()));
        let base = mark.wholes;
        for w in rec.writes.drain(mark.writes.min(rec.writes.len())..).rev() {
            let w = w.inverse().rebased(base);
            let ok = self.apply_write(w, &wholes);
            debug_assert!(ok, "rollback of a recorded write cannot fail");
        }
        self.undo.stamp = mark.stamp;
        self.undo.rec = Some(rec);
    }

    /// Applies `writes`; on the first that does not fit, plays the matching tail of
    /// `rollback` (the inverses, in reverse order) over what was applied and fails.
    fn play(
        &mut self,
        writes: impl ExactSizeIterator<Item = Write>,
        rollback: impl DoubleEndedIterator<Item = Write> + ExactSizeIterator,
        wholes: &[WholePair],
    ) -> Result<(), MeshError> {
        let total = writes.len();
        let mark = self
            .undo
            .rec
            .as_ref()
            .map(|r| (r.writes.len(), r.wholes.len()));
        let mut done = 0;
        for w in writes {
            if !self.apply_write(w, wholes) {
                break;
            }
            done += 1;
        }
        if done == total {
            return Ok(());
        }
        // Roll back the `done` writes applied: the last `done` of `rollback`, in order.
        for w in rollback.skip(total - done) {
            let ok = self.apply_write(w, wholes);
            debug_assert!(ok, "rollback of an applied write cannot fail");
        }
        if let (Some(r), Some((writes, wholes))) = (self.undo.rec.as_deref_mut(), mark) {
            r.writes.truncate(writes);
            r.wholes.truncate(wholes);
        }
        Err(MeshError::UndoContentMismatch)
    }
}

#[cfg(test)]
mod tests;
