//! `cargo xtask map`: a flat map world (Poisson-disc points, exact planar Delaunay closed by a
//! ghost vertex, elevation from the distance to the edge plus noise), run through the surface
//! stages (drainage, erosion, climate, rivers, biomes; one map unit is one km, the map sits at
//! 40° N), written as `DIR/map.png` (Voronoi cells coloured by elevation, hillshaded, with
//! rivers and a scale bar), `DIR/map_biomes.png` (the same by biome, with a legend),
//! `DIR/map.obj` (the real triangles) and `DIR/map.world` (with the surface layers).

use crate::map_surface;
use std::error::Error;
use std::path::Path;
use std::time::Instant;

/// The longer side of `map.png`, in pixels.
const IMAGE_SIDE: f64 = 1024.0;

/// Generates the map and writes its three files into `out` (created if missing). Arguments
/// are checked before any work or file system change.
///
/// # Errors
/// A clear message for a width, height or spacing that is not positive and finite, a map of
/// more than `plane::MAX_POINTS` points, and any failure to build or write.
pub fn run(
    width: f64,
    height: f64,
    spacing: f64,
    seed: u64,
    out: &Path,
) -> Result<(), Box<dyn Error>> {
    plane::validate(width, height, spacing)?;
    if out.exists() && !out.is_dir() {
        return Err(format!("{} exists and is not a directory", out.display()).into());
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let t = Instant::now();
    let options = plane::MapOptions {
        width,
        height,
        spacing,
        seed,
    };
    let (mut world, map) = plane::map_world(&options)?;
    let build = t.elapsed();

    let t = Instant::now();
    let surface = map_surface::run(&mut world, &map)?;
    let cells = plane::voronoi_cells(&map, map.rect, &Default::default());
    let elevation = world
        .layer(&plane::ELEVATION)
        .ok_or("the map world has no elevation layer")?;
    let width_px = if width >= height {
        IMAGE_SIDE
    } else {
        (IMAGE_SIDE * width / height).round().max(1.0)
    } as u32;
    let terrain = map_surface::terrain_colours(&surface);
    let biomes = surface::biome_colors(&surface.biome);
    for (file, colours, legend) in [
        ("map.png", &terrain, false),
        ("map_biomes.png", &biomes, true),
    ] {
        let image = map_surface::picture(&map, &cells, &surface, colours, width_px, legend)?;
        image.save_png(out.join(file))?;
    }
    // The ghost is the last vertex: the real vertices keep their ids in the OBJ.
    let real = map.ghost.index();
    let xy: Vec<[f64; 2]> = map.positions[..real].iter().map(|p| [p.x, p.y]).collect();
    export::map::write_map_obj(out.join("map.obj"), &xy, &map.real_triangles())?;
    world.save(out.join("map.world"))?;
    let write = t.elapsed();

    let land = map
        .mesh
        .vertices()
        .filter(|&v| !map.is_ghost_vertex(v) && elevation[v] >= plane::SEA_LEVEL)
        .count();
    println!(
        "map {width} × {height}, spacing {spacing}, seed {seed}: {} points ({} on the hull), {} real triangles, {:.0}% land",
        real,
        map.mesh.degree(map.ghost),
        map.real_faces().count(),
        100.0 * land as f64 / real as f64
    );
    println!(
        "  built in {:.1} ms, written to {} in {:.1} ms",
        build.as_secs_f64() * 1e3,
        out.display(),
        write.as_secs_f64() * 1e3
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn writes_three_files_and_refuses_bad_arguments() {
        let dir = std::env::temp_dir().join(format!("xtask-map-{}", std::process::id()));
        run(12.0, 8.0, 1.0, 3, &dir).unwrap();
        for f in ["map.png", "map_biomes.png", "map.obj", "map.world"] {
            assert!(dir.join(f).metadata().unwrap().len() > 0, "{f}");
        }
        let back = world::World::load(dir.join("map.world")).unwrap();
        assert!(back.layer(&plane::ELEVATION).is_some());
        assert!(back.layer(&surface::world_layers::BIOME).is_some());
        let missing = dir.join("never");
        for (w, h, s) in [
            (0.0, 1.0, 0.1),
            (1.0, f64::NAN, 0.1),
            (1.0, 1.0, -1.0),
            (1e6, 1e6, 0.01),
        ] {
            assert!(run(w, h, s, 0, &missing).is_err());
        }
        assert!(!missing.exists(), "no directory made for refused arguments");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
