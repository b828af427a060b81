//! Exact spherical Delaunay triangulation.
//!
//! For points on a sphere, the Delaunay triangulation *is* the convex hull: the plane of a hull
//! face cuts the sphere in the face's circumcircle, and "no point inside the circumcircle" is
//! "no point beyond the face's plane". So everything here is decided by one exact predicate,
//! Shewchuk's adaptive `orient3d` (crate `robust`), evaluated on the input coordinates:
//!
//! * `outside(a, b, c, p) > 0`: `p` lies strictly beyond the plane of face `(a, b, c)`
//!   (counter-clockwise seen from outside), i.e. strictly inside its spherical circumcircle.
//! * `orient3d(o, a, b, p)`: on which side of the plane through an interior point `o` and the
//!   edge `a b` the point `p` lies; this steers the point-location walk.
//!
//! The algorithm is incremental insertion with Lawson flips (Bowyer–Watson in flip form),
//! starting from a large tetrahedron of input points: points are sorted along a Morton curve
//! so that consecutive points are close (or, for the Fibonacci lattice, taken in index order
//! with a lattice neighbour as the start), each point is located by a stochastic visibility
//! walk, the face it sees is split in three and the edges opposite the point are flipped
//! while the point sees the face behind them. Because every decision is an exact predicate on the inputs, the result is exactly
//! the convex hull (the spherical Delaunay triangulation up to the choice of diagonal in
//! exactly co-circular quads) for every input, however degenerate.
//!
//! Internally triangles live in two flat `u32` arrays (three corners, three twin half-edges per
//! triangle), 24 bytes per point against the quad-edge mesh's 108, with no ring maintenance
//! while flipping; the quad-edge [`Mesh`] is built once at the end with
//! [`Mesh::from_triangles`]. Without `unsafe`: bounds checks measured at a few percent.

use crate::SphereError;
use crate::order::{brio_sequence, check_input, insertion_order, scale_for};
use crate::seed::seeded;
use crate::visibility::outside;
use delaunay::predicates::{orient3d_static as orient_static, static_orient3d_bound};
use glam::DVec3;
#[cfg(doc)]
use quadedge::Mesh;
use quadedge::NONE;
use quadedge::internals::try_vec;

/// The spherical Delaunay triangulation of `points` (on a common sphere around the origin),
/// as triangles of point indices, counter-clockwise seen from outside.
///
/// The result is exactly the convex hull of the points, computed with exact predicates, so it
/// holds `2n − 4` triangles and is Delaunay on the sphere, with an arbitrary diagonal in exactly
/// co-circular quads. Points need not be exactly on the sphere; they must be in convex position
/// (every point a vertex of the hull), which points on a sphere always are unless two of them
/// are closer than about `1e-7 · radius`. The sphere's centre need not be inside the hull:
/// points confined to a cap triangulate too (the cap's rim is then spanned by large faces that
/// turn away from the centre: a convex hull, but no mesh of the sphere, which is why
/// [`crate::sphere_mesh`] refuses such input with [`SphereError::NotEnclosingCentre`]).
///
/// Runs in about `O(n log n)` (a Morton sort, then insertion with short walks). Use
/// [`crate::sphere_mesh`] for a quad-edge [`Mesh`].
///
/// Errors: fewer than 4 points, non-finite coordinates, exact duplicates, all points in one
/// plane, or a point inside the hull of the others ([`SphereError`]).
///
/// ```
/// use glam::DVec3;
/// // An octahedron: 6 points, 8 faces (its squares are co-circular, any diagonal is Delaunay).
/// let p = [DVec3::X, DVec3::NEG_X, DVec3::Y, DVec3::NEG_Y, DVec3::Z, DVec3::NEG_Z];
/// let tris = sphere::triangulate(&p).unwrap();
/// assert_eq!(tris.len(), 8);
/// assert!(sphere::triangulate(&p[..3]).is_err());
/// ```
pub fn triangulate(points: &[DVec3]) -> Result<Vec<[u32; 3]>, SphereError> {
    Ok(triangulate_with_twins(points)?.0)
}

/// [`triangulate`] with each half-edge's twin (see [`Mesh::from_half_edges`]).
pub(crate) fn triangulate_with_twins(points: &[DVec3]) -> Result<Parts, SphereError> {
    check_input(points)?;
    let scale = scale_for(points)?;
    let order = insertion_order(points)?;
    let mut pts: Vec<DVec3> = try_vec(points.len())?;
    match scale {
        Some(s) => pts.extend(order.iter().map(|&i| points[i as usize] * s)),
        None => pts.extend(order.iter().map(|&i| points[i as usize])),
    }
    let mut t = Triangulator::new(&pts, Some(&order), Hint::Previous)?;
    t.run()?;
    Ok(t.into_parts())
}

/// [`triangulate_with_twins`] for points already in spatial order (a Hilbert sort), checked
/// ([`check_input`]) and free of duplicates, with `scale` from [`scale_for`]: the points are
/// inserted in BRIO rounds of their own order, without a second spatial sort or copy, and the
/// triangles are in indices of `points`.
pub(crate) fn triangulate_sorted_with_twins(
    points: &[DVec3],
    scale: Option<f64>,
) -> Result<Parts, SphereError> {
    let scaled: Vec<DVec3>;
    let pts = match scale {
        Some(s) => {
            let mut v = try_vec(points.len())?;
            v.extend(points.iter().map(|&p| p * s));
            scaled = v;
            &scaled[..]
        }
        None => points,
    };
    let sequence = brio_sequence(points.len())?;
    let mut t = Triangulator::new(pts, None, Hint::Previous)?;
    t.sequence = Some(&sequence);
    t.run()?;
    Ok(t.into_parts())
}

/// Triangles and the twin of each half-edge, as [`Mesh::from_half_edges`] takes them.
pub(crate) type Parts = (Vec<[u32; 3]>, Vec<u32>);

/// Where each point-location walk starts.
pub(crate) enum Hint {
    /// At the triangle made by the previous insertion (spatially sorted input).
    Previous,
    /// At a triangle of the lattice neighbour `i − fib[j]` closest to point `i`, trying `j`
    /// around the last best `k` (Fibonacci-lattice input in index order).
    Lattice { fib: Vec<u32>, k: usize },
}

/// Incremental hull state: triangle `t` has corners `tv[t]` (counter-clockwise from outside)
/// and half-edge `3t + k` runs from corner `k` to corner `k + 1`; `twin[h]` is the opposite
/// half-edge. `tv` is already the output format, so the lattice path returns it as is.
pub(crate) struct Triangulator<'a> {
    pts: &'a [DVec3],
    /// Input index of each point, `None` when `pts` is in input order.
    order: Option<&'a [u32]>,
    /// The insertion order of `pts` when it is not `0..n`.
    pub(crate) sequence: Option<&'a [u32]>,
    hint: Hint,
    /// Per point one triangle at it (maintained for [`Hint::Lattice`] only).
    vt: Vec<u32>,
    tv: Vec<[u32; 3]>,
    twin: Vec<u32>,
    /// A point strictly inside the first tetrahedron, hence inside every later hull: the walk
    /// moves through the cones from `o` over the faces.
    o: [f64; 3],
    /// Sorted positions of the first tetrahedron, skipped by the insertion loop.
    seed: [u32; 4],
    stack: Vec<u32>,
    rng: u32,
    /// Static error bound of `orient3d` over the input's bounding cube.
    bound: f64,
    /// Walk steps left before [`Triangulator::run`] gives up (lattice path only).
    pub(crate) walk_budget: Option<u64>,
    /// Set when the walk budget ran out: the run stopped early, the result is incomplete.
    pub(crate) over_budget: bool,
}

impl<'a> Triangulator<'a> {
    pub(crate) fn new(
        pts: &'a [DVec3],
        order: Option<&'a [u32]>,
        hint: Hint,
    ) -> Result<Self, SphereError> {
        // The seed tetrahedron only needs to be non-degenerate; a large one keeps the walks'
        // reference point well inside. Search a sample first, all points if it is degenerate.
        let n = pts.len();
        let step = (n / 4096).max(1);
        let sample: Vec<usize> = (0..n).step_by(step).collect();
        let mut found = seeded(pts, &sample);
        if step > 1 && !matches!(found, Some((_, _, Some(_)))) {
            let all: Vec<usize> = (0..n).collect();
            found = seeded(pts, &all);
        }
        let (seed, faces, o) = match found {
            None => return Err(SphereError::Coplanar),
            Some((s, f, Some(o))) => (s, f, o),
            // Four points: the tetrahedron is the answer and no walk needs an inner point.
            Some((s, f, None)) if n == 4 => (s, f, [0.0; 3]),
            Some(_) => return Err(SphereError::TooFlat),
        };
        let mut tv = try_vec(2 * n)?;
        tv.extend_from_slice(&faces);
        let corner = |h: u32| faces[h as usize / 3][h as usize % 3];
        let mut twin = try_vec(6 * n)?;
        twin.resize(12, NONE);
        for h in 0..12u32 {
            let (x, y) = (corner(h), corner(next(h)));
            twin[h as usize] = (0..12u32)
                .find(|&g| corner(g) == y && corner(next(g)) == x)
                .unwrap_or(NONE);
        }
        debug_assert!(twin.iter().all(|&t| t != NONE));
        let vt = match hint {
            Hint::Lattice { .. } => {
                let mut vt = try_vec(n)?;
                vt.resize(n, NONE);
                for (t, f) in faces.iter().enumerate() {
                    for &x in f {
                        vt[x as usize] = t as u32;
                    }
                }
                vt
            }
            Hint::Previous => Vec::new(),
        };
        Ok(Self {
            pts,
            order,
            sequence: None,
            hint,
            vt,
            tv,
            twin,
            o,
            seed,
            stack: Vec::with_capacity(64),
            rng: 0x9e37_79b9,
            bound: Self::static_bound(pts),
            walk_budget: None,
            over_budget: false,
        })
    }

    /// With every coordinate within `±m`, coordinate differences are within `2m` and the
    /// permanent in Shewchuk's bound (three terms of two products of differences times a
    /// difference) within `48 m³`; times `o3derrboundA` that bounds the determinant's error.
    /// The determinant is rounded too, so the bound is padded by 1%. A point set of
    /// non-uniform scale only falls back to [`orient`] more often.
    fn static_bound(pts: &[DVec3]) -> f64 {
        let m = pts.iter().fold(0.0f64, |m, p| m.max(p.abs().max_element()));
        static_orient3d_bound(m)
    }

    /// [`outside`] through the static filter.
    #[inline(always)]
    fn outside(&self, a: [f64; 3], b: [f64; 3], c: [f64; 3], p: [f64; 3]) -> f64 {
        -orient_static(a, b, c, p, self.bound)
    }

    pub(crate) fn run(&mut self) -> Result<(), SphereError> {
        let mut hint = 0;
        let n = self.pts.len() as u32;
        let lattice = matches!(self.hint, Hint::Lattice { .. });
        let sequence = self.sequence;
        let at = |k: u32| sequence.map_or(k, |s| s[k as usize]);
        for k in 0..n {
            let i = at(k);
            if self.seed.contains(&i) {
                continue;
            }
            if lattice {
                hint = self.lattice_start(i).unwrap_or(hint);
            }
            let t = self.locate(hint, i);
            if self.over_budget {
                return Ok(());
            }
            let [a, b, c] = self.tv[t as usize].map(|k| self.p(k));
            if outside(a, b, c, self.p(i)) <= 0.0 {
                return Err(SphereError::NotInConvexPosition {
                    index: self.input_index(i),
                });
            }
            hint = self
                .insert(t, i)
                .map_err(|v| SphereError::NotInConvexPosition {
                    index: self.input_index(v),
                })?;
        }
        Ok(())
    }

    #[inline]
    fn input_index(&self, i: u32) -> usize {
        match self.order {
            Some(o) => o[i as usize] as usize,
            None => i as usize,
        }
    }

    /// A triangle at the already inserted lattice neighbour `i − F_j` nearest to point `i`.
    #[inline]
    fn lattice_start(&mut self, i: u32) -> Option<u32> {
        let Hint::Lattice { fib, k } = &mut self.hint else {
            return None;
        };
        let p = self.pts[i as usize];
        let mut best = (f64::INFINITY, NONE, *k);
        let lo = k.saturating_sub(2);
        for (j, &f) in fib.iter().enumerate().take(*k + 3).skip(lo) {
            let Some(q) = i.checked_sub(f) else {
                break;
            };
            if self.vt[q as usize] == NONE {
                continue;
            }
            let d = p.distance_squared(self.pts[q as usize]);
            if d < best.0 {
                best = (d, q, j);
            }
        }
        if best.1 == NONE {
            // Near the start: fall back to any inserted point below i.
            *k = 0;
            return (0..i)
                .rev()
                .map(|q| self.vt[q as usize])
                .find(|&t| t != NONE);
        }
        *k = best.2;
        Some(self.vt[best.1 as usize])
    }

    #[inline(always)]
    fn p(&self, i: u32) -> [f64; 3] {
        // Indices come from `tv`, which only holds indices below `pts.len()`.
        self.pts[i as usize].to_array()
    }

    #[inline]
    fn random3(&mut self) -> u32 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 17;
        self.rng ^= self.rng << 5;
        self.rng % 3
    }

    /// A triangle whose cone from `o` contains point `i` (stochastic visibility walk: edges
    /// are tried from a random one so that the walk cannot cycle). Falls back to a scan for a
    /// face the point sees if the walk takes absurdly long.
    fn locate(&mut self, start: u32, i: u32) -> u32 {
        let p = self.p(i);
        let o = self.o;
        let mut t = start;
        let mut came = NONE;
        let limit = 3 * self.tv.len() + 64;
        for _ in 0..limit {
            if let Some(left) = &mut self.walk_budget {
                if *left == 0 {
                    self.over_budget = true;
                    return t;
                }
                *left -= 1;
            }
            let r = self.random3();
            let mut moved = false;
            let tri = self.tv[t as usize];
            for k in 0..3 {
                let slot = (r + k) % 3;
                let h = 3 * t + slot;
                if h == came {
                    continue;
                }
                let (a, b) = (
                    self.p(tri[slot as usize]),
                    self.p(tri[if slot == 2 { 0 } else { slot as usize + 1 }]),
                );
                // Is `p` beyond the plane (o, a, b), on the side away from this triangle?
                if orient_static(o, a, b, p, self.bound) > 0.0 {
                    came = self.twin[h as usize];
                    t = came / 3;
                    moved = true;
                    break;
                }
            }
            if !moved {
                return t;
            }
        }
        // Unreachable in practice; any face the point sees is a correct start for the flips.
        (0..self.tv.len() as u32)
            .find(|&t| {
                let [a, b, c] = self.tv[t as usize].map(|k| self.p(k));
                outside(a, b, c, p) > 0.0
            })
            .unwrap_or(t)
    }

    /// Splits triangle `t` (seen by point `p`) in three around `p`, then flips every edge
    /// opposite `p` whose far face `p` also sees, until `p`'s star covers exactly the faces it
    /// saw. Returns a triangle at `p` as the next walk's start.
    ///
    /// Fails with the vertex that `p` would swallow: when `p` sees every face around an earlier
    /// vertex, that vertex is not in convex position (it lies inside the hull of the others);
    /// flips cannot remove a vertex, so the triangulation is abandoned.
    fn insert(&mut self, t: u32, p: u32) -> Result<u32, u32> {
        let h = 3 * t as usize;
        let [a, b, c] = self.tv[t as usize];
        let (ta, tb, tc) = (self.twin[h], self.twin[h + 1], self.twin[h + 2]);
        let t1 = self.tv.len() as u32;
        let t2 = t1 + 1;
        let (h0, h1, h2) = (3 * t, 3 * t1, 3 * t2);
        self.tv[t as usize] = [a, b, p];
        self.tv.extend_from_slice(&[[b, c, p], [c, a, p]]);
        self.twin[h..h + 3].copy_from_slice(&[ta, h1 + 2, h2 + 1]);
        self.twin
            .extend_from_slice(&[tb, h2 + 2, h0 + 1, tc, h0 + 2, h1 + 1]);
        self.twin[ta as usize] = h0;
        self.twin[tb as usize] = h1;
        self.twin[tc as usize] = h2;
        if !self.vt.is_empty() {
            self.vt[a as usize] = t;
            self.vt[b as usize] = t;
            self.vt[p as usize] = t;
            self.vt[c as usize] = t1;
        }
        // Every triangle on the stack has `p` at corner 2; its half-edge 0 faces away from `p`.
        self.stack.extend_from_slice(&[h0, h1, h2]);
        while let Some(e) = self.stack.pop() {
            if let Err(v) = self.legalize(e) {
                self.stack.clear();
                return Err(v);
            }
        }
        Ok(t)
    }

    /// Flips half-edge `e` (corner 0 → 1 of a triangle with the new point at corner 2) if the
    /// point sees the face behind it, and queues the two edges that then face the point.
    ///
    /// Fails with a corner of the edge if that corner has only three neighbours (`p`, the other
    /// corner, and `d`): the flip would join `p` and `d` twice and leave the corner inside.
    #[inline]
    fn legalize(&mut self, e: u32) -> Result<(), u32> {
        let t = e / 3;
        let f = self.twin[e as usize];
        let tf = f / 3;
        let f_next = next(f); // x → d
        let f_prev = next(f_next); // d → y
        let h = e as usize;
        let [x, y, p] = self.tv[t as usize];
        let d = self.tv[tf as usize][f_prev as usize % 3];
        if self.outside(self.p(y), self.p(x), self.p(d), self.p(p)) <= 0.0 {
            return Ok(());
        }
        let g = 3 * tf as usize;
        let ea = self.twin[f_next as usize];
        let eb = self.twin[f_prev as usize];
        let ec = self.twin[h + 1];
        let ed = self.twin[h + 2];
        // `x` has only the neighbours `y`, `p` and `d` when one triangle lies beyond both
        // `x → d` and `p → x`; likewise for `y`, beyond `d → y` and `y → p`.
        if ea / 3 == ed / 3 {
            return Err(x);
        }
        if eb / 3 == ec / 3 {
            return Err(y);
        }
        self.tv[t as usize] = [x, d, p];
        self.tv[tf as usize] = [d, y, p];
        let (e0, f0) = (3 * t, 3 * tf);
        self.twin[h..h + 3].copy_from_slice(&[ea, f0 + 2, ed]);
        self.twin[g..g + 3].copy_from_slice(&[eb, ec, e0 + 1]);
        self.twin[ea as usize] = e0;
        self.twin[ed as usize] = e0 + 2;
        self.twin[eb as usize] = f0;
        self.twin[ec as usize] = f0 + 1;
        if !self.vt.is_empty() {
            self.vt[x as usize] = t;
            self.vt[d as usize] = t;
            self.vt[y as usize] = tf;
        }
        self.stack.push(e0);
        self.stack.push(f0);
        Ok(())
    }

    /// The triangles in input indices and their twins: exactly what
    /// [`Mesh::from_half_edges`] takes, so the mesh is built without searching twins again.
    pub(crate) fn into_parts(mut self) -> Parts {
        let twin = core::mem::take(&mut self.twin);
        (self.triangles(), twin)
    }

    /// The triangles in input indices.
    fn triangles(self) -> Vec<[u32; 3]> {
        let mut tv = self.tv;
        if let Some(o) = self.order {
            for t in &mut tv {
                *t = t.map(|k| o[k as usize]);
            }
        }
        tv
    }
}

/// The next half-edge around the same triangle.
#[inline(always)]
fn next(h: u32) -> u32 {
    if h % 3 == 2 { h - 2 } else { h + 1 }
}
