//! # export
//!
//! Getting a planet out of the program: mesh exporters for other tools and a software
//! renderer for quick looks and documentation pictures.
//!
//! * [`obj::write_obj`]: Wavefront OBJ (text, universal).
//! * [`ply::write_ply`]: binary PLY with optional per-vertex colours (compact, exact).
//! * [`gltf::write_glb`]: glTF 2.0 binary with normals and, through [`gltf::GlbOptions`],
//!   vertex colours, a raw scalar attribute (e.g. `_ELEVATION`) and relief (web viewers,
//!   Blender, engines).
//! * [`colormap`]: scalar layers to colours (viridis-, magma-, cividis- and turbo-like maps,
//!   a terrain map with a sea level).
//! * [`heightmap::equirectangular`]: a scalar layer on a 2:1 latitude/longitude grid,
//!   interpolated inside faces, saved as a 16-bit greyscale PNG.
//! * [`apng::save_apng`]: an animated PNG, one frame per simulation step.
//! * [`view::write_view`]: the browser viewer's files (mesh, named layers, per-step frames).
//! * [`render::render_globe`]: both hemispheres side by side, cells coloured (flat or
//!   interpolated), region borders anti-aliased, optional hillshading (all set in
//!   [`GlobeOptions`]); [`render::render_mesh_closeup`]: Delaunay triangles and Voronoi cells
//!   of a small area. Both give an [`Image`] that saves as PNG.
//! * Readable pictures, drawn on a finished [`Image`]: [`render::draw_graticule`] and
//!   [`render::draw_polylines`] (rivers, with widths) through a [`render::Projection`] (the
//!   globe's discs, an equirectangular map or a flat map); [`render::draw_legend`],
//!   [`render::draw_color_bar`] and [`render::draw_scale_bar`] at a corner;
//!   [`render::draw_labels`] (place names that never overlap);
//!   [`render::render_equirect`] (category maps such as biomes on the heightmap's grid,
//!   hillshaded, with coastline shading) and [`render::planar_hillshade`] for flat maps.
//!   Captions use the crate's own 5×7 bitmap font: font crates (`ab_glyph`, `fontdue`)
//!   need a font file shipped and licensed with the crate, which a few capital labels do
//!   not justify.
//!
//! Inputs are plain data, so this crate depends on the topology crate only: any
//! [`quadedge::Topology`] (a [`quadedge::Mesh`] or its [`quadedge::FrozenMesh`]), positions as `&[glam::Vec3]` indexed by vertex id (one per
//! [`Mesh::vertex_slots`](quadedge::Mesh::vertex_slots); dead slots are ignored, see
//! [`positions_f32`] for `DVec3` data) and colours as `&[[u8; 3]]` sRGB, also per slot.
//! Files are written to a temporary sibling and renamed into place, so a failed export never
//! leaves a truncated file; every failure is an [`ExportError`] that names the path.
//!
//! ```
//! use glam::Vec3;
//! let (n, tris) = quadedge::shapes::octahedron();
//! let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
//! let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
//! let mut obj = Vec::new();
//! export::obj::write_obj_to(&mut obj, &mesh, &pos)?;
//! assert_eq!(String::from_utf8(obj).unwrap().lines().filter(|l| l.starts_with("f ")).count(), 8);
//! # Ok::<(), export::ExportError>(())
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod apng;
pub mod colormap;
mod common;
mod error;
pub mod gltf;
pub mod heightmap;
mod image;
mod locate;
pub mod map;
pub mod obj;
pub mod ply;
pub mod render;
pub mod view;

/// The test meshes the integration tests use, for the unit tests too.
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod test_meshes;

pub use common::positions_f32;
pub use error::ExportError;
pub use image::Image;
pub use render::{Borders, CloseupOptions, GlobeOptions, Shading};

/// Compiles and runs the README's example with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
