//! The Fibonacci lattice's spherical Delaunay triangulation, vertex by vertex, on all cores.
//!
//! In the lattice, point `i`'s Delaunay neighbours are points `i ± F_j` for the few Fibonacci
//! numbers whose spiral offset is shortest at `i`'s latitude: offset `F_j` moves `2F_j/n` in
//! height and about `2π φ^-j` in longitude, so the shortest is near
//! `j* = log_φ²(√5 π n (1 − y²))` (Swinbank and Purser 2006; Keinert et al. 2015). Each
//! vertex's star (its counter-clockwise ring of neighbours) is computed on its own from those
//! candidates: sorted by angle around the vertex, then every candidate the exact in-circle test
//! shows to be hidden behind its two angular neighbours is dropped (the six nearest are tried
//! first: the regular lattice's answer). Near the poles, where the lattice is curved, every
//! index within a window is a candidate.
//!
//! The candidates only make the search cheap; the result is checked exactly, so any input
//! gets its exact hull or a refusal (`None`, and the caller takes the incremental path):
//! * every edge at a vertex is locally convex (the four points of its two faces, one exact
//!   `orient3d`), every face is counter-clockwise with the sphere's centre inside (checked by
//!   the face's lowest corner), and each ring winds exactly once around its vertex (it is in
//!   the order of the computed angles, see `ring::Context::star`);
//! * [`Mesh::from_rings`](quadedge::Mesh::from_rings) checks that the rings agree (each face in
//!   the rings of its three corners) and the caller that there are `2n − 4` faces.
//!
//! Agreeing rings make a closed oriented surface; with every face counter-clockwise and every
//! ring winding once, projecting it from the centre onto the sphere is a covering, so (the
//! sphere being simply connected, and `2n − 4` faces making it one piece) it is one-to-one:
//! the surface is star-shaped around the centre, and being locally convex at every edge it is
//! convex: the hull of the points, i.e. their spherical Delaunay triangulation.
//!
//! Each ring depends on the points alone, so the result is the same bits with any number of
//! threads.

mod repair;
mod ring;

use glam::DVec3;
use rayon::prelude::*;
use ring::{Context, Scratch};

/// Most neighbours a ring may have: lattice vertices have 5 to 7; more sends the lattice to
/// the incremental path.
pub(crate) const STRIDE: usize = 8;

/// Vertices within this many indices of a pole take the nearest points of a window of indices
/// as candidates.
const POLE: usize = 64;
/// The window of a polar vertex: indices this far on either side.
const POLE_WINDOW: usize = 80;
/// Vertices below this index from a pole search two more Fibonacci offsets: the lattice is
/// still curved there.
const NEAR_POLE: usize = 256;
/// Most candidates of one vertex.
const MAX_CANDIDATES: usize = 2 * POLE_WINDOW;
/// Fewest points for this path.
pub(crate) const MIN_POINTS: usize = 12;
/// Vertices per rayon task.
pub(crate) const CHUNK: usize = 1 << 12;

/// Every vertex's counter-clockwise ring of neighbours, `STRIDE` slots per vertex; the few
/// longer rings a repair found are kept apart (degree [`LONG`]).
pub(crate) struct Stars {
    degree: Vec<u8>,
    ring: Vec<u32>,
    /// Rings longer than `STRIDE`, by vertex.
    long: Vec<(u32, Vec<u32>)>,
}

/// The degree slot of a vertex whose ring is in [`Stars::long`].
const LONG: u8 = u8::MAX;

impl Stars {
    /// The ring of vertex `v` (empty when none was found).
    #[inline]
    pub(crate) fn ring(&self, v: u32) -> &[u32] {
        let d = self.degree[v as usize];
        if d == LONG {
            return self.long_ring(v);
        }
        let at = v as usize * STRIDE;
        &self.ring[at..at + d as usize]
    }

    #[cold]
    fn long_ring(&self, v: u32) -> &[u32] {
        match self.long.binary_search_by_key(&v, |l| l.0) {
            Ok(k) => &self.long[k].1,
            Err(_) => &[],
        }
    }

    /// Replaces the ring of `v`.
    fn set_ring(&mut self, v: u32, ring: &[u32]) {
        let found = self.long.binary_search_by_key(&v, |l| l.0);
        if ring.len() <= STRIDE {
            if let Ok(k) = found {
                self.long.remove(k);
            }
            let at = v as usize * STRIDE;
            self.ring[at..at + ring.len()].copy_from_slice(ring);
            self.degree[v as usize] = ring.len() as u8;
        } else {
            match found {
                Ok(k) => self.long[k].1 = ring.to_vec(),
                Err(k) => self.long.insert(k, (v, ring.to_vec())),
            }
            self.degree[v as usize] = LONG;
        }
    }
}

/// How the vertices of jittered rings are numbered: vertex `v` is lattice point `order[v]`,
/// and `rank` is the inverse of `order`.
#[derive(Clone, Copy)]
pub(crate) struct Numbering<'a> {
    pub(crate) order: &'a [u32],
    pub(crate) rank: &'a [u32],
}

/// The rings of the lattice `points` (in index order, as [`crate::fibonacci_points`] makes
/// them without perturbation), each checked locally; `None` when a ring cannot be found or
/// fails its checks. The rings' agreement is left to the mesh build.
pub(crate) fn lattice_stars(points: &[DVec3]) -> Option<Stars> {
    let ctx = Context {
        points,
        zones: Zones::new(points.len()),
        wide: false,
    };
    stars(&ctx, None)
}

/// [`lattice_stars`] of a lattice whose points were moved in their tangent planes by a
/// fraction of the spacing (still in index order), numbered by `numbering`: every vertex
/// searches the five Fibonacci offsets nearest its zone's, since a move brings in neighbours
/// of the next offsets; the rings this missed (none found, or disagreeing with a neighbour's)
/// are searched again among the nearest points of their neighbourhood ([`repair`]). Checked
/// as exactly: a ring out of reach is a refusal (`None`), never a wrong mesh. Returns the
/// rings and how many were searched again.
pub(crate) fn jittered_stars(points: &[DVec3], numbering: Numbering<'_>) -> Option<(Stars, usize)> {
    let ctx = Context {
        points,
        zones: Zones::new(points.len()),
        wide: true,
    };
    let mut stars = stars(&ctx, Some(numbering))?;
    let redone = repair::repair(&ctx, numbering, &mut stars)?;
    Some((stars, redone))
}

/// Every ring of `ctx`, numbered by `numbering` (else in index order); a vertex whose ring
/// is not found stops the lattice (`None`) and is left empty in a jittered lattice, for the
/// repair.
fn stars(ctx: &Context<'_>, numbering: Option<Numbering<'_>>) -> Option<Stars> {
    let points = ctx.points;
    let n = points.len();
    if n < MIN_POINTS {
        return None;
    }
    // Zeroed on all cores: the first touch of fresh pages is a good part of the cost.
    let mut degree = quadedge::internals::try_vec(n).ok()?;
    degree.par_extend(rayon::iter::repeat_n(0u8, n));
    let mut ring = quadedge::internals::try_vec(n * STRIDE).ok()?;
    ring.par_extend(rayon::iter::repeat_n(0u32, n * STRIDE));
    let ok = degree
        .par_chunks_mut(CHUNK)
        .zip(ring.par_chunks_mut(CHUNK * STRIDE))
        .enumerate()
        .all(|(c, (deg, out))| {
            let mut scratch = Scratch::default();
            (0..deg.len()).all(|k| {
                let v = c * CHUNK + k;
                let i = numbering.map_or(v, |m| m.order[v] as usize);
                let slots = &mut out[k * STRIDE..(k + 1) * STRIDE];
                match ctx.star(i, &mut scratch, slots) {
                    Some(d) => {
                        deg[k] = d;
                        if let Some(m) = numbering {
                            for w in &mut slots[..d as usize] {
                                *w = m.rank[*w as usize];
                            }
                        }
                        true
                    }
                    None => ctx.wide,
                }
            })
        });
    ok.then_some(Stars {
        degree,
        ring,
        long: Vec::new(),
    })
}

/// Which offsets a vertex tries.
#[derive(Clone, Copy)]
enum Zone {
    /// The lattice's four offsets around `j*`.
    Lattice,
    /// Six, where the lattice is still curved.
    NearPole,
    /// The five nearest `j*`, for points moved off the lattice.
    Jittered,
}

/// Which Fibonacci offsets to try at each height.
struct Zones {
    n: usize,
    /// `F_j` for `j = 0..`, `F_1 = F_2 = 1`.
    fib: Vec<u64>,
    /// `ln(√5 π n · 4 / (n − 1)²)`: `j*` is `(this + ln(i (n − 1 − i))) / ln φ²`.
    offset: f64,
    ln_phi2: f64,
}

impl Zones {
    fn new(n: usize) -> Self {
        let mut fib = vec![0u64, 1];
        while *fib.last().unwrap_or(&0) < n as u64 {
            let k = fib.len();
            fib.push(fib[k - 1] + fib[k - 2]);
        }
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let last = (n - 1) as f64;
        Self {
            n,
            fib,
            offset: (5f64.sqrt() * core::f64::consts::PI * n as f64 * 4.0 / (last * last)).ln(),
            ln_phi2: 2.0 * phi.ln(),
        }
    }

    /// The Fibonacci offsets to try at index `i` (away from the poles).
    fn offsets(&self, i: usize, zone: Zone) -> impl Iterator<Item = u64> + '_ {
        let star = (self.offset + ((i as f64) * ((self.n - 1 - i) as f64)).ln()) / self.ln_phi2;
        let k = star.floor().max(3.0) as usize;
        let (lo, hi) = match zone {
            Zone::Lattice => (k - 1, k + 2),
            Zone::NearPole => (k - 2, k + 3),
            // Measured on jittered lattices (amplitude 0.3, 500k points): every Fibonacci
            // edge within 2.5 offsets of `j*`, the five offsets around it.
            Zone::Jittered => (
                (star - 2.5).ceil().max(1.0) as usize,
                (star + 2.5).floor().max(3.0) as usize,
            ),
        };
        let lo = lo.max(2);
        self.fib[lo.min(self.fib.len())..(hi + 1).min(self.fib.len())]
            .iter()
            .copied()
    }
}

#[cfg(test)]
mod tests;
