//! The demo's steps other than the edits, one function each, in the order [`super::run`]
//! calls them.

use super::edits::Edited;
use super::{DemoConfig, DemoError, ELEVATION, PLATE, PLATE_DISTANCE, POSITION, Report, err};
use crate::tectonics::Tectonics;
use export::gltf::GlbOptions;
use export::{Borders, CloseupOptions, GlobeOptions};
use glam::{DVec3, Vec3};
use layers::Value;
use quadedge::Vertex;
use std::path::{Path, PathBuf};
use world::World;

/// A Fibonacci sphere triangulated as its spherical Delaunay triangulation (vertices in
/// Hilbert order), in a world with a `position` layer.
pub(super) fn build_sphere(cfg: &DemoConfig) -> Result<World, DemoError> {
    crate::tectonics::world_ops::fibonacci_world(
        cfg.vertices,
        cfg.radius,
        cfg.perturbation,
        cfg.seed,
    )
    .map_err(|e| err("sphere")(&e))
}

/// For each plate id below `plates`, its vertex nearest to the plate's mean direction
/// ([`Vertex::INVALID`] for a plate with no vertex): a stable name for the plate's place.
pub(super) fn plate_representatives(world: &World, plates: usize) -> Vec<Vertex> {
    let pos = world.layer(&POSITION).expect("made by the first step");
    let plate = world.layer(&PLATE).expect("laid out");
    let mut sum = vec![DVec3::ZERO; plates];
    for v in world.mesh().vertices() {
        if let Some(s) = sum.get_mut(plate[v] as usize) {
            *s += pos[v].normalize();
        }
    }
    let mut best = vec![(f64::NEG_INFINITY, Vertex::INVALID); plates];
    for v in world.mesh().vertices() {
        let p = plate[v] as usize;
        if let Some(b) = best.get_mut(p) {
            let x = pos[v].normalize().dot(sum[p]);
            if x > b.0 {
                *b = (x, v);
            }
        }
    }
    best.iter().map(|b| b.1).collect()
}

/// `plate_distance` on every edge: its great-circle length inside a plate, −1 across borders.
pub(super) fn plate_distance(world: &mut World) -> Result<(), DemoError> {
    let mesh = world.mesh().clone();
    let positions = world.layer(&POSITION).expect("made above").to_vec();
    let plate = world.layer(&PLATE).expect("made above").to_vec();
    let mut dist = world
        .lock_layer(&PLATE_DISTANCE)
        .map_err(|e| err("plate_distance")(&e))?;
    for e in mesh.undirected_edges() {
        let (a, b) = (mesh.origin(e), mesh.dest(e));
        if plate[a.index()] == plate[b.index()] {
            dist[e] =
                sphere::geometry::great_circle_distance(positions[a.index()], positions[b.index()])
                    as f32;
        }
    }
    dist.commit().map_err(|e| err("plate_distance")(&e))
}

/// The `plates` dictionary: per plate its id, a representative vertex (an id value, which
/// follows compaction; `Null` for a plate with no vertex left), vertex count, area (from the
/// Voronoi cells, km²), Euler pole and speed, written after the tectonic stage.
pub(super) fn plate_metadata(
    world: &mut World,
    sim: &mut Tectonics,
    report: &mut Report,
) -> Result<(), DemoError> {
    sim.measure_areas(world);
    let n = sim.plates.len();
    let seeds = plate_representatives(world, n);
    let plate = world.layer(&PLATE).expect("kept").to_vec();
    let mut plate_count = vec![0usize; n];
    for v in world.mesh().vertices() {
        if let Some(c) = plate_count.get_mut(plate[v.index()] as usize) {
            *c += 1;
        }
    }
    let radius = sim.params.radius_km;
    {
        let mut d = world.lock_dict("plates");
        let list: Vec<Value> = (0..n)
            .map(|p| {
                let mut e = layers::Dict::default();
                let info = sim.plates[p];
                e.set("id", p as i64);
                match seeds.get(p).filter(|v| v.is_valid()) {
                    Some(&v) => e.set("seed_vertex", v),
                    None => e.set("seed_vertex", Value::Null),
                };
                e.set("vertices", plate_count[p] as i64);
                e.set("area_km2", info.area_km2);
                let axis = info.pole.to_array().map(Value::from);
                e.set("euler_pole", Value::List(axis.to_vec()));
                e.set("rad_per_myr", info.omega);
                e.set("speed_cm_per_yr", info.speed_cm_per_yr(radius));
                Value::from(e)
            })
            .collect();
        d.set("plates", Value::List(list));
        d.set("radius_km", radius);
        d.set("simulated_myr", sim.time_myr);
        d.commit();
    }
    let sphere_area = 4.0 * std::f64::consts::PI * radius * radius;
    let total: f64 = sim.plates.iter().map(|p| p.area_km2).sum();
    let largest = sim.plates.iter().map(|p| p.area_km2).fold(0.0, f64::max);
    report.facts.push((
        "plate areas / 4πr²".into(),
        format!("{:.12}", total / sphere_area),
    ));
    report.facts.push((
        "largest plate (% of surface)".into(),
        format!("{:.1}", 100.0 * largest / sphere_area),
    ));
    Ok(())
}

/// A colour per plate: twelve distinct hues, darkened for plates past the twelfth.
fn palette(p: u32) -> [u8; 3] {
    const P: [[u8; 3]; 12] = [
        [76, 114, 176],
        [221, 132, 82],
        [85, 168, 104],
        [196, 78, 82],
        [129, 114, 179],
        [147, 120, 96],
        [218, 139, 195],
        [140, 140, 140],
        [204, 185, 116],
        [100, 181, 205],
        [60, 90, 60],
        [230, 200, 150],
    ];
    let base = P[(p as usize) % P.len()];
    let shade = ((p as usize / P.len()) % 3) as u8 * 25;
    base.map(|c| c.saturating_sub(shade))
}

/// `planet.png`: both hemispheres, plates coloured, borders drawn, the largest plates named.
pub(super) fn render_planet(world: &World, cfg: &DemoConfig) -> Result<PathBuf, DemoError> {
    let mesh = world.mesh();
    let posf: Vec<Vec3> = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let plates = world.layer(&PLATE).expect("kept").as_slice();
    let colors: Vec<[u8; 3]> = plates.iter().map(|&p| palette(p)).collect();
    let globe = GlobeOptions {
        width: cfg.image_width,
        height: cfg.image_width / 2,
        borders: Borders::Regions(plates),
        ..Default::default()
    };
    let mut img = export::render::render_globe(mesh, &posf, &colors, &globe)
        .map_err(|e| err("render")(&e))?;
    super::pictures::decorate_plates(&mut img, &globe, mesh, &posf, plates, cfg.radius)
        .map_err(|e| err("render")(&e))?;
    let png = cfg.out.join("planet.png");
    img.save_png(&png).map_err(|e| err("planet.png")(&e))?;
    Ok(png)
}

/// `planet_mesh.png`: a close-up of the edited region (cells, triangles, the edited vertices
/// ringed, a legend), rendered right after the edits, while their ids still name them.
pub(super) fn render_closeup(
    world: &World,
    cfg: &DemoConfig,
    edited: &Edited,
) -> Result<PathBuf, DemoError> {
    let mesh = world.mesh();
    let posf: Vec<Vec3> = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let plates = world.layer(&PLATE).expect("kept").as_slice();
    let colors: Vec<[u8; 3]> = plates.iter().map(|&p| palette(p)).collect();
    // Centred on the edited vertices (their mean direction), or the seed they surround.
    let seed = posf[edited.seeds[0].index()].normalize();
    let center = edited
        .touched
        .iter()
        .map(|v| posf[v.index()].normalize())
        .sum::<Vec3>()
        .try_normalize()
        .unwrap_or(seed);
    let angle = closeup_extent(center, &posf, &edited.touched, mesh.vertex_count());
    let closeup = CloseupOptions {
        colors: Some(&colors),
        size: (cfg.image_width / 2).max(256),
        highlight: edited.touched.clone(),
        caption: format!(
            "Edits near plate 0: {} splits, {} collapses, {} flips",
            edited.splits, edited.collapses, edited.flips
        ),
        ..Default::default()
    };
    let img = export::render::render_mesh_closeup(mesh, &posf, center, angle, &closeup)
        .map_err(|e| err("render closeup")(&e))?;
    let png_mesh = cfg.out.join("planet_mesh.png");
    img.save_png(&png_mesh)
        .map_err(|e| err("planet_mesh.png")(&e))?;
    Ok(png_mesh)
}

/// The close-up's angular radius: every edited vertex in view with a margin of two cells,
/// at least a few cells across, and within what a gnomonic view can show (small planets),
/// with the mean vertex spacing estimated from the vertex count.
fn closeup_extent(center: Vec3, positions: &[Vec3], touched: &[Vertex], vertices: usize) -> f32 {
    let spacing = (4.0 * std::f32::consts::PI / vertices as f32).sqrt();
    let farthest = touched
        .iter()
        .map(|v| center.angle_between(positions[v.index()].normalize()))
        .fold(0.0f32, f32::max);
    (farthest + 2.0 * spacing).max(4.0 * spacing).min(1.2)
}

/// `planet.glb` (terrain colours, the elevation as the `_ELEVATION` vertex attribute and as
/// relief exaggerated 10×) and `planet.ply` (plate colours).
pub(super) fn export_meshes(world: &World, out: &Path) -> Result<[PathBuf; 2], DemoError> {
    let posf = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let elevation = world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice();
    let terrain =
        export::colormap::terrain_colors(elevation, 0.0, export::colormap::PLANET_TERRAIN_RANGE);
    let glb = out.join("planet.glb");
    let options = GlbOptions {
        colors: Some(&terrain),
        scalar: Some(("_ELEVATION", elevation)),
        // Positions are in km, elevations in m: 10× exaggeration is 0.01 km per m.
        relief: Some(0.01),
    };
    export::gltf::write_glb(&glb, world.mesh(), &posf, &options)
        .map_err(|e| err("planet.glb")(&e))?;
    let plates = world.layer(&PLATE).expect("kept").as_slice();
    let colors: Vec<[u8; 3]> = plates.iter().map(|&p| palette(p)).collect();
    let ply = out.join("planet.ply");
    export::ply::write_ply(&ply, world.mesh(), &posf, Some(&colors))
        .map_err(|e| err("planet.ply")(&e))?;
    Ok([glb, ply])
}

/// `planet.world`, loaded back and compared with the world in memory.
pub(super) fn save_and_reload(world: &World, out: &Path) -> Result<PathBuf, DemoError> {
    let file = out.join("planet.world");
    world.save(&file).map_err(|e| err("planet.world")(&e))?;
    let back = World::load(&file).map_err(|e| err("reload")(&e))?;
    if &back != world {
        return Err(DemoError(
            "the reloaded world differs from the saved one".into(),
        ));
    }
    Ok(file)
}
