//! Per-plate area budgets, for finding rates that depend on the resolution.
//!
//! Lockstep mode: one seed at several vertex counts, stepped together; writes a CSV with,
//! per step and plate, the area (km², Voronoi cells) at the start and after each stage, and
//! per pair of plates and crust types across their boundary the area the relative motion
//! opens (half of it, each side's share) and closes in one step (km²; `flux<q>c<mine><theirs>`
//! rows, value `open;close`; `length<q>` rows: the boundary's length in km where it closes and
//! in all, `closing;all`), and the area of the vertices the front stage removed or
//! re-plated (`gone<q>c<crust>` rows: `q` the plate most common within two rings, or for crust
//! 9 the plate a re-plated vertex joined), and the change of the cells of the vertices that
//! stay on their plate through the motion and the front (`kept<q>` rows, the same `q`): a
//! plate's change over those two stages, per plate across, is its `kept` less its `gone`.
//! `zone<stage>` rows give each plate's area within [`JUNCTION_KM`] of the triple junctions
//! found at the step's start (`zonestart`) and after each stage: the zone stays put through
//! the step, so two resolutions' changes of it compare what happens near junctions.
//!
//! ```text
//! cargo run --release -p quadworld-planet --example plate_rates -- 100000,1000000 40 3 out.csv
//! ```
//!
//! An optional last argument gives each run's sphere its own jitter seed (comma-separated, one
//! per size; the tectonic seed is the same): `-- 100000,100000 40 3 out.csv 3,1001` steps the
//! same planet on two samplings of one resolution, whose spread is the noise floor of any
//! comparison between resolutions (docs/benchmark-notes.md, "Plate areas V").
//!
//! With `PLATE_RATES_TRENCH=1` in the environment, each resample also prints, per closing
//! pair of plates, where the front rows stand against the old boundary before and after it
//! (`examples/trench/mod.rs`; docs/benchmark-notes.md, "Plate areas X").
//!
//! `PLATE_RATES_DIVERGE=<plate>` prints where the runs' areas of that plate part, by step and
//! stage, and `PLATE_RATES_STRAITS=<a>,<b>` the continental pieces of `a` touching `b` before
//! each step with the straits round them (`examples/events/mod.rs`; docs/benchmark-notes.md,
//! "Plate areas XII").
//!
//! The steady rates of simple boundaries are checked by `tests/plate_rates.rs`.

mod args;
mod events;
mod trench;

use planet::tectonics::{CRUST, PLATE, POSITION, Params, Tectonics, plate_areas, world_ops};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use world::World;

fn main() {
    let (sizes, steps, seed, rest) = args::parse("100000,1000000", 40, 3);
    let out = rest.first().map_or("plate_rates.csv", String::as_str);
    let jitters: Vec<u64> = rest.get(1).map_or_else(
        || vec![seed; sizes.len()],
        |s| {
            s.split(',')
                .map(|x| x.parse().expect("jitter seeds"))
                .collect()
        },
    );
    assert_eq!(jitters.len(), sizes.len(), "one jitter seed per size");
    // Each run's name in the CSV's `size` column: the vertex count, and the jitter seed when
    // it is not the tectonic seed.
    let mut runs: Vec<(String, World, Tectonics)> = sizes
        .iter()
        .zip(&jitters)
        .map(|(&n, &jitter)| {
            let params = Params::earth(n, seed);
            let mut world =
                world_ops::fibonacci_world(n, params.radius_km, 0.3, jitter).expect("sphere");
            let t = Tectonics::new(&mut world, params).expect("initial state");
            let name = if jitter == seed {
                n.to_string()
            } else {
                format!("{n}:{jitter}")
            };
            (name, world, t)
        })
        .collect();
    let mut csv = String::from("size,step,stage,plate,value\n");
    let trench_on = std::env::var_os("PLATE_RATES_TRENCH").is_some();
    let env_ids = |name: &str| -> Vec<u32> {
        std::env::var(name).map_or_else(
            |_| Vec::new(),
            |s| s.split(',').map(|x| x.parse().expect(name)).collect(),
        )
    };
    let diverge_plate = env_ids("PLATE_RATES_DIVERGE").first().copied();
    let straits_pair = match env_ids("PLATE_RATES_STRAITS")[..] {
        [a, b] => Some((a, b)),
        _ => None,
    };
    let mut diverge = events::Diverge::default();
    for step in 0..steps {
        for (run, (n, world, t)) in runs.iter_mut().enumerate() {
            let every = t.params.resample_every_myr;
            let t1 = t.time_myr + t.params.time_step_myr;
            let resamples =
                trench_on && ((t1 + 1e-9) / every).floor() > ((t.time_myr + 1e-9) / every).floor();
            let mut before_resample: Option<World> = None;
            let plates_now = t.plates.clone();
            let k = t.plates.len() + 4;
            let row = |csv: &mut String, stage: &str, v: &[f64]| {
                for (p, a) in v.iter().enumerate().filter(|(_, a)| **a != 0.0) {
                    let _ = writeln!(csv, "{n},{step},{stage},{p},{a:.0}");
                }
            };
            let start = plate_areas(world, k);
            row(&mut csv, "start", &start);
            if let Some(p) = diverge_plate {
                diverge.add(
                    run,
                    step,
                    "start",
                    start.get(p as usize).copied().unwrap_or(0.0),
                );
            }
            fluxes(world, t, &mut csv, n, step);
            let before = cells(world);
            if let Some(pair) = straits_pair {
                events::straits(world, pair, &before, t.params.spacing_km, n, step);
            }
            let plate0 = world.layer(&PLATE).expect("plates").to_vec();
            let crust0 = world.layer(&CRUST).expect("crust").to_vec();
            let across = across(world, &plate0);
            let radius_km = t.params.radius_km;
            let spacing = t.params.spacing_km;
            let centres = junctions(world, &plate0, radius_km);
            let zone = |w: &World| near_junctions(w, &centres, radius_km, k);
            row(&mut csv, "zonestart", &zone(world));
            let mut gone = BTreeMap::<(u32, u32, u8), f64>::new();
            let mut kept = BTreeMap::<(u32, u32), f64>::new();
            let mut stages: Vec<(&'static str, Vec<f64>)> = Vec::new();
            t.step_traced(world, |s, w| {
                if s == "subduction" {
                    let plate = w.layer(&PLATE).expect("plates");
                    let after = cells(w);
                    for (i, a0) in before.iter().enumerate().filter(|(_, a)| **a > 0.0) {
                        let v = quadedge::Vertex::new(i as u32);
                        if w.mesh().is_vertex_alive(v) && plate[v] == plate0[i] {
                            *kept.entry((plate0[i], across[i])).or_default() += after[i] - a0;
                        }
                    }
                    for (i, a0) in before.iter().enumerate().filter(|(_, a)| **a > 0.0) {
                        let v = quadedge::Vertex::new(i as u32);
                        let (q, c) = if !w.mesh().is_vertex_alive(v) {
                            (across[i], crust0[i])
                        } else if plate[v] != plate0[i] {
                            (plate[v], 9)
                        } else {
                            continue;
                        };
                        *gone.entry((plate0[i], q, c)).or_default() += a0;
                    }
                }
                if resamples && s == "rift" {
                    before_resample = Some(w.clone());
                }
                if s == "resample"
                    && let Some(old) = &before_resample
                {
                    trench::report(old, w, &plates_now, spacing, n, step);
                }
                stages.push((s, plate_areas(w, k)));
                stages.push((zone_name(s), zone(w)));
            })
            .expect("step");
            for (s, v) in &stages {
                row(&mut csv, s, v);
                if let Some(p) = diverge_plate.filter(|_| events::STAGES.contains(s)) {
                    diverge.add(run, step, s, v.get(p as usize).copied().unwrap_or(0.0));
                }
            }
            for ((p, q), a) in &kept {
                let _ = writeln!(csv, "{n},{step},kept{q},{p},{a:.0}");
            }
            for ((p, q, c), a) in &gone {
                let _ = writeln!(csv, "{n},{step},gone{q}c{c},{p},{a:.0}");
            }
        }
        eprintln!("step {step}");
    }
    std::fs::write(out, csv).expect("write");
    if let Some(p) = diverge_plate {
        let names: Vec<String> = runs.iter().map(|(n, _, _)| n.clone()).collect();
        let radius_km = runs.first().map_or(6371.0, |(_, _, t)| t.params.radius_km);
        diverge.print(p, &names, steps, radius_km);
    }
}

/// Per plate and plate across, by crust type on each side: the area (km²) their boundary
/// opens in one step (half of each opening edge's Voronoi face swept at the relative speed)
/// and closes (all of it), as CSV rows.
fn fluxes(world: &World, t: &Tectonics, csv: &mut String, size: &str, step: usize) {
    let mesh = world.mesh();
    let plate = world.layer(&PLATE).expect("plates");
    let crust = world.layer(&CRUST).expect("crust");
    let pos = world.layer(&POSITION).expect("positions");
    let (r, dt) = (t.params.radius_km, t.params.time_step_myr);
    let centre = |f| {
        let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v]);
        ((b - a).cross(c - a)).normalize() * r
    };
    let mut pairs = BTreeMap::<(u32, u32, u8, u8), (f64, f64)>::new();
    // Per plate and plate across: the boundary's length (km, Voronoi edges) where it closes
    // and in all.
    let mut lengths = BTreeMap::<(u32, u32), (f64, f64)>::new();
    for e in mesh.undirected_edges() {
        let (o, d) = (mesh.origin(e), mesh.dest(e));
        let (po, pd) = (plate[o], plate[d]);
        let (Some(a), Some(b)) = (t.plates.get(po as usize), t.plates.get(pd as usize)) else {
            continue;
        };
        if po == pd {
            continue;
        }
        let len = centre(mesh.left(e)).distance(centre(mesh.right(e)));
        let (x, y) = (pos[o], pos[d]);
        let rate = (b.velocity(0.5 * (x + y)) - a.velocity(0.5 * (x + y))).dot((y - x).normalize())
            * len
            * dt;
        for key in [(po, pd), (pd, po)] {
            let l = lengths.entry(key).or_default();
            l.0 += if rate < 0.0 { len } else { 0.0 };
            l.1 += len;
        }
        for key in [(po, pd, crust[o], crust[d]), (pd, po, crust[d], crust[o])] {
            let e = pairs.entry(key).or_default();
            if rate > 0.0 {
                e.0 += 0.5 * rate;
            } else {
                e.1 -= rate;
            }
        }
    }
    for ((p, q, cp, cq), (o, c)) in pairs {
        let _ = writeln!(csv, "{size},{step},flux{q}c{cp}{cq},{p},{o:.0};{c:.0}");
    }
    for ((p, q), (closing, all)) in lengths {
        let _ = writeln!(csv, "{size},{step},length{q},{p},{closing:.0};{all:.0}");
    }
}

/// Voronoi cell area (km²) per vertex slot (0 for dead slots).
fn cells(world: &World) -> Vec<f64> {
    let pos = world.layer(&POSITION).expect("positions");
    let mut a = sphere::geometry::voronoi_areas(world.mesh(), pos.as_slice(), &Default::default());
    for (i, x) in a.iter_mut().enumerate() {
        if !world
            .mesh()
            .is_vertex_alive(quadedge::Vertex::new(i as u32))
        {
            *x = 0.0;
        }
    }
    a
}

/// Per vertex slot: the plate most common among the vertex's neighbours and theirs that is
/// not its own (its own plate when there is none).
fn across(world: &World, plate: &[u32]) -> Vec<u32> {
    let mesh = world.mesh();
    let mut out = plate.to_vec();
    for v in mesh.vertices() {
        let mine = plate[v.index()];
        let mut count = BTreeMap::<u32, usize>::new();
        for u in mesh.neighbors(v) {
            for w in std::iter::once(u).chain(mesh.neighbors(u)) {
                let p = plate[w.index()];
                if p != mine {
                    *count.entry(p).or_default() += 1;
                }
            }
        }
        if let Some((p, _)) = count
            .into_iter()
            .max_by_key(|&(p, c)| (c, std::cmp::Reverse(p)))
        {
            out[v.index()] = p;
        }
    }
    out
}

/// The name of a stage's `zone` rows (`zone<stage>`).
fn zone_name(stage: &str) -> &'static str {
    match stage {
        "motion" => "zonemotion",
        "subduction" => "zonesubduction",
        "creation" => "zonecreation",
        "cleanup" => "zonecleanup",
        "rift" => "zonerift",
        "resample" => "zoneresample",
        _ => "zoneother",
    }
}

/// Where three plates meet: the centres of faces with corners on three plates, one per
/// cluster (a face within half of [`JUNCTION_KM`] of an earlier one is left out).
fn junctions(world: &World, plate: &[u32], r: f64) -> Vec<glam::DVec3> {
    let mesh = world.mesh();
    let pos = world.layer(&POSITION).expect("positions");
    let mut out: Vec<glam::DVec3> = Vec::new();
    for f in mesh.faces() {
        let [a, b, c] = mesh.face_vertices(f);
        let [pa, pb, pc] = [a, b, c].map(|v| plate[v.index()]);
        if pa == pb || pb == pc || pa == pc {
            continue;
        }
        let p = (pos[a] + pos[b] + pos[c]).normalize();
        if out.iter().all(|c| c.distance(p) * r > JUNCTION_KM / 2.0) {
            out.push(p);
        }
    }
    out
}

/// Radius (km) of the zone around each triple junction whose area `zone` rows give.
const JUNCTION_KM: f64 = 300.0;

/// Per plate, the area (km², Voronoi cells) of its vertices within [`JUNCTION_KM`] of a
/// junction in `centres`.
fn near_junctions(world: &World, centres: &[glam::DVec3], radius_km: f64, k: usize) -> Vec<f64> {
    let pos = world.layer(&POSITION).expect("positions");
    let plate = world.layer(&PLATE).expect("plates");
    let cell = cells(world);
    let mut out = vec![0.0; k];
    for v in world.mesh().vertices() {
        let p = pos[v];
        let r = p.length();
        let near = centres
            .iter()
            .any(|c| c.distance(p / r) * radius_km < JUNCTION_KM);
        if let Some(a) = out.get_mut(plate[v] as usize).filter(|_| near) {
            *a += cell[v.index()];
        }
    }
    out
}
