//! Relocations on two cores: the mesh in two parts ([`quadedge::Mesh::edit_in_parts`]), the
//! parts alternating over slabs ([`crate::restore::halves::Slabs`]) holding about as many of
//! the folded vertices each. A part relocates a folded vertex it owns only while every edit stays among its
//! own vertices: its link (the star-emptying flips), the faces its walk enters, the face it
//! lands in and the quads Lawson flips around it. Anything else stops that relocation where
//! it stands (every intermediate state is a valid mesh: an emptied star, a vertex moved but
//! not yet flipped around) and hands the vertex to the serial relocation that follows (an
//! edge a part could not flip goes to the final Lawson pass through its ends), and the part
//! relocates no vertex next to one it handed over ([`Run::give_up`]). A part reads
//! only its own rings and faces, so its edits depend only on the mesh before: the same for
//! any thread count.

use super::walk::{Walked, walk};
use super::{Relocation, Touched, fold_suspects};
use crate::check::pos;
use crate::flips::flip_limit;
use crate::remove::{delaunay_ear, fallback_ear};
use crate::restore::halves::{PartOut, Slabs, lawson_part};
use crate::restore::{RestoreOptions, RestoreStats};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, MeshError, MeshPart, PartError, Vertex};
use std::collections::VecDeque;

/// Below this many folded vertices one core relocates them all.
pub(super) const PARTS_MIN: usize = 256;

/// A part relocates a vertex at most this many times (the serial loop then takes it): in
/// `tectonics` no vertex is relocated more than four times in a restore, so this only bounds
/// a cycle the rule of [`Run::give_up`] would miss.
const RELOCATIONS_MAX: u8 = 4;

/// [`Run::flags`]: in the part's queue.
const QUEUED: u8 = 1;
/// [`Run::flags`]: left to the serial loop ([`Run::give_up`]).
const GIVEN_UP: u8 = 2;
/// [`Run::flags`]: the relocation count's lowest bit.
const TIMES_SHIFT: u8 = 2;

/// What a part did: its relocations, what they touched, the vertices left to the serial
/// relocation (in the order met), and the first error.
#[derive(Default)]
pub(super) struct PartRelocs {
    pub(super) relocated: Vec<Vertex>,
    pub(super) touched: Touched,
    pub(super) stats: RestoreStats,
    pub(super) deferred: Vec<Vertex>,
    pub(super) error: Option<DelaunayError>,
}

/// Relocates what the parts can of `folded` on two cores, the parts alternating over `slabs`
/// slabs across `axis` at the folded vertices' quantiles; returns the parts' results, part
/// 0's first, whose `deferred` vertices the caller relocates afterwards.
pub(super) fn relocate_in_parts<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    folded: &[Vertex],
    options: &RestoreOptions,
    axis: DVec3,
    slabs: usize,
) -> [PartRelocs; 2] {
    let points = folded.iter().filter_map(|v| positions.get(v.index()));
    let cut = Slabs::at_quantiles(axis, points, slabs);
    let owner = |v: Vertex| match positions.get(v.index()) {
        Some(p) => cut.part(*p),
        None => 2,
    };
    let mut own: [Vec<Vertex>; 2] = Default::default();
    for &v in folded {
        if let Some(list) = own.get_mut(usize::from(owner(v))) {
            list.push(v);
        }
    }
    let (slots, edges) = (mesh.vertex_slots(), mesh.undirected_edge_count());
    mesh.edit_in_parts(&owner, |part| {
        let mine = &own[usize::from(part.part())];
        let mut out = PartRelocs::default();
        let mut run = Run {
            surface,
            positions,
            options,
            edges,
            flags: Vec::new(),
            star: Vec::new(),
            lawson: PartOut::default(),
            out: &mut out,
        };
        if let Err(err) = run.relocate_all(part, mine, slots) {
            out.error = Some(err);
        }
        out
    })
}

/// One part's relocation loop and what it needs.
struct Run<'a, S> {
    surface: &'a S,
    positions: &'a [DVec3],
    options: &'a RestoreOptions,
    /// The mesh's edge count (flips keep it): the flip budget's size.
    edges: usize,
    /// Per vertex slot: [`QUEUED`], [`GIVEN_UP`], and the part's relocations of it (from
    /// bit [`TIMES_SHIFT`] up).
    flags: Vec<u8>,
    /// Buffers each relocation reuses (emptied before use; fresh ones per relocation were
    /// about a tenth of a part's CPU in allocations and regrowth): the star being emptied, and
    /// what Lawson around the landed vertex did.
    star: Vec<(Edge, DVec3, bool)>,
    lawson: PartOut,
    out: &'a mut PartRelocs,
}

impl<S: Surface> Run<'_, S> {
    /// [`super::relocate_folded`]'s loop on the part's own folded vertices, first in, first
    /// out, within the same budget; a vertex it cannot finish goes to `deferred`.
    ///
    /// A vertex the part gives up on (a neighbour in the other part, a walk leaving the part,
    /// a landing on a corner, or [`RELOCATIONS_MAX`] relocations already) stays folded until
    /// the serial loop, so the part relocates no vertex next to it either: the serial loop
    /// would have relocated it in between, and relocations beside a fold left standing can
    /// refold each other without end (two vertices relocated 11,000 times each in one restore
    /// of `tectonics 500000 6 2026 2` before this rule).
    fn relocate_all<O: Fn(Vertex) -> u8 + Sync>(
        &mut self,
        part: &mut MeshPart<'_, O>,
        mine: &[Vertex],
        slots: usize,
    ) -> Result<(), DelaunayError> {
        self.flags = vec![0; slots];
        for v in mine {
            self.flags[v.index()] |= QUEUED;
        }
        let mut budget = 16 * mine.len() + 64;
        // About a dozen stars and a few flipped quads per relocation (as the serial loop):
        // room up front instead of regrowth copies.
        let touched = &mut self.out.touched;
        touched.stars.reserve(16 * mine.len());
        touched.flipped.reserve(16 * mine.len());
        self.out.relocated.reserve(mine.len());
        let mut queue: VecDeque<Vertex> = mine.iter().copied().collect();
        let (mut link, mut suspects) = (Vec::new(), Vec::new());
        while let Some(v) = queue.pop_front() {
            self.flags[v.index()] &= !QUEUED;
            if self.flags[v.index()] & GIVEN_UP != 0 || self.folded(part, v)? == 0 {
                continue;
            }
            if budget == 0 {
                self.out.deferred.push(v);
                self.out.deferred.extend(queue.drain(..));
                break;
            }
            budget -= 1;
            link.clear();
            ring(part, v, |e| link.push(part.dest(e)));
            if self.flags[v.index()] >> TIMES_SHIFT >= RELOCATIONS_MAX
                || link.iter().any(|&u| !part.owns(u))
            {
                self.give_up(v);
                continue;
            }
            if link.iter().any(|&u| self.flags[u.index()] & GIVEN_UP != 0) {
                self.out.deferred.push(v);
                continue;
            }
            self.out.touched.stars.extend_from_slice(&link);
            self.out.touched.made.clear();
            match self.relocate(part, v)? {
                Relocation::Done => {
                    debug_assert_eq!(self.folded(part, v), Ok(0), "a part left {v:?} folded");
                    self.out.stats.relocated += 1;
                    self.out.relocated.push(v);
                    self.flags[v.index()] += 1 << TIMES_SHIFT;
                    ring(part, v, |e| link.push(part.dest(e)));
                    let made = &self.out.touched.made;
                    fold_suspects(self.surface, self.positions, made, &mut suspects);
                    for &u in &link {
                        if !suspects.contains(&u) || self.flags[u.index()] & QUEUED != 0 {
                            continue;
                        }
                        if !part.owns(u) {
                            self.out.deferred.push(u);
                        } else if self.folded(part, u)? > 0 {
                            self.flags[u.index()] |= QUEUED;
                            queue.push_back(u);
                        }
                    }
                }
                Relocation::Merged | Relocation::Deferred => self.give_up(v),
            }
        }
        Ok(())
    }

    /// Leaves `v` to the serial relocation: the part neither relocates it again nor any
    /// vertex next to it (whose relocation would meet its fold).
    fn give_up(&mut self, v: Vertex) {
        self.out.deferred.push(v);
        if let Some(f) = self.flags.get_mut(v.index()) {
            *f |= GIVEN_UP;
        }
    }

    /// The clockwise or flat faces around an owned vertex (`folded_faces`); 0 for a vertex
    /// the part does not own or a dead one.
    fn folded<O: Fn(Vertex) -> u8 + Sync>(
        &self,
        part: &MeshPart<'_, O>,
        v: Vertex,
    ) -> Result<usize, DelaunayError> {
        let Some(first) = part.vertex_edge(v) else {
            return Ok(0);
        };
        let pv = pos(self.positions, v)?;
        let (mut n, mut e) = (0, first);
        loop {
            let next = part.origin_next(e);
            if part.left(e).is_valid() {
                let a = pos(self.positions, part.dest(e))?;
                let c = pos(self.positions, part.dest(next))?;
                if self.surface.orient(pv, a, c) <= 0.0 {
                    n += 1;
                }
            }
            if next == first {
                return Ok(n);
            }
            e = next;
        }
    }

    /// `relocate` in the part: `Deferred` where it must stop (the vertex is then where the
    /// edits left it, for the serial relocation to go on from).
    fn relocate<O: Fn(Vertex) -> u8 + Sync>(
        &mut self,
        part: &mut MeshPart<'_, O>,
        v: Vertex,
    ) -> Result<Relocation, DelaunayError> {
        let (surface, positions) = (self.surface, self.positions);
        let Some(created) = self.empty_star(part, v)? else {
            return Ok(Relocation::Deferred);
        };
        for &e in &created {
            for side in [e, e.sym()] {
                if part.left(side).is_valid() {
                    let corners = part.left_corners(side);
                    if !corners.contains(&v) {
                        self.out.touched.made.push(corners);
                    }
                }
            }
        }
        self.out.touched.created = created;
        let (mut spokes, mut n) = ([Edge::INVALID; 3], 0);
        ring(part, v, |e| {
            if let Some(s) = spokes.get_mut(n) {
                *s = e;
            }
            n += 1;
        });
        let [s0, s1, s2] = spokes;
        if n != 3 {
            return Ok(Relocation::Deferred);
        }
        let link = [s0, s1, s2].map(|s| part.origin_prev(s.sym()));
        self.out.touched.made.push(link.map(|e| part.origin(e)));
        // A walk that left the part or ran out of steps: the serial loop goes on from here.
        let limit = 2 * positions.len() + 64;
        let Walked::Landed(outer, side) = walk(surface, part, positions, v, link, limit) else {
            return Ok(Relocation::Deferred);
        };
        if outer != link {
            match part.move_vertex(v, part.left(outer[0])) {
                Ok(_) => self.out.stats.relocation_moves += 1,
                Err(PartError::Mesh(MeshError::FaceExists(_))) => {
                    return Err(DelaunayError::FoldUnresolved(v));
                }
                Err(PartError::NotOwned) => return Ok(Relocation::Deferred),
                Err(PartError::Mesh(e)) => return Err(e.into()),
            }
        }
        // `land`: a corner within the tolerance, or on a corner: the serial relocation's.
        let p = positions[v.index()];
        let corners = outer.map(|e| part.origin(e));
        let tol = self.options.tolerance;
        if tol > 0.0
            && corners
                .iter()
                .any(|c| positions[c.index()].distance(p) < tol)
        {
            return Ok(Relocation::Deferred);
        }
        let mut zeros = (0..3).filter(|&i| side[i] == 0.0);
        match (zeros.next(), zeros.next()) {
            (None, _) => {
                let [a, b, c] = corners.map(|u| positions[u.index()]);
                if surface.orient(a, b, c) > 0.0 && surface.in_circle(a, b, c, p) <= 0.0 {
                    return Err(DelaunayError::Outside);
                }
            }
            (Some(i), None) => {
                if part.right(outer[i]).is_valid() {
                    match part.flip(outer[i]) {
                        Ok(_) => self.out.stats.relocation_flips += 1,
                        Err(PartError::NotOwned) => return Ok(Relocation::Deferred),
                        Err(PartError::Mesh(e)) => return Err(e.into()),
                    }
                }
            }
            _ => return Ok(Relocation::Deferred),
        }
        self.flip_around(part, v)?;
        ring(part, v, |e| {
            if part.left(e).is_valid() {
                self.out.touched.made.push(part.left_corners(e));
            }
        });
        Ok(Relocation::Done)
    }

    /// `reduce_to_degree3` in the part (the same ears); the diagonals made, or `None` when
    /// the ears ran out (the serial relocation meets that error again).
    fn empty_star<O: Fn(Vertex) -> u8 + Sync>(
        &mut self,
        part: &mut MeshPart<'_, O>,
        v: Vertex,
    ) -> Result<Option<Vec<Edge>>, DelaunayError> {
        let mut created = std::mem::take(&mut self.out.touched.created);
        created.clear();
        let mut star = std::mem::take(&mut self.star);
        star.clear();
        ring(part, v, |e| {
            star.push((e, self.positions[part.dest(e).index()], false))
        });
        let r = self.empty_star_from(part, &mut star, &mut created);
        self.star = star;
        Ok(r?.then_some(created))
    }

    /// The ear flips of [`Run::empty_star`] from `star` (the spokes, their ends' positions,
    /// and whether an ear was refused); `false` when the ears ran out.
    fn empty_star_from<O: Fn(Vertex) -> u8 + Sync>(
        &mut self,
        part: &mut MeshPart<'_, O>,
        star: &mut Vec<(Edge, DVec3, bool)>,
        created: &mut Vec<Edge>,
    ) -> Result<bool, DelaunayError> {
        while star.len() > 3 {
            let b = match delaunay_ear(self.surface, star) {
                Some(b) => b,
                None => match fallback_ear(self.surface, star) {
                    Some(b) => b,
                    None => return Ok(false),
                },
            };
            match part.flip(star[b].0) {
                Ok(e) => created.push(e),
                Err(PartError::Mesh(MeshError::FlipWouldDuplicate(_))) => {
                    star[b].2 = true;
                    continue;
                }
                Err(PartError::NotOwned) => return Ok(false),
                Err(PartError::Mesh(e)) => return Err(e.into()),
            }
            self.out.stats.relocation_flips += 1;
            star.remove(b);
            for r in star.iter_mut() {
                r.2 = false;
            }
        }
        Ok(true)
    }

    /// `flip_around` in the part: Lawson from `v`'s star and link; the edges it could not
    /// flip (stuck, or not the part's) name their ends in `touched.stars`, so that the final
    /// Lawson pass starts from them.
    fn flip_around<O: Fn(Vertex) -> u8 + Sync>(
        &mut self,
        part: &mut MeshPart<'_, O>,
        v: Vertex,
    ) -> Result<(), DelaunayError> {
        let mut stack = std::mem::take(&mut self.out.touched.stack);
        stack.clear();
        ring(part, v, |e| {
            stack.push(e);
            if part.left(e).is_valid() {
                stack.push(part.origin_prev(e.sym()));
            }
        });
        let limit = flip_limit(stack.len(), self.edges);
        let mut out = std::mem::take(&mut self.lawson);
        (out.flips, out.error) = (0, None);
        out.stuck.clear();
        out.deferred.clear();
        out.flipped.clear();
        let r = lawson_part(
            self.surface,
            part,
            self.positions,
            &mut stack,
            limit,
            &mut out,
        );
        self.out.touched.stack = stack;
        if let Err(err) = r {
            self.lawson = out;
            return Err(err);
        }
        self.out.stats.flips += out.flips;
        self.out.touched.flipped.append(&mut out.flipped);
        let stars = &mut self.out.touched.stars;
        ring(part, v, |e| stars.push(part.dest(e)));
        for &e in out.stuck.iter().chain(&out.deferred) {
            if part.is_edge_alive(e) {
                stars.extend([part.origin(e), part.dest(e)]);
            }
        }
        self.lawson = out;
        Ok(())
    }
}

/// Calls `f` with each outgoing edge of an owned vertex, counter-clockwise.
fn ring<O: Fn(Vertex) -> u8 + Sync>(part: &MeshPart<'_, O>, v: Vertex, mut f: impl FnMut(Edge)) {
    let Some(first) = part.vertex_edge(v) else {
        return;
    };
    let mut e = first;
    loop {
        f(e);
        e = part.origin_next(e);
        if e == first {
            return;
        }
    }
}
