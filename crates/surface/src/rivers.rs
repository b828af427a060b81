//! Rivers: discharge down the flow tree, the river cells above a drained-area threshold, and
//! the rivers as polylines from source to mouth (or to the larger river they join).

use crate::cells::Cells;
use crate::drainage::{Drainage, NONE};
use crate::error::{SurfaceError, param};
use rayon::prelude::*;

/// Seconds in a year (365.25 days).
const YEAR_S: f64 = 365.25 * 86_400.0;

/// One river: cells from its source down to its mouth, or to the cell of the larger river it
/// flows into (that cell ends the list, so the lines join on the map).
#[derive(Clone, Debug, PartialEq)]
pub struct River {
    /// Cells from source to end; the last one may be a sea cell (the mouth's receiver) or
    /// the junction with a larger river.
    pub cells: Vec<u32>,
    /// Land area drained at the river's last own cell (km²).
    pub drained_km2: f64,
    /// Discharge at the river's last own cell (m³/s).
    pub discharge_m3s: f64,
}

/// Mean discharge (m³/s) through each land cell: `runoff` (a fraction, 0..=1) of the
/// precipitation (mm/yr, one per slot) on every cell upstream.
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] / [`SurfaceError::NonFinite`] for a bad
/// `precipitation_mm`, [`SurfaceError::InvalidParameter`] for `runoff` outside `0..=1`.
pub fn discharge(
    cells: &Cells,
    drainage: &Drainage,
    precipitation_mm: &[f32],
    runoff: f64,
) -> Result<Vec<f64>, SurfaceError> {
    cells.check("precipitation_mm", precipitation_mm)?;
    drainage.check(cells.len())?;
    param((0.0..=1.0).contains(&runoff), "runoff", "must lie in 0..=1")?;
    let weights: Vec<f64> = (0..cells.len())
        .into_par_iter()
        .map(|v| {
            // km² · mm/yr = 10³ m³/yr.
            cells.area_km2[v] * f64::from(precipitation_mm[v]).max(0.0) * 1e3 * runoff / YEAR_S
        })
        .collect();
    drainage.accumulate(&weights)
}

/// The river layer and the river list: cells draining at least `threshold_km2` carry their
/// `discharge` (m³/s), the others 0; rivers are listed largest drained area first.
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] for `discharge` not one per slot,
/// [`SurfaceError::InvalidParameter`] for a threshold that is not finite and positive.
pub fn rivers(
    drainage: &Drainage,
    discharge: &[f64],
    threshold_km2: f64,
) -> Result<(Vec<f32>, Vec<River>), SurfaceError> {
    let n = drainage.receiver.len();
    drainage.check(n)?;
    if discharge.len() != n {
        return Err(SurfaceError::LengthMismatch {
            what: "discharge",
            expected: n,
            got: discharge.len(),
        });
    }
    param(
        threshold_km2.is_finite() && threshold_km2 > 0.0,
        "threshold_km2",
        "must be finite and positive",
    )?;
    let is_river = |v: usize| !drainage.ocean[v] && drainage.drained_km2[v] >= threshold_km2;
    let layer: Vec<f32> = (0..n)
        .map(|v| {
            if is_river(v) {
                discharge[v] as f32
            } else {
                0.0
            }
        })
        .collect();
    // The main donor of each river cell: its river donor draining the most (lowest index on
    // ties); a cell is a source when no river flows into it.
    let mut main = vec![NONE; n];
    for &v in &drainage.stack {
        let v = v as usize;
        let r = drainage.receiver[v];
        if !is_river(v) || r == NONE || !is_river(r as usize) {
            continue;
        }
        let m = &mut main[r as usize];
        let better = *m == NONE || {
            let (a, b) = (drainage.drained_km2[v], drainage.drained_km2[*m as usize]);
            a > b || (a == b && (v as u32) < *m)
        };
        if better {
            *m = v as u32;
        }
    }
    let mut list = Vec::new();
    for &s in &drainage.stack {
        let s = s as usize;
        if !is_river(s) || main[s] != NONE {
            continue;
        }
        let mut cells = vec![s as u32];
        let mut v = s;
        loop {
            let r = drainage.receiver[v];
            if r == NONE {
                break;
            }
            cells.push(r);
            let r = r as usize;
            if drainage.ocean[r] || main[r] != v as u32 {
                break;
            }
            v = r;
        }
        list.push(River {
            cells,
            drained_km2: drainage.drained_km2[v],
            discharge_m3s: discharge[v],
        });
    }
    list.sort_by(|a, b| {
        b.drained_km2
            .total_cmp(&a.drained_km2)
            .then(a.cells[0].cmp(&b.cells[0]))
    });
    Ok((layer, list))
}
