//! The geometric edits of a world, each all or nothing: move, insert, remove (`refine.rs`
//! refines through the same runner).
//!
//! Every operation runs through [`World::geometric_edit`]: the mesh and the position layer's
//! own `Vec` are lent to the Delaunay algorithm inside [`Mesh::atomically`], whose rollback
//! plays back the undo log of what the edit wrote (never a copy of the mesh, whether or not a
//! [`History`](crate::History) follows the world). Only when the algorithm succeeds is the
//! journal replayed into the layers and are versions stamped, so a failure leaves the world
//! `==` to what it was, with the same versions.

use super::bounded::{BoundedSphere, REACH};
use super::report::EditReport;
use super::{EditError, Geometry, POSITION_NAME, fault};
use crate::World;
use crate::edit::start_edit;
use delaunay::internals::remove_many_in_parts_within;
use delaunay::{DelaunayError, RestoreOptions, RestoreStats};
use glam::DVec3;
use layers::{Layer, VertexKind};
use quadedge::{Change, Mesh, Vertex};
use rayon::prelude::*;

/// How [`World::move_vertices`] treats collisions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveOptions {
    /// Two vertices closer than this (straight-line distance) collide. Default 0: only
    /// vertices the exact predicates cannot separate.
    pub tolerance: f64,
    /// Merge a moved vertex into the vertex it hit (it is removed; layers merge their data
    /// by their collapse policy) instead of failing with a collision. Default `false`.
    pub merge_collisions: bool,
}

/// What a geometric edit does to the positions (see [`World::geometric_edit`]).
pub(crate) enum PositionWrites {
    /// Only read (a removal).
    Untouched,
    /// Values appended for new vertices, or rewritten by the edit itself, which puts them
    /// back on failure (a move of a few vertices).
    Appended,
    /// Existing values rewritten (a refinement's collapses): copied first.
    Rewritten,
    /// All values replaced by these before the edit (a move of every vertex): the old
    /// values are kept aside, not copied, and put back on failure.
    Replaced(Vec<DVec3>),
}

impl World {
    /// Runs `edit` on the mesh and the position layer's own values as one all-or-nothing
    /// step (see the module docs). `positions` says what the edit does to them: on failure,
    /// appended values are dropped and rewritten ones put back from a copy; the version is
    /// stamped on success unless they are untouched.
    pub(crate) fn geometric_edit<R>(
        &mut self,
        writes: PositionWrites,
        edit: impl FnOnce(Geometry, &mut Mesh, &mut Vec<DVec3>) -> Result<R, EditError>,
    ) -> Result<(R, EditReport), EditError> {
        self.geometric_edit_reported(writes, true, edit)
    }

    /// [`World::geometric_edit`]; without `report`, the report is left empty (building it
    /// sorts every id the journal names: a motion's hundred thousand flips).
    pub(crate) fn geometric_edit_reported<R>(
        &mut self,
        writes: PositionWrites,
        report: bool,
        edit: impl FnOnce(Geometry, &mut Mesh, &mut Vec<DVec3>) -> Result<R, EditError>,
    ) -> Result<(R, EditReport), EditError> {
        self.geometric_edit_replayed(writes, report, edit, |w, changes, len, _| {
            w.replay_lent(changes, len);
        })
    }

    /// Ends a geometric edit the usual way: the journal replayed into every layer, the
    /// positions the edit wrote kept (`len` is the position layer's length on entry).
    pub(crate) fn replay_lent(&mut self, changes: Vec<Change>, len: usize) {
        // Flips and vertex moves name no vertex slot the replay could write: with the
        // positions still `len` long, there is nothing to keep (and no pass over the journal
        // to find it; a motion's journal holds hundreds of thousands of flips).
        let flips_only = crate::edit::flips_only(&changes);
        let kept = match flips_only && self.positions().len() == len {
            true => None,
            false => self.keep_lent(POSITION_NAME, len, &changes),
        };
        self.apply_journal_known(changes, flips_only);
        if let Some(kept) = kept {
            self.put_back_lent(POSITION_NAME, kept);
        }
    }

    /// An empty array with room for `room` positions, for a whole replacement
    /// ([`PositionWrites::Replaced`]): the one the last replacement left, if any.
    /// Its capacity is `room` exactly, as a fresh array's would be (a larger spare is let go).
    pub(crate) fn position_room(&mut self, room: usize) -> Vec<DVec3> {
        let mut values = std::mem::take(&mut self.spare_positions);
        if values.capacity() > room {
            return Vec::with_capacity(room);
        }
        values.clear();
        values.reserve_exact(room);
        values
    }

    /// [`World::geometric_edit_reported`] whose successful journal is handed to `replay`
    /// (with the position layer's length on entry and the edit's result) instead of
    /// [`World::replay_lent`].
    pub(crate) fn geometric_edit_replayed<R>(
        &mut self,
        writes: PositionWrites,
        report: bool,
        edit: impl FnOnce(Geometry, &mut Mesh, &mut Vec<DVec3>) -> Result<R, EditError>,
        replay: impl FnOnce(&mut World, Vec<Change>, usize, &R),
    ) -> Result<(R, EditReport), EditError> {
        self.geometric_edit_journaled(writes, report, false, edit, |w, changes, len, r, _| {
            replay(w, changes, len, r)
        })
    }

    /// [`World::geometric_edit_replayed`] whose journal skips flips and vertex moves when
    /// `skip_rewires`; `replay` is also told how many it skipped.
    pub(super) fn geometric_edit_journaled<R>(
        &mut self,
        writes: PositionWrites,
        report: bool,
        skip_rewires: bool,
        edit: impl FnOnce(Geometry, &mut Mesh, &mut Vec<DVec3>) -> Result<R, EditError>,
        replay: impl FnOnce(&mut World, Vec<Change>, usize, &R, u64),
    ) -> Result<(R, EditReport), EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        let i = self
            .slot_index(POSITION_NAME)
            .ok_or(EditError::NoGeometry)?;
        self.layers[i]
            .get_mut::<DVec3, VertexKind>()
            .map_err(EditError::World)?;
        fault::stage("edit: started")?;
        let stamp_positions = !matches!(writes, PositionWrites::Untouched);
        let rewritten = matches!(writes, PositionWrites::Rewritten);
        let mut recording = None;
        let (result, len_on_entry, replaced) = {
            let World {
                mesh,
                mesh_before_edit,
                layers,
                mesh_logged,
                ..
            } = self;
            let mesh = start_edit(mesh, mesh_before_edit, &mut recording, *mesh_logged);
            if skip_rewires && let Some(r) = &recording {
                // The journal was started just above for `r`: this cannot fail, and a journal
                // left recording everything would only be longer.
                let _ = mesh.skip_rewires(r);
            }
            let layer = layers[i]
                .get_mut::<DVec3, VertexKind>()
                .expect("typed above");
            let mut replaced = match writes {
                PositionWrites::Replaced(values) => {
                    let fresh = Layer::from_values(layer.info().clone(), values);
                    Some(std::mem::replace(layer, fresh))
                }
                _ => None,
            };
            let positions = layer.values_vec_mut();
            let len = positions.len();
            let saved = rewritten.then(|| positions.clone());
            let result = mesh.atomically(|m| {
                let r = edit(geometry, m, positions);
                if r.is_err() {
                    // Positions the algorithm appended for new vertices go with them.
                    positions.truncate(len);
                    if let Some(saved) = saved {
                        positions.copy_from_slice(&saved);
                    }
                }
                r
            });
            if result.is_err()
                && let Some(old) = replaced.take()
            {
                *layer = old;
            }
            (result, len, replaced)
        };
        let Some(recording) = recording else {
            unreachable!("start_edit always starts the journal")
        };
        match result {
            Ok(r) => {
                let mut edits = EditReport::default();
                let skipped = self.mesh.skipped_rewires(&recording).unwrap_or(0);
                self.finish_mesh_edit_with(recording, |w, changes| {
                    if report {
                        edits = EditReport::from_journal(&changes, &w.mesh);
                    }
                    replay(w, changes, len_on_entry, &r, skipped);
                });
                if let Some(values) = replaced.and_then(Layer::into_unshared_values) {
                    self.spare_positions = values;
                }
                if stamp_positions {
                    self.clock += 1;
                    let stamp = self.clock;
                    if let Some(i) = self.slot_index(POSITION_NAME) {
                        self.layers[i].version = stamp;
                    }
                }
                Ok((r, edits))
            }
            Err(e) => {
                // The journal lost every record the edit made: ending it replays nothing and
                // puts a mesh shared with a snapshot back.
                self.finish_mesh_edit_with(recording, |w, changes| w.recycle_journal(changes));
                Err(e)
            }
        }
    }

    /// Moves the vertices of `moves` to their new positions and restores the exact Delaunay
    /// triangulation (Lawson flips for small moves; a vertex whose faces folded is relocated
    /// by flips), keeping every vertex id and its data. Returns what the restore did and what
    /// changed. The positions are stored exactly as
    /// given and must be on the world's surface ([`Geometry::project`] puts a point there).
    ///
    /// ```
    /// use world::{MoveOptions, World};
    /// use quadedge::Vertex;
    /// let mut world = World::fibonacci_sphere(2000, 1.0, 0.3, 1).unwrap();
    /// let v = Vertex::new(17);
    /// let p = (world.positions()[17] + glam::DVec3::new(0.01, 0.0, 0.0)).normalize();
    /// let (stats, report) = world.move_vertices(&[(v, p)], &MoveOptions::default()).unwrap();
    /// assert_eq!(world.positions()[17], p);
    /// assert_eq!(report.moved, vec![v]);
    /// assert_eq!(stats.relocated, 0); // a small move: flips only
    /// ```
    ///
    /// # Errors
    /// The world unchanged: [`EditError::Item`] for a dead vertex, a vertex named twice or a
    /// non-finite point, [`EditError::OffSurface`], [`EditError::Delaunay`] when the repair
    /// cannot finish ([`DelaunayError::Collision`] for a vertex that landed on another one
    /// without `merge_collisions`).
    pub fn move_vertices(
        &mut self,
        moves: &[(Vertex, DVec3)],
        options: &MoveOptions,
    ) -> Result<(RestoreStats, EditReport), EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        check_moves(&self.mesh, moves, geometry)?;
        check_distinct(moves)?;
        self.move_checked(moves, options)
    }

    /// [`World::move_vertices`] for moves already checked (live, distinct, on the surface).
    fn move_checked(
        &mut self,
        moves: &[(Vertex, DVec3)],
        options: &MoveOptions,
    ) -> Result<(RestoreStats, EditReport), EditError> {
        let vertices: Vec<Vertex> = moves.iter().map(|m| m.0).collect();
        let (stats, mut report) =
            self.geometric_edit(PositionWrites::Appended, |g, mesh, positions| {
                let old: Vec<DVec3> = vertices.iter().map(|v| positions[v.index()]).collect();
                for &(v, p) in moves {
                    positions[v.index()] = p;
                }
                let r = fault::stage("move: positions written")
                    .and_then(|()| restore_on(g, mesh, positions, Some(&vertices), options))
                    .and_then(|stats| fault::stage("move: restored").map(|()| stats));
                if r.is_err() {
                    for (v, p) in vertices.iter().zip(old) {
                        positions[v.index()] = p;
                    }
                }
                r
            })?;
        report.set_moved(vertices, &self.mesh);
        Ok((stats, report))
    }

    /// Moves every live vertex to `to(vertex, position)` (computed on all cores) and restores
    /// the exact Delaunay triangulation, as [`World::move_vertices`] does; a vertex whose
    /// position comes back unchanged is not moved. The closure's results must be on the
    /// surface.
    ///
    /// ```
    /// use world::{MoveOptions, World};
    /// let mut world = World::fibonacci_sphere(5000, 1.0, 0.3, 1).unwrap();
    /// // Turn the whole planet by 0.01 rad about the z axis: no flip is needed.
    /// let turn = glam::DQuat::from_rotation_z(0.01);
    /// world.move_all(|_, p| turn * p, &MoveOptions::default()).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`World::move_vertices`] (item indices are vertex indices).
    pub fn move_all(
        &mut self,
        to: impl Fn(Vertex, DVec3) -> DVec3 + Sync,
        options: &MoveOptions,
    ) -> Result<(RestoreStats, EditReport), EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        // The new positions of every slot (dead slots keep theirs), then the vertices that
        // moved, in vertex order: distinct by construction.
        // As much room as the array it replaces: the insertions that follow grow it no sooner.
        let room = self
            .layer(geometry.info())
            .map_or(self.positions().len(), |l| l.capacity());
        let mut new = self.position_room(room);
        let (old, mesh) = (self.positions(), &self.mesh);
        new.par_extend(old.par_iter().enumerate().map(|(i, &p)| {
            let v = Vertex::new(i as u32);
            if mesh.is_vertex_alive(v) { to(v, p) } else { p }
        }));
        let moved: Vec<Vertex> = (0..new.len())
            .into_par_iter()
            .filter(|&i| new[i] != old[i])
            .map(|i| Vertex::new(i as u32))
            .collect();
        let bad = moved
            .par_iter()
            .position_first(|v| !geometry.contains(new[v.index()]));
        if let Some(k) = bad {
            let v = moved[k];
            return Err(if new[v.index()].is_finite() {
                EditError::OffSurface { index: v.index() }
            } else {
                EditError::Item {
                    index: v.index(),
                    error: DelaunayError::NonFinite(Some(v)),
                }
            });
        }
        let writes = PositionWrites::Replaced(new);
        let (stats, mut report) = self.geometric_edit(writes, |g, mesh, positions| {
            fault::stage("move: positions written")?;
            let stats = restore_on(g, mesh, positions, Some(&moved), options)?;
            fault::stage("move: restored")?;
            Ok(stats)
        })?;
        report.set_moved(moved, &self.mesh);
        Ok((stats, report))
    }

    /// Inserts `points` (Delaunay insertion in spatial order), each stored exactly as given;
    /// returns the new vertex of each point, in input order. New vertices take their data from
    /// the face or edge they fell in, by each layer's interpolation.
    ///
    /// ```
    /// let mut world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// let p = glam::DVec3::new(0.3, -0.4, 0.5).normalize();
    /// let (new, report) = world.insert_points(&[p]).unwrap();
    /// assert_eq!(world.positions()[new[0].index()], p);
    /// assert_eq!(report.created, new);
    /// ```
    ///
    /// # Errors
    /// The world unchanged, no vertex inserted: [`EditError::OffSurface`],
    /// [`EditError::Item`] naming the first point refused (not finite, a duplicate of a vertex
    /// or of another point, outside a planar map).
    pub fn insert_points(
        &mut self,
        points: &[DVec3],
    ) -> Result<(Vec<Vertex>, EditReport), EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        if let Some(index) = points.iter().position(|&p| !geometry.contains(p)) {
            return Err(EditError::OffSurface { index });
        }
        self.geometric_edit(PositionWrites::Appended, |g, mesh, positions| {
            let r = match g {
                Geometry::Sphere { .. } => {
                    delaunay::insert_many_atomic(&delaunay::Sphere, mesh, positions, points)
                }
                Geometry::Plane => {
                    delaunay::insert_many_atomic(&delaunay::Plane, mesh, positions, points)
                }
            };
            let r = r.map_err(|e| EditError::Item {
                index: e.index,
                error: e.error,
            })?;
            fault::stage("insert: inserted")?;
            Ok(r)
        })
    }

    /// Removes `vertices` and re-triangulates their holes as Delaunay; their data is gone,
    /// nothing else changes value.
    ///
    /// ```
    /// let mut world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// let gone: Vec<_> = world.mesh().vertices().step_by(10).collect();
    /// let report = world.remove_vertices(&gone).unwrap();
    /// assert_eq!(world.mesh().vertex_count(), 900);
    /// assert_eq!(report.removed.len(), 100);
    /// ```
    ///
    /// # Errors
    /// The world unchanged, no vertex removed: [`EditError::Item`] naming the first vertex
    /// refused (dead, named twice, on a planar map's boundary, or leaving a sphere with fewer
    /// than four vertices).
    pub fn remove_vertices(&mut self, vertices: &[Vertex]) -> Result<EditReport, EditError> {
        self.remove_reported(vertices, true)
    }

    /// [`World::remove_vertices`] without its report (which reads the whole journal), for a
    /// caller that knows what changed: only edges between the removed vertices' neighbours.
    ///
    /// # Errors
    /// As [`World::remove_vertices`], the world unchanged.
    pub fn remove_vertices_unreported(&mut self, vertices: &[Vertex]) -> Result<(), EditError> {
        self.remove_reported(vertices, false).map(|_| ())
    }

    /// [`World::remove_vertices`], with or without its report.
    fn remove_reported(&mut self, gone: &[Vertex], report: bool) -> Result<EditReport, EditError> {
        let (_, report) = self.geometric_edit_reported(
            PositionWrites::Untouched,
            report,
            |g, mesh, positions| {
                let r = match g {
                    Geometry::Sphere { radius } => {
                        // The static filter for stars within the reach (the same values).
                        let within = Some((&BoundedSphere::new(radius * REACH), radius * REACH));
                        let sphere = &delaunay::Sphere;
                        remove_many_in_parts_within(sphere, within, mesh, positions, gone)
                    }
                    Geometry::Plane => {
                        delaunay::remove_many_in_parts(&delaunay::Plane, mesh, positions, gone)
                    }
                };
                r.map_err(|e| EditError::Item {
                    index: e.index,
                    error: e.error,
                })?;
                fault::stage("remove: removed")
            },
        )?;
        Ok(report)
    }
}

/// Exact Delaunay restore on the world's surface.
pub(super) fn restore_on(
    geometry: Geometry,
    mesh: &mut Mesh,
    positions: &mut [DVec3],
    moved: Option<&[Vertex]>,
    options: &MoveOptions,
) -> Result<RestoreStats, EditError> {
    let options = RestoreOptions {
        tolerance: options.tolerance,
        merge_collisions: options.merge_collisions,
    };
    let r = match geometry {
        Geometry::Sphere { .. } => {
            delaunay::restore(&delaunay::Sphere, mesh, positions, moved, &options)
        }
        Geometry::Plane => delaunay::restore(&delaunay::Plane, mesh, positions, moved, &options),
    };
    r.map_err(EditError::Delaunay)
}

/// Every move names a live vertex and a finite point on the surface.
fn check_moves(
    mesh: &Mesh,
    moves: &[(Vertex, DVec3)],
    geometry: Geometry,
) -> Result<(), EditError> {
    for (index, &(v, p)) in moves.iter().enumerate() {
        let item = |error| EditError::Item { index, error };
        if !mesh.is_vertex_alive(v) {
            return Err(item(DelaunayError::DeadVertex(v)));
        }
        if !p.is_finite() {
            return Err(item(DelaunayError::NonFinite(Some(v))));
        }
        if !geometry.contains(p) {
            return Err(EditError::OffSurface { index });
        }
    }
    Ok(())
}

/// No vertex is named twice (a sort of the moves, not a pass over the mesh); the error names
/// the later mention.
fn check_distinct(moves: &[(Vertex, DVec3)]) -> Result<(), EditError> {
    let mut order: Vec<(Vertex, usize)> = moves.iter().enumerate().map(|(i, m)| (m.0, i)).collect();
    order.sort_unstable();
    match order
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[1].1)
        .min()
    {
        Some(index) => Err(EditError::Item {
            index,
            error: DelaunayError::DeadVertex(moves[index].0),
        }),
        None => Ok(()),
    }
}
