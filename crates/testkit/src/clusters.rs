//! Clustered point sets on the unit sphere, the inputs that stress an incremental
//! triangulator's insertion order and point location: a dense cap with a few far points, two
//! small clusters far apart, a thin great-circle band with its poles. Shared by the sphere
//! crate's tests, the `sphere` bench and its `cap_far` example.
//!
//! The clusters are small (`CAP` radians across): a fixed spatial grid over the whole point
//! set (a Morton frame of 2²¹ cells per axis) puts thousands of their points in one cell.

use crate::Rng;
use glam::DVec3;

/// Half-angle of the caps, in radians (about 190 m on the Earth).
pub const CAP: f64 = 3e-5;

/// The families, by name (the `cap_far` example and the bench loop over them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cluster {
    /// `n` points uniform in a cap of half-angle [`CAP`] around `+z` (not enclosing the
    /// centre: only `sphere::triangulate` takes it).
    Cap,
    /// The cap and three far points at latitude −30°, 120° apart.
    CapPlusFar,
    /// The cap and the same three far directions a million times farther out: no longer on
    /// the sphere, still in convex position (`sphere::triangulate` takes any such points).
    CapPlusDistant,
    /// The cap and one far point, the south pole.
    CapPlusPole,
    /// The cap and the antipode of one cap point.
    CapPlusAntipode,
    /// Two caps of half-angle [`CAP`], `n / 2` points each, around `+z` and `+x`, and the
    /// other four axis points `−x`, `−z`, `±y`.
    TwoClusters,
    /// `n` points uniform in the band `|z| < CAP` around the equator, and both poles.
    BandPlusPoles,
}

impl Cluster {
    /// Every family, [`Cluster::Cap`] first (the reference of the others).
    pub const ALL: [Cluster; 7] = [
        Cluster::Cap,
        Cluster::CapPlusFar,
        Cluster::CapPlusDistant,
        Cluster::CapPlusPole,
        Cluster::CapPlusAntipode,
        Cluster::TwoClusters,
        Cluster::BandPlusPoles,
    ];

    /// A short name for tables and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Cluster::Cap => "cap_alone",
            Cluster::CapPlusFar => "cap_plus_far",
            Cluster::CapPlusDistant => "cap_plus_distant",
            Cluster::CapPlusPole => "cap_plus_pole",
            Cluster::CapPlusAntipode => "cap_plus_antipode",
            Cluster::TwoClusters => "two_clusters",
            Cluster::BandPlusPoles => "band_plus_poles",
        }
    }

    /// `n` points of the family from `seed`, and the family's few extra points after them.
    ///
    /// ```
    /// use testkit::Cluster;
    /// let p = Cluster::CapPlusFar.points(1000, 1);
    /// assert_eq!(p.len(), 1003);
    /// assert!(p.iter().all(|q| (q.length() - 1.0).abs() < 1e-15));
    /// assert_eq!(Cluster::Cap.points(1000, 1), p[..1000]);
    /// // Within the cap, up to the jitter at its rim.
    /// assert!(p[..1000].iter().all(|q| q.z >= (1.01 * testkit::CAP).cos()));
    /// ```
    pub fn points(self, n: usize, seed: u64) -> Vec<DVec3> {
        let mut rng = Rng::new(seed);
        let far = (0..3).map(|k| at(-0.5, k as f64 / 3.0));
        let mut p = match self {
            Cluster::TwoClusters => {
                let mut p = cap(n / 2, &mut rng);
                // The second cap turned from +z to +x.
                p.extend(
                    cap(n - n / 2, &mut rng)
                        .iter()
                        .map(|q| DVec3::new(q.z, q.x, q.y)),
                );
                p
            }
            Cluster::BandPlusPoles => (0..n)
                .map(|_| at(CAP * (2.0 * rng.unit_f64() - 1.0), rng.unit_f64()))
                .collect(),
            _ => cap(n, &mut rng),
        };
        match self {
            Cluster::Cap => {}
            Cluster::CapPlusFar => p.extend(far),
            Cluster::CapPlusDistant => p.extend(far.map(|q| q * 1e6)),
            Cluster::CapPlusPole => p.push(DVec3::NEG_Z),
            Cluster::CapPlusAntipode => p.push(-p[n / 2]),
            Cluster::TwoClusters => p.extend([DVec3::NEG_X, DVec3::NEG_Z, DVec3::Y, DVec3::NEG_Y]),
            Cluster::BandPlusPoles => p.extend([DVec3::Z, DVec3::NEG_Z]),
        }
        p
    }
}

/// The unit vector at height `z` and longitude `turn` turns.
fn at(z: f64, turn: f64) -> DVec3 {
    let r = ((1.0 - z) * (1.0 + z)).sqrt();
    let (s, c) = (turn * core::f64::consts::TAU).sin_cos();
    DVec3::new(r * c, r * s, z).normalize()
}

/// `n` points evenly spread over the disk of radius `tan CAP` in the plane `z = 1` (a sunflower
/// spiral, each point jittered by up to a quarter of the spacing), projected onto the sphere: a
/// cap of half-angle [`CAP`] around `+z`. Uniform random points would put some pairs too close to
/// be in convex position once rounded; taken in the tangent plane, `x` and `y` keep every digit.
fn cap(n: usize, rng: &mut Rng) -> Vec<DVec3> {
    let r = CAP.tan();
    let golden = core::f64::consts::PI * (3.0 - 5f64.sqrt());
    let jitter = 0.25 * r * (core::f64::consts::PI / n.max(1) as f64).sqrt();
    (0..n)
        .map(|i| {
            let d = r * ((i as f64 + 0.5) / n as f64).sqrt();
            let (s, c) = (golden * i as f64).sin_cos();
            let (jx, jy) = (rng.unit_f64() - 0.5, rng.unit_f64() - 0.5);
            DVec3::new(d * c + jitter * jx, d * s + jitter * jy, 1.0).normalize()
        })
        .collect()
}
