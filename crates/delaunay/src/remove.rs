//! Removing a vertex from a Delaunay triangulation: ear flips, then a dissolve.

use crate::check::{check_len, pos};
use crate::flips::{flip_limit, lawson};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, Vertex};
use read::StarRead;
use std::cell::RefCell;

mod parts;
mod read;
pub use parts::{remove_many_in_parts, remove_many_in_parts_within};

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
/// exists), then [`Mesh::dissolve_vertex`]. The ears and an exact check of every edge of the
/// hole are decided before the first edit; when that check fails (a mesh that was not
/// Delaunay) the flips are made and a Lawson pass follows, rolled back if it gets stuck.
/// `positions[v]` is left as it was (the slot is dead).
///
/// # Errors
/// Mesh and positions unchanged: positions too short or not finite, a dead vertex, a boundary
/// vertex ([`DelaunayError::BoundaryVertex`]), a sphere of four vertices
/// ([`DelaunayError::TooFewVertices`]), a vertex without which the others lie in one closed
/// hemisphere ([`DelaunayError::NotSpanning`], found when no positive triangulation of its
/// hole exists; the common removal decides its ears up front and pays nothing for
/// it); on a mesh that was not Delaunay, flips that get stuck
/// ([`DelaunayError::FoldUnresolved`], [`DelaunayError::NotDelaunay`],
/// [`DelaunayError::FlipLimit`]), rolled back with [`Mesh::atomically`].
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
    let planned = with_plan(|plan| {
        if !plan_removal(surface, None::<(&S, f64)>, mesh, positions, v, plan)? {
            return Ok(None);
        }
        // Every decision is taken: the ear flips join corners that are not connected, the
        // last three spokes dissolve, and the hole is already Delaunay.
        for &e in &plan.ears {
            let r = mesh.flip_fresh(e);
            debug_assert!(r.is_ok(), "planned ear flip of {e:?}: {r:?}");
        }
        mesh.dissolve_vertex(v)?;
        Ok::<_, DelaunayError>(Some(Removed {
            ear_flips: plan.ears.len(),
            flips: 0,
        }))
    })?;
    if let Some(removed) = planned {
        return Ok(removed);
    }
    // A star the plan cannot settle (a mesh that was not Delaunay, a huge degree, a refused
    // flip): flips, then Lawson, all or nothing since they can get stuck half-way.
    let star_ok = star_is_positive(surface, mesh, positions, v);
    mesh.atomically(|mesh| {
        // The hole's edges: its polygon and the diagonals the ear flips create. Every other
        // edge keeps both its faces, hence its circle test.
        let mut stack: Vec<Edge> = Vec::with_capacity(32);
        stack.extend(mesh.outgoing(v).map(|e| mesh.left_next(e)));
        let link: Vec<Vertex> = mesh.neighbors(v).collect();
        let ear_flips = reduce_to_degree3(surface, mesh, positions, v, &mut stack)?;
        mesh.dissolve_vertex(v)?;
        let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
        let flips = lawson(surface, mesh, positions, &mut stack, limit)?;
        // Fallback ears may have left a clockwise or flat face in the hole (Lawson makes none):
        // on a Delaunay mesh only when the points left cannot surround the centre.
        refuse_hole_folds(surface, mesh, positions, v, &link)?;
        Ok(Removed { ear_flips, flips })
    })
    .map_err(|e| match e {
        // Around a star that was a valid fan, flips get stuck only when no positive
        // triangulation of the hole exists: the points left lie in one closed hemisphere.
        DelaunayError::NotDelaunay(_)
        | DelaunayError::FoldUnresolved(_)
        | DelaunayError::FlipLimit(_)
            if star_ok && surface.is_closed() =>
        {
            DelaunayError::NotSpanning(v)
        }
        e => e,
    })
}

/// Does every face around `v` turn counter-clockwise?
fn star_is_positive<S: Surface>(surface: &S, mesh: &Mesh, positions: &[DVec3], v: Vertex) -> bool {
    mesh.vertex_faces(v).all(|f| {
        let [a, b, c] = mesh.face_vertices(f).map(|x| positions[x.index()]);
        surface.orient(a, b, c) > 0.0
    })
}

/// Every face around the hole of `v` (the faces around its old link) must turn
/// counter-clockwise; a positive triangulation of the hole's simple polygon covers it once,
/// so the covering is kept. Else [`DelaunayError::NotSpanning`].
fn refuse_hole_folds<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    v: Vertex,
    link: &[Vertex],
) -> Result<(), DelaunayError> {
    for &u in link {
        for f in mesh.vertex_faces(u) {
            let [a, b, c] = mesh.face_vertices(f).map(|x| positions[x.index()]);
            if surface.orient(a, b, c) <= 0.0 {
                return Err(DelaunayError::NotSpanning(v));
            }
        }
    }
    Ok(())
}

/// The ear flips of a removal, decided before the first edit (reusable buffers).
#[derive(Default)]
struct RemovalPlan {
    /// The link still to cut: spoke, corner position, blocked (unused here).
    ring: Vec<(Edge, DVec3, bool)>,
    /// For each entry of `ring`, its index in the original link.
    index: Vec<usize>,
    /// The spokes to flip, in order.
    ears: Vec<Edge>,
    /// The hole's triangles, as indices into the original link, counter-clockwise.
    triangles: Vec<[usize; 3]>,
    /// The original link: corner and the apex beyond each link edge (`None` on a boundary).
    link: Vec<(Vertex, DVec3, Option<DVec3>)>,
    /// Per original corner: why its ear failed last time ([`planned_ear`]).
    failed: Vec<Failed>,
    /// Per original corner: still in `ring`.
    in_ring: Vec<bool>,
}

/// Why the ear at a corner failed, with its outer corners then (original link indices): a
/// test of the same triangle fails again while its witness is still in the ring.
#[derive(Clone, Copy)]
struct Failed {
    a: usize,
    c: usize,
    /// The corner found inside the circumcircle, [`NOT_CONVEX`] when the ear did not turn
    /// counter-clockwise, [`UNTESTED`] when there is no record.
    witness: usize,
}

/// [`Failed::witness`] of an ear that does not turn counter-clockwise.
const NOT_CONVEX: usize = usize::MAX;
/// [`Failed::witness`] of a corner not tested yet.
const UNTESTED: usize = usize::MAX - 1;

thread_local! {
    /// The removal plan's buffers, reused by every removal on this thread.
    static PLAN: RefCell<RemovalPlan> = RefCell::new(RemovalPlan::default());
}

/// Runs `f` with this thread's removal plan (a fresh one if it is in use).
fn with_plan<T>(f: impl FnOnce(&mut RemovalPlan) -> T) -> T {
    PLAN.with(|cell| match cell.try_borrow_mut() {
        Ok(mut plan) => {
            let r = f(&mut plan);
            if plan.ring.capacity() > 1 << 10 {
                *plan = RemovalPlan::default();
            }
            r
        }
        Err(_) => f(&mut RemovalPlan::default()),
    })
}

/// Decides the removal of `v` on the unchanged mesh: the Delaunay ears of its link, in the
/// order [`reduce_to_degree3`] would cut them, and an exact check that the hole they
/// triangulate is locally Delaunay with itself and with the faces around it. `Ok(false)` when
/// the plan cannot settle the removal (no Delaunay ear, an ear whose diagonal exists already,
/// a degree above [`EAR_TEST_MAX_DEGREE`], a hole edge that is not locally Delaunay): the
/// caller then takes the general path.
///
/// `within`: a second surface and a reach, when it returns the same value as `surface` for
/// every test whose points have each coordinate within the reach (a static filter). A star
/// whose link and apexes (every point the plan's tests read) are all within it is planned
/// with that surface: the same decisions.
fn plan_removal<S: Surface, F: Surface, R: StarRead>(
    surface: &S,
    within: Option<(&F, f64)>,
    mesh: &R,
    positions: &[DVec3],
    v: Vertex,
    plan: &mut RemovalPlan,
) -> Result<bool, DelaunayError> {
    plan.ring.clear();
    plan.index.clear();
    plan.ears.clear();
    plan.triangles.clear();
    plan.link.clear();
    plan.failed.clear();
    plan.in_ring.clear();
    let first = mesh.first_out(v);
    if !first.is_valid() {
        return Ok(false);
    }
    // Every point the tests read is within the filter's reach (a NaN is not).
    let reach = within.map_or(f64::NAN, |(_, r)| r);
    let inside = |p: DVec3| p.abs().cmple(DVec3::splat(reach)).all();
    let mut near = within.is_some();
    let mut e = first;
    loop {
        let u = mesh.dest(e);
        let pu = positions[u.index()];
        if !mesh.may_plan(e, pu) {
            return Ok(false);
        }
        plan.ring.push((e, pu, false));
        plan.index.push(plan.link.len());
        // The link edge u → next corner has v's face on its left; the apex is beyond it.
        let out = mesh.lnext(e).sym();
        let apex = mesh.has_left(out).then(|| mesh.dest(mesh.lnext(out)));
        let apex = match apex {
            Some(w) => Some(pos(positions, w)?),
            None => None,
        };
        near = near && inside(pu) && apex.is_none_or(inside);
        plan.link.push((u, pu, apex));
        if plan.link.len() > EAR_TEST_MAX_DEGREE {
            return Ok(false);
        }
        e = mesh.onext(e);
        if e == first {
            break;
        }
    }
    if plan.link.len() < 3 {
        return Ok(false);
    }
    Ok(match within {
        Some((filtered, _)) if near => settle(filtered, mesh, plan),
        _ => settle(surface, mesh, plan),
    })
}

/// The rest of [`plan_removal`], on the star's link as gathered in `plan`: the ears, then the
/// hole's check. Reads no position but the plan's.
fn settle<S: Surface, R: StarRead>(surface: &S, mesh: &R, plan: &mut RemovalPlan) -> bool {
    let untested = Failed {
        a: 0,
        c: 0,
        witness: UNTESTED,
    };
    plan.failed.resize(plan.link.len(), untested);
    plan.in_ring.resize(plan.link.len(), true);
    while plan.ring.len() > 3 {
        let d = plan.ring.len();
        let Some(b) = planned_ear(surface, plan) else {
            return false;
        };
        let (a, c) = (plan.index[(b + d - 1) % d], plan.index[(b + 1) % d]);
        // The flip joins the ear's outer corners: refused if they are joined already.
        if mesh.joined(plan.link[a].0, plan.link[c].0) {
            return false;
        }
        plan.ears.push(plan.ring[b].0);
        plan.triangles.push([a, plan.index[b], c]);
        plan.in_ring[plan.index[b]] = false;
        plan.ring.remove(b);
        plan.index.remove(b);
    }
    plan.triangles
        .push([plan.index[0], plan.index[1], plan.index[2]]);
    // The hole is locally Delaunay when each of its edges is; strictly inside a circumcircle
    // means Lawson would flip: not settled. What the ears decided already is not tested again:
    // every ear turned counter-clockwise when it was cut (the same exact sign), and every
    // diagonal is the cut edge of one ear whose circle held none of the corners left in the
    // ring, the other triangle's apex among them (from either side the test has the same
    // exact sign: the four corners in an even permutation). Left: the last triangle's turn
    // and each link edge against the apex beyond it.
    let last = plan.triangles[plan.triangles.len() - 1].map(|i| plan.link[i].1);
    if surface.orient(last[0], last[1], last[2]) <= 0.0 {
        return false;
    }
    let n = plan.link.len();
    for tri in &plan.triangles {
        for k in 0..3 {
            let (x, y) = (tri[k], tri[(k + 1) % 3]);
            if y != (x + 1) % n {
                continue;
            }
            if let Some(w) = plan.link[x].2 {
                let z = tri[(k + 2) % 3];
                let [px, py, pz] = [x, y, z].map(|i| plan.link[i].1);
                if surface.in_circle(px, py, pz, w) > 0.0 {
                    return false;
                }
            }
        }
    }
    true
}

/// [`delaunay_ear`] of the plan's ring (the same corner), without testing again an ear
/// whose triangle failed before and whose reason is still there: after a cut only the two
/// ears beside it and those whose witness was the cut corner can change.
fn planned_ear<S: Surface>(surface: &S, plan: &mut RemovalPlan) -> Option<usize> {
    let d = plan.ring.len();
    if d > EAR_TEST_MAX_DEGREE {
        return None;
    }
    let u = |i: usize| plan.ring[i % d].1;
    for b in 0..d {
        let (a, c) = (plan.index[(b + d - 1) % d], plan.index[(b + 1) % d]);
        let f = plan.failed[plan.index[b]];
        if f.a == a
            && f.c == c
            && (f.witness == NOT_CONVEX || (f.witness != UNTESTED && plan.in_ring[f.witness]))
        {
            continue;
        }
        let (pa, pb, pc) = (u(b + d - 1), u(b), u(b + 1));
        let witness = if surface.orient(pa, pb, pc) > 0.0 {
            match (b + 2..b + d - 1).find(|&j| surface.in_circle(pa, pb, pc, u(j)) > 0.0) {
                None => return Some(b),
                Some(j) => plan.index[j % d],
            }
        } else {
            NOT_CONVEX
        };
        plan.failed[plan.index[b]] = Failed { a, c, witness };
    }
    None
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
    // Spokes v → u_i, counter-clockwise, with the link's positions (read once) and whether
    // the ear at u_i is blocked: its diagonal already exists (the flip was refused), skipped
    // until the next flip. One allocation per removal.
    let mut ring: Vec<(Edge, DVec3, bool)> = mesh
        .outgoing(v)
        .map(|e| (e, positions[mesh.dest(e).index()], false))
        .collect();
    let mut flips = 0;
    while ring.len() > 3 {
        let d = ring.len();
        let b = match delaunay_ear(surface, &ring) {
            Some(b) => b,
            None => fallback_ear(surface, &ring).ok_or(DelaunayError::FoldUnresolved(v))?,
        };
        match mesh.flip(ring[b].0) {
            Ok(e) => created.push(e),
            Err(MeshError::FlipWouldDuplicate(_)) => {
                ring[b].2 = true;
                continue;
            }
            Err(e) => return Err(e.into()),
        }
        ring.remove(b);
        for r in &mut ring {
            r.2 = false;
        }
        flips += 1;
        debug_assert_eq!(ring.len(), d - 1);
    }
    Ok(flips)
}

/// The first unblocked ear of the link that is convex and whose circumcircle holds no other
/// corner of the link (such an ear exists on a Delaunay star; it is also a true ear, since a
/// circumcircle holds its triangle). Early exits keep a typical star at a few tests per ear.
pub(crate) fn delaunay_ear<S: Surface>(surface: &S, ring: &[(Edge, DVec3, bool)]) -> Option<usize> {
    let d = ring.len();
    if d > EAR_TEST_MAX_DEGREE {
        return None;
    }
    let u = |i: usize| ring[i % d].1;
    (0..d).find(|&b| {
        let (a, c) = (b + d - 1, b + 1);
        !ring[b].2
            && surface.orient(u(a), u(b), u(c)) > 0.0
            && (b + 2..b + d - 1).all(|j| surface.in_circle(u(a), u(b), u(c), u(j)) <= 0.0)
    })
}

/// When no Delaunay ear is free (folded links, refused flips, huge degrees): a true ear
/// (convex, no other corner inside the triangle), else a convex corner, else any unblocked
/// corner. The final Lawson pass of the caller makes the hole Delaunay.
#[cold]
pub(crate) fn fallback_ear<S: Surface>(surface: &S, ring: &[(Edge, DVec3, bool)]) -> Option<usize> {
    let d = ring.len();
    let u = |i: usize| ring[i % d].1;
    let mut convex_ear = None;
    let mut any_ear = None;
    for b in (0..d).filter(|&b| !ring[b].2) {
        let (a, c) = (b + d - 1, b + 1);
        any_ear.get_or_insert(b);
        if surface.orient(u(a), u(b), u(c)) <= 0.0 {
            continue;
        }
        convex_ear.get_or_insert(b);
        if d > EAR_TEST_MAX_DEGREE {
            return Some(b);
        }
        let inside = (b + 2..b + d - 1).any(|j| {
            surface.orient(u(a), u(b), u(j)) >= 0.0
                && surface.orient(u(b), u(c), u(j)) >= 0.0
                && surface.orient(u(c), u(a), u(j)) >= 0.0
        });
        if !inside {
            return Some(b);
        }
    }
    convex_ear.or(any_ear)
}

#[cfg(test)]
mod tests;
