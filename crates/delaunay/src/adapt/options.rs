//! The knobs, the report and the errors of [`adapt`](super::adapt), and the [`Metric`] a
//! surface needs for it.

use crate::{DelaunayError, Plane, Sphere, Surface, Violation};
use core::fmt;
use glam::DVec3;
use quadedge::{MeshError, Vertex};

/// A [`Surface`] on which edges have a length and a midpoint: what [`adapt`](fn@crate::adapt) needs beyond the
/// predicates.
pub trait Metric: Surface {
    /// The length of edge `a`–`b` compared with the size field: the chord on the sphere
    /// (within 0.1% of the arc for edges shorter than a tenth of the radius), the `x, y`
    /// distance in the plane.
    fn length(&self, a: DVec3, b: DVec3) -> f64;
    /// The point at weight `t` of `b` between `a` and `b` on the surface; `None` when it is
    /// undefined (antipodal points on the sphere).
    fn between(&self, a: DVec3, b: DVec3, t: f64) -> Option<DVec3>;
}

impl Metric for Sphere {
    #[inline]
    fn length(&self, a: DVec3, b: DVec3) -> f64 {
        a.distance(b)
    }
    #[inline]
    fn between(&self, a: DVec3, b: DVec3, t: f64) -> Option<DVec3> {
        // The chord point pushed out to the mean radius: on the great circle of a and b.
        let m = a.lerp(b, t);
        let len = m.length();
        let radius = 0.5 * (a.length() + b.length());
        (len > 1e-9 * radius).then(|| m * (radius / len))
    }
}

impl Metric for Plane {
    #[inline]
    fn length(&self, a: DVec3, b: DVec3) -> f64 {
        (a.x - b.x).hypot(a.y - b.y)
    }
    #[inline]
    fn between(&self, a: DVec3, b: DVec3, t: f64) -> Option<DVec3> {
        Some(a.lerp(b, t))
    }
}

/// The knobs of [`adapt`](fn@crate::adapt).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptOptions {
    /// Edges longer than this times the target are split (default 4/3).
    pub split_above: f64,
    /// Edges shorter than this times the target are collapsed (default 4/5).
    pub collapse_below: f64,
    /// At most this many passes (default 16); one pass is a split sweep, a collapse sweep and
    /// the flips back to Delaunay.
    pub max_passes: usize,
    /// The vertex budget: splits stop once the mesh holds this many vertices. `None` (the
    /// default) is 16 × the vertex count at entry + 1024, so that an absurdly small target
    /// cannot exhaust memory.
    pub max_vertices: Option<usize>,
    /// Ask the size field again at each new vertex (a split's midpoint, a collapse's survivor)
    /// instead of interpolating the endpoints' sizes as a `Lerp` layer would (default
    /// `false`). Use it for fields given as a function of position; a field read from a
    /// vertex layer knows nothing of new vertices. A non-finite or non-positive answer there
    /// falls back to the interpolated size.
    pub sample_new_vertices: bool,
}

impl Default for AdaptOptions {
    fn default() -> Self {
        AdaptOptions {
            split_above: 4.0 / 3.0,
            collapse_below: 0.8,
            max_passes: 16,
            max_vertices: None,
            sample_new_vertices: false,
        }
    }
}

/// What [`adapt`](fn@crate::adapt) did, and how far the result is from the size field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdaptStats {
    /// Passes run.
    pub passes: usize,
    /// Whether the last pass changed nothing (else the pass cap or the budget stopped it).
    pub converged: bool,
    /// Edges split.
    pub splits: usize,
    /// Edges collapsed.
    pub collapses: usize,
    /// Lawson flips back to Delaunay.
    pub flips: usize,
    /// Refusals, counted once per edge and pass (an edge kept for several passes counts in
    /// each): short edges kept because the collapse would break the link condition (or long
    /// edges of a pillow, which cannot be split).
    pub refused_link: usize,
    /// Refusals: a collapse would fold a face, or a split would make a flat or inverted face.
    pub refused_fold: usize,
    /// Refusals: a collapse would make an edge longer than the split bound.
    pub refused_long: usize,
    /// Refusals: both endpoints are on the boundary (plane), and the outline stays.
    pub refused_boundary: usize,
    /// Whether the vertex budget stopped splits.
    pub budget_reached: bool,
    /// Edges of the result.
    pub edges: usize,
    /// Edges of the result longer than `split_above · target`.
    pub long_edges: usize,
    /// Edges of the result shorter than `collapse_below · target`.
    pub short_edges: usize,
}

impl AdaptStats {
    /// The fraction of edges within the bounds.
    pub fn within_bounds(&self) -> f64 {
        if self.edges == 0 {
            return 1.0;
        }
        1.0 - (self.long_edges + self.short_edges) as f64 / self.edges as f64
    }
}

/// Why [`adapt`](fn@crate::adapt) refused (before any edit) or stopped.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AdaptError {
    /// The size field gave a NaN, infinite, zero or negative target at this vertex.
    BadSize {
        /// The vertex.
        vertex: Vertex,
        /// What the field said.
        size: f64,
    },
    /// The options are not finite or not `0 < collapse_below < split_above`, or
    /// `max_passes == 0`.
    BadOptions,
    /// The input is not a Delaunay triangulation of its positions (make it one first with
    /// [`crate::make_delaunay`] or [`crate::restore`]).
    NotDelaunay(Violation),
    /// Bad positions, or (after edits: the mesh is then valid) the final flips failed.
    Delaunay(DelaunayError),
}

impl fmt::Display for AdaptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdaptError::BadSize { vertex, size } => {
                write!(f, "size field gives {size} at {vertex:?}")
            }
            AdaptError::BadOptions => write!(f, "adapt options out of range"),
            AdaptError::NotDelaunay(v) => write!(f, "input is not Delaunay: {v:?}"),
            AdaptError::Delaunay(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AdaptError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AdaptError::Delaunay(e) => Some(e),
            _ => None,
        }
    }
}

impl From<DelaunayError> for AdaptError {
    fn from(e: DelaunayError) -> Self {
        AdaptError::Delaunay(e)
    }
}

impl From<MeshError> for AdaptError {
    fn from(e: MeshError) -> Self {
        AdaptError::Delaunay(e.into())
    }
}
