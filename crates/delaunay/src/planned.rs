//! Insertions planned on all cores, then made one by one in order.
//!
//! An insertion's plan (the face its point falls in, and the Lawson flips after the split)
//! only reads the mesh. Planned on the mesh before any of a batch's insertions, it is still
//! the plan the insertion makes at its turn when none of the faces it read was changed by an
//! earlier insertion of the batch, and every face an insertion changes is a face around its
//! new vertex afterwards (the split face's pieces and each flip's two faces). So the batch
//! marks those faces after each insertion and makes each insertion from its plan when none of
//! its faces is marked, afresh otherwise: the mesh, the vertex ids, the journal and the undo
//! log are those of [`insert_keeping`] called for each point in turn, bit for bit, on any
//! number of threads. Points of one batch far apart from each other (new crust along plate
//! boundaries) keep nearly every plan.

use crate::insert::{FlipPlan, barycentric, insert_keeping, make_in_face, plan_flips, with_plan};
use crate::locate::{Location, locate};
use crate::{DelaunayError, Inserted, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh};
use rayon::prelude::*;

/// Flips and faces a plan holds (a larger one is made afresh at its turn).
const MAX_FLIPS: usize = 12;
const MAX_READS: usize = 28;

/// Batches smaller than this are not planned ahead: each point is planned at its turn, on
/// this thread (the same result). A plan is about 1.4 µs of one core's work (locate, flip
/// plan; measured at 500k vertices), so a smaller batch's plans are under about 0.7 ms, and
/// on two cores a phase that short gains less than waking the other core and waiting on its
/// piece cost.
const MIN_PLANNED: usize = 512;

/// An insertion planned on the mesh before its batch, held inline (no allocation per point).
#[derive(Clone, Copy)]
struct Planned {
    /// The face the point is strictly inside; [`Face::INVALID`] when there is no plan.
    face: Face,
    /// The barycentric weights of the point in `face` (the split's, computed with the plan).
    weights: [f32; 3],
    flips: [Edge; MAX_FLIPS],
    reads: [Face; MAX_READS],
    counts: (u8, u8),
}

impl Planned {
    const NONE: Planned = Planned {
        face: Face::INVALID,
        weights: [0.0; 3],
        flips: [Edge::INVALID; MAX_FLIPS],
        reads: [Face::INVALID; MAX_READS],
        counts: (0, 0),
    };

    fn flips(&self) -> &[Edge] {
        &self.flips[..usize::from(self.counts.0)]
    }

    /// Every face the plan read: the face split, then the far faces of the tested edges.
    fn reads(&self) -> &[Face] {
        &self.reads[..usize::from(self.counts.1)]
    }
}

/// The plan of inserting `p` from `hint` (a live face), or [`Planned::NONE`] when the point
/// is not strictly inside a face, is refused, or needs more room than a plan holds.
fn plan<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    hint: Face,
) -> Planned {
    if !mesh.is_face_alive(hint) || (surface.is_closed() && p == DVec3::ZERO) {
        return Planned::NONE;
    }
    let Ok(Location::InFace(f)) = locate(surface, mesh, positions, p, Some(hint)) else {
        return Planned::NONE;
    };
    with_plan(|plan| planned_in(surface, mesh, positions, p, f, plan)).unwrap_or(Planned::NONE)
}

/// [`plan`] for a point strictly inside face `f`: the steps of the insertion's own plan.
fn planned_in<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    f: Face,
    plan: &mut FlipPlan,
) -> Option<Planned> {
    plan.clear();
    let [a, b, c] = crate::insert::corners(mesh, positions, f).ok()?;
    if surface.in_circle(a, b, c, p) <= 0.0 {
        return None;
    }
    let [e0, e1, e2] = mesh.face_edges(f);
    plan.stack.extend([e0, e1, e2]);
    plan.star.extend(plan.stack.iter().map(|&x| mesh.origin(x)));
    plan_flips(surface, mesh, positions, p, plan).ok()?;
    if plan.flips.len() > MAX_FLIPS || plan.reads.len() >= MAX_READS {
        return None;
    }
    let mut out = Planned {
        face: f,
        weights: barycentric(surface, [a, b, c], p),
        counts: (plan.flips.len() as u8, plan.reads.len() as u8 + 1),
        ..Planned::NONE
    };
    out.flips[..plan.flips.len()].copy_from_slice(&plan.flips);
    out.reads[0] = f;
    out.reads[1..=plan.reads.len()].copy_from_slice(&plan.reads);
    Some(out)
}

/// Inserts `points` in their order, each located from its face (from the face of the
/// previous insertion's vertex when that face is dead or [`Face::INVALID`]), calling
/// `done(k, inserted, stale)` after the `k`-th (`stale` as [`insert_keeping`] returns it).
/// The result is that of [`insert_keeping`] called for each point in turn with that hint,
/// bit for bit, whatever the thread count: the insertions are planned on all cores first,
/// and an insertion whose plan an earlier one touched is made afresh (see the module docs).
///
/// # Errors
/// At the first point refused, its index and [`insert_keeping`]'s error; the points before it
/// are inserted (the caller rolls back), nothing of it.
pub fn insert_in_order<S: Surface + Sync>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    points: &[(DVec3, Face)],
    mut done: impl FnMut(usize, Inserted, Option<DVec3>),
) -> Result<(), (usize, DelaunayError)> {
    let plans: Vec<Planned> = if points.len() >= MIN_PLANNED {
        let (m, pos) = (&*mesh, &positions[..]);
        points
            .par_iter()
            .with_min_len(16)
            .map(|&(p, hint)| plan(surface, m, pos, p, hint))
            .collect()
    } else {
        Vec::new()
    };
    // The faces the insertions so far changed, one bit per face slot (only a batch planned
    // ahead reads them).
    let mut touched: Vec<u64> = if plans.is_empty() {
        Vec::new()
    } else {
        vec![0; mesh.face_slots().div_ceil(64)]
    };
    let is = |t: &[u64], f: Face| {
        t.get(f.index() / 64)
            .is_some_and(|w| (w >> (f.index() % 64)) & 1 == 1)
    };
    let mut last: Option<Face> = None;
    for (k, &(p, hint)) in points.iter().enumerate() {
        let kept = plans
            .get(k)
            .filter(|pl| pl.face.is_valid() && !pl.reads().iter().any(|&f| is(&touched, f)));
        let r = match kept {
            Some(pl) => make_in_face(mesh, positions, p, (pl.face, pl.weights), pl.flips()),
            None => {
                let start = if mesh.is_face_alive(hint) {
                    Some(hint)
                } else {
                    last
                };
                insert_keeping(surface, mesh, positions, p, start)
            }
        };
        let (ins, stale) = r.map_err(|e| (k, e))?;
        last = mesh.vertex_faces(ins.vertex).next();
        if plans.is_empty() {
            done(k, ins, stale);
            continue;
        }
        for f in mesh.vertex_faces(ins.vertex) {
            let w = f.index() / 64;
            if touched.len() <= w {
                touched.resize(w + 1, 0);
            }
            touched[w] |= 1 << (f.index() % 64);
        }
        done(k, ins, stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
