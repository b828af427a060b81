//! Restoring the Delaunay triangulation after vertices moved, folds included.
//!
//! A small move only changes circumcircle tests: Lawson flips around the moved vertices fix
//! it. A larger move folds the mesh: a vertex crosses an edge of its star and some of its
//! faces turn clockwise. Such a vertex is *relocated*: its star is flipped down to three edges
//! (Delaunay ears of its link, exactly as for a removal), which leaves it inside the triangle
//! of its three neighbours; it then walks to the triangle of the remaining mesh that contains
//! its new position by orientation tests alone, is moved there in one edit
//! ([`Mesh::move_vertex`]: the triangle it leaves closes, the one it enters is split), and
//! Lawson flips finish as after an insertion. Only flips and moves are used, so every vertex
//! keeps its id and its data in every layer; the work is proportional to the folded region
//! and to how far its vertices moved.

use crate::check::{check_covering, check_len, pos};
use crate::covering::winding;
use crate::flips::{flip_limit, lawson_tracked};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

mod certify;
mod halves;
mod par;
mod pieces;
mod relocate;
mod scan;
use pieces::{Pieces, folded_faces_in};
use relocate::{collide_within, relocate_folded};
use scan::{FaceScan, scan_folds, scan_reflex};

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
    /// Flips spent relocating: emptying stars, and landing on an edge.
    pub relocation_flips: usize,
    /// Relocated vertices moved in one edit ([`Mesh::move_vertex`]) to the triangle their
    /// walk found (those that did not land back in their own triangle).
    pub relocation_moves: usize,
    /// Moved vertices merged into the vertex they collided with.
    pub merged: usize,
}

/// Restores the exact Delaunay triangulation after any displacement of any set of vertices,
/// keeping every vertex id and its data: small moves are repaired by Lawson flips; a vertex
/// whose faces folded is relocated (its star emptied to three edges by flips as for a
/// removal, then moved in one edit to the triangle holding its new position, which a walk
/// that only reads finds).
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
/// plates and scattered far moves (relocation). The covering ([`crate::covering`]) is
/// certified in time proportional to what the repair changed: without folds, by the winding
/// of each moved vertex and its neighbours before any edit; after a fold repair on the
/// sphere, by the faces around the changed stars (against the faces holding the probe, which
/// the fold scan records when more than an eighth of the vertices moved, or else by windings).
/// Only a merge, a plane, or windings that cannot certify end with one O(n) count.
pub fn restore<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut [DVec3],
    moved: Option<&[Vertex]>,
    options: &RestoreOptions,
) -> Result<RestoreStats, DelaunayError> {
    // Positions are only read; the mesh edits are all or nothing.
    let positions: &[DVec3] = positions;
    mesh.atomically(|mesh| restore_edits(surface, mesh, positions, moved, options, None))
        .map(|(stats, _)| stats)
}

/// [`restore`] that also appends to `changed` every vertex whose star the repair changed
/// (relocated vertices, the corners of every flipped quad), sorted and each once; nothing on
/// failure. A caller that moves vertices again can tell from them which vertices gained new
/// neighbours (every other vertex keeps its neighbours).
///
/// # Errors
/// As [`restore`].
pub fn restore_with_changes<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut [DVec3],
    moved: Option<&[Vertex]>,
    options: &RestoreOptions,
    changed: &mut Vec<Vertex>,
) -> Result<RestoreStats, DelaunayError> {
    let positions: &[DVec3] = positions;
    let (stats, mut these) =
        mesh.atomically(|mesh| restore_edits(surface, mesh, positions, moved, options, None))?;
    changed.append(&mut these);
    Ok(stats)
}

/// [`restore_with_changes`] after a motion by rigid pieces (plates): `pieces[i]` labels the
/// piece of vertex `i` (a vertex beyond `pieces` is on none), the vertices of one piece moved,
/// if at all, by one rotation (or stayed), and `band` names every vertex with a neighbour on
/// another piece. So every other vertex moved with all its neighbours, and its faces and
/// edges keep their orientation and circle tests, and its winding; so does every face of the
/// band whose corners are all on one piece. The repair is the same as with `Some(band)`, but
/// the fold test skips the band's one-piece faces (their orientation is kept up to the
/// rounding of the turned coordinates) and the covering certificate need not check the
/// windings of the band's neighbours outside it.
///
/// Labels that lie (a piece whose vertices did not move together), like a band that misses
/// a vertex, can leave folds or edges that are not Delaunay; no label makes it panic, and the
/// mesh stays a valid triangulation of its topology.
///
/// # Errors
/// As [`restore`].
pub fn restore_rigid_band<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut [DVec3],
    band: &[Vertex],
    pieces: &[u32],
    options: &RestoreOptions,
    changed: &mut Vec<Vertex>,
) -> Result<RestoreStats, DelaunayError> {
    let positions: &[DVec3] = positions;
    let moved = Some(band);
    let pieces = Some(Pieces(pieces));
    let (stats, mut these) =
        mesh.atomically(|mesh| restore_edits(surface, mesh, positions, moved, options, pieces))?;
    changed.append(&mut these);
    Ok(stats)
}

/// [`restore`], which rolls this back when it fails: find the folds, relocate the folded
/// vertices, flip around everything that moved, then check that no fold is left and that the
/// surface is covered once. Returns the vertices whose stars changed too (sorted, once).
fn restore_edits<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    moved: Option<&[Vertex]>,
    options: &RestoreOptions,
    pieces: Option<Pieces<'_>>,
) -> Result<(RestoreStats, Vec<Vertex>), DelaunayError> {
    let mut moved = Moved::new(surface, mesh, positions, moved)?;
    moved.pieces = pieces;
    let mut stats = RestoreStats::default();
    let scan = moved.folded(mesh, &mut stats)?;
    if moved.mask.is_none() && stats.folds == 0 && surface.is_closed() {
        refuse_branch_points(surface, mesh, positions, &moved.vertices)?;
    }
    let folded = scan.owners.clone();
    let (relocated, touched) =
        relocate_folded(surface, mesh, positions, folded, options, &mut stats)?;
    let mut changed = touched.stars;
    changed.extend_from_slice(&relocated);
    stats.flips += moved.lawson(mesh, &mut changed)?;
    changed.extend(touched.flipped);
    par::sort_dedup(&mut changed, mesh.vertex_slots());
    // Folds, merges and mass motion are where vertices can pass one another far enough for
    // the repaired mesh to wrap the surface twice, with every local condition met (see
    // `crate::covering`); small moves (no fold) keep the covering. On the sphere without a
    // merge, a certificate local to what changed settles it (`certify`); otherwise one O(n)
    // count.
    let certified = if surface.is_closed() && stats.merged == 0 {
        let verdict = moved.certify(mesh, &scan, &changed, stats.folds);
        // Debug builds check every local verdict against the O(n) count it replaces.
        #[cfg(debug_assertions)]
        certify::cross_check(surface, mesh, positions, &verdict);
        verdict?
    } else {
        let covering = moved.no_fold_left(mesh, &relocated)?;
        if let Some(times) = covering.filter(|&t| t != 1) {
            return Err(DelaunayError::Covering { times });
        }
        covering.is_some() || (moved.mask.is_none() && stats.folds == 0 && stats.merged == 0)
    };
    let merged_at_scan = stats.merged;
    if options.tolerance > 0.0 {
        for &v in &moved.vertices {
            if mesh.is_vertex_alive(v) {
                collide_within(surface, mesh, positions, v, options, &mut stats)?;
            }
        }
    }
    // Merges within the tolerance came after the certificate: count.
    if !certified || stats.merged != merged_at_scan {
        check_covering(surface, mesh, positions)?;
    }
    Ok((stats, changed))
}

/// The vertices a restore starts from, checked, with a mask of them when many moved: each
/// face and edge is then checked once by a scan instead of once per moved corner (for a few,
/// the mask's O(n) clearing would dominate).
struct Moved<'a, S> {
    surface: &'a S,
    positions: &'a [DVec3],
    vertices: Vec<Vertex>,
    mask: Option<Vec<bool>>,
    /// The pieces of a rigid motion ([`restore_rigid_band`]): the vertices outside
    /// `vertices` moved rigidly with all their neighbours.
    pieces: Option<Pieces<'a>>,
}

impl<'a, S: Surface> Moved<'a, S> {
    /// `moved` (every vertex when `None`), refusing dead vertices and, on a closed surface,
    /// the centre (on no sphere around it: off the surface).
    fn new(
        surface: &'a S,
        mesh: &Mesh,
        positions: &'a [DVec3],
        moved: Option<&[Vertex]>,
    ) -> Result<Self, DelaunayError> {
        check_len(mesh, positions)?;
        let vertices: Vec<Vertex> = match moved {
            Some(m) => m.to_vec(),
            None => mesh.vertices().collect(),
        };
        for &v in &vertices {
            if v.index() >= mesh.vertex_slots() || !mesh.is_vertex_alive(v) {
                return Err(DelaunayError::DeadVertex(v));
            }
            if pos(positions, v)? == DVec3::ZERO && surface.is_closed() {
                return Err(DelaunayError::Outside);
            }
        }
        let mask = (vertices.len() * 8 > mesh.vertex_slots()).then(|| {
            let mut m = vec![false; mesh.vertex_slots()];
            for v in &vertices {
                m[v.index()] = true;
            }
            m
        });
        Ok(Self {
            surface,
            positions,
            vertices,
            mask,
            pieces: None,
        })
    }

    /// The vertices with a folded face around them (`owners`, sorted, each once); counts the
    /// folds. With the mask, one scan of every face, which on the sphere also records the
    /// faces holding the covering probe (for [`certify::certify_scanned`]).
    fn folded(&self, mesh: &Mesh, stats: &mut RestoreStats) -> Result<FaceScan, DelaunayError> {
        let (surface, positions) = (self.surface, self.positions);
        let mut scan = match &self.mask {
            Some(m) => scan_folds(surface, mesh, positions, m, surface.is_closed())?,
            None => {
                let mut scan = FaceScan::default();
                let counts = if self.vertices.len() >= par::PAR_MIN {
                    par::fold_counts(surface, mesh, positions, &self.vertices, self.pieces)?
                } else {
                    let each = self.vertices.iter();
                    each.map(|&v| folded_faces_in(surface, mesh, positions, v, self.pieces))
                        .collect::<Result<_, _>>()?
                };
                for (&v, n) in self.vertices.iter().zip(counts) {
                    if n > 0 {
                        scan.folds += n;
                        scan.owners.push(v);
                    }
                }
                scan
            }
        };
        stats.folds += scan.folds;
        scan.owners.sort_unstable();
        scan.owners.dedup();
        Ok(scan)
    }

    /// Lawson flips from every moved vertex and every vertex of `changed` (relocated or
    /// touched by relocations), to which the corners of every flipped quad are added; returns
    /// the number of flips.
    fn lawson(&self, mesh: &mut Mesh, changed: &mut Vec<Vertex>) -> Result<usize, DelaunayError> {
        let mut parts = par::Parts::default();
        par::sort_dedup(changed, mesh.vertex_slots());
        match &self.mask {
            Some(m) => {
                let mut stack = Vec::new();
                scan_reflex(self.surface, mesh, self.positions, m, &mut stack)?;
                parts.0.push(stack);
                par::stars_and_links(mesh, &[changed.as_slice()], &mut parts);
            }
            None => {
                let lists = [self.vertices.as_slice(), changed.as_slice()];
                par::stars_and_links(mesh, &lists, &mut parts);
            }
        }
        // The budget counts every edge queued, before the first tests drop most of them.
        let queued = parts.len();
        let limit = flip_limit(queued, mesh.undirected_edge_count());
        let kept = match queued >= par::PAR_MIN {
            true => par::keep_reflex(self.surface, mesh, self.positions, &parts),
            false => None,
        };
        let mut stack = kept.unwrap_or_else(|| parts.concat());
        if self.surface.is_closed() && stack.len() >= halves::PARTS_MIN {
            return halves::lawson_in_parts(
                self.surface,
                mesh,
                self.positions,
                stack,
                limit,
                changed,
            );
        }
        let flipped = Some(changed);
        lawson_tracked(
            self.surface,
            mesh,
            self.positions,
            &mut stack,
            limit,
            flipped,
        )
    }

    /// On the sphere, without merges: checks what the repair changed ([`certify`]). `true`
    /// when the covering is certified, `false` when the caller must count it.
    fn certify(
        &self,
        mesh: &Mesh,
        scan: &FaceScan,
        changed: &[Vertex],
        folds: usize,
    ) -> Result<bool, DelaunayError> {
        let (surface, positions) = (self.surface, self.positions);
        match &scan.holding {
            Some(holding) => {
                certify::certify_scanned(surface, mesh, positions, changed, &scan.folded, holding)?;
                Ok(true)
            }
            None if folds == 0 => {
                // Windings certified before any edit (`refuse_branch_points`); Lawson makes
                // no clockwise face and keeps every winding.
                Ok(true)
            }
            None => {
                let mut moved = self.vertices.clone();
                moved.sort_unstable();
                let rigid = self.pieces.is_some();
                certify::certify_windings(surface, mesh, positions, &moved, changed, rigid)
            }
        }
    }

    /// [`DelaunayError::FoldUnresolved`] for a fold left around a moved or relocated vertex
    /// (Lawson never makes a clockwise face, so there is none elsewhere); with the mask, one
    /// scan of the faces tests each face once and, on the sphere, also counts the covering,
    /// which is returned.
    fn no_fold_left(
        &self,
        mesh: &Mesh,
        relocated: &[Vertex],
    ) -> Result<Option<usize>, DelaunayError> {
        let (surface, positions) = (self.surface, self.positions);
        let folded = |v: Vertex| -> Result<bool, DelaunayError> {
            Ok(mesh.is_vertex_alive(v) && folded_faces(surface, mesh, positions, v)? > 0)
        };
        let mut left = Vec::new();
        let mut covering = None;
        match &self.mask {
            Some(m) => {
                let scan = scan_folds(surface, mesh, positions, m, surface.is_closed())?;
                left = scan.owners;
                covering = scan.holding.map(|h| h.len());
            }
            None => {
                for &v in &self.vertices {
                    if folded(v)? {
                        left.push(v);
                    }
                }
            }
        }
        if let Some(&v) = left.first() {
            return Err(DelaunayError::FoldUnresolved(v));
        }
        for &v in relocated {
            if folded(v)? {
                return Err(DelaunayError::FoldUnresolved(v));
            }
        }
        Ok(covering)
    }
}

/// Without folds every face is counter-clockwise and Lawson flips keep each vertex's winding,
/// so the moved vertices and their neighbours (the only windings a move can change) winding
/// once each certify that the result covers the sphere once ([`crate::covering::winding`]).
/// A vertex winding twice (moves that wrapped its star around it) is refused up front.
fn refuse_branch_points<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    moved: &[Vertex],
) -> Result<(), DelaunayError> {
    for &v in moved {
        for u in std::iter::once(v).chain(mesh.neighbors(v)) {
            if winding(surface, mesh, positions, u) != 1 {
                return Err(DelaunayError::FoldUnresolved(u));
            }
        }
    }
    Ok(())
}

/// The number of faces around `v` that are clockwise or flat. One walk of `v`'s ring: the
/// third corner of the face left of a spoke is the end of the next spoke, so each neighbour's
/// position is read once (the walk is most of a restore's fold tests, and memory-bound).
fn folded_faces<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    v: Vertex,
) -> Result<usize, DelaunayError> {
    folded_faces_in(surface, mesh, positions, v, None)
}
