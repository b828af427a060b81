//! From relief to a world: drainage, erosion, climate and biomes on the demo's planet
//! (crate `surface`), their layers added to the world, and the files that show them:
//! `biomes.png` (the globe by biome with rivers, graticule, names, legend and scale),
//! `biomes_equirect.png` (the same on the heightmap's grid), `rivers.json` (every river from
//! source to mouth) and `biomes.glb` (biome and river colours per vertex).

use super::ELEVATION;
use super::pictures::{Sheet, clear_of, draw_labels, landmass_labels};
use super::{DemoConfig, DemoError, POSITION, Report, err};
use export::render::{Corner, EquirectOptions, LegendItem, Place, Projection};
use export::{GlobeOptions, Image};
use glam::{DVec3, Vec3};
use layers::{Interpolation, LayerInfo, VertexKind};
use std::fmt::Write as _;
use std::time::Instant;
use surface::{ALL_BIOMES, Biome, Cells, Geometry, Surface, SurfaceOptions};
use world::World;

/// The elevation after fluvial erosion (m): valleys cut by the rivers. The tectonic
/// `elevation` layer stays as the plates built it.
pub const ERODED_ELEVATION: LayerInfo<f32, VertexKind> =
    LayerInfo::new("eroded_elevation").interpolation(Interpolation::Lerp);

/// Rivers drain at least this many km², and at least [`RIVER_CELLS`] mean cells (so coarse
/// planets do not call every land cell a river).
const RIVER_KM2: f64 = 40_000.0;
/// See [`RIVER_KM2`].
const RIVER_CELLS: f64 = 8.0;
/// Colour of rivers on the pictures.
const WATER: [u8; 3] = surface::RIVER_COLOR;
/// Rivers thinner than this on the globe are not drawn.
const MIN_WIDTH: f32 = 0.6;

/// Runs the surface stages on `world`, adds their layers and writes the four files. Reports
/// the step's time, its facts and files.
///
/// # Errors
/// A [`DemoError`] naming the stage or file that failed.
pub(super) fn write(
    world: &mut World,
    cfg: &DemoConfig,
    report: &mut Report,
) -> Result<(), DemoError> {
    let clock = Instant::now();
    let pos: Vec<DVec3> = world.layer(&POSITION).expect("kept").as_slice().to_vec();
    let tectonic: Vec<f32> = world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice()
        .to_vec();
    let geometry = Geometry::Sphere {
        radius_km: cfg.radius,
    };
    let cells = Cells::new(world.mesh(), &pos, geometry).map_err(|e| err("surface")(&e))?;
    let cell_km2 =
        4.0 * std::f64::consts::PI * cfg.radius * cfg.radius / cells.live_cells().count() as f64;
    let threshold = RIVER_KM2.max(RIVER_CELLS * cell_km2);
    let options = SurfaceOptions {
        river_threshold_km2: threshold,
        ..SurfaceOptions::default()
    };
    let s = surface::run(&cells, &tectonic, None, &options).map_err(|e| err("surface")(&e))?;
    surface::world_layers::write_surface_layers(world, &s).map_err(|e| err("layers")(&e))?;
    surface::world_layers::write_layer(world, &ERODED_ELEVATION, &s.elevation)
        .map_err(|e| err("layers")(&e))?;

    let posf = export::positions_f32(&pos);
    let colors = biome_colors(&s);
    let mut files = Vec::new();
    let globe = cfg.out.join("biomes.png");
    biome_globe(world, &posf, &s, cfg, threshold)?
        .save_png(&globe)
        .map_err(|e| err("biomes.png")(&e))?;
    files.push(globe);
    let map = cfg.out.join("biomes_equirect.png");
    biome_map(world, &posf, &s, cfg, threshold)?
        .save_png(&map)
        .map_err(|e| err("biomes_equirect.png")(&e))?;
    files.push(map);
    let json = cfg.out.join("rivers.json");
    std::fs::write(&json, rivers_json(&s, &pos)).map_err(|e| err("rivers.json")(&e))?;
    files.push(json);
    let glb = cfg.out.join("biomes.glb");
    export::gltf::write_glb(
        &glb,
        world.mesh(),
        &posf,
        &export::gltf::GlbOptions::colors(&colors),
    )
    .map_err(|e| err("biomes.glb")(&e))?;
    files.push(glb);

    facts(&cells, &s, &tectonic, report);
    report.steps.push((
        "drainage, erosion, climate, biomes".into(),
        clock.elapsed().as_secs_f64(),
    ));
    for f in files {
        let size = std::fs::metadata(&f).map(|m| m.len()).unwrap_or(0);
        let name = f.file_name().map(|s| s.to_string_lossy().into_owned());
        report.files.push((name.unwrap_or_default(), size));
    }
    Ok(())
}

/// The tectonic elevation (m): the landmasses are named after it on every picture, so the
/// same letter names the same land.
fn tectonic_elevation(world: &World) -> &[f32] {
    world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice()
}

/// Biome colours per vertex, rivers and lakes painted in water blue.
fn biome_colors(s: &Surface) -> Vec<[u8; 3]> {
    (0..s.biome.len())
        .map(|v| {
            let b = Biome::from_code(s.biome[v]).unwrap_or(Biome::Ocean);
            if s.river[v] > 0.0 { WATER } else { b.color() }
        })
        .collect()
}

/// Rivers as two-point polylines, each as wide as the discharge where it starts: about
/// one pixel at the threshold, growing with the logarithm of the drained area.
fn river_segments(s: &Surface, posf: &[Vec3], scale: f32, threshold: f64) -> Vec<([Vec3; 2], f32)> {
    let mut out = Vec::new();
    for r in &s.rivers {
        for w in r.cells.windows(2) {
            let a = s.drainage.drained_km2[w[0] as usize];
            let width = scale * (0.7 + 1.1 * (a / threshold).max(1.0).log10() as f32);
            if width >= MIN_WIDTH {
                out.push((
                    [posf[w[0] as usize], posf[w[1] as usize]],
                    width.min(6.0 * scale),
                ));
            }
        }
    }
    out
}

fn draw_rivers(img: &mut Image, proj: &Projection, segments: &[([Vec3; 2], f32)]) {
    export::render::draw_segments(img, proj, segments, WATER, 0.95);
}

/// The legend: the biomes that occur, then rivers.
fn legend_items(s: &Surface) -> Vec<LegendItem<'static>> {
    surface::legend(&s.biome)
        .into_iter()
        .map(Into::into)
        .collect()
}

/// `biomes.png`: both hemispheres by biome, hillshaded by the eroded relief, with rivers,
/// a 30° graticule, the largest landmasses named, and below them a strip with the legend and
/// the scale.
fn biome_globe(
    world: &World,
    posf: &[Vec3],
    s: &Surface,
    cfg: &DemoConfig,
    threshold: f64,
) -> Result<Image, DemoError> {
    let w = cfg.image_width;
    let options = GlobeOptions {
        width: w,
        height: w / 2,
        samples: 2,
        hillshade: 1.2,
        relief: Some(&s.elevation),
        ..Default::default()
    };
    let flat = surface::biome_colors(&s.biome);
    let globe = export::render::render_globe(world.mesh(), posf, &flat, &options)
        .map_err(|e| err("render biomes")(&e))?;
    let mut sheet = Sheet::new(&globe, &options).map_err(|e| err("render biomes")(&e))?;
    let scale = (w as f32 / 2048.0).max(0.35);
    draw_rivers(
        &mut sheet.img,
        &sheet.proj,
        &river_segments(s, posf, scale, threshold),
    );
    sheet
        .label(&landmass_labels(
            world.mesh(),
            posf,
            tectonic_elevation(world),
            cfg.radius,
            Some(options.view),
        ))
        .map_err(|e| err("labels")(&e))?;
    let items = legend_items(s);
    let text = sheet.text;
    export::render::draw_legend(
        &mut sheet.img,
        Sheet::place(Corner::BottomLeft),
        "BIOMES",
        &items,
        3,
        text,
    )
    .map_err(|e| err("legend")(&e))?;
    sheet
        .scale_bar(cfg.radius)
        .map_err(|e| err("scale bar")(&e))?;
    Ok(sheet.img)
}

/// `biomes_equirect.png`: the heightmap's grid and projection, by biome, hillshaded, with
/// coastline shading, rivers, a 30° graticule, the largest landmasses named, the legend and
/// the scale at the equator.
fn biome_map(
    world: &World,
    posf: &[Vec3],
    s: &Surface,
    cfg: &DemoConfig,
    threshold: f64,
) -> Result<Image, DemoError> {
    let (w, h) = (cfg.image_width, cfg.image_width / 2);
    let options = EquirectOptions {
        width: w,
        height: h,
        hillshade: 1.2,
        sea_level: Some(0.0),
        threads: 0,
    };
    let flat = surface::biome_colors(&s.biome);
    // The sea floor is left flat on the map: its shading would read as clouds over the
    // ice and the water (the globe keeps it).
    let land: Vec<f32> = s.elevation.iter().map(|e| e.max(-1.0)).collect();
    let mut img = export::render::render_equirect(world.mesh(), posf, &flat, Some(&land), &options)
        .map_err(|e| err("render biome map")(&e))?;
    let proj = Projection::Equirect {
        width: w,
        height: h,
    };
    let scale = (w as f32 / 2048.0).max(0.35);
    export::render::draw_graticule(&mut img, &proj, 30, [230, 230, 230]);
    draw_rivers(&mut img, &proj, &river_segments(s, posf, scale, threshold));
    let text = if w >= 1600 { 2 } else { 1 };
    let items = legend_items(s);
    let (lw, lh) = export::render::draw_legend(
        &mut img,
        Place::at(Corner::BottomLeft),
        "BIOMES",
        &items,
        items.len().div_ceil(4),
        text,
    )
    .map_err(|e| err("legend")(&e))?;
    let km_per_px = std::f64::consts::TAU * cfg.radius / f64::from(w);
    let (sw, sh) = export::render::draw_scale_bar(
        &mut img,
        Place::at(Corner::BottomRight),
        km_per_px,
        (w / 8).clamp(8, 4096),
        "AT EQUATOR",
        text,
    )
    .map_err(|e| err("scale bar")(&e))?;
    // Place::at puts the panels 10 pixels in from the edges.
    let (wf, hf) = (w as f32, h as f32);
    let panels = [
        [10.0, hf - 10.0 - lh as f32, 10.0 + lw as f32, hf - 10.0],
        [
            wf - 10.0 - sw as f32,
            hf - 10.0 - sh as f32,
            wf - 10.0,
            hf - 10.0,
        ],
    ];
    let names = landmass_labels(
        world.mesh(),
        posf,
        tectonic_elevation(world),
        cfg.radius,
        None,
    );
    let names = clear_of(names, &proj, &panels, text);
    draw_labels(&mut img, &proj, &names, text).map_err(|e| err("labels")(&e))?;
    Ok(img)
}

/// `rivers.json`: `[{"points": [[lat, lon], ...], "drained_km2": A}, ...]`, source to mouth,
/// largest first; degrees in the heightmap's frame (north `+Y`, longitude 0 at `+Z`).
fn rivers_json(s: &Surface, pos: &[DVec3]) -> String {
    let mut out = String::from("[\n");
    for (i, r) in s.rivers.iter().enumerate() {
        out += "  {\"points\": [";
        for (k, &c) in r.cells.iter().enumerate() {
            let p = pos[c as usize].normalize();
            let lat = p.y.clamp(-1.0, 1.0).asin().to_degrees();
            let lon = p.x.atan2(p.z).to_degrees();
            let sep = if k == 0 { "" } else { ", " };
            let _ = write!(out, "{sep}[{lat:.4}, {lon:.4}]");
        }
        let sep = if i + 1 == s.rivers.len() { "" } else { "," };
        let _ = writeln!(out, "], \"drained_km2\": {:.1}}}{sep}", r.drained_km2);
    }
    out += "]\n";
    out
}

/// The report's facts: lakes, rivers, the largest river, erosion, land temperature and the
/// commonest land biomes.
fn facts(cells: &Cells, s: &Surface, tectonic: &[f32], report: &mut Report) {
    let land: Vec<usize> = cells
        .live_cells()
        .filter(|&v| !s.drainage.ocean[v])
        .collect();
    let n = land.len().max(1) as f64;
    let mut f = |k: &str, v: String| report.facts.push((k.into(), v));
    f(
        "lakes / rivers",
        format!("{} / {}", s.drainage.lakes.len(), s.rivers.len()),
    );
    if let Some(r) = s.rivers.first() {
        f(
            "largest river",
            format!(
                "{:.0} km² drained, {:.0} m³/s",
                r.drained_km2, r.discharge_m3s
            ),
        );
    }
    let eroded: f64 = land
        .iter()
        .map(|&v| f64::from(tectonic[v] - s.elevation[v]))
        .sum::<f64>();
    f("mean erosion on land (m)", format!("{:.0}", eroded / n));
    let t: f64 = land
        .iter()
        .map(|&v| f64::from(s.climate.temperature_c[v]))
        .sum::<f64>();
    let p: f64 = land
        .iter()
        .map(|&v| f64::from(s.climate.precipitation_mm[v]))
        .sum::<f64>();
    f(
        "land mean °C / mm per year",
        format!("{:.1} / {:.0}", t / n, p / n),
    );
    let mut counts = vec![0usize; ALL_BIOMES.len()];
    for &v in &land {
        let last = counts.len() - 1;
        counts[usize::from(s.biome[v]).min(last)] += 1;
    }
    let mut top: Vec<(usize, Biome)> = ALL_BIOMES
        .iter()
        .map(|&b| (counts[b.code() as usize], b))
        .collect();
    top.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let list: Vec<String> = top
        .iter()
        .take(4)
        .filter(|(c, _)| *c > 0)
        .map(|(c, b)| format!("{} {:.0}%", b.label(), 100.0 * *c as f64 / n))
        .collect();
    f("land biomes", list.join(", "));
}
