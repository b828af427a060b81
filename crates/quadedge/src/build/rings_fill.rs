//! Pass 2 of [`Mesh::from_rings`]: every array slot written by its destination, each
//! task filling the ids owned by its chunk of vertices from the rings alone.

use super::{next, prev};
use crate::{Edge, Face, Mesh, MeshError, NONE, Vertex};

/// Where each vertex's quad-edges and faces start (`vertices + 1` entries each).
pub(super) struct Starts<'s> {
    pub(super) quad: &'s [u32],
    pub(super) face: &'s [u32],
}

impl Starts<'_> {
    /// Finds `x` and `y` in the ring of `lo < x, y`: for each, the quad-edge joining it to
    /// `lo` and the face `(lo, it, after it)` if `lo` is its lowest corner. `None` only when
    /// the rings changed since they were checked.
    fn find<'a>(
        &self,
        ring: &impl Fn(u32) -> &'a [u32],
        lo: u32,
        [x, y]: [u32; 2],
    ) -> Option<[(u32, u32); 2]> {
        let lo_at = lo as usize;
        let (mut q, q_end) = (*self.quad.get(lo_at)?, *self.quad.get(lo_at + 1)?);
        let mut f = *self.face.get(lo_at)?;
        let mut found = [(NONE, NONE); 2];
        let r = ring(lo);
        for (j, &w) in r.iter().enumerate() {
            if w == x {
                found[0] = (q, f);
            }
            if w == y {
                found[1] = (q, f);
            }
            if found[0].0 != NONE && found[1].0 != NONE {
                break;
            }
            if w > lo {
                q += 1;
                f += u32::from(r[next(j, r.len())] > lo);
            }
        }
        (found[0].0 < q_end && found[1].0 < q_end).then_some(found)
    }

    /// The quad-edge joining `lo` to `x > lo`, found in the ring of `lo`.
    fn quad<'a>(&self, ring: &impl Fn(u32) -> &'a [u32], lo: u32, x: u32) -> Option<u32> {
        let lo_at = lo as usize;
        let (mut q, q_end) = (*self.quad.get(lo_at)?, *self.quad.get(lo_at + 1)?);
        for &w in ring(lo) {
            if w == x {
                return (q < q_end).then_some(q);
            }
            q += u32::from(w > lo);
        }
        None
    }

    /// The face id `f` when `lo` owns it.
    fn owned_face(&self, lo: u32, f: u32) -> Option<u32> {
        (f < *self.face.get(lo as usize + 1)?).then_some(f)
    }
}

/// One task's share of the mesh: vertices `v0..v1`, the faces and the quad-edges they own.
pub(super) struct Piece<'m> {
    pub(super) v0: usize,
    pub(super) v1: usize,
    pub(super) vertex_edge: &'m mut [Edge],
    pub(super) face_edge: &'m mut [Edge],
    pub(super) primal_origin: &'m mut [Vertex],
    pub(super) primal_next: &'m mut [Edge],
    pub(super) dual_origin: &'m mut [Face],
    pub(super) dual_next: &'m mut [Edge],
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
        // Only what the quad-edges `u` owns need: the ids next to them, and `out[0]`. The
        // edge to a lower neighbour next to a higher one comes with a face's lookup.
        let mut has_out0 = false;
        for (j, &a) in r.iter().enumerate() {
            let j1 = next(j, d);
            let b = r[j1];
            if a > u {
                self.out[j] = 2 * q;
                q += 1;
                has_out0 |= j == 0;
            }
            if a > u && b > u {
                self.face[j] = at.owned_face(u, f)?;
                f += 1;
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                self.opposite[j] = 2 * at.quad(ring, lo, hi)? + u32::from(a > b);
            } else if b > u {
                // The face is (a, b, u) in the ring of a, which holds u too.
                let [(qu, _), (qb, fb)] = at.find(ring, a, [u, b])?;
                self.out[j] = 2 * qu + 1;
                has_out0 |= j == 0;
                self.face[j] = at.owned_face(a, fb)?;
                self.opposite[j] = 2 * qb;
            } else if a > u {
                // The face is (b, u, a) in the ring of b.
                let [(qu, fu), (qa, _)] = at.find(ring, b, [u, a])?;
                self.out[j1] = 2 * qu + 1;
                has_out0 |= j1 == 0;
                self.face[j] = at.owned_face(b, fu)?;
                self.opposite[j] = 2 * qa + 1;
            }
        }
        if !has_out0 {
            self.out[0] = 2 * at.quad(ring, r[0], u)? + 1;
        }
        Some(())
    }
}

/// Writes a piece, with the conventions of the triangle builders: `onext(v → ring[j])` is
/// `v → ring[j + 1]`, the dual origin of an edge is the face on the left of its reverse, and
/// the dual onext of an edge is the dual of the reverse of its primal oprev. For the
/// quad-edge `u → w = ring(u)[j]`, the checks make `ring(w)` hold `ring(u)[j + 1], u,
/// ring(u)[j - 1]` in a row, so everything about `w → u` is known around `u` too.
pub(super) fn fill<'a>(
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
