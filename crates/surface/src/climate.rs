//! Climate: annual mean temperature from latitude, elevation (a lapse rate) and distance to
//! the sea; prevailing winds by latitude band; precipitation from moisture carried along the
//! wind (see `moisture.rs`); ice where it is cold enough.

use crate::cells::Cells;
use crate::error::{SurfaceError, param};
use crate::moisture::Bands;
use rayon::prelude::*;
use std::collections::VecDeque;

/// Settings of [`climate`]; the defaults give an Earth-like planet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClimateOptions {
    /// Elevation (m) of the sea surface.
    pub sea_level: f32,
    /// Mean sea-level temperature at the equator (°C).
    pub equator_c: f32,
    /// Mean sea-level temperature at the poles (°C).
    pub pole_c: f32,
    /// Cooling with height (K per km), 6.5 in the standard atmosphere.
    pub lapse_k_per_km: f32,
    /// How much colder (°C) the far interior of a continent is than its coast at the poles
    /// (scaled by the sine of the latitude, so none at the equator).
    pub continentality_c: f32,
    /// Distance (km) over which the interior effect reaches half its strength.
    pub continentality_km: f32,
    /// Precipitation (mm/yr) over a 27 °C sea; colder air holds less water.
    pub ocean_precipitation_mm: f32,
    /// Distance (km) over which air moving inland loses about two thirds of its moisture to
    /// rain (without relief).
    pub rain_km: f32,
    /// Land colder than this (°C) carries ice.
    pub land_ice_c: f32,
    /// Sea colder than this (°C) freezes.
    pub sea_ice_c: f32,
}

impl Default for ClimateOptions {
    fn default() -> Self {
        Self {
            sea_level: 0.0,
            equator_c: 28.0,
            pole_c: -24.0,
            lapse_k_per_km: 6.5,
            continentality_c: 8.0,
            continentality_km: 800.0,
            ocean_precipitation_mm: 2400.0,
            rain_km: 2000.0,
            land_ice_c: -12.0,
            sea_ice_c: -10.0,
        }
    }
}

impl ClimateOptions {
    fn check(&self) -> Result<(), SurfaceError> {
        let fin = [
            self.sea_level,
            self.equator_c,
            self.pole_c,
            self.lapse_k_per_km,
            self.continentality_c,
            self.land_ice_c,
            self.sea_ice_c,
        ];
        param(
            fin.iter().all(|x| x.is_finite()),
            "climate options",
            "temperatures, sea level and lapse rate must be finite",
        )?;
        param(
            self.continentality_km.is_finite() && self.continentality_km > 0.0,
            "continentality_km",
            "must be finite and positive",
        )?;
        param(
            self.rain_km.is_finite() && self.rain_km > 0.0,
            "rain_km",
            "must be finite and positive",
        )?;
        param(
            self.ocean_precipitation_mm.is_finite() && self.ocean_precipitation_mm >= 0.0,
            "ocean_precipitation_mm",
            "must be finite and not negative",
        )
    }
}

/// What [`climate`] computes, one entry per vertex slot.
#[derive(Clone, Debug)]
pub struct Climate {
    /// Annual mean temperature (°C) at the surface (the sea surface at sea).
    pub temperature_c: Vec<f32>,
    /// Annual precipitation (mm).
    pub precipitation_mm: Vec<f32>,
    /// Prevailing wind direction, `[east, north]` components of a unit vector.
    pub wind: Vec<[f32; 2]>,
    /// Distance to the nearest sea cell (km, along the mesh), 0 at sea.
    pub sea_distance_km: Vec<f32>,
    /// Land ice or sea ice.
    pub ice: Vec<bool>,
}

/// The prevailing wind at latitude `lat` (radians) as `[east, north]`, a unit vector: trade
/// winds from the east and towards the equator below 30°, westerlies towards the pole from
/// 30° to 60°, polar easterlies above.
pub fn prevailing_wind(lat: f64) -> [f64; 2] {
    let hemi = if lat < 0.0 { -1.0 } else { 1.0 };
    let (east, north) = if wind_band(lat) % 3 == 1 {
        (1.0, 0.35 * hemi)
    } else {
        (-1.0, -0.35 * hemi)
    };
    let len = f64::hypot(east, north);
    [east / len, north / len]
}

/// The wind band of latitude `lat` (radians): 0 trades (below 30°), 1 westerlies (30° to
/// 60°), 2 polar easterlies, plus 3 in the southern hemisphere. The air of one band never
/// blows into another: the trades of both hemispheres meet at the equator, the trades and
/// the westerlies blow apart at 30°, the westerlies and the polar easterlies meet at 60°.
pub(crate) fn wind_band(lat: f64) -> u8 {
    let deg = lat.to_degrees().abs();
    let band = if deg < 30.0 {
        0
    } else if deg < 60.0 {
        1
    } else {
        2
    };
    if lat < 0.0 { band + 3 } else { band }
}

/// Sea-level temperature (°C) at latitude `lat` (radians) before the interior effect.
fn sea_level_temperature(o: &ClimateOptions, lat: f64) -> f64 {
    f64::from(o.pole_c) + f64::from(o.equator_c - o.pole_c) * lat.cos()
}

/// Temperature, winds, precipitation and ice on `elevation` (m, one per slot).
///
/// # Errors
/// [`SurfaceError::LengthMismatch`] / [`SurfaceError::NonFinite`] for a bad `elevation`,
/// [`SurfaceError::InvalidParameter`] for options out of range.
pub fn climate(
    cells: &Cells,
    elevation: &[f32],
    o: &ClimateOptions,
) -> Result<Climate, SurfaceError> {
    o.check()?;
    cells.check("elevation", elevation)?;
    let n = cells.len();
    let sea = |v: usize| elevation[v] < o.sea_level;
    let wind: Vec<[f32; 2]> = cells
        .latitude
        .par_iter()
        .map(|&lat| prevailing_wind(f64::from(lat)).map(|x| x as f32))
        .collect();
    // The breadth-first search is sequential: the wind bands are built beside it.
    let (sea_distance_km, bands) = rayon::join(
        || sea_distance(cells, elevation, o.sea_level),
        || Bands::new(cells, elevation, &wind, o.sea_level),
    );
    let temperature_c: Vec<f32> = (0..n)
        .into_par_iter()
        .map(|v| {
            if !cells.live[v] {
                return 0.0;
            }
            let lat = f64::from(cells.latitude[v]);
            let mut t = sea_level_temperature(o, lat);
            if !sea(v) {
                let d = f64::from(sea_distance_km[v]);
                let inland = d / (d + f64::from(o.continentality_km));
                t -= f64::from(o.continentality_c) * inland * lat.sin().abs();
                t -= f64::from(o.lapse_k_per_km) * f64::from(elevation[v] - o.sea_level) / 1e3;
            }
            t as f32
        })
        .collect();
    let precipitation_mm = bands.carry_moisture(cells, elevation, &temperature_c, o);
    let ice = (0..n)
        .into_par_iter()
        .map(|v| {
            cells.live[v] && temperature_c[v] < if sea(v) { o.sea_ice_c } else { o.land_ice_c }
        })
        .collect();
    Ok(Climate {
        temperature_c,
        precipitation_mm,
        wind,
        sea_distance_km,
        ice,
    })
}

/// Distance (km) from each cell to the sea along the mesh, breadth first from every sea cell
/// (each cell takes the distance of the neighbour that reached it first plus the link: close
/// to the shortest path on near-regular meshes, in `O(n)`). Land that no sea reaches gets the
/// largest distance found, or 10,000 km without any sea.
pub(crate) fn sea_distance(cells: &Cells, elevation: &[f32], sea_level: f32) -> Vec<f32> {
    let n = cells.len();
    let mut d = vec![f32::INFINITY; n];
    let sea = |v: usize| cells.live[v] && elevation[v] < sea_level;
    // Only the coast's sea cells reach land: the open sea starts the queue for nothing.
    let coast: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .filter(|&v| sea(v as usize) && cells.ring(v as usize).iter().any(|&u| !sea(u as usize)))
        .collect();
    let mut queue: VecDeque<u32> = coast.into();
    d.par_iter_mut()
        .enumerate()
        .for_each(|(v, x)| *x = if sea(v) { 0.0 } else { f32::INFINITY });
    while let Some(c) = queue.pop_front() {
        let c = c as usize;
        for (w, km) in cells.links(c) {
            if d[w].is_infinite() {
                d[w] = d[c] + km;
                queue.push_back(w as u32);
            }
        }
    }
    let far = d
        .par_iter()
        .copied()
        .filter(|x| x.is_finite())
        .reduce(|| f32::NAN, f32::max);
    let far = if far > 0.0 { far } else { 10_000.0 };
    d.par_iter_mut().enumerate().for_each(|(v, x)| {
        if x.is_infinite() {
            *x = if cells.live[v] { far } else { 0.0 };
        }
    });
    d
}
