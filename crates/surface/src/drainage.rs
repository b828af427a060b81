//! Drainage: the depression-filled surface, flow directions (steepest descent to a Delaunay
//! neighbour), the stack order of the flow tree (Braun and Willett 2013: every cell after
//! the cell it drains to), drained areas and the lakes.

use crate::cells::Cells;
use crate::error::{SurfaceError, param};
use crate::fill::priority_flood;
use rayon::prelude::*;

/// "No cell": the receiver of cells where water leaves (sea, map edge, sink), the lake of
/// cells under no lake.
pub const NONE: u32 = u32::MAX;

/// A lake: cells below the level at which their depression spills.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lake {
    /// The first cell outside the lake on the way down from its deepest cell: where the water
    /// leaves (its flow goes on to the sea).
    pub outlet: u32,
    /// The deepest cell.
    pub deepest: u32,
    /// Number of cells.
    pub cells: u32,
    /// Surface area (km²).
    pub area_km2: f64,
    /// Water level (m): the spill elevation.
    pub level_m: f64,
    /// Greatest depth (m).
    pub depth_m: f64,
}

/// What [`drainage`] computes, one entry per vertex slot.
#[derive(Clone, Debug)]
pub struct Drainage {
    /// Elevation (m) after depression filling: along every flow path it strictly falls.
    pub filled: Vec<f64>,
    /// The cell each cell drains to, [`NONE`] for the sea, map edges, sinks and dead slots.
    pub receiver: Vec<u32>,
    /// Live cells, each after its receiver (outlets first): the order of Braun and Willett's
    /// implicit solver; reversed, the order in which to add up what flows down.
    pub stack: Vec<u32>,
    /// Land area (km²) drained through each land cell, its own included; 0 in the sea.
    pub drained_km2: Vec<f64>,
    /// Lake id per cell (an index into `lakes`), [`NONE`] where there is none.
    pub lake: Vec<u32>,
    /// The lakes, numbered by their lowest cell index.
    pub lakes: Vec<Lake>,
    /// Below sea level.
    pub ocean: Vec<bool>,
}

impl Drainage {
    /// Adds `weights` (one per slot, e.g. cell area times runoff) down the flow tree: each
    /// land cell gets its own weight plus everything that flows into it.
    ///
    /// # Errors
    /// [`SurfaceError::LengthMismatch`] for weights not one per slot.
    pub fn accumulate(&self, weights: &[f64]) -> Result<Vec<f64>, SurfaceError> {
        if weights.len() != self.receiver.len() {
            return Err(SurfaceError::LengthMismatch {
                what: "weights",
                expected: self.receiver.len(),
                got: weights.len(),
            });
        }
        self.check(weights.len())?;
        Ok(accumulate(self, weights))
    }

    /// Checks that every per-slot array has `slots` entries and that the receivers and the
    /// stack name slots (a drainage built by [`drainage`] always passes).
    ///
    /// # Errors
    /// [`SurfaceError::LengthMismatch`] naming the first array that does not fit.
    pub fn check(&self, slots: usize) -> Result<(), SurfaceError> {
        let lens = [
            ("receiver", self.receiver.len()),
            ("drained_km2", self.drained_km2.len()),
            ("lake", self.lake.len()),
            ("ocean", self.ocean.len()),
            ("filled", self.filled.len()),
        ];
        if let Some(&(what, got)) = lens.iter().find(|(_, l)| *l != slots) {
            return Err(SurfaceError::LengthMismatch {
                what,
                expected: slots,
                got,
            });
        }
        let bad = |&r: &u32| r != NONE && r as usize >= slots;
        if self.receiver.iter().any(bad) || self.stack.iter().any(|&v| v as usize >= slots) {
            return Err(SurfaceError::InvalidParameter {
                name: "drainage",
                reason: "a receiver or stack entry names no slot",
            });
        }
        Ok(())
    }

    /// Land cells whose water leaves the land: to the sea, over a map edge or into a sink.
    pub fn mouths(&self) -> impl Iterator<Item = usize> + '_ {
        self.stack.iter().map(|&v| v as usize).filter(|&v| {
            !self.ocean[v] && {
                let r = self.receiver[v];
                r == NONE || self.ocean[r as usize]
            }
        })
    }
}

/// Fills depressions, routes flow and adds up drained areas on `elevation` (m, one per slot)
/// with the sea below `sea_level`.
///
/// Every land cell drains to the sea, an open map edge or (on land no sea reaches) a sink:
/// flow goes to the neighbour of steepest descent on the filled surface, which strictly
/// falls, so the flow graph has no cycle. Cells under a filled depression are recorded as a
/// [`Lake`]; water crosses the lake and leaves by its outlet.
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] / [`SurfaceError::NonFinite`] for a bad `elevation`,
/// [`SurfaceError::InvalidParameter`] for a non-finite `sea_level`.
pub fn drainage(
    cells: &Cells,
    elevation: &[f32],
    sea_level: f32,
) -> Result<Drainage, SurfaceError> {
    cells.check("elevation", elevation)?;
    param(sea_level.is_finite(), "sea_level", "must be finite")?;
    let filled = priority_flood(cells, elevation, sea_level);
    let n = cells.len();
    let ocean: Vec<bool> = (0..n)
        .map(|v| cells.live[v] && elevation[v] < sea_level)
        .collect();
    let level = &filled.level;
    let mut receiver = vec![NONE; n];
    receiver
        .par_chunks_mut(4096)
        .enumerate()
        .for_each(|(c, chunk)| {
            for (k, r) in chunk.iter_mut().enumerate() {
                let v = c * 4096 + k;
                if cells.live[v] && !ocean[v] {
                    *r = steepest(cells, level, v);
                }
            }
        });
    let stack = stack_order(cells, &receiver);
    let mut d = Drainage {
        filled: filled.level,
        receiver,
        stack,
        drained_km2: Vec::new(),
        lake: Vec::new(),
        lakes: Vec::new(),
        ocean,
    };
    let areas: Vec<f64> = (0..n)
        .map(|v| if d.ocean[v] { 0.0 } else { cells.area_km2[v] })
        .collect();
    d.drained_km2 = accumulate(&d, &areas);
    let (lake, lakes) = find_lakes(cells, &d, elevation, &filled.flooded);
    d.lake = lake;
    d.lakes = lakes;
    Ok(d)
}

/// The neighbour of steepest descent (ties to the lowest index), [`NONE`] if none is lower.
fn steepest(cells: &Cells, level: &[f64], v: usize) -> u32 {
    let mut best = NONE;
    let mut best_slope = 0.0f64;
    for (w, km) in cells.links(v) {
        let drop = level[v] - level[w];
        if drop > 0.0 {
            let slope = drop / f64::from(km).max(1e-12);
            if slope > best_slope {
                best_slope = slope;
                best = w as u32;
            }
        }
    }
    best
}

/// Live cells in breadth-first order from the cells without receiver: every cell comes after
/// its receiver. `O(n)`: donors in compressed rows by a counting sort.
pub(crate) fn stack_order(cells: &Cells, receiver: &[u32]) -> Vec<u32> {
    let n = receiver.len();
    let mut start = vec![0u32; n + 1];
    for &r in receiver {
        if r != NONE {
            start[r as usize + 1] += 1;
        }
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut donors = vec![0u32; start[n] as usize];
    for (v, &r) in receiver.iter().enumerate() {
        if r != NONE {
            donors[fill[r as usize] as usize] = v as u32;
            fill[r as usize] += 1;
        }
    }
    let mut stack: Vec<u32> = cells
        .live_cells()
        .filter(|&v| receiver[v] == NONE)
        .map(|v| v as u32)
        .collect();
    let mut head = 0;
    while head < stack.len() {
        let v = stack[head] as usize;
        head += 1;
        stack.extend_from_slice(&donors[start[v] as usize..start[v + 1] as usize]);
    }
    stack
}

fn accumulate(d: &Drainage, weights: &[f64]) -> Vec<f64> {
    let mut acc: Vec<f64> = (0..weights.len())
        .map(|v| if d.ocean[v] { 0.0 } else { weights[v] })
        .collect();
    for &v in d.stack.iter().rev() {
        let r = d.receiver[v as usize];
        if r != NONE && !d.ocean[r as usize] {
            acc[r as usize] += acc[v as usize];
        }
    }
    acc
}

/// Lakes: connected flooded cells, numbered by their lowest cell index.
fn find_lakes(
    cells: &Cells,
    d: &Drainage,
    elevation: &[f32],
    flooded: &[bool],
) -> (Vec<u32>, Vec<Lake>) {
    let mut lake = vec![NONE; flooded.len()];
    let mut lakes = Vec::new();
    let mut queue = Vec::new();
    for v in 0..flooded.len() {
        if !flooded[v] || lake[v] != NONE {
            continue;
        }
        let id = lakes.len() as u32;
        lake[v] = id;
        queue.clear();
        queue.push(v);
        let (mut area, mut deepest, mut depth, mut count) = (0.0, v, -1.0f64, 0u32);
        while let Some(c) = queue.pop() {
            count += 1;
            area += cells.area_km2[c];
            let dc = d.filled[c] - f64::from(elevation[c]);
            if dc > depth || (dc == depth && c < deepest) {
                (depth, deepest) = (dc, c);
            }
            for (w, _) in cells.links(c) {
                if flooded[w] && lake[w] == NONE {
                    lake[w] = id;
                    queue.push(w);
                }
            }
        }
        let mut outlet = deepest as u32;
        while outlet != NONE && lake[outlet as usize] == id {
            outlet = d.receiver[outlet as usize];
        }
        lakes.push(Lake {
            outlet,
            deepest: deepest as u32,
            cells: count,
            area_km2: area,
            level_m: d.filled[deepest],
            depth_m: depth,
        });
    }
    (lake, lakes)
}
