//! The stages chained: drainage and erosion, the final drainage, climate, rivers and biomes.

use crate::biome::{CellClimate, biome};
use crate::cells::Cells;
use crate::climate::{Climate, ClimateOptions, climate};
use crate::drainage::{Drainage, NONE, drainage};
use crate::erosion::{StreamPower, stream_power_step, thermal_erosion};
use crate::error::{SurfaceError, param};
use crate::rivers::{River, discharge, rivers};
use rayon::prelude::*;

/// Most erosion steps [`run`] takes.
pub const MAX_EROSION_STEPS: usize = 10_000;

/// Settings of [`run`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceOptions {
    /// Stream-power parameters of each erosion step.
    pub stream_power: StreamPower,
    /// Number of erosion steps (0 = none).
    pub erosion_steps: usize,
    /// Thermal erosion after the fluvial steps: `(talus angle in degrees, sweeps)`.
    pub thermal: Option<(f64, usize)>,
    /// Climate settings (their sea level is the sea level of every stage).
    pub climate: ClimateOptions,
    /// Fraction of the precipitation that runs off into rivers.
    pub runoff: f64,
    /// Cells draining at least this much land (km²) are rivers.
    pub river_threshold_km2: f64,
}

impl Default for SurfaceOptions {
    fn default() -> Self {
        Self {
            stream_power: StreamPower::default(),
            erosion_steps: 5,
            thermal: None,
            climate: ClimateOptions::default(),
            runoff: 0.4,
            river_threshold_km2: 50_000.0,
        }
    }
}

/// Everything [`run`] computes, one entry per vertex slot.
#[derive(Clone, Debug)]
pub struct Surface {
    /// Elevation (m) after erosion.
    pub elevation: Vec<f32>,
    /// Drainage of the eroded elevation.
    pub drainage: Drainage,
    /// Temperature, precipitation, winds and ice.
    pub climate: Climate,
    /// Mean discharge (m³/s) through each land cell.
    pub discharge: Vec<f64>,
    /// Discharge on river cells (m³/s), 0 elsewhere.
    pub river: Vec<f32>,
    /// The rivers, largest first.
    pub rivers: Vec<River>,
    /// Biome code per cell ([`crate::Biome::code`]).
    pub biome: Vec<u8>,
}

/// Erodes `elevation` (m) with optional `uplift` (m/yr), then drains it, computes its climate,
/// rivers and biomes.
///
/// # Errors
/// The errors of each stage (checked by the first stage that reads an input, before any
/// result exists), [`SurfaceError::InvalidParameter`] for more than [`MAX_EROSION_STEPS`].
pub fn run(
    cells: &Cells,
    elevation: &[f32],
    uplift: Option<&[f32]>,
    o: &SurfaceOptions,
) -> Result<Surface, SurfaceError> {
    param(
        o.erosion_steps <= MAX_EROSION_STEPS,
        "erosion_steps",
        "at most 10,000",
    )?;
    let sea = o.climate.sea_level;
    let mut h = elevation.to_vec();
    let mut d = drainage(cells, &h, sea)?;
    for _ in 0..o.erosion_steps {
        h = stream_power_step(cells, &d, &h, uplift, &o.stream_power)?;
        d = drainage(cells, &h, sea)?;
    }
    if let Some((talus, sweeps)) = o.thermal {
        h = thermal_erosion(cells, &h, talus, sweeps, sea)?;
        d = drainage(cells, &h, sea)?;
    }
    let c = climate(cells, &h, &o.climate)?;
    let q = discharge(cells, &d, &c.precipitation_mm, o.runoff)?;
    let (river, list) = rivers(&d, &q, o.river_threshold_km2)?;
    let biome = classify(cells, &h, &c, &d, &q, sea)?;
    Ok(Surface {
        elevation: h,
        drainage: d,
        climate: c,
        discharge: q,
        river,
        rivers: list,
        biome,
    })
}

/// Seconds in a year (365.25 days).
const YEAR_S: f64 = 365.25 * 86_400.0;

/// Evaporation from open water (mm/yr) at `t` °C: about 500 at 0 °C, 1500 at 20 °C.
fn evaporation_mm(t: f64) -> f64 {
    (500.0 + 50.0 * t).clamp(100.0, 2500.0)
}

/// Which lakes hold water: those whose inflow (the largest discharge among their cells,
/// m³/s) at least matches the evaporation from their surface. The others are dry basins
/// (salt flats, playas) and take the biome of their climate.
pub fn wet_lakes(
    cells: &Cells,
    drainage: &Drainage,
    discharge: &[f64],
    climate: &Climate,
) -> Vec<bool> {
    let n = drainage.lakes.len();
    let mut inflow = vec![0.0f64; n];
    let mut temp = vec![0.0f64; n];
    for v in cells.live_cells() {
        let l = drainage.lake.get(v).copied().unwrap_or(NONE);
        if l != NONE && (l as usize) < n {
            let l = l as usize;
            inflow[l] = inflow[l].max(discharge.get(v).copied().unwrap_or(0.0));
            let t = climate.temperature_c.get(v).copied().unwrap_or(0.0);
            temp[l] += f64::from(t) * cells.area_km2[v];
        }
    }
    (0..n)
        .map(|l| {
            let lake = &drainage.lakes[l];
            let t = temp[l] / lake.area_km2.max(1e-12);
            let evap = lake.area_km2 * 1e6 * evaporation_mm(t) / 1e3 / YEAR_S;
            inflow[l] >= evap
        })
        .collect()
}

/// The biome code of every cell (0, deep ocean, on slots that are not live); lakes count as
/// water only when [`wet_lakes`] says they hold water, with the given `discharge` (m³/s).
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] when an input is not one entry per slot of `cells`,
/// [`SurfaceError::NonFinite`] for a bad elevation, [`SurfaceError::InvalidParameter`] for a
/// non-finite sea level.
pub fn classify(
    cells: &Cells,
    elevation: &[f32],
    climate: &Climate,
    drainage: &Drainage,
    discharge: &[f64],
    sea_level: f32,
) -> Result<Vec<u8>, SurfaceError> {
    cells.check("elevation", elevation)?;
    param(sea_level.is_finite(), "sea_level", "must be finite")?;
    check_lengths(cells, climate, drainage, discharge)?;
    let wet = wet_lakes(cells, drainage, discharge, climate);
    Ok((0..cells.len())
        .into_par_iter()
        .map(|v| {
            if !cells.live[v] {
                return 0;
            }
            biome(&CellClimate {
                elevation: elevation[v],
                sea_level,
                temperature_c: climate.temperature_c[v],
                precipitation_mm: climate.precipitation_mm[v],
                ice: climate.ice[v],
                lake: drainage
                    .lake
                    .get(v)
                    .is_some_and(|&l| wet.get(l as usize).copied().unwrap_or(false)),
            })
            .code()
        })
        .collect())
}

/// Every per-slot result has one entry per slot of `cells`.
fn check_lengths(
    cells: &Cells,
    climate: &Climate,
    drainage: &Drainage,
    discharge: &[f64],
) -> Result<(), SurfaceError> {
    let lens = [
        ("temperature_c", climate.temperature_c.len()),
        ("precipitation_mm", climate.precipitation_mm.len()),
        ("ice", climate.ice.len()),
        ("lake", drainage.lake.len()),
        ("discharge", discharge.len()),
    ];
    match lens.iter().find(|(_, l)| *l != cells.len()) {
        Some(&(what, got)) => Err(SurfaceError::LengthMismatch {
            what,
            expected: cells.len(),
            got,
        }),
        None => Ok(()),
    }
}
