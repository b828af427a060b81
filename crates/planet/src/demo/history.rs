//! The demo's tectonic stage: the initial state laid out by [`crate::tectonics`], then
//! [`DemoConfig::steps`] steps, each followed by a hook (the animation frames).

use super::{DemoConfig, DemoError, Report};
use crate::tectonics::{MIN_VERTICES, Params, Tectonics};
use world::World;

/// Animation frames: one every this many steps, so a long history stays about twenty frames.
pub fn frame_every(steps: usize) -> usize {
    steps.div_ceil(20).max(1)
}

/// The simulation's settings for the demo's.
pub(super) fn params(cfg: &DemoConfig) -> Params {
    let mut p = Params::earth(cfg.vertices, cfg.seed);
    p.radius_km = cfg.radius;
    p.plates = cfg.plates;
    p.spacing_km = crate::tectonics::spacing_km(cfg.vertices, cfg.radius);
    p.time_step_myr = cfg.myr_per_step;
    if !cfg.remesh {
        p.resample_every_myr = 0.0;
    }
    p
}

/// Plates, crust, ages and elevations laid onto the world from the seed.
///
/// # Errors
/// A [`DemoError`] when the simulation refuses the settings or the world.
pub(super) fn lay_out(world: &mut World, cfg: &DemoConfig) -> Result<Tectonics, DemoError> {
    Tectonics::new(world, params(cfg)).map_err(|e| DemoError(e.to_string()))
}

/// Runs the steps (none on planets too small to move), calling `hook` with the world and the
/// step number (from 1) after each; each step's report joins `report.motion`.
///
/// # Errors
/// A [`DemoError`] when a step or the hook fails.
pub(super) fn run(
    world: &mut World,
    sim: &mut Tectonics,
    cfg: &DemoConfig,
    report: &mut Report,
    hook: &mut dyn FnMut(&World, usize) -> Result<(), DemoError>,
) -> Result<(), DemoError> {
    if world.mesh().vertex_count() < MIN_VERTICES {
        return Ok(());
    }
    for step in 1..=cfg.steps {
        let r = sim
            .step(world)
            .map_err(|e| DemoError(format!("step {step}: {e}")))?;
        report.motion.push(r);
        if step == cfg.steps {
            sim.clean_up(world).map_err(|e| DemoError(e.to_string()))?;
        }
        hook(world, step)?;
    }
    let total = |f: fn(&crate::tectonics::StepReport) -> usize| -> usize {
        report.motion.iter().map(f).sum()
    };
    let facts = [
        ("tectonic steps", report.motion.len()),
        ("vertices subducted", total(|s| s.subducted)),
        ("vertices of new crust", total(|s| s.created)),
        ("continental vertices shortened", total(|s| s.shortened)),
        ("continental vertices sutured", total(|s| s.sutured)),
        ("ocean floor accreted to continents", total(|s| s.accreted)),
        ("resamplings", total(|s| usize::from(s.resampled))),
        ("rifts", total(|s| usize::from(s.rifted.is_some()))),
    ];
    for (what, n) in facts {
        report.facts.push((what.into(), n.to_string()));
    }
    report.facts.push((
        "simulated time (Myr)".into(),
        format!("{:.0}", sim.time_myr),
    ));
    Ok(())
}
