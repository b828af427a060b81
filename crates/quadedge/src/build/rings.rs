//! [`Mesh::from_rings`]: a closed triangle mesh from each vertex's counter-clockwise ring of
//! neighbours, as a spherical Delaunay triangulation computed star by star produces it.
//!
//! The rings say everything: the quad-edges and faces a vertex owns (those whose lowest
//! endpoint or corner it is) are counted from its ring alone, so after two prefix sums every
//! array slot is written by its destination from the rings, with no twin search, no sort and
//! no atomics. Each task owns a contiguous chunk of vertices and the contiguous ranges of
//! edge and face ids they own, so the result is the same bits whatever the thread count.

use crate::internals::try_filled;
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, MeshError, NONE, Vertex};
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use fill::{Piece, Starts, fill};

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

impl Owned {
    /// Adds what another chunk or vertex owns.
    fn add(&mut self, o: Owned) {
        self.quads += o.quads;
        self.faces += o.faces;
        self.slots += o.slots;
    }
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
    /// Faster than [`Mesh::from_half_edges`] (by a quarter on one core for a 1M-vertex
    /// Fibonacci sphere, by half on two): every array is written by its destination from
    /// the rings alone. With the `rayon` feature it runs on all cores, to the same bits
    /// whatever the thread count. `ring` is called several times per vertex,
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
    /// // Each vertex's edge leads to the first neighbour of its ring.
    /// let around_2: Vec<u32> = m.neighbors(Vertex::new(2)).map(Vertex::raw).collect();
    /// assert_eq!(around_2, [0, 3, 1]);
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
    let (owned, total) = count_owned(vertices, ring, &ranges)?;
    let (qstart, fstart) = owned_starts(vertices, ring, &ranges, &owned, total)?;
    fill_arrays(vertices, ring, &ranges, &qstart, &fstart)
}

/// Pass 1: checks every ring and counts what each chunk owns, and in total.
///
/// Only the edges a vertex owns are checked against the other ring; together with the counts
/// (each edge takes two ring slots) that proves every slot (see `check_ring`). On any failure
/// the full check of every slot runs to name the lowest bad vertex, whatever the thread count.
fn count_owned<'a, F>(
    vertices: usize,
    ring: &F,
    ranges: &[(usize, usize)],
) -> Result<(Vec<Owned>, Owned), MeshError>
where
    F: Fn(u32) -> &'a [u32] + Sync,
{
    let sum = |owned: &[Owned]| {
        owned.iter().fold(Owned::default(), |mut a, &o| {
            a.add(o);
            a
        })
    };
    let (owned, total) = match count_chunks(vertices, ring, ranges, false) {
        Ok(owned) if sum(&owned).slots == 2 * sum(&owned).quads => {
            let total = sum(&owned);
            (owned, total)
        }
        _ => {
            count_chunks(vertices, ring, ranges, true)?;
            return Err(MeshError::Corrupt(
                "from_rings: the ring callback answered differently for the same vertex".into(),
            ));
        }
    };
    if 2 * total.quads > crate::ids::MAX_DIRECTED_EDGES as u64 || total.faces >= NONE as u64 {
        return Err(MeshError::TooManyElements);
    }
    // Each face is in three rings: what the checks guarantee, asserted cheaply.
    if total.slots != 3 * total.faces {
        return Err(MeshError::Corrupt(
            "from_rings: the rings' edge and face counts disagree".into(),
        ));
    }
    Ok((owned, total))
}

/// What each chunk owns, its rings checked fast or (`full`) slot by slot. Chunks above one
/// known to fail stop early: only the lowest failing chunk's error is reported, and it always
/// runs to its end.
fn count_chunks<'a, F>(
    vertices: usize,
    ring: &F,
    ranges: &[(usize, usize)],
    full: bool,
) -> Result<Vec<Owned>, MeshError>
where
    F: Fn(u32) -> &'a [u32] + Sync,
{
    let first_bad = AtomicUsize::new(usize::MAX);
    run(ranges.to_vec(), |(v0, v1)| {
        let mut sum = Owned::default();
        for v in v0..v1 {
            if first_bad.load(Relaxed) < v0 {
                return Err(MeshError::TooManyElements);
            }
            let own = check_ring(vertices, v as u32, ring, full).map_err(|position| {
                first_bad.fetch_min(v0, Relaxed);
                MeshError::BadRing {
                    vertex: Vertex(v as u32),
                    position,
                }
            })?;
            sum.add(own);
        }
        Ok(sum)
    })
    .into_iter()
    .collect()
}

/// Where each vertex's quad-edges and faces start (`vertices + 1` entries each): a prefix
/// sum by chunks, from each chunk's start. A chunk that counts differently than in pass 1
/// (only a `ring` that changed its answers can) is an error.
fn owned_starts<'a, F>(
    vertices: usize,
    ring: &F,
    ranges: &[(usize, usize)],
    owned: &[Owned],
    total: Owned,
) -> Result<(Vec<u32>, Vec<u32>), MeshError>
where
    F: Fn(u32) -> &'a [u32] + Sync,
{
    let mut qstart = try_filled(vertices + 1, 0u32)?;
    let mut fstart = try_filled(vertices + 1, 0u32)?;
    qstart[vertices] = total.quads as u32;
    fstart[vertices] = total.faces as u32;
    let (mut q0, mut f0) = (0u32, 0u32);
    let mut starts = crate::internals::try_vec(ranges.len())?;
    for o in owned {
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
    .zip(ranges)
    .find(|((end, want), _)| end != *want)
    .map_or(Ok(()), |(_, &(v0, _))| {
        Err(MeshError::BadRing {
            vertex: Vertex(v0 as u32),
            position: 0,
        })
    })?;
    Ok((qstart, fstart))
}

/// Pass 2: every array of the mesh by its destination, each chunk writing the contiguous
/// ranges of ids it owns.
fn fill_arrays<'a, F>(
    vertices: usize,
    ring: &F,
    ranges: &[(usize, usize)],
    qstart: &[u32],
    fstart: &[u32],
) -> Result<Mesh, MeshError>
where
    F: Fn(u32) -> &'a [u32] + Sync,
{
    let quads = qstart[vertices] as usize;
    let faces = fstart[vertices] as usize;
    let mut m = mesh_with! {
        vertex_edge: filled(vertices, Edge::INVALID)?,
        face_edge: filled(faces, Edge::INVALID)?,
        primal_origin: filled(2 * quads, Vertex::INVALID)?,
        primal_next: filled(2 * quads, Edge::INVALID)?,
        dual_origin: filled(2 * quads, Face::INVALID)?,
        dual_next: filled(2 * quads, Edge::INVALID)?,
        live_vertices: vertices as u32,
        live_faces: faces as u32,
        live_quads: quads as u32,
    };
    let at = Starts {
        quad: qstart,
        face: fstart,
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
///
/// `full` checks every slot: for consecutive neighbours `a, b`, `ring(a)` holds `b, v` in a
/// row, so each face is in its three corners' rings alike. Otherwise only the edges `v` owns
/// (to `w = ring(v)[j] > v`) are checked: `ring(w)` holds `ring(v)[j + 1], v, ring(v)[j - 1]`
/// in a row. Each checked edge vouches for two slots (`w` in `ring(v)`, `v` in `ring(w)`),
/// distinct since no ring repeats a neighbour, so when they are half of all slots every slot
/// is vouched for, and a slot `a` in `ring(v)` vouched for means `ring(a)` holds
/// `ring(v)[j + 1], v` in a row: the full check.
fn check_ring<'a>(
    vertices: usize,
    v: u32,
    ring: &impl Fn(u32) -> &'a [u32],
    full: bool,
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
    // Whether `ring(x)` holds `y, z` in a row, or with `after`, `y, z, after`.
    let in_row = |x: u32, y: u32, z: u32, after: Option<u32>| {
        let rx = ring(x);
        let n = rx.len();
        if !(3..=Mesh::MAX_RING).contains(&n) {
            return false;
        }
        match after {
            // The fast check may take the first `y` only: a miss sends it to the full check.
            Some(c) => rx.iter().position(|&w| w == y).is_some_and(|k| {
                let k1 = next(k, n);
                rx[k1] == z && rx[next(k1, n)] == c
            }),
            None => (0..n).any(|k| rx[k] == y && rx[next(k, n)] == z),
        }
    };
    for (j, &a) in r.iter().enumerate() {
        let b = r[next(j, d)];
        let bad = if full {
            // The face (v, a, b) is (a, b, v) in the ring of a.
            !in_row(a, b, v, None)
        } else {
            a > v && !in_row(a, b, v, Some(r[prev(j, d)]))
        };
        if bad {
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

/// [`try_filled`], with the memory first touched on all cores with the `rayon` feature.
fn filled<T: Clone + Send + Sync>(n: usize, value: T) -> Result<Vec<T>, MeshError> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        let mut v = crate::internals::try_vec(n)?;
        v.par_extend(rayon::iter::repeat_n(value, n).with_min_len(1 << 16));
        Ok(v)
    }
    #[cfg(not(feature = "rayon"))]
    Ok(try_filled(n, value)?)
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

#[path = "rings_fill.rs"]
mod fill;

#[cfg(test)]
#[path = "rings_tests.rs"]
mod tests;
