//! # surface
//!
//! From relief to a world: depression filling and drainage, stream-power erosion, rivers,
//! climate and biomes, as library stages over any [`quadedge::Topology`] with positions (on
//! the sphere or the plane) and per-vertex slices. Each stage is a function from plain
//! `Vec`s to plain `Vec`s (one entry per vertex slot), in the manner of mapgen4, so the
//! planet demo and the flat maps chain the same code; [`world_layers`] moves the results
//! into a world's layers.
//!
//! * [`Cells`]: the mesh as compressed neighbour rows with link lengths (km), cell areas
//!   (km²) and latitudes, built once per mesh for a [`Geometry`].
//! * [`drainage`]: priority-flood depression filling (Barnes et al. 2014), lakes with their
//!   outlets, flow by steepest descent, the stack order and drained areas.
//! * [`stream_power_step`]: one implicit stream-power step in `O(n)` (Braun and Willett
//!   2013); [`thermal_erosion`] relaxes slopes beyond a talus angle.
//! * [`discharge`] and [`rivers`]: river discharge and polylines from source to mouth.
//! * [`climate`]: temperature (latitude, lapse rate, distance to the sea), prevailing winds
//!   by latitude band, precipitation carried along the wind with orographic rain and rain
//!   shadows, ice.
//! * [`Biome`], [`land_biome`], [`classify`]: a Whittaker-style classification with one
//!   palette and legend.
//! * [`run`]: all of it in order.
//!
//! ```
//! let (mesh, pos) = sphere::fibonacci_sphere(2000, 6371.0, 0.3, 7).unwrap();
//! let cells = surface::Cells::new(&mesh, &pos, surface::Geometry::Sphere { radius_km: 6371.0 })?;
//! // A single round continent around the north pole.
//! let elevation: Vec<f32> = pos.iter().map(|p| (p.y / 6371.0 - 0.5) as f32 * 4000.0).collect();
//! let s = surface::run(&cells, &elevation, None, &surface::SurfaceOptions::default())?;
//! let land: f64 = cells.live_cells().filter(|&v| !s.drainage.ocean[v]).map(|v| cells.areas_km2()[v]).sum();
//! let mouths: f64 = s.drainage.mouths().map(|v| s.drainage.drained_km2[v]).sum();
//! assert!((land - mouths).abs() < 1e-6 * land);
//! # Ok::<(), surface::SurfaceError>(())
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod biome;
mod cells;
mod climate;
mod drainage;
mod erosion;
mod error;
mod fill;
mod moisture;
mod pipeline;
mod rivers;
pub mod world_layers;

pub use biome::{
    ALL_BIOMES, ALPINE_C, ALPINE_M, Biome, CellClimate, DEEP_SEA_M, RIVER_COLOR, biome,
    biome_colors, biomes_present, land_biome, legend,
};
pub use cells::{Cells, Geometry};
pub use climate::{Climate, ClimateOptions, climate, prevailing_wind};
pub use drainage::{Drainage, Lake, NONE, drainage};
pub use erosion::{StreamPower, stream_power_step, thermal_erosion};
pub use error::SurfaceError;
pub use pipeline::{MAX_EROSION_STEPS, Surface, SurfaceOptions, classify, run, wet_lakes};
pub use rivers::{River, discharge, rivers};

/// Compiles and runs the README's example with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
