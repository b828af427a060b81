//! Files and pictures of a world: the exporters of [`export`](crate::export), reading the
//! world's mesh and positions directly.

use crate::Error;
use export::gltf::GlbOptions;
use export::render::GlobeOptions;
use std::path::Path;
use world::{EditError, World};

/// The world's positions, or the error for a world without them.
fn positions(world: &World) -> Result<&[glam::DVec3], Error> {
    match world.positions() {
        [] => Err(Error::Edit(EditError::NoGeometry)),
        p => Ok(p),
    }
}

/// Writes the world as a glTF binary (`.glb`): positions, normals, faces, and what `options`
/// adds (vertex colours, a scalar attribute such as `_ELEVATION`, relief).
///
/// # Errors
/// [`EditError::NoGeometry`] for a world without positions; the exporter's errors.
pub fn write_glb(world: &World, path: impl AsRef<Path>, options: &GlbOptions) -> Result<(), Error> {
    let p: Vec<glam::Vec3> = positions(world)?.iter().map(|p| p.as_vec3()).collect();
    Ok(export::gltf::write_glb(path, world.mesh(), &p, options)?)
}

/// Writes the world as binary PLY with `double` positions (every bit of the world's
/// positions, for exact checkers) and optional vertex colours.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("quadworld-io-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let world = quadworld::World::fibonacci_sphere(500, 1.0, 0.3, 1)?;
/// quadworld::io::write_ply(&world, dir.join("planet.ply"), None)?;
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), quadworld::Error>(())
/// ```
///
/// # Errors
/// As [`write_glb`].
pub fn write_ply(
    world: &World,
    path: impl AsRef<Path>,
    colors: Option<&[[u8; 3]]>,
) -> Result<(), Error> {
    Ok(export::ply::write_ply(
        path,
        world.mesh(),
        positions(world)?,
        colors,
    )?)
}

/// Renders a sphere world as two hemispheres of Voronoi cells coloured by `colors` (one per
/// vertex slot), with the borders, relief and settings of `options`, and writes it as PNG.
///
/// # Errors
/// As [`write_glb`].
pub fn write_globe_png(
    world: &World,
    path: impl AsRef<Path>,
    colors: &[[u8; 3]],
    options: &GlobeOptions<'_>,
) -> Result<(), Error> {
    let p: Vec<glam::Vec3> = positions(world)?.iter().map(|p| p.as_vec3()).collect();
    let image = export::render::render_globe(world.mesh(), &p, colors, options)?;
    Ok(image.save_png(path)?)
}
