//! Construction: vertices, faces one at a time (`add_face`), and whole triangle buffers.

use crate::journal::Change;
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, MeshError, Vertex};
use smallvec::SmallVec;

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
    /// Adds an isolated vertex (reusing a removed id if there is one).
    pub fn add_vertex(&mut self) -> Vertex {
        let v = self.alloc_vertex();
        self.log(|| Change::VerticesAdded { first: v, count: 1 });
        v
    }

    /// Appends `n` isolated vertices with consecutive ids and returns the first.
    ///
    /// Unlike repeated [`Mesh::add_vertex`] this never reuses removed ids, so the new vertices
    /// form one range.
    pub fn add_vertices(&mut self, n: usize) -> Result<Vertex, MeshError> {
        let first = self.vertex_edge.len();
        if first + n >= DEAD_VERTEX.raw() as usize {
            return Err(MeshError::TooManyElements);
        }
        self.vertex_edge.resize(first + n, Edge::INVALID);
        self.live_vertices += n as u32;
        let first = Vertex::new(first as u32);
        self.log(|| Change::VerticesAdded {
            first,
            count: n as u32,
        });
        Ok(first)
    }

    /// Removes an isolated vertex; its id goes to the free list.
    pub fn remove_vertex(&mut self, v: Vertex) -> Result<(), MeshError> {
        if !self.is_vertex_alive(v) {
            return Err(MeshError::DeadVertex(v));
        }
        if self.vertex_edge[v.index()].is_valid() {
            return Err(MeshError::VertexInUse(v));
        }
        self.vertex_edge[v.index()] = DEAD_VERTEX;
        self.free_vertices.push(v.raw());
        self.live_vertices -= 1;
        self.log(|| Change::VertexRemoved(v));
        Ok(())
    }

    /// Connects three vertices into a triangle, counter-clockwise `a → b → c`.
    ///
    /// Handles every case of seed 002: no, one, two or three edges already present, and a
    /// vertex where two unconnected fans meet (their rings are merged). Rejected, leaving the
    /// mesh unchanged: dead ids, a repeated vertex, an existing face, an edge that already has
    /// a face on this side, a vertex that would stop being manifold, and a vertex that already
    /// joins several unconnected fans when the face shares no edge with them.
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

        // Phase 1: read. Existing side edges, each must be free on its left.
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
        let new_quads = sides.iter().filter(|e| !e.is_valid()).count();
        if !self.can_alloc_quads(new_quads) || self.face_edge.len() + 1 >= u32::MAX as usize {
            return Err(MeshError::TooManyElements);
        }

        // Corner k sits at vs[k]: out = side k (vs[k] → vs[k+1]), in = sym of side k-1.
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

        // Phase 2: write. Nothing below can fail.
        for k in 0..3 {
            if !sides[k].is_valid() {
                let e = self.alloc_quad(vs[k], vs[(k + 1) % 3]);
                sides[k] = e;
                self.log(|| Change::EdgeAdded(e));
            }
        }
        for k in 0..3 {
            let v = vs[k];
            let out = sides[k];
            let inc = sides[(k + 2) % 3].sym();
            let next = &mut self.primal_next;
            match plan[k] {
                Corner::Nothing => {}
                Corner::AfterOut(o) => {
                    next[inc.index()] = next[o.index()];
                    next[o.index()] = inc;
                }
                Corner::BeforeIn { prev } => {
                    next[out.index()] = inc;
                    next[prev.index()] = out;
                }
                Corner::Relink {
                    out,
                    inc,
                    first,
                    last,
                    gap,
                } => {
                    let after_gap = next[gap.index()];
                    next[out.index()] = inc;
                    next[gap.index()] = first;
                    next[last.index()] = after_gap;
                }
                Corner::Fresh => {
                    next[out.index()] = inc;
                    next[inc.index()] = out;
                    self.vertex_edge[v.index()] = out;
                }
                Corner::IntoGap(gap) => {
                    let after_gap = next[gap.index()];
                    next[gap.index()] = out;
                    next[out.index()] = inc;
                    next[inc.index()] = after_gap;
                }
            }
        }
        let f = self.alloc_face(sides[0]);
        for e in sides {
            self.dual_origin[e.index() ^ 1] = f;
        }
        for k in 0..3 {
            if !matches!(plan[k], Corner::Nothing) {
                self.refresh_dual_ring(sides[k]);
            }
        }
        self.log(|| Change::FaceAdded(f));
        Ok(f)
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

    /// Builds a mesh from a triangle index buffer (counter-clockwise triangles, vertex ids
    /// `0..vertices`), independent of the order of the triangles.
    ///
    /// Face `i` is triangle `i`. Much faster than calling [`Mesh::add_face`] in a loop: rings are
    /// derived from a per-vertex corner table in linear time. Vertices used by no triangle stay
    /// isolated. Rejected: indices out of range, repeated vertices, a directed edge used twice
    /// (non-manifold edge or inconsistent winding), and vertices whose faces do not form one
    /// disk or a set of half-disks.
    ///
    /// ```
    /// use quadedge::{Mesh, Vertex};
    /// // A square of two triangles.
    /// let m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// assert_eq!(m.undirected_edge_count(), 5);
    /// assert!(m.is_boundary_vertex(Vertex::new(1)));
    /// assert_eq!(m.degree(Vertex::new(0)), 3);
    /// ```
    pub fn from_triangles(vertices: usize, triangles: &[[u32; 3]]) -> Result<Mesh, MeshError> {
        let nf = triangles.len();
        if vertices >= DEAD_VERTEX.raw() as usize || 3 * nf >= (1usize << 30) {
            return Err(MeshError::TooManyElements);
        }
        // Corner table: corners of vertex v are corner_ids[offset[v]..offset[v+1]],
        // corner id = 3 * face + k.
        let mut offset = vec![0u32; vertices + 1];
        for (t, tri) in triangles.iter().enumerate() {
            for &i in tri {
                if i as usize >= vertices {
                    return Err(MeshError::IndexOutOfRange {
                        triangle: t,
                        index: i,
                    });
                }
                offset[i as usize + 1] += 1;
            }
            if tri[0] == tri[1] || tri[0] == tri[2] {
                return Err(MeshError::RepeatedVertex(Vertex::new(tri[0])));
            }
            if tri[1] == tri[2] {
                return Err(MeshError::RepeatedVertex(Vertex::new(tri[1])));
            }
        }
        for v in 0..vertices {
            offset[v + 1] += offset[v];
        }
        let mut fill = offset.clone();
        let mut corners = vec![0u32; 3 * nf];
        for (t, tri) in triangles.iter().enumerate() {
            for (k, &i) in tri.iter().enumerate() {
                let slot = &mut fill[i as usize];
                corners[*slot as usize] = (3 * t + k) as u32;
                *slot += 1;
            }
        }
        drop(fill);
        let next_of = |c: u32| -> u32 {
            let (t, k) = (c as usize / 3, c as usize % 3);
            triangles[t][(k + 1) % 3]
        };

        // Half-edge (corner c's outgoing side) → primal edge id. Twins share a quad-edge.
        const NONE: u32 = u32::MAX;
        let mut he = vec![NONE; 3 * nf];
        let mut quads = 0u32;
        // Quad-edges are numbered in vertex order (each vertex's not yet numbered outgoing
        // edges get consecutive ids), so rings of nearby vertices sit close in memory whatever
        // the order of the triangles.
        for a in 0..vertices as u32 {
            for ci in offset[a as usize]..offset[a as usize + 1] {
                let c = corners[ci as usize] as usize;
                if he[c] != NONE {
                    continue;
                }
                let (t, k) = (c / 3, c % 3);
                let b = triangles[t][(k + 1) % 3];
                let e = 2 * quads;
                quads += 1;
                he[c] = e;
                // The twin b → a, if any, is the corner of b whose next vertex is a.
                let bc = &corners[offset[b as usize] as usize..offset[b as usize + 1] as usize];
                let mut twins = bc.iter().filter(|&&x| next_of(x) == a);
                match (twins.next(), twins.next()) {
                    (Some(_), Some(_)) => {
                        return Err(MeshError::EdgeOccupied {
                            from: Vertex(b),
                            to: Vertex(a),
                        });
                    }
                    (Some(&x), None) => {
                        if he[x as usize] != NONE {
                            // b → a already paired with another a → b.
                            return Err(MeshError::EdgeOccupied {
                                from: Vertex(a),
                                to: Vertex(b),
                            });
                        }
                        he[x as usize] = e + 1;
                    }
                    _ => {
                        // Boundary edge: make sure a → b itself is not used twice.
                        let ac =
                            &corners[offset[a as usize] as usize..offset[a as usize + 1] as usize];
                        if ac.iter().filter(|&&x| next_of(x) == b).count() > 1 {
                            return Err(MeshError::EdgeOccupied {
                                from: Vertex(a),
                                to: Vertex(b),
                            });
                        }
                    }
                }
            }
        }

        drop(corners);
        drop(offset);
        Self::wire(vertices, triangles, &he, quads, false)
    }

    /// Builds a mesh from triangles and their half-edge twins, as half-edge triangulators
    /// (delaunator, this workspace's sphere triangulator) produce them: much faster than
    /// [`Mesh::from_triangles`] because the twins need not be searched.
    ///
    /// Half-edge `3t + k` runs from `triangles[t][k]` to `triangles[t][(k + 1) % 3]`;
    /// `twins[h]` is the half-edge running the other way, or `u32::MAX` on the boundary.
    /// Quad-edges are numbered in vertex order, as by [`Mesh::from_triangles`]. Everything is validated as in
    /// [`Mesh::from_triangles`], plus the twins themselves ([`MeshError::BadTwin`]).
    ///
    /// ```
    /// use quadedge::Mesh;
    /// // A square of two triangles sharing the diagonal 0-2 (half-edges 2 and 3).
    /// let tris = [[0, 1, 2], [0, 2, 3]];
    /// let twins = [u32::MAX, u32::MAX, 3, 2, u32::MAX, u32::MAX];
    /// let m = Mesh::from_half_edges(4, &tris, &twins).unwrap();
    /// assert_eq!(m.undirected_edge_count(), 5);
    /// m.check().unwrap();
    /// ```
    pub fn from_half_edges(
        vertices: usize,
        triangles: &[[u32; 3]],
        twins: &[u32],
    ) -> Result<Mesh, MeshError> {
        let nf = triangles.len();
        if vertices >= DEAD_VERTEX.raw() as usize || 3 * nf >= (1usize << 30) {
            return Err(MeshError::TooManyElements);
        }
        if twins.len() != 3 * nf {
            return Err(MeshError::BadTwin {
                half_edge: twins.len().min(3 * nf),
            });
        }
        for (t, tri) in triangles.iter().enumerate() {
            if let Some(&i) = tri.iter().find(|&&i| i as usize >= vertices) {
                return Err(MeshError::IndexOutOfRange {
                    triangle: t,
                    index: i,
                });
            }
            if tri[0] == tri[1] || tri[0] == tri[2] {
                return Err(MeshError::RepeatedVertex(Vertex::new(tri[0])));
            }
            if tri[1] == tri[2] {
                return Err(MeshError::RepeatedVertex(Vertex::new(tri[1])));
            }
        }
        const NONE: u32 = u32::MAX;
        let from = |h: usize| triangles[h / 3][h % 3];
        let to = |h: usize| triangles[h / 3][(h % 3 + 1) % 3];
        // Validate the twins and count the quad-edges per lower endpoint: quad-edges are then
        // numbered in vertex order as in `from_triangles` (a counting sort), which keeps the
        // rings of nearby vertices close in memory.
        let mut start = vec![0u32; vertices + 1];
        for h in 0..3 * nf {
            let t = twins[h];
            if t != NONE {
                let tu = t as usize;
                if tu >= 3 * nf
                    || tu == h
                    || twins[tu] != h as u32
                    || from(tu) != to(h)
                    || to(tu) != from(h)
                {
                    return Err(MeshError::BadTwin { half_edge: h });
                }
                if tu < h {
                    continue;
                }
            }
            start[from(h).min(to(h)) as usize + 1] += 1;
        }
        for v in 0..vertices {
            start[v + 1] += start[v];
        }
        let quads = start[vertices];
        let mut he = vec![NONE; 3 * nf];
        for h in 0..3 * nf {
            let t = twins[h];
            if t != NONE && (t as usize) < h {
                continue;
            }
            let (a, b) = (from(h), to(h));
            let slot = &mut start[a.min(b) as usize];
            let e = 2 * *slot;
            *slot += 1;
            // The edge leaving the lower vertex gets the even id, as in `from_triangles`.
            let (mine, theirs) = if a < b { (e, e + 1) } else { (e + 1, e) };
            he[h] = mine;
            if t != NONE {
                he[t as usize] = theirs;
            }
        }
        drop(start);
        Self::wire(vertices, triangles, &he, quads, true)
    }

    /// Wires the rings of a mesh whose half-edge `3t + k` has primal edge id `he[3t + k]`
    /// (twins share a quad-edge) and checks that every vertex ends up with one ring. With
    /// `unique_neighbours`, also rejects two edges between the same two vertices (the caller
    /// has not ruled them out).
    fn wire(
        vertices: usize,
        triangles: &[[u32; 3]],
        he: &[u32],
        quads: u32,
        unique_neighbours: bool,
    ) -> Result<Mesh, MeshError> {
        let nf = triangles.len();
        let ne = 2 * quads as usize;
        let mut m = Mesh {
            vertex_edge: vec![Edge::INVALID; vertices],
            face_edge: Vec::with_capacity(nf),
            primal_origin: vec![Vertex::INVALID; ne],
            primal_next: vec![Edge::INVALID; ne],
            dual_origin: vec![Face::INVALID; ne],
            dual_next: vec![Edge::INVALID; ne],
            live_vertices: vertices as u32,
            live_faces: nf as u32,
            live_quads: quads,
            ..Mesh::default()
        };
        // Interior wiring: around corner c at a, onext(a → next) = a → prev = sym(prev → a).
        for (t, tri) in triangles.iter().enumerate() {
            let f = Face::new(t as u32);
            let e = [he[3 * t], he[3 * t + 1], he[3 * t + 2]];
            m.face_edge.push(Edge::primal(e[0]));
            for k in 0..3 {
                let ek = e[k] as usize;
                m.primal_origin[ek] = Vertex(tri[k]);
                m.primal_origin[ek ^ 1] = Vertex(tri[(k + 1) % 3]);
                m.primal_next[ek] = Edge::primal(e[(k + 2) % 3] ^ 1);
                m.dual_origin[ek ^ 1] = f;
                m.vertex_edge[tri[k] as usize] = Edge::primal(e[k]);
            }
        }
        // Boundary wiring: an edge with a hole on its left has no corner and no onext yet; it
        // ends a fan, and the next fan around its origin starts with an edge with a hole on
        // its right (the sym of another boundary edge).
        let mut boundary: Vec<(u32, u32)> = (0..ne as u32)
            .filter(|&i| m.primal_next[i as usize] == Edge::INVALID)
            .map(|i| (m.primal_origin[i as usize].0, i))
            .collect();
        if !boundary.is_empty() {
            boundary.sort_unstable();
            let mut fan_start: Vec<(u32, u32)> = boundary
                .iter()
                .map(|&(_, i)| (m.primal_origin[(i ^ 1) as usize].0, i ^ 1))
                .collect();
            fan_start.sort_unstable();
            let mut ends: SmallVec<[u32; 4]> = SmallVec::new();
            let mut i = 0;
            while i < fan_start.len() {
                let v = fan_start[i].0;
                let mut j = i;
                ends.clear();
                // Walk each fan from its start to its end (the edge still without onext).
                while j < fan_start.len() && fan_start[j].0 == v {
                    let mut e = fan_start[j].1;
                    let mut steps = 0usize;
                    while m.primal_next[e as usize].is_valid() {
                        e = m.primal_next[e as usize].0;
                        steps += 1;
                        if steps > 3 * nf {
                            return Err(MeshError::NonManifoldVertex(Vertex(v)));
                        }
                    }
                    ends.push(e);
                    j += 1;
                }
                let starts = &fan_start[i..j];
                for (n, &end) in ends.iter().enumerate() {
                    if m.primal_next[end as usize].is_valid() {
                        // Two starts reached the same end: the fans are not simple.
                        return Err(MeshError::NonManifoldVertex(Vertex(v)));
                    }
                    m.primal_next[end as usize] = Edge::primal(starts[(n + 1) % starts.len()].1);
                }
                m.vertex_edge[v as usize] = Edge::primal(starts[0].1);
                i = j;
            }
        }
        // Each vertex must have a single ring holding all its edges.
        let mut edges_at = vec![0u32; vertices];
        for &v in &m.primal_origin {
            edges_at[v.index()] += 1;
        }
        for v in 0..vertices {
            let start = m.vertex_edge[v];
            if !start.is_valid() {
                continue;
            }
            let mut e = start;
            let mut n = 0u32;
            loop {
                n += 1;
                e = m.primal_next[e.index()];
                if e == start || n > edges_at[v] {
                    break;
                }
            }
            if n != edges_at[v] {
                return Err(MeshError::NonManifoldVertex(Vertex(v as u32)));
            }
            if unique_neighbours {
                let mut dests: SmallVec<[u32; 16]> = SmallVec::new();
                let mut e = start;
                loop {
                    dests.push(m.primal_origin[e.index() ^ 1].0);
                    e = m.primal_next[e.index()];
                    if e == start {
                        break;
                    }
                }
                dests.sort_unstable();
                if let Some(w) = dests.windows(2).find(|w| w[0] == w[1]) {
                    return Err(MeshError::EdgeOccupied {
                        from: Vertex(v as u32),
                        to: Vertex(w[0]),
                    });
                }
            }
        }
        // Dual rings follow from the primal ones: onext(rot x) = inv_rot(oprev x).
        for i in 0..ne {
            let n = m.primal_next[i];
            m.dual_next[n.index()] = Edge::dual((i ^ 1) as u32);
        }
        Ok(m)
    }
}
