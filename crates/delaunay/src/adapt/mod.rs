//! Variable resolution: refine and coarsen a Delaunay triangulation until its edge lengths
//! follow a size field, keeping it exactly Delaunay.
//!
//! One pass: split every edge longer than `split_above · target` at its midpoint (on the
//! sphere the great-circle midpoint, on the sphere of the endpoints' mean radius), collapse
//! edges shorter than `collapse_below · target` into their midpoint where that folds nothing,
//! keeps the link condition and makes no edge longer than `split_above · target`, then Lawson
//! flips from every vertex the pass touched. Passes repeat until one changes nothing or the
//! pass cap is reached. Every edit is a [`Mesh::split`], [`Mesh::collapse`] or [`Mesh::flip`],
//! so the layers of a world follow through the mesh's journal (splits and collapses at weight
//! `t = 0.5`, or at the boundary vertex's end in the plane).

use crate::flips::{flip_limit, lawson};
use crate::{DelaunayError, is_delaunay};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, Vertex};

mod options;

pub use options::{AdaptError, AdaptOptions, AdaptStats, Metric};

/// Refines and coarsens a Delaunay triangulation until its edge lengths follow `size`, the
/// target edge length at a vertex (`size(v, position)`), keeping it exactly Delaunay.
///
/// An edge's target is the mean of its endpoints' sizes. Edges longer than
/// `split_above · target` are split at their midpoint; edges shorter than
/// `collapse_below · target` are collapsed into their midpoint (in the plane, into the
/// boundary endpoint if one is on the boundary; edges with both ends on the boundary are kept).
/// A collapse is skipped, by rule, when [`Mesh::collapse`] refuses it (the link condition),
/// when a face of the survivor's new star would not turn counter-clockwise (checked exactly
/// before the edit), or when an edge of the new star would be longer than the split bound (the
/// guard against split–collapse cycles); edges at a vertex made by this pass's splits wait for
/// the next pass. Sweeps go in edge-id order; after each pass the flips start from the star
/// and link of every touched vertex. The guard cannot see the flips that follow, so on large
/// meshes a few pockets may keep splitting and collapsing until the pass cap
/// (`converged == false`; the mesh is valid and Delaunay after every pass). `size` is asked once per live vertex at entry; new
/// vertices interpolate (see [`AdaptOptions::sample_new_vertices`]).
///
/// Work per pass is proportional to the mesh (one scan of the edges per sweep), with buffers
/// reused across passes.
///
/// # Errors
/// Before any edit, everything unchanged: [`AdaptError::BadOptions`],
/// [`AdaptError::BadSize`] (NaN, infinite, zero or negative target),
/// [`AdaptError::NotDelaunay`] (inverted faces, holes on the sphere, non-Delaunay edges), and
/// bad positions as [`AdaptError::Delaunay`]. After edits (not expected on a valid input):
/// [`AdaptError::Delaunay`], with the mesh put back from a copy taken at entry and the
/// positions restored, so the mesh and positions are again as they were.
///
/// A size field read from a vertex layer is a closure over its slice:
///
/// ```
/// use delaunay::{AdaptOptions, Sphere, adapt, is_delaunay};
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(2000, 1.0, 0.0, 0).unwrap();
/// // A vertex layer of target lengths: fine near +z, four times coarser near -z.
/// let spacing = (4.0 * std::f64::consts::PI / 2000.0).sqrt();
/// let target: Vec<f64> = pos.iter().map(|p| spacing * (1.75 - 1.25 * p.z)).collect();
/// let stats = adapt(&Sphere, &mut mesh, &mut pos, |v, _| target[v.index()], &AdaptOptions::default()).unwrap();
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// assert!(stats.splits > 0 && stats.collapses > 0);
/// assert!(stats.within_bounds() > 0.75);
/// mesh.check().unwrap();
/// ```
pub fn adapt<S: Metric>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    size: impl Fn(Vertex, DVec3) -> f64,
    options: &AdaptOptions,
) -> Result<AdaptStats, AdaptError> {
    let o = options;
    let sane = o.split_above.is_finite()
        && o.collapse_below.is_finite()
        && o.collapse_below > 0.0
        && o.collapse_below < o.split_above
        && o.max_passes > 0;
    if !sane {
        return Err(AdaptError::BadOptions);
    }
    match is_delaunay(surface, mesh, positions) {
        Ok(()) => {}
        Err(Ok(v)) => return Err(AdaptError::NotDelaunay(v)),
        Err(Err(e)) => return Err(e.into()),
    }
    let mut sizes = vec![f64::NAN; mesh.vertex_slots()];
    for v in mesh.vertices() {
        let p = positions[v.index()];
        if !p.is_finite() {
            return Err(DelaunayError::NonFinite(Some(v)).into());
        }
        let s = size(v, p);
        if !(s.is_finite() && s > 0.0) {
            return Err(AdaptError::BadSize { vertex: v, size: s });
        }
        sizes[v.index()] = s;
    }
    let budget = o
        .max_vertices
        .unwrap_or_else(|| mesh.vertex_count().saturating_mul(16).saturating_add(1024));
    // All or nothing: the mesh from a copy (a pass edits a good part of the mesh: an undo
    // log would outgrow it), the positions by what `place` overwrote.
    let len_before = positions.len();
    let mut overwritten = Vec::new();
    let result = crate::flips::by_copy(mesh, |mesh| {
        let mut run = Run {
            surface,
            mesh,
            positions: &mut *positions,
            overwritten: &mut overwritten,
            len_before,
            sizes,
            size: &size,
            o,
            budget,
            stats: AdaptStats::default(),
            stamp: Vec::new(),
            touched: Vec::new(),
            queue: Vec::new(),
            queued: Vec::new(),
            pass: 0,
        };
        for pass in 1..=o.max_passes {
            run.pass = pass as u32;
            run.stats.passes = pass;
            let edits = run.split_sweep()? + run.collapse_sweep()?;
            run.flip_back()?;
            if edits == 0 {
                run.stats.converged = !run.stats.budget_reached;
                break;
            }
        }
        run.measure();
        Ok(run.stats)
    });
    if result.is_err() {
        positions.truncate(len_before);
        for (i, p) in overwritten.into_iter().rev() {
            positions[i] = p;
        }
    }
    result
}

/// Why a collapse was kept (the worst reason over the positions tried).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Refusal {
    Long,
    Fold,
}

/// The state of one [`adapt`] call: buffers reused across passes.
struct Run<'a, S, F> {
    surface: &'a S,
    mesh: &'a mut Mesh,
    positions: &'a mut Vec<DVec3>,
    /// Old values of the positions `place` overwrote below `len_before`, to undo a failure.
    overwritten: &'a mut Vec<(usize, DVec3)>,
    /// The length of `positions` at entry.
    len_before: usize,
    /// Target length per vertex slot (NaN at dead slots).
    sizes: Vec<f64>,
    size: &'a F,
    o: &'a AdaptOptions,
    budget: usize,
    stats: AdaptStats,
    /// Pass number that last touched each vertex (dedupes `touched`).
    stamp: Vec<u32>,
    touched: Vec<Vertex>,
    queue: Vec<Edge>,
    /// Pass number that last queued each quad-edge for the flips (dedupes `queue`).
    queued: Vec<u32>,
    pass: u32,
}

impl<S: Metric, F: Fn(Vertex, DVec3) -> f64> Run<'_, S, F> {
    #[inline]
    fn p(&self, v: Vertex) -> DVec3 {
        self.positions[v.index()]
    }

    #[inline]
    fn target(&self, a: Vertex, b: Vertex) -> f64 {
        0.5 * (self.sizes[a.index()] + self.sizes[b.index()])
    }

    fn touch(&mut self, v: Vertex) {
        if self.stamp.len() <= v.index() {
            self.stamp
                .resize(self.mesh.vertex_slots().max(v.index() + 1), 0);
        }
        if self.stamp[v.index()] != self.pass {
            self.stamp[v.index()] = self.pass;
            self.touched.push(v);
        }
    }

    /// Writes the position and size of a new or moved vertex.
    fn place(&mut self, v: Vertex, p: DVec3, interpolated: f64) {
        let i = v.index();
        if i >= self.positions.len() {
            self.positions.resize(i + 1, DVec3::NAN);
        }
        if i >= self.sizes.len() {
            self.sizes.resize(i + 1, f64::NAN);
        }
        if i < self.len_before {
            self.overwritten.push((i, self.positions[i]));
        }
        self.positions[i] = p;
        let mut s = interpolated;
        if self.o.sample_new_vertices {
            let asked = (self.size)(v, p);
            if asked.is_finite() && asked > 0.0 {
                s = asked;
            }
        }
        self.sizes[i] = s;
        self.touch(v);
    }

    /// Splits every edge longer than the bound, in edge-id order. Returns the splits made.
    fn split_sweep(&mut self) -> Result<usize, AdaptError> {
        let mut queue = core::mem::take(&mut self.queue);
        queue.clear();
        for e in self.mesh.undirected_edges() {
            let (a, b) = (self.mesh.origin(e), self.mesh.dest(e));
            let len = self.surface.length(self.p(a), self.p(b));
            if len > self.o.split_above * self.target(a, b) {
                queue.push(e);
            }
        }
        let mut splits = 0;
        for &e in &queue {
            if self.mesh.vertex_count() >= self.budget {
                self.stats.budget_reached = true;
                break;
            }
            if self.split(e)? {
                splits += 1;
            }
        }
        self.queue = queue;
        self.stats.splits += splits;
        Ok(splits)
    }

    /// Splits `e` at its midpoint unless a new face would be flat or inverted.
    fn split(&mut self, e: Edge) -> Result<bool, AdaptError> {
        let m = &*self.mesh;
        let (a, b) = (m.origin(e), m.dest(e));
        let (pa, pb) = (self.p(a), self.p(b));
        let Some(p) = self.surface.between(pa, pb, 0.5) else {
            self.stats.refused_fold += 1;
            return Ok(false);
        };
        // The halves of each face beside the edge must turn counter-clockwise.
        if m.left(e).is_valid() {
            let pc = self.p(m.dest(m.left_next(e)));
            if self.surface.orient(pa, p, pc) <= 0.0 || self.surface.orient(p, pb, pc) <= 0.0 {
                self.stats.refused_fold += 1;
                return Ok(false);
            }
        }
        if m.right(e).is_valid() {
            let pd = self.p(m.dest(m.left_next(e.sym())));
            if self.surface.orient(pb, p, pd) <= 0.0 || self.surface.orient(p, pa, pd) <= 0.0 {
                self.stats.refused_fold += 1;
                return Ok(false);
            }
        }
        let r = match self.mesh.split(e, 0.5) {
            Ok(r) => r,
            Err(MeshError::SplitWouldDuplicate(_)) => {
                self.stats.refused_link += 1;
                return Ok(false);
            }
            Err(err) => return Err(err.into()),
        };
        let s = self.target(a, b);
        self.place(r.vertex, p, s);
        Ok(true)
    }

    /// Collapses every edge shorter than the bound where the rules allow, in edge-id order.
    fn collapse_sweep(&mut self) -> Result<usize, AdaptError> {
        let mut queue = core::mem::take(&mut self.queue);
        queue.clear();
        let fresh = |v: Vertex| self.stamp.get(v.index()) == Some(&self.pass);
        for e in self.mesh.undirected_edges() {
            let (a, b) = (self.mesh.origin(e), self.mesh.dest(e));
            // Halves of this pass's splits wait for the flips: collapsing them now would
            // mostly undo the split (and the guard refuses nearly all of them anyway).
            if fresh(a) || fresh(b) {
                continue;
            }
            let len = self.surface.length(self.p(a), self.p(b));
            if len < self.o.collapse_below * self.target(a, b) {
                queue.push(e);
            }
        }
        let mut collapses = 0;
        for &e in &queue {
            // Earlier collapses remove edges and move survivors: look again.
            if !self.mesh.is_edge_alive(e) {
                continue;
            }
            let (a, b) = (self.mesh.origin(e), self.mesh.dest(e));
            let len = self.surface.length(self.p(a), self.p(b));
            if len < self.o.collapse_below * self.target(a, b) && self.collapse(e)? {
                collapses += 1;
            }
        }
        self.queue = queue;
        self.stats.collapses += collapses;
        Ok(collapses)
    }

    /// Collapses `e` unless a rule keeps it (see [`adapt`]); simulated before the edit. The
    /// survivor goes to the midpoint (trying the endpoints as well leaves a few fewer short
    /// edges but lets the flips that follow undo the guard: passes stop converging).
    fn collapse(&mut self, e: Edge) -> Result<bool, AdaptError> {
        let m = &*self.mesh;
        let (a, b) = (m.origin(e), m.dest(e));
        // A closed surface has no boundary: skip the two ring walks.
        let (ba, bb) = if self.surface.is_closed() {
            (false, false)
        } else {
            (m.is_boundary_vertex(a), m.is_boundary_vertex(b))
        };
        // Keep the outline: a boundary vertex stays where it is.
        let tries: &[(Edge, f64)] = match (ba, bb) {
            (false, false) => &[(e, 0.5)],
            (true, false) => &[(e, 0.0)],
            (false, true) => &[(e.sym(), 0.0)],
            (true, true) => {
                self.stats.refused_boundary += 1;
                return Ok(false);
            }
        };
        let mut refusal = Refusal::Long;
        for &(edge, t) in tries {
            let (keep, gone) = (m.origin(edge), m.dest(edge));
            let (pk, pg) = (self.p(keep), self.p(gone));
            let Some(p) = self.surface.between(pk, pg, t) else {
                refusal = Refusal::Fold;
                continue;
            };
            let s = (1.0 - t) * self.sizes[keep.index()] + t * self.sizes[gone.index()];
            match self.new_star(keep, gone, p, s) {
                Ok(()) => {}
                Err(r) => {
                    refusal = refusal.max(r);
                    continue;
                }
            }
            return match self.mesh.collapse(edge, t as f32) {
                Ok(r) => {
                    debug_assert_eq!(r.survivor, keep);
                    self.sizes[gone.index()] = f64::NAN;
                    self.place(keep, p, s);
                    Ok(true)
                }
                Err(MeshError::CollapseNotManifold(_)) => {
                    self.stats.refused_link += 1;
                    Ok(false)
                }
                Err(err) => Err(err.into()),
            };
        }
        match refusal {
            Refusal::Long => self.stats.refused_long += 1,
            Refusal::Fold => self.stats.refused_fold += 1,
        }
        Ok(false)
    }

    /// Would the star of `keep` after collapsing `gone` into it at `p` (size `s`) fold a face
    /// or hold an edge longer than the split bound?
    fn new_star(&self, keep: Vertex, gone: Vertex, p: DVec3, s: f64) -> Result<(), Refusal> {
        let m = &*self.mesh;
        // Every face of either endpoint but the two beside the edge.
        for (v, other) in [(keep, gone), (gone, keep)] {
            for x in m.outgoing(v) {
                let xv = m.dest(x);
                if xv == other {
                    continue;
                }
                let px = self.p(xv);
                let limit = self.o.split_above * 0.5 * (s + self.sizes[xv.index()]);
                if self.surface.length(p, px) > limit {
                    return Err(Refusal::Long);
                }
                if !m.left(x).is_valid() {
                    continue;
                }
                let y = m.dest(m.left_next(x));
                if y != other && self.surface.orient(p, px, self.p(y)) <= 0.0 {
                    return Err(Refusal::Fold);
                }
            }
        }
        Ok(())
    }

    /// Lawson flips from the star and link of every touched vertex (each edge queued once):
    /// every edge whose quad an edit changed has a touched vertex in its quad. No face is
    /// folded (splits and collapses were checked exactly), so the result is Delaunay.
    fn flip_back(&mut self) -> Result<(), AdaptError> {
        let mut queue = core::mem::take(&mut self.queue);
        queue.clear();
        self.queued.resize(self.mesh.quad_slots(), 0);
        let m = &*self.mesh;
        for &v in &self.touched {
            if !m.is_vertex_alive(v) {
                continue;
            }
            for e in m.outgoing(v) {
                for x in [e, m.left_next(e)] {
                    if m.left(e).is_valid() || x == e {
                        let q = x.quad();
                        if self.queued[q] != self.pass {
                            self.queued[q] = self.pass;
                            queue.push(x);
                        }
                    }
                }
            }
        }
        self.touched.clear();
        let limit = flip_limit(queue.len(), self.mesh.undirected_edge_count());
        let flips = lawson(self.surface, self.mesh, self.positions, &mut queue, limit);
        self.queue = queue;
        self.stats.flips += flips?;
        Ok(())
    }

    /// Counts the result's edges outside the bounds.
    fn measure(&mut self) {
        let (mut edges, mut long, mut short) = (0, 0, 0);
        for e in self.mesh.undirected_edges() {
            let (a, b) = (self.mesh.origin(e), self.mesh.dest(e));
            let len = self.surface.length(self.p(a), self.p(b));
            let t = self.target(a, b);
            edges += 1;
            long += (len > self.o.split_above * t) as usize;
            short += (len < self.o.collapse_below * t) as usize;
        }
        self.stats.edges = edges;
        self.stats.long_edges = long;
        self.stats.short_edges = short;
    }
}
