//! A map world: the ghost-closed mesh with positions and an elevation.

use crate::{PlanarMap, PlaneError, ValueNoise, poisson_disc, triangulate};
use glam::DVec2;
use layers::{Interpolation, LayerInfo, VertexKind};
use quadedge::Vertex;
use world::World;

/// Vertex positions, `z = 0`; the ghost holds the bounding box's centre (a placeholder).
pub use world::PLANE_POSITION as POSITION;

/// Vertex elevation: positive is land, negative is water ([`SEA_LEVEL`]); the ghost holds
/// `-1` (open sea beyond the edge).
pub const ELEVATION: LayerInfo<f32, VertexKind> =
    LayerInfo::new("elevation").interpolation(Interpolation::Lerp);

/// Water lies below this elevation.
pub const SEA_LEVEL: f32 = 0.0;

/// How a map world is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapOptions {
    /// Rectangle width.
    pub width: f64,
    /// Rectangle height.
    pub height: f64,
    /// Minimum distance between points.
    pub spacing: f64,
    /// Seeds the points, the noise and the world's generator.
    pub seed: u64,
}

/// Elevation at `p` in `rect`: a rise from an ellipse inside the edge (water along the
/// border), its shore warped by coarse noise so the land is not a rounded rectangle, plus
/// value noise.
fn elevation(noise: &ValueNoise, size: DVec2, p: DVec2) -> f32 {
    let short = size.x.min(size.y);
    let q = (p - size / 2.0) / (size / 2.0);
    let warp = noise.fbm(p * (1.5 / short) + DVec2::splat(17.3), 3);
    let r = q.length() + 0.4 * warp;
    let t = ((1.0 - r) / 0.45).clamp(0.0, 1.0);
    let rise = t * t * (3.0 - 2.0 * t);
    let n = noise.fbm(p * (4.0 / short), 5);
    (0.8 * rise + 0.55 * n - 0.3) as f32
}

/// A map world: Poisson-disc points, their ghost-closed planar Delaunay mesh, the
/// [`POSITION`] and [`ELEVATION`] layers. Returns the map beside it (its `mesh` is the
/// world's).
///
/// # Errors
/// Those of [`poisson_disc`] (checked before any work) and [`triangulate`].
///
/// ```
/// let o = plane::MapOptions { width: 30.0, height: 20.0, spacing: 1.0, seed: 4 };
/// let (world, map) = plane::map_world(&o).unwrap();
/// assert_eq!(world.mesh(), &map.mesh);
/// let e = world.layer(&plane::ELEVATION).unwrap();
/// assert_eq!(e[map.ghost], -1.0);
/// ```
pub fn map_world(options: &MapOptions) -> Result<(World, PlanarMap), PlaneError> {
    let pts = poisson_disc(options.width, options.height, options.spacing, options.seed)?;
    let map = triangulate(&pts.points)?;
    let noise = ValueNoise::new(options.seed);
    let size = pts.rect.size();
    let mut world = World::new(map.mesh.clone(), options.seed);
    {
        let mut pos = world
            .lock_layer(&POSITION)
            .map_err(|_| PlaneError::NotPlanarMap("position layer"))?;
        for (v, p) in map.positions.iter().enumerate() {
            pos[Vertex::new(v as u32)] = *p;
        }
        // No range on the position layer: nothing to refuse.
        pos.commit()
            .map_err(|_| PlaneError::NotPlanarMap("position layer"))?;
    }
    {
        let mut elev = world
            .lock_layer(&ELEVATION)
            .map_err(|_| PlaneError::NotPlanarMap("elevation layer"))?;
        for (v, p) in map.positions.iter().enumerate() {
            let v = Vertex::new(v as u32);
            elev[v] = if v == map.ghost {
                -1.0
            } else {
                elevation(&noise, size, p.truncate())
            };
        }
        elev.commit()
            .map_err(|_| PlaneError::NotPlanarMap("elevation layer"))?;
    }
    Ok((world, map))
}
