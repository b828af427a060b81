//! Reads of an owned vertex's ring and faces, and [`Mesh::move_vertex`] in a part.

use super::{MeshPart, PartError};
use crate::journal::{Change, MoveRecord};
use crate::undo::{Op, Target, Write};
use crate::{Edge, Face, MeshError, Vertex};
use core::sync::atomic::Ordering::Relaxed;

/// A vertex's three spokes, their far ends and the link's three sides.
type TriangleStar = ([Edge; 3], [Vertex; 3], [Edge; 3]);

impl<O: Fn(Vertex) -> u8 + Sync> MeshPart<'_, O> {
    /// One outgoing edge of an owned vertex ([`crate::Mesh::vertex_edge`]); `None` for a
    /// vertex this part does not own, or an isolated or dead one.
    pub fn vertex_edge(&self, v: Vertex) -> Option<Edge> {
        if !self.owns(v) {
            return None;
        }
        let e = Edge(self.s.vertex_edge.get(v.index())?.load(Relaxed));
        (e.is_valid() && e != crate::mesh::DEAD_VERTEX).then_some(e)
    }

    /// The corners of the face left of the live primal edge `e` (`[origin, dest, third]`),
    /// read off the origin's ring: stable when this part owns the origin.
    pub fn left_corners(&self, e: Edge) -> [Vertex; 3] {
        [self.origin(e), self.dest(e), self.dest(self.origin_next(e))]
    }

    /// Records the write of `new` at `arr[i]` and makes it.
    pub(super) fn put(&mut self, target: Target, i: usize, new: u32) {
        let arr = match target {
            Target::VertexEdge => self.s.vertex_edge,
            Target::FaceEdge => self.s.face_edge,
            Target::PrimalOrigin => self.s.primal_origin,
            Target::PrimalNext => self.s.primal_next,
            Target::DualOrigin => self.s.dual_origin,
            _ => self.s.dual_next,
        };
        if self.log {
            let old = arr[i].load(Relaxed);
            self.writes.push(Write::new(target, Op::Set, i, old, new));
        }
        arr[i].store(new, Relaxed);
    }

    /// `Mesh::set_next`, recorded one write at a time.
    pub(super) fn put_next(&mut self, p: Edge, n: Edge) {
        self.put(Target::PrimalNext, p.index(), n.0);
        let back = Edge::dual((p.index() ^ 1) as u32);
        self.put(Target::DualNext, n.index(), back.0);
    }

    /// `lnext` of a primal edge, off the ring of its destination.
    pub(super) fn lnext(&self, e: Edge) -> Edge {
        self.origin_prev(e.sym())
    }

    /// The star of `v` when it is a triangle the part owns: its spokes, their far ends and
    /// the link's sides (`lnext` of each spoke); the checks of `Mesh::dissolve_vertex`,
    /// changing nothing. Moving a vertex and dissolving one both start from it.
    ///
    /// # Errors
    /// [`PartError::NotOwned`] when the part does not own `v` or a neighbour; otherwise a
    /// dead vertex, a star that is not a triangle, or a link whose triangle already exists,
    /// as [`PartError::Mesh`].
    pub(super) fn owned_triangle_star(&self, v: Vertex) -> Result<TriangleStar, PartError> {
        let mesh = |e: MeshError| Err(PartError::Mesh(e));
        let Some(s0) = self.vertex_edge(v) else {
            return match self.owns(v) {
                true => mesh(MeshError::DeadVertex(v)),
                false => Err(PartError::NotOwned),
            };
        };
        let (s1, not) = (self.origin_next(s0), MeshError::NotDissolvable(v));
        let s2 = self.origin_next(s1);
        if s1 == s0 || s2 == s0 || self.origin_next(s2) != s0 {
            return mesh(not);
        }
        let spokes = [s0, s1, s2];
        if spokes.iter().any(|&s| !self.left(s).is_valid()) {
            return mesh(not);
        }
        let corners = spokes.map(|s| self.dest(s));
        if corners.iter().any(|&u| !self.owns(u)) {
            return Err(PartError::NotOwned);
        }
        if corners[0] == corners[1] || corners[1] == corners[2] || corners[0] == corners[2] {
            return mesh(not);
        }
        let sides = spokes.map(|s| self.lnext(s));
        for i in 0..3 {
            let beyond = self.right(sides[i]);
            if beyond.is_valid() && self.dest(self.lnext(sides[i].sym())) == corners[(i + 2) % 3] {
                return mesh(MeshError::FaceExists(beyond));
            }
        }
        Ok((spokes, corners, sides))
    }

    /// Closes the link of a triangle star as the face `face` (the writes of
    /// `Mesh::close_star`): the sides joined in a ring, each corner given a side if its
    /// edge was a spoke.
    pub(super) fn close_link(&mut self, spokes: [Edge; 3], sides: [Edge; 3], face: Face) {
        for i in 0..3 {
            let c = self.origin(sides[i]);
            self.put_next(sides[i], sides[(i + 2) % 3].sym());
            if Edge(self.s.vertex_edge[c.index()].load(Relaxed)) == spokes[i].sym() {
                self.put(Target::VertexEdge, c.index(), sides[i].0);
            }
            self.put(Target::DualOrigin, sides[i].index() ^ 1, face.0);
        }
        self.put(Target::FaceEdge, face.index(), sides[0].0);
    }

    /// [`crate::Mesh::move_vertex`] of an owned vertex of degree 3 whose neighbours this part
    /// owns, into a face whose corners it owns: the same writes, undo records and journal
    /// record.
    ///
    /// # Errors
    /// Changing nothing: [`PartError::NotOwned`] when the part does not own `v`, a neighbour
    /// or a corner of `f` (a face it does not own is not read beyond its first edge);
    /// otherwise what [`crate::Mesh::move_vertex`] returns, as [`PartError::Mesh`].
    pub fn move_vertex(&mut self, v: Vertex, f: Face) -> Result<MoveRecord, PartError> {
        let mesh = |e: MeshError| Err(PartError::Mesh(e));
        let (spokes, from, sides) = self.owned_triangle_star(v)?;
        // The target face: its first edge, then its corners, each checked before its ring is
        // read.
        let e0 = match self.s.face_edge.get(f.index()) {
            Some(a) => Edge(a.load(Relaxed)),
            None => return mesh(MeshError::DeadFace(f)),
        };
        if !e0.is_valid() || !self.is_edge_alive(e0) {
            return mesh(MeshError::DeadFace(f));
        }
        let (t0, t1) = (self.origin(e0), self.dest(e0));
        if !self.owns(t0) || !self.owns(t1) {
            return Err(PartError::NotOwned);
        }
        let e1 = self.lnext(e0);
        let t2 = self.dest(e1);
        if !self.owns(t2) {
            return Err(PartError::NotOwned);
        }
        let e2 = self.lnext(e1);
        if self.lnext(e2) != e0 || self.left(e0) != f {
            return mesh(MeshError::DeadFace(f));
        }
        let old_faces = spokes.map(|s| self.left(s));
        if old_faces.contains(&f) {
            return mesh(MeshError::FaceOfVertex { vertex: v, face: f });
        }
        let (targets, to) = ([e0, e1, e2], [t0, t1, t2]);
        // The writes of `Mesh::move_vertex`: the old triangle closes, f opens around v.
        let closed = old_faces[0];
        self.close_link(spokes, sides, closed);
        let faces = [f, old_faces[1], old_faces[2]];
        self.put(Target::DualOrigin, spokes[0].index() ^ 1, f.0);
        self.put(Target::DualOrigin, spokes[1].index(), f.0);
        for i in 0..3 {
            let (s, side) = (spokes[i], targets[i]);
            self.put(Target::PrimalOrigin, s.index() ^ 1, to[i].0);
            self.put_next(side, s.sym());
            self.put_next(s.sym(), targets[(i + 2) % 3].sym());
            if i > 0 {
                self.put(Target::DualOrigin, side.index() ^ 1, faces[i].0);
                self.put(Target::FaceEdge, faces[i].index(), side.0);
            }
        }
        let rec = MoveRecord {
            vertex: v,
            from,
            closed,
            to,
            spokes,
            faces,
        };
        self.edited = true;
        if self.rewires {
            self.changes.push(Change::VertexMoved(rec));
        } else if self.journal {
            self.skipped += 1;
        }
        Ok(rec)
    }
}
