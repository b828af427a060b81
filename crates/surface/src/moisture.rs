//! Moisture carried along the wind: the sea fills the air with as much water as its
//! temperature allows; over land the air rains some of it out along the way, more where it
//! is forced up a slope and cools (orographic rain), less where it sinks down the lee side
//! (rain shadow).
//!
//! Cells are processed in upwind order: a Dijkstra sweep from the sea whose cost is the
//! travel distance along the wind, so each land cell is settled after the neighbours the wind
//! brings its air from, and the sweep is well defined even where winds circle a pole.
//!
//! Air does not cross from one wind band to another (see `wind_band`), so each band is
//! swept on its own, the six in parallel: links between bands are ignored, and the result
//! is the same for any number of threads.

use crate::cells::{Cells, per_link};
use crate::climate::{ClimateOptions, wind_band};
use crate::fill::entry;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Number of wind bands (three per hemisphere).
const BANDS: usize = 6;
/// The band index of a neighbour in another band.
const OUTSIDE: u32 = u32::MAX;

/// A neighbour counts as upwind when the wind blows from it towards the cell within this
/// cosine (about 78°).
const MIN_ALIGN: f64 = 0.2;
/// Orographic rain falls within a few cells: at most this many times the excess per cell.
const MAX_OROGRAPHIC: f64 = 3.0;
/// Sinking air (m of descent) that halves rain, roughly.
const LEE_M: f64 = 900.0;

/// Water (as a precipitation rate, mm/yr) air at `t` °C can carry: Clausius–Clapeyron-like,
/// 4.5 % more per kelvin.
fn capacity(o: &ClimateOptions, t: f32) -> f64 {
    f64::from(o.ocean_precipitation_mm) * (0.045 * (f64::from(t) - 27.0)).exp()
}

/// How readily air rains at latitude `lat` (radians): rising air near the equator (the
/// intertropical convergence), sinking air near 27° (the subtropical deserts), storm tracks
/// in mid-latitudes, cold dry air near the poles.
pub(crate) fn convection(lat: f32) -> f64 {
    let d = f64::from(lat).to_degrees().abs();
    let g = |c: f64, w: f64| (-((d - c) / w).powi(2)).exp();
    (0.9 + 0.8 * g(0.0, 10.0) - 0.65 * g(27.0, 9.0) + 0.2 * g(55.0, 12.0)
        - 0.25 * (d / 90.0).powi(2))
    .max(0.05)
}

/// The wind bands of a planet: which band each cell is in, its index there, and per link the
/// wind's alignment and the neighbour's index in the band. Needs the winds, not the
/// temperatures, so it is built while the distance to the sea is found.
pub(crate) struct Bands {
    band: Vec<u8>,
    /// The live cells of each band in slot order.
    members: [Vec<u32>; BANDS],
    /// Each cell's index in its band.
    local: Vec<u32>,
    links: Vec<(f32, u32)>,
}

impl Bands {
    pub(crate) fn new(cells: &Cells, elevation: &[f32], wind: &[[f32; 2]], sea_level: f32) -> Self {
        let band: Vec<u8> = cells
            .latitude
            .par_iter()
            .map(|&l| wind_band(f64::from(l)))
            .collect();
        let mut members: [Vec<u32>; BANDS] = Default::default();
        let mut local = vec![0u32; cells.len()];
        for v in cells.live_cells() {
            let m = &mut members[usize::from(band[v])];
            local[v] = m.len() as u32;
            m.push(v as u32);
        }
        let links = links(cells, elevation, wind, &band, &local, sea_level);
        Self {
            band,
            members,
            local,
            links,
        }
    }

    /// Precipitation (mm/yr) per slot, the six bands swept in parallel.
    pub(crate) fn carry_moisture(
        &self,
        cells: &Cells,
        elevation: &[f32],
        temperature: &[f32],
        o: &ClimateOptions,
    ) -> Vec<f32> {
        let sweep = Sweep {
            cells,
            elevation,
            temperature,
            links: &self.links,
            o,
        };
        let rain: Vec<Vec<f32>> = (0..BANDS)
            .into_par_iter()
            .map(|b| sweep.band(&self.members[b]))
            .collect();
        (0..cells.len())
            .into_par_iter()
            .map(|v| {
                if cells.live[v] {
                    rain[usize::from(self.band[v])][self.local[v] as usize]
                } else {
                    0.0
                }
            })
            .collect()
    }
}

/// Per link of `v`'s row: how well the wind at `v` blows from `v` towards the neighbour
/// (cosine; its negative is how well it blows from the neighbour to `v`), and the
/// neighbour's index in `v`'s band ([`OUTSIDE`] for another band). Computed once on all
/// cores, so the sweep reads the row it walks and nothing scattered; rows of open sea (no
/// land neighbour) are left empty, the sweep never reads them.
fn links(
    cells: &Cells,
    elevation: &[f32],
    wind: &[[f32; 2]],
    band: &[u8],
    local: &[u32],
    sea_level: f32,
) -> Vec<(f32, u32)> {
    let sea = |v: usize| elevation[v] < sea_level;
    per_link(&cells.offsets, |v, row| {
        let ring = cells.ring(v);
        if !cells.live[v] || (sea(v) && ring.iter().all(|&u| sea(u as usize))) {
            return;
        }
        let p = cells.positions[v];
        let (e, no) = cells.geometry.east_north(p);
        let w = e * f64::from(wind[v][0]) + no * f64::from(wind[v][1]);
        for (slot, &u) in row.iter_mut().zip(ring) {
            let d = cells.positions[u as usize] - p;
            let len = d.length();
            let a = if len > 0.0 {
                (w.dot(d) / len) as f32
            } else {
                0.0
            };
            let u = u as usize;
            *slot = (
                a,
                if band[u] == band[v] {
                    local[u]
                } else {
                    OUTSIDE
                },
            );
        }
    })
}

/// What every band's sweep reads.
struct Sweep<'a> {
    cells: &'a Cells,
    elevation: &'a [f32],
    temperature: &'a [f32],
    links: &'a [(f32, u32)],
    o: &'a ClimateOptions,
}

/// One band's state, indexed by the cells' order in the band.
struct BandState {
    humidity: Vec<f64>,
    rain: Vec<f32>,
    /// Elevation (m), the sea surface at sea.
    z: Vec<f32>,
    settled: Vec<bool>,
    key: Vec<f32>,
    /// Entries waiting to enter the heap.
    pending: Vec<Reverse<u64>>,
}

impl Sweep<'_> {
    /// The links of `v` within its band: (index in the band, km, alignment of the wind at
    /// `v` towards the neighbour).
    fn row(&self, v: usize) -> impl Iterator<Item = (usize, f32, f32)> + '_ {
        let c = self.cells;
        let r = c.offsets[v] as usize..c.offsets[v + 1] as usize;
        c.link_km[r.clone()]
            .iter()
            .zip(&self.links[r])
            .filter(|(_, (_, j))| *j != OUTSIDE)
            .map(|(&km, &(a, j))| (j as usize, km, a))
    }

    /// Precipitation of the cells `members` of one band, in their order.
    fn band(&self, members: &[u32]) -> Vec<f32> {
        let o = self.o;
        let m = members.len();
        let mut s = BandState {
            humidity: vec![0.0; m],
            rain: vec![0.0; m],
            z: vec![0.0; m],
            settled: vec![false; m],
            key: vec![f32::INFINITY; m],
            pending: Vec::new(),
        };
        for (i, &v) in members.iter().enumerate() {
            let v = v as usize;
            s.z[i] = self.elevation[v].max(o.sea_level);
            if self.elevation[v] < o.sea_level {
                s.settled[i] = true;
                s.key[i] = 0.0;
                s.humidity[i] = capacity(o, self.temperature[v]);
                s.rain[i] = (s.humidity[i] * convection(self.cells.latitude[v])) as f32;
            }
        }
        for (i, &v) in members.iter().enumerate() {
            if s.settled[i] {
                self.relax(i, v as usize, &mut s);
            }
        }
        let mut heap = BinaryHeap::from(std::mem::take(&mut s.pending));
        while let Some(Reverse(e)) = heap.pop() {
            let i = (e & u64::from(u32::MAX)) as usize;
            if s.settled[i] || entry(s.key[i], i) != e {
                continue;
            }
            self.settle(i, members[i] as usize, &mut s);
            self.relax(i, members[i] as usize, &mut s);
            heap.extend(s.pending.drain(..));
        }
        for (i, &v) in members.iter().enumerate() {
            if !s.settled[i] {
                self.settle(i, v as usize, &mut s);
            }
        }
        s.rain
    }

    /// Offers the cells downwind of `v` (settled, index `i`) a path through it.
    fn relax(&self, i: usize, v: usize, s: &mut BandState) {
        for (j, km, a) in self.row(v) {
            if a > MIN_ALIGN as f32 && !s.settled[j] {
                let k = s.key[i] + km / a;
                if k < s.key[j] {
                    s.key[j] = k;
                    s.pending.push(Reverse(entry(k, j)));
                }
            }
        }
    }

    /// The humidity and rain of land cell `v` (index `i`) from its settled upwind
    /// neighbours.
    fn settle(&self, i: usize, v: usize, s: &mut BandState) {
        let o = self.o;
        s.settled[i] = true;
        let (mut wsum, mut h, mut dist, mut zup) = (0.0, 0.0, 0.0, 0.0);
        for (j, km, down) in self.row(v) {
            let a = -f64::from(down);
            if a > MIN_ALIGN && s.settled[j] {
                wsum += a;
                h += a * s.humidity[j];
                dist += a * f64::from(km);
                zup += a * f64::from(s.z[j]);
            }
        }
        let t = self.temperature[v];
        let conv = convection(self.cells.latitude[v]);
        if wsum == 0.0 {
            // No air reaches here along the wind: a little local moisture.
            s.humidity[i] = 0.15 * capacity(o, t);
            s.rain[i] = (s.humidity[i] * conv) as f32;
            return;
        }
        let (h, dist, zup) = (h / wsum, dist / wsum, zup / wsum);
        let z = f64::from(s.z[i]);
        let mut p = h * conv;
        if z < zup {
            p *= ((z - zup) / LEE_M).exp();
        }
        let mut out = h * (-dist * conv / f64::from(o.rain_km)).exp();
        let cap = capacity(o, t);
        if out > cap {
            p += (out - cap) * (f64::from(o.rain_km) / dist.max(1e-9)).min(MAX_OROGRAPHIC);
            out = cap;
        }
        s.humidity[i] = out;
        s.rain[i] = p as f32;
    }
}
