//! Lawson's flips of a large restore on two cores: the mesh in two parts
//! ([`quadedge::Mesh::edit_in_parts`]), each flipping only quads whose four corners it owns,
//! then the edges a part could not flip, on one core.
//!
//! A vertex's part is the side of a plane it lies on (a fixed axis, the plane through the
//! median of the stack's origins along it): a function of the positions and of the stack,
//! never of the thread count. A part pops its own edges (those whose origin it owns), tests
//! each reading only its own rings (the quad's corners come off the origin's ring, and an edge
//! with an end a part owns is flipped by no other part), flips it when it owns the four
//! corners and defers it otherwise. So each part's flips depend only on the mesh before, and
//! the repair is the same for any thread count. The deferred edges then go through the serial
//! Lawson loop, part 0's first; an edge a part tested and dropped keeps its quad until a flip
//! beside it, which queues it again, so the end is Delaunay as after the serial loop.

use crate::check::{finite4, is_reflex};
use crate::flips::lawson_collect;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, MeshPart, PartError, Vertex};

/// Below this many starting edges one core flips them all.
pub(super) const PARTS_MIN: usize = 256;

/// The axis across which the parts are cut (any fixed direction would do).
pub(super) const AXIS: DVec3 = DVec3::new(
    0.267_261_241_912_424_4,
    0.534_522_483_824_848_8,
    0.801_783_725_737_273_2,
);

/// What one part did.
#[derive(Default)]
pub(super) struct PartOut {
    pub(super) flips: usize,
    /// Edges left to the serial pass (a corner owned by the other part), in the order met.
    pub(super) deferred: Vec<Edge>,
    /// Edges whose flip would fold or duplicate (checked once everything is done).
    pub(super) stuck: Vec<Edge>,
    /// The corners of every flipped quad.
    pub(super) flipped: Vec<Vertex>,
    pub(super) error: Option<DelaunayError>,
}

/// [`crate::flips::lawson_tracked`] from `stack` (each entry a live or dead edge, tested when
/// popped), its first flips made in two parts at once, the rest on one core; the corners of
/// every flipped quad are pushed to `flipped`. Returns the number of flips.
pub(super) fn lawson_in_parts<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    stack: Vec<Edge>,
    limit: usize,
    flipped: &mut Vec<Vertex>,
) -> Result<usize, DelaunayError> {
    let cut = median_along_axis(mesh, positions, &stack);
    let owner = |v: Vertex| match positions.get(v.index()) {
        Some(p) => u8::from(AXIS.dot(*p) > cut),
        None => 2,
    };
    // Each edge goes to the part owning its origin (read now, before the parts edit).
    let mut own: [Vec<Edge>; 2] = Default::default();
    for &e in &stack {
        if let Some(list) = mesh
            .is_edge_alive(e)
            .then(|| own.get_mut(usize::from(owner(mesh.origin(e)))))
            .flatten()
        {
            list.push(e);
        }
    }
    let outs = mesh.edit_in_parts(&owner, |part| {
        let mut out = PartOut::default();
        let mut stack = own[usize::from(part.part())].clone();
        if let Err(err) = lawson_part(surface, part, positions, &mut stack, limit, &mut out) {
            out.error = Some(err);
        }
        out
    });
    let [p0, p1] = outs;
    if let Some(err) = p0.error.or(p1.error) {
        return Err(err);
    }
    let mut flips = p0.flips + p1.flips;
    flipped.extend_from_slice(&p0.flipped);
    flipped.extend_from_slice(&p1.flipped);
    let mut stack = p0.deferred;
    stack.extend_from_slice(&p1.deferred);
    let mut stuck = p0.stuck;
    stuck.extend_from_slice(&p1.stuck);
    let left = limit.saturating_sub(flips);
    flips += lawson_collect(
        surface,
        mesh,
        positions,
        &mut stack,
        left,
        &mut stuck,
        Some(flipped),
    )?;
    for e in stuck {
        if mesh.is_edge_alive(e) && is_reflex(surface, mesh, positions, e)? {
            return Err(DelaunayError::NotDelaunay(e));
        }
    }
    Ok(flips)
}

/// The median of the live stack entries' origins along [`AXIS`], so that the parts start
/// with about as many edges each.
fn median_along_axis(mesh: &Mesh, positions: &[DVec3], stack: &[Edge]) -> f64 {
    let live = stack.iter().filter(|e| mesh.is_edge_alive(**e));
    cut_at_median(live.filter_map(|&e| positions.get(mesh.origin(e).index())))
}

/// The median along [`AXIS`] of the points (0 for none): the plane that cuts them into two
/// parts of about equal size.
pub(super) fn cut_at_median<'a>(points: impl Iterator<Item = &'a DVec3>) -> f64 {
    let mut keys: Vec<f64> = points
        .map(|p| AXIS.dot(*p))
        .filter(|k| k.is_finite())
        .collect();
    if keys.is_empty() {
        return 0.0;
    }
    let mid = keys.len() / 2;
    let (_, m, _) = keys.select_nth_unstable_by(mid, f64::total_cmp);
    *m
}

/// The Lawson loop of one part: pops the part's stack, tests each edge off its owned end's
/// ring, flips the reflex edges whose quad the part owns, defers the others.
pub(super) fn lawson_part<S: Surface, O: Fn(Vertex) -> u8 + Sync>(
    surface: &S,
    part: &mut MeshPart<'_, O>,
    positions: &[DVec3],
    stack: &mut Vec<Edge>,
    limit: usize,
    out: &mut PartOut,
) -> Result<(), DelaunayError> {
    while let Some(e) = stack.pop() {
        if !part.is_edge_alive(e) {
            continue;
        }
        // The quad read off an owned end; `[a, b, c, d]` as `is_reflex` reads it for `e`.
        let quad = match (part.quad(e), part.quad(e.sym())) {
            (Some(q), _) => q,
            (None, Some([b, a, d, c])) => [a, b, c, d],
            (None, None) => {
                out.deferred.push(e);
                continue;
            }
        };
        let [pa, pb, pc, pd] = finite4(positions, quad)?;
        if surface.in_circle(pa, pb, pc, pd) <= 0.0 {
            continue;
        }
        if !quad.iter().all(|&v| part.owns(v)) {
            out.deferred.push(e);
            continue;
        }
        if out.flips >= limit {
            return Err(DelaunayError::FlipLimit(out.flips));
        }
        let e = e.base();
        let [a, b, c, d] = match part.quad(e) {
            Some(q) => q,
            None => {
                out.deferred.push(e);
                continue;
            }
        };
        let [pa, pb, pc, pd] = [a, b, c, d].map(|v| positions[v.index()]);
        // The flipped faces (d, c, a) and (c, d, b) must turn counter-clockwise.
        if surface.orient(pd, pc, pa) <= 0.0 || surface.orient(pc, pd, pb) <= 0.0 {
            out.stuck.push(e);
            continue;
        }
        let es = e.sym();
        let around = [
            part.origin_prev(es),
            part.origin_next(e).sym(),
            part.origin_prev(e),
            part.origin_next(es).sym(),
        ];
        match part.flip(e) {
            Ok(_) => {
                out.flips += 1;
                stack.extend_from_slice(&around);
                out.flipped.extend([a, b, c, d]);
            }
            Err(PartError::Mesh(MeshError::FlipWouldDuplicate(_))) => out.stuck.push(e),
            Err(PartError::NotOwned) => out.deferred.push(e),
            Err(PartError::Mesh(err)) => return Err(err.into()),
        }
    }
    Ok(())
}
