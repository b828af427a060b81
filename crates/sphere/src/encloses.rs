//! Refusing point sets that surround no sphere: all in one closed hemisphere.
//!
//! The hull of points on a sphere is a triangulation of that sphere (every face turning
//! counter-clockwise around the centre) exactly when the centre lies strictly inside it. Points
//! in a cap, on one great circle, or in a closed hemisphere have a hull whose rim faces turn
//! away from the centre or pass through it: a convex hull, but no planet. The mesh builders
//! check every face once (exact `orient3d` against the centre, in parallel: one pass over the
//! triangles, a few percent of a build) and refuse such input with
//! [`SphereError::NotEnclosingCentre`].

use crate::SphereError;
use crate::order::scale_for;
use delaunay::predicates::orient3d_exact;
use glam::DVec3;
use quadedge::Mesh;
use rayon::prelude::*;

/// `Ok` when every face of `mesh` turns strictly counter-clockwise around the centre, exactly;
/// else [`SphereError::NotEnclosingCentre`].
pub(crate) fn check_encloses(mesh: &Mesh, points: &[DVec3]) -> Result<(), SphereError> {
    // Orientation about the centre is invariant under scaling by a power of two, which keeps
    // the exact predicate inside its range.
    let s = scale_for(points)?.unwrap_or(1.0);
    let p = |v: quadedge::Vertex| (points[v.index()] * s).to_array();
    let bad = mesh.par_faces().any(|f| {
        let [a, b, c] = mesh.face_vertices(f);
        orient3d_exact(p(a), p(b), p(c), [0.0; 3]) <= 0.0
    });
    if bad {
        Err(SphereError::NotEnclosingCentre)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_is_refused_and_a_tetrahedron_is_not() {
        let t = [
            DVec3::new(1.0, 1.0, 1.0),
            DVec3::new(1.0, -1.0, -1.0),
            DVec3::new(-1.0, 1.0, -1.0),
            DVec3::new(-1.0, -1.0, 1.0),
        ];
        let mesh = Mesh::from_triangles(4, &crate::triangulate(&t).unwrap()).unwrap();
        assert_eq!(check_encloses(&mesh, &t), Ok(()));
        // Lift the tetrahedron above the centre: some face turns away from it.
        let lifted: Vec<DVec3> = t.iter().map(|p| *p + DVec3::Z * 3.0).collect();
        assert_eq!(
            check_encloses(&mesh, &lifted),
            Err(SphereError::NotEnclosingCentre)
        );
    }
}
