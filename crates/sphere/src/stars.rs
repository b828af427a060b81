//! The Fibonacci lattice's spherical Delaunay triangulation, vertex by vertex, on all cores.
//!
//! In the lattice, point `i`'s Delaunay neighbours are points `i ± F_j` for the few Fibonacci
//! numbers whose spiral offset is shortest at `i`'s latitude: offset `F_j` moves `2F_j/n` in
//! height and about `2π φ^-j` in longitude, so the shortest is near
//! `j* = log_φ²(√5 π n (1 − y²))` (Swinbank and Purser 2006; Keinert et al. 2015). Each
//! vertex's star (its counter-clockwise ring of neighbours) is computed on its own from those
//! candidates: sorted by angle around the vertex, then every candidate the exact in-circle test
//! shows to be hidden behind its two angular neighbours is dropped. Near the poles, where the
//! lattice is curved, every index within a window is a candidate.
//!
//! The candidates only make the search cheap; the result is checked exactly, so any input
//! gets its exact hull or a refusal (`None`, and the caller takes the incremental path):
//! * every edge at a vertex is locally convex (the four points of its two faces, one exact
//!   `orient3d`), every face is counter-clockwise with the sphere's centre inside (checked by
//!   the face's lowest corner), and each ring winds exactly once around its vertex;
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

use delaunay::predicates::orient3d_exact;
use glam::DVec3;
use rayon::prelude::*;

/// Most neighbours a ring may have: lattice vertices have 5 to 7; more sends the lattice to
/// the incremental path.
pub(crate) const STRIDE: usize = 8;

/// Vertices within this many indices of a pole take every index of a window as candidates.
const POLE: usize = 64;
/// The window of a polar vertex: indices this far on either side.
const POLE_WINDOW: usize = 80;
/// Vertices below this index from a pole search two more Fibonacci offsets: the lattice is
/// still curved there.
const NEAR_POLE: usize = 4096;
/// Most candidates of one vertex.
const MAX_CANDIDATES: usize = 2 * POLE_WINDOW;
/// Fewest points for this path.
pub(crate) const MIN_POINTS: usize = 12;
/// Vertices per rayon task.
pub(crate) const CHUNK: usize = 1 << 12;

/// Every vertex's counter-clockwise ring of neighbours, `STRIDE` slots per vertex.
pub(crate) struct Stars {
    degree: Vec<u8>,
    ring: Vec<u32>,
}

impl Stars {
    /// The ring of vertex `v`.
    #[inline]
    pub(crate) fn ring(&self, v: u32) -> &[u32] {
        let at = v as usize * STRIDE;
        &self.ring[at..at + self.degree[v as usize] as usize]
    }
}

/// The rings of the lattice `points` (in index order, as [`crate::fibonacci_points`] makes
/// them without perturbation), each checked locally; `None` when a ring cannot be found or
/// fails its checks. The rings' agreement is left to the mesh build.
pub(crate) fn lattice_stars(points: &[DVec3]) -> Option<Stars> {
    let n = points.len();
    if n < MIN_POINTS {
        return None;
    }
    let mut degree = crate::order::try_vec(n).ok()?;
    degree.resize(n, 0u8);
    let mut ring = crate::order::try_vec(n * STRIDE).ok()?;
    ring.resize(n * STRIDE, 0u32);
    let ctx = Context {
        points,
        zones: Zones::new(n),
    };
    let ok = degree
        .par_chunks_mut(CHUNK)
        .zip(ring.par_chunks_mut(CHUNK * STRIDE))
        .enumerate()
        .all(|(c, (deg, out))| {
            let mut scratch = Scratch::default();
            (0..deg.len()).all(|k| {
                let i = c * CHUNK + k;
                let slots: &mut [u32; STRIDE] = (&mut out[k * STRIDE..(k + 1) * STRIDE])
                    .try_into()
                    .expect("STRIDE slots");
                match ctx.star(i, &mut scratch, slots) {
                    Some(d) => {
                        deg[k] = d;
                        true
                    }
                    None => false,
                }
            })
        });
    ok.then_some(Stars { degree, ring })
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
    fn offsets(&self, i: usize) -> impl Iterator<Item = u64> + '_ {
        let from_pole = i.min(self.n - 1 - i);
        let star = (self.offset + ((i as f64) * ((self.n - 1 - i) as f64)).ln()) / self.ln_phi2;
        let k = star.floor().max(3.0) as usize;
        let (lo, hi) = if from_pole < NEAR_POLE {
            (k - 2, k + 3)
        } else {
            (k - 1, k + 2)
        };
        let lo = lo.max(2);
        self.fib[lo.min(self.fib.len())..(hi + 1).min(self.fib.len())]
            .iter()
            .copied()
    }
}

/// Per-task buffers of the candidates of one vertex: ids, positions relative to the vertex
/// (rounded), and angle keys.
struct Scratch {
    idx: [u32; MAX_CANDIDATES],
    rel: [[f64; 3]; MAX_CANDIDATES],
    key: [f64; MAX_CANDIDATES],
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            idx: [0; MAX_CANDIDATES],
            rel: [[0.0; 3]; MAX_CANDIDATES],
            key: [0.0; MAX_CANDIDATES],
        }
    }
}

struct Context<'a> {
    points: &'a [DVec3],
    zones: Zones,
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
    v: u32,
    p: [f64; 3],
    s: &'a Scratch,
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
}

impl Context<'_> {
    /// Writes vertex `i`'s ring into `out` and returns its length, or `None`.
    fn star(&self, i: usize, s: &mut Scratch, out: &mut [u32; STRIDE]) -> Option<u8> {
        let n = self.points.len();
        let p = self.points[i];
        let mut m = 0;
        if i.min(n - 1 - i) < POLE {
            for j in i.saturating_sub(POLE_WINDOW)..(i + POLE_WINDOW + 1).min(n) {
                if j != i {
                    s.idx[m] = j as u32;
                    m += 1;
                }
            }
        } else {
            // Distinct offsets from `F_2 = 1` on: no candidate twice.
            for f in self.zones.offsets(i) {
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
        // A tangent frame at `p` (two orthogonal vectors of equal length), from the axis
        // least aligned with it: only the order of the angles is used.
        let axis = if p.y.abs() < 0.9 * p.length() {
            DVec3::Y
        } else {
            DVec3::X
        };
        let e1 = axis.cross(p);
        let e2 = p.cross(e1) / p.length();
        let mut kept = 0;
        let mut reach = 0.0f64;
        for k in 0..m {
            let id = s.idx[k];
            let q = self.points[id as usize];
            if q.dot(p) <= 0.0 {
                continue;
            }
            let d = q - p;
            reach = reach.max(d.abs().max_element());
            let key = pseudo_angle(d.dot(e1), d.dot(e2));
            // Insertion sort by angle: a dozen candidates away from the poles.
            let mut b = kept;
            while b > 0 && s.key[b - 1] > key {
                s.key[b] = s.key[b - 1];
                s.idx[b] = s.idx[b - 1];
                s.rel[b] = s.rel[b - 1];
                b -= 1;
            }
            s.key[b] = key;
            s.idx[b] = id;
            s.rel[b] = d.to_array();
            kept += 1;
        }
        let local = Local {
            points: self.points,
            v: i as u32,
            p: p.to_array(),
            s,
            bound_outside: DET_ERR * reach * reach * reach,
            bound_ccw: DET_ERR * p.abs().max_element() * reach * reach,
        };
        let mut ring = [0u8; MAX_CANDIDATES];
        let d = local.scan(&mut ring, kept)?;
        if d > STRIDE {
            return None;
        }
        let ring = &ring[..d];
        // Faces this vertex is the lowest corner of, and the winding around it.
        let v = local.v;
        let id = |k: u8| s.idx[k as usize];
        let mut crossings = 0;
        let mut side_prev = 0.0;
        for j in 0..d {
            let a = ring[j];
            let b = if j + 1 == d { ring[0] } else { ring[j + 1] };
            if id(a) > v && id(b) > v && local.ccw(a as usize, b as usize) <= 0.0 {
                return None;
            }
            let side = if j + 1 == d {
                0.0
            } else {
                local.ccw(ring[0] as usize, b as usize)
            };
            if side_prev < 0.0 && side >= 0.0 {
                crossings += 1;
            }
            side_prev = side;
        }
        if crossings != 1 {
            return None;
        }
        for (o, &k) in out.iter_mut().zip(ring) {
            *o = id(k);
        }
        Some(d as u8)
    }
}

impl Local<'_> {
    /// Drops from the `m` angularly sorted candidates each one that lies strictly outside the
    /// circle through the vertex and its two current angular neighbours (when those make a
    /// counter-clockwise face: then the candidate's edge would not be convex), until none can
    /// be dropped. Leaves the survivors' positions in `c` and returns their count, or `None`
    /// when one of them still fails the test (its edge is not convex and no face can replace
    /// it).
    fn scan(&self, c: &mut [u8; MAX_CANDIDATES], m: usize) -> Option<usize> {
        for (k, x) in c.iter_mut().enumerate().take(m) {
            *x = k as u8;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use quadedge::Mesh;

    /// Triangles rotated to start at their lowest corner, sorted: equal for equal hulls.
    fn canonical(mut tris: Vec<[u32; 3]>) -> Vec<[u32; 3]> {
        for t in &mut tris {
            let k = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
            t.rotate_left(k);
        }
        tris.sort_unstable();
        tris
    }

    /// The mesh of the lattice's rings, if they are found and agree.
    fn ring_mesh(points: &[DVec3]) -> Option<Mesh> {
        let stars = lattice_stars(points)?;
        Mesh::from_rings(points.len(), |v| stars.ring(v)).ok()
    }

    /// The rings' mesh is the lattice's mesh (not the slower exact path) for every size in
    /// `sizes`.
    fn rings_serve(sizes: impl Iterator<Item = usize>) {
        for n in sizes {
            let points = crate::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
            let mesh = ring_mesh(&points).unwrap_or_else(|| panic!("no rings for n = {n}"));
            assert_eq!(mesh.face_count(), 2 * n - 4, "{n}");
        }
    }

    #[test]
    fn rings_are_the_hull() {
        for n in [12, 13, 50, 400, 1000, 1001, 5_000, 20_011, 100_000] {
            let points = crate::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
            let mesh = ring_mesh(&points).expect("rings");
            mesh.check().unwrap();
            let tris = mesh
                .faces()
                .map(|f| mesh.face_vertices(f).map(|v| v.raw()))
                .collect();
            let hull = crate::triangulate(&points).unwrap();
            assert_eq!(canonical(tris), canonical(hull), "{n}");
            assert_eq!(crate::is_delaunay(&mesh, &points), Ok(()));
        }
    }

    #[test]
    fn rings_serve_every_small_size() {
        rings_serve(MIN_POINTS..700);
    }

    /// Every size to 8,000 and a sample to 3,000,000 (about a minute in release).
    #[test]
    #[ignore]
    fn stress_rings_serve_every_size() {
        rings_serve(700..8_000);
        rings_serve((8_000..3_000_000).step_by(49_999));
    }

    #[test]
    fn the_rings_are_the_same_with_1_2_and_4_threads() {
        let points = crate::fibonacci_points(50_000, 1.0, 0.0, 0).unwrap();
        let runs: Vec<Stars> = testkit::thread_pools()
            .iter()
            .map(|pool| pool.install(|| lattice_stars(&points).unwrap()))
            .collect();
        for r in &runs[1..] {
            assert!(r.degree == runs[0].degree && r.ring == runs[0].ring);
        }
    }

    #[test]
    fn points_off_the_lattice_get_the_hull_or_a_refusal() {
        // Exactly co-circular points (two rings of 8 in the planes y = ±0.6, each ring's
        // faces tie) and uniform random points: whatever the rings say must be the hull.
        let mut rng = testkit::Rng::new(5);
        let mut inputs: Vec<Vec<DVec3>> = Vec::new();
        let ring = |y: f64, turn: f64| {
            (0..8).map(move |k| {
                let t = turn + k as f64 * core::f64::consts::FRAC_PI_4;
                DVec3::new(0.8 * t.cos(), y, 0.8 * t.sin())
            })
        };
        inputs.push(ring(0.6, 0.0).chain(ring(-0.6, 0.3)).collect());
        inputs.push((0..500).map(|_| rng.unit_dvec3()).collect());
        let mut lattice = crate::fibonacci_points(2_000, 1.0, 0.0, 0).unwrap();
        lattice.swap(700, 1300);
        inputs.push(lattice);
        for points in &inputs {
            if let Some(mesh) = ring_mesh(points) {
                assert_eq!(mesh.face_count(), 2 * points.len() - 4);
                assert_eq!(crate::is_delaunay(&mesh, points), Ok(()));
            }
        }
        // As it happens: the tied rings each pass their own checks but disagree (the mesh
        // build refuses them); the others fail their own checks.
        let found = inputs
            .iter()
            .map(|p| (lattice_stars(p).is_some(), ring_mesh(p).is_some()));
        assert_eq!(
            found.collect::<Vec<_>>(),
            [(true, false), (false, false), (false, false)]
        );
    }
}
