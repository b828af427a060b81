//! Incremental construction: vertices and faces one at a time.

use crate::journal::Change;
use crate::mesh::DEAD_VERTEX;
use crate::undo::Target;
use crate::{Edge, Face, Mesh, MeshError, Vertex};

/// How one corner of a new face is wired into its vertex's ring (decided before any write).
#[derive(Clone, Copy, Debug)]
enum Corner {
    /// Both edges exist and are already adjacent in the ring.
    Nothing,
    /// Only the outgoing edge exists: the new incoming one goes right after it.
    AfterOut(Edge),
    /// Only the incoming edge exists: the new outgoing one goes right before it (after `prev`).
    BeforeIn { prev: Edge },
    /// Both exist but other fans lie between them: move `first..=last` into the gap after `gap`.
    Relink {
        out: Edge,
        inc: Edge,
        first: Edge,
        last: Edge,
        gap: Edge,
    },
    /// The vertex is isolated: its ring becomes the two new edges.
    Fresh,
    /// Neither edge exists: both go into the single gap after `gap`.
    IntoGap(Edge),
}

impl Mesh {
    /// Adds an isolated vertex (reusing a removed id if there is one). Logs
    /// [`Change::VerticesAdded`].
    ///
    /// # Panics
    /// When the vertex id space (about 4 billion ids) is full; [`Mesh::add_vertices`] returns
    /// an error instead.
    pub fn add_vertex(&mut self) -> Vertex {
        if self.undo.rec.is_some() {
            self.add_vertex_with::<true>()
        } else {
            self.add_vertex_with::<false>()
        }
    }

    /// [`Mesh::add_vertex`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn add_vertex_with<const LOG: bool>(&mut self) -> Vertex {
        assert!(self.can_alloc_vertices(1), "vertex id space exhausted");
        let v = self.alloc_vertex::<LOG>();
        self.log(|| Change::VerticesAdded { first: v, count: 1 });
        v
    }

    /// Appends `n` isolated vertices with consecutive ids and returns the first.
    ///
    /// Unlike repeated [`Mesh::add_vertex`] this never reuses removed ids, so the new vertices
    /// form one range. Logs one [`Change::VerticesAdded`].
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::TooManyElements`] when the ids would not fit the vertex
    /// id space (`u32`, minus the markers), [`MeshError::OutOfMemory`] when the memory for
    /// them cannot be reserved.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError, Vertex};
    /// let mut m = Mesh::new();
    /// assert_eq!(m.add_vertices(3), Ok(Vertex::new(0)));
    /// assert_eq!(m.add_vertices(usize::MAX), Err(MeshError::TooManyElements));
    /// assert_eq!(m.vertex_count(), 3);
    /// ```
    pub fn add_vertices(&mut self, n: usize) -> Result<Vertex, MeshError> {
        if self.undo.rec.is_some() {
            self.add_vertices_with::<true>(n)
        } else {
            self.add_vertices_with::<false>(n)
        }
    }

    /// [`Mesh::add_vertices`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn add_vertices_with<const LOG: bool>(&mut self, n: usize) -> Result<Vertex, MeshError> {
        let first = self.vertex_edge.len();
        match first.checked_add(n) {
            Some(end) if end < DEAD_VERTEX.raw() as usize => {}
            _ => return Err(MeshError::TooManyElements),
        }
        self.vertex_edge
            .try_reserve_exact(n)
            .map_err(|_| MeshError::OutOfMemory)?;
        self.extend_vertex_edge::<LOG>(n);
        // Fits: live vertices never outnumber the slots, which stay below `DEAD_VERTEX`.
        self.set_live::<LOG>(Target::FreeVertices, self.live_vertices + n as u32);
        let first = Vertex::new(first as u32);
        self.log(|| Change::VerticesAdded {
            first,
            count: n as u32,
        });
        Ok(first)
    }

    /// Removes an isolated vertex; its id goes to the free list. Logs
    /// [`Change::VertexRemoved`].
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadVertex`] for a dead or out-of-range id,
    /// [`MeshError::VertexInUse`] when the vertex still has edges.
    pub fn remove_vertex(&mut self, v: Vertex) -> Result<(), MeshError> {
        if self.undo.rec.is_some() {
            self.remove_vertex_with::<true>(v)
        } else {
            self.remove_vertex_with::<false>(v)
        }
    }

    /// [`Mesh::remove_vertex`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn remove_vertex_with<const LOG: bool>(&mut self, v: Vertex) -> Result<(), MeshError> {
        if !self.is_vertex_alive(v) {
            return Err(MeshError::DeadVertex(v));
        }
        if self.vertex_edge[v.index()].is_valid() {
            return Err(MeshError::VertexInUse(v));
        }
        self.free_vertex::<LOG>(v);
        self.log(|| Change::VertexRemoved(v));
        Ok(())
    }

    /// Connects three vertices into a triangle, counter-clockwise `a → b → c`.
    ///
    /// Handles every case of incremental face insertion into a half-edge structure: no, one,
    /// two or three edges already present, and a vertex where two unconnected fans meet (their
    /// rings are merged). Existing edges are reused, so no two edges ever join the same two
    /// vertices. Adding the reverse of a lone triangle closes it into a pillow, a valid closed
    /// surface. Logs one [`Change::EdgeAdded`] per new quad-edge, then [`Change::FaceAdded`].
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadVertex`], [`MeshError::RepeatedVertex`],
    /// [`MeshError::FaceExists`] (the triangle exists already with this winding),
    /// [`MeshError::EdgeOccupied`] (an edge already has another face on this side), [`MeshError::NonManifoldVertex`],
    /// [`MeshError::AmbiguousFan`] (a vertex already joins several unconnected fans and the
    /// face shares no edge with them), [`MeshError::TooManyElements`].
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError};
    /// let mut m = Mesh::new();
    /// let a = m.add_vertex();
    /// let b = m.add_vertex();
    /// let c = m.add_vertex();
    /// let d = m.add_vertex();
    /// let f = m.add_face(a, b, c).unwrap();
    /// m.add_face(a, c, d).unwrap();
    /// assert_eq!(m.face_vertices(f), [a, b, c]);
    /// assert_eq!(m.add_face(a, b, d), Err(MeshError::EdgeOccupied { from: a, to: b }));
    /// m.check().unwrap();
    /// ```
    pub fn add_face(&mut self, a: Vertex, b: Vertex, c: Vertex) -> Result<Face, MeshError> {
        if self.undo.rec.is_some() {
            self.add_face_with::<true>(a, b, c)
        } else {
            self.add_face_with::<false>(a, b, c)
        }
    }

    /// [`Mesh::add_face`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    pub(crate) fn add_face_with<const LOG: bool>(
        &mut self,
        a: Vertex,
        b: Vertex,
        c: Vertex,
    ) -> Result<Face, MeshError> {
        let vs = [a, b, c];
        for &v in &vs {
            if !self.is_vertex_alive(v) {
                return Err(MeshError::DeadVertex(v));
            }
        }
        if a == b || a == c {
            return Err(MeshError::RepeatedVertex(a));
        }
        if b == c {
            return Err(MeshError::RepeatedVertex(b));
        }
        // Phase 1: read, and refuse anything that cannot be done.
        let mut sides = self.free_sides(vs)?;
        let new_quads = sides.iter().filter(|e| !e.is_valid()).count();
        if !self.can_alloc_quads(new_quads) || !self.can_alloc_faces(1) {
            return Err(MeshError::TooManyElements);
        }
        let plan = self.corner_plan(vs, sides)?;
        // Phase 2: write. Nothing below can fail.
        for k in 0..3 {
            if !sides[k].is_valid() {
                let e = self.alloc_quad::<LOG>(vs[k], vs[(k + 1) % 3]);
                sides[k] = e;
                self.log(|| Change::EdgeAdded(e));
            }
        }
        for k in 0..3 {
            let inc = sides[(k + 2) % 3].sym();
            self.wire_corner::<LOG>(vs[k], sides[k], inc, plan[k]);
        }
        let f = self.alloc_face::<LOG>(sides[0]);
        for e in sides {
            self.set_dual_origin::<LOG>(e.index() ^ 1, f);
        }
        for k in 0..3 {
            if !matches!(plan[k], Corner::Nothing) {
                self.refresh_dual_ring::<LOG>(sides[k]);
            }
        }
        self.log(|| Change::FaceAdded(f));
        Ok(f)
    }

    /// The existing side edges of the face `vs` (`INVALID` where there is none yet), each of
    /// which must be free on its left.
    fn free_sides(&self, vs: [Vertex; 3]) -> Result<[Edge; 3], MeshError> {
        let mut sides = [Edge::INVALID; 3];
        for k in 0..3 {
            let (u, w) = (vs[k], vs[(k + 1) % 3]);
            if let Some(e) = self.find_edge(u, w) {
                let f = self.left(e);
                if f.is_valid() {
                    let mut fv = self.face_vertices(f);
                    let mut nv = vs;
                    fv.sort();
                    nv.sort();
                    if fv == nv {
                        return Err(MeshError::FaceExists(f));
                    }
                    return Err(MeshError::EdgeOccupied { from: u, to: w });
                }
                sides[k] = e;
            }
        }
        Ok(sides)
    }

    /// What each corner's ring needs. Corner k sits at `vs[k]`: out = side k
    /// (`vs[k] → vs[k+1]`), in = sym of side k-1.
    fn corner_plan(&self, vs: [Vertex; 3], sides: [Edge; 3]) -> Result<[Corner; 3], MeshError> {
        let mut plan = [Corner::Nothing; 3];
        for k in 0..3 {
            let v = vs[k];
            let out = sides[k];
            let inc = sides[(k + 2) % 3].sym(); // v → previous corner
            plan[k] = match (out.is_valid(), sides[(k + 2) % 3].is_valid()) {
                (true, true) => {
                    let after = self.primal_next[out.index()];
                    if after == inc {
                        Corner::Nothing
                    } else {
                        // Fans between out and inc must move into another gap of the ring.
                        let last = self.ring_prev(inc);
                        let gap = self.single_gap(inc, out, v)?;
                        Corner::Relink {
                            out,
                            inc,
                            first: after,
                            last,
                            gap,
                        }
                    }
                }
                (true, false) => Corner::AfterOut(out),
                (false, true) => Corner::BeforeIn {
                    prev: self.ring_prev(inc),
                },
                (false, false) => {
                    let start = self.vertex_edge[v.index()];
                    if !start.is_valid() {
                        Corner::Fresh
                    } else {
                        Corner::IntoGap(self.single_gap(start, start, v)?)
                    }
                }
            };
        }
        Ok(plan)
    }

    /// Carries out a corner's plan: `out` and `inc` (the face's sides at `v`) join `v`'s ring.
    fn wire_corner<const LOG: bool>(&mut self, v: Vertex, out: Edge, inc: Edge, plan: Corner) {
        match plan {
            Corner::Nothing => {}
            Corner::AfterOut(o) => {
                self.set_primal_next::<LOG>(inc.index(), self.primal_next[o.index()]);
                self.set_primal_next::<LOG>(o.index(), inc);
            }
            Corner::BeforeIn { prev } => {
                self.set_primal_next::<LOG>(out.index(), inc);
                self.set_primal_next::<LOG>(prev.index(), out);
            }
            Corner::Relink {
                out,
                inc,
                first,
                last,
                gap,
            } => {
                let after_gap = self.primal_next[gap.index()];
                self.set_primal_next::<LOG>(out.index(), inc);
                self.set_primal_next::<LOG>(gap.index(), first);
                self.set_primal_next::<LOG>(last.index(), after_gap);
            }
            Corner::Fresh => {
                self.set_primal_next::<LOG>(out.index(), inc);
                self.set_primal_next::<LOG>(inc.index(), out);
                self.set_vertex_edge::<LOG>(v.index(), out);
            }
            Corner::IntoGap(gap) => {
                let after_gap = self.primal_next[gap.index()];
                self.set_primal_next::<LOG>(gap.index(), out);
                self.set_primal_next::<LOG>(out.index(), inc);
                self.set_primal_next::<LOG>(inc.index(), after_gap);
            }
        }
    }

    /// The one gap (edge with a hole on its left) in the part of `v`'s ring that runs
    /// counter-clockwise from `from` up to, not including, `until` (the whole ring when
    /// `from == until`).
    fn single_gap(&self, from: Edge, until: Edge, v: Vertex) -> Result<Edge, MeshError> {
        let mut found = Edge::INVALID;
        let mut e = from;
        loop {
            if !self.left(e).is_valid() {
                if found.is_valid() {
                    return Err(MeshError::AmbiguousFan(v));
                }
                found = e;
            }
            e = self.primal_next[e.index()];
            if e == until {
                break;
            }
        }
        if found.is_valid() {
            Ok(found)
        } else {
            Err(MeshError::NonManifoldVertex(v))
        }
    }
}
