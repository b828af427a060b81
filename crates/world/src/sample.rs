//! A sample world: the eight layers a typical planet carries, filled with simple values.
//! One definition of "a world with 8 layers" for examples, benchmarks and file-size
//! measurements, and a quick look at how layers are declared.
//!
//! ```
//! use world::sample::{HEIGHT, eight_layer_world};
//! let (n, tris) = quadedge::shapes::icosahedron_grid(4);
//! let world = eight_layer_world(quadedge::Mesh::from_triangles(n, &tris).unwrap()).unwrap();
//! let height = world.try_layer(&HEIGHT).unwrap().unwrap();
//! assert_eq!(height[quadedge::Vertex::new(3)], 3.0);
//! ```

use crate::{LayerInfo, World, WorldError};
use glam::DVec3;
use layers::{EdgeKind, FaceKind, Interpolation, VertexKind};
use quadedge::Mesh;

/// A vertex point per vertex (not a geometry: the sample world has no positions), blended
/// along great circles.
pub const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("point").interpolation(Interpolation::Slerp);
/// Vertex heights.
pub const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
/// Vertex temperatures.
pub const TEMPERATURE: LayerInfo<f32, VertexKind> = LayerInfo::new("temperature");
/// Vertex moisture.
pub const MOISTURE: LayerInfo<f32, VertexKind> = LayerInfo::new("moisture");
/// The plate of each vertex.
pub const PLATE: LayerInfo<u32, VertexKind> = LayerInfo::new("plate");
/// Per edge, the distance to the nearest plate boundary (`-1` before it is computed).
pub const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);
/// Per edge, a flow.
pub const FLOW: LayerInfo<f32, EdgeKind> = LayerInfo::new("flow");
/// Per face, its circumcentre.
pub const CENTER: LayerInfo<DVec3, FaceKind> = LayerInfo::new("circumcenter");

/// A world on `mesh` (seed 1) with the eight layers above: position and height vary with the
/// vertex id (`(i, i, i)` and `i`), the others are constant.
///
/// # Errors
/// Those of [`World::lock_layer`] (none for a fresh world).
pub fn eight_layer_world(mesh: Mesh) -> Result<World, WorldError> {
    let mut w = World::new(mesh, 1);
    w.update_layer(&POSITION, |l| {
        for (i, p) in l.as_mut_slice().iter_mut().enumerate() {
            *p = DVec3::splat(i as f64);
        }
    })?;
    w.update_layer(&HEIGHT, |l| {
        for (i, h) in l.as_mut_slice().iter_mut().enumerate() {
            *h = i as f32;
        }
    })?;
    w.update_layer(&TEMPERATURE, |l| l.fill(15.0))?;
    w.update_layer(&MOISTURE, |l| l.fill(0.5))?;
    w.update_layer(&PLATE, |l| l.fill(3))?;
    w.update_layer(&DISTANCE, |l| l.fill(1.0))?;
    w.update_layer(&FLOW, |l| l.fill(0.0))?;
    w.update_layer(&CENTER, |l| l.fill(DVec3::ONE))?;
    Ok(w)
}
