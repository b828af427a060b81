//! Seeded noise on the sphere, evaluated at a unit direction: the same value for the same
//! place whatever the mesh, so a planet does not depend on its vertex count.
//!
//! Gradient noise on the integer lattice of 3D space (a gradient per lattice point from a
//! hash of the point and the seed, quintic fade), summed in octaves (fBm). A feature scale
//! in km becomes a lattice frequency through the radius: `frequency = radius / scale`.

use glam::DVec3;

/// A 64-bit mix (SplitMix64's finaliser): spreads every input bit over the output.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A pseudo-random unit-ish gradient for a lattice point.
fn gradient(seed: u64, x: i64, y: i64, z: i64) -> DVec3 {
    let h = mix(seed
        ^ mix((x as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (y as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (z as u64).wrapping_mul(0x1656_67b1_9e37_79f9)));
    // Three 21-bit coordinates in [-1, 1]: an unnormalised direction is enough for noise.
    let c = |s: u32| ((h >> s) & 0x1f_ffff) as f64 / 1_048_575.5 - 1.0;
    DVec3::new(c(0), c(21), c(42))
}

/// Gradient noise at `p` (lattice units), roughly in [-1, 1].
pub fn gradient_noise(seed: u64, p: DVec3) -> f64 {
    let base = p.floor();
    let f = p - base;
    let fade = |t: f64| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let (u, v, w) = (fade(f.x), fade(f.y), fade(f.z));
    let (bx, by, bz) = (base.x as i64, base.y as i64, base.z as i64);
    let corner = |i: i64, j: i64, k: i64| {
        let g = gradient(seed, bx + i, by + j, bz + k);
        g.dot(f - DVec3::new(i as f64, j as f64, k as f64))
    };
    let lerp = |a: f64, b: f64, t: f64| a + (b - a) * t;
    let x00 = lerp(corner(0, 0, 0), corner(1, 0, 0), u);
    let x10 = lerp(corner(0, 1, 0), corner(1, 1, 0), u);
    let x01 = lerp(corner(0, 0, 1), corner(1, 0, 1), u);
    let x11 = lerp(corner(0, 1, 1), corner(1, 1, 1), u);
    lerp(lerp(x00, x10, v), lerp(x01, x11, v), w) * 1.6
}

/// Fractal noise on the sphere: `octaves` of [`gradient_noise`] at the unit direction `dir`,
/// the first with features about `scale_km` wide on a planet of `radius_km`, each next
/// octave twice as fine and `gain` times as strong. Normalised to roughly [-1, 1].
pub fn fbm(seed: u64, dir: DVec3, radius_km: f64, scale_km: f64, octaves: u32, gain: f64) -> f64 {
    let mut freq = radius_km / scale_km;
    let (mut amp, mut sum, mut norm) = (1.0, 0.0, 0.0);
    for o in 0..octaves {
        // A different seed and offset per octave, so octaves do not line up at the origin.
        let s = mix(seed.wrapping_add(u64::from(o).wrapping_mul(0x632b_e59b_d9b4_e019)));
        let offset = DVec3::new(17.31, -5.77, 9.13) * f64::from(o + 1);
        sum += amp * gradient_noise(s, dir * freq + offset);
        norm += amp;
        amp *= gain;
        freq *= 2.0;
    }
    sum / norm.max(f64::MIN_POSITIVE)
}

/// A smooth tangent-ish displacement field (three independent [`fbm`]s), for warping
/// boundaries so they come out ragged rather than straight bisectors.
pub fn fbm_vector(seed: u64, dir: DVec3, radius_km: f64, scale_km: f64, octaves: u32) -> DVec3 {
    DVec3::new(
        fbm(mix(seed ^ 1), dir, radius_km, scale_km, octaves, 0.5),
        fbm(mix(seed ^ 2), dir, radius_km, scale_km, octaves, 0.5),
        fbm(mix(seed ^ 3), dir, radius_km, scale_km, octaves, 0.5),
    )
}

/// A seed derived from `seed` for the purpose `salt` (one stream of noise per use).
pub fn derive(seed: u64, salt: u64) -> u64 {
    mix(seed ^ mix(salt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_a_function_of_place_bounded_and_not_constant() {
        let a = DVec3::new(0.3, -0.5, 0.8).normalize();
        assert_eq!(
            fbm(7, a, 6371.0, 2000.0, 5, 0.5),
            fbm(7, a, 6371.0, 2000.0, 5, 0.5)
        );
        assert_ne!(
            fbm(7, a, 6371.0, 2000.0, 5, 0.5),
            fbm(8, a, 6371.0, 2000.0, 5, 0.5)
        );
        let values: Vec<f64> = (0..2000)
            .map(|i| {
                let t = i as f64 * 0.01;
                fbm(
                    3,
                    DVec3::new(t.sin(), t.cos(), (t * 0.37).sin()).normalize(),
                    6371.0,
                    1500.0,
                    4,
                    0.5,
                )
            })
            .collect();
        assert!(values.iter().all(|v| v.abs() <= 1.2), "out of range");
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
        assert!(var > 0.005, "variance {var}");
        // Continuity: nearby places, nearby values.
        let b = (a + DVec3::new(1e-6, 0.0, 0.0)).normalize();
        assert!(
            (fbm(7, a, 6371.0, 2000.0, 5, 0.5) - fbm(7, b, 6371.0, 2000.0, 5, 0.5)).abs() < 1e-3
        );
    }
}
