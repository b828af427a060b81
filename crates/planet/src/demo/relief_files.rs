//! Pictures and files of the relief: animation frames, `elevation.png` (the globe coloured by
//! elevation with hillshading), `heightmap.png` (16-bit equirectangular) and `evolution.png`
//! (an animated PNG, one frame per step).

use super::{DemoConfig, DemoError, ELEVATION, POSITION, err};
use export::colormap::{ColorMap, colorize};
use export::{GlobeOptions, Image, Shading};
use quadedge::Mesh;
use std::path::PathBuf;
use world::World;

/// The elevation range (m) the colours span, fixed so that frames compare across steps.
pub(super) const COLOR_RANGE: (f32, f32) = (-7000.0, 6000.0);
/// How long each animation frame shows (ms).
const FRAME_MS: u16 = 250;
/// Widest animation frame (the animation holds one per step).
const MAX_FRAME_WIDTH: u32 = 768;

/// Terrain colours of the world's elevation (sea level 0 m).
pub(super) fn terrain_colors(elevation: &[f32]) -> Vec<[u8; 3]> {
    colorize(
        elevation,
        &ColorMap::Terrain { sea_level: 0.0 },
        COLOR_RANGE,
    )
}

/// The globe coloured by elevation (the value interpolated across triangles, then mapped, so
/// coastlines stay sharp) and hillshaded.
fn globe(world: &World, width: u32, samples: u32) -> Result<Image, DemoError> {
    let posf = export::positions_f32(world.layer(&POSITION).expect("kept").as_slice());
    let elevation = world
        .layer(&ELEVATION)
        .expect("made by the relief")
        .as_slice();
    let colors = terrain_colors(elevation);
    let options = GlobeOptions {
        width,
        height: width / 2,
        samples,
        shading: Shading::Mapped {
            map: ColorMap::Terrain { sea_level: 0.0 },
            range: COLOR_RANGE,
        },
        hillshade: 1.0,
        relief: Some(elevation),
        ..Default::default()
    };
    export::render::render_globe(world.mesh(), &posf, &colors, &options)
        .map_err(|e| err("render elevation")(&e))
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
    // 2×2 samples per pixel: the colours are interpolated, so more buy little.
    globe(world, cfg.image_width, 2)?
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
