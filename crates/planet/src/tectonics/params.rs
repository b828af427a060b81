//! The settings of a simulation, all in physical units, and their checks.

use super::TectonicsError;

/// The settings of a simulation, all in physical units.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Planet radius (km).
    pub radius_km: f64,
    /// Plates at the start.
    pub plates: usize,
    /// Fraction of the surface under continental crust at the start.
    pub continental_fraction: f64,
    /// Simulated time per step (Myr).
    pub time_step_myr: f64,
    /// Plate speeds are drawn between these (cm/yr, at the plate's fastest point).
    pub speed_cm_per_yr: (f64, f64),
    /// Mean vertex spacing the mesh keeps (km): new crust fills gaps wider than this. A
    /// sampling setting (from the vertex count), not a physical one.
    pub spacing_km: f64,
    /// Vertices of the fresh sphere the world is resampled onto.
    pub vertices: usize,
    /// Resampling period (Myr; 0 = never).
    pub resample_every_myr: f64,
    /// Rifting period (Myr; 0 = never): then a plate drawn at random among those covering
    /// more than [`Params::rift_min_area`] of the surface splits.
    pub rift_every_myr: f64,
    /// See `rift_every_myr` (fraction of the surface).
    pub rift_min_area: f64,
    /// Seed of the plates, the continents, the motions, the rifts.
    pub seed: u64,
}

impl Params {
    /// Earth-like settings for a planet sampled by `vertices` points.
    pub fn earth(vertices: usize, seed: u64) -> Self {
        let radius_km = 6371.0;
        Params {
            radius_km,
            plates: 12,
            continental_fraction: 0.3,
            time_step_myr: 2.0,
            speed_cm_per_yr: (2.0, 7.0),
            spacing_km: spacing_km(vertices, radius_km),
            vertices,
            resample_every_myr: 30.0,
            rift_every_myr: 50.0,
            rift_min_area: 0.06,
            seed,
        }
    }

    /// Checks the settings; the message names the first one out of range.
    ///
    /// # Errors
    /// [`TectonicsError::Params`].
    pub fn validate(&self) -> Result<(), TectonicsError> {
        let bad = |s: String| Err(TectonicsError::Params(s));
        let pos = |x: f64| x.is_finite() && x > 0.0;
        if !pos(self.radius_km) {
            return bad(format!(
                "radius {} km: must be finite and positive",
                self.radius_km
            ));
        }
        if self.plates == 0 || self.plates > MAX_PLATES {
            return bad(format!("plates {}: need 1..={MAX_PLATES}", self.plates));
        }
        if !(0.0..=1.0).contains(&self.continental_fraction) {
            return bad(format!(
                "continental fraction {}: need 0..=1",
                self.continental_fraction
            ));
        }
        if !(pos(self.time_step_myr) && self.time_step_myr <= 50.0) {
            return bad(format!(
                "time step {} Myr: need 0 < dt ≤ 50",
                self.time_step_myr
            ));
        }
        let (lo, hi) = self.speed_cm_per_yr;
        if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi && hi <= 100.0) {
            return bad(format!("speeds {lo}..{hi} cm/yr: need 0 ≤ lo ≤ hi ≤ 100"));
        }
        if !pos(self.spacing_km) {
            return bad(format!("spacing {} km: must be positive", self.spacing_km));
        }
        if self.vertices < 5 || self.vertices > MAX_VERTICES {
            return bad(format!(
                "vertices {}: need 5..={MAX_VERTICES}",
                self.vertices
            ));
        }
        for (what, x) in [
            ("resample period", self.resample_every_myr),
            ("rift period", self.rift_every_myr),
            ("rift area", self.rift_min_area),
        ] {
            if !(x.is_finite() && x >= 0.0) {
                return bad(format!("{what} {x}: must be finite and ≥ 0"));
            }
        }
        Ok(())
    }
}

/// Fewest vertices plates move on (each plate needs a few cells).
pub const MIN_VERTICES: usize = 500;
/// Most vertices a simulation runs on.
pub const MAX_VERTICES: usize = 50_000_000;
/// Most plates.
pub const MAX_PLATES: usize = 1000;

/// The mean distance (km) between neighbours of `n` evenly spread points on a sphere.
pub fn spacing_km(n: usize, radius_km: f64) -> f64 {
    // A triangular lattice of n points covers 4πr² with n cells of (√3/2)·e² each.
    (8.0 * std::f64::consts::PI / (3f64.sqrt() * n.max(1) as f64)).sqrt() * radius_km
}
