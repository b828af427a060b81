//! Pictures and files of the relief: animation frames, `elevation.png` (the globe coloured by
//! elevation with hillshading, graticule, names, elevation key and scale), `heightmap.png`
//! (16-bit equirectangular) and `evolution.png` (an animated PNG, one frame per step).

use super::pictures::{Sheet, landmass_labels};
use super::{DemoConfig, DemoError, ELEVATION, POSITION, err};
use export::colormap::{ColorMap, PLANET_TERRAIN_RANGE, terrain_colors};
use export::render::{ColorKey, Corner};
use export::{GlobeOptions, Image, Shading};
use quadedge::Mesh;
use std::path::PathBuf;
use world::World;

/// How long each animation frame shows (ms).
const FRAME_MS: u16 = 250;
/// Widest animation frame (the animation holds one per step).
const MAX_FRAME_WIDTH: u32 = 768;

/// The settings of the elevation globe `width` pixels wide.
fn globe_options(elevation: &[f32], width: u32, samples: u32) -> GlobeOptions<'_> {
    GlobeOptions {
        width,
        height: width / 2,
        samples,
        shading: Shading::Mapped {
            map: ColorMap::Terrain { sea_level: 0.0 },
            range: PLANET_TERRAIN_RANGE,
        },
        hillshade: 1.0,
        relief: Some(elevation),
        ..Default::default()
    }
}

/// The globe coloured by elevation (the value interpolated across triangles, then mapped, so
/// coastlines stay sharp) and hillshaded.
fn globe(world: &World, width: u32, samples: u32) -> Result<Image, DemoError> {
    let posf = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let elevation = world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice();
    let colors = terrain_colors(elevation, 0.0, PLANET_TERRAIN_RANGE);
    let options = globe_options(elevation, width, samples);
    export::render::render_globe(world.mesh(), &posf, &colors, &options)
        .map_err(|e| err("render elevation")(&e))
}

/// `elevation.png`: the globe (2×2 samples per pixel: the colours are interpolated, so more
/// buy little) with a 30° graticule, the largest landmasses named, and below it the
/// elevation key and the scale.
fn elevation_picture(world: &World, cfg: &DemoConfig) -> Result<Image, DemoError> {
    let w = cfg.image_width;
    let globe = globe(world, w, 2)?;
    let posf = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let elevation = world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice();
    let options = globe_options(elevation, w, 2);
    let mut sheet = Sheet::new(&globe, &options).map_err(|e| err("render elevation")(&e))?;
    sheet
        .label(&landmass_labels(
            world.mesh(),
            &posf,
            elevation,
            cfg.radius,
            Some(options.view),
        ))
        .map_err(|e| err("labels")(&e))?;
    let key = ColorKey {
        title: "ELEVATION (M)",
        map: ColorMap::Terrain { sea_level: 0.0 },
        range: PLANET_TERRAIN_RANGE,
        ticks: &[-6000.0, -3000.0, 0.0, 3000.0, 6000.0],
    };
    let text = sheet.text;
    export::render::draw_color_bar(
        &mut sheet.img,
        Sheet::place(Corner::BottomLeft),
        &key,
        (w / 4).clamp(16, 4096),
        text,
    )
    .map_err(|e| err("elevation key")(&e))?;
    sheet
        .scale_bar(cfg.radius)
        .map_err(|e| err("scale bar")(&e))?;
    Ok(sheet.img)
}

/// One animation frame (at most [`MAX_FRAME_WIDTH`] wide, 2×2 samples per pixel).
pub(super) fn frame(world: &World, cfg: &DemoConfig) -> Result<Image, DemoError> {
    globe(world, cfg.image_width.min(MAX_FRAME_WIDTH), 2)
}

/// `elevation.png`, `heightmap.png` (the elevation range mapped onto 0..65535) and, when there
/// are frames, `evolution.png`. Returns the files written and the elevation range.
pub(super) fn write(
    world: &World,
    cfg: &DemoConfig,
    frames: &[Image],
) -> Result<(Vec<PathBuf>, (f32, f32)), DemoError> {
    let mut files = Vec::new();
    let picture = cfg.out.join("elevation.png");
    elevation_picture(world, cfg)?
        .save_png(&picture)
        .map_err(|e| err("elevation.png")(&e))?;
    files.push(picture);

    let posf = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let elevation = world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice();
    let range = elevation_range(world.mesh(), elevation);
    let map = export::heightmap::equirectangular(
        world.mesh(),
        &posf,
        elevation,
        cfg.image_width,
        cfg.image_width / 2,
    )
    .map_err(|e| err("heightmap")(&e))?;
    let heightmap = cfg.out.join("heightmap.png");
    // An empty range (a flat planet) is widened by the exporter.
    map.save_png16(&heightmap, Some(range))
        .map_err(|e| err("heightmap.png")(&e))?;
    files.push(heightmap);

    if !frames.is_empty() {
        let animation = cfg.out.join("evolution.png");
        export::apng::save_apng(&animation, frames, FRAME_MS)
            .map_err(|e| err("evolution.png")(&e))?;
        files.push(animation);
    }
    Ok((files, range))
}

/// Elevation range over the live vertices (`(0, 0)` without any).
pub(super) fn elevation_range(mesh: &Mesh, elevation: &[f32]) -> (f32, f32) {
    let (lo, hi) = mesh
        .vertices()
        .map(|v| elevation[v.index()])
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), h| {
            (a.min(h), b.max(h))
        });
    if lo <= hi { (lo, hi) } else { (0.0, 0.0) }
}
