//! Queries at a point of the surface: the face or vertex there, the nearest vertex, and a
//! vertex layer's value there.

use super::{EditError, Geometry};
use crate::{LayerInfo, World};
use delaunay::Location;
use glam::DVec3;
use layers::{LayerValue, VertexKind};
use quadedge::{Face, Vertex};

/// A layer's value at a point, with where it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample<T> {
    /// The value, blended from the face's corners by the layer's interpolation.
    pub value: T,
    /// The face the point lies in (on a vertex or edge: a face touching it).
    pub face: Face,
    /// The corners of `face` and their barycentric weights for the point.
    pub corners: [(Vertex, f32); 3],
}

impl World {
    /// Where `p` lies: in a face, on an edge or on a vertex (an exact visibility walk from
    /// `hint`, any live face, or the first face).
    ///
    /// # Errors
    /// [`EditError::NoGeometry`]; [`EditError::Delaunay`] for a point that is not finite or,
    /// in the plane, outside the map.
    pub fn locate(&self, p: DVec3, hint: Option<Face>) -> Result<Location, EditError> {
        let positions = self.positions();
        Ok(match self.geometry().ok_or(EditError::NoGeometry)? {
            Geometry::Sphere { .. } => {
                delaunay::locate(&delaunay::Sphere, &self.mesh, positions, p, hint)?
            }
            Geometry::Plane => delaunay::locate(&delaunay::Plane, &self.mesh, positions, p, hint)?,
        })
    }

    /// The vertex nearest to `p` on the surface (the Voronoi cell `p` is in).
    ///
    /// ```
    /// let world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// let p = world.positions()[42];
    /// assert_eq!(world.nearest_vertex(p * 1.0001).unwrap().index(), 42);
    /// ```
    ///
    /// # Errors
    /// As [`World::locate`].
    pub fn nearest_vertex(&self, p: DVec3) -> Result<Vertex, EditError> {
        let positions = self.positions();
        Ok(match self.geometry().ok_or(EditError::NoGeometry)? {
            Geometry::Sphere { .. } => {
                delaunay::nearest_vertex(&delaunay::Sphere, &self.mesh, positions, p, None)?.0
            }
            Geometry::Plane => {
                delaunay::nearest_vertex(&delaunay::Plane, &self.mesh, positions, p, None)?.0
            }
        })
    }

    /// The value of the vertex layer `info` at `p`: the face holding `p`, and its corners'
    /// values blended by the layer's interpolation with `p`'s barycentric weights (exactly
    /// what a vertex inserted at `p` would get). `Ok(None)` when the layer does not exist or
    /// its policy produces no value (`Reset`, `DontCare`).
    ///
    /// ```
    /// use layers::{Interpolation, LayerInfo, VertexKind};
    /// const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height").interpolation(Interpolation::Lerp);
    /// let mut world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// world.update_layer(&HEIGHT, |l| l.iter_mut().for_each(|h| *h = 5.0)).unwrap();
    /// let s = world.sample(&HEIGHT, glam::DVec3::new(0.1, 0.2, 0.9).normalize()).unwrap().unwrap();
    /// assert!((s.value - 5.0).abs() < 1e-5);
    /// ```
    ///
    /// # Errors
    /// As [`World::locate`]; [`EditError::World`] when the layer exists with another type.
    pub fn sample<T: LayerValue>(
        &self,
        info: &LayerInfo<T, VertexKind>,
        p: DVec3,
    ) -> Result<Option<Sample<T>>, EditError> {
        let Some(layer) = self.try_layer(info).map_err(EditError::World)? else {
            return Ok(None);
        };
        let face = match self.locate(p, None)? {
            Location::InFace(f) => f,
            other => match other.face(&self.mesh) {
                Some(f) => f,
                None => return Ok(None),
            },
        };
        let corners = self.mesh.face_vertices(face);
        let positions = self.positions();
        let [a, b, c] = corners.map(|v| positions[v.index()]);
        let w = match self.geometry().ok_or(EditError::NoGeometry)? {
            Geometry::Sphere { .. } => barycentric(a, b, c, p, |x, y, z| x.dot(y.cross(z))),
            Geometry::Plane => barycentric(a, b, c, p, |x, y, z| (y - x).cross(z - x).z),
        };
        Ok(layer.blend3(corners, w).map(|value| Sample {
            value,
            face,
            corners: [(corners[0], w[0]), (corners[1], w[1]), (corners[2], w[2])],
        }))
    }
}

/// Barycentric weights of `p` in `a, b, c` from the signed areas `area(x, y, z)` of the
/// sub-triangles (on the sphere: triple products, the gnomonic weights); clamped to the face
/// and normalised, all weight on `a` for a degenerate face.
fn barycentric(
    a: DVec3,
    b: DVec3,
    c: DVec3,
    p: DVec3,
    area: impl Fn(DVec3, DVec3, DVec3) -> f64,
) -> [f32; 3] {
    let w = [area(p, b, c), area(a, p, c), area(a, b, p)].map(|x| x.max(0.0));
    let sum: f64 = w.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        w.map(|x| (x / sum) as f32)
    } else {
        [1.0, 0.0, 0.0]
    }
}
