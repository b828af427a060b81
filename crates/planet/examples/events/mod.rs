//! Where lockstep runs part (docs/benchmark-notes.md, "Plate areas XII").
//!
//! `PLATE_RATES_DIVERGE=<plate>`: after the runs, one line per step with the plate's area in
//! each run (percent of the sphere, at the step's start) and each stage whose change of the
//! plate's area differs between the runs by more than [`SPREAD_KM2`] (the runs' changes,
//! thousand km²), then each run's change summed per stage. A jump at one step and stage is a
//! discrete event (a suture shows in `subduction`, a rift in `rift`); a drift shows as many
//! small differences.
//!
//! `PLATE_RATES_STRAITS=<a>,<b>`: before each step, where plate `a`'s continental crust
//! borders plate `b` (a mesh edge), the continental pieces of `a` touching `b` (connected by
//! mesh edges, km²) and the other continental pieces of `a` within [`NEAR_KM`] of them with
//! their gaps (km, nearest vertices): the terranes the suture's fill weighs, and how near its
//! strait line (`SUTURE_STRAIT_KM` plus the spacing) each strait is.

use planet::tectonics::{CONTINENTAL, CRUST, PLATE, POSITION, SUTURE_STRAIT_KM};
use quadedge::Vertex;
use std::collections::{BTreeMap, BTreeSet};
use world::World;

/// Least spread (km²) between the runs' changes of one stage that the table names.
const SPREAD_KM2: f64 = 20_000.0;

/// How far (km) from the touching pieces other pieces are listed.
const NEAR_KM: f64 = 500.0;

/// The stages in the order of a step.
pub const STAGES: [&str; 6] = [
    "motion",
    "subduction",
    "creation",
    "cleanup",
    "rift",
    "resample",
];

/// One plate's area (km²) per run, step and stage (`start` and [`STAGES`]).
#[derive(Default)]
pub struct Diverge {
    areas: BTreeMap<(usize, usize, &'static str), f64>,
}

impl Diverge {
    /// Records the plate's area in run `run` at `step` after `stage`.
    pub fn add(&mut self, run: usize, step: usize, stage: &'static str, area: f64) {
        self.areas.insert((run, step, stage), area);
    }

    /// Prints the table (see the module's notes) for `runs` runs over `steps` steps.
    pub fn print(&self, plate: u32, names: &[String], steps: usize, radius_km: f64) {
        let sphere = 4.0 * std::f64::consts::PI * radius_km * radius_km;
        let get =
            |r: usize, s: usize, st: &'static str| *self.areas.get(&(r, s, st)).unwrap_or(&0.0);
        println!(
            "plate {plate}, runs {names:?}: % of the sphere at the step's start; stages whose changes spread over {SPREAD_KM2} km² (thousand km² per run)"
        );
        let mut sums = vec![[0.0; STAGES.len()]; names.len()];
        for s in 0..steps {
            let mut line = format!("{s:3}");
            for r in 0..names.len() {
                line += &format!(" {:7.3}", get(r, s, "start") / sphere * 100.0);
            }
            for (k, st) in STAGES.iter().enumerate() {
                let prev = if k == 0 { "start" } else { STAGES[k - 1] };
                let d: Vec<f64> = (0..names.len())
                    .map(|r| get(r, s, st) - get(r, s, prev))
                    .collect();
                for (r, x) in d.iter().enumerate() {
                    sums[r][k] += x;
                }
                let (lo, hi) = d
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
                if hi - lo > SPREAD_KM2 {
                    let v: Vec<String> = d.iter().map(|x| format!("{:.0}", x / 1e3)).collect();
                    line += &format!("  {st}:{}", v.join("/"));
                }
            }
            println!("{line}");
        }
        let last = steps.saturating_sub(1);
        let end: Vec<String> = (0..names.len())
            .map(|r| format!("{:.3}", get(r, last, "resample") / sphere * 100.0))
            .collect();
        println!("end: {}", end.join(" "));
        for (k, st) in STAGES.iter().enumerate() {
            let v: Vec<String> = sums.iter().map(|x| format!("{:.0}", x[k] / 1e3)).collect();
            println!("{st:>10}: {} thousand km² over the steps", v.join(" "));
        }
    }
}

/// Prints plate `a`'s continental pieces touching plate `b` and the pieces near them (see the
/// module's notes); `cell` is each vertex slot's area (km²).
pub fn straits(
    world: &World,
    (a, b): (u32, u32),
    cell: &[f64],
    spacing_km: f64,
    run: &str,
    step: usize,
) {
    let mesh = world.mesh();
    let plate = world.layer(&PLATE).expect("plates");
    let crust = world.layer(&CRUST).expect("crust");
    let pos = world.layer(&POSITION).expect("positions");
    let land = |v: Vertex| plate[v] == a && crust[v] == CONTINENTAL;
    // Plate a's continental pieces by mesh edges.
    let mut piece = vec![u32::MAX; mesh.vertex_slots()];
    let mut areas: Vec<f64> = Vec::new();
    for v0 in mesh.vertices().filter(|&v| land(v)) {
        if piece[v0.index()] != u32::MAX {
            continue;
        }
        let id = areas.len() as u32;
        let mut area = 0.0;
        let mut stack = vec![v0];
        piece[v0.index()] = id;
        while let Some(v) = stack.pop() {
            area += cell[v.index()];
            for u in mesh.neighbors(v) {
                if land(u) && piece[u.index()] == u32::MAX {
                    piece[u.index()] = id;
                    stack.push(u);
                }
            }
        }
        areas.push(area);
    }
    let touching: BTreeSet<u32> = mesh
        .vertices()
        .filter(|&v| land(v) && mesh.neighbors(v).any(|u| plate[u] == b))
        .map(|v| piece[v.index()])
        .collect();
    if touching.is_empty() {
        return;
    }
    let list: Vec<String> = touching
        .iter()
        .map(|&p| format!("{:.0}", areas[p as usize] / 1e3))
        .collect();
    // Gaps from the touching pieces under 2 million km² (a larger one is over the suture's
    // line whatever lies near it).
    let small: Vec<Vertex> = mesh
        .vertices()
        .filter(|v| {
            let p = piece[v.index()];
            touching.contains(&p) && areas[p as usize] < 2.0e6
        })
        .collect();
    let mut gap = vec![f64::INFINITY; areas.len()];
    for v in mesh.vertices().filter(|&v| land(v)) {
        let p = piece[v.index()];
        if touching.contains(&p) {
            continue;
        }
        for &m in &small {
            gap[p as usize] = gap[p as usize].min(pos[v].distance(pos[m]));
        }
    }
    let mut near: Vec<(f64, f64)> = gap
        .iter()
        .zip(&areas)
        .filter(|(g, _)| **g < NEAR_KM)
        .map(|(&g, &s)| (g, s))
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    let near: Vec<String> = near
        .iter()
        .map(|(g, s)| format!("{g:.0} km: {:.0}", s / 1e3))
        .collect();
    println!(
        "straits {run} step {step} {a}->{b}: touching [{}] thousand km²; near (gap: area) [{}]; strait line {:.0} km",
        list.join(", "),
        near.join(", "),
        SUTURE_STRAIT_KM + spacing_km
    );
}
