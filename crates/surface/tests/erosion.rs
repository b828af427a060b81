//! Stream-power erosion reaches the analytic steady state `S = (U/K)^(1/n) A^(−m/n)` on a
//! cone and on a tilted plane; thermal erosion relaxes steep slopes and keeps the volume.

mod common;

use common::flat_map;
use surface::{Cells, NONE, StreamPower, drainage, stream_power_step, thermal_erosion};

/// Uplift (m/yr).
const U: f64 = 1e-3;

/// Runs `steps` implicit steps with uniform uplift and returns the largest relative error of
/// the slope–area relation between each land cell and its receiver, and the largest change
/// of the last step (m).
fn steady_state_error(cells: &Cells, start: Vec<f32>, p: &StreamPower, steps: usize) -> (f64, f64) {
    let uplift = vec![U as f32; cells.len()];
    let mut h = start;
    let mut change = 0.0f64;
    for _ in 0..steps {
        let d = drainage(cells, &h, -1e9).unwrap();
        let next = stream_power_step(cells, &d, &h, Some(&uplift), p).unwrap();
        change = h
            .iter()
            .zip(&next)
            .map(|(a, b)| f64::from((a - b).abs()))
            .fold(0.0, f64::max);
        h = next;
    }
    let d = drainage(cells, &h, -1e9).unwrap();
    let mut worst = 0.0f64;
    let mut checked = 0;
    for v in cells.live_cells() {
        let r = d.receiver[v];
        if r == NONE {
            continue;
        }
        let len_m = cells.links(v).find(|&(w, _)| w == r as usize).unwrap().1 as f64 * 1e3;
        let s = (f64::from(h[v]) - f64::from(h[r as usize])) / len_m;
        let a = d.drained_km2[v] * 1e6;
        let expect = (U / p.k).powf(1.0 / p.n) * a.powf(-p.m / p.n);
        worst = worst.max((s - expect).abs() / expect);
        checked += 1;
    }
    assert!(checked > 100);
    (worst, change)
}

fn params(n: f64) -> StreamPower {
    StreamPower {
        k: 1e-4,
        m: 0.5,
        n,
        dt_years: 2e4,
    }
}

#[test]
fn a_cone_reaches_the_analytic_slope_area_relation() {
    let (map, cells) = flat_map(24, 24, 1.0, 4, 45.0);
    // A cone 300 m high in the middle; the map's edges are the base level.
    let cone: Vec<f32> = map
        .positions
        .iter()
        .map(|p| (300.0 - 20.0 * ((p.x - 11.5).powi(2) + (p.y - 11.5).powi(2)).sqrt()) as f32)
        .collect();
    let (err, change) = steady_state_error(&cells, cone, &params(1.0), 600);
    // Tolerance: 1 % of the predicted slope, once the last step changes less than 1 mm.
    assert!(change < 1e-3, "not steady: {change} m per step");
    assert!(err < 0.01, "slope off by {:.3} %", 100.0 * err);
}

#[test]
fn a_tilted_plane_reaches_it_with_a_nonlinear_slope_exponent() {
    let (map, cells) = flat_map(30, 12, 1.0, 8, 45.0);
    let tilted: Vec<f32> = map.positions.iter().map(|p| (2.0 * p.x) as f32).collect();
    // n = 1.5 takes Newton steps in every cell.
    let (err, change) = steady_state_error(&cells, tilted, &params(1.5), 800);
    assert!(change < 1e-3, "not steady: {change} m per step");
    assert!(err < 0.01, "slope off by {:.3} %", 100.0 * err);
}

#[test]
fn erosion_only_lowers_land_towards_its_receiver_and_refuses_bad_parameters() {
    let (map, cells) = flat_map(16, 16, 1.0, 3, 45.0);
    let h: Vec<f32> = map.positions.iter().map(|p| (p.x * p.y) as f32).collect();
    let d = drainage(&cells, &h, -1e9).unwrap();
    let out = stream_power_step(&cells, &d, &h, None, &params(1.0)).unwrap();
    for v in cells.live_cells() {
        assert!(out[v] <= h[v]);
        let r = d.receiver[v];
        if r != NONE {
            assert!(out[v] >= out[r as usize], "never below the receiver");
        }
    }
    let bad = StreamPower {
        k: -1.0,
        ..params(1.0)
    };
    assert!(stream_power_step(&cells, &d, &h, None, &bad).is_err());
    assert!(stream_power_step(&cells, &d, &h[1..], None, &params(1.0)).is_err());
    assert!(stream_power_step(&cells, &d, &h, Some(&[0.0]), &params(1.0)).is_err());
}

#[test]
fn thermal_erosion_relaxes_a_spike_and_keeps_the_volume() {
    let (map, cells) = flat_map(12, 12, 1.0, 5, 45.0);
    let mut h = vec![0.0f32; map.positions.len()];
    let peak = 5 * 12 + 5;
    h[peak] = 3000.0;
    let out = thermal_erosion(&cells, &h, 30.0, 200, -1.0).unwrap();
    assert!(out[peak] < 1500.0, "{}", out[peak]);
    let sum = |x: &[f32]| cells.live_cells().map(|v| f64::from(x[v])).sum::<f64>();
    assert!((sum(&out) - sum(&h)).abs() < 1e-3 * sum(&h));
    // Every link ends near or below the talus slope (tan 30° · 1 km ≈ 577 m).
    for v in cells.live_cells() {
        for (w, km) in cells.links(v) {
            assert!(
                f64::from(out[v] - out[w]) < 1.1 * 577.0 * f64::from(km),
                "{v} {w}"
            );
        }
    }
    assert!(thermal_erosion(&cells, &h, 95.0, 1, 0.0).is_err());
}
