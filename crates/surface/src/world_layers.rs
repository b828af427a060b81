//! The surface layers of a world, declared once, and thin helpers that move the results of
//! [`run`](crate::run) into a world.

use crate::drainage::NONE;
use crate::error::SurfaceError;
use crate::pipeline::Surface;
use layers::{Interpolation, LayerInfo, LayerValue, OnChange, VertexKind};
use world::World;

/// The vertex each vertex drains to, `u32::MAX` where water leaves; vertex ids mean nothing
/// after an edit, so any change resets the whole layer.
pub const FLOW: LayerInfo<u32, VertexKind> = LayerInfo::new("flow")
    .initial(NONE)
    .interpolation(Interpolation::ResetLayer)
    .on_change(OnChange::ResetAll);
/// Land area drained through each vertex (km²).
pub const DRAINED_AREA: LayerInfo<f32, VertexKind> =
    LayerInfo::new("drained_area").interpolation(Interpolation::Lerp);
/// Mean discharge of rivers (m³/s), 0 off rivers.
pub const RIVER_DISCHARGE: LayerInfo<f32, VertexKind> =
    LayerInfo::new("river_discharge").interpolation(Interpolation::MinValue);
/// Annual mean temperature (°C).
pub const TEMPERATURE: LayerInfo<f32, VertexKind> =
    LayerInfo::new("temperature").interpolation(Interpolation::Lerp);
/// Annual precipitation (mm).
pub const PRECIPITATION: LayerInfo<f32, VertexKind> =
    LayerInfo::new("precipitation").interpolation(Interpolation::Lerp);
/// Biome code ([`crate::Biome::code`]); a new vertex takes the biome of the heavier side.
pub const BIOME: LayerInfo<u8, VertexKind> =
    LayerInfo::new("biome").interpolation(Interpolation::MaxWeight);

/// Writes one per-slot slice into a world layer (created if missing).
///
/// # Errors
/// [`SurfaceError::Layer`] when the world refuses the layer (another type of the same name),
/// [`SurfaceError::LengthMismatch`] when `values` is not one per vertex slot. Nothing is
/// written on error.
pub fn write_layer<T: LayerValue>(
    world: &mut World,
    info: &LayerInfo<T, VertexKind>,
    values: &[T],
) -> Result<(), SurfaceError> {
    let slots = world.mesh().vertex_slots();
    if values.len() != slots {
        return Err(SurfaceError::LengthMismatch {
            what: "layer values",
            expected: slots,
            got: values.len(),
        });
    }
    let mut layer = world.lock_layer(info).map_err(|e| SurfaceError::Layer {
        name: info.name().to_string(),
        reason: e.to_string(),
    })?;
    layer.as_mut_slice().clone_from_slice(values);
    layer.commit().map_err(|e| SurfaceError::Layer {
        name: info.name().to_string(),
        reason: e.to_string(),
    })
}

/// Writes the flow, drained area, river discharge, temperature, precipitation and biome
/// layers of `surface` into `world`.
///
/// # Errors
/// Those of [`write_layer`]; layers written before a failing one stay written (each is a
/// separate, undoable change of the world).
pub fn write_surface_layers(world: &mut World, surface: &Surface) -> Result<(), SurfaceError> {
    let f = |x: &[f64]| x.iter().map(|&v| v as f32).collect::<Vec<f32>>();
    write_layer(world, &FLOW, &surface.drainage.receiver)?;
    write_layer(world, &DRAINED_AREA, &f(&surface.drainage.drained_km2))?;
    write_layer(world, &RIVER_DISCHARGE, &surface.river)?;
    write_layer(world, &TEMPERATURE, &surface.climate.temperature_c)?;
    write_layer(world, &PRECIPITATION, &surface.climate.precipitation_mm)?;
    write_layer(world, &BIOME, &surface.biome)
}
