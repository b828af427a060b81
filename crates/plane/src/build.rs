//! The planar Delaunay triangulation closed by a ghost vertex, through the sphere.
//!
//! The inverse stereographic projection maps circles of the plane to circles of the sphere
//! that avoid the pole, and lines to circles through the pole. So a planar triangle's
//! circumcircle is empty exactly when the plane of its projected corners has no other
//! projected point (nor the pole) beyond it: the planar Delaunay triangulation of the points
//! is the convex hull of their projections plus the pole, and the hull faces at the pole are
//! exactly the ghost faces. `sphere::triangulate` builds that hull fast and exactly, but on
//! *rounded* projections: where points are (nearly) co-circular or collinear (boundary points
//! on a side are exactly collinear) the rounded hull may pick a triangulation that is not
//! planar Delaunay, or a flat triangle along a side. [`repair`](crate::repair) then makes it
//! exactly planar Delaunay with flips decided by exact planar predicates.

use crate::{PlanarMap, PlaneError, Rect, repair};
use delaunay::{Plane, Surface};
use glam::{DVec2, DVec3};
use quadedge::{Mesh, Vertex};

/// The planar Delaunay triangulation of `points`, closed by one ghost vertex joined to every
/// hull vertex: vertex `i` is point `i`, the ghost is vertex `points.len()`.
///
/// Exact: every real face is counter-clockwise, every real edge passes the exact in-circle
/// test with both neighbours, the hull is convex (checked before returning). Collinear points
/// on the hull are all hull vertices (no flat triangles).
///
/// # Errors
/// [`PlaneError::BadPoints`] for fewer than 3 points, a non-finite coordinate or one beyond
/// `±1e30`, or all points on one line; [`PlaneError::Sphere`] when the hull refuses them (exact duplicates, points
/// closer than about `1e-7` of the set's diameter); [`PlaneError::NotDelaunay`] if the repair
/// could not reach the planar Delaunay triangulation (not expected; reported, never silent).
///
/// ```
/// use glam::DVec2;
/// let pts = [DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(1.0, 1.5)];
/// let map = plane::triangulate(&pts).unwrap();
/// // Three real triangles would need a flat one: the side 0-2-1 is hull, so two real faces.
/// assert_eq!(map.real_faces().count(), 2);
/// assert_eq!(map.mesh.face_count(), 2 + 4);
/// ```
pub fn triangulate(points: &[DVec2]) -> Result<PlanarMap, PlaneError> {
    if points.len() < 3 {
        return Err(PlaneError::BadPoints("fewer than three points"));
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(PlaneError::BadPoints("a coordinate is not finite"));
    }
    // The exact predicates hold while products of four differences stay inside f64.
    if points.iter().any(|p| p.abs().max_element() > 1e30) {
        return Err(PlaneError::BadPoints("a coordinate is beyond ±1e30"));
    }
    let (lo, hi) = points.iter().fold((points[0], points[0]), |(lo, hi), &p| {
        (lo.min(p), hi.max(p))
    });
    if collinear_all(points) {
        return Err(PlaneError::BadPoints("all points on one line"));
    }
    let (mut mesh, positions, ghost) = hull_closed(points, lo, hi)?;
    repair::repair_all(&mut mesh, &positions, ghost)?;
    Ok(PlanarMap {
        mesh,
        positions,
        ghost,
        rect: Rect { min: lo, max: hi },
    })
}

/// The ghost-closed mesh of the hull of the lifted points, before the exact planar repair.
fn hull_closed(
    points: &[DVec2],
    lo: DVec2,
    hi: DVec2,
) -> Result<(Mesh, Vec<DVec3>, Vertex), PlaneError> {
    let centre = 0.5 * (lo + hi);
    let radius = 0.5 * (hi - lo).length();
    let mut sphere_points: Vec<DVec3> = Vec::with_capacity(points.len() + 1);
    // Mirror y: the sphere's outward counter-clockwise is clockwise seen from the pole's side,
    // so the mirror makes the faces counter-clockwise in the plane.
    sphere_points.extend(points.iter().map(|&p| {
        let u = (p - centre) / radius;
        let u = DVec2::new(u.x, -u.y);
        let q = u.length_squared();
        DVec3::new(2.0 * u.x, 2.0 * u.y, q - 1.0) / (q + 1.0)
    }));
    sphere_points.push(DVec3::Z);
    let tris = sphere::triangulate(&sphere_points)?;
    let mesh = Mesh::from_triangles(points.len() + 1, &tris)?;
    let ghost = Vertex::new(points.len() as u32);
    let mut positions: Vec<DVec3> = Vec::with_capacity(points.len() + 1);
    positions.extend(points.iter().map(|p| p.extend(0.0)));
    positions.push(centre.extend(0.0));
    Ok((mesh, positions, ghost))
}

/// Exactly collinear: every point on the line through the first two distinct points.
fn collinear_all(points: &[DVec2]) -> bool {
    let a = points[0];
    let Some(&b) = points.iter().find(|&&p| p != a) else {
        return true;
    };
    let (a, b) = (a.extend(0.0), b.extend(0.0));
    points
        .iter()
        .all(|&p| Plane.orient(a, b, p.extend(0.0)) == 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rounded hull is not always planar Delaunay on collinear and co-circular input:
    /// the repair has work to do, and its result passes the full check.
    #[test]
    fn the_repair_flips_on_degenerate_input() {
        let mut total = 0;
        for side in [6u32, 9, 13, 20] {
            let pts: Vec<DVec2> = (0..side * side)
                .map(|i| DVec2::new((i % side) as f64, (i / side) as f64))
                .collect();
            let (lo, hi) = (DVec2::ZERO, DVec2::splat((side - 1) as f64));
            let (mut mesh, pos, ghost) = hull_closed(&pts, lo, hi).unwrap();
            total += repair::repair_all(&mut mesh, &pos, ghost).unwrap();
            assert_eq!(repair::check(&mesh, &pos, ghost), Ok(()));
            mesh.check().unwrap();
        }
        assert!(total > 0, "no flip needed on four lattices");
    }
}
