//! Restoring the Delaunay triangulation after vertices moved, folds included.
//!
//! A small move only changes circumcircle tests: Lawson flips around the moved vertices fix
//! it. A larger move folds the mesh: a vertex crosses an edge of its star and some of its
//! faces turn clockwise. Such a vertex is *relocated*: its star is flipped down to three edges
//! (Delaunay ears of its link, exactly as for a removal), which leaves it inside the triangle
//! of its three neighbours; it then walks to the triangle of the remaining mesh that contains
//! its new position, two flips per step (the triangle it leaves is restored), and Lawson flips
//! finish as after an insertion. Only flips are used, so every vertex keeps its id and its
//! data in every layer; the work is proportional to the folded region and to how far its
//! vertices moved.

use crate::check::{check_covering, check_len, finite4, pos};
use crate::flips::{flip_limit, lawson, star_and_link};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use std::collections::VecDeque;

mod relocate;
use relocate::{Relocation, collide_within, relocate};

/// How [`restore`] treats collisions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestoreOptions {
    /// Two vertices closer than this (straight-line distance between their positions) collide.
    /// Vertices the exact predicates cannot separate always collide. Default 0.
    pub tolerance: f64,
    /// Merge a colliding moved vertex into the vertex it hit with [`Mesh::collapse`] (the
    /// moved vertex is removed, layers merge their data by their collapse policy) instead of
    /// failing with [`DelaunayError::Collision`]. Default `false`.
    pub merge_collisions: bool,
}

impl Default for RestoreOptions {
    fn default() -> Self {
        Self {
            tolerance: 0.0,
            merge_collisions: false,
        }
    }
}

/// What [`restore`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestoreStats {
    /// Lawson flips (small moves).
    pub flips: usize,
    /// Inverted or flat faces found around the moved vertices.
    pub folds: usize,
    /// Vertices relocated to repair folds (a re-insertion that keeps the vertex id).
    pub relocated: usize,
    /// Flips spent relocating: emptying stars and walking.
    pub relocation_flips: usize,
    /// Moved vertices merged into the vertex they collided with.
    pub merged: usize,
}

/// Restores the exact Delaunay triangulation after any displacement of any set of vertices,
/// keeping every vertex id and its data: small moves are repaired by Lawson flips; a vertex
/// whose faces folded is relocated by flips only (its star emptied to three edges as for a
/// removal, then walked, two flips per step, to the triangle holding its new position).
///
/// `moved` names the vertices whose positions changed; the work is then proportional to the
/// region around them. `None` checks every vertex (the cost of a full scan, still no rebuild).
/// A moved vertex that landed on another one is a [`DelaunayError::Collision`], or merged when
/// `options.merge_collisions` is set.
///
/// # Errors
/// Always with the mesh and positions as they were before the call (a failure during the
/// repair rolls back its edits with [`Mesh::atomically`]): positions too short, a dead or
/// non-finite moved vertex, [`DelaunayError::Collision`], [`DelaunayError::Outside`] (a vertex
/// moved off the sphere, into the hull), [`DelaunayError::FoldUnresolved`] (a fold the local
/// repair could not undo within its budget: only for meshes that were not Delaunay before the
/// move), [`DelaunayError::Covering`] (vertices moved past one another so far, as in a
/// permutation of places or an antipodal map, that the local repair wraps the surface more
/// than once: rebuild from the positions instead), flip errors.
///
/// **Which motions are repaired.** Any motion after which each moved vertex can be walked to
/// its new place through a mesh that covers the surface once: small moves (flips), folds of
/// plates and scattered far moves (relocation). A restore that found a fold, merged, or moved
/// more than an eighth of the vertices ends with one O(n) count of the covering
/// ([`crate::covering`]); a restore without folds keeps the covering by construction.
pub fn restore<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut [DVec3],
    moved: Option<&[Vertex]>,
    options: &RestoreOptions,
) -> Result<RestoreStats, DelaunayError> {
    // Positions are only read; the mesh edits are all or nothing.
    let positions: &[DVec3] = positions;
    mesh.atomically(|mesh| restore_edits(surface, mesh, positions, moved, options))
}

/// [`restore`], which rolls this back when it fails.
fn restore_edits<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    moved: Option<&[Vertex]>,
    options: &RestoreOptions,
) -> Result<RestoreStats, DelaunayError> {
    check_len(mesh, positions)?;
    let candidates: Vec<Vertex> = match moved {
        Some(m) => m.to_vec(),
        None => mesh.vertices().collect(),
    };
    for &v in &candidates {
        if v.index() >= mesh.vertex_slots() || !mesh.is_vertex_alive(v) {
            return Err(DelaunayError::DeadVertex(v));
        }
        // The centre is on no sphere around it: off the surface.
        if pos(positions, v)? == DVec3::ZERO && surface.is_closed() {
            return Err(DelaunayError::Outside);
        }
    }
    let mut stats = RestoreStats::default();
    // When many vertices moved, a mask lets each face and edge be checked once instead of
    // once per moved corner; for a few, the mask's O(n) clearing would dominate.
    let mask: Option<Vec<bool>> = (candidates.len() * 8 > mesh.vertex_slots()).then(|| {
        let mut m = vec![false; mesh.vertex_slots()];
        for v in &candidates {
            m[v.index()] = true;
        }
        m
    });
    let mut queue: Vec<Vertex> = Vec::new();
    match &mask {
        Some(m) => stats.folds += scan_folds(surface, mesh, positions, m, &mut queue)?,
        None => {
            for &v in &candidates {
                let folded = folded_faces(surface, mesh, positions, v)?;
                if folded > 0 {
                    stats.folds += folded;
                    queue.push(v);
                }
            }
        }
    }
    queue.sort_unstable();
    queue.dedup();
    // First in, first out, each vertex at most once in the queue: a vertex cannot starve
    // behind two that keep refolding each other. The marks are only allocated when a fold
    // was found.
    let mut queued: Vec<bool> = Vec::new();
    if !queue.is_empty() {
        queued.resize(mesh.vertex_slots(), false);
        for v in &queue {
            queued[v.index()] = true;
        }
    }
    let mut queue: VecDeque<Vertex> = queue.into();
    let mut relocated: Vec<Vertex> = Vec::new();
    // Vertices whose stars relocations changed: the final Lawson pass starts from them too.
    let mut touched: Vec<Vertex> = Vec::new();
    let mut budget = 16 * queue.len() + 64;
    let mut deferred: Vec<Vertex> = Vec::new();
    let mut progress = false;
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
        let link: Vec<Vertex> = mesh.neighbors(v).collect();
        touched.extend_from_slice(&link);
        match relocate(
            surface,
            mesh,
            positions,
            v,
            options,
            &mut stats,
            &mut touched,
        )? {
            Relocation::Done => {
                progress = true;
                stats.relocated += 1;
                relocated.push(v);
                // Ear flips and the walk may have folded the old or new neighbourhood.
                for u in link
                    .into_iter()
                    .chain(mesh.neighbors(v).collect::<Vec<_>>())
                {
                    if !queued[u.index()] && folded_faces(surface, mesh, positions, u)? > 0 {
                        queued[u.index()] = true;
                        queue.push_back(u);
                    }
                }
            }
            Relocation::Merged => progress = true,
            Relocation::Deferred => deferred.push(v),
        }
    }
    if let Some(&v) = deferred.first() {
        return Err(DelaunayError::FoldUnresolved(v));
    }
    // Small moves: Lawson flips from every moved or relocated vertex.
    let mut stack = Vec::new();
    touched.extend_from_slice(&relocated);
    touched.sort_unstable();
    touched.dedup();
    match &mask {
        Some(m) => scan_reflex(surface, mesh, positions, m, &mut stack)?,
        None => {
            for &v in &candidates {
                if mesh.is_vertex_alive(v) {
                    star_and_link(mesh, v, &mut stack);
                }
            }
        }
    }
    for &v in &touched {
        if mesh.is_vertex_alive(v) {
            star_and_link(mesh, v, &mut stack);
        }
    }
    let limit = flip_limit(stack.len(), mesh.undirected_edge_count());
    stats.flips += lawson(surface, mesh, positions, &mut stack, limit)?;
    // Lawson never makes a clockwise face, so a fold left now is one around a moved or
    // relocated vertex; with the mask, one scan of the faces tests each face once.
    let mut left = Vec::new();
    match &mask {
        Some(m) => {
            scan_folds(surface, mesh, positions, m, &mut left)?;
        }
        None => {
            for &v in &candidates {
                if mesh.is_vertex_alive(v) && folded_faces(surface, mesh, positions, v)? > 0 {
                    left.push(v);
                }
            }
        }
    }
    if let Some(&v) = left.first() {
        return Err(DelaunayError::FoldUnresolved(v));
    }
    for &v in &relocated {
        if mesh.is_vertex_alive(v) && folded_faces(surface, mesh, positions, v)? > 0 {
            return Err(DelaunayError::FoldUnresolved(v));
        }
    }
    if options.tolerance > 0.0 {
        for &v in &candidates {
            if mesh.is_vertex_alive(v) {
                collide_within(surface, mesh, positions, v, options, &mut stats)?;
            }
        }
    }
    // Folds, merges and mass motion are where vertices can pass one another far enough for
    // the repaired mesh to wrap the surface twice, with every local condition met: one O(n)
    // count settles it (see `crate::covering`). Small moves (no fold) keep the covering.
    if mask.is_some() || stats.folds > 0 || stats.merged > 0 {
        check_covering(surface, mesh, positions)?;
    }
    Ok(stats)
}

/// The number of faces around `v` that are clockwise or flat.
fn folded_faces<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    v: Vertex,
) -> Result<usize, DelaunayError> {
    let mut n = 0;
    let pv = pos(positions, v)?;
    for e in mesh.outgoing(v) {
        if !mesh.left(e).is_valid() {
            continue;
        }
        let a = pos(positions, mesh.dest(e))?;
        let b = pos(positions, mesh.dest(mesh.left_next(e)))?;
        if surface.orient(pv, a, b) <= 0.0 {
            n += 1;
        }
    }
    Ok(n)
}

/// One pass over the faces: counts the clockwise or flat faces with a moved corner (each
/// once) and pushes, for each, its smallest moved corner to `out`. A linear scan of flat
/// arrays costs less than walking every moved vertex's ring when most vertices moved.
fn scan_folds<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    moved: &[bool],
    out: &mut Vec<Vertex>,
) -> Result<usize, DelaunayError> {
    let mut n = 0;
    for f in mesh.faces() {
        let [a, b, c] = mesh.face_vertices(f);
        let m = [moved[a.index()], moved[b.index()], moved[c.index()]];
        if m == [false; 3] {
            continue;
        }
        let [pa, pb, pc, _] = finite4(positions, [a, b, c, a])?;
        if surface.orient(pa, pb, pc) <= 0.0 {
            n += 1;
            let owner = [a, b, c]
                .into_iter()
                .zip(m)
                .filter(|&(_, m)| m)
                .map(|(v, _)| v)
                .min();
            out.extend(owner);
        }
    }
    Ok(n)
}

/// One pass over the edges: pushes to `out` every edge that is not locally Delaunay among
/// those whose circle test a move can change (one of its four quad corners moved). Lawson
/// then starts from these only: an edge found Delaunay here changes its quad only through a
/// neighbouring flip, which queues it again.
fn scan_reflex<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    moved: &[bool],
    out: &mut Vec<Edge>,
) -> Result<(), DelaunayError> {
    for e in mesh.undirected_edges() {
        if mesh.is_boundary_edge(e) {
            continue;
        }
        let quad = [
            mesh.origin(e),
            mesh.dest(e),
            mesh.dest(mesh.left_next(e)),
            mesh.dest(mesh.left_next(e.sym())),
        ];
        if !quad.iter().any(|v| moved[v.index()]) {
            continue;
        }
        let [pa, pb, pc, pd] = finite4(positions, quad)?;
        if surface.in_circle(pa, pb, pc, pd) > 0.0 {
            out.push(e);
        }
    }
    Ok(())
}
