//! Lawson flips: restore the Delaunay property where it was lost, with exact predicates.

use crate::check::{check_covering, check_len, face_violation, is_reflex, pos};
use crate::{DelaunayError, Surface, Violation};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, Vertex};

/// Flips queued edges until none is reflex. Each flip re-queues the four edges of its quad.
///
/// An edge whose flip would duplicate an edge or invert a face (only possible on a folded
/// mesh) is set aside and checked again at the end: if still reflex, the result is
/// [`DelaunayError::NotDelaunay`]. Every queued edge is checked when popped, and an edge only
/// changes its quad when a neighbouring flip re-queues it, so an empty queue with no stuck
/// edge means every edge that was ever queued is locally Delaunay.
pub(crate) fn lawson<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    stack: &mut Vec<Edge>,
    limit: usize,
) -> Result<usize, DelaunayError> {
    lawson_tracked(surface, mesh, positions, stack, limit, None)
}

/// [`lawson`] that pushes the four corners of every flipped quad to `flipped` (the vertices
/// whose stars the flips changed: [`crate::restore`] certifies its repair around them).
pub(crate) fn lawson_tracked<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    stack: &mut Vec<Edge>,
    limit: usize,
    flipped: Option<&mut Vec<Vertex>>,
) -> Result<usize, DelaunayError> {
    let mut stuck = Vec::new();
    let flips = lawson_collect(surface, mesh, positions, stack, limit, &mut stuck, flipped)?;
    for e in stuck {
        if mesh.is_edge_alive(e) && is_reflex(surface, mesh, positions, e)? {
            return Err(DelaunayError::NotDelaunay(e));
        }
    }
    Ok(flips)
}

/// [`lawson`] that hands the edges it could not flip to the caller instead of failing (fold
/// repair flips around a vertex while other folds remain); with `flipped`, as
/// [`lawson_tracked`].
pub(crate) fn lawson_collect<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    stack: &mut Vec<Edge>,
    limit: usize,
    stuck: &mut Vec<Edge>,
    mut flipped: Option<&mut Vec<Vertex>>,
) -> Result<usize, DelaunayError> {
    let mut flips = 0;
    while let Some(e) = stack.pop() {
        if !mesh.is_edge_alive(e) || !is_reflex(surface, mesh, positions, e)? {
            continue;
        }
        if flips >= limit {
            stack.clear();
            return Err(DelaunayError::FlipLimit(flips));
        }
        let e = e.base();
        let a = mesh.origin(e);
        let b = mesh.dest(e);
        let c = mesh.dest(mesh.left_next(e));
        let d = mesh.dest(mesh.left_next(e.sym()));
        let [pa, pb, pc, pd] = [a, b, c, d].map(|v| positions[v.index()]);
        // The flipped faces (d, c, a) and (c, d, b) must turn counter-clockwise.
        if surface.orient(pd, pc, pa) <= 0.0 || surface.orient(pc, pd, pb) <= 0.0 {
            stuck.push(e);
            continue;
        }
        let around = [
            mesh.left_next(e),
            mesh.left_prev(e),
            mesh.left_next(e.sym()),
            mesh.left_prev(e.sym()),
        ];
        match mesh.flip(e) {
            Ok(_) => {
                flips += 1;
                stack.extend_from_slice(&around);
                if let Some(f) = flipped.as_deref_mut() {
                    f.extend([a, b, c, d]);
                }
            }
            Err(MeshError::FlipWouldDuplicate(_)) => stuck.push(e),
            Err(err) => return Err(err.into()),
        }
    }
    Ok(flips)
}

/// The flip budget for a queue of `queued` edges on a mesh of `edges` edges: Lawson flips on a
/// valid mesh make far fewer, so hitting it means a folded or corrupt input.
pub(crate) fn flip_limit(queued: usize, edges: usize) -> usize {
    64 * queued.max(edges.min(queued * 16)) + 1000
}

/// Refuses a mesh with an inverted or non-triangular face among `faces`.
fn refuse_folds<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    faces: impl Iterator<Item = quadedge::Face>,
) -> Result<(), DelaunayError> {
    for f in faces {
        match face_violation(surface, mesh, positions, f)? {
            Some(Violation::Inverted(f)) => return Err(DelaunayError::Inverted(f)),
            Some(_) => return Err(DelaunayError::NotTriangulated(f)),
            None => {}
        }
    }
    Ok(())
}

/// Restores the Delaunay property of a whole mesh by Lawson flips and returns the number of
/// flips. Either the result is Delaunay (checked exactly, edge by edge) or an error says why
/// not: never `Ok` with a non-Delaunay mesh.
///
/// Flips cannot repair folds (inverted faces): they are refused up front. Use
/// [`crate::restore`] after moving vertices, which repairs folds as well.
///
/// # Errors
/// Before any edit: positions too short or not finite, a face that is not a triangle
/// ([`DelaunayError::NotTriangulated`]), an inverted or flat face
/// ([`DelaunayError::Inverted`]), a mesh that covers the surface other than once
/// ([`DelaunayError::Covering`]), a plane's non-convex boundary
/// ([`DelaunayError::NotConvex`]).
/// After flips, rolled back so that the mesh is as it was (from a copy; only possible
/// on a mesh that wraps the surface more than once): [`DelaunayError::NotDelaunay`],
/// [`DelaunayError::FlipLimit`].
///
/// ```
/// use delaunay::{Sphere, Violation, is_delaunay, make_delaunay};
/// use quadedge::Edge;
/// let (mut mesh, pos) = sphere::fibonacci_sphere(500, 1.0, 0.0, 0).unwrap();
/// let e = mesh.flip(Edge::of_quad(100)).unwrap();
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Err(Ok(Violation::NotDelaunay(e))));
/// assert_eq!(make_delaunay(&Sphere, &mut mesh, &pos), Ok(1));
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// mesh.check().unwrap();
/// ```
pub fn make_delaunay<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
) -> Result<usize, DelaunayError> {
    check_len(mesh, positions)?;
    // Flips keep the covering (a flip retriangulates a convex quad): a mesh wrapped twice
    // would end locally Delaunay and still wrapped twice, so it is refused here.
    check_covering(surface, mesh, positions)?;
    let mut stack: Vec<Edge> = mesh.undirected_edges().collect();
    let limit = flip_limit(stack.len(), stack.len());
    by_copy(mesh, |mesh| {
        lawson(surface, mesh, positions, &mut stack, limit)
    })
}

/// [`Mesh::atomically`] for whole-mesh passes: a copy of the mesh is the way back instead of
/// an undo log, whose 16-byte writes (about 20 per flip) would outgrow a copy once the pass
/// edits more than a fraction of the mesh. The copy carries the journal and the undo state as
/// they were, so a failure drops the records the pass added.
pub(crate) fn by_copy<T, E>(
    mesh: &mut Mesh,
    edit: impl FnOnce(&mut Mesh) -> Result<T, E>,
) -> Result<T, E> {
    let backup = mesh.clone();
    let result = edit(mesh);
    if result.is_err() {
        *mesh = backup;
    }
    result
}

/// [`make_delaunay`] starting from the edges around `vertices` only (their star and the far
/// edges of their faces: everything whose circumcircle test a moved vertex can change), in
/// time proportional to the region that changes. Returns the number of flips.
///
/// Use it after moving `vertices` by less than it takes to fold a face; [`crate::restore`]
/// handles any move.
///
/// # Errors
/// As [`make_delaunay`], checked on the faces around `vertices`; a dead vertex is
/// [`DelaunayError::DeadVertex`].
///
/// ```
/// use delaunay::{Sphere, is_delaunay, make_delaunay_around};
/// use quadedge::Vertex;
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(2000, 1.0, 0.3, 5).unwrap();
/// // Nudge one vertex towards a neighbour, by a third of their distance.
/// let v = Vertex::new(700);
/// let u = mesh.neighbors(v).next().unwrap();
/// pos[v.index()] = (pos[v.index()] * 2.0 + pos[u.index()]).normalize();
/// make_delaunay_around(&Sphere, &mut mesh, &pos, &[v]).unwrap();
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// ```
pub fn make_delaunay_around<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<usize, DelaunayError> {
    check_len(mesh, positions)?;
    let mut stack = Vec::new();
    for &v in vertices {
        if v.index() >= mesh.vertex_slots() || !mesh.is_vertex_alive(v) {
            return Err(DelaunayError::DeadVertex(v));
        }
        pos(positions, v)?;
        refuse_folds(surface, mesh, positions, mesh.vertex_faces(v))?;
        star_and_link(mesh, v, &mut stack);
    }
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    mesh.atomically(|mesh| lawson(surface, mesh, positions, &mut stack, limit))
}

/// [`make_delaunay`] starting from the given edges only. Returns the number of flips.
///
/// # Errors
/// As [`make_delaunay`]; a dead edge is [`quadedge::MeshError::DeadEdge`] (wrapped).
pub fn make_delaunay_from_edges<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    edges: &[Edge],
) -> Result<usize, DelaunayError> {
    check_len(mesh, positions)?;
    let mut stack = Vec::with_capacity(edges.len());
    for &e in edges {
        if e.index() >= 4 * mesh.quad_slots() || !mesh.is_edge_alive(e) {
            return Err(MeshError::DeadEdge(e).into());
        }
        let e = if e.is_dual() { e.rot() } else { e };
        let faces = [mesh.left(e), mesh.right(e)];
        refuse_folds(
            surface,
            mesh,
            positions,
            faces.into_iter().filter(|f| f.is_valid()),
        )?;
        stack.push(e);
    }
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    mesh.atomically(|mesh| lawson(surface, mesh, positions, &mut stack, limit))
}

/// Pushes the edges of `v`'s star and the far edge of each face around `v`.
pub(crate) fn star_and_link(mesh: &Mesh, v: Vertex, out: &mut Vec<Edge>) {
    for e in mesh.outgoing(v) {
        out.push(e);
        if mesh.left(e).is_valid() {
            out.push(mesh.left_next(e));
        }
    }
}
