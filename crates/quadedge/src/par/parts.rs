//! A mesh edited in two parts at once (feature `rayon`): [`Mesh::edit_in_parts`].
//!
//! Every vertex has a fixed owner (part 0, part 1, or none), given by the caller as a pure
//! function. A part flips only quads whose four corners it owns, and reads only what no other
//! part can write: its own vertices' rings, and the origins and faces of edges with an end it
//! owns (an edge with an end owned by part `k` is flipped by no other part, and the faces
//! beside it change only by flips of their own edges). Flips take and free no ids and flips
//! in disjoint quads commute, so each part's result depends only on the mesh before the call:
//! the mesh, the undo log and the journal are the same whatever the thread count (the parts'
//! undo records and journal entries are appended part 0 first, then part 1, as if the parts
//! had run one after the other). A part may also dissolve a vertex of degree 3 whose
//! neighbours it owns ([`MeshPart::dissolve_vertex`]): the ids it frees are marked dead at
//! once (no other part reads them) and go on the free lists at the merge, part 0's first,
//! the same lists as dissolving part 0's vertices and then part 1's one at a time.
//!
//! The arrays are shared between the parts as [`AtomicU32`]s with relaxed loads and stores
//! (plain moves on common targets): a caller that breaks the ownership rule (an impure owner
//! function) gets a mesh that depends on timing, never undefined behaviour.

use crate::journal::{Change, FlipRecord};
use crate::undo::Write;
use crate::{Edge, Face, Mesh, MeshError, Vertex};
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
use dissolve::Freed;

/// The ids are `#[repr(transparent)]` over `u32`, and `AtomicU32` has the size and alignment
/// of a `u32` on every target this crate builds for (checked here at compile time).
const _: () = {
    assert!(size_of::<AtomicU32>() == size_of::<u32>());
    assert!(align_of::<AtomicU32>() == align_of::<u32>());
    assert!(size_of::<Edge>() == 4 && align_of::<Edge>() == align_of::<u32>());
    assert!(size_of::<Vertex>() == 4 && align_of::<Vertex>() == align_of::<u32>());
    assert!(size_of::<Face>() == 4 && align_of::<Face>() == align_of::<u32>());
};

/// An id stored as a `u32`: [`Edge`], [`Vertex`], [`Face`].
///
/// # Safety
/// Implementors are `#[repr(transparent)]` over `u32`, and every `u32` is a valid value.
unsafe trait Word: Copy {}
// SAFETY: `#[repr(transparent)]` over `u32`, any bit pattern valid (ids.rs).
unsafe impl Word for Edge {}
// SAFETY: as above.
unsafe impl Word for Vertex {}
// SAFETY: as above.
unsafe impl Word for Face {}

/// Views an exclusively borrowed id array as atomics for the borrow's lifetime.
fn atomic<T: Word>(v: &mut [T]) -> &[AtomicU32] {
    let (ptr, len) = (v.as_mut_ptr().cast::<AtomicU32>(), v.len());
    // SAFETY: `T` is `#[repr(transparent)]` over `u32` (`Word`), and `AtomicU32` has the size
    // and alignment of `u32` (asserted above), so the memory holds `len` valid `AtomicU32`s.
    // The `&mut` borrow is exclusive and outlives the returned slice, so during it every
    // access to this memory goes through the atomics; any `u32` written back is a valid `T`.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// The topology arrays, shared by the parts.
struct Shared<'m> {
    vertex_edge: &'m [AtomicU32],
    face_edge: &'m [AtomicU32],
    primal_origin: &'m [AtomicU32],
    primal_next: &'m [AtomicU32],
    dual_origin: &'m [AtomicU32],
    dual_next: &'m [AtomicU32],
}

/// Why [`MeshPart::flip`] refused an edge (changing nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartError {
    /// A corner of the edge's quad belongs to another part (or to none): the flip is left to
    /// whoever edits the whole mesh afterwards.
    NotOwned,
    /// What [`Mesh::flip`] would refuse.
    Mesh(MeshError),
}

/// One part of a mesh being edited in parts ([`Mesh::edit_in_parts`]): reads of what the part
/// may read, and flips of what it owns.
pub struct MeshPart<'a, O> {
    s: &'a Shared<'a>,
    owner: &'a O,
    part: u8,
    log: bool,
    journal: bool,
    /// Are flips and vertex moves recorded (a journal on that does not skip them)?
    rewires: bool,
    /// Flips and vertex moves the journal skips, counted.
    skipped: u64,
    writes: Vec<Write>,
    changes: Vec<Change>,
    edited: bool,
    freed: Freed,
}

/// From this many records in each of part 1's logs, the merge copies the two side by side.
const APPEND_APART: usize = 1 << 13;

/// What a part leaves behind for the merge.
type Left = (Vec<Write>, Vec<Change>, bool, Freed, u64);

/// The buffers [`Mesh::edit_in_parts`] keeps between calls, empty: part 1's undo writes and
/// journal entries (part 0 writes into the mesh's own), and both parts' freed ids. Each
/// keeps the room the largest call needed, instead of growing from nothing at every call.
/// A clone is empty and without room (the mesh's equality and serialization ignore it).
#[derive(Default)]
pub(crate) struct PartsScratch {
    writes: Vec<Write>,
    changes: Vec<Change>,
    freed: [Freed; 2],
}

impl Clone for PartsScratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<O: Fn(Vertex) -> u8 + Sync> MeshPart<'_, O> {
    /// This part's number (0 or 1).
    pub fn part(&self) -> u8 {
        self.part
    }

    /// Does this part own `v`?
    #[inline]
    pub fn owns(&self, v: Vertex) -> bool {
        (self.owner)(v) == self.part
    }

    #[inline(always)]
    fn edge(a: &[AtomicU32], i: usize) -> Edge {
        Edge(a[i].load(Relaxed))
    }

    /// Is `e` a live edge? Stable for an edge with an end this part owns.
    #[inline]
    pub fn is_edge_alive(&self, e: Edge) -> bool {
        e.is_valid()
            && matches!(self.s.primal_origin.get(e.index() & !1), Some(v) if v.load(Relaxed) != crate::NONE)
    }

    /// Origin of a live primal edge (stable when this part owns an end).
    #[inline]
    pub fn origin(&self, e: Edge) -> Vertex {
        Vertex(self.s.primal_origin[e.index()].load(Relaxed))
    }

    /// Destination of a live primal edge (stable when this part owns an end).
    #[inline]
    pub fn dest(&self, e: Edge) -> Vertex {
        Vertex(self.s.primal_origin[e.index() ^ 1].load(Relaxed))
    }

    /// Face left of a live primal edge (stable when this part owns an end).
    #[inline]
    pub fn left(&self, e: Edge) -> Face {
        Face(self.s.dual_origin[e.index() ^ 1].load(Relaxed))
    }

    /// Face right of a live primal edge (stable when this part owns an end).
    #[inline]
    pub fn right(&self, e: Edge) -> Face {
        Face(self.s.dual_origin[e.index()].load(Relaxed))
    }

    /// Next edge counter-clockwise around the origin of a live primal edge (stable when this
    /// part owns the origin).
    #[inline]
    pub fn origin_next(&self, e: Edge) -> Edge {
        Self::edge(self.s.primal_next, e.index())
    }

    /// Next edge clockwise around the origin of a live primal edge (stable when this part
    /// owns the origin).
    #[inline]
    pub fn origin_prev(&self, e: Edge) -> Edge {
        Self::edge(self.s.dual_next, e.index()).rot()
    }

    /// The corners `[a, b, c, d]` of the quad of the live primal edge `e` (`a → b`, `c` left,
    /// `d` right), read off `a`'s ring only; `None` when this part does not own `a` or `e`
    /// lies on the boundary.
    #[inline]
    pub fn quad(&self, e: Edge) -> Option<[Vertex; 4]> {
        let a = self.origin(e);
        if !self.owns(a) || !self.left(e).is_valid() || !self.right(e).is_valid() {
            return None;
        }
        let c = self.dest(self.origin_next(e));
        let d = self.dest(self.origin_prev(e));
        Some([a, self.dest(e), c, d])
    }

    /// [`Mesh::flip`] of an edge whose quad's four corners this part owns: the same writes,
    /// undo record and journal record (kept by the part until the merge).
    ///
    /// # Errors
    /// Changing nothing: [`PartError::NotOwned`] when this part does not own a corner;
    /// otherwise what [`Mesh::flip`] returns, as [`PartError::Mesh`].
    pub fn flip(&mut self, edge: Edge) -> Result<Edge, PartError> {
        self.flip_with::<true>(edge)
    }

    /// [`Mesh::flip_fresh`] in the part: [`MeshPart::flip`] without the walk of a ring that
    /// refuses a flip whose new edge exists already, for a caller that knows its opposite
    /// corners are not joined (checked in debug builds).
    ///
    /// # Errors
    /// As [`MeshPart::flip`], but for [`MeshError::FlipWouldDuplicate`] only when the opposite
    /// corners are the same vertex.
    pub fn flip_fresh(&mut self, edge: Edge) -> Result<Edge, PartError> {
        self.flip_with::<false>(edge)
    }

    /// [`MeshPart::flip`], with the ring walk (`RING`) or without.
    fn flip_with<const RING: bool>(&mut self, edge: Edge) -> Result<Edge, PartError> {
        if !self.is_edge_alive(edge) {
            return Err(PartError::Mesh(MeshError::DeadEdge(edge)));
        }
        let e = if edge.is_dual() { edge.rot() } else { edge };
        let (a, es) = (self.origin(e), e.sym());
        let b = self.origin(es);
        if !self.owns(a) || !self.owns(b) {
            return Err(PartError::NotOwned);
        }
        let (fl, fr) = (self.left(e), self.right(e));
        if !fl.is_valid() || !fr.is_valid() {
            return Err(PartError::Mesh(MeshError::BoundaryEdge(edge)));
        }
        let ln = self.origin_prev(es); // b → c
        let lp = self.origin_next(e).sym(); // c → a
        let rn = self.origin_prev(e); // a → d
        let rp = self.origin_next(es).sym(); // d → b
        let c = self.origin(lp);
        let d = self.origin(rp);
        if !self.owns(c) || !self.owns(d) {
            return Err(PartError::NotOwned);
        }
        if c == d || (RING && self.ring_reaches(ln.sym(), lp, d)) {
            return Err(PartError::Mesh(MeshError::FlipWouldDuplicate(edge)));
        }
        debug_assert!(
            RING || !self.ring_reaches(ln.sym(), lp, d),
            "flip_fresh of {edge:?} in a part: its opposite corners are connected"
        );
        let s = self.s;
        if self.log {
            let moves = [
                Self::edge(s.vertex_edge, a.index()) == e,
                Self::edge(s.vertex_edge, b.index()) == es,
            ];
            let faces = [
                Self::edge(s.face_edge, fl.index()),
                Self::edge(s.face_edge, fr.index()),
            ];
            self.writes.push(Write::flip(e, faces, moves));
        }
        // The writes of `Mesh::flip_writes`: a and b lose the edge, c and d gain it.
        self.set_next(rn, lp.sym());
        self.set_next(ln, rp.sym());
        self.set_next(lp, es);
        self.set_next(es, ln.sym());
        self.set_next(rp, e);
        self.set_next(e, rn.sym());
        s.primal_origin[e.index()].store(d.0, Relaxed);
        s.primal_origin[es.index()].store(c.0, Relaxed);
        // b → c moves to the right face, a → d to the left one.
        s.dual_origin[ln.index() ^ 1].store(fr.0, Relaxed);
        s.dual_origin[rn.index() ^ 1].store(fl.0, Relaxed);
        s.face_edge[fl.index()].store(e.0, Relaxed);
        s.face_edge[fr.index()].store(es.0, Relaxed);
        if Self::edge(s.vertex_edge, a.index()) == e {
            s.vertex_edge[a.index()].store(rn.0, Relaxed);
        }
        if Self::edge(s.vertex_edge, b.index()) == es {
            s.vertex_edge[b.index()].store(ln.0, Relaxed);
        }
        self.edited = true;
        if self.rewires {
            self.changes.push(Change::Flip(FlipRecord {
                edge: e,
                old: [a, b],
                new: [d, c],
                faces: [fl, fr],
            }));
        } else if self.journal {
            self.skipped += 1;
        }
        Ok(e)
    }

    /// `Mesh::set_next` on the shared arrays.
    #[inline(always)]
    fn set_next(&self, p: Edge, n: Edge) {
        self.s.primal_next[p.index()].store(n.0, Relaxed);
        let back = Edge::dual((p.index() ^ 1) as u32);
        self.s.dual_next[n.index()].store(back.0, Relaxed);
    }

    /// `Mesh::ring_reaches` on the shared arrays (the ring of an owned vertex).
    fn ring_reaches(&self, from: Edge, until: Edge, w: Vertex) -> bool {
        let mut f = self.origin_next(from);
        if f == until {
            return false;
        }
        let mut b = self.origin_prev(until);
        loop {
            if self.dest(f) == w || self.dest(b) == w {
                return true;
            }
            if f == b {
                return false;
            }
            let nf = self.origin_next(f);
            if nf == b {
                return false;
            }
            f = nf;
            b = self.origin_prev(b);
        }
    }

    fn into_left(self) -> Left {
        (
            self.writes,
            self.changes,
            self.edited,
            self.freed,
            self.skipped,
        )
    }
}

impl Mesh {
    /// Runs `work` on two parts of the mesh at once (on two cores when rayon has them), each
    /// part owning the vertices `owner` maps to its number (0 or 1; any other value: no
    /// part). A part flips only quads whose corners it owns ([`MeshPart::flip`]; it may also
    /// move or dissolve a vertex of degree 3 inside what it owns) and must read only its own
    /// vertices' rings and the edges with an end it owns; then what it computes
    /// depends only on the mesh before the call, and the mesh, its undo log and its journal
    /// are afterwards exactly what running part 0 and then part 1 alone would give, for any
    /// thread count. `owner` must be a pure function of the vertex. Returns the parts'
    /// results, part 0's first.
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex, shapes};
    /// let (n, t) = shapes::icosahedron_grid(4);
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// let mut twin = m.clone();
    /// let edges: Vec<_> = m.undirected_edges().collect();
    /// // Vertices below 80 belong to part 0, the others to part 1.
    /// let owner = |v: Vertex| u8::from(v.index() >= 80);
    /// let flipped = m.edit_in_parts(&owner, |part| {
    ///     let mut done = Vec::new();
    ///     for &e in &edges {
    ///         if part.quad(e).is_some_and(|q| q.iter().all(|&v| part.owns(v))) {
    ///             done.extend(part.flip(e).ok());
    ///         }
    ///     }
    ///     done
    /// });
    /// m.check().unwrap();
    /// // The same as flipping part 0's edges, then part 1's, one at a time.
    /// for e in flipped.concat() {
    ///     twin.flip(e).unwrap();
    /// }
    /// assert_eq!(m, twin);
    /// ```
    pub fn edit_in_parts<O, T, W>(&mut self, owner: &O, work: W) -> [T; 2]
    where
        O: Fn(Vertex) -> u8 + Sync,
        T: Send,
        W: Fn(&mut MeshPart<'_, O>) -> T + Sync,
    {
        let (log, journal) = (self.undo.rec.is_some(), self.journal.is_some());
        let rewires = self.journal.as_ref().is_some_and(|j| !j.skip_rewires);
        // Part 0 appends to the undo log and the journal themselves (no copy afterwards).
        let writes0 = match self.undo.rec.as_deref_mut() {
            Some(r) => std::mem::take(&mut r.writes),
            None => Vec::new(),
        };
        let changes0 = match self.journal.as_mut() {
            Some(j) => std::mem::take(&mut j.changes),
            None => Vec::new(),
        };
        let PartsScratch {
            writes: writes1,
            changes: changes1,
            freed: [freed0, freed1],
        } = std::mem::take(&mut self.parts);
        let ((t0, l0), (t1, l1)) = {
            let shared = Shared {
                vertex_edge: atomic(&mut self.vertex_edge),
                face_edge: atomic(&mut self.face_edge),
                primal_origin: atomic(&mut self.primal_origin),
                primal_next: atomic(&mut self.primal_next),
                dual_origin: atomic(&mut self.dual_origin),
                dual_next: atomic(&mut self.dual_next),
            };
            let run = |part: u8, writes: Vec<Write>, changes: Vec<Change>, freed: Freed| {
                let mut p = MeshPart {
                    s: &shared,
                    owner,
                    part,
                    log,
                    journal,
                    rewires,
                    skipped: 0,
                    writes,
                    changes,
                    edited: false,
                    freed,
                };
                let t = work(&mut p);
                (t, p.into_left())
            };
            rayon::join(
                || run(0, writes0, changes0, freed0),
                || run(1, writes1, changes1, freed1),
            )
        };
        let (writes0, changes0, edited0, mut freed0, skipped0) = l0;
        let (mut writes1, mut changes1, edited1, mut freed1, skipped1) = l1;
        if edited0 || edited1 {
            self.undo.stamp = 0;
        }
        // Part 0's records are the logs themselves; its freed ids are recorded after them,
        // then part 1's records are appended and its freed ids recorded.
        if let Some(r) = self.undo.rec.as_deref_mut() {
            r.writes = writes0;
        }
        if let Some(j) = self.journal.as_mut() {
            j.changes = changes0;
            j.skipped += skipped0 + skipped1;
        }
        self.push_freed_logged(log, &freed0);
        // Part 1's records copied after part 0's, the two logs side by side when both are
        // long.
        let writes = self.undo.rec.as_deref_mut().map(|r| &mut r.writes);
        let changes = self.journal.as_mut().map(|j| &mut j.changes);
        let apart = writes1.len().min(changes1.len()) >= APPEND_APART;
        let append_writes = || writes.map(|w| append_copies(w, &mut writes1));
        let append_changes = || changes.map(|c| c.append(&mut changes1));
        if apart {
            rayon::join(append_writes, append_changes);
        } else {
            append_writes();
            append_changes();
        }
        self.push_freed_logged(log, &freed1);
        // Part 1's buffers are empty now (appended, or never written): kept with their room
        // for the next call, as are both parts' freed lists, cleared.
        debug_assert!(writes1.is_empty() && changes1.is_empty());
        freed0.clear();
        freed1.clear();
        self.parts = PartsScratch {
            writes: writes1,
            changes: changes1,
            freed: [freed0, freed1],
        };
        [t0, t1]
    }
}

mod dissolve;
mod merge;
use merge::append_copies;
mod moving;
#[cfg(test)]
mod tests;
