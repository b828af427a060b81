//! The planar Delaunay triangulation with its ghost closure, built directly: incremental
//! insertion with Lawson flips over ghost triangles, every decision an exact predicate.
//!
//! The ghost vertex `G` closes the triangulation from the start: every hull edge `u → v` has
//! the ghost triangle `(v, u, G)` behind it, so every half-edge has a twin and the structure
//! is a closed surface throughout. A ghost triangle's "circumcircle" is the open half-plane
//! beyond its hull edge, which makes the insertion rules uniform:
//!
//! * a point is located by a visibility walk over real triangles; crossing a hull edge means
//!   the point lies outside the hull, and the ghost triangle behind that edge holds it;
//! * the triangle (real or ghost) that holds the point is split in three, or the edge it lies
//!   on (a real or a hull edge) is split with its two triangles into four;
//! * each edge opposite the new point is flipped while the point lies inside the
//!   "circumcircle" of the triangle behind it: the exact `in_circle` for a real triangle, the
//!   exact `orient` against the hull edge (strictly beyond it) for a ghost one. Flipping ghost
//!   edges walks the hull over every hull edge the new point sees, as a sweep would.
//!
//! Points on the hull's line beyond a hull vertex are not strictly beyond any hull edge, so
//! collinear hull points all stay hull vertices and no real triangle is ever flat. Because
//! every step keeps an exact Delaunay triangulation (with ghosts), the result is the planar
//! Delaunay triangulation of the points (an arbitrary diagonal in exactly co-circular quads)
//! closed by the ghost, and the visibility walk cannot cycle.
//!
//! Triangles live in two flat arrays (three corners; three twin half-edges) that are already
//! [`quadedge::Mesh::from_half_edges`]'s input: half-edge `3t + k` runs from corner `k` to
//! corner `k + 1` of triangle `t`. New triangles put the new point at corner 2, so the edge
//! opposite it is always half-edge `3t`.

use crate::PlaneError;
use crate::predicates::{in_circle, orient};
use glam::DVec2;
use quadedge::internals::try_vec;

/// Where a point lies in the current triangulation.
enum Location {
    /// Strictly inside this triangle, or strictly beyond the hull edge of this ghost triangle.
    Face(u32),
    /// Strictly inside this real half-edge (a hull edge or an interior one).
    Edge(u32),
}

/// The incremental state. `ghost` is the ghost vertex's id, one past the last point.
pub(crate) struct Triangulator<'a> {
    pts: &'a [DVec2],
    ghost: u32,
    /// Corners per triangle, counter-clockwise (ghost triangles too, with `ghost` as a corner).
    pub(crate) corners: Vec<[u32; 3]>,
    /// The twin of each half-edge.
    pub(crate) twins: Vec<u32>,
    /// Edges still to test, as half-edges `3t` opposite the new point.
    stack: Vec<u32>,
    /// A real triangle near the last insertion: where the next walk starts.
    start: u32,
    /// Walk steps taken in total (a safety bound, never reached by a Delaunay walk).
    steps: u64,
}

impl<'a> Triangulator<'a> {
    /// The first real triangle `a, b, c` (counter-clockwise) with its three ghost triangles,
    /// room for the whole triangulation of `pts` reserved.
    pub(crate) fn new(pts: &'a [DVec2], [a, b, c]: [u32; 3]) -> Result<Self, PlaneError> {
        let ghost = pts.len() as u32;
        let faces = 2 * pts.len();
        let mut corners = try_vec(faces)?;
        let mut twins = try_vec(3 * faces)?;
        // Triangle 0 is real; triangle 1 + k is the ghost behind its edge k.
        corners.extend([[a, b, c], [b, a, ghost], [c, b, ghost], [a, c, ghost]]);
        // Ghost behind u → v is (v, u, G): its half-edge 0 is v → u, 1 is u → G, 2 is G → v.
        // Half-edge u → G (ghost of u → v) pairs with G → u (ghost of the edge ending at u).
        twins.extend([3, 6, 9, 0, 11, 7, 1, 5, 10, 2, 8, 4]);
        Ok(Self {
            pts,
            ghost,
            corners,
            twins,
            stack: Vec::with_capacity(64),
            start: 0,
            steps: 0,
        })
    }

    #[inline(always)]
    fn p(&self, v: u32) -> DVec2 {
        self.pts[v as usize]
    }

    #[inline(always)]
    fn is_ghost_triangle(&self, t: u32) -> bool {
        self.corners[t as usize].contains(&self.ghost)
    }

    /// Inserts point `v`.
    ///
    /// # Errors
    /// [`PlaneError::Duplicate`] when `v` equals a point already inserted (nothing changed).
    pub(crate) fn insert(&mut self, v: u32) -> Result<(), PlaneError> {
        let p = self.p(v);
        match self.locate(v, p)? {
            Location::Face(t) => self.split_face(t, v),
            Location::Edge(h) => self.split_edge(h, v),
        }
        self.legalize(v, p);
        Ok(())
    }

    /// Visibility walk from the last insertion to the triangle or edge holding `p`.
    fn locate(&mut self, v: u32, p: DVec2) -> Result<Location, PlaneError> {
        let mut t = self.start;
        // The edge we came in by: `p` is strictly on this side of it, no need to test it.
        let mut entry = 3u32;
        // A Delaunay triangulation admits no cycle; the bound only guards against a bug.
        let limit = self.steps + 16 * self.corners.len() as u64 + 64;
        'walk: loop {
            self.steps += 1;
            if self.steps > limit {
                return Err(PlaneError::NotPlanarMap("point location did not terminate"));
            }
            let tri = self.corners[t as usize];
            let mut zero = 3u32;
            let mut zeros = 0;
            // Start at a varying edge so that no preferred direction biases the walk.
            let first = (self.steps % 3) as u32;
            for j in 0..3 {
                let k = (first + j) % 3;
                if k == entry {
                    continue;
                }
                let (a, b) = (tri[k as usize], tri[(k as usize + 1) % 3]);
                let o = orient(self.p(a), self.p(b), p);
                if o < 0.0 {
                    let h = self.twins[(3 * t + k) as usize];
                    t = h / 3;
                    entry = h % 3;
                    if self.is_ghost_triangle(t) {
                        return Ok(Location::Face(t));
                    }
                    continue 'walk;
                }
                if o == 0.0 {
                    zeros += 1;
                    zero = k;
                }
            }
            return match zeros {
                0 => Ok(Location::Face(t)),
                1 => Ok(Location::Edge(3 * t + zero)),
                _ => {
                    // On two edges of a proper triangle: at their common corner.
                    let first = tri
                        .iter()
                        .copied()
                        .find(|&c| self.p(c) == p)
                        .unwrap_or(tri[0]);
                    Err(PlaneError::Duplicate {
                        first: first as usize,
                        second: v as usize,
                    })
                }
            };
        }
    }

    /// Sets the twins of half-edges `h` and `g` to each other.
    #[inline(always)]
    fn pair(&mut self, h: u32, g: u32) {
        self.twins[h as usize] = g;
        self.twins[g as usize] = h;
    }

    /// Splits triangle `t = (a, b, c)` at `v`: `(a, b, v)` in place, `(b, c, v)`, `(c, a, v)`.
    fn split_face(&mut self, t: u32, v: u32) {
        let [a, b, c] = self.corners[t as usize];
        let (bc, ca) = (
            self.twins[3 * t as usize + 1],
            self.twins[3 * t as usize + 2],
        );
        let t1 = self.corners.len() as u32;
        let t2 = t1 + 1;
        self.corners[t as usize] = [a, b, v];
        self.corners.extend([[b, c, v], [c, a, v]]);
        self.twins.extend([0; 6]);
        self.pair(3 * t1, bc);
        self.pair(3 * t2, ca);
        self.pair(3 * t + 1, 3 * t1 + 2);
        self.pair(3 * t1 + 1, 3 * t2 + 2);
        self.pair(3 * t2 + 1, 3 * t + 2);
        self.stack.extend([3 * t, 3 * t1, 3 * t2]);
    }

    /// Splits half-edge `h = a → b` of the real triangle `(a, b, c)` and its twin's triangle
    /// `(b, a, d)` (a ghost when `a → b` is a hull edge) at `v`: four triangles around `v`.
    fn split_edge(&mut self, h: u32, v: u32) {
        let (t, k) = (h / 3, h % 3);
        let g = self.twins[h as usize];
        let (s, j) = (g / 3, g % 3);
        let at = |x: u32, i: u32| 3 * x + (i % 3);
        let ct = self.corners[t as usize];
        let cs = self.corners[s as usize];
        let (a, b, c) = (
            ct[k as usize],
            ct[(k as usize + 1) % 3],
            ct[(k as usize + 2) % 3],
        );
        let d = cs[(j as usize + 2) % 3];
        let (bc, ca) = (
            self.twins[at(t, k + 1) as usize],
            self.twins[at(t, k + 2) as usize],
        );
        let (ad, db) = (
            self.twins[at(s, j + 1) as usize],
            self.twins[at(s, j + 2) as usize],
        );
        let t2 = self.corners.len() as u32;
        let t4 = t2 + 1;
        // t: (b, c, v), t2: (c, a, v), s: (a, d, v), t4: (d, b, v).
        self.corners[t as usize] = [b, c, v];
        self.corners[s as usize] = [a, d, v];
        self.corners.extend([[c, a, v], [d, b, v]]);
        self.twins.extend([0; 6]);
        self.pair(3 * t, bc);
        self.pair(3 * t2, ca);
        self.pair(3 * s, ad);
        self.pair(3 * t4, db);
        self.pair(3 * t + 1, 3 * t2 + 2);
        self.pair(3 * t2 + 1, 3 * s + 2);
        self.pair(3 * s + 1, 3 * t4 + 2);
        self.pair(3 * t4 + 1, 3 * t + 2);
        self.stack.extend([3 * t, 3 * t2, 3 * s, 3 * t4]);
    }

    /// Does `p` lie inside the "circumcircle" of triangle `(b, a, d)` (listed from the
    /// half-edge `b → a`)? Exact. A ghost triangle's is the open half-plane beyond its hull
    /// edge; a ghost triangle behind a real edge of `p`'s own triangle never contains `p`.
    #[inline(always)]
    fn beyond(&self, [b, a, d]: [u32; 3], p: DVec2) -> bool {
        let g = self.ghost;
        if d == g {
            false
        } else if a == g {
            // (b, G, d) is the ghost of the hull edge b → d... listed as (d, b, G).
            orient(self.p(d), self.p(b), p) > 0.0
        } else if b == g {
            // (G, a, d) is (a, d, G).
            orient(self.p(a), self.p(d), p) > 0.0
        } else {
            in_circle(self.p(b), self.p(a), self.p(d), p) > 0.0
        }
    }

    /// Flips edges opposite `v` until every one is locally Delaunay.
    fn legalize(&mut self, v: u32, p: DVec2) {
        while let Some(h) = self.stack.pop() {
            let t = h / 3;
            let g = self.twins[h as usize];
            let (s, j) = (g / 3, g % 3);
            let cs = self.corners[s as usize];
            let (b, a, d) = (
                cs[j as usize],
                cs[(j as usize + 1) % 3],
                cs[(j as usize + 2) % 3],
            );
            if !self.beyond([b, a, d], p) {
                self.start = if self.is_ghost_triangle(t) { s } else { t };
                continue;
            }
            // (a, b, v) and (b, a, d) become (a, d, v) in t and (d, b, v) in s.
            let x1 = self.twins[3 * t as usize + 1];
            let y1 = self.twins[(3 * s + (j + 1) % 3) as usize];
            let y2 = self.twins[(3 * s + (j + 2) % 3) as usize];
            self.corners[t as usize] = [a, d, v];
            self.corners[s as usize] = [d, b, v];
            self.pair(3 * t, y1);
            self.pair(3 * t + 1, 3 * s + 2);
            self.pair(3 * s, y2);
            self.pair(3 * s + 1, x1);
            self.stack.extend([3 * t, 3 * s]);
        }
        // The walk must start on a real triangle.
        if self.is_ghost_triangle(self.start) {
            let tri = self.corners[self.start as usize];
            let k = (0..3)
                .find(|&k| tri[k] != self.ghost && tri[(k + 1) % 3] != self.ghost)
                .unwrap_or(0);
            self.start = self.twins[3 * self.start as usize + k] / 3;
        }
    }
}
