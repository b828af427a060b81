//! [`World::remove_vertices_in_rounds`]: a removal whose plans are made on all cores
//! ([`delaunay::remove_in_rounds`]), one all-or-nothing edit like [`World::remove_vertices`].

use super::edits::PositionWrites;
use super::report::EditReport;
use super::{EditError, Geometry, fault};
use crate::World;
use quadedge::Vertex;

impl World {
    /// [`World::remove_vertices`] with the removals planned on all cores, in rounds of
    /// vertices whose closed stars are disjoint ([`delaunay::remove_in_rounds`]): the same
    /// triangulation is left, with its edges and faces in other slots (the removals run in
    /// another order). The same world for any thread count.
    ///
    /// ```
    /// let mut world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// let gone: Vec<_> = world.mesh().vertices().take(100).collect();
    /// let report = world.remove_vertices_in_rounds(&gone).unwrap();
    /// assert_eq!(world.mesh().vertex_count(), 900);
    /// assert_eq!(report.removed.len(), 100);
    /// ```
    ///
    /// # Errors
    /// As [`World::remove_vertices`], the world unchanged.
    pub fn remove_vertices_in_rounds(
        &mut self,
        vertices: &[Vertex],
    ) -> Result<EditReport, EditError> {
        let (_, report) =
            self.geometric_edit(PositionWrites::Untouched, |g, mesh, positions| {
                let r = match g {
                    Geometry::Sphere { .. } => {
                        delaunay::remove_in_rounds(&delaunay::Sphere, mesh, positions, vertices)
                    }
                    Geometry::Plane => {
                        delaunay::remove_in_rounds(&delaunay::Plane, mesh, positions, vertices)
                    }
                };
                r.map_err(|e| EditError::Item {
                    index: e.index,
                    error: e.error,
                })?;
                fault::stage("remove: removed")
            })?;
        Ok(report)
    }
}
