//! Rigid motion by regions: every region of the surface turns as one piece (a plate), so the
//! repair is only needed where regions meet.
//!
//! Inside a region every vertex turns with its neighbours: orientation and circle tests of a
//! face or edge whose corners all lie in one region keep their sign (a rotation keeps every
//! determinant), so only the vertices with a neighbour in another region (the band) are
//! handed to the restore. The one exception is rounding: the turned coordinates are rounded,
//! so four points of one region cocircular to within that rounding (about 1e-15 of the
//! radius) may keep a diagonal that the exact test of the rounded points would flip; the
//! edge is then Delaunay to within rounding, not exactly. The turn itself is one pass over the positions on all cores; the
//! flips, relocations and covering checks are proportional to the band.
//!
//! A long motion goes in sub-steps ([`World::turn_regions_in_steps`]) inside one edit: one
//! journal replayed into the layers once, one report, and the band of each sub-step found
//! from the last one and the vertices whose stars its repair changed (a vertex gains a
//! neighbour only through a flip around it), not from a pass over every edge.

mod band;

#[cfg(test)]
pub(super) use self::band::merged;
use self::band::{band, next_band};
use super::bounded::{REACH, restore_tracked};
use super::edits::PositionWrites;
use super::report::EditReport;
use super::{EditError, Geometry, MoveOptions};
use crate::World;
use delaunay::{DelaunayError, RestoreStats};
use glam::{DMat3, DQuat, DVec3};
use layers::Sizes;
use quadedge::{Mesh, Vertex};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The region of a vertex that does not move.
const STILL: u32 = u32::MAX;

impl World {
    /// Turns each region rigidly: every live vertex `v` with `region[v.index()] < turns.len()`
    /// moves to `turns[region]` applied to its position (put back on the surface with
    /// [`Geometry::project`](super::Geometry::project) against rounding); a vertex beyond `region` or with a larger
    /// value stays where it is. Then restores the exact Delaunay triangulation as
    /// [`World::move_vertices`] does, keeping every vertex id and its data, but hands the
    /// restore only the vertices with a neighbour in another region: the work beyond one pass
    /// over the positions is proportional to where regions meet, not to the vertex count.
    ///
    /// Quaternions need not be unit (they are normalized). On a plane, turns about the z axis
    /// keep the map flat; others leave points off it ([`EditError::OffSurface`]).
    ///
    /// ```
    /// use world::{MoveOptions, World};
    /// let mut world = World::fibonacci_sphere(5000, 1.0, 0.3, 1).unwrap();
    /// // Two caps: the northern one turns about the z axis, the southern one stays.
    /// let region: Vec<u32> = world.positions().iter().map(|p| u32::from(p.z < 0.0)).collect();
    /// let turns = [glam::DQuat::from_rotation_z(0.002)];
    /// let (stats, report) = world.turn_regions(&region, &turns, &MoveOptions::default()).unwrap();
    /// assert!(stats.flips > 0 && report.moved.len() > 2000);
    /// ```
    ///
    /// # Errors
    /// The world unchanged: [`EditError::Item`] naming a turn that is zero or not finite
    /// (`DelaunayError::NonFinite(None)`), [`EditError::OffSurface`] naming the vertex index
    /// of a turned point off the surface, or what the restore refuses (as
    /// [`World::move_vertices`]).
    pub fn turn_regions(
        &mut self,
        region: &[u32],
        turns: &[DQuat],
        options: &MoveOptions,
    ) -> Result<(RestoreStats, EditReport), EditError> {
        self.turn_regions_in_steps(region, turns, 1, options)
    }

    /// [`World::turn_regions`] `steps` times over, as one edit: each sub-step turns the
    /// regions and repairs the mesh (so that the restore meets short folds, not long walks),
    /// but the journal is replayed into the layers once, the report covers the whole motion,
    /// and each sub-step's band comes from the previous one and what its repair changed
    /// instead of a pass over every edge. The result is the mesh `steps` calls of
    /// `turn_regions` make, vertex ids and flips included (positions may differ from theirs
    /// in the last bit); the stats are summed. `steps == 0`
    /// changes nothing.
    ///
    /// ```
    /// use world::{MoveOptions, World};
    /// let mut world = World::fibonacci_sphere(5000, 1.0, 0.3, 1).unwrap();
    /// let region: Vec<u32> = world.positions().iter().map(|p| u32::from(p.z < 0.0)).collect();
    /// let turns = [glam::DQuat::from_rotation_z(0.002)];
    /// let mut twice = world.clone();
    /// world.turn_regions_in_steps(&region, &turns, 2, &MoveOptions::default()).unwrap();
    /// for _ in 0..2 {
    ///     twice.turn_regions(&region, &turns, &MoveOptions::default()).unwrap();
    /// }
    /// assert!(world.mesh() == twice.mesh());
    /// let apart = world.positions().iter().zip(twice.positions());
    /// assert!(apart.map(|(a, b)| (*a - *b).length()).fold(0.0, f64::max) < 1e-12);
    /// ```
    ///
    /// # Errors
    /// As [`World::turn_regions`], the world unchanged whichever sub-step failed.
    pub fn turn_regions_in_steps(
        &mut self,
        region: &[u32],
        turns: &[DQuat],
        steps: usize,
        options: &MoveOptions,
    ) -> Result<(RestoreStats, EditReport), EditError> {
        self.turn_in_steps(region, turns, steps, options, true, None)
    }

    /// [`World::turn_regions_in_steps`] without the [`EditReport`], for a caller that
    /// refreshes no derived data from it: the same edit, but the ids the repair touched (a
    /// 500,000-vertex motion flips about a hundred thousand edges) are neither collected nor
    /// sorted.
    ///
    /// ```
    /// use world::{MoveOptions, World};
    /// let mut world = World::fibonacci_sphere(5000, 1.0, 0.3, 1).unwrap();
    /// let region: Vec<u32> = world.positions().iter().map(|p| u32::from(p.z < 0.0)).collect();
    /// let turns = [glam::DQuat::from_rotation_z(0.002)];
    /// let mut reported = world.clone();
    /// let stats = world.turn_regions_in_steps_unreported(&region, &turns, 2, &MoveOptions::default());
    /// let (same, _) = reported.turn_regions_in_steps(&region, &turns, 2, &MoveOptions::default()).unwrap();
    /// assert_eq!(stats.unwrap(), same);
    /// assert!(world == reported);
    /// ```
    ///
    /// # Errors
    /// As [`World::turn_regions_in_steps`], the world unchanged.
    pub fn turn_regions_in_steps_unreported(
        &mut self,
        region: &[u32],
        turns: &[DQuat],
        steps: usize,
        options: &MoveOptions,
    ) -> Result<RestoreStats, EditError> {
        let (stats, _) = self.turn_in_steps(region, turns, steps, options, false, None)?;
        Ok(stats)
    }

    /// [`World::turn_regions_in_steps_unreported`] that also hands back where the regions
    /// meet after the motion: `band` (emptied first, left empty on error) becomes the live
    /// vertices with a neighbour in another region, sorted, regions told apart as the motion
    /// does (every value at or beyond `turns.len()` is one region that stays). The motion
    /// finds it from its last sub-step's band and the vertices that sub-step's repair
    /// changed, so a caller that needs the boundaries after the motion (a planet's plate
    /// boundaries) skips a pass over every edge.
    ///
    /// ```
    /// use world::{MoveOptions, World};
    /// let mut world = World::fibonacci_sphere(5000, 1.0, 0.3, 1).unwrap();
    /// let region: Vec<u32> = world.positions().iter().map(|p| u32::from(p.z < 0.0)).collect();
    /// let turns = [glam::DQuat::from_rotation_z(0.002)];
    /// let mut band = Vec::new();
    /// world
    ///     .turn_regions_in_steps_banded(&region, &turns, 2, &MoveOptions::default(), &mut band)
    ///     .unwrap();
    /// let mesh = world.mesh();
    /// let across = |v: quadedge::Vertex| {
    ///     mesh.neighbors(v).any(|u| region[u.index()] != region[v.index()])
    /// };
    /// let scan: Vec<_> = mesh.vertices().filter(|&v| across(v)).collect();
    /// assert!(band == scan && !band.is_empty());
    /// ```
    ///
    /// # Errors
    /// As [`World::turn_regions_in_steps`], the world unchanged and `band` empty.
    pub fn turn_regions_in_steps_banded(
        &mut self,
        region: &[u32],
        turns: &[DQuat],
        steps: usize,
        options: &MoveOptions,
        band: &mut Vec<Vertex>,
    ) -> Result<RestoreStats, EditError> {
        band.clear();
        let r = self.turn_in_steps(region, turns, steps, options, false, Some(&mut *band));
        if r.is_err() {
            band.clear();
        }
        Ok(r?.0)
    }

    /// The motion of [`World::turn_regions_in_steps`], with its report or without, and the
    /// band after it into `band_out` when given.
    fn turn_in_steps(
        &mut self,
        region: &[u32],
        turns: &[DQuat],
        steps: usize,
        options: &MoveOptions,
        report: bool,
        band_out: Option<&mut Vec<Vertex>>,
    ) -> Result<(RestoreStats, EditReport), EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        let unit = unit_turns(turns)?;
        let which = |i: usize| {
            region
                .get(i)
                .copied()
                .filter(|&r| (r as usize) < unit.len())
                .unwrap_or(STILL)
        };
        if steps == 0 {
            if let Some(out) = band_out {
                *out = band(&self.mesh, &which);
            }
            return Ok(Default::default());
        }
        // As matrices: half the arithmetic of a quaternion's turn per vertex and sub-step.
        let matrices: Vec<DMat3> = unit.iter().map(|&q| DMat3::from_quat(q)).collect();
        let turn = Turn {
            geometry,
            matrices: &matrices,
            which: &which,
            projected_on_surface: projection_is_exact(geometry),
            reach: match geometry {
                Geometry::Sphere { radius } => radius * REACH,
                Geometry::Plane => f64::INFINITY,
            },
        };
        // The first sub-step's positions, computed before anything is edited (an off-surface
        // point is refused with the world untouched), in as much room as the array they
        // replace (see `move_all`), the last replacement's array if it was left.
        let room = self.layer(geometry.info()).map_or(0, |l| l.capacity());
        let mut new = self.position_room(room);
        let mesh = &self.mesh;
        let mut within = turn.apply_from(mesh, self.positions(), &mut new)?;
        let moved: Vec<Vertex> = match report {
            true => (0..new.len())
                .into_par_iter()
                .filter(|&i| which(i) != STILL && mesh.is_vertex_alive(Vertex::new(i as u32)))
                .map(|i| Vertex::new(i as u32))
                .collect(),
            false => Vec::new(),
        };
        let first_band = band(mesh, &which);
        // The positions swap in whole (and back on failure), as in `move_all`.
        let writes = PositionWrites::Replaced(new);
        let result = self.geometric_edit_rewiring(writes, report, |g, mesh, positions| {
            let mut total = RestoreStats::default();
            let (mut band, mut changed) = (first_band, Vec::new());
            for step in 0..steps {
                if step > 0 {
                    within = turn.apply(mesh, positions)?;
                    band = if total.merged == 0 {
                        next_band(mesh, &which, &band, &changed)
                    } else {
                        // A merge removes edges the changed stars do not name.
                        self::band(mesh, &which)
                    };
                    debug_assert_eq!(band, self::band(mesh, &which), "sub-step {step}");
                }
                changed.clear();
                let reach = within.then_some(turn.reach);
                let s = restore_tracked(
                    g,
                    mesh,
                    positions,
                    &band,
                    region,
                    options,
                    reach,
                    &mut changed,
                )?;
                total.flips += s.flips;
                total.folds += s.folds;
                total.relocated += s.relocated;
                total.relocation_flips += s.relocation_flips;
                total.relocation_moves += s.relocation_moves;
                total.merged += s.merged;
            }
            if let Some(out) = band_out {
                *out = if total.merged == 0 {
                    next_band(mesh, &which, &band, &changed)
                } else {
                    self::band(mesh, &which)
                };
                debug_assert_eq!(*out, self::band(mesh, &which), "the band after the motion");
            }
            Ok(total)
        });
        let (stats, mut edits) = result?;
        if report {
            edits.set_moved(moved, &self.mesh);
        }
        Ok((stats, edits))
    }

    /// A geometric edit of flips and vertex moves whose journal counts them instead of
    /// recording them when no layer would read them ([`Mesh::skip_rewires`]: every layer a
    /// vertex layer of the mesh's size, and no report asked for); then replayed as the full
    /// journal would be ([`World::replay_lent`]).
    fn geometric_edit_rewiring<R>(
        &mut self,
        writes: PositionWrites,
        report: bool,
        edit: impl FnOnce(Geometry, &mut Mesh, &mut Vec<DVec3>) -> Result<R, EditError>,
    ) -> Result<(R, EditReport), EditError> {
        let sizes = Sizes::of(&self.mesh);
        let skip = !report && self.layers.iter().all(|s| s.skips_flips(sizes));
        self.geometric_edit_journaled(writes, report, skip, edit, |w, changes, len, _, n| {
            // Each layer skips flips and moves: the rest replays as with their records. A
            // journal of flips and moves alone would still have made a new mesh version
            // (`World::apply_journal_known`); an empty one makes none, so it is made here.
            let rewired_only = n > 0 && changes.is_empty();
            w.replay_lent(changes, len);
            if rewired_only {
                let version = w.tick();
                w.mesh_version = version;
            }
        })
    }
}

/// The turns as unit quaternions; a zero or non-finite one is refused by its index.
fn unit_turns(turns: &[DQuat]) -> Result<Vec<DQuat>, EditError> {
    let mut unit = Vec::with_capacity(turns.len());
    for (index, q) in turns.iter().enumerate() {
        let l = q.length();
        if !(q.is_finite() && l > 0.0) {
            return Err(EditError::Item {
                index,
                error: DelaunayError::NonFinite(None),
            });
        }
        unit.push(DQuat::from_vec4(glam::DVec4::from(*q) / l));
    }
    Ok(unit)
}

/// One sub-step's turn of every region.
struct Turn<'a, W> {
    geometry: Geometry,
    /// The rotation matrix of each region's unit turn.
    matrices: &'a [DMat3],
    which: &'a W,
    /// Does every finite projection lie on the surface, so that testing it again (a second
    /// square root per vertex and sub-step) can be skipped? On a plane always; on a sphere
    /// when the radius is far from the range where scaling a unit vector loses the `1e-9`
    /// of [`Geometry::contains`] (a unit vector's length is 1 to a few ulps).
    projected_on_surface: bool,
    /// Every coordinate of a position the turn leaves within this (the radius and a margin
    /// on a sphere) lets the restore take the static filter ([`super::bounded`]).
    reach: f64,
}

/// See `Turn::projected_on_surface`.
fn projection_is_exact(geometry: Geometry) -> bool {
    match geometry {
        Geometry::Sphere { radius } => (1e-100..=1e100).contains(&radius),
        Geometry::Plane => true,
    }
}

impl<W: Fn(usize) -> u32 + Sync> Turn<'_, W> {
    /// Turns the live vertices of every region in place, on all cores; an off-surface result
    /// is refused by the lowest such index, whatever the threads (some points may have been
    /// turned: the caller puts the positions back). `true` when every position then has each
    /// coordinate within [`Turn::reach`].
    fn apply(&self, mesh: &Mesh, positions: &mut [DVec3]) -> Result<bool, EditError> {
        let (off, wide) = (AtomicUsize::new(usize::MAX), AtomicBool::new(false));
        positions
            .par_iter_mut()
            .enumerate()
            .with_min_len(4096)
            .for_each(|(i, slot)| *slot = self.turned(mesh, i, *slot, &off, &wide));
        match off.into_inner() {
            usize::MAX => Ok(!wide.into_inner()),
            index => Err(EditError::OffSurface { index }),
        }
    }

    /// [`Turn::apply`] into `new` (emptied first) from `old`, in one pass instead of a copy
    /// and a pass.
    fn apply_from(
        &self,
        mesh: &Mesh,
        old: &[DVec3],
        new: &mut Vec<DVec3>,
    ) -> Result<bool, EditError> {
        let (off, wide) = (AtomicUsize::new(usize::MAX), AtomicBool::new(false));
        new.clear();
        let each = old.par_iter().enumerate().with_min_len(4096);
        new.par_extend(each.map(|(i, &p)| self.turned(mesh, i, p, &off, &wide)));
        match off.into_inner() {
            usize::MAX => Ok(!wide.into_inner()),
            index => Err(EditError::OffSurface { index }),
        }
    }

    /// Where vertex `i` at `p` goes (`p` for a vertex that stays or is dead, or when the turn
    /// leaves the surface, which `off` then records); `wide` is set when that position has a
    /// coordinate beyond [`Turn::reach`] (or not a number).
    #[inline]
    fn turned(
        &self,
        mesh: &Mesh,
        i: usize,
        p: DVec3,
        off: &AtomicUsize,
        wide: &AtomicBool,
    ) -> DVec3 {
        let q = self.turned_unchecked(mesh, i, p, off);
        if !q.abs().cmple(DVec3::splat(self.reach)).all() {
            wide.store(true, Ordering::Relaxed);
        }
        q
    }

    /// [`Turn::turned`] without the reach.
    #[inline]
    fn turned_unchecked(&self, mesh: &Mesh, i: usize, p: DVec3, off: &AtomicUsize) -> DVec3 {
        let r = (self.which)(i);
        if r == STILL || !mesh.is_vertex_alive(Vertex::new(i as u32)) {
            return p;
        }
        let geometry = self.geometry;
        match geometry
            .project(self.matrices[r as usize] * p)
            .filter(|&q| self.projected_on_surface || geometry.contains(q))
        {
            Some(q) => q,
            None => {
                off.fetch_min(i, Ordering::Relaxed);
                p
            }
        }
    }
}
