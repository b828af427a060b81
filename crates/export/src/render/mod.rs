//! Software renderer: a two-hemisphere globe view and a close-up of the mesh structure.
//!
//! No polygons are rasterised. A pixel's colour is the colour of the Voronoi cell it falls in,
//! i.e. of the nearest site on the sphere, found by a greedy walk over the Delaunay neighbours
//! that starts at the site of the previous sample. On a spherical Delaunay triangulation the
//! greedy walk always ends at the nearest site (if `v` is not the nearest site to `p`, the arc
//! from `v` to `p` leaves the cell of `v` through the cell of a neighbour that is closer to
//! `p`), and consecutive samples are close, so a sample costs one ring scan on average.
//!
//! Files by concept: `globe.rs` and `closeup.rs` are the two pictures, `sites.rs` the
//! nearest-site walk and border arcs they share, `hillshade.rs` the slope lighting of the
//! globe, `raster.rs` the pixel plumbing (colour space,
//! threads, anti-aliased lines and dots) and `font.rs` the tiny bitmap font of captions.
//! What makes a picture readable is drawn afterwards on the finished image: `graticule.rs`
//! (projections, meridians and parallels, polylines such as rivers), `legend.rs` (legends,
//! colour bars, scale bars), `equirect.rs` (flat-coloured equirectangular maps with
//! hillshading and coastline shading) and `draw.rs` (their anti-aliased pixel painter).

mod closeup;
mod draw;
mod equirect;
mod font;
mod globe;
mod graticule;
mod hillshade;
mod labels;
mod legend;
mod plane_shade;
mod raster;
mod sites;

pub use closeup::{CloseupOptions, render_mesh_closeup};
pub use equirect::{EquirectOptions, coast_shading, render_equirect};
pub use globe::{GlobeOptions, Shading, render_globe};
pub use graticule::{
    GlobeLayout, Polyline, Projection, draw_graticule, draw_polylines, draw_segments,
};
pub use labels::{Label, draw_labels};
pub use legend::{
    ColorKey, Corner, LegendItem, Place, draw_color_bar, draw_legend, draw_scale_bar,
};
pub use plane_shade::planar_hillshade;
pub(crate) use raster::{check_size, srgb_to_linear_table};
pub use sites::Borders;
