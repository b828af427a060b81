//! One vertex's ring: candidates sorted by angle, pruned by the exact in-circle test.

use super::{MAX_CANDIDATES, NEAR_POLE, POLE, POLE_WINDOW, Zone, Zones};
use delaunay::predicates::orient3d_exact;
use glam::DVec3;

/// Per-task buffers of one vertex's search: its candidates, and its ring as positions among
/// them.
pub(super) struct Scratch {
    cand: Candidates,
    ring: [u8; MAX_CANDIDATES],
}

/// The candidates of one vertex: ids, positions relative to the vertex (rounded), squared
/// distances and angle keys, and their positions in these arrays in angular order.
struct Candidates {
    idx: [u32; MAX_CANDIDATES],
    rel: [[f64; 3]; MAX_CANDIDATES],
    len2: [f64; MAX_CANDIDATES],
    key: [f64; MAX_CANDIDATES],
    order: [u8; MAX_CANDIDATES],
}

/// A polar vertex keeps this many of its nearest candidates: its ring has at most 8.
const POLAR_NEAREST: usize = 24;

impl Candidates {
    /// Keeps the `keep` nearest of the first `m` candidates (more on ties), packed to the
    /// front in their order; returns how many are kept.
    fn keep_nearest(&mut self, m: usize, keep: usize) -> usize {
        let mut len2 = [0.0f64; MAX_CANDIDATES];
        len2[..m].copy_from_slice(&self.len2[..m]);
        let (_, &mut limit, _) = len2[..m].select_nth_unstable_by(keep - 1, f64::total_cmp);
        let mut kept = 0;
        for k in 0..m {
            if self.len2[k] <= limit {
                self.idx[kept] = self.idx[k];
                self.rel[kept] = self.rel[k];
                self.len2[kept] = self.len2[k];
                self.key[kept] = self.key[k];
                kept += 1;
            }
        }
        kept
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            cand: Candidates {
                idx: [0; MAX_CANDIDATES],
                rel: [[0.0; 3]; MAX_CANDIDATES],
                len2: [0.0; MAX_CANDIDATES],
                key: [0.0; MAX_CANDIDATES],
                order: [0; MAX_CANDIDATES],
            },
            ring: [0; MAX_CANDIDATES],
        }
    }
}

/// What every ring of one lattice needs.
pub(super) struct Context<'a> {
    pub(super) points: &'a [DVec3],
    pub(super) zones: Zones,
    /// Search the wider offsets everywhere (a jittered lattice).
    pub(super) wide: bool,
}

/// Rounding bound of the determinants below, in units of the largest entries' product: each
/// entry of a translated row is the exact difference times `1 + δ` (`|δ| ≤ u`), which moves
/// each of the six products by less than `3.01u` of itself, and evaluating the determinant
/// adds less than `6u` of the permanent; the permanent is at most six times the product of
/// the rows' largest entries. `16u · 6` leaves a margin above `(3.01 + 6)u · 6`.
const DET_ERR: f64 = 96.0 * f64::EPSILON / 2.0;

/// `det[a; b; c]`.
#[inline(always)]
fn det3(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    a[0] * (b[1] * c[2] - b[2] * c[1])
        + a[1] * (b[2] * c[0] - b[0] * c[2])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
}

/// One vertex's candidates with the two filtered predicates on them.
struct Local<'a> {
    points: &'a [DVec3],
    p: [f64; 3],
    s: &'a Candidates,
    /// Error bounds of [`Local::outside`] and [`Local::ccw`] for these candidates.
    bound_outside: f64,
    bound_ccw: f64,
}

impl Local<'_> {
    /// Positive when candidate `q` lies strictly beyond the plane of the counter-clockwise
    /// face `(v, a, b)`: inside its circumcircle on the sphere. Exact sign:
    /// `det[q − v; a − v; b − v]` on the rounded differences when it clears their error
    /// bound, else `orient3d` on the points.
    #[inline(always)]
    fn outside(&self, a: usize, b: usize, q: usize) -> f64 {
        let s = self.s;
        let d = det3(s.rel[q], s.rel[a], s.rel[b]);
        if d.abs() > self.bound_outside {
            d
        } else {
            let pt = |k: usize| self.points[s.idx[k] as usize].to_array();
            -orient3d_exact(self.p, pt(a), pt(b), pt(q))
        }
    }

    /// Positive when `(v, a, b)` turns counter-clockwise seen from outside, the centre on its
    /// inner side: `det[v; a − v; b − v]`, filtered like [`Local::outside`].
    #[inline(always)]
    fn ccw(&self, a: usize, b: usize) -> f64 {
        let s = self.s;
        let d = det3(self.p, s.rel[a], s.rel[b]);
        if d.abs() > self.bound_ccw {
            d
        } else {
            let pt = |k: usize| self.points[s.idx[k] as usize].to_array();
            orient3d_exact(self.p, pt(a), pt(b), [0.0; 3])
        }
    }

    /// The ring of the six nearest of `m` candidates (angularly sorted), if every edge of it
    /// is convex and each other candidate lies outside the circle of the face it falls in:
    /// the answer of [`Local::scan`] for the regular lattice, at about half the tests.
    fn guess(&self, c: &mut [u8; MAX_CANDIDATES], m: usize) -> Option<usize> {
        if !(7..=12).contains(&m) {
            return None;
        }
        // Angular ranks; the `m − 6` farthest are left out.
        let at = |rank: usize| self.s.order[rank] as usize;
        let mut out = [false; 12];
        for _ in 6..m {
            let far = (0..m)
                .filter(|&k| !out[k])
                .max_by(|&a, &b| self.s.len2[at(a)].total_cmp(&self.s.len2[at(b)]))?;
            out[far] = true;
        }
        let mut len = 0;
        for (k, _) in out.iter().enumerate().take(m).filter(|(_, o)| !**o) {
            c[len] = at(k) as u8;
            len += 1;
        }
        for j in 0..len {
            let prev = c[if j == 0 { len - 1 } else { j - 1 }] as usize;
            let next = c[if j + 1 == len { 0 } else { j + 1 }] as usize;
            if self.outside(prev, next, c[j] as usize) < 0.0 {
                return None;
            }
        }
        // Each candidate left out, between the ring neighbours around it.
        for x in (0..m).filter(|&k| out[k]) {
            let before = (1..m).map(|t| (x + m - t) % m).find(|&k| !out[k])?;
            let after = (1..m).map(|t| (x + t) % m).find(|&k| !out[k])?;
            if self.outside(at(before), at(after), at(x)) >= 0.0 {
                return None;
            }
        }
        Some(len)
    }

    /// Drops from the `m` angularly sorted candidates each one that lies strictly outside the
    /// circle through the vertex and its two current angular neighbours (when those make a
    /// counter-clockwise face: then the candidate's edge would not be convex), until none can
    /// be dropped. Leaves the survivors' positions in `c` and returns their count, or `None`
    /// when one of them still fails the test (its edge is not convex and no face can replace
    /// it).
    fn scan(&self, c: &mut [u8; MAX_CANDIDATES], m: usize) -> Option<usize> {
        c[..m].copy_from_slice(&self.s.order[..m]);
        let mut len = m;
        let mut j = 0;
        let mut stable = 0;
        // Failed tests among the last `stable` (a survivor kept only for lack of a face).
        let mut failed = 0u32;
        while len >= 3 && stable < len {
            let prev = c[if j == 0 { len - 1 } else { j - 1 }] as usize;
            let q = c[j] as usize;
            let next = c[if j + 1 == len { 0 } else { j + 1 }] as usize;
            let convex = self.outside(prev, next, q) >= 0.0;
            if !convex && self.ccw(prev, next) > 0.0 {
                c.copy_within(j + 1..len, j);
                len -= 1;
                stable = 0;
                failed = 0;
                // Back to `prev`, whose next neighbour changed.
                j = if j == 0 { len - 1 } else { j - 1 };
                continue;
            }
            failed += u32::from(!convex);
            stable += 1;
            j = if j + 1 == len { 0 } else { j + 1 };
        }
        (len >= 3 && failed == 0).then_some(len)
    }
}

impl Context<'_> {
    /// Writes vertex `i`'s ring into `out` and returns its length, or `None`.
    ///
    /// The ring is in the order of the candidates' angles around the vertex, computed in
    /// floating point: each within far less than `π / 8` of the exact angle (the differences
    /// are rounded relative to themselves, and tiny ones are refused). With every face
    /// counter-clockwise (exact, checked by each face's lowest corner), each turn between
    /// neighbours is then the difference of their computed angles up to that error, so the
    /// turns add up to exactly one full turn: the ring winds once.
    pub(super) fn star(&self, i: usize, scratch: &mut Scratch, out: &mut [u32]) -> Option<u8> {
        let m = self.candidates(i, &mut scratch.cand);
        self.star_of(i, scratch, m, out)
    }

    /// [`Context::star`] among the candidates `ids` (distinct, without `i`; at most
    /// [`MAX_CANDIDATES`]): the nearest [`POLAR_NEAREST`] of them are kept.
    pub(super) fn star_among(
        &self,
        i: usize,
        ids: &[u32],
        scratch: &mut Scratch,
        out: &mut [u32],
    ) -> Option<u8> {
        let m = ids.len().min(MAX_CANDIDATES);
        scratch.cand.idx[..m].copy_from_slice(&ids[..m]);
        self.star_of(i, scratch, m, out)
    }

    /// Vertex `i`'s ring among the first `m` candidates of `scratch`, into `out` (`None`
    /// when it does not fit).
    fn star_of(&self, i: usize, scratch: &mut Scratch, m: usize, out: &mut [u32]) -> Option<u8> {
        let Scratch { cand: s, ring } = scratch;
        let Keyed { kept, reach, size } = self.keyed(i, s, m)?;
        s.sort_by_angle(kept);
        let local = Local {
            points: self.points,
            p: self.points[i].to_array(),
            s,
            bound_outside: DET_ERR * reach * reach * reach,
            bound_ccw: DET_ERR * size * reach * reach,
        };
        let d = match local.guess(ring, kept) {
            Some(d) => d,
            None => local.scan(ring, kept)?,
        };
        if d > out.len() {
            return None;
        }
        let ring = &ring[..d];
        // The faces this vertex is the lowest corner of.
        let v = i as u32;
        let id = |k: u8| s.idx[k as usize];
        for j in 0..d {
            let a = ring[j];
            let b = if j + 1 == d { ring[0] } else { ring[j + 1] };
            if id(a) > v && id(b) > v && local.ccw(a as usize, b as usize) <= 0.0 {
                return None;
            }
        }
        for (o, &k) in out.iter_mut().zip(ring) {
            *o = id(k);
        }
        Some(d as u8)
    }

    /// Vertex `i`'s candidates, as [`Context::star`] searches them.
    pub(super) fn candidate_ids<'s>(&self, i: usize, scratch: &'s mut Scratch) -> &'s [u32] {
        let m = self.candidates(i, &mut scratch.cand);
        &scratch.cand.idx[..m]
    }

    /// Gathers vertex `i`'s candidate ids into `s.idx` and returns how many: a window of
    /// indices near the poles, the lattice's Fibonacci offsets elsewhere.
    fn candidates(&self, i: usize, s: &mut Candidates) -> usize {
        let n = self.points.len();
        let from_pole = i.min(n - 1 - i);
        let mut m = 0;
        if from_pole < POLE {
            for j in i.saturating_sub(POLE_WINDOW)..(i + POLE_WINDOW + 1).min(n) {
                if j != i {
                    s.idx[m] = j as u32;
                    m += 1;
                }
            }
        } else {
            // Distinct offsets from `F_2 = 1` on: no candidate twice.
            let zone = match (from_pole < NEAR_POLE, self.wide) {
                (true, _) => Zone::NearPole,
                (false, true) => Zone::Jittered,
                (false, false) => Zone::Lattice,
            };
            for f in self.zones.offsets(i, zone) {
                let f = f as usize;
                if let Some(j) = i.checked_sub(f) {
                    s.idx[m] = j as u32;
                    m += 1;
                }
                if i + f < n {
                    s.idx[m] = (i + f) as u32;
                    m += 1;
                }
            }
        }
        m
    }

    /// Keeps the usable ones of the first `m` candidates of vertex `i` (near a pole, the
    /// nearest in the vertex's hemisphere), with their relative positions, squared distances
    /// and angle keys; `None` when one is vanishingly close.
    fn keyed(&self, i: usize, s: &mut Candidates, m: usize) -> Option<Keyed> {
        let n = self.points.len();
        let p = self.points[i];
        // A tangent frame at `p` (two orthogonal vectors of equal length), from the axis
        // least aligned with it: only the order of the angles is used.
        let size = p.abs().max_element();
        let axis = if p.y.abs() < 0.9 * p.length() {
            DVec3::Y
        } else {
            DVec3::X
        };
        let e1 = axis.cross(p);
        let e2 = p.cross(e1) / p.length();
        let polar = i.min(n - 1 - i) < POLE;
        let mut kept = 0;
        let mut reach = 0.0f64;
        for k in 0..m {
            let id = s.idx[k];
            let q = self.points[id as usize];
            // Away from the poles every candidate is a few spacings away.
            if polar && q.dot(p) <= 0.0 {
                continue;
            }
            let d = q - p;
            let extent = d.abs().max_element();
            // Not vanishingly close: the angle below is then accurate, and the filters' bounds
            // (at least `1e-90` of `size³`, `size` being at least `1e-60` for the inputs this
            // path takes) stay far above anything underflow can lose.
            if extent.partial_cmp(&(1e-30 * size)) != Some(core::cmp::Ordering::Greater) {
                return None;
            }
            reach = reach.max(extent);
            s.idx[kept] = id;
            s.rel[kept] = d.to_array();
            s.len2[kept] = d.length_squared();
            s.key[kept] = pseudo_angle(d.dot(e1), d.dot(e2));
            kept += 1;
        }
        if kept > POLAR_NEAREST {
            kept = s.keep_nearest(kept, POLAR_NEAREST);
        }
        Some(Keyed { kept, reach, size })
    }
}

/// What [`Context::keyed`] kept: how many candidates, their largest coordinate difference
/// from the vertex and the vertex's largest coordinate (the scales of the error bounds).
struct Keyed {
    kept: usize,
    reach: f64,
    size: f64,
}

impl Candidates {
    /// Insertion sort of the first `kept` candidates' positions by angle into `order`: a dozen
    /// away from the poles.
    fn sort_by_angle(&mut self, kept: usize) {
        for k in 0..kept {
            let key = self.key[k];
            let mut b = k;
            while b > 0 && self.key[self.order[b - 1] as usize] > key {
                self.order[b] = self.order[b - 1];
                b -= 1;
            }
            self.order[b] = k as u8;
        }
    }
}

/// A key increasing with the angle of `(x, y)` over one turn (not the angle itself: cheaper,
/// and only the order is used).
#[inline]
fn pseudo_angle(x: f64, y: f64) -> f64 {
    let r = y / (x.abs() + y.abs());
    if x >= 0.0 {
        if y >= 0.0 { r } else { 4.0 + r }
    } else {
        2.0 - r
    }
}
