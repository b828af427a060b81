//! Reading and writing the simulation's vertex layers: whole copies, borrows, and writes of
//! listed vertices only.

use super::{TectonicsError, world_err};
use layers::{LayerInfo, VertexKind};
use quadedge::Vertex;
use world::World;

/// A copy of a vertex layer.
pub(super) fn read<T: layers::LayerValue + Clone>(
    world: &World,
    info: &LayerInfo<T, VertexKind>,
) -> Result<Vec<T>, TectonicsError> {
    world
        .layer(info)
        .map(|l| l.to_vec())
        .ok_or_else(|| TectonicsError::World(format!("no `{}` layer", info.name())))
}

/// Writes a whole vertex layer.
pub(super) fn write<T: layers::LayerValue + Copy>(
    world: &mut World,
    info: &LayerInfo<T, VertexKind>,
    values: &[T],
) -> Result<(), TectonicsError> {
    let mut g = world.lock_layer(info).map_err(world_err(info.name()))?;
    let s = g.as_mut_slice();
    let n = s.len().min(values.len());
    s[..n].copy_from_slice(&values[..n]);
    g.commit()
        .map_err(|e| TectonicsError::World(format!("{}: {e}", info.name())))
}

/// A vertex layer of the world, borrowed.
pub(super) fn slice<'w, T: layers::LayerValue>(
    world: &'w World,
    info: &LayerInfo<T, VertexKind>,
) -> Result<&'w [T], TectonicsError> {
    world
        .layer(info)
        .map(|l| l.as_slice())
        .ok_or_else(|| TectonicsError::World(format!("no `{}` layer", info.name())))
}

/// Sets a vertex layer at the listed vertices to `value(k)` for the k-th, at the cost of the
/// list (the world writes in place: no copy of the layer).
pub(super) fn set<T: layers::LayerValue + Copy>(
    world: &mut World,
    info: &LayerInfo<T, VertexKind>,
    vertices: &[Vertex],
    value: impl Fn(usize) -> T,
) -> Result<(), TectonicsError> {
    world
        .set_layer_values(info, vertices, value)
        .map_err(|e| TectonicsError::World(format!("{}: {e}", info.name())))
}
