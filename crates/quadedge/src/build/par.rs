//! [`Mesh::from_half_edges`] on all cores for closed meshes (every half-edge has a twin), the
//! case of spheres. It builds exactly the arrays of the one-core path: quad-edges numbered by
//! lower endpoint then half-edge, each vertex's edge that of its last corner, the same rings.
//! Every array is computed by its destination (one task per chunk of ids, each slot written
//! from the inputs), so the result is the same bits whatever the thread count; only the
//! per-vertex counts and the claims of bucket slots use relaxed atomics, and the slots are
//! put back in half-edge order before use.
//!
//! Input the fast path cannot vouch for (a bad index or twin, a boundary, a vertex whose
//! corners make more than one fan, two edges between the same vertices) goes to the one-core
//! path, which returns the exact error.

use crate::internals::try_vec;
use crate::{Edge, Face, Mesh, Vertex};
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};
use rayon::prelude::*;
use smallvec::SmallVec;

/// Half-edges below which the one-core path is as fast.
pub(super) const MIN_HALF_EDGES: usize = 1 << 15;

/// Threads from which this path is taken. It does about 2.3 times the work of the one-core
/// path (relaxed atomic counts and claims, and half-edge ids looked up in the buckets rather
/// than stored, which keeps the peak memory of a 10M-vertex build under 2 GiB), by sampling
/// a 1M-vertex Fibonacci sphere on one thread. On two threads it only breaks even, so it
/// starts at three.
pub(super) const MIN_THREADS: usize = 3;

/// Ids per rayon task.
const CHUNK: usize = 1 << 14;

/// The mesh of a closed triangle buffer with twins, or `None` to leave the input to the
/// one-core path (which either builds the same mesh or reports what is wrong).
pub(super) fn from_closed_half_edges(
    vertices: usize,
    triangles: &[[u32; 3]],
    twins: &[u32],
) -> Option<Mesh> {
    if twins.len() != 3 * triangles.len()
        || vertices >= crate::mesh::DEAD_VERTEX.raw() as usize
        || triangles.len() > crate::ids::MAX_DIRECTED_EDGES / 6
    {
        return None;
    }
    let (count, last) = validate_and_count(vertices, triangles, twins)?;
    let mut start: Vec<u32> = count.into_iter().map(AtomicU32::into_inner).collect();
    for v in 0..vertices {
        start[v + 1] += start[v];
    }
    let quad_half = lower_half_edges(triangles, twins, &start)?;
    let ids = EdgeIds {
        triangles,
        twins,
        start: &start,
        quad_half: &quad_half,
    };
    let quads = start[vertices] as usize;
    let mut m = mesh_with! {
        vertex_edge: last
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|l| match l.into_inner() {
                0 => Edge::INVALID,
                h => Edge::primal(ids.of(h as usize - 1)),
            })
            .collect(),
        face_edge: (0..triangles.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|t| Edge::primal(ids.of(3 * t)))
            .collect(),
        live_vertices: vertices as u32,
        live_faces: triangles.len() as u32,
        live_quads: quads as u32,
    };
    (
        (m.primal_origin, m.primal_next),
        (m.dual_origin, m.dual_next),
    ) = ids.edge_arrays(2 * quads)?;
    drop(quad_half);
    drop(start);
    // Every ring is a cycle of `primal_next` (a permutation here); the mesh is manifold when
    // each vertex's cycle holds all its edges, i.e. the cycles through the vertices' edges add
    // up to every edge, and no cycle meets the same neighbour twice.
    let covered: Option<usize> = (0..vertices)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map(|v| ring_length(&m, v))
        .try_reduce(|| 0, |a, b| Some(a + b));
    (covered? == 2 * quads).then_some(m)
}

/// Validates every half-edge (indices in range, distinct corners, a mutual reversed twin),
/// counting the quad-edges per lower endpoint (at `v + 1`) and finding each vertex's last
/// corner (plus one, 0 for none); `None` when anything is off or the memory is not there.
fn validate_and_count(
    vertices: usize,
    triangles: &[[u32; 3]],
    twins: &[u32],
) -> Option<(Vec<AtomicU32>, Vec<AtomicU32>)> {
    let nh = twins.len();
    let (from, to) = (|h| origin(triangles, h), |h| target(triangles, h));
    let count = atomics(vertices + 1)?;
    let last = atomics(vertices)?;
    let valid = (0..nh).into_par_iter().with_min_len(CHUNK).all(|h| {
        let tri = triangles[h / 3];
        let t = twins[h] as usize;
        let ok = tri.iter().all(|&i| (i as usize) < vertices)
            && tri[0] != tri[1]
            && tri[1] != tri[2]
            && tri[2] != tri[0]
            && t < nh
            && t != h
            && twins[t] as usize == h
            && from(t) == to(h)
            && to(t) == from(h);
        if ok {
            if h < t {
                count[from(h).min(to(h)) as usize + 1].fetch_add(1, Relaxed);
            }
            last[from(h) as usize].fetch_max(h as u32 + 1, Relaxed);
        }
        ok
    });
    valid.then_some((count, last))
}

/// Each quad-edge's lower half-edge, claimed into its vertex's bucket (`start[v]..start[v +
/// 1]`) in any order, then each bucket sorted: half-edge order within a vertex, as the
/// one-core path numbers them.
fn lower_half_edges(triangles: &[[u32; 3]], twins: &[u32], start: &[u32]) -> Option<Vec<u32>> {
    let vertices = start.len() - 1;
    let (from, to) = (|h| origin(triangles, h), |h| target(triangles, h));
    let cursor: Vec<AtomicU32> = start.iter().map(|&s| AtomicU32::new(s)).collect();
    let slots = atomics(start[vertices] as usize)?;
    (0..twins.len())
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each(|h| {
            if h < twins[h] as usize {
                let s = cursor[from(h).min(to(h)) as usize].fetch_add(1, Relaxed);
                slots[s as usize].store(h as u32, Relaxed);
            }
        });
    drop(cursor);
    let mut quad_half: Vec<u32> = slots.into_iter().map(AtomicU32::into_inner).collect();
    sort_buckets(&mut quad_half, start);
    Some(quad_half)
}

/// `((primal_origin, primal_next), (dual_origin, dual_next))`, as one parallel pass fills them.
type EdgeArrays = ((Vec<Vertex>, Vec<Edge>), (Vec<Face>, Vec<Edge>));

/// The numbering of the one-core path, looked up from the sorted buckets rather than stored:
/// a table would add 4 bytes per half-edge to the peak memory of the build.
struct EdgeIds<'a> {
    triangles: &'a [[u32; 3]],
    twins: &'a [u32],
    /// Per vertex, plus one: its first quad-edge (by lower endpoint).
    start: &'a [u32],
    /// Per quad-edge: its lower half-edge.
    quad_half: &'a [u32],
}

impl EdgeIds<'_> {
    /// The vertex half-edge `h` leaves.
    #[inline]
    fn from(&self, h: usize) -> u32 {
        origin(self.triangles, h)
    }

    /// The vertex half-edge `h` reaches.
    #[inline]
    fn to(&self, h: usize) -> u32 {
        target(self.triangles, h)
    }

    /// Primal edge id of half-edge `h`: twice its quad-edge's place (its bucket's start plus
    /// its rank there), plus one when it leaves the higher vertex.
    #[inline]
    fn of(&self, h: usize) -> u32 {
        let (a, b) = (self.from(h), self.to(h));
        let lower = a.min(b) as usize;
        let canonical = h.min(self.twins[h] as usize) as u32;
        let (s, end) = (self.start[lower] as usize, self.start[lower + 1] as usize);
        let rank = self.quad_half[s..end]
            .iter()
            .position(|&x| x == canonical)
            .unwrap_or(0);
        2 * (s + rank) as u32 + u32::from(a > b)
    }

    /// The four edge arrays `((primal_origin, primal_next), (dual_origin, dual_next))` of
    /// `ne` directed edges in one pass, written straight into their reserved memory (never
    /// filled first); `None` when the memory is not there.
    fn edge_arrays(&self, ne: usize) -> Option<EdgeArrays> {
        let next = |h: usize| if h % 3 == 2 { h - 2 } else { h + 1 };
        let prev = |h: usize| if h.is_multiple_of(3) { h + 2 } else { h - 1 };
        let mut arrays = (
            (try_vec::<Vertex>(ne).ok()?, try_vec::<Edge>(ne).ok()?),
            (try_vec::<Face>(ne).ok()?, try_vec::<Edge>(ne).ok()?),
        );
        arrays.par_extend((0..ne).into_par_iter().with_min_len(CHUNK).map(|e| {
            // The half-edge of directed edge e and of its reverse: the quad's lower half-edge
            // has the odd id when it leaves the higher vertex.
            let q = self.quad_half[e / 2] as usize;
            let odd = self.from(q) > self.to(q);
            let (h, r) = if (e & 1 == 1) == odd {
                (q, self.twins[q] as usize)
            } else {
                (self.twins[q] as usize, q)
            };
            (
                // Around the origin: onext(a → b) = a → prev = sym(prev → a).
                (Vertex(self.from(h)), Edge::primal(self.of(prev(h)) ^ 1)),
                // The edge whose onext is e is the one after e's reverse in its triangle.
                (Face((r / 3) as u32), Edge::dual(self.of(next(r)) ^ 1)),
            )
        }));
        Some(arrays)
    }
}

/// The vertex half-edge `h` (`3t + k`) leaves: corner `k` of triangle `t`.
#[inline]
fn origin(triangles: &[[u32; 3]], h: usize) -> u32 {
    triangles[h / 3][h % 3]
}

/// The vertex half-edge `h` reaches: the corner after its origin.
#[inline]
fn target(triangles: &[[u32; 3]], h: usize) -> u32 {
    triangles[h / 3][(h % 3 + 1) % 3]
}

/// Edges in the ring of `v` when they join distinct neighbours, else `None`.
fn ring_length(m: &Mesh, v: usize) -> Option<usize> {
    let start = m.vertex_edge[v];
    if !start.is_valid() {
        return Some(0);
    }
    let mut dests: SmallVec<[u32; 16]> = SmallVec::new();
    let mut e = start;
    loop {
        dests.push(m.primal_origin[e.index() ^ 1].0);
        e = m.primal_next[e.index()];
        if e == start {
            break;
        }
        if dests.len() > m.primal_next.len() {
            return None;
        }
    }
    let n = dests.len();
    dests.sort_unstable();
    dests.windows(2).all(|w| w[0] != w[1]).then_some(n)
}

/// `n` zeroed atomics, or `None` when the memory is not there.
fn atomics(n: usize) -> Option<Vec<AtomicU32>> {
    let mut v = try_vec(n).ok()?;
    v.extend((0..n).map(|_| AtomicU32::new(0)));
    Some(v)
}

/// Sorts each vertex's bucket `slots[start[v]..start[v + 1]]`, vertices in parallel chunks.
fn sort_buckets(slots: &mut [u32], start: &[u32]) {
    let vertices = start.len() - 1;
    let mut pieces = Vec::with_capacity(vertices.div_ceil(CHUNK));
    let mut rest = slots;
    for v0 in (0..vertices).step_by(CHUNK) {
        let v1 = (v0 + CHUNK).min(vertices);
        let (piece, tail) = rest.split_at_mut((start[v1] - start[v0]) as usize);
        pieces.push((v0, v1, piece));
        rest = tail;
    }
    pieces.into_par_iter().for_each(|(v0, v1, piece)| {
        let base = start[v0];
        for v in v0..v1 {
            piece[(start[v] - base) as usize..(start[v + 1] - base) as usize].sort_unstable();
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::{Mesh, MeshError, NONE, shapes};

    /// Closed triangles (an icosahedron grid, triangles shuffled) and their twins.
    fn closed(k: u32, seed: u64) -> (usize, Vec<[u32; 3]>, Vec<u32>) {
        let (n, mut tris) = shapes::icosahedron_grid(k);
        let mut rng = testkit::Rng::new(seed);
        for i in (1..tris.len()).rev() {
            let j = rng.below(i + 1);
            tris.swap(i, j);
            let r = rng.below(3);
            tris[i].rotate_left(r);
        }
        let mut by_ends = std::collections::HashMap::new();
        for (h, &(a, b)) in tris
            .iter()
            .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
            .collect::<Vec<_>>()
            .iter()
            .enumerate()
        {
            by_ends.insert((a, b), h as u32);
        }
        let twins = (0..3 * tris.len())
            .map(|h| {
                let t = tris[h / 3];
                by_ends[&(t[(h % 3 + 1) % 3], t[h % 3])]
            })
            .collect();
        (n, tris, twins)
    }

    #[test]
    fn same_mesh_as_one_core_with_1_2_and_4_threads() {
        for (k, seed) in [(2, 1), (9, 2), (40, 3)] {
            let (n, tris, twins) = closed(k, seed);
            let one = Mesh::from_half_edges_one_core(n, &tris, &twins).unwrap();
            for pool in testkit::thread_pools() {
                let par = pool
                    .install(|| super::from_closed_half_edges(n, &tris, &twins))
                    .expect("a closed manifold input");
                assert_eq!(par, one, "{} threads", pool.current_num_threads());
                // No array over-allocated either.
                assert_eq!(par.heap_bytes(), one.heap_bytes());
            }
            one.check().unwrap();
        }
    }

    #[test]
    fn bad_input_goes_to_the_one_core_path_and_its_error() {
        let (n, tris, twins) = closed(40, 4);
        assert!(twins.len() >= super::MIN_HALF_EDGES);
        // A boundary, a twin that is not mutual, an index out of range, a pinched vertex.
        let mut open = twins.clone();
        let t = open[5] as usize;
        open[5] = NONE;
        open[t] = NONE;
        let mut lopsided = twins.clone();
        lopsided[7] = lopsided[8];
        let mut out_of_range = tris.clone();
        out_of_range[3][1] = n as u32;
        for (tris, twins) in [(&tris, &open), (&tris, &lopsided), (&out_of_range, &twins)] {
            assert!(super::from_closed_half_edges(n, tris, twins).is_none());
            assert_eq!(
                Mesh::from_half_edges(n, tris, twins),
                Mesh::from_half_edges_one_core(n, tris, twins)
            );
        }
        // Two copies of a sphere sharing one vertex: closed, but that vertex has two fans.
        let (n2, t2, w2) = closed(2, 5);
        let shift = |i: u32| if i == 0 { 0 } else { i + n2 as u32 - 1 };
        let mut both = t2.clone();
        both.extend(t2.iter().map(|t| t.map(shift)));
        let mut bw = w2.clone();
        bw.extend(w2.iter().map(|&h| h + 3 * t2.len() as u32));
        assert!(super::from_closed_half_edges(2 * n2 - 1, &both, &bw).is_none());
        assert!(matches!(
            Mesh::from_half_edges(2 * n2 - 1, &both, &bw),
            Err(MeshError::NonManifoldVertex(_))
        ));
    }
}
