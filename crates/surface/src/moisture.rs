//! Moisture carried along the wind: the sea fills the air with as much water as its
//! temperature allows; over land the air rains some of it out along the way, more where it
//! is forced up a slope and cools (orographic rain), less where it sinks down the lee side
//! (rain shadow).
//!
//! Cells are processed in upwind order: a Dijkstra sweep from the sea whose cost is the
//! travel distance along the wind, so each land cell is settled after the neighbours the wind
//! brings its air from, and the sweep is well defined even where winds circle a pole.

use crate::cells::Cells;
use crate::climate::ClimateOptions;
use crate::fill::ordered;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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

/// Precipitation (mm/yr) per slot.
pub(crate) fn carry_moisture(
    cells: &Cells,
    elevation: &[f32],
    temperature: &[f32],
    wind: &[[f32; 2]],
    o: &ClimateOptions,
) -> Vec<f32> {
    let n = cells.len();
    let sea = |v: usize| elevation[v] < o.sea_level;
    // Per link of `v`'s row, how well the wind at `v` blows from `v` towards the neighbour
    // (cosine); its negative is how well it blows from the neighbour to `v`. One parallel
    // pass, so the sweep below reads the row it walks and never searches another.
    let mut down = vec![0.0f32; cells.neighbors.len()];
    let rows: Vec<(usize, &mut [f32])> = {
        let mut out = Vec::with_capacity(n);
        let mut rest = down.as_mut_slice();
        for v in 0..n {
            let (head, tail) = rest.split_at_mut(cells.ring(v).len());
            out.push((v, head));
            rest = tail;
        }
        out
    };
    rows.into_par_iter().for_each(|(v, row)| {
        if !cells.live[v] {
            return;
        }
        let p = cells.positions[v];
        let (e, no) = cells.geometry.east_north(p);
        let w = e * f64::from(wind[v][0]) + no * f64::from(wind[v][1]);
        for (slot, &u) in row.iter_mut().zip(cells.ring(v)) {
            let d = cells.positions[u as usize] - p;
            let len = d.length();
            *slot = if len > 0.0 {
                (w.dot(d) / len) as f32
            } else {
                0.0
            };
        }
    });
    let conv: Vec<f64> = cells.latitude.par_iter().map(|&l| convection(l)).collect();
    let row = |v: usize| {
        let r = cells.offsets[v] as usize..cells.offsets[v + 1] as usize;
        cells.neighbors[r.clone()]
            .iter()
            .zip(&cells.link_km[r.clone()])
            .zip(&down[r])
            .map(|((&u, &km), &a)| (u as usize, f64::from(km), f64::from(a)))
    };
    let mut humidity = vec![0.0f64; n];
    let mut rain = vec![0.0f32; n];
    let mut settled = vec![false; n];
    let mut key = vec![f64::INFINITY; n];
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
    let relax = |c: usize,
                 settled: &[bool],
                 key: &mut Vec<f64>,
                 heap: &mut BinaryHeap<Reverse<(u64, u32)>>| {
        for (w, km, a) in row(c) {
            if settled[w] || sea(w) {
                continue;
            }
            if a > MIN_ALIGN {
                let k = key[c] + km / a;
                if k < key[w] {
                    key[w] = k;
                    heap.push(Reverse((ordered(k), w as u32)));
                }
            }
        }
    };
    for v in cells.live_cells() {
        if sea(v) {
            settled[v] = true;
            key[v] = 0.0;
            humidity[v] = capacity(o, temperature[v]);
            rain[v] = (humidity[v] * conv[v]) as f32;
        }
    }
    for v in cells.live_cells() {
        if sea(v) {
            relax(v, &settled, &mut key, &mut heap);
        }
    }
    let mut settle = |v: usize, settled: &mut Vec<bool>, humidity: &mut Vec<f64>| {
        settled[v] = true;
        let (mut wsum, mut h, mut dist, mut zup) = (0.0, 0.0, 0.0, 0.0);
        for (u, km, down) in row(v) {
            if !settled[u] {
                continue;
            }
            let a = -down;
            if a > MIN_ALIGN {
                wsum += a;
                h += a * humidity[u];
                dist += a * km;
                zup += a * f64::from(elevation[u].max(o.sea_level));
            }
        }
        let t = temperature[v];
        let conv = conv[v];
        if wsum == 0.0 {
            // No air reaches here along the wind: a little local moisture.
            humidity[v] = 0.15 * capacity(o, t);
            rain[v] = (humidity[v] * conv) as f32;
            return;
        }
        let (h, dist, zup) = (h / wsum, dist / wsum, zup / wsum);
        let z = f64::from(elevation[v].max(o.sea_level));
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
        humidity[v] = out;
        rain[v] = p as f32;
    };
    while let Some(Reverse((k, v))) = heap.pop() {
        let v = v as usize;
        if settled[v] || ordered(key[v]) != k {
            continue;
        }
        settle(v, &mut settled, &mut humidity);
        relax(v, &settled, &mut key, &mut heap);
    }
    for v in 0..n {
        if cells.live[v] && !settled[v] {
            settle(v, &mut settled, &mut humidity);
        }
    }
    rain
}
