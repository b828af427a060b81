//! Inserting a point into a Delaunay triangulation and removing a vertex from one.

use crate::check::{finite4, pos};
use crate::flips::flip_limit;
use crate::locate::{Location, locate};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};
use std::cell::RefCell;

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
/// Always before any edit (mesh and positions unchanged): positions too short or not finite,
/// `p` not finite, a dead hint, [`DelaunayError::Duplicate`] naming the vertex `p` coincides
/// with, [`DelaunayError::Outside`] when `p` is outside a planar triangulation or, on the
/// sphere, not in convex position (inside the hull of the points: not on their sphere, the
/// centre included),
/// [`DelaunayError::NotConvex`] when `p` is outside the hull but would swallow a vertex (a
/// few ulps off the sphere next to nearly co-circular points), [`DelaunayError::FlipLimit`].
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
    insert_keeping(surface, mesh, positions, p, hint).map(|(ins, _)| ins)
}

/// [`insert`], also returning the position the new vertex's slot held before, when the
/// slot was within `positions` (a dead slot the mesh reused: its stale value). A caller
/// that must put `positions` back after a later failure keeps these instead of saving every
/// dead slot's value beforehand.
///
/// ```
/// use delaunay::{Sphere, insert_keeping, remove};
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(500, 1.0, 0.3, 1).unwrap();
/// let v = mesh.vertices().nth(7).unwrap();
/// let stale = pos[v.index()];
/// remove(&Sphere, &mut mesh, &pos, v).unwrap();
/// let p = glam::DVec3::new(0.3, -0.4, 0.5).normalize();
/// let (ins, old) = insert_keeping(&Sphere, &mut mesh, &mut pos, p, None).unwrap();
/// assert_eq!((ins.vertex, old), (v, Some(stale)));
/// let (_, old) = insert_keeping(&Sphere, &mut mesh, &mut pos, -p, None).unwrap();
/// assert_eq!(old, None);
/// ```
///
/// # Errors
/// As [`insert`] (nothing changed).
pub fn insert_keeping<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    p: DVec3,
    hint: Option<Face>,
) -> Result<(Inserted, Option<DVec3>), DelaunayError> {
    // The centre is on no sphere around it (every direction test through it is zero).
    if surface.is_closed() && p == DVec3::ZERO {
        return Err(DelaunayError::Outside);
    }
    let loc = locate(surface, mesh, positions, p, hint)?;
    with_plan(|plan| insert_at(surface, mesh, positions, p, loc, plan))
}

thread_local! {
    /// The flip plan's buffers, reused by every insertion on this thread (no allocation per
    /// point once warm).
    static PLAN: RefCell<FlipPlan> = RefCell::new(FlipPlan::default());
}

/// Runs `f` with this thread's flip plan (a fresh one if it is in use), then drops buffers an
/// unusual insertion grew large.
pub(crate) fn with_plan<T>(f: impl FnOnce(&mut FlipPlan) -> T) -> T {
    PLAN.with(|cell| match cell.try_borrow_mut() {
        Ok(mut plan) => {
            let r = f(&mut plan);
            let held = plan.stack.capacity() + plan.star.capacity() + plan.flips.capacity();
            if held + plan.reads.capacity() > 1 << 12 {
                *plan = FlipPlan::default();
            }
            r
        }
        Err(_) => f(&mut FlipPlan::default()),
    })
}

/// The flips an insertion will make, decided before the first edit (reusable buffers).
#[derive(Default)]
pub(crate) struct FlipPlan {
    /// Link edges still to test, as in Lawson's stack.
    pub(crate) stack: Vec<Edge>,
    /// The new vertex's neighbours so far: a flip that would join one twice is refused.
    pub(crate) star: Vec<Vertex>,
    /// The edges to flip, in order.
    pub(crate) flips: Vec<Edge>,
    /// The far faces the plan read (see [`crate::planned`]).
    pub(crate) reads: Vec<Face>,
}

/// [`insert`] at a known location (and the slot's old position, see [`insert_keeping`]). Every decision is taken before the first edit: the Lawson
/// flips that follow the split are simulated on the unchanged mesh first (every face they
/// read beyond the new vertex's star is an original face), so a flip that would get stuck
/// refuses the insertion with nothing changed, and the edit itself cannot fail half-way.
pub(crate) fn insert_at<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    p: DVec3,
    loc: Location,
    plan: &mut FlipPlan,
) -> Result<(Inserted, Option<DVec3>), DelaunayError> {
    plan.clear();
    let on_edge = match loc {
        Location::OnVertex(v) => return Err(DelaunayError::Duplicate(v)),
        Location::Outside(_) => return Err(DelaunayError::Outside),
        Location::InFace(f) => {
            let [a, b, c] = corners(mesh, positions, f)?;
            if surface.in_circle(a, b, c, p) <= 0.0 {
                return Err(DelaunayError::Outside);
            }
            let [e0, e1, e2] = mesh.face_edges(f);
            plan.stack.extend([e0, e1, e2]);
            false
        }
        Location::OnEdge(e) => {
            let f = mesh.left(e);
            let [a, b, c] = corners(mesh, positions, f)?;
            if surface.in_circle(a, b, c, p) <= 0.0 {
                return Err(DelaunayError::Outside);
            }
            plan.stack.extend([mesh.left_next(e), mesh.left_prev(e)]);
            plan.star
                .extend([mesh.origin(e), mesh.dest(e), mesh.origin(plan.stack[1])]);
            if mesh.right(e).is_valid() {
                let (n, p) = (mesh.left_next(e.sym()), mesh.left_prev(e.sym()));
                plan.stack.extend([n, p]);
                plan.star.push(mesh.origin(p));
            }
            true
        }
    };
    if !on_edge {
        plan.star.extend(plan.stack.iter().map(|&x| mesh.origin(x)));
    }
    plan_flips(surface, mesh, positions, p, plan)?;
    make(surface, mesh, positions, p, loc, &plan.flips)
}

impl FlipPlan {
    pub(crate) fn clear(&mut self) {
        self.stack.clear();
        self.star.clear();
        self.flips.clear();
        self.reads.clear();
    }
}

/// The edit of an insertion at `loc` whose flips were planned (`flips`, in order): the split,
/// the position, the flips; returns the slot's old position too (see [`insert_keeping`]).
pub(crate) fn make<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    p: DVec3,
    loc: Location,
    flips: &[Edge],
) -> Result<(Inserted, Option<DVec3>), DelaunayError> {
    let vertex = match loc {
        Location::InFace(f) => {
            let w = barycentric(surface, corners(mesh, positions, f)?, p);
            return make_in_face(mesh, positions, p, (f, w), flips);
        }
        Location::OnEdge(e) => {
            let (pa, pb) = (
                positions[mesh.origin(e).index()],
                positions[mesh.dest(e).index()],
            );
            let (da, db) = (pa.distance(p), pb.distance(p));
            let t = if da + db > 0.0 { da / (da + db) } else { 0.5 };
            mesh.split(e, t as f32)?.vertex
        }
        Location::OnVertex(v) => return Err(DelaunayError::Duplicate(v)),
        Location::Outside(_) => return Err(DelaunayError::Outside),
    };
    Ok(finish(mesh, positions, p, (vertex, true), flips))
}

/// [`make`] inside face `f`, given its corners' barycentric weights `w` (as [`barycentric`]
/// gives them: an insertion planned ahead computes them with its plan).
pub(crate) fn make_in_face(
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    p: DVec3,
    (f, w): (Face, [f32; 3]),
    flips: &[Edge],
) -> Result<(Inserted, Option<DVec3>), DelaunayError> {
    let vertex = mesh.split_face_compact(f, w)?.vertex;
    Ok(finish(mesh, positions, p, (vertex, false), flips))
}

/// The end of [`make`] once the split made `vertex`: its position, then the planned flips.
fn finish(
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    p: DVec3,
    (vertex, on_edge): (Vertex, bool),
    flips: &[Edge],
) -> (Inserted, Option<DVec3>) {
    let stale = positions.get(vertex.index()).copied();
    set_position(positions, vertex, p);
    // The planned flips: each joins the new vertex to a corner it was not joined to (the plan
    // tracked its star), across a quad the plan found convex.
    for &e in flips {
        let r = mesh.flip_fresh(e);
        debug_assert!(r.is_ok(), "planned flip of {e:?}: {r:?}");
    }
    let ins = Inserted {
        vertex,
        flips: flips.len(),
        on_edge,
    };
    (ins, stale)
}

/// Lawson's flips after inserting `p`, decided on the mesh before the split: every queued
/// edge `a → b` has the new vertex on its left once split, its far face `(b, a, d)` is a face
/// of the unchanged mesh (flips only make faces around the new vertex), and a flip exposes
/// the far face's other edges `a → d` and `d → b`. The spokes a flip makes are Delaunay by
/// Lawson's insertion lemma, so they are never tested.
///
/// # Errors
/// [`DelaunayError::NotConvex`] when a flip would be needed but cannot be made (its quad is not
/// convex, or it would join the new vertex to a neighbour twice); positions not finite;
/// [`DelaunayError::FlipLimit`].
pub(crate) fn plan_flips<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    pv: DVec3,
    plan: &mut FlipPlan,
) -> Result<(), DelaunayError> {
    let limit = flip_limit(plan.stack.len(), mesh.undirected_edge_count());
    while let Some(e) = plan.stack.pop() {
        let es = e.sym();
        if !mesh.left(es).is_valid() {
            continue; // A boundary edge of the plane: never reflex.
        }
        plan.reads.push(mesh.left(es));
        let far = mesh.left_next(es);
        let (a, b, d) = (mesh.origin(e), mesh.dest(e), mesh.dest(far));
        let [pa, pb, pd, _] = finite4(positions, [a, b, d, d])?;
        if surface.in_circle(pa, pb, pv, pd) <= 0.0 {
            continue;
        }
        if plan.flips.len() >= limit {
            return Err(DelaunayError::FlipLimit(plan.flips.len()));
        }
        // The flipped faces (d, v, a) and (v, d, b) must turn counter-clockwise, and `d` must
        // not be a neighbour already.
        if surface.orient(pd, pv, pa) <= 0.0
            || surface.orient(pv, pd, pb) <= 0.0
            || plan.star.contains(&d)
        {
            return Err(DelaunayError::NotConvex(e));
        }
        plan.flips.push(e);
        plan.star.push(d);
        plan.stack.extend([far, mesh.left_prev(es)]);
    }
    Ok(())
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
pub(crate) fn barycentric<S: Surface>(surface: &S, t: [DVec3; 3], p: DVec3) -> [f32; 3] {
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
