//! # plane
//!
//! Planar maps on the quad-edge mesh, closed by a ghost vertex: one extra vertex joined to
//! every hull vertex turns the planar triangulation into a closed one, so every edge has two
//! faces and algorithms that walk the mesh never meet a boundary. Ghost faces and edges are
//! recognisable ([`PlanarMap::is_ghost_face`], [`PlanarMap::is_ghost_edge`]) and skipped by the
//! geometric criteria.
//!
//! * [`poisson_disc`]: Bridson's Poisson-disc points in a rectangle, after boundary points
//!   (large rectangles grow their two halves on two threads, deterministically).
//! * [`triangulate`]: the exact planar Delaunay triangulation closed by a ghost vertex, built
//!   directly by incremental insertion over ghost triangles (exact filtered predicates), so
//!   the ghost closure comes with the triangulation; [`triangulate_half_edges`] gives the
//!   flat triangle and twin arrays without the mesh.
//! * [`real_part`]: the map without its ghost, an open mesh; the workspace's one Delaunay
//!   check runs on it (`delaunay::is_delaunay(&delaunay::Plane, &real_part(..)?, ..)`).
//! * [`voronoi_cells`]: Voronoi cells clipped to the rectangle, for drawing.
//! * [`map_world`]: a [`world::World`] with positions and a noisy elevation.
//!
//! ```
//! let pts = plane::poisson_disc(20.0, 10.0, 1.0, 3).unwrap();
//! let map = plane::triangulate(&pts.points).unwrap();
//! assert!(map.mesh.is_closed());
//! map.mesh.check().unwrap();
//! let real = plane::real_part(&map.mesh, map.ghost).unwrap();
//! assert_eq!(delaunay::is_delaunay(&delaunay::Plane, &real, &map.positions), Ok(()));
//! // Euler: V − E + F = 2 with the ghost, so real faces = 2n − 2 − hull vertices.
//! let n = pts.points.len();
//! let hull = map.mesh.degree(map.ghost);
//! assert_eq!(map.real_faces().count(), 2 * n - 2 - hull);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bridson;
mod build;
/// Plumbing not for users (it may change in any release): the ghost-aware flip repair, which
/// the map's own tests drive. The workspace's one `make_delaunay` is `delaunay`'s.
#[doc(hidden)]
pub mod internals {
    pub use crate::repair::make_delaunay_from_edges;
}
mod dual;
mod error;
mod noise;
mod order;
mod points;
mod predicates;
mod real;
mod repair;
mod triangulator;
mod voronoi;
mod world_map;

pub use build::{HalfEdges, triangulate, triangulate_half_edges};
pub use dual::{CellOptions, DUAL_POINT, DualCentre, dual_point, dual_points, set_dual_layer};
pub use error::PlaneError;
pub use noise::ValueNoise;
pub use points::{MAX_POINTS, PoissonPoints, poisson_disc, validate};
pub use real::{RealPart, real_part};
pub use repair::{is_ghost_edge, is_ghost_face};
pub use voronoi::{VoronoiCells, voronoi_cells};
pub use world_map::{ELEVATION, MapOptions, POSITION, SEA_LEVEL, map_world};

use glam::{DVec2, DVec3};
use quadedge::{Edge, Face, Mesh, Vertex};

/// An axis-aligned rectangle `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// The lower-left corner.
    pub min: DVec2,
    /// The upper-right corner.
    pub max: DVec2,
}

impl Rect {
    /// `[0, width] × [0, height]`.
    pub fn new(width: f64, height: f64) -> Self {
        Self {
            min: DVec2::ZERO,
            max: DVec2::new(width, height),
        }
    }

    /// The size.
    pub fn size(&self) -> DVec2 {
        self.max - self.min
    }
}

/// A ghost-closed planar Delaunay triangulation: see [`triangulate`].
#[derive(Clone, Debug, PartialEq)]
pub struct PlanarMap {
    /// The closed mesh: real faces plus one ghost face per hull edge.
    pub mesh: Mesh,
    /// Positions by vertex id, `z = 0`. The ghost's entry is the bounding box's centre: a
    /// finite placeholder, never used geometrically (the ghost stands for the point at
    /// infinity; test with [`PlanarMap::is_ghost_vertex`] before using a position).
    pub positions: Vec<DVec3>,
    /// The ghost vertex.
    pub ghost: Vertex,
    /// The bounding box of the points.
    pub rect: Rect,
    /// Faces `0..solid_faces` are real and the rest are ghosts, as [`triangulate`] numbers
    /// them (Red Blob's ghost range): [`PlanarMap::is_ghost_face`] is then one comparison.
    /// Flips of interior edges keep it; an edit that adds faces or makes a real face a ghost
    /// (flipping a hull edge) does not: after such edits use [`is_ghost_face`].
    pub solid_faces: usize,
}

impl PlanarMap {
    /// Is `v` the ghost?
    pub fn is_ghost_vertex(&self, v: Vertex) -> bool {
        v == self.ghost
    }

    /// Is `f` a ghost face (one corner is the ghost)? By its id alone: ghost faces are
    /// numbered after the real ones ([`PlanarMap::solid_faces`]).
    #[inline]
    pub fn is_ghost_face(&self, f: Face) -> bool {
        f.index() >= self.solid_faces
    }

    /// Is `e` a ghost edge (one end is the ghost)? Two loads of the edge's own endpoints,
    /// no walk: quad-edges are numbered by their lower endpoint (for ring locality), so the
    /// ghost's edges, whose lower endpoint is a hull vertex, cannot form a range.
    #[inline]
    pub fn is_ghost_edge(&self, e: Edge) -> bool {
        is_ghost_edge(&self.mesh, self.ghost, e)
    }

    /// The real (non-ghost) faces: the range `0..solid_faces`.
    pub fn real_faces(&self) -> impl Iterator<Item = Face> + '_ {
        (0..self.solid_faces as u32).map(Face::new)
    }

    /// The real faces as vertex-id triangles, counter-clockwise.
    pub fn real_triangles(&self) -> Vec<[u32; 3]> {
        self.real_faces()
            .map(|f| self.mesh.face_vertices(f).map(|v| v.index() as u32))
            .collect()
    }

    /// The hull vertices (the ghost's neighbours).
    pub fn hull(&self) -> Vec<Vertex> {
        self.mesh.neighbors(self.ghost).collect()
    }
}

/// The README's example, compiled and run as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
