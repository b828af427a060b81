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
//! (`delaunay::is_delaunay` on the map's [`real_part`](crate::real_part)); a failure is
//! reported, never returned as a success.
//!
//! Locality: only the edges given are queued, and each flip queues the four edges of its
//! quadrilateral, so the flipping cost follows the number of flips.

use crate::PlaneError;
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
    match delaunay::is_delaunay(&Plane, &crate::real_part(mesh, ghost)?, pos) {
        Ok(()) => Ok(flips),
        Err(Ok(violation)) => Err(PlaneError::NotDelaunay(violation)),
        Err(Err(_)) => Err(PlaneError::NotPlanarMap("a position is not finite")),
    }
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

/// Is `f` a ghost face (one of its corners is the ghost)?
pub fn is_ghost_face(mesh: &Mesh, ghost: Vertex, f: Face) -> bool {
    mesh.face_vertices(f).contains(&ghost)
}

/// Is `e` a ghost edge (one of its ends is the ghost)?
pub fn is_ghost_edge(mesh: &Mesh, ghost: Vertex, e: Edge) -> bool {
    mesh.origin(e) == ghost || mesh.dest(e) == ghost
}
