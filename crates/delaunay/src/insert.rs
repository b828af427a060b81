//! Inserting a point into a Delaunay triangulation and removing a vertex from one.

use crate::check::{check_len, pos};
use crate::flips::{flip_limit, lawson};
use crate::locate::{Location, locate};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, MeshError, Vertex};

/// What an insertion did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inserted {
    /// The new vertex (its position is set).
    pub vertex: Vertex,
    /// Lawson flips made after the split.
    pub flips: usize,
    /// Whether the point fell on an edge (split) rather than inside a face (face split).
    pub on_edge: bool,
}

/// Inserts point `p` into a Delaunay triangulation: [`locate`] it from `hint`, split the face
/// it falls in (with [`Mesh::split_face`], passing the barycentric weights of its corners for
/// the layers' data) or the edge it falls on ([`Mesh::split`]), set its position, then flip
/// edges opposite the new vertex while they are not locally Delaunay.
///
/// `positions` grows when the new vertex id is past its end (dead slots get NaN).
///
/// # Errors
/// Before any edit: positions too short or not finite, `p` not finite, a dead hint,
/// [`DelaunayError::Duplicate`] naming the vertex `p` coincides with,
/// [`DelaunayError::Outside`] when `p` is outside a planar triangulation or, on the sphere,
/// not in convex position (inside the hull of the points: not on their sphere).
///
/// ```
/// use delaunay::{Sphere, insert, is_delaunay, remove};
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
/// let before = mesh.clone();
/// let p = glam::DVec3::new(0.2, 0.5, -0.7).normalize();
/// let ins = insert(&Sphere, &mut mesh, &mut pos, p, None).unwrap();
/// assert_eq!(pos[ins.vertex.index()], p);
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// // The same point again is a duplicate, naming the vertex.
/// assert_eq!(insert(&Sphere, &mut mesh, &mut pos, p, None), Err(delaunay::DelaunayError::Duplicate(ins.vertex)));
/// remove(&Sphere, &mut mesh, &pos, ins.vertex).unwrap();
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// mesh.check().unwrap();
/// # let _ = before;
/// ```
pub fn insert<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    p: DVec3,
    hint: Option<Face>,
) -> Result<Inserted, DelaunayError> {
    let loc = locate(surface, mesh, positions, p, hint)?;
    let (vertex, on_edge) = match loc {
        Location::OnVertex(v) => return Err(DelaunayError::Duplicate(v)),
        Location::Outside(_) => return Err(DelaunayError::Outside),
        Location::InFace(f) => {
            let [a, b, c] = corners(mesh, positions, f)?;
            if surface.in_circle(a, b, c, p) <= 0.0 {
                return Err(DelaunayError::Outside);
            }
            let w = barycentric(surface, [a, b, c], p);
            (mesh.split_face(f, w)?.vertex, false)
        }
        Location::OnEdge(e) => {
            let f = mesh.left(e);
            let [a, b, c] = corners(mesh, positions, f)?;
            if surface.in_circle(a, b, c, p) <= 0.0 {
                return Err(DelaunayError::Outside);
            }
            let (pa, pb) = (
                positions[mesh.origin(e).index()],
                positions[mesh.dest(e).index()],
            );
            let (da, db) = (pa.distance(p), pb.distance(p));
            let t = if da + db > 0.0 { da / (da + db) } else { 0.5 };
            (mesh.split(e, t as f32)?.vertex, true)
        }
    };
    set_position(positions, vertex, p);
    // Only the edges opposite the new vertex can fail the circle test: its spokes are
    // Delaunay by construction (Lawson's insertion lemma), and each flip queues its quad.
    let mut stack = Vec::with_capacity(16);
    for e in mesh.outgoing(vertex) {
        stack.push(mesh.left_next(e));
    }
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    let flips = lawson(surface, mesh, positions, &mut stack, limit)?;
    Ok(Inserted {
        vertex,
        flips,
        on_edge,
    })
}

/// Writes the position of a (possibly new) vertex, growing the vector with NaN slots.
pub(crate) fn set_position(positions: &mut Vec<DVec3>, v: Vertex, p: DVec3) {
    if v.index() >= positions.len() {
        positions.resize(v.index() + 1, DVec3::NAN);
    }
    positions[v.index()] = p;
}

/// The corner positions of a face, counter-clockwise.
pub(crate) fn corners(
    mesh: &Mesh,
    positions: &[DVec3],
    f: Face,
) -> Result<[DVec3; 3], DelaunayError> {
    let [a, b, c] = mesh.face_vertices(f);
    Ok([pos(positions, a)?, pos(positions, b)?, pos(positions, c)?])
}

/// Barycentric weights of `p` in triangle `t` from the three sub-triangle orientations (areas
/// in the plane, volumes of the cones on the sphere), clamped and normalised.
fn barycentric<S: Surface>(surface: &S, t: [DVec3; 3], p: DVec3) -> [f32; 3] {
    let w = [
        surface.orient(p, t[1], t[2]).max(0.0),
        surface.orient(t[0], p, t[2]).max(0.0),
        surface.orient(t[0], t[1], p).max(0.0),
    ];
    let sum = w[0] + w[1] + w[2];
    if !(sum > 0.0 && sum.is_finite()) {
        return [1.0 / 3.0; 3];
    }
    let a = (w[0] / sum) as f32;
    let b = (w[1] / sum) as f32;
    [a, b, (1.0 - a - b).max(0.0)]
}

/// What a removal did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removed {
    /// Flips that emptied the vertex's star down to three edges.
    pub ear_flips: usize,
    /// Lawson flips afterwards (zero when every ear was Delaunay).
    pub flips: usize,
}

/// Removes vertex `v` from a Delaunay triangulation and re-triangulates its hole as Delaunay:
/// flip its star down to three edges, choosing at each step an ear of the hole's polygon that
/// is convex and whose circumcircle holds no other corner of the polygon (such an ear always
/// exists), then [`Mesh::dissolve_vertex`]; a final Lawson pass checks the hole exactly.
/// `positions[v]` is left as it was (the slot is dead).
///
/// # Errors
/// Before any edit: positions too short or not finite, a dead vertex, a boundary vertex
/// ([`DelaunayError::BoundaryVertex`]), a sphere of four vertices
/// ([`DelaunayError::TooFewVertices`]).
pub fn remove<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
) -> Result<Removed, DelaunayError> {
    check_len(mesh, positions)?;
    if v.index() >= mesh.vertex_slots() || !mesh.is_vertex_alive(v) {
        return Err(DelaunayError::DeadVertex(v));
    }
    if !surface.is_closed() && mesh.is_boundary_vertex(v) {
        return Err(DelaunayError::BoundaryVertex(v));
    }
    if mesh.vertex_count() <= 4 {
        return Err(DelaunayError::TooFewVertices(mesh.vertex_count()));
    }
    for u in mesh.neighbors(v) {
        pos(positions, u)?;
    }
    // The hole's edges: its polygon and the diagonals the ear flips create. Every other
    // edge keeps both its faces, hence its circle test.
    let mut stack: Vec<Edge> = mesh.outgoing(v).map(|e| mesh.left_next(e)).collect();
    let ear_flips = reduce_to_degree3(surface, mesh, positions, v, &mut stack)?;
    mesh.dissolve_vertex(v)?;
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    let flips = lawson(surface, mesh, positions, &mut stack, limit)?;
    Ok(Removed { ear_flips, flips })
}

/// Above this degree the empty-circle test of an ear (quadratic in the degree) is skipped and
/// the final Lawson pass makes the hole Delaunay instead.
const EAR_TEST_MAX_DEGREE: usize = 48;

/// Flips edges of `v`'s star until `v` has three neighbours, choosing Delaunay ears of the
/// link polygon (positions of the link only; `v`'s own position is not read). Returns the
/// number of flips; the diagonals the flips create are pushed to `created`. Falls back to a
/// true ear, a convex corner, then any corner whose flip the mesh accepts (folded links), so
/// it fails only when no flip of the star is possible at all.
pub(crate) fn reduce_to_degree3<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
    created: &mut Vec<Edge>,
) -> Result<usize, DelaunayError> {
    // Spokes v → u_i, counter-clockwise, and the link's positions (read once).
    let mut spokes: Vec<Edge> = mesh.outgoing(v).collect();
    let mut link: Vec<DVec3> = spokes
        .iter()
        .map(|&e| positions[mesh.dest(e).index()])
        .collect();
    // Ears whose diagonal already exists (the flip was refused): skipped until the next flip.
    let mut blocked: Vec<bool> = vec![false; spokes.len()];
    let mut flips = 0;
    while spokes.len() > 3 {
        let d = spokes.len();
        let u = |i: usize| link[i % d];
        // Tiers: a Delaunay ear (convex, no other corner in its circumcircle); a true ear
        // (convex, no other corner inside the triangle); a convex corner; any other one.
        let mut true_ear = None;
        let mut convex_ear = None;
        let mut any_ear = None;
        let mut chosen = None;
        for (i, _) in blocked.iter().enumerate().filter(|(_, b)| !**b) {
            let (a, b, c) = ((i + d - 1) % d, i, (i + 1) % d);
            any_ear.get_or_insert(b);
            if surface.orient(u(a), u(b), u(c)) <= 0.0 {
                continue;
            }
            convex_ear.get_or_insert(b);
            if d > EAR_TEST_MAX_DEGREE && true_ear.is_none() {
                true_ear = Some(b);
                break;
            }
            let others = || (0..d).filter(|&j| j != a && j != b && j != c);
            if true_ear.is_none() {
                let inside = others().any(|j| {
                    surface.orient(u(a), u(b), u(j)) >= 0.0
                        && surface.orient(u(b), u(c), u(j)) >= 0.0
                        && surface.orient(u(c), u(a), u(j)) >= 0.0
                });
                if inside {
                    continue;
                }
                true_ear = Some(b);
            }
            if others().all(|j| surface.in_circle(u(a), u(b), u(c), u(j)) <= 0.0) {
                chosen = Some(b);
                break;
            }
        }
        let Some(b) = chosen.or(true_ear).or(convex_ear).or(any_ear) else {
            return Err(DelaunayError::FoldUnresolved(v));
        };
        match mesh.flip(spokes[b]) {
            Ok(e) => created.push(e),
            Err(MeshError::FlipWouldDuplicate(_)) => {
                blocked[b] = true;
                continue;
            }
            Err(e) => return Err(e.into()),
        }
        spokes.remove(b);
        link.remove(b);
        blocked.clear();
        blocked.resize(spokes.len(), false);
        flips += 1;
    }
    Ok(flips)
}

/// Moves a degree-3 vertex `v` from the triangle of its neighbours into the neighbouring
/// triangle across `outer` (an edge `a → b` of its link, with `v`'s face on its left), by two
/// flips: `v` keeps its id, edges and data; the triangle it leaves is restored.
pub(crate) fn hop(mesh: &mut Mesh, v: Vertex, outer: Edge) -> Result<(), DelaunayError> {
    // Link a → b → c around v; w beyond a → b.
    let c = mesh.dest(mesh.left_next(outer));
    debug_assert_eq!(c, v);
    let a = mesh.origin(outer);
    let b = mesh.dest(outer);
    let spoke_c = mesh
        .outgoing(v)
        .find(|&e| mesh.dest(e) != a && mesh.dest(e) != b)
        .ok_or(DelaunayError::FoldUnresolved(v))?;
    match mesh.flip(outer) {
        Ok(_) => {}
        Err(MeshError::FlipWouldDuplicate(_)) => return Err(DelaunayError::FoldUnresolved(v)),
        Err(e) => return Err(e.into()),
    }
    mesh.flip(spoke_c)?;
    Ok(())
}
