//! The global half of the Delaunay check: the faces cover the surface exactly once.
//!
//! Local conditions cannot see a mesh that wraps the sphere twice: every face of such a mesh
//! can be counter-clockwise and every edge locally Delaunay. One exact count closes the gap.
//!
//! **Claim.** Let a closed triangulated surface `M` (every edge between two faces) map to the
//! sphere face by face (each face to the spherical triangle of its corners), every face
//! strictly counter-clockwise. If exactly one face contains a point `d` that lies on no great
//! circle through two vertices, the map is a homeomorphism: the faces tile the sphere, each
//! point once, and the vertices are distinct points.
//!
//! **Proof.** Count, for every point `y` off the images of the edges, the faces containing
//! it. Moving `y` across the image of an edge changes the count by nothing: the two faces of
//! that edge are both counter-clockwise, so their third corners lie on opposite sides of the
//! edge's great circle, and `y` leaves one of them as it enters the other. The count is
//! therefore one constant `k ≥ 1` (every face contains points), here `k = 1`. So the map is
//! one to one off the edges; across an edge it is a local homeomorphism (the two faces lie on
//! opposite sides); and at a vertex whose ring of faces wound around its image `w ≥ 2` times,
//! the points near the image would be covered `w` times. Two vertices at one place would
//! likewise cover the points near it twice. A local homeomorphism that is one to one is a
//! homeomorphism onto its (open and closed) image, the sphere. ∎
//!
//! With that, the faces are a triangulation of the sphere whose vertices are the points, so
//! their union is the convex hull's boundary seen from the centre, and locally Delaunay edges
//! make it the convex hull itself (the polyhedron is locally convex everywhere and star-shaped
//! around the centre, hence convex): the Delaunay triangulation.
//!
//! **In the plane**, the mesh is closed by a ghost vertex (the plane plus a point at infinity
//! is a sphere): lift `(x, y)` to the direction `(x, y, 1)` (orientations are preserved
//! exactly: `det[(a,1), (b,1), (c,1)]` is `orient2d(a, b, c)`) and join every boundary edge to
//! the antipode of the lifted reference point `q` below. That ghost face is counter-clockwise
//! exactly when `q` lies strictly left of the boundary edge, and it never contains `q`'s lift,
//! so the count above is the number of real faces containing `q`. Then the boundary is one
//! simple closed polygon around the faces; with no right turn along it, it is convex: the
//! faces triangulate the convex hull of the points, and locally Delaunay edges make it the
//! Delaunay triangulation (Delaunay's lemma).
//!
//! **General position, symbolically.** The point is `d(ε) = d₀ + ε d₁ + ε² d₂` for an
//! infinitesimal `ε > 0`; the side of `d(ε)` on the great circle (line) through `a, b` is the
//! sign of `orient(a, b, d₀)`, or when that is zero of `orient(a, b, d₁)`, then `d₂`, all exact.
//! `orient(a, b, ·)` is linear on the sphere (affine in the plane), so this is the sign for
//! every small enough `ε`; and it is never zero when `a, b` are distinct directions (points),
//! as in any counter-clockwise face. On the sphere `d = +z + ε x + ε² y`; in the plane
//! `q = a + ε (b − a) + ε² (c − a)` for the first face `a, b, c`, strictly inside it.
//!
//! **Cost.** Before the three predicates, an exact filter on coordinates: a face containing the
//! sphere's `d` has a corner with `z > 0`, one with `x ≥ 0` and one with `x ≤ 0`, and the same
//! for `y` (`d` is a nonnegative combination of the corners with `dz = 1` and `dx, dy`
//! infinitesimal); in the plane the face's bounding box holds `a`. Only the few faces near the
//! probe pass: a handful of comparisons per face.

use crate::Surface;
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// A point in general position, symbolically (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Probe {
    /// The direction `+z`, tilted by `ε` towards `+x` and `ε²` towards `+y`.
    Sphere,
    /// `a + ε (b − a) + ε² (c − a)` for a reference face `a, b, c`.
    Plane([DVec3; 3]),
}

impl Probe {
    /// The probe for `surface`; in the plane, inside the face with corners `reference`.
    pub(crate) fn new<S: Surface>(surface: &S, reference: [DVec3; 3]) -> Self {
        if surface.is_closed() {
            Probe::Sphere
        } else {
            Probe::Plane(reference)
        }
    }

    /// Exact filter: `false` only when the face `p` cannot contain the probe.
    #[inline(always)]
    fn may_contain(&self, p: [DVec3; 3]) -> bool {
        let [a, b, c] = p;
        let r = match self {
            Probe::Sphere => {
                if a.z <= 0.0 && b.z <= 0.0 && c.z <= 0.0 {
                    return false;
                }
                DVec3::ZERO
            }
            Probe::Plane([r, _, _]) => *r,
        };
        let straddles = |a: f64, b: f64, c: f64, r: f64| {
            !((a > r && b > r && c > r) || (a < r && b < r && c < r))
        };
        straddles(a.x, b.x, c.x, r.x) && straddles(a.y, b.y, c.y, r.y)
    }

    /// Is the probe strictly left of `a → b` (inside the half-space of the great circle)?
    /// Exact; `false` when `a` and `b` coincide.
    #[inline]
    pub(crate) fn left_of<S: Surface>(&self, surface: &S, a: DVec3, b: DVec3) -> bool {
        let base = match self {
            Probe::Sphere => [DVec3::Z, DVec3::X, DVec3::Y],
            Probe::Plane(q) => *q,
        };
        for d in base {
            let o = surface.orient(a, b, d);
            if o != 0.0 {
                return o > 0.0;
            }
        }
        false
    }

    /// Does the counter-clockwise face with corners `p` contain the probe? Exact.
    #[inline(always)]
    pub(crate) fn in_face<S: Surface>(&self, surface: &S, p: [DVec3; 3]) -> bool {
        self.may_contain(p)
            && self.left_of(surface, p[0], p[1])
            && self.left_of(surface, p[1], p[2])
            && self.left_of(surface, p[2], p[0])
    }
}

/// How many times the ring of faces around `v` winds around it, every one of them assumed
/// counter-clockwise: the faces whose corner at `v` holds the direction towards a point in
/// general position (`+x` tilted by `ε` towards `+y` and `ε²` towards `+z`). A face's corner
/// is less than a half-turn, so it holds that direction exactly when the direction is left of
/// its first side and not of its second: one exact predicate per neighbour.
///
/// With every face counter-clockwise, a closed mesh of genus 0 covers the sphere
/// `1 + Σ (w(v) − 1) / 2` times (Riemann–Hurwitz): once exactly when every vertex winds once.
/// [`crate::restore`] uses this to certify a repair without folds, in time proportional to
/// the moved vertices' stars.
pub(crate) fn winding<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    v: Vertex,
) -> usize {
    let pv = positions[v.index()];
    let left = |a: DVec3| {
        for d in [DVec3::X, DVec3::Y, DVec3::Z] {
            let o = surface.orient(pv, a, d);
            if o != 0.0 {
                return o > 0.0;
            }
        }
        false
    };
    // The turns from left to right of the ring, cyclically, counted as the ring is walked
    // (no list of sides: this runs for every vertex a large restore certifies).
    let mut sides = mesh.neighbors(v).map(|u| left(positions[u.index()]));
    let Some(first) = sides.next() else {
        return 0;
    };
    let (mut count, mut last) = (0, first);
    for side in sides {
        count += usize::from(last && !side);
        last = side;
    }
    count + usize::from(last && !first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Plane, Sphere};

    /// The filter never rejects a face the exact test accepts, and exactly one face of an
    /// octahedron (whose vertices lie on the probe's circles) holds the probe.
    #[test]
    fn octahedron_holds_the_probe_once() {
        let (x, y, z) = (DVec3::X, DVec3::Y, DVec3::Z);
        let faces = [
            [x, y, z],
            [y, -x, z],
            [-x, -y, z],
            [-y, x, z],
            [y, x, -z],
            [-x, y, -z],
            [-y, -x, -z],
            [x, -y, -z],
        ];
        let p = Probe::Sphere;
        let holding: Vec<usize> = (0..8).filter(|&i| p.in_face(&Sphere, faces[i])).collect();
        assert_eq!(holding, vec![0]);
        // Without the filter, the same answer.
        let exact = |f: [DVec3; 3]| {
            p.left_of(&Sphere, f[0], f[1])
                && p.left_of(&Sphere, f[1], f[2])
                && p.left_of(&Sphere, f[2], f[0])
        };
        assert_eq!((0..8).filter(|&i| exact(faces[i])).count(), 1);
    }

    #[test]
    fn plane_probe_is_inside_its_face_only() {
        let (a, b, c, d) = (DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0));
        let p = Probe::Plane([a, b, c]);
        assert!(p.in_face(&Plane, [a, b, c]));
        assert!(!p.in_face(&Plane, [b, d, c]));
        assert!(p.left_of(&Plane, a, b) && p.left_of(&Plane, c, a) && !p.left_of(&Plane, b, a));
    }
}
