//! What a kept sphere's own positions prove about every turn of it, so that a resample
//! tests exactly only the few quads a turn's rounding could change.
//!
//! A turned point is `fl(fl(turn · p) · scale)`; glam's quaternion product is the sandwich
//! `(w² − |b|²) p + 2 (b·p) b + 2 w (b × p)`, which is `|turn|²` times a rotation of `p` for
//! any quaternion. So the turned point is `s · R p + e` with `s = scale · |turn|²` and a
//! rounding error `|e| ≤ 45 ε s |p|` (`ε = 2⁻⁵³`; each coordinate within `26 ε s |p|`: 6 from
//! the first term, 8 from the second, 3 from the cross product, 8 from the two sums, 1 from
//! the scaling), bounded here by [`TURN_ERR`]` = 128 ε`. A rotation and a positive scaling
//! keep `orient3d` exactly (it scales by `s³`), so in the template's units each difference of
//! two turned points moves by at most `h = 2 · 128 ε ρ` (`ρ` the largest `|p|`), and the
//! determinant of three differences `u, v, w` by at most
//! `h (|v||w| + |w||u| + |u||v|) + h² (|u| + |v| + |w|) + h³` (each term of the expansion of
//! the determinant of the moved differences). A test whose template
//! determinant is surely larger than that (Shewchuk's error bound taken off the computed
//! value) has the same sign for every turn: only the other quads (a few in ten thousand,
//! almost cocircular ones) are tested at each resample, with the vertices' radii.

use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// Shewchuk's `o3derrboundA = (7 + 56ε)ε`, rounded up (as in `delaunay::predicates`).
const O3D_ERR: f64 = 7.771_561_172_376_103e-16;

/// A bound of the turn's rounding error relative to `s |p|` (45 ε derived, see the module).
const TURN_ERR: f64 = 128.0 * (f64::EPSILON / 2.0);

/// Sizes (radii, scales) within which no product of the tests over- or underflows.
const SIZES: core::ops::RangeInclusive<f64> = 1e-30..=1e30;

/// The quads of a kept sphere whose tests a turn could change (see the [module](self)).
#[derive(Debug)]
pub(super) struct Margins {
    /// Quad indices, in order.
    weak: Vec<u32>,
}

impl Margins {
    /// The margins of a template of `radius` (`None` when they prove nothing: a face missing
    /// beside a live edge, a live vertex on no live edge or an edge on a dead vertex, sizes
    /// out of range; every turn is then certified in full).
    pub(super) fn of(mesh: &Mesh, positions: &[DVec3], radius: f64) -> Option<Self> {
        Self::with_error(mesh, positions, radius, TURN_ERR)
    }

    /// [`Margins::of`] for a turn whose rounding error is within `turn_err · s |p|`.
    fn with_error(mesh: &Mesh, positions: &[DVec3], radius: f64, turn_err: f64) -> Option<Self> {
        if !SIZES.contains(&radius) || positions.len() < mesh.vertex_slots() {
            return None;
        }
        // Every live vertex the end of a live edge (the full certificate tests those ends),
        // its radius in range.
        let vertex = |i: usize| -> Option<f64> {
            let v = Vertex::new(i as u32);
            if !mesh.is_vertex_alive(v) {
                return Some(0.0);
            }
            let e = mesh.vertex_edge(v);
            let r = positions[i].length();
            (e.is_valid() && mesh.is_edge_alive(e) && mesh.origin(e) == v && SIZES.contains(&r))
                .then_some(r)
        };
        let rho = (0..mesh.vertex_slots())
            .into_par_iter()
            .map(vertex)
            .try_reduce(|| 0.0, |a, b| Some(a.max(b)))?;
        let h = 2.0 * turn_err * rho * (1.0 + 1e-9);
        let quad = |q: usize| -> Option<Option<u32>> {
            let e = Edge::of_quad(q as u32);
            if !mesh.is_edge_alive(e) {
                return Some(None);
            }
            if !(mesh.left(e).is_valid() && mesh.right(e).is_valid()) {
                return None;
            }
            let (a, b) = (mesh.origin(e), mesh.dest(e));
            let c = mesh.dest(mesh.origin_next(e));
            let d = mesh.dest(mesh.origin_next(e.sym()));
            if ![a, b, c, d].iter().all(|&v| mesh.is_vertex_alive(v)) {
                return None;
            }
            let [pa, pb, pc, pd] = [a, b, c, d].map(|v| positions[v.index()]);
            // Each test of the full certificate: the edge well within a hemisphere (`|q_a -
            // q_b| ≤ s |p_a - p_b| + 2 h s < radius`), both faces counter-clockwise, the quad
            // not inside out.
            let strong = pa.distance_squared(pb) <= 0.25 * radius * radius
                && surely_positive([pa, pb, pc, DVec3::ZERO], h)
                && surely_positive([pb, pa, pd, DVec3::ZERO], h)
                && surely_positive([pa, pb, pc, pd], h);
            Some((!strong).then_some(q as u32))
        };
        // Only the weak quads kept (in order); a quad that proves nothing stops it all.
        let weak: Result<Vec<u32>, ()> = (0..mesh.quad_slots())
            .into_par_iter()
            .filter_map(|q| match quad(q) {
                Some(None) => None,
                Some(Some(q)) => Some(Ok(q)),
                None => Some(Err(())),
            })
            .collect();
        Some(Self { weak: weak.ok()? })
    }

    /// The quads to test at every turn.
    pub(super) fn weak(&self) -> &[u32] {
        &self.weak
    }

    /// Do the margins hold for a turn scaled by `scale`?
    pub(super) fn cover(scale: f64) -> bool {
        SIZES.contains(&scale)
    }
}

/// Is `orient3d(a, b, c, d)` positive for every move of the four points' differences by at
/// most `h` each (see the [module](self))?
fn surely_positive([a, b, c, d]: [DVec3; 4], h: f64) -> bool {
    let (u, v, w) = (a - d, b - d, c - d);
    let (vw, wu, uv) = (
        v.x * w.y - w.x * v.y,
        w.x * u.y - u.x * w.y,
        u.x * v.y - v.x * u.y,
    );
    let det = u.z * vw + v.z * wu + w.z * uv;
    let permanent = ((v.x * w.y).abs() + (w.x * v.y).abs()) * u.z.abs()
        + ((w.x * u.y).abs() + (u.x * w.y).abs()) * v.z.abs()
        + ((u.x * v.y).abs() + (v.x * u.y).abs()) * w.z.abs();
    // A lower bound of the exact determinant of the template's points.
    let sure = det - O3D_ERR * (1.0 + 1e-12) * permanent;
    // `|v||w| + |w||u| + |u||v| ≤ q` and `|u| + |v| + |w| ≤ √(3q) ≤ (1 + 3q) / 2`.
    let q = u.length_squared() + v.length_squared() + w.length_squared();
    let moved = (h * q + h * h * (1.0 + 3.0 * q) / 2.0 + h * h * h) * (1.0 + 1e-6);
    sure > moved
}

#[cfg(test)]
mod tests {
    use super::super::{FreshSphere, certified};
    use super::*;
    use glam::DQuat;

    fn random_turn(rng: &mut testkit::Rng, off_unit: f64) -> DQuat {
        let [x, y, z] = rng.unit_vector();
        let axis = DVec3::new(x, y, z);
        let q = DQuat::from_axis_angle(axis, 6.0 * rng.unit_f64());
        q * (1.0 + off_unit)
    }

    /// The margins rest on glam's product being the sandwich `q p q*` evaluated in this order
    /// (`|q|²` times a rotation, for any quaternion): pinned bit for bit.
    #[test]
    fn a_turn_is_the_sandwich_product() {
        let mut rng = testkit::Rng::new(3);
        for k in 0..2000 {
            let q = random_turn(&mut rng, [0.0, 1e-9, -1e-9][k % 3]);
            let [x, y, z] = rng.unit_vector();
            let p = DVec3::new(x, y, z) * 6371.0;
            let (w, b) = (q.w, DVec3::new(q.x, q.y, q.z));
            let sandwich = p * (w * w - b.dot(b)) + b * (p.dot(b) * 2.0) + b.cross(p) * (w * 2.0);
            assert_eq!((q * p).to_array(), sandwich.to_array());
        }
    }

    /// The rounding of a turn is far within [`TURN_ERR`] (against the rotation matrix of the
    /// normalised quaternion, itself rounded: a check of the bound's size, not a proof).
    #[test]
    fn a_turn_rounds_within_the_bound() {
        let mut rng = testkit::Rng::new(4);
        let mut worst: f64 = 0.0;
        for k in 0..20_000 {
            let q = random_turn(&mut rng, [0.0, 1e-9, -1e-9][k % 3]);
            let n = q.length_squared();
            let m = glam::DMat3::from_quat(q.normalize());
            let [x, y, z] = rng.unit_vector();
            let p = DVec3::new(x, y, z);
            let scale = 6371.0;
            let turned = (q * p) * scale;
            let exact = (m * p) * (scale * n);
            worst = worst.max((turned - exact).length() / (scale * n * p.length()));
        }
        assert!(worst < TURN_ERR / 8.0, "{worst:e}");
    }

    /// Whatever the margins leave open, the certificate through them says what the full one
    /// says: on turns of a template (both certify), with margins so wide every quad is open,
    /// and on a template made non-Delaunay by a flip (both refuse).
    #[test]
    fn the_certificate_through_margins_is_the_full_one() {
        let r = 6371.0;
        let fresh = FreshSphere::fibonacci(3000, 1.0, 0.3, 7).unwrap();
        let (mesh, pos) = (&*fresh.mesh, &fresh.positions[..]);
        let tight = Margins::of(mesh, pos, 1.0).unwrap();
        let wide = Margins::with_error(mesh, pos, 1.0, 1e-3).unwrap();
        assert!(tight.weak().len() < 10, "{}", tight.weak().len());
        assert!(wide.weak().len() > 1000, "{}", wide.weak().len());
        let mut rng = testkit::Rng::new(5);
        for _ in 0..20 {
            let q = random_turn(&mut rng, 0.0).normalize();
            let turned: Vec<DVec3> = pos.iter().map(|&p| (q * p) * r).collect();
            assert!(certified(mesh, &turned, r));
            assert!(fresh.certified(&turned, r, r));
        }
        // A flipped edge: its quad fails on the template, so it is open, and refused.
        let mut flipped = mesh.clone();
        let e = flipped.undirected_edges().nth(100).unwrap();
        flipped.flip(e).unwrap();
        let m = Margins::of(&flipped, pos, 1.0).unwrap();
        assert!(m.weak().contains(&(e.quad() as u32)));
        let q = random_turn(&mut rng, 0.0).normalize();
        let turned: Vec<DVec3> = pos.iter().map(|&p| (q * p) * r).collect();
        assert!(!certified(&flipped, &turned, r));
        assert!(
            !m.weak()
                .iter()
                .all(|&q| super::super::quad_ok(&flipped, &turned, r, q as usize))
        );
        // A point off the sphere is refused through the vertices' pass.
        let mut off = turned.clone();
        off[17] *= 1.0 + 1e-6;
        assert!(!certified(mesh, &off, r) && !fresh.certified(&off, r, r));
    }
}
