//! Relocating a folded vertex (its star flipped down to three edges, then walked to the
//! triangle holding its new position) and what happens when it lands on another vertex.

use super::halves::AXIS;
use super::{RestoreOptions, RestoreStats, folded_faces};
use crate::flips::{flip_limit, lawson, lawson_collect, star_and_link};
use crate::remove::reduce_to_degree3;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, Vertex};
use std::collections::VecDeque;

mod parts;
mod walk;

/// The slabs of the relocations' first pass in parts (two per part, alternating). A plane
/// through the median of the folded vertices gave the parts the same number of them, but a
/// folded vertex of one part often costs half a relocation more than the other's (cascades
/// are local): at 500k, one part made 1.44 times the other's relocations. Four slabs at the
/// folded vertices' quartiles mix the regions and bring that near 1.15; more slabs balance
/// better but leave more vertices beside a cut to the second pass.
const FIRST_SLABS: usize = 4;

/// The second pass's axis, across [`AXIS`]: its one plane cuts the first pass's leftovers
/// (which lie along the first pass's planes) far from most of them.
const SECOND_AXIS: DVec3 = DVec3::new(
    0.771_516_749_810_459_6,
    -0.617_213_399_848_367_6,
    0.154_303_349_962_091_9,
);

/// From this many vertices left by the first pass in parts, a second pass in parts (cut
/// across the first) takes them before the serial loop.
const SECOND_MIN: usize = 64;

use walk::{Walked, walk};

/// The vertices whose stars relocations changed: `stars` (the link, the walk's triangles, the
/// new neighbours: the final Lawson pass starts from them) and `flipped` (the corners of the
/// quads that the flips around a relocated vertex retriangulated: for the certificate only).
#[derive(Debug, Default)]
pub(super) struct Touched {
    pub(super) stars: Vec<Vertex>,
    pub(super) flipped: Vec<Vertex>,
    /// The faces the last relocation made that may be clockwise or flat (their corners; see
    /// [`fold_suspects`]).
    made: Vec<[Vertex; 3]>,
    /// Buffers each relocation reuses (emptied before use): the ears' diagonals, the Lawson
    /// stack around the landed vertex and the edges it could not flip.
    created: Vec<Edge>,
    stack: Vec<Edge>,
    stuck: Vec<Edge>,
}

enum Relocation {
    Done,
    Merged,
    Deferred,
}

/// Relocates the `folded` vertices, first in, first out, each at most once in the queue (a
/// vertex cannot starve behind two that keep refolding each other), within a budget; a
/// vertex that cannot move yet is deferred to the next round while rounds make progress.
/// Returns the relocated vertices and those whose stars the relocations changed (the final
/// Lawson pass starts from them too).
///
/// Many folded vertices on a closed surface are first relocated in two parts at once, as far
/// as each part can ([`parts`]), the parts alternating over [`FIRST_SLABS`] slabs; the
/// vertices they leave, if many, go through a second pass in two parts cut across the first;
/// the serial loop then takes the rest.
pub(super) fn relocate_folded<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    folded: Vec<Vertex>,
    options: &RestoreOptions,
    stats: &mut RestoreStats,
) -> Result<(Vec<Vertex>, Touched), DelaunayError> {
    // Relocations a restore may make in all: a bound on cycles, not on honest work.
    let budget = 16 * folded.len() + 64;
    if !surface.is_closed() || folded.len() < parts::PARTS_MIN {
        return relocate_serially(surface, mesh, positions, folded, options, stats, budget);
    }
    let (mut relocated, mut touched) = (Vec::new(), Touched::default());
    let (mut rest, mut spent) = (folded, 0);
    for (axis, slabs) in [(AXIS, FIRST_SLABS), (SECOND_AXIS, 2)] {
        if rest.len() < SECOND_MIN {
            break;
        }
        let [mut p0, mut p1] =
            parts::relocate_in_parts(surface, mesh, positions, &rest, options, axis, slabs);
        if let Some(err) = p0.error.take().or(p1.error.take()) {
            return Err(err);
        }
        for p in [&mut p0, &mut p1] {
            // The first lists are taken as they are, the others copied after them.
            append(&mut relocated, &mut p.relocated);
            append(&mut touched.stars, &mut p.touched.stars);
            append(&mut touched.flipped, &mut p.touched.flipped);
            spent += p.stats.relocated;
            stats.flips += p.stats.flips;
            stats.relocated += p.stats.relocated;
            stats.relocation_flips += p.stats.relocation_flips;
            stats.relocation_moves += p.stats.relocation_moves;
        }
        rest = p0.deferred;
        rest.extend_from_slice(&p1.deferred);
        rest.sort_unstable();
        rest.dedup();
    }
    // The parts leave the hard cases (a vertex on a cut, a fold they could not finish),
    // whose repair can take more relocations than their count: the whole restore's budget
    // less what the parts spent, as the serial loop alone would have had.
    let budget = budget.saturating_sub(spent).max(16 * rest.len() + 64);
    let (more, also) = relocate_serially(surface, mesh, positions, rest, options, stats, budget)?;
    relocated.extend_from_slice(&more);
    touched.stars.extend_from_slice(&also.stars);
    touched.flipped.extend_from_slice(&also.flipped);
    Ok((relocated, touched))
}

/// `from` moved to the end of `to`: taken whole when `to` is empty (no copy).
fn append(to: &mut Vec<Vertex>, from: &mut Vec<Vertex>) {
    if to.is_empty() {
        std::mem::swap(to, from);
    } else {
        to.append(from);
    }
}

/// [`relocate_folded`] on one core.
fn relocate_serially<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    folded: Vec<Vertex>,
    options: &RestoreOptions,
    stats: &mut RestoreStats,
    mut budget: usize,
) -> Result<(Vec<Vertex>, Touched), DelaunayError> {
    let (mut relocated, mut touched) = (Vec::new(), Touched::default());
    if folded.is_empty() {
        return Ok((relocated, touched));
    }
    let mut queued = vec![false; mesh.vertex_slots()];
    for v in &folded {
        queued[v.index()] = true;
    }
    // About a dozen stars and a few flipped quads per relocation: room up front instead of
    // regrowth copies.
    touched.stars.reserve(16 * folded.len());
    touched.flipped.reserve(16 * folded.len());
    let mut queue: VecDeque<Vertex> = folded.into();
    let mut deferred: Vec<Vertex> = Vec::new();
    let mut progress = false;
    // The old neighbours of the vertex being relocated, then its new ones (one buffer).
    let mut link: Vec<Vertex> = Vec::new();
    // The corners of the clockwise or flat faces among those each relocation made.
    let mut suspects = Vec::new();
    loop {
        let Some(v) = queue.pop_front() else {
            if deferred.is_empty() || !progress {
                break;
            }
            progress = false;
            for v in deferred.drain(..) {
                queued[v.index()] = true;
                queue.push_back(v);
            }
            continue;
        };
        queued[v.index()] = false;
        if !mesh.is_vertex_alive(v) || folded_faces(surface, mesh, positions, v)? == 0 {
            continue;
        }
        if budget == 0 {
            return Err(DelaunayError::FoldUnresolved(v));
        }
        budget -= 1;
        link.clear();
        link.extend(mesh.neighbors(v));
        touched.stars.extend_from_slice(&link);
        touched.made.clear();
        match relocate(surface, mesh, positions, v, options, stats, &mut touched)? {
            Relocation::Done => {
                progress = true;
                stats.relocated += 1;
                relocated.push(v);
                // Ear flips and the move may have folded the old or new neighbourhood. Only
                // the corners of a clockwise or flat face among those the relocation made
                // can have gained a fold (see `fold_suspects`): the others are not tested.
                link.extend(mesh.neighbors(v));
                fold_suspects(surface, positions, &touched.made, &mut suspects);
                for &u in &link {
                    if suspects.contains(&u)
                        && !queued[u.index()]
                        && folded_faces(surface, mesh, positions, u)? > 0
                    {
                        queued[u.index()] = true;
                        queue.push_back(u);
                    }
                }
            }
            Relocation::Merged => progress = true,
            Relocation::Deferred => deferred.push(v),
        }
    }
    match deferred.first() {
        Some(&v) => Err(DelaunayError::FoldUnresolved(v)),
        None => Ok((relocated, touched)),
    }
}

/// The corners (in `out`, emptied first) of the faces among `made` that are clockwise or flat.
///
/// A relocation makes faces of four kinds: the ears that empty the star (convex unless a
/// fallback ear was taken), the triangle of the last three neighbours that closes when the
/// vertex leaves, the faces around the vertex in its new place, and the faces of Lawson flips
/// (counter-clockwise: `lawson_collect` refuses any other). Every other face is as before,
/// and every vertex with a fold is in the queue or being relocated (a relocated vertex's faces
/// are counter-clockwise), so a vertex not in the queue gains a fold only as a corner of a
/// clockwise or flat face of the first three kinds: `made` holds them all (some may be gone
/// since, which only makes a corner tested for nothing).
fn fold_suspects<S: Surface>(
    surface: &S,
    positions: &[DVec3],
    made: &[[Vertex; 3]],
    out: &mut Vec<Vertex>,
) {
    out.clear();
    for f in made {
        let [a, b, c] = f.map(|u| positions[u.index()]);
        if surface.orient(a, b, c) <= 0.0 {
            out.extend_from_slice(f);
        }
    }
}

/// Empties `v`'s star to three edges, finds the triangle holding its position by a walk that
/// only reads, moves `v` there in one edit and flips around it. Appends to `touched.made` the
/// corners of the faces it made that may be clockwise or flat (see [`fold_suspects`]).
fn relocate<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
    options: &RestoreOptions,
    stats: &mut RestoreStats,
    touched: &mut Touched,
) -> Result<Relocation, DelaunayError> {
    if mesh.is_boundary_vertex(v) {
        return Err(DelaunayError::BoundaryVertex(v));
    }
    let mut created = std::mem::take(&mut touched.created);
    created.clear();
    let ears = reduce_to_degree3(surface, mesh, positions, v, &mut created);
    touched.created = created;
    stats.relocation_flips += ears?;
    // The ears: the faces beside each new diagonal, except the (at most one) around `v`.
    for &e in &touched.created {
        for f in [mesh.left(e), mesh.right(e)] {
            if f.is_valid() {
                let corners = mesh.face_vertices(f);
                if !corners.contains(&v) {
                    touched.made.push(corners);
                }
            }
        }
    }
    let link = link_triangle(mesh, v)?;
    // The triangle that closes when `v` leaves it.
    touched.made.push(link.map(|e| mesh.origin(e)));
    // Out of steps: a tangled region, the vertex waits for the next round.
    let limit = 2 * mesh.face_count() + 64;
    let landing = match walk(surface, mesh, positions, v, link, limit) {
        Walked::Landed(outer, side) => Landing { outer, side },
        Walked::Outside => return Err(DelaunayError::Outside),
        Walked::Stopped => return Ok(Relocation::Deferred),
    };
    if landing.outer != link {
        match mesh.move_vertex(v, mesh.left(landing.outer[0])) {
            Ok(_) => stats.relocation_moves += 1,
            // Its neighbours form a face already (a tetrahedron's vertex): no room to leave.
            Err(MeshError::FaceExists(_)) => return Err(DelaunayError::FoldUnresolved(v)),
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(merged) = land(surface, mesh, positions, v, &landing, options, stats)? {
        return Ok(merged);
    }
    flip_around(surface, mesh, positions, v, stats, touched)?;
    // The faces around `v` in its new place (those of a landing flip included).
    for e in mesh.outgoing(v) {
        let f = mesh.left(e);
        if f.is_valid() {
            touched.made.push(mesh.face_vertices(f));
        }
    }
    Ok(Relocation::Done)
}

/// The edges of `v`'s link triangle (the far edge of each of its three faces, with the face
/// on its left), once its star is down to three spokes.
fn link_triangle(mesh: &Mesh, v: Vertex) -> Result<[Edge; 3], DelaunayError> {
    let mut ring = mesh.outgoing(v);
    let mut spoke = || ring.next().ok_or(DelaunayError::FoldUnresolved(v));
    let spokes = [spoke()?, spoke()?, spoke()?];
    if ring.next().is_some() {
        return Err(DelaunayError::FoldUnresolved(v));
    }
    Ok(spokes.map(|e| mesh.left_next(e)))
}

/// A triangle of the mesh without `v` (its edges, counter-clockwise with the triangle on
/// their left) and where `v`'s position lies against them.
struct Landing {
    outer: [Edge; 3],
    /// `orient(a, b, p)` for each edge tested (1 for the edge the walk came through).
    side: [f64; 3],
}

/// `v` is inside its link triangle, on one of its edges, or on a corner. A corner within the
/// caller's tolerance is a collision before any flip (near-coincident points would only get
/// Lawson stuck), as is a corner hit exactly; on an edge, the edge is flipped. Returns the
/// outcome of a collision, `None` when `v` is in place.
fn land<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
    link: &Landing,
    options: &RestoreOptions,
    stats: &mut RestoreStats,
) -> Result<Option<Relocation>, DelaunayError> {
    let (p, outer, side) = (positions[v.index()], link.outer, link.side);
    if options.tolerance > 0.0
        && let Some(corner) = outer
            .iter()
            .map(|&e| mesh.origin(e))
            .find(|c| positions[c.index()].distance(p) < options.tolerance)
    {
        return collide(surface, mesh, positions, v, corner, options, stats).map(Some);
    }
    // The edges `v` lies on, in order (at most three).
    let (mut zeros, mut n) = ([0usize; 3], 0);
    for i in (0..3).filter(|&i| side[i] == 0.0) {
        zeros[n] = i;
        n += 1;
    }
    match n {
        0 => {}
        1 => {
            let e = outer[zeros[0]];
            if mesh.right(e).is_valid() {
                mesh.flip(e)?;
                stats.relocation_flips += 1;
            }
        }
        _ => {
            // On the corner shared by two of the edges.
            let (i, j) = (zeros[0], zeros[1]);
            let corner = if (i + 1) % 3 == j {
                mesh.dest(outer[i])
            } else {
                mesh.dest(outer[j])
            };
            return collide(surface, mesh, positions, v, corner, options, stats).map(Some);
        }
    }
    let [a, b, c] = outer.map(|e| positions[mesh.origin(e).index()]);
    if n == 0 && surface.orient(a, b, c) > 0.0 && surface.in_circle(a, b, c, p) <= 0.0 {
        return Err(DelaunayError::Outside);
    }
    Ok(None)
}

/// Lawson flips around `v` in its new place; the vertices whose stars changed (and the ends
/// of edges that stayed stuck) go to `touched.stars`, the corners of flipped quads to
/// `touched.flipped`.
fn flip_around<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
    stats: &mut RestoreStats,
    touched: &mut Touched,
) -> Result<(), DelaunayError> {
    let (stack, stuck) = (&mut touched.stack, &mut touched.stuck);
    stack.clear();
    stuck.clear();
    star_and_link(mesh, v, stack);
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    let flipped = Some(&mut touched.flipped);
    stats.flips += lawson_collect(surface, mesh, positions, stack, limit, stuck, flipped)?;
    touched.stars.extend(mesh.neighbors(v));
    for &e in &touched.stuck {
        if mesh.is_edge_alive(e) {
            touched.stars.extend([mesh.origin(e), mesh.dest(e)]);
        }
    }
    Ok(())
}

/// `v` landed on `other`: fail, or merge `v` into `other` when asked.
fn collide<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
    other: Vertex,
    options: &RestoreOptions,
    stats: &mut RestoreStats,
) -> Result<Relocation, DelaunayError> {
    let (pv, po) = (positions[v.index()], positions[other.index()]);
    if !same_place(surface, pv, po) && pv.distance(po) >= options.tolerance {
        // The walk met a corner it cannot pass (an antipode, a vertex of a tangled region),
        // not a vertex at v's place: the motion is beyond local repair.
        return Err(DelaunayError::FoldUnresolved(v));
    }
    if !options.merge_collisions {
        return Err(DelaunayError::Collision { moved: v, other });
    }
    let e = mesh
        .find_edge(other, v)
        .ok_or(DelaunayError::Collision { moved: v, other })?;
    mesh.collapse(e, 0.5)
        .map_err(|_| DelaunayError::Collision { moved: v, other })?;
    stats.merged += 1;
    let mut stack = Vec::with_capacity(16);
    star_and_link(mesh, other, &mut stack);
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    let mut stuck = Vec::new();
    stats.flips += lawson_collect(
        surface, mesh, positions, &mut stack, limit, &mut stuck, None,
    )?;
    Ok(Relocation::Merged)
}

/// Collisions within the caller's tolerance: on a Delaunay mesh the nearest vertex of `v` is
/// one of its neighbours, so checking the neighbours finds every collision.
pub(super) fn collide_within<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    v: Vertex,
    options: &RestoreOptions,
    stats: &mut RestoreStats,
) -> Result<(), DelaunayError> {
    let pv = positions[v.index()];
    let hit = mesh
        .neighbors(v)
        .find(|u| positions[u.index()].distance(pv) < options.tolerance);
    if let Some(u) = hit {
        collide(surface, mesh, positions, v, u, options, stats)?;
        let mut stack = Vec::new();
        star_and_link(mesh, u, &mut stack);
        let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
        stats.flips += lawson(surface, mesh, positions, &mut stack, limit)?;
    }
    Ok(())
}

/// Can the predicates not separate `p` and `q`: equal, or (sphere) the same direction?
pub(super) fn same_place<S: Surface>(surface: &S, p: DVec3, q: DVec3) -> bool {
    p == q
        || ([DVec3::X, DVec3::Y, DVec3::Z]
            .iter()
            .all(|&d| surface.orient(p, q, d) == 0.0)
            && (!surface.is_closed() || p.dot(q) > 0.0))
}
