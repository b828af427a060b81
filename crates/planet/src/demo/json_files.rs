//! `summary.json` (what the planet is and what making it cost) and `heightmap.json` (how to
//! read `heightmap.png` back in metres).

use super::{DemoError, Report, err};
use crate::tectonics::{Tectonics, summarize};
use serde_json::json;
use std::path::{Path, PathBuf};
use world::World;

/// Writes `value` pretty-printed to `out/name`.
fn write(out: &Path, name: &str, value: &serde_json::Value) -> Result<PathBuf, DemoError> {
    let path = out.join(name);
    let text = serde_json::to_string_pretty(value).map_err(|e| err(name)(&e))?;
    std::fs::write(&path, text + "\n").map_err(|e| err(name)(&e))?;
    Ok(path)
}

/// `heightmap.json`: the metres that 0 and 65535 of the 16-bit heightmap stand for (linear
/// between) and the sea level.
///
/// # Errors
/// A [`DemoError`] when the file cannot be written.
pub(super) fn heightmap(out: &Path, range: (f32, f32)) -> Result<PathBuf, DemoError> {
    // The exporter widens an empty range by one metre (a flat planet).
    let (lo, hi) = if range.1 > range.0 {
        range
    } else {
        (range.0, range.0 + 1.0)
    };
    let value = json!({
        "file": "heightmap.png",
        "projection": "equirectangular",
        "min_m": lo,
        "max_m": hi,
        "sea_level_m": 0.0,
        "value_to_m": "min_m + (max_m - min_m) * value / 65535",
    });
    write(out, "heightmap.json", &value)
}

/// `summary.json`: vertices, land fraction, elevation percentiles, plates and their areas,
/// crust consumed and made, and the time of each demo stage and tectonic step.
///
/// # Errors
/// A [`DemoError`] when the file cannot be written.
pub(super) fn summary(
    world: &World,
    sim: &Tectonics,
    report: &Report,
    out: &Path,
) -> Result<PathBuf, DemoError> {
    let s = summarize(world, sim.plates.len());
    let percentiles: serde_json::Map<String, serde_json::Value> = s
        .percentiles
        .iter()
        .map(|(q, z)| (format!("p{q:02}"), json!(z)))
        .collect();
    let plates: Vec<serde_json::Value> = sim
        .plates
        .iter()
        .zip(&s.plate_areas_km2)
        .enumerate()
        .map(|(i, (p, a))| {
            json!({
                "id": i,
                "area_km2": a,
                "euler_pole": p.pole.to_array(),
                "speed_cm_per_yr": p.speed_cm_per_yr(sim.params.radius_km),
                "rifted_from": p.parent,
            })
        })
        .collect();
    let stages: serde_json::Map<String, serde_json::Value> = sim
        .times
        .named()
        .iter()
        .map(|(k, v)| ((*k).to_string(), json!(v)))
        .collect();
    let value = json!({
        "vertices": s.vertices,
        "radius_km": sim.params.radius_km,
        "seed": sim.params.seed,
        "simulated_myr": sim.time_myr,
        "steps": sim.steps,
        "myr_per_step": sim.params.time_step_myr,
        "land_fraction": s.land_fraction,
        "elevation_m": { "min": s.min_m, "max": s.max_m, "percentiles": percentiles },
        "plates": { "count": s.live_plates, "ids": sim.plates.len(), "list": plates },
        "boundaries": {
            "lonely_vertex_fraction": s.lonely_fraction,
            "plates_in_several_pieces": s.split_plates,
        },
        "subducted_vertices": sim.subducted,
        "created_vertices": sim.created,
        "stage_seconds": report.steps.iter().map(|(k, t)| json!({"stage": k, "seconds": t})).collect::<Vec<_>>(),
        "tectonic_stage_seconds": stages,
        "step_seconds": report.motion.iter().map(|m| m.seconds).collect::<Vec<_>>(),
    });
    write(out, "summary.json", &value)
}
