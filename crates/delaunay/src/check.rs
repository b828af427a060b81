//! Checking a triangulation: inverted faces and edges that are not locally Delaunay.

use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Topology, Vertex};

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
    let [pa, pb, pc, pd] = finite4(positions, [a, b, c, d])?;
    Ok(surface.in_circle(pa, pb, pc, pd) > 0.0)
}

/// The positions of four vertices, refusing NaN and infinities with one test on their sum in
/// the usual case (a sum of finite values is finite unless it overflows; then each is checked).
#[inline(always)]
pub(crate) fn finite4(positions: &[DVec3], v: [Vertex; 4]) -> Result<[DVec3; 4], DelaunayError> {
    let p = [
        positions[v[0].index()],
        positions[v[1].index()],
        positions[v[2].index()],
        positions[v[3].index()],
    ];
    if !(p[0] + p[1] + p[2] + p[3]).is_finite() {
        for v in v {
            pos(positions, v)?;
        }
    }
    Ok(p)
}

/// Calls `found` with every violation of `mesh` as a triangulation of `positions`, faces
/// first (in face order), then non-Delaunay edges (each interior edge once, from its face
/// with the smaller id), stopping early when `found` returns `false`. Reads the mesh through
/// [`Topology`] only, so it runs on a [`quadedge::FrozenMesh`] as well as on a [`Mesh`].
fn violations<S: Surface, T: Topology>(
    surface: &S,
    mesh: &T,
    positions: &[DVec3],
    mut found: impl FnMut(Violation) -> bool,
) -> Result<(), DelaunayError> {
    if positions.len() < mesh.vertex_slots() {
        return Err(DelaunayError::PositionsTooShort {
            len: positions.len(),
            needed: mesh.vertex_slots(),
        });
    }
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        if surface.is_closed() && mesh.face_neighbors(f).iter().any(|g| !g.is_valid()) {
            if !found(Violation::NotTriangulated(f)) {
                return Ok(());
            }
            continue;
        }
        let [a, b, c] = corners.map(|v| pos(positions, v));
        if surface.orient(a?, b?, c?) < 0.0 && !found(Violation::Inverted(f)) {
            return Ok(());
        }
    }
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        for (k, g) in mesh.face_neighbors(f).into_iter().enumerate() {
            // Each interior edge once, from the face with the smaller id.
            if !g.is_valid() || g <= f {
                continue;
            }
            let (a, b, c) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            let Some(d) = mesh
                .face_vertices(g)
                .into_iter()
                .find(|&x| x != a && x != b)
            else {
                continue;
            };
            let [pa, pb, pc, pd] = finite4(positions, [a, b, c, d])?;
            // The edge a → b has f on its left: the circle test of `is_reflex` (both sides of
            // an edge give the same exact sign).
            if surface.in_circle(pa, pb, pc, pd) > 0.0 {
                let e = mesh.find_edge(a, b).map_or(Edge::INVALID, Edge::base);
                if !found(Violation::NotDelaunay(e)) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// Every violation of `mesh` as a triangulation of `positions` on `surface`: inverted faces
/// (orientation against the surface) and edges that are not locally Delaunay. With no
/// inverted face, locally Delaunay everywhere means Delaunay (on the sphere: the convex hull).
///
/// Generic over [`Topology`]: the same report for a [`Mesh`] and for its
/// [`quadedge::FrozenMesh`].
///
/// # Errors
/// Positions shorter than [`Topology::vertex_slots`], or a non-finite position.
///
/// ```
/// use delaunay::{Sphere, delaunay_report};
/// let (mesh, pos) = sphere::fibonacci_sphere(200, 1.0, 0.5, 7).unwrap();
/// assert!(delaunay_report(&Sphere, &mesh, &pos).unwrap().is_ok());
/// ```
pub fn delaunay_report<S: Surface, T: Topology>(
    surface: &S,
    mesh: &T,
    positions: &[DVec3],
) -> Result<Report, DelaunayError> {
    let mut report = Report::default();
    violations(surface, mesh, positions, |v| {
        match v {
            Violation::Inverted(f) => report.inverted.push(f),
            Violation::NotDelaunay(e) => report.non_delaunay.push(e),
            Violation::NotTriangulated(f) => report.not_triangulated.push(f),
        }
        true
    })?;
    report.non_delaunay.sort_unstable();
    Ok(report)
}

/// `Ok(())` when `mesh` is the Delaunay triangulation of `positions`, else the first
/// violation: a non-triangulated or inverted face first, in face order (a fold hides behind
/// locally Delaunay edges), then the non-Delaunay edge of smallest id.
///
/// Generic over [`Topology`], like [`delaunay_report`].
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
pub fn is_delaunay<S: Surface, T: Topology>(
    surface: &S,
    mesh: &T,
    positions: &[DVec3],
) -> Result<(), Result<Violation, DelaunayError>> {
    let mut first_face = None;
    let mut least_edge: Option<Edge> = None;
    violations(surface, mesh, positions, |v| match v {
        Violation::NotDelaunay(e) => {
            least_edge = Some(least_edge.map_or(e, |l| l.min(e)));
            true
        }
        face => {
            first_face = Some(face);
            false
        }
    })
    .map_err(Err)?;
    match first_face.or(least_edge.map(Violation::NotDelaunay)) {
        Some(v) => Err(Ok(v)),
        None => Ok(()),
    }
}
