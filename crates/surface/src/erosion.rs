//! Erosion: the stream-power law solved implicitly along the flow tree (Braun and Willett
//! 2013, the scheme behind FastScape), and thermal erosion that relaxes slopes steeper than
//! a talus angle.
//!
//! Stream power: `∂h/∂t = U − K Aᵐ Sⁿ`, with `A` the drained area (m²) and `S` the slope
//! towards the receiver. Taken implicitly, each cell's new height depends only on its own
//! old height and its receiver's new height, so one pass over the stack (receivers first)
//! solves a whole step in `O(n)`, stable for any time step. At steady state the scheme gives
//! exactly `S = (U/K)^(1/n) A^(−m/n)` between each cell and its receiver.

use crate::cells::Cells;
use crate::drainage::{Drainage, NONE};
use crate::error::{SurfaceError, param};
use rayon::prelude::*;

/// Parameters of [`stream_power_step`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamPower {
    /// Erodibility `K` (per year, for areas in m² and lengths in m).
    pub k: f64,
    /// Area exponent `m` (about 0.4–0.6).
    pub m: f64,
    /// Slope exponent `n` (1 is linear and solved directly; other values by Newton steps).
    pub n: f64,
    /// Time step (years).
    pub dt_years: f64,
}

impl Default for StreamPower {
    fn default() -> Self {
        Self {
            k: 1e-6,
            m: 0.5,
            n: 1.0,
            dt_years: 1e5,
        }
    }
}

impl StreamPower {
    fn check(&self) -> Result<(), SurfaceError> {
        let pos = |x: f64| x.is_finite() && x > 0.0;
        param(pos(self.k), "k", "must be finite and positive")?;
        param(
            self.m.is_finite() && (0.0..=2.0).contains(&self.m),
            "m",
            "must lie in 0..=2",
        )?;
        param(
            self.n.is_finite() && (0.5..=4.0).contains(&self.n),
            "n",
            "must lie in 0.5..=4",
        )?;
        param(
            pos(self.dt_years),
            "dt_years",
            "must be finite and positive",
        )
    }
}

/// One implicit stream-power step on `elevation` (m) along the flow tree of `drainage`
/// (computed on the same elevation), with optional `uplift` (m/yr, one per slot; cells
/// without a receiver, the base level, neither rise nor erode). Returns the new elevation.
///
/// A cell below its receiver (at the bottom of a lake) is left as it is: the law only cuts.
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] / [`SurfaceError::NonFinite`] for a bad `elevation` or
/// `uplift`, [`SurfaceError::InvalidParameter`] for parameters out of range.
pub fn stream_power_step(
    cells: &Cells,
    drainage: &Drainage,
    elevation: &[f32],
    uplift: Option<&[f32]>,
    p: &StreamPower,
) -> Result<Vec<f32>, SurfaceError> {
    p.check()?;
    cells.check("elevation", elevation)?;
    if let Some(u) = uplift {
        cells.check("uplift", u)?;
    }
    drainage.check(cells.len())?;
    let mut h: Vec<f64> = elevation.iter().map(|&e| f64::from(e)).collect();
    // `K dt Aᵐ` per cell, on all cores: the one power of the step.
    let factor: Vec<f64> = drainage
        .drained_km2
        .par_iter()
        .map(|&a| p.k * p.dt_years * (a * 1e6).powf(p.m))
        .collect();
    for &v in &drainage.stack {
        let v = v as usize;
        let r = drainage.receiver[v];
        if r == NONE || drainage.ocean[v] {
            continue;
        }
        let r = r as usize;
        if let Some(u) = uplift {
            h[v] += f64::from(u[v]) * p.dt_years;
        }
        let hr = h[r];
        if h[v] <= hr {
            continue;
        }
        let len_m = cells
            .links(v)
            .find(|&(w, _)| w == r)
            .map_or(1.0, |(_, km)| f64::from(km) * 1e3)
            .max(1e-3);
        let f = factor[v] / len_m.powf(p.n);
        h[v] = if p.n == 1.0 {
            (h[v] + f * hr) / (1.0 + f)
        } else {
            newton(h[v], hr, f, p.n)
        };
    }
    Ok(h.into_iter().map(|x| x as f32).collect())
}

/// Solves `x − h + f (x − hr)ⁿ = 0` for `x` in `(hr, h]` by Newton steps from `x = h` (the
/// function is increasing and convex there, so the steps fall monotonically to the root).
fn newton(h: f64, hr: f64, f: f64, n: f64) -> f64 {
    let mut x = h;
    for _ in 0..50 {
        let s = x - hr;
        let g = x - h + f * s.powf(n);
        let dg = 1.0 + n * f * s.powf(n - 1.0);
        let next = (x - g / dg).max(hr + (x - hr) * 1e-3);
        if (next - x).abs() <= 1e-12 * (1.0 + x.abs()) {
            return next;
        }
        x = next;
    }
    x
}

/// Thermal erosion: `iterations` Jacobi sweeps that move material down every link steeper
/// than `talus_deg`, a fraction of the excess height per sweep, from the higher cell to the
/// lower (the same amount leaves one and reaches the other, so heights are conserved across
/// each link). Cells below `sea_level` take material but are not lowered. Returns the new
/// elevation; the same bits for any number of threads.
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] / [`SurfaceError::NonFinite`] for a bad `elevation`,
/// [`SurfaceError::InvalidParameter`] for a talus angle outside `(0°, 90°)` or more than
/// 10,000 iterations.
pub fn thermal_erosion(
    cells: &Cells,
    elevation: &[f32],
    talus_deg: f64,
    iterations: usize,
    sea_level: f32,
) -> Result<Vec<f32>, SurfaceError> {
    cells.check("elevation", elevation)?;
    param(
        talus_deg.is_finite() && talus_deg > 0.0 && talus_deg < 90.0,
        "talus_deg",
        "must lie strictly between 0 and 90",
    )?;
    param(iterations <= 10_000, "iterations", "at most 10,000")?;
    param(sea_level.is_finite(), "sea_level", "must be finite")?;
    let tan = talus_deg.to_radians().tan();
    // A sixth of the excess per link and sweep: a cell with six steep links moves at most
    // its whole excess, so no sweep overshoots.
    const RATE: f64 = 1.0 / 6.0 / 2.0;
    let mut h: Vec<f64> = elevation.iter().map(|&e| f64::from(e)).collect();
    let mut next = h.clone();
    for _ in 0..iterations {
        next.par_iter_mut().enumerate().for_each(|(v, out)| {
            if !cells.live[v] {
                return;
            }
            let mut delta = 0.0;
            for (w, km) in cells.links(v) {
                let drop = h[v] - h[w];
                let excess = drop.abs() - tan * f64::from(km) * 1e3;
                if excess > 0.0 {
                    delta -= drop.signum() * RATE * excess;
                }
            }
            let lowered = h[v] + delta;
            *out = if delta < 0.0 && h[v] < f64::from(sea_level) {
                h[v]
            } else {
                lowered
            };
        });
        std::mem::swap(&mut h, &mut next);
    }
    Ok(h.into_iter().map(|x| x as f32).collect())
}
