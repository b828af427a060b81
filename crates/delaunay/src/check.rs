//! Checking a triangulation: inverted faces and edges that are not locally Delaunay.

use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};

/// One way a mesh fails to be the Delaunay triangulation of its positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The face is clockwise on the surface (a fold: a vertex crossed a neighbour). A flat face
    /// (three corners on one great circle, or collinear in the plane) is not reported: it is a
    /// valid hull face of tiny or degenerate point sets (two antipodal points joined by an
    /// edge through the centre).
    Inverted(Face),
    /// The edge's opposite corner lies strictly inside the circumcircle of the face beside it.
    NotDelaunay(Edge),
    /// The face is not a triangle, or a closed surface's mesh has a hole.
    NotTriangulated(Face),
}

/// Every violation of a mesh, from [`delaunay_report`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Inverted faces, in id order.
    pub inverted: Vec<Face>,
    /// Edges that are not locally Delaunay, in quad-edge order.
    pub non_delaunay: Vec<Edge>,
    /// Faces that are not triangles (or border a hole on a closed surface).
    pub not_triangulated: Vec<Face>,
}

impl Report {
    /// No violation at all: the mesh is a Delaunay triangulation of its positions.
    pub fn is_ok(&self) -> bool {
        self.inverted.is_empty() && self.non_delaunay.is_empty() && self.not_triangulated.is_empty()
    }
}

/// Refuses positions that do not cover the mesh.
pub(crate) fn check_len(mesh: &Mesh, positions: &[DVec3]) -> Result<(), DelaunayError> {
    if positions.len() < mesh.vertex_slots() {
        return Err(DelaunayError::PositionsTooShort {
            len: positions.len(),
            needed: mesh.vertex_slots(),
        });
    }
    Ok(())
}

/// The position of a vertex, refusing NaN and infinities.
#[inline]
pub(crate) fn pos(positions: &[DVec3], v: Vertex) -> Result<DVec3, DelaunayError> {
    let p = positions[v.index()];
    if p.is_finite() {
        Ok(p)
    } else {
        Err(DelaunayError::NonFinite(Some(v)))
    }
}

/// Is face `f` a triangle with an edge on each side, and is it counter-clockwise?
pub(crate) fn face_violation<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    f: Face,
) -> Result<Option<Violation>, DelaunayError> {
    let e = mesh.face_edge(f);
    let e1 = mesh.left_next(e);
    let e2 = mesh.left_next(e1);
    if mesh.left_next(e2) != e {
        return Ok(Some(Violation::NotTriangulated(f)));
    }
    if surface.is_closed() && [e, e1, e2].iter().any(|&x| !mesh.right(x).is_valid()) {
        return Ok(Some(Violation::NotTriangulated(f)));
    }
    let [a, b, c] = [e, e1, e2].map(|x| mesh.origin(x));
    let o = surface.orient(pos(positions, a)?, pos(positions, b)?, pos(positions, c)?);
    Ok((o < 0.0).then_some(Violation::Inverted(f)))
}

/// Is the edge strictly not locally Delaunay? Boundary edges never are.
#[inline]
pub(crate) fn is_reflex<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    e: Edge,
) -> Result<bool, DelaunayError> {
    if mesh.is_boundary_edge(e) {
        return Ok(false);
    }
    let a = mesh.origin(e);
    let b = mesh.dest(e);
    let c = mesh.dest(mesh.left_next(e));
    let d = mesh.dest(mesh.left_next(e.sym()));
    Ok(surface.in_circle(
        pos(positions, a)?,
        pos(positions, b)?,
        pos(positions, c)?,
        pos(positions, d)?,
    ) > 0.0)
}

/// Every violation of `mesh` as a triangulation of `positions` on `surface`: inverted faces
/// (orientation against the surface) and edges that are not locally Delaunay. With no
/// inverted face, locally Delaunay everywhere means Delaunay (on the sphere: the convex hull).
///
/// # Errors
/// Positions shorter than [`Mesh::vertex_slots`], or a non-finite position.
///
/// ```
/// use delaunay::{Sphere, delaunay_report};
/// let (mesh, pos) = sphere::fibonacci_sphere(200, 1.0, 0.5, 7).unwrap();
/// assert!(delaunay_report(&Sphere, &mesh, &pos).unwrap().is_ok());
/// ```
pub fn delaunay_report<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
) -> Result<Report, DelaunayError> {
    check_len(mesh, positions)?;
    let mut report = Report::default();
    for f in mesh.faces() {
        match face_violation(surface, mesh, positions, f)? {
            Some(Violation::Inverted(f)) => report.inverted.push(f),
            Some(_) => report.not_triangulated.push(f),
            None => {}
        }
    }
    for e in mesh.undirected_edges() {
        if is_reflex(surface, mesh, positions, e)? {
            report.non_delaunay.push(e);
        }
    }
    Ok(report)
}

/// `Ok(())` when `mesh` is the Delaunay triangulation of `positions`, else the first
/// violation: an inverted face first (a fold hides behind locally Delaunay edges), then an
/// edge that is not locally Delaunay.
///
/// # Errors
/// `Err(Ok(violation))` for a violation; `Err(Err(e))` when the input cannot be checked
/// (positions too short, a non-finite position).
///
/// ```
/// use delaunay::{Sphere, Violation, is_delaunay};
/// let (mesh, mut pos) = sphere::fibonacci_sphere(200, 1.0, 0.0, 0).unwrap();
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// // Move a vertex across the sphere: its faces fold over.
/// pos[100] = -pos[100];
/// assert!(matches!(is_delaunay(&Sphere, &mesh, &pos), Err(Ok(Violation::Inverted(_)))));
/// ```
pub fn is_delaunay<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
) -> Result<(), Result<Violation, DelaunayError>> {
    check_len(mesh, positions).map_err(Err)?;
    for f in mesh.faces() {
        if let Some(v) = face_violation(surface, mesh, positions, f).map_err(Err)? {
            return Err(Ok(v));
        }
    }
    for e in mesh.undirected_edges() {
        if is_reflex(surface, mesh, positions, e).map_err(Err)? {
            return Err(Ok(Violation::NotDelaunay(e)));
        }
    }
    Ok(())
}
