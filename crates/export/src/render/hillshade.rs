//! Hillshading: slopes of a scalar layer lit from the north-west, as on a relief map.
//!
//! Each vertex gets the gradient of the layer in its tangent plane (least squares over its
//! neighbours); a sample's surface normal is the sphere's normal tilted by the (scaled)
//! gradient, and its brightness is the light received relative to flat ground, so that flat
//! areas keep their colour.

use crate::locate::Hit;
use glam::Vec3A;
use quadedge::Topology;

/// Gradient of `values` per vertex slot (value per radian, tangent to the sphere), by least
/// squares over the neighbours' differences; zero for dead or isolated vertices and where the
/// neighbours do not span the tangent plane.
pub(crate) fn vertex_gradients(mesh: &impl Topology, dirs: &[Vec3A], values: &[f32]) -> Vec<Vec3A> {
    let mut out = vec![Vec3A::ZERO; dirs.len()];
    for v in mesh.vertices() {
        let d = dirs[v.index()];
        let e1 = d.any_orthonormal_vector();
        let e2 = d.cross(e1);
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0f32, 0.0, 0.0, 0.0, 0.0);
        for n in mesh.neighbors(v) {
            let t = dirs[n.index()] - d;
            let (x, y) = (t.dot(e1), t.dot(e2));
            let df = values[n.index()] - values[v.index()];
            a11 += x * x;
            a12 += x * y;
            a22 += y * y;
            b1 += x * df;
            b2 += y * df;
        }
        let det = a11 * a22 - a12 * a12;
        if det > 1e-12 * (a11 + a22) * (a11 + a22) && det.is_finite() {
            let gx = (a22 * b1 - a12 * b2) / det;
            let gy = (a11 * b2 - a12 * b1) / det;
            let g = gx * e1 + gy * e2;
            if g.is_finite() {
                out[v.index()] = g;
            }
        }
    }
    out
}

/// Per-vertex gradients scaled to slopes, and the light.
pub(crate) struct Hillshade {
    /// Gradients times the scale that makes the mean slope 45° at strength 1.
    slopes: Vec<Vec3A>,
    north: Vec3A,
}

/// Sine (= cosine) of the light's 45° altitude.
const SIN_ALT: f32 = std::f32::consts::FRAC_1_SQRT_2;
/// Brightness cap, so that steep sunny slopes do not burn out.
const MAX_GAIN: f32 = 1.6;

impl Hillshade {
    /// Scales the gradients so that, at strength 1, the 98th percentile of the slopes is
    /// 30°: steep enough to read relief whatever the layer's units (slopes facing away from
    /// the light darken to about a third, not to black), robust to a few spikes, and still
    /// right for a single feature on flat ground.
    pub(crate) fn new(gradients: Vec<Vec3A>, strength: f32, north: Vec3A) -> Self {
        let mut lengths: Vec<f32> = gradients
            .iter()
            .map(|g| g.length())
            .filter(|&l| l > 0.0)
            .collect();
        let scale = if lengths.is_empty() {
            0.0
        } else {
            let k = (lengths.len() - 1) * 98 / 100;
            let (_, &mut g98, _) = lengths.select_nth_unstable_by(k, f32::total_cmp);
            // tan 30°.
            if g98 > 0.0 {
                strength * 0.577_350_3 / g98
            } else {
                0.0
            }
        };
        let slopes = gradients.into_iter().map(|g| g * scale).collect();
        Self { slopes, north }
    }

    /// Brightness factor at unit direction `p` for slope `s` (tangent): received light of the
    /// tilted normal over that of flat ground, in `0..=MAX_GAIN`.
    #[inline]
    fn factor(&self, p: Vec3A, s: Vec3A) -> f32 {
        let Some(n) = (self.north - self.north.dot(p) * p).try_normalize() else {
            return 1.0; // at a pole, north is every way: no azimuth to light from
        };
        let east = n.cross(p);
        // North-west at 45° altitude: a tangent part along (n − e)/√2 and a normal part.
        let light = SIN_ALT * (SIN_ALT * (n - east)) + SIN_ALT * p;
        let normal = p - s;
        let lit = normal.dot(light) / normal.length();
        (lit.max(0.0) / SIN_ALT).min(MAX_GAIN)
    }

    /// The factor with the slope of the nearest site.
    #[inline]
    pub(crate) fn factor_at(&self, p: Vec3A, site: u32) -> f32 {
        self.factor(p, self.slopes[site as usize])
    }

    /// The factor with the slope interpolated across the face.
    #[inline]
    pub(crate) fn factor_interpolated(&self, p: Vec3A, hit: &Hit) -> f32 {
        let s = (0..3)
            .map(|k| hit.weights[k] * self.slopes[hit.corners[k] as usize])
            .sum();
        self.factor(p, s)
    }
}
