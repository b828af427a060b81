//! The surface stages on `cargo xtask map`'s flat world, and its pictures: cells coloured
//! and hillshaded, rivers drawn by drained area, a scale bar and (for biomes) a legend.

use export::Image;
use export::colormap::ColorMap;
use export::render::{ColorKey, Corner, LegendItem, Place, Projection};
use glam::Vec3;
use plane::PlanarMap;
use std::error::Error;
use surface::{Cells, Geometry, Surface, SurfaceOptions};
use world::World;

/// Metres per unit of the map world's elevation (about −1..1).
const METRES: f32 = 2500.0;
/// The latitude of the map's middle (degrees).
const LATITUDE: f64 = 40.0;
/// Rivers drain at least this many km².
const RIVER_KM2: f64 = 1500.0;
const WATER: [u8; 3] = surface::RIVER_COLOR;

/// Runs the stages on the map (one unit is one km), writes the surface layers into `world`
/// and the eroded elevation back into its elevation layer.
///
/// # Errors
/// The stages' errors, or a world that refuses a layer.
pub fn run(world: &mut World, map: &PlanarMap) -> Result<Surface, Box<dyn Error>> {
    let elevation: Vec<f32> = world
        .layer(&plane::ELEVATION)
        .ok_or("the map world has no elevation layer")?
        .as_slice()
        .iter()
        .map(|e| e * METRES)
        .collect();
    let mid = f64::midpoint(map.rect.min.y, map.rect.max.y);
    let geometry = Geometry::Plane {
        km_per_unit: 1.0,
        lat_at_y0_deg: LATITUDE - mid / 111.0,
        deg_per_unit: 1.0 / 111.0,
    };
    let cells = Cells::with_exterior(&map.mesh, &map.positions, geometry, &[map.ghost])?;
    let options = SurfaceOptions {
        river_threshold_km2: RIVER_KM2,
        ..SurfaceOptions::default()
    };
    let s = surface::run(&cells, &elevation, None, &options)?;
    surface::world_layers::write_surface_layers(world, &s)?;
    let units: Vec<f32> = s.elevation.iter().map(|e| e / METRES).collect();
    surface::world_layers::write_layer(world, &plane::ELEVATION, &units)?;
    Ok(s)
}

/// The elevation range (m) of the terrain colours and their key.
const TERRAIN_RANGE: (f32, f32) = (-2500.0, 3000.0);

/// Terrain colours of the eroded elevation (sea level 0 m).
pub fn terrain_colours(s: &Surface) -> Vec<[u8; 3]> {
    export::colormap::terrain_colors(&s.elevation, 0.0, TERRAIN_RANGE)
}

/// The map's picture: `colours` hillshaded by the eroded relief, rivers, a scale bar and,
/// with `legend`, the biomes' legend, else the key of [`terrain_colours`].
///
/// # Errors
/// The renderers' errors.
pub fn picture(
    map: &PlanarMap,
    cells: &plane::VoronoiCells,
    s: &Surface,
    colours: &[[u8; 3]],
    width_px: u32,
    legend: bool,
) -> Result<Image, Box<dyn Error>> {
    let xy: Vec<[f64; 2]> = map.positions.iter().map(|p| [p.x, p.y]).collect();
    // The sea is drawn flat: its noise would read as clouds.
    let land: Vec<f32> = s.elevation.iter().map(|e| e.max(0.0)).collect();
    let shade = export::render::planar_hillshade(&map.mesh, &xy, &land, Some(map.ghost), 1.0)?;
    let shaded: Vec<[u8; 3]> = colours
        .iter()
        .zip(&shade)
        .map(|(c, f)| c.map(|x| (f32::from(x) * f.max(0.4)).round().clamp(0.0, 255.0) as u8))
        .collect();
    let real = map.ghost.index();
    let (lo, hi) = (map.rect.min, map.rect.max);
    let bounds = [lo.x, lo.y, hi.x, hi.y];
    let mut img = export::map::render_cells(
        bounds,
        &cells.offsets,
        &cells.points,
        &shaded,
        width_px,
        [20, 40, 110],
    )?;
    let proj = Projection::Plane {
        bounds,
        width: img.width,
        height: img.height,
    };
    let pos = |c: u32| {
        let p = map.positions[c as usize];
        Vec3::new(p.x as f32, p.y as f32, 0.0)
    };
    let segments: Vec<([Vec3; 2], f32)> = s
        .rivers
        .iter()
        .flat_map(|r| r.cells.windows(2))
        .filter(|w| w[1] != map.ghost.index() as u32)
        .map(|w| {
            let a = s.drainage.drained_km2[w[0] as usize];
            let width = 0.8 + 1.3 * (a / RIVER_KM2).max(1.0).log10() as f32;
            ([pos(w[0]), pos(w[1])], width)
        })
        .collect();
    export::render::draw_segments(&mut img, &proj, &segments, WATER, 0.95);
    let km_per_px = (hi.x - lo.x) / f64::from(img.width);
    let bar = img.width / 6;
    export::render::draw_scale_bar(
        &mut img,
        Place::at(Corner::BottomRight),
        km_per_px,
        bar,
        "",
        1,
    )?;
    if legend {
        let items: Vec<LegendItem<'_>> = surface::legend(&s.biome[..real])
            .into_iter()
            .map(Into::into)
            .collect();
        export::render::draw_legend(&mut img, Place::at(Corner::TopLeft), "BIOMES", &items, 8, 1)?;
    } else {
        let key = ColorKey {
            title: "ELEVATION (M)",
            map: ColorMap::Terrain { sea_level: 0.0 },
            range: TERRAIN_RANGE,
            ticks: &[-2000.0, 0.0, 1000.0, 2000.0, 3000.0],
        };
        export::render::draw_color_bar(&mut img, Place::at(Corner::TopLeft), &key, 200, 1)?;
    }
    Ok(img)
}
