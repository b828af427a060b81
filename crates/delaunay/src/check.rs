//! Checking a triangulation: inverted faces, edges that are not locally Delaunay, and the
//! global covering (the faces cover the surface exactly once: see [`crate::covering`]).

use crate::covering::Probe;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Topology, Vertex};

/// One way a mesh fails to be the Delaunay triangulation of its positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The face is clockwise on the surface (a fold: a vertex crossed a neighbour) or flat
    /// (three corners on one great circle, or collinear in the plane). A Delaunay triangulation
    /// of points that span the sphere's centre (or of points not all on one line) has none.
    Inverted(Face),
    /// The edge's opposite corner lies strictly inside the circumcircle of the face beside it.
    NotDelaunay(Edge),
    /// The face is not a triangle, or a closed surface's mesh has a hole.
    NotTriangulated(Face),
    /// The faces, all counter-clockwise, cover the surface `times` times instead of once (a
    /// mesh wrapped around the sphere more than once: every local condition can hold). In the
    /// plane: the real faces' count over a point inside the first face.
    Covering {
        /// How many faces contain one point in general position.
        times: usize,
    },
    /// (Plane) A boundary edge where the triangulated region is not convex: the boundary turns
    /// right at the edge's end, or the region does not lie on the edge's left (the ghost
    /// closure folds). The Delaunay triangulation covers the convex hull.
    Hull(Edge),
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
    /// (Plane) Boundary edges where the region is not convex, in face order.
    pub hull: Vec<Edge>,
    /// How many times the faces cover the surface, when every face is counter-clockwise and
    /// that is not once (see [`Violation::Covering`]).
    pub covering: Option<usize>,
}

impl Report {
    /// No violation at all: the mesh is a Delaunay triangulation of its positions.
    pub fn is_ok(&self) -> bool {
        self.inverted.is_empty()
            && self.non_delaunay.is_empty()
            && self.not_triangulated.is_empty()
            && self.hull.is_empty()
            && self.covering.is_none()
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
    Ok((o <= 0.0).then_some(Violation::Inverted(f)))
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
/// first (in face order, a plane's hull edges with their face), then the covering (when every
/// face is counter-clockwise), then non-Delaunay edges (each interior edge once, from its face
/// with the smaller id), stopping early when `found` returns `false`. Reads the mesh through
/// [`Topology`] only, so it runs on a [`quadedge::FrozenMesh`] as well as on a [`Mesh`].
fn violations<S: Surface, T: Topology>(
    surface: &S,
    mesh: &T,
    positions: &[DVec3],
    faces_only: bool,
    mut found: impl FnMut(Violation) -> bool,
) -> Result<(), DelaunayError> {
    if positions.len() < mesh.vertex_slots() {
        return Err(DelaunayError::PositionsTooShort {
            len: positions.len(),
            needed: mesh.vertex_slots(),
        });
    }
    let Some(first) = mesh.faces().next() else {
        return Ok(());
    };
    let reference = mesh.face_vertices(first).map(|v| positions[v.index()]);
    let probe = Probe::new(surface, reference);
    let mut covering = 0usize;
    let mut faces_ok = true;
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        let neighbors = mesh.face_neighbors(f);
        if surface.is_closed() && neighbors.iter().any(|g| !g.is_valid()) {
            faces_ok = false;
            if !found(Violation::NotTriangulated(f)) {
                return Ok(());
            }
            continue;
        }
        let [a, b, c] = corners.map(|v| pos(positions, v));
        let p = [a?, b?, c?];
        if surface.orient(p[0], p[1], p[2]) <= 0.0 {
            faces_ok = false;
            if !found(Violation::Inverted(f)) {
                return Ok(());
            }
            continue;
        }
        covering += usize::from(probe.in_face(surface, p));
        if !surface.is_closed() {
            for (k, g) in neighbors.into_iter().enumerate() {
                if !g.is_valid() && !convex_hull_edge(surface, mesh, positions, &probe, corners, k)?
                {
                    faces_ok = false;
                    let (a, b) = (corners[k], corners[(k + 1) % 3]);
                    let e = mesh.find_edge(a, b).unwrap_or(Edge::INVALID);
                    if !found(Violation::Hull(e)) {
                        return Ok(());
                    }
                }
            }
        }
    }
    let stop = faces_ok && covering != 1 && !found(Violation::Covering { times: covering });
    if stop || faces_only {
        return Ok(());
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

/// (Plane) Is the boundary edge from corner `k` to corner `k + 1` of a face a convex hull
/// edge: the probe strictly on its left (its ghost face counter-clockwise), and no right turn
/// to the next boundary edge?
fn convex_hull_edge<S: Surface, T: Topology>(
    surface: &S,
    mesh: &T,
    positions: &[DVec3],
    probe: &Probe,
    corners: [Vertex; 3],
    k: usize,
) -> Result<bool, DelaunayError> {
    let (a, b) = (corners[k], corners[(k + 1) % 3]);
    let (pa, pb) = (pos(positions, a)?, pos(positions, b)?);
    if !probe.left_of(surface, pa, pb) {
        return Ok(false);
    }
    // The boundary edge leaving b: the one with a face on its left and none on its right.
    for g in mesh.vertex_faces(b) {
        let gc = mesh.face_vertices(g);
        let gn = mesh.face_neighbors(g);
        for j in 0..3 {
            if gc[j] == b && !gn[j].is_valid() {
                let pc = pos(positions, gc[(j + 1) % 3])?;
                return Ok(surface.orient(pa, pb, pc) >= 0.0);
            }
        }
    }
    Ok(true)
}

/// Every violation of `mesh` as a triangulation of `positions` on `surface`: inverted or flat
/// faces (orientation against the surface), a plane's non-convex hull edges, a covering of the
/// surface other than once, and edges that are not locally Delaunay. With every face
/// counter-clockwise and the surface covered once, locally Delaunay everywhere means Delaunay
/// (on the sphere: the convex hull); the proof is in [`crate::covering`]. O(n): the covering
/// is one exact count of the faces holding one point in general position.
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
    violations(surface, mesh, positions, false, |v| {
        match v {
            Violation::Inverted(f) => report.inverted.push(f),
            Violation::NotDelaunay(e) => report.non_delaunay.push(e),
            Violation::NotTriangulated(f) => report.not_triangulated.push(f),
            Violation::Hull(e) => report.hull.push(e),
            Violation::Covering { times } => report.covering = Some(times),
        }
        true
    })?;
    report.non_delaunay.sort_unstable();
    Ok(report)
}

/// `Ok(())` when `mesh` is the Delaunay triangulation of `positions`, else the first
/// violation: a non-triangulated or inverted face (or a plane's non-convex hull edge) first,
/// in face order (a fold hides behind locally Delaunay edges), then
/// [`Violation::Covering`] (a mesh wrapped around the sphere more than once, which no local
/// test sees), then the non-Delaunay edge of smallest id.
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
    violations(surface, mesh, positions, false, |v| match v {
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

/// The global conditions of a triangulation, as an error for the operations to refuse or roll
/// back on: every face a counter-clockwise triangle (a closed surface without holes), a
/// plane's boundary convex, and the surface covered exactly once. O(n) with a cheap pass over
/// the faces; the edges' circle tests are not made.
pub(crate) fn check_covering<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
) -> Result<(), DelaunayError> {
    let mut first = None;
    violations(surface, mesh, positions, true, |v| {
        first = Some(v);
        false
    })?;
    match first {
        None | Some(Violation::NotDelaunay(_)) => Ok(()),
        Some(Violation::Inverted(f)) => Err(DelaunayError::Inverted(f)),
        Some(Violation::NotTriangulated(f)) => Err(DelaunayError::NotTriangulated(f)),
        Some(Violation::Hull(e)) => Err(DelaunayError::NotConvex(e)),
        Some(Violation::Covering { times }) => Err(DelaunayError::Covering { times }),
    }
}
