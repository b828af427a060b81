//! Bulk construction: whole triangle buffers, with or without half-edge twins.

use super::validate_triangles;
use crate::internals::try_filled;
use crate::{Edge, Face, Mesh, MeshError, NONE, Vertex};
use smallvec::SmallVec;

/// Marks a half-edge already numbered by its twin in the in-place build: edge ids stay below
/// 2^31 (`MAX_DIRECTED_EDGES`), and no marked id equals `NONE`.
const NUMBERED: u32 = 1 << 31;

impl Mesh {
    /// Builds a mesh from a triangle index buffer (counter-clockwise triangles, vertex ids
    /// `0..vertices`), independent of the order of the triangles.
    ///
    /// Face `i` is triangle `i`. Much faster than calling [`Mesh::add_face`] in a loop: rings are
    /// derived from a per-vertex corner table in linear time. Vertices used by no triangle stay
    /// isolated. Never builds a multigraph: each pair of vertices shares at most one edge.
    ///
    /// # Errors
    /// [`MeshError::TooManyElements`] when `vertices` or the triangle count do not fit the id
    /// spaces; [`MeshError::OutOfMemory`] when the arrays cannot be allocated;
    /// [`MeshError::IndexOutOfRange`] and [`MeshError::RepeatedVertex`] for bad triangles;
    /// [`MeshError::EdgeOccupied`] for a directed edge used twice (non-manifold edge or
    /// inconsistent winding); [`MeshError::NonManifoldVertex`] for a vertex whose faces do not
    /// form one disk or a set of half-disks.
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
        validate_triangles(vertices, triangles)?;
        let nf = triangles.len();
        // Corner table: corners of vertex v are corner_ids[offset[v]..offset[v+1]],
        // corner id = 3 * face + k.
        let mut offset = try_filled(vertices + 1, 0u32)?;
        for tri in triangles {
            for &i in tri {
                offset[i as usize + 1] += 1;
            }
        }
        for v in 0..vertices {
            offset[v + 1] += offset[v];
        }
        let mut fill = try_filled(vertices + 1, 0u32)?;
        fill.copy_from_slice(&offset);
        let mut corners = try_filled(3 * nf, 0u32)?;
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
        let mut he = try_filled(3 * nf, NONE)?;
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
    /// Quad-edges are numbered in vertex order, as by [`Mesh::from_triangles`]. With the
    /// `rayon` feature, a large closed mesh is built on all cores (from 3 threads), to the same
    /// bits.
    ///
    /// # Errors
    /// As [`Mesh::from_triangles`], plus [`MeshError::BadTwin`] for a twin that is out of
    /// range, not mutual or not the reverse half-edge (or a `twins` of the wrong length), and
    /// [`MeshError::EdgeOccupied`] when two edges would join the same two vertices.
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
        #[cfg(feature = "rayon")]
        if twins.len() >= super::par::MIN_HALF_EDGES
            && rayon::current_num_threads() >= super::par::MIN_THREADS
            && let Some(mesh) = super::par::from_closed_half_edges(vertices, triangles, twins)
        {
            return Ok(mesh);
        }
        Self::from_half_edges_one_core(vertices, triangles, twins)
    }

    /// [`Mesh::from_half_edges`] taking the twins by value: the one-core build numbers the
    /// quad-edges in the twins' own buffer instead of a second one of the same size (a
    /// quarter of the build's peak memory beside the triangles and the mesh).
    ///
    /// # Errors
    /// As [`Mesh::from_half_edges`].
    ///
    /// ```
    /// use quadedge::Mesh;
    /// let tris = [[0, 1, 2], [0, 2, 3]];
    /// let twins = vec![u32::MAX, u32::MAX, 3, 2, u32::MAX, u32::MAX];
    /// let a = Mesh::from_half_edges(4, &tris, &twins).unwrap();
    /// let b = Mesh::from_half_edges_owned(4, &tris, twins).unwrap();
    /// assert!(a == b);
    /// ```
    pub fn from_half_edges_owned(
        vertices: usize,
        triangles: &[[u32; 3]],
        twins: Vec<u32>,
    ) -> Result<Mesh, MeshError> {
        #[cfg(feature = "rayon")]
        if twins.len() >= super::par::MIN_HALF_EDGES
            && rayon::current_num_threads() >= super::par::MIN_THREADS
            && let Some(mesh) = super::par::from_closed_half_edges(vertices, triangles, &twins)
        {
            return Ok(mesh);
        }
        Self::from_half_edges_in_place(vertices, triangles, twins)
    }

    /// [`Mesh::from_half_edges`] on the calling thread: the reference the parallel build is
    /// held to, and the path of every input it does not take.
    pub(crate) fn from_half_edges_one_core(
        vertices: usize,
        triangles: &[[u32; 3]],
        twins: &[u32],
    ) -> Result<Mesh, MeshError> {
        let mut own = crate::internals::try_vec(twins.len())?;
        own.extend_from_slice(twins);
        Self::from_half_edges_in_place(vertices, triangles, own)
    }

    /// The one-core build, turning `twins` into the quad-edge numbering in place.
    fn from_half_edges_in_place(
        vertices: usize,
        triangles: &[[u32; 3]],
        mut twins: Vec<u32>,
    ) -> Result<Mesh, MeshError> {
        validate_triangles(vertices, triangles)?;
        let nf = triangles.len();
        if twins.len() != 3 * nf {
            return Err(MeshError::BadTwin {
                half_edge: twins.len().min(3 * nf),
            });
        }
        // Validate the twins and count the quad-edges per lower endpoint: quad-edges are then
        // numbered in vertex order as in `from_triangles` (a counting sort), which keeps the
        // rings of nearby vertices close in memory. The check only reads, so with two threads
        // each takes half of the half-edges; the first bad one is reported either way.
        let mut start = try_filled(vertices + 1, 0u32)?;
        #[cfg(feature = "rayon")]
        let counted = count_quads_in_halves(triangles, &twins, &mut start)?;
        #[cfg(not(feature = "rayon"))]
        let counted = false;
        if !counted {
            count_quads(triangles, &twins, 0..nf, &mut start)?;
        }
        for v in 0..vertices {
            start[v + 1] += start[v];
        }
        let quads = start[vertices];
        // In place: the first half-edge of a pair numbers both; its twin's slot gets its
        // edge id marked with `NUMBERED` (ids stay below 2^31), so that it is skipped when
        // reached. `wire` clears the mark as it reads.
        for (t, tri) in triangles.iter().enumerate() {
            for k in 0..3 {
                let h = 3 * t + k;
                let tw = twins[h];
                if tw != NONE && tw & NUMBERED != 0 {
                    continue;
                }
                let (a, b) = (tri[k], tri[NEXT_CORNER[k]]);
                let slot = &mut start[a.min(b) as usize];
                let e = 2 * *slot;
                *slot += 1;
                // The edge leaving the lower vertex gets the even id, as in `from_triangles`.
                let (mine, theirs) = if a < b { (e, e + 1) } else { (e + 1, e) };
                twins[h] = mine;
                if tw != NONE {
                    // Validated above: an unmarked twin comes after `h`.
                    twins[tw as usize] = theirs | NUMBERED;
                }
            }
        }
        drop(start);
        Self::wire(vertices, triangles, &twins, quads, true)
    }

    /// Wires the rings of a mesh whose half-edge `3t + k` has primal edge id `he[3t + k]`
    /// (twins share a quad-edge; a `NUMBERED` mark is ignored) and checks that every vertex
    /// ends up with one ring. With `unique_neighbours`, also rejects two edges between the
    /// same two vertices (the caller has not ruled them out).
    fn wire(
        vertices: usize,
        triangles: &[[u32; 3]],
        he: &[u32],
        quads: u32,
        unique_neighbours: bool,
    ) -> Result<Mesh, MeshError> {
        let nf = triangles.len();
        let ne = 2 * quads as usize;
        let mut m = mesh_with! {
            vertex_edge: try_filled(vertices, Edge::INVALID)?,
            face_edge: try_filled(0, Edge::INVALID)?,
            primal_origin: try_filled(ne, Vertex::INVALID)?,
            primal_next: try_filled(ne, Edge::INVALID)?,
            dual_origin: try_filled(ne, Face::INVALID)?,
            dual_next: try_filled(ne, Edge::INVALID)?,
            live_vertices: vertices as u32,
            live_faces: nf as u32,
            live_quads: quads,
        };
        m.face_edge
            .try_reserve_exact(nf)
            .map_err(|_| MeshError::OutOfMemory)?;
        m.wire_corners(triangles, he);
        m.wire_boundary(nf)?;
        m.check_rings_and_fill_dual(unique_neighbours)?;
        Ok(m)
    }

    /// Interior wiring, triangle by triangle: around corner c at a, onext(a → next) = a → prev
    /// = sym(prev → a). Leaves without onext exactly the edges with a hole on their left.
    fn wire_corners(&mut self, triangles: &[[u32; 3]], he: &[u32]) {
        for (t, tri) in triangles.iter().enumerate() {
            let f = Face::new(t as u32);
            let e = [he[3 * t], he[3 * t + 1], he[3 * t + 2]].map(|x| x & !NUMBERED);
            self.face_edge.push(Edge::primal(e[0]));
            for k in 0..3 {
                let ek = e[k] as usize;
                self.primal_origin[ek] = Vertex(tri[k]);
                self.primal_origin[ek ^ 1] = Vertex(tri[(k + 1) % 3]);
                self.primal_next[ek] = Edge::primal(e[(k + 2) % 3] ^ 1);
                self.dual_origin[ek ^ 1] = f;
                self.vertex_edge[tri[k] as usize] = Edge::primal(e[k]);
            }
        }
    }

    /// Boundary wiring: an edge with a hole on its left (no onext yet) ends a fan, and the
    /// next fan around its origin starts at the sym of another; fans must chain simply.
    fn wire_boundary(&mut self, nf: usize) -> Result<(), MeshError> {
        let ne = self.primal_next.len();
        let mut boundary: Vec<(u32, u32)> = (0..ne as u32)
            .filter(|&i| self.primal_next[i as usize] == Edge::INVALID)
            .map(|i| (self.primal_origin[i as usize].0, i))
            .collect();
        if boundary.is_empty() {
            return Ok(());
        }
        boundary.sort_unstable();
        let mut fan_start: Vec<(u32, u32)> = boundary
            .iter()
            .map(|&(_, i)| (self.primal_origin[(i ^ 1) as usize].0, i ^ 1))
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
                while self.primal_next[e as usize].is_valid() {
                    e = self.primal_next[e as usize].0;
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
                if self.primal_next[end as usize].is_valid() {
                    // Two starts reached the same end: the fans are not simple.
                    return Err(MeshError::NonManifoldVertex(Vertex(v)));
                }
                self.primal_next[end as usize] = Edge::primal(starts[(n + 1) % starts.len()].1);
            }
            self.vertex_edge[v as usize] = Edge::primal(starts[0].1);
            i = j;
        }
        Ok(())
    }

    /// Each vertex must have a single ring holding all its edges; the dual rings follow from
    /// the primal ones. The check only reads the primal rings, so a second thread fills the
    /// dual ones meanwhile (thrown away with the mesh if the check fails).
    fn check_rings_and_fill_dual(&mut self, unique_neighbours: bool) -> Result<(), MeshError> {
        let (primal_next, primal_origin, vertex_edge) =
            (&self.primal_next, &self.primal_origin, &self.vertex_edge);
        let dual_next = &mut self.dual_next;
        let check = || check_rings(primal_next, primal_origin, vertex_edge, unique_neighbours);
        let mut fill = move || {
            // Onext(rot x) = inv_rot(oprev x). An edge without onext is caught by the check.
            for (i, n) in primal_next.iter().enumerate() {
                if let Some(d) = dual_next.get_mut(n.index()) {
                    *d = Edge::dual((i ^ 1) as u32);
                }
            }
        };
        #[cfg(feature = "rayon")]
        if primal_next.len() >= super::par::MIN_HALF_EDGES && rayon::current_num_threads() >= 2 {
            return rayon::join(check, fill).0;
        }
        check()?;
        fill();
        Ok(())
    }
}

/// Checks that each vertex has a single ring holding all its edges (and, with
/// `unique_neighbours`, no neighbour twice): the first vertex that has not is the error.
fn check_rings(
    primal_next: &[Edge],
    primal_origin: &[Vertex],
    vertex_edge: &[Edge],
    unique_neighbours: bool,
) -> Result<(), MeshError> {
    let mut edges_at = try_filled(vertex_edge.len(), 0u32)?;
    for &v in primal_origin {
        edges_at[v.index()] += 1;
    }
    for (v, &start) in vertex_edge.iter().enumerate() {
        if !start.is_valid() {
            continue;
        }
        // One walk counts the ring and, when asked, gathers its neighbours.
        let mut dests: SmallVec<[u32; 16]> = SmallVec::new();
        let mut e = start;
        let mut n = 0u32;
        loop {
            if unique_neighbours {
                dests.push(primal_origin[e.index() ^ 1].0);
            }
            n += 1;
            e = primal_next[e.index()];
            if e == start || n > edges_at[v] {
                break;
            }
        }
        if n != edges_at[v] {
            return Err(MeshError::NonManifoldVertex(Vertex(v as u32)));
        }
        dests.sort_unstable();
        if let Some(w) = dests.windows(2).find(|w| w[0] == w[1]) {
            return Err(MeshError::EdgeOccupied {
                from: Vertex(v as u32),
                to: Vertex(w[0]),
            });
        }
    }
    Ok(())
}

/// Checks the twins of the half-edges of triangles `range` (in range, mutual, reversed) and
/// counts, at `count[v + 1]`, the quad-edges whose first half-edge is there, by lower
/// endpoint `v`. Walks triangle by triangle, so that only the twin's corner needs a division.
fn count_quads(
    triangles: &[[u32; 3]],
    twins: &[u32],
    range: core::ops::Range<usize>,
    count: &mut [u32],
) -> Result<(), MeshError> {
    let nh = twins.len();
    for t in range {
        let tri = triangles[t];
        for k in 0..3 {
            let h = 3 * t + k;
            let (a, b) = (tri[k], tri[NEXT_CORNER[k]]);
            let tw = twins[h];
            if tw != NONE {
                let tu = tw as usize;
                if tu >= nh || tu == h || twins[tu] != h as u32 {
                    return Err(MeshError::BadTwin { half_edge: h });
                }
                let (o, r) = (triangles[tu / 3], tu % 3);
                if o[r] != b || o[NEXT_CORNER[r]] != a {
                    return Err(MeshError::BadTwin { half_edge: h });
                }
                if tu < h {
                    continue;
                }
            }
            count[a.min(b) as usize + 1] += 1;
        }
    }
    Ok(())
}

/// The corner after corner `k` of a triangle.
const NEXT_CORNER: [usize; 3] = [1, 2, 0];

/// [`count_quads`] on all half-edges, one half on each of two threads: `false` (nothing
/// done) when there is one thread or too little work. The first bad twin is the one a
/// single pass reports: the lower half's if it has one.
#[cfg(feature = "rayon")]
fn count_quads_in_halves(
    triangles: &[[u32; 3]],
    twins: &[u32],
    count: &mut [u32],
) -> Result<bool, MeshError> {
    let nf = triangles.len();
    if twins.len() < super::par::MIN_HALF_EDGES || rayon::current_num_threads() < 2 {
        return Ok(false);
    }
    let mut upper = try_filled(count.len(), 0u32)?;
    let mid = nf / 2;
    let (low, high) = rayon::join(
        || count_quads(triangles, twins, 0..mid, count),
        || count_quads(triangles, twins, mid..nf, &mut upper),
    );
    low.and(high)?;
    for (c, u) in count.iter_mut().zip(&upper) {
        *c += u;
    }
    Ok(true)
}

#[cfg(test)]
#[path = "bulk_tests.rs"]
mod tests;
