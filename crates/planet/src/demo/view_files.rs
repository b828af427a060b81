//! The browser viewer's files, `out/view/` (read by `cargo xtask view`): the final mesh with
//! every per-vertex `f32` (scalar) and `u32` (categorical) layer of the world, the hops to the
//! nearest plate boundary, and up to [`MAX_FRAMES`] frames of elevation and plate for the
//! time slider.
//!
//! The mesh changes during the motion (flips, refinement, resampling), so each recorded step
//! is spilled to `out/view/.steps/` as positions and values ([`record_step`]), and
//! [`write`] resamples every one onto the final vertices by nearest direction
//! ([`nearest::Nearest`]) before removing the spill. Memory stays that of one step.

mod nearest;

use super::{DemoConfig, DemoError, ELEVATION, PLATE, POSITION, err};
use crate::tectonics::{CONTINENTAL, OCEANIC, orogeny};
use export::view::{Class, Frame, Layer, Relief, Scale, Values, ViewData, ViewMesh, write_view};
use glam::{DVec3, Vec3};
use layers::{LayerInfo, VertexKind};
use std::fs;
use std::path::{Path, PathBuf};
use world::World;

/// Most frames the time slider gets (evenly spread over the steps, the last included).
pub const MAX_FRAMES: usize = 20;
/// Largest planet given view files: a browser holds about 60 bytes per vertex and frame.
pub const MAX_VIEW_VERTICES: usize = 4_000_000;
const MAGIC: &[u8; 4] = b"QWVS";
/// Planets over this many vertices also get a coarse mesh for the page to draw while the whole
/// globe is in view (cells smaller than a pixel; software GL pays per triangle).
const COARSE_ABOVE: usize = 300_000;
/// Vertices of the coarse mesh: the final vertices nearest to a Fibonacci sphere of this size.
const COARSE_VERTICES: usize = 120_000;

fn spill_dir(cfg: &DemoConfig) -> PathBuf {
    cfg.out.join("view").join(".steps")
}

/// Whether step `step` of `steps` (from 1) is one of the [`MAX_FRAMES`] recorded.
fn recorded(step: usize, steps: usize) -> bool {
    let f = steps.min(MAX_FRAMES);
    step >= 1 && step <= steps && step * f / steps != (step - 1) * f / steps
}

/// Remembers the elevation and plates after motion step `step` (from 1) for the time slider,
/// when it is one of the recorded steps. Step 1 clears what an earlier run left.
///
/// # Errors
/// A [`DemoError`] when the spill file cannot be written.
pub(super) fn record_step(world: &World, cfg: &DemoConfig, step: usize) -> Result<(), DemoError> {
    let dir = spill_dir(cfg);
    if step == 1 {
        let _ = fs::remove_dir_all(&dir);
    }
    let n = world.mesh().vertex_count();
    if !recorded(step, cfg.steps) || n > MAX_VIEW_VERTICES {
        return Ok(());
    }
    let (Some(pos), Some(elevation), Some(plate)) = (
        world.layer(&POSITION),
        world.layer(&ELEVATION),
        world.layer(&PLATE),
    ) else {
        return Ok(());
    };
    let mut bytes = Vec::with_capacity(16 + 20 * n);
    bytes.extend(MAGIC);
    for x in [std::process::id(), step as u32, n as u32] {
        bytes.extend(x.to_le_bytes());
    }
    for v in world.mesh().vertices() {
        let d = pos[v].as_vec3().normalize_or_zero();
        for x in d.to_array().into_iter().chain([elevation[v]]) {
            bytes.extend(x.to_le_bytes());
        }
        bytes.extend(plate[v].to_le_bytes());
    }
    fs::create_dir_all(&dir).map_err(|e| err("view frames")(&e))?;
    let file = dir.join(format!("step-{step:05}.bin"));
    fs::write(&file, bytes).map_err(|e| err("view frames")(&e))
}

/// One spilled step: unit directions, elevation, plate.
struct Spilled {
    step: u32,
    dirs: Vec<Vec3>,
    elevation: Vec<f32>,
    plate: Vec<u32>,
}

/// Reads a spill file of this process (`None` for anything else: another run's, damaged).
fn read_spill(path: &Path) -> Option<Spilled> {
    let b = fs::read(path).ok()?;
    let word = |i: usize| Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?));
    let (pid, step, n) = (word(4)?, word(8)?, word(12)? as usize);
    if &b[..4] != MAGIC || pid != std::process::id() || b.len() != 16 + 20 * n || n == 0 {
        return None;
    }
    let f = |i: usize| f32::from_bits(word(i).unwrap_or(0));
    let mut s = Spilled {
        step,
        dirs: Vec::with_capacity(n),
        elevation: Vec::with_capacity(n),
        plate: Vec::with_capacity(n),
    };
    for k in 0..n {
        let o = 16 + 20 * k;
        s.dirs.push(Vec3::new(f(o), f(o + 4), f(o + 8)));
        s.elevation.push(f(o + 12));
        s.plate.push(word(o + 16)?);
    }
    Some(s)
}

/// The recorded steps of this run, resampled onto `dirs` (the final unit directions):
/// `(step, elevation, plate)` in step order.
fn frames_on(cfg: &DemoConfig, dirs: &[Vec3]) -> Vec<(u32, Vec<f32>, Vec<u32>)> {
    let mut files: Vec<PathBuf> = fs::read_dir(spill_dir(cfg))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut frames = Vec::new();
    for s in files.iter().filter_map(|f| read_spill(f)) {
        let near = nearest::Nearest::new(s.dirs);
        let (mut e, mut p) = (
            Vec::with_capacity(dirs.len()),
            Vec::with_capacity(dirs.len()),
        );
        for &d in dirs {
            let k = near.nearest(d) as usize;
            e.push(s.elevation[k]);
            p.push(s.plate[k]);
        }
        frames.push((s.step, e, p));
    }
    frames
}

/// A coarse mesh of about `target` vertices in dense indices of `dirs` (the final unit
/// directions): the vertices nearest to a Fibonacci lattice, triangulated again. Empty when
/// the triangulation refuses.
fn coarse_triangles(dirs: &[DVec3], target: usize) -> Vec<[u32; 3]> {
    let Ok(lattice) = sphere::fibonacci_points(target, 1.0, 0.0, 0) else {
        return Vec::new();
    };
    let near = nearest::Nearest::new(dirs.iter().map(|d| d.as_vec3()).collect());
    let mut pick: Vec<u32> = lattice.iter().map(|p| near.nearest(p.as_vec3())).collect();
    pick.sort_unstable();
    pick.dedup();
    let points: Vec<DVec3> = pick.iter().map(|&k| dirs[k as usize]).collect();
    sphere::triangulate(&points)
        .map(|t| t.iter().map(|t| t.map(|k| pick[k as usize])).collect())
        .unwrap_or_default()
}

/// The names (and colours) the page shows for the classes of the layer `name`; empty for
/// layers whose classes are ids (plates).
fn class_names(name: &str) -> Vec<Class<'static>> {
    // The lists below are in the order of the layers' codes.
    const _: () = assert!(OCEANIC == 0 && CONTINENTAL == 1);
    const _: () = assert!(
        orogeny::NONE == 0 && orogeny::ANDEAN == 1 && orogeny::ARC == 2 && orogeny::HIMALAYAN == 3
    );
    let class = |name, color| Class {
        name,
        color: Some(color),
    };
    match name {
        "crust" => vec![
            class("oceanic", [40, 80, 160]),
            class("continental", [176, 144, 96]),
        ],
        "orogeny" => vec![
            class("none", [90, 96, 110]),
            class("cordillera (Andean)", [214, 128, 56]),
            class("island arc", [196, 72, 150]),
            class("collision range", [236, 224, 196]),
        ],
        "biome" => {
            let unnamed = Class {
                name: "?",
                color: None,
            };
            let mut c = vec![unnamed; surface::ALL_BIOMES.len()];
            for b in surface::ALL_BIOMES {
                if let Some(slot) = c.get_mut(usize::from(b.code())) {
                    *slot = class(b.label(), b.color());
                }
            }
            c
        }
        _ => Vec::new(),
    }
}

/// Writes `out/view/` (manifest, mesh, frames) for the world as it ends, and removes the
/// spilled steps. Planets over [`MAX_VIEW_VERTICES`] get none.
///
/// # Errors
/// A [`DemoError`] when the files cannot be written.
pub(super) fn write(world: &World, cfg: &DemoConfig) -> Result<(), DemoError> {
    let result = write_files(world, cfg);
    let _ = fs::remove_dir_all(spill_dir(cfg));
    result
}

fn write_files(world: &World, cfg: &DemoConfig) -> Result<(), DemoError> {
    let mesh = world.mesh();
    if mesh.vertex_count() > MAX_VIEW_VERTICES {
        return Ok(());
    }
    let pos = world.layer(&POSITION).expect("kept").as_slice();
    let vm = ViewMesh::new(mesh, &export::positions_f32(pos)).map_err(|e| err("view")(&e))?;
    let gather_f = |v: &[f32]| vm.gather(v).unwrap_or_default();
    let gather_u = |v: &[u32]| vm.gather(v).unwrap_or_default();
    let mut scalars: Vec<(String, Vec<f32>)> = Vec::new();
    let mut classes: Vec<(String, Vec<u32>)> = Vec::new();
    for name in world.layer_names() {
        let info = LayerInfo::<f32, VertexKind>::named(name.to_string());
        if let Some(l) = world.layer(&info) {
            scalars.push((name.to_string(), gather_f(l.as_slice())));
        }
        let info = LayerInfo::<u32, VertexKind>::named(name.to_string());
        // `flow` holds each cell's receiver, an id rather than a category.
        if let Some(l) = world.layer(&info).filter(|_| name != "flow") {
            classes.push((name.to_string(), gather_u(l.as_slice())));
        }
        // Small categories (crust type, orogeny, biome) are stored as bytes.
        let info = LayerInfo::<u8, VertexKind>::named(name.to_string());
        if let Some(l) = world.layer(&info) {
            let wide: Vec<u32> = l.as_slice().iter().map(|&c| u32::from(c)).collect();
            classes.push((name.to_string(), gather_u(&wide)));
        }
    }
    let mut layers: Vec<Layer> = Vec::new();
    for (name, values) in &scalars {
        let (unit, scale) = match name.as_str() {
            "elevation" | "eroded_elevation" => ("m", Scale::Terrain { sea_level: 0.0 }),
            "crust_age" => ("Myr", Scale::Sequential),
            "temperature" => ("°C", Scale::Sequential),
            "precipitation" => ("mm/yr", Scale::Sequential),
            "drained_area" => ("km²", Scale::Sequential),
            "river_discharge" => ("m³/s", Scale::Sequential),
            _ => ("", Scale::Sequential),
        };
        let values = Values::Scalar(values, scale);
        layers.push(Layer { name, unit, values });
    }
    let named: Vec<Vec<Class>> = classes.iter().map(|(n, _)| class_names(n)).collect();
    for ((name, values), named) in classes.iter().zip(&named) {
        let values = if named.is_empty() {
            Values::Categorical(values)
        } else {
            Values::Named(values, named)
        };
        layers.push(Layer {
            name,
            unit: "",
            values,
        });
    }
    let dirs: Vec<Vec3> = vm.positions.iter().map(|p| p.normalize_or_zero()).collect();
    let resampled = frames_on(cfg, &dirs);
    let exact: Vec<DVec3> = vm
        .ids
        .iter()
        .map(|&i| pos[i as usize].normalize())
        .collect();
    let coarse = if exact.len() > COARSE_ABOVE {
        coarse_triangles(&exact, COARSE_VERTICES)
    } else {
        Vec::new()
    };
    let find = |n: &str| layers.iter().find(|l| l.name == n).copied();
    let frames: Vec<Frame> = match (find("elevation"), find("plate")) {
        (Some(e), Some(p)) => resampled
            .iter()
            .map(|(step, el, pl)| Frame {
                step: *step,
                layers: vec![
                    Layer {
                        values: Values::Scalar(el, Scale::Terrain { sea_level: 0.0 }),
                        ..e
                    },
                    Layer {
                        values: Values::Categorical(pl),
                        ..p
                    },
                ],
            })
            .collect(),
        _ => Vec::new(),
    };
    let data = ViewData {
        // Positions are in km, elevations in m.
        relief: find("elevation").map(|_| Relief {
            layer: "elevation",
            scale: 0.001,
        }),
        coarse: &coarse,
        ..vm.data(&layers, &frames)
    };
    write_view(cfg.out.join("view"), &data).map_err(|e| err("view")(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_max_frames_are_recorded_and_the_last_step_always() {
        for steps in [1, 5, 20, 21, 37, 1000] {
            let picked: Vec<usize> = (1..=steps).filter(|&s| recorded(s, steps)).collect();
            assert_eq!(picked.len(), steps.min(MAX_FRAMES), "{steps}");
            assert_eq!(picked.last(), Some(&steps));
        }
        assert!(!recorded(0, 5) && !recorded(6, 5));
    }

    #[test]
    fn the_coarse_mesh_is_a_closed_outward_triangulation_of_a_subset() {
        let (_, fine) = sphere::fibonacci_sphere(5000, 1.0, 0.3, 9).unwrap();
        let dirs: Vec<DVec3> = fine.iter().map(|p| p.normalize()).collect();
        let tris = coarse_triangles(&dirs, 1000);
        let mut used: Vec<u32> = tris.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        assert!((900..=1000).contains(&used.len()), "{}", used.len());
        assert_eq!(tris.len(), 2 * used.len() - 4);
        for t in &tris {
            let [a, b, c] = t.map(|k| dirs[k as usize]);
            assert!(
                (b - a).cross(c - a).dot(a) > 0.0,
                "counter-clockwise from outside"
            );
        }
    }

    /// A small world with plates and an elevation: three recorded steps (the elevation
    /// changing in between) come back as frames on the final mesh, the last one equal to the
    /// final layers, and the spill is gone.
    #[test]
    fn steps_come_back_as_frames_on_the_final_mesh() {
        let tmp = tempfile::tempdir().unwrap();
        let cfg = DemoConfig {
            vertices: 500,
            plates: 4,
            steps: 3,
            out: tmp.path().to_path_buf(),
            ..Default::default()
        };
        let mut world = super::super::steps::build_sphere(&cfg).unwrap();
        world
            .update_layer(&PLATE, |l| {
                for (i, p) in l.iter_mut().enumerate() {
                    *p = (i % cfg.plates) as u32;
                }
            })
            .unwrap();
        for step in 1..=3 {
            let mut e = world.lock_layer(&ELEVATION).unwrap();
            for (i, h) in e.as_mut_slice().iter_mut().enumerate() {
                *h = (i * step) as f32;
            }
            e.commit().unwrap();
            record_step(&world, &cfg, step).unwrap();
        }
        assert_eq!(fs::read_dir(spill_dir(&cfg)).unwrap().count(), 3);
        write(&world, &cfg).unwrap();
        assert!(!spill_dir(&cfg).exists());
        let view = cfg.out.join("view");
        let manifest = fs::read_to_string(view.join("manifest.json")).unwrap();
        for needle in [
            "\"elevation\"",
            "\"plate\"",
            "\"steps\": [1, 2, 3]",
            "\"relief\": {\"layer\": \"elevation\"",
        ] {
            assert!(manifest.contains(needle), "{needle} in {manifest}");
        }
        let frames = fs::read(view.join("frames.bin")).unwrap();
        let n = world.mesh().vertex_count();
        assert_eq!(frames.len(), 3 * 8 * n);
        let word = |i: usize| u32::from_le_bytes(frames[4 * i..4 * i + 4].try_into().unwrap());
        // Frame k (from 0) holds elevation (k + 1)·i at dense vertex i, then the plates.
        let plate = world.layer(&PLATE).unwrap();
        for i in 0..n {
            for k in 0..3 {
                assert_eq!(f32::from_bits(word(2 * k * n + i)), (i * (k + 1)) as f32);
                assert_eq!(word((2 * k + 1) * n + i), plate.as_slice()[i]);
            }
        }
    }
}
