//! [`Mesh::from_rings`]: a closed triangle mesh from each vertex's counter-clockwise ring of
//! neighbours, as a spherical Delaunay triangulation computed star by star produces it.
//!
//! The rings say everything: the quad-edges and faces a vertex owns (those whose lowest
//! endpoint or corner it is) are counted from its ring alone, so after two prefix sums every
//! array slot is written by its destination from the rings, with no twin search, no sort and
//! no atomics. Each task owns a contiguous chunk of vertices and the contiguous ranges of
//! edge and face ids they own, so the result is the same bits whatever the thread count.

use super::try_filled;
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, MeshError, NONE, Vertex};

/// Vertices per task.
const CHUNK: usize = 1 << 14;

/// What a chunk of vertices owns: quad-edges (by lower endpoint), faces (by lowest corner),
/// and the sum of its ring lengths (each directed edge once).
#[derive(Clone, Copy, Default)]
struct Owned {
    quads: u64,
    faces: u64,
    slots: u64,
}

impl Mesh {
    /// The longest neighbour ring [`Mesh::from_rings`] accepts. It bounds the cost of finding
    /// an edge in a ring, so that hostile rings cannot make the build quadratic; a vertex of
    /// a Delaunay triangulation of well-spread points has about six neighbours.
    pub const MAX_RING: usize = 64;

    /// Builds a closed triangle mesh from each vertex's ring of neighbours: `ring(v)` lists
    /// the neighbours of vertex `v` counter-clockwise seen from outside (the orientation of
    /// [`Mesh::from_triangles`]), and two consecutive neighbours `a`, `b` (cyclically) mean
    /// that the face `(v, a, b)` exists. The rings may start anywhere.
    ///
    /// Much faster than [`Mesh::from_half_edges`]: every array is written by its
    /// destination from the rings alone. With the `rayon` feature it runs on all cores, to
    /// the same bits whatever the thread count. `ring` is called several times per vertex,
    /// so it should be cheap, and it must answer the same for the same vertex every time.
    ///
    /// The numbering is fixed by the rings:
    /// - quad-edges by lower endpoint `v` ascending, then by position `j` in `ring(v)`: one for
    ///   each `j` with `ring(v)[j] > v`. Directed edge `2q` leaves the lower endpoint, `2q + 1`
    ///   the higher one;
    /// - faces by lowest corner `u` ascending, then by position `j`: face
    ///   `(u, ring(u)[j], ring(u)[j + 1])` when both neighbours are above `u`. Its
    ///   [`Mesh::face_edge`] is the edge `u → ring(u)[j]`;
    /// - the [`Mesh::vertex_edge`] of `v` is the edge `v → ring(v)[0]`.
    ///
    /// A closed mesh has no isolated vertex: every vertex needs a ring. Several closed
    /// components are fine.
    ///
    /// # Errors
    /// [`MeshError::TooManyElements`] when `vertices` or the implied edge or face counts do
    /// not fit the id spaces; [`MeshError::OutOfMemory`] when the arrays cannot be allocated
    /// (nothing is allocated before every ring has been checked); [`MeshError::BadRing`] for
    /// the lowest vertex whose ring is shorter than 3 or longer than [`Mesh::MAX_RING`],
    /// holds a neighbour out of range, itself or a neighbour twice, or has two consecutive
    /// neighbours `a`, `b` where `ring(a)` does not hold `b` immediately followed by `v`.
    /// These checks are complete: accepted rings always give a mesh that passes
    /// [`Mesh::check`]. A `ring` that changes its answers between calls gets an error or an
    /// unspecified mesh, never a panic.
    ///
    /// ```
    /// use quadedge::{Edge, Face, Mesh, Vertex};
    /// // A tetrahedron: the rings of `shapes::tetrahedron()`.
    /// let rings: [&[u32]; 4] = [&[1, 3, 2], &[0, 2, 3], &[0, 3, 1], &[0, 1, 2]];
    /// let m = Mesh::from_rings(4, |v| rings[v as usize]).unwrap();
    /// m.check().unwrap();
    /// assert_eq!((m.undirected_edge_count(), m.face_count()), (6, 4));
    /// // Quad-edge 1 joins vertex 0 to ring(0)[1] = 3; face 3 is (1, 2, 3).
    /// assert_eq!(m.dest(Edge::primal(2)), Vertex::new(3));
    /// assert_eq!(m.face_edge(Face::new(3)), Edge::primal(6));
    /// let same = quadedge::shapes::tetrahedron();
    /// assert_eq!(Mesh::from_triangles(same.0, &same.1).unwrap().face_count(), 4);
    /// ```
    pub fn from_rings<'a, F>(vertices: usize, ring: F) -> Result<Mesh, MeshError>
    where
        F: Fn(u32) -> &'a [u32] + Sync,
    {
        from_rings_in_chunks(vertices, &ring, CHUNK)
    }
}

/// [`Mesh::from_rings`] with `chunk` vertices per task (small in tests, to use many tasks).
pub(super) fn from_rings_in_chunks<'a, F>(
    vertices: usize,
    ring: &F,
    chunk: usize,
) -> Result<Mesh, MeshError>
where
    F: Fn(u32) -> &'a [u32] + Sync,
{
    // Every vertex has at least 3 neighbours, so at least 3 directed edges leave it.
    if vertices >= DEAD_VERTEX.raw() as usize || vertices > crate::ids::MAX_DIRECTED_EDGES / 3 {
        return Err(MeshError::TooManyElements);
    }
    let chunk = chunk.max(1);
    let ranges: Vec<(usize, usize)> = (0..vertices)
        .step_by(chunk)
        .map(|v0| (v0, (v0 + chunk).min(vertices)))
        .collect();
    // Pass 1: check every ring and count what each chunk owns. Each chunk stops at its first
    // bad vertex, and the first chunk with one reports it: the lowest bad vertex.
    let owned: Vec<Owned> = run(ranges.clone(), |(v0, v1)| {
        let mut sum = Owned::default();
        for v in v0..v1 {
            let own =
                check_ring(vertices, v as u32, ring).map_err(|position| MeshError::BadRing {
                    vertex: Vertex(v as u32),
                    position,
                })?;
            sum.quads += own.quads;
            sum.faces += own.faces;
            sum.slots += own.slots;
        }
        Ok(sum)
    })
    .into_iter()
    .collect::<Result<_, _>>()?;
    let total = owned.iter().fold(Owned::default(), |a, o| Owned {
        quads: a.quads + o.quads,
        faces: a.faces + o.faces,
        slots: a.slots + o.slots,
    });
    if 2 * total.quads > crate::ids::MAX_DIRECTED_EDGES as u64 || total.faces >= NONE as u64 {
        return Err(MeshError::TooManyElements);
    }
    // Each directed edge is in one ring and each face in three: what the checks guarantee,
    // asserted at the cost of three sums.
    if total.slots != 2 * total.quads || total.slots != 3 * total.faces {
        return Err(MeshError::Corrupt(
            "from_rings: the rings' edge and face counts disagree".into(),
        ));
    }
    // Where each vertex's quad-edges and faces start: a prefix sum, by chunks.
    let mut qstart = try_filled(vertices + 1, 0u32)?;
    let mut fstart = try_filled(vertices + 1, 0u32)?;
    qstart[vertices] = total.quads as u32;
    fstart[vertices] = total.faces as u32;
    let (mut q0, mut f0) = (0u32, 0u32);
    let mut starts = Vec::new();
    starts
        .try_reserve_exact(ranges.len())
        .map_err(|_| MeshError::OutOfMemory)?;
    for o in &owned {
        starts.push((q0, f0));
        q0 += o.quads as u32;
        f0 += o.faces as u32;
    }
    let tasks = ranges
        .iter()
        .zip(&starts)
        .zip(split(&mut qstart, ranges.iter().map(|r| r.1 - r.0)))
        .zip(split(&mut fstart, ranges.iter().map(|r| r.1 - r.0)))
        .map(|(((&r, &s), qs), fs)| (r, s, qs, fs))
        .collect();
    run(tasks, |((v0, v1), (mut q, mut f), qs, fs)| {
        for v in v0..v1 {
            qs[v - v0] = q;
            fs[v - v0] = f;
            let r = ring(v as u32);
            for (j, &a) in r.iter().enumerate() {
                if a > v as u32 {
                    q += 1;
                    f += u32::from(r[next(j, r.len())] > v as u32);
                }
            }
        }
        (q, f)
    })
    .into_iter()
    .zip(
        starts
            .iter()
            .skip(1)
            .chain([&(qstart[vertices], fstart[vertices])]),
    )
    .zip(&ranges)
    // Only a `ring` that changed its answers since pass 1 can count differently.
    .find(|((end, want), _)| end != *want)
    .map_or(Ok(()), |(_, &(v0, _))| {
        Err(MeshError::BadRing {
            vertex: Vertex(v0 as u32),
            position: 0,
        })
    })?;
    drop(starts);
    // Pass 2: every array by its destination.
    let quads = total.quads as usize;
    let faces = total.faces as usize;
    let mut m = Mesh {
        vertex_edge: try_filled(vertices, Edge::INVALID)?,
        face_edge: try_filled(faces, Edge::INVALID)?,
        primal_origin: try_filled(2 * quads, Vertex::INVALID)?,
        primal_next: try_filled(2 * quads, Edge::INVALID)?,
        dual_origin: try_filled(2 * quads, Face::INVALID)?,
        dual_next: try_filled(2 * quads, Edge::INVALID)?,
        live_vertices: vertices as u32,
        live_faces: faces as u32,
        live_quads: quads as u32,
        ..Mesh::default()
    };
    let at = Starts {
        quad: &qstart,
        face: &fstart,
    };
    let edge_lens = || {
        ranges
            .iter()
            .map(|&(v0, v1)| 2 * (qstart[v1] - qstart[v0]) as usize)
    };
    let face_lens = ranges
        .iter()
        .map(|&(v0, v1)| (fstart[v1] - fstart[v0]) as usize);
    let pieces: Vec<Piece<'_>> = ranges
        .iter()
        .zip(split(&mut m.vertex_edge, ranges.iter().map(|r| r.1 - r.0)))
        .zip(split(&mut m.face_edge, face_lens))
        .zip(split(&mut m.primal_origin, edge_lens()))
        .zip(split(&mut m.primal_next, edge_lens()))
        .zip(split(&mut m.dual_origin, edge_lens()))
        .zip(split(&mut m.dual_next, edge_lens()))
        .map(|((((((&(v0, v1), ve), fe), po), pn), dor), dn)| Piece {
            v0,
            v1,
            vertex_edge: ve,
            face_edge: fe,
            primal_origin: po,
            primal_next: pn,
            dual_origin: dor,
            dual_next: dn,
        })
        .collect();
    run(pieces, |p| fill(p, &at, ring))
        .into_iter()
        .collect::<Result<(), _>>()?;
    Ok(m)
}

/// Checks the ring of `v` on its own and against its neighbours' rings; what `v` owns, or
/// the first bad position.
fn check_ring<'a>(
    vertices: usize,
    v: u32,
    ring: &impl Fn(u32) -> &'a [u32],
) -> Result<Owned, usize> {
    let r = ring(v);
    let d = r.len();
    if d < 3 {
        return Err(d);
    }
    if d > Mesh::MAX_RING {
        return Err(Mesh::MAX_RING);
    }
    let mut own = Owned {
        slots: d as u64,
        ..Owned::default()
    };
    if let Some(j) = (0..d).find(|&j| {
        let a = r[j];
        a as usize >= vertices || a == v || r[..j].contains(&a)
    }) {
        return Err(j);
    }
    for (j, &a) in r.iter().enumerate() {
        // The face (v, a, b) is (a, b, v) in the ring of a: b followed by v there.
        let b = r[next(j, d)];
        let ra = ring(a);
        let n = ra.len();
        let found = (3..=Mesh::MAX_RING).contains(&n)
            && ra
                .iter()
                .position(|&x| x == b)
                .is_some_and(|k| ra[next(k, n)] == v);
        if !found {
            return Err(j);
        }
        if a > v {
            own.quads += 1;
            own.faces += u64::from(b > v);
        }
    }
    Ok(own)
}

/// The position after `j` in a ring of `n`.
fn next(j: usize, n: usize) -> usize {
    if j + 1 == n { 0 } else { j + 1 }
}

/// The position before `j` in a ring of `n`.
fn prev(j: usize, n: usize) -> usize {
    if j == 0 { n - 1 } else { j - 1 }
}

/// Where each vertex's quad-edges and faces start (`vertices + 1` entries each).
struct Starts<'s> {
    quad: &'s [u32],
    face: &'s [u32],
}

impl Starts<'_> {
    /// Finds `x` in the ring of `lo < x`: the quad-edge joining them, and the face
    /// `(lo, x, after x)` were `lo` its lowest corner. `None` only when the rings changed
    /// since they were checked.
    fn find<'a>(&self, ring: &impl Fn(u32) -> &'a [u32], lo: u32, x: u32) -> Option<(u32, u32)> {
        let lo_at = lo as usize;
        let (mut q, q_end) = (*self.quad.get(lo_at)?, *self.quad.get(lo_at + 1)?);
        let mut f = *self.face.get(lo_at)?;
        let r = ring(lo);
        for (j, &w) in r.iter().enumerate() {
            if w == x {
                return (q < q_end).then_some((q, f));
            }
            if w > lo {
                q += 1;
                f += u32::from(r[next(j, r.len())] > lo);
            }
        }
        None
    }

    /// The face id `f` when `lo` owns it.
    fn owned_face(&self, lo: u32, f: u32) -> Option<u32> {
        (f < *self.face.get(lo as usize + 1)?).then_some(f)
    }
}

/// One task's share of the mesh: vertices `v0..v1`, the faces and the quad-edges they own.
struct Piece<'m> {
    v0: usize,
    v1: usize,
    vertex_edge: &'m mut [Edge],
    face_edge: &'m mut [Edge],
    primal_origin: &'m mut [Vertex],
    primal_next: &'m mut [Edge],
    dual_origin: &'m mut [Face],
    dual_next: &'m mut [Edge],
}

/// Ids around one vertex `u` with ring `r`, per position `j`: the edge `u → r[j]`, the face
/// `(u, r[j], r[j + 1])` and its edge `r[j] → r[j + 1]` (opposite `u`).
struct Around {
    out: [u32; Mesh::MAX_RING],
    face: [u32; Mesh::MAX_RING],
    opposite: [u32; Mesh::MAX_RING],
}

impl Around {
    /// The ids around `u`, each found in the ring of its lowest vertex; `None` only when the
    /// rings changed since they were checked.
    fn of<'a>(
        &mut self,
        at: &Starts<'_>,
        ring: &impl Fn(u32) -> &'a [u32],
        u: u32,
        r: &[u32],
    ) -> Option<()> {
        let d = r.len();
        let (mut q, mut f) = (at.quad[u as usize], at.face[u as usize]);
        for (j, &a) in r.iter().enumerate() {
            let b = r[next(j, d)];
            if a > u {
                self.out[j] = 2 * q;
                q += 1;
            } else {
                self.out[j] = 2 * at.find(ring, a, u)?.0 + 1;
            }
            if a > u && b > u {
                self.face[j] = at.owned_face(u, f)?;
                f += 1;
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                self.opposite[j] = 2 * at.find(ring, lo, hi)?.0 + u32::from(a > b);
            } else if a < b {
                // The face is (a, b, u) in the ring of a.
                let (q, f) = at.find(ring, a, b)?;
                self.face[j] = at.owned_face(a, f)?;
                self.opposite[j] = 2 * q;
            } else {
                // The face is (b, u, a) in the ring of b.
                self.face[j] = at.owned_face(b, at.find(ring, b, u)?.1)?;
                self.opposite[j] = 2 * at.find(ring, b, a)?.0 + 1;
            }
        }
        Some(())
    }
}

/// Writes a piece, with the conventions of the triangle builders: `onext(v → ring[j])` is
/// `v → ring[j + 1]`, the dual origin of an edge is the face on the left of its reverse, and
/// the dual onext of an edge is the dual of the reverse of its primal oprev. For the
/// quad-edge `u → w = ring(u)[j]`, the checks make `ring(w)` hold `ring(u)[j + 1], u,
/// ring(u)[j - 1]` in a row, so everything about `w → u` is known around `u` too.
fn fill<'a>(
    p: Piece<'_>,
    at: &Starts<'_>,
    ring: &impl Fn(u32) -> &'a [u32],
) -> Result<(), MeshError> {
    let (q0, f0) = (at.quad[p.v0], at.face[p.v0]);
    let mut around = Around {
        out: [0; Mesh::MAX_RING],
        face: [0; Mesh::MAX_RING],
        opposite: [0; Mesh::MAX_RING],
    };
    for v in p.v0..p.v1 {
        let u = v as u32;
        let r = ring(u);
        let d = r.len();
        let bad = MeshError::BadRing {
            vertex: Vertex(u),
            position: 0,
        };
        if !(3..=Mesh::MAX_RING).contains(&d) {
            return Err(bad);
        }
        around.of(at, ring, u, r).ok_or(bad.clone())?;
        let Around {
            out,
            face,
            opposite,
        } = &around;
        p.vertex_edge[v - p.v0] = Edge::primal(out[0]);
        let (mut q, q_end) = (at.quad[v] - q0, at.quad[v + 1] - q0);
        let (mut f, f_end) = (at.face[v] - f0, at.face[v + 1] - f0);
        for (j, &w) in r.iter().enumerate() {
            if w <= u {
                continue;
            }
            if q >= q_end {
                return Err(bad);
            }
            let (before, after) = (prev(j, d), next(j, d));
            let e = 2 * q as usize;
            p.primal_origin[e] = Vertex(u);
            p.primal_origin[e + 1] = Vertex(w);
            p.primal_next[e] = Edge::primal(out[after]);
            p.primal_next[e + 1] = Edge::primal(opposite[before] ^ 1);
            p.dual_origin[e] = Face(face[before]);
            p.dual_origin[e + 1] = Face(face[j]);
            p.dual_next[e] = Edge::dual(out[before] ^ 1);
            p.dual_next[e + 1] = Edge::dual(opposite[j] ^ 1);
            if r[after] > u {
                if f >= f_end {
                    return Err(bad);
                }
                p.face_edge[f as usize] = Edge::primal(out[j]);
                f += 1;
            }
            q += 1;
        }
        if q != q_end || f != f_end {
            return Err(bad);
        }
    }
    Ok(())
}

/// `whole` cut into consecutive pieces of the given lengths (which the caller has made add
/// up to at most its length).
fn split<T>(whole: &mut [T], lens: impl Iterator<Item = usize>) -> Vec<&mut [T]> {
    let mut rest = whole;
    lens.map(|n| {
        let (piece, tail) = core::mem::take(&mut rest).split_at_mut(n);
        rest = tail;
        piece
    })
    .collect()
}

/// `f` on every task, in parallel with the `rayon` feature; the results in task order.
fn run<T: Send, R: Send>(tasks: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        tasks.into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        tasks.into_iter().map(f).collect()
    }
}

#[cfg(test)]
#[path = "rings_tests.rs"]
mod tests;
