//! Adaptive resolution of a world: the mesh refined and coarsened towards the edge lengths a
//! size function asks for, as one geometric edit (see [`super::edits`]).

use super::edits::PositionWrites;
use super::report::EditReport;
use super::{EditError, Geometry, fault};
use crate::World;
use delaunay::{AdaptOptions, AdaptStats};
use glam::DVec3;
use quadedge::Vertex;

impl World {
    /// Refines and coarsens the mesh towards the edge lengths `size(vertex, position)` asks
    /// for (midpoint splits, guarded collapses, flips), keeping it Delaunay; new vertices take
    /// their data by each layer's interpolation. See [`delaunay::adapt`] for the rules.
    ///
    /// ```
    /// let mut world = world::World::fibonacci_sphere(2000, 1.0, 0.0, 1).unwrap();
    /// let spacing = (4.0 * std::f64::consts::PI / 2000.0).sqrt();
    /// let (stats, report) = world
    ///     .refine(|_, p| spacing * (1.75 - 1.25 * p.z), &delaunay::AdaptOptions::default())
    ///     .unwrap();
    /// assert!(stats.splits > 0 && !report.created.is_empty());
    /// ```
    ///
    /// # Errors
    /// The world unchanged: [`EditError::Adapt`] for bad options or a bad size.
    pub fn refine(
        &mut self,
        size: impl Fn(Vertex, DVec3) -> f64,
        options: &AdaptOptions,
    ) -> Result<(AdaptStats, EditReport), EditError> {
        self.geometric_edit(PositionWrites::Rewritten, |g, mesh, positions| {
            let r = match g {
                Geometry::Sphere { .. } => {
                    delaunay::adapt(&delaunay::Sphere, mesh, positions, &size, options)
                }
                Geometry::Plane => {
                    delaunay::adapt(&delaunay::Plane, mesh, positions, &size, options)
                }
            };
            let stats = r.map_err(EditError::Adapt)?;
            fault::stage("refine: refined")?;
            Ok(stats)
        })
    }
}
