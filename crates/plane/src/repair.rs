//! Exact planar Delaunay flips and checks on a ghost-closed mesh.
//!
//! With a ghost vertex `g` joined to every hull vertex, each edge has two faces. The rules,
//! for an edge `a → b` with apex `c` on its left and `d` on its right:
//!
//! * an edge at the ghost (`a` or `b` is `g`) is never flipped: the planar criterion does not
//!   apply to it;
//! * a real edge between two real faces flips when `d` lies strictly inside the circumcircle
//!   of `(a, b, c)` (exact `incircle`, signed by the face order even if the face is flat or
//!   inverted) and the new edge `c d` crosses `a b` strictly (exact `orient`), so the two new
//!   faces are counter-clockwise;
//! * a hull edge (one ghost face) flips when its real face is flat or clockwise
//!   (`orient(a, b, c) ≤ 0`): its apex belongs on the hull, between `a` and `b`; the real face
//!   becomes two ghost faces.
//!
//! Termination: let `R` be the number of real faces and `V` the signed volume under the real
//! faces lifted to the paraboloid `z = x² + y²` (each face's signed area times the mean of its
//! corners' lifts). A hull flip lowers `R` by one. A real flip keeps `R` and changes `V` by
//! minus a positive multiple of `incircle(a, b, c, d)` (the signed volume of the lifted
//! tetrahedron, an identity of signed volumes that holds whatever the faces' orientations), so
//! it lowers `V` strictly. `(R, V)` decreases lexicographically at every flip and a mesh has
//! finitely many triangulations, so the flips stop. The result is then checked exactly
//! ([`check`]); a failure is reported, never returned as a success.
//!
//! Locality: only the edges given are queued, and each flip queues the four edges of its
//! quadrilateral, so the flipping cost follows the number of flips.

use crate::{PlaneError, Violation};
use delaunay::{Plane, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, MeshError, Vertex};

/// What one edge needs, decided exactly.
#[inline]
fn wants_flip(mesh: &Mesh, pos: &[DVec3], ghost: Vertex, e: Edge) -> bool {
    let a = mesh.origin(e);
    let b = mesh.dest(e);
    if a == ghost || b == ghost {
        return false;
    }
    let c = mesh.dest(mesh.left_next(e));
    let d = mesh.dest(mesh.left_next(e.sym()));
    let p = |v: Vertex| pos[v.index()];
    if c == ghost && d == ghost {
        false
    } else if d == ghost {
        Plane.orient(p(a), p(b), p(c)) <= 0.0
    } else if c == ghost {
        Plane.orient(p(b), p(a), p(d)) <= 0.0
    } else {
        Plane.in_circle(p(a), p(b), p(c), p(d)) > 0.0
            && Plane.orient(p(c), p(d), p(b)) > 0.0
            && Plane.orient(p(d), p(c), p(a)) > 0.0
    }
}

/// The check's verdict on one edge and its two faces: each real face counter-clockwise, a
/// real edge between real faces locally Delaunay. (Hull convexity is checked on the ghost's
/// ring.)
#[inline]
fn edge_ok(mesh: &Mesh, pos: &[DVec3], ghost: Vertex, e: Edge) -> Result<(), Violation> {
    let (a, b) = (mesh.origin(e), mesh.dest(e));
    if a == ghost || b == ghost {
        return Ok(());
    }
    let c = mesh.dest(mesh.left_next(e));
    let d = mesh.dest(mesh.left_next(e.sym()));
    let p = |v: Vertex| pos[v.index()];
    if c != ghost && Plane.orient(p(a), p(b), p(c)) <= 0.0 {
        return Err(Violation::InvertedFace(mesh.left(e)));
    }
    if d != ghost && Plane.orient(p(b), p(a), p(d)) <= 0.0 {
        return Err(Violation::InvertedFace(mesh.right(e)));
    }
    if c != ghost && d != ghost && Plane.in_circle(p(a), p(b), p(c), p(d)) > 0.0 {
        return Err(Violation::NotLocallyDelaunay(e));
    }
    Ok(())
}

/// Flips from a queue of edges until none wants a flip; returns the number of flips.
fn flip_from(
    mesh: &mut Mesh,
    pos: &[DVec3],
    ghost: Vertex,
    mut queue: Vec<Edge>,
) -> Result<usize, PlaneError> {
    let mut flips = 0;
    while let Some(e) = queue.pop() {
        if !mesh.is_edge_alive(e) || !wants_flip(mesh, pos, ghost, e) {
            continue;
        }
        match mesh.flip(e) {
            Ok(f) => {
                flips += 1;
                // The quadrilateral's four sides may now want a flip.
                let sides = [
                    mesh.left_next(f),
                    mesh.left_prev(f),
                    mesh.left_next(f.sym()),
                    mesh.left_prev(f.sym()),
                ];
                queue.extend(sides);
            }
            // The apex is already joined to the far corner (it is a hull vertex elsewhere):
            // another edge of the same flat face fixes it.
            Err(MeshError::FlipWouldDuplicate(_)) => {}
            Err(other) => return Err(other.into()),
        }
    }
    Ok(flips)
}

/// Restores the planar Delaunay property after edits, from the edges that changed (for
/// example those around a moved or inserted vertex); ghost edges are never flipped. Returns
/// the number of flips. The flips are local; the final exact check covers the whole mesh
/// (`O(n)`), so a wrong list of changed edges is an error, not a silent success.
///
/// # Errors
/// [`PlaneError::NotPlanarMap`] when `pos` does not cover the mesh or the ghost is dead;
/// [`PlaneError::NotDelaunay`] when flips cannot reach a valid triangulation (for example a
/// moved vertex left its faces inverted: flips repair in-circle failures, not folds).
pub fn make_delaunay_from_edges(
    mesh: &mut Mesh,
    pos: &[DVec3],
    ghost: Vertex,
    edges: &[Edge],
) -> Result<usize, PlaneError> {
    covers(mesh, pos, ghost)?;
    let queue: Vec<Edge> = edges
        .iter()
        .copied()
        .filter(|&e| mesh.is_edge_alive(e))
        .collect();
    let flips = flip_from(mesh, pos, ghost, queue)?;
    // The whole mesh, not only what was flipped: the caller's list of changed edges is a
    // claim this check does not take on trust.
    check(mesh, pos, ghost).map_err(PlaneError::NotDelaunay)?;
    Ok(flips)
}

/// The input checks shared by the public entry points.
pub(crate) fn covers(mesh: &Mesh, pos: &[DVec3], ghost: Vertex) -> Result<(), PlaneError> {
    if pos.len() < mesh.vertex_slots() {
        return Err(PlaneError::NotPlanarMap("positions do not cover the mesh"));
    }
    if !mesh.is_vertex_alive(ghost) {
        return Err(PlaneError::NotPlanarMap("the ghost vertex is dead"));
    }
    if !mesh.is_closed() {
        return Err(PlaneError::NotPlanarMap("the mesh has boundary edges"));
    }
    if mesh
        .vertices()
        .any(|v| v != ghost && !pos[v.index()].truncate().is_finite())
    {
        return Err(PlaneError::NotPlanarMap("a position is not finite"));
    }
    Ok(())
}

/// The first violation of the planar Delaunay property of a ghost-closed mesh, if any: a real
/// face that is not counter-clockwise, a real edge failing the exact in-circle test, a hull
/// vertex where the boundary turns clockwise. Ghost faces and edges are skipped (their
/// criterion is the hull's convexity).
pub(crate) fn check(mesh: &Mesh, pos: &[DVec3], ghost: Vertex) -> Result<(), Violation> {
    for e in mesh.undirected_edges() {
        edge_ok(mesh, pos, ghost, e)?;
    }
    check_hull(mesh, pos, ghost)
}

/// Around the ghost the hull vertices come clockwise (the hull is counter-clockwise seen from
/// the real faces): each consecutive triple must not turn clockwise along the hull.
fn check_hull(mesh: &Mesh, pos: &[DVec3], ghost: Vertex) -> Result<(), Violation> {
    let p = |v: Vertex| pos[v.index()];
    let ring: Vec<Vertex> = mesh.outgoing(ghost).map(|e| mesh.dest(e)).collect();
    let k = ring.len();
    for i in 0..k {
        let (prev, v, next) = (ring[(i + k - 1) % k], ring[i], ring[(i + 1) % k]);
        if Plane.orient(p(next), p(v), p(prev)) < 0.0 {
            return Err(Violation::ReflexHullVertex(v));
        }
    }
    Ok(())
}

/// Is `f` a ghost face (one of its corners is the ghost)?
pub fn is_ghost_face(mesh: &Mesh, ghost: Vertex, f: Face) -> bool {
    mesh.face_vertices(f).contains(&ghost)
}

/// Is `e` a ghost edge (one of its ends is the ghost)?
pub fn is_ghost_edge(mesh: &Mesh, ghost: Vertex, e: Edge) -> bool {
    mesh.origin(e) == ghost || mesh.dest(e) == ghost
}
