//! Insertion of points whose place in the mesh the caller already knows.
//!
//! [`World::insert_points`] locates each point by a walk from the previous insertion, in
//! spatial order: on a batch spread thinly over the surface (new crust along every plate
//! boundary) the walks between consecutive points dominate the insertion. A caller that found
//! its points from faces (a face's centre, a point in a wide triangle) hands each point's face
//! along, and the walk starts there; the answer is exact whatever the hint says. The points go
//! in the spatial order [`World::insert_points`] uses, so the two give the same world, vertex
//! ids included.

use super::edits::PositionWrites;
use super::report::EditReport;
use super::{EditError, Geometry, fault};
use crate::World;
use delaunay::internals::{MortonFrame, refine_runs};
use delaunay::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Face, Mesh, Vertex};

impl World {
    /// [`World::insert_points`] with a face near each point: the point's location walks from
    /// that face (from the previous insertion's when the hint is dead, out of range or
    /// [`Face::INVALID`]), so a right hint costs no walk and a wrong one only a longer walk.
    /// The result is the world [`World::insert_points`] makes of the same points (same
    /// spatial order, same vertex ids); returns the new vertex of each point, in input order.
    ///
    /// ```
    /// let mut world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// let f = world.mesh().faces().nth(40).unwrap();
    /// let [a, b, c] = world.mesh().face_vertices(f).map(|v| world.positions()[v.index()]);
    /// let p = (a + b + c).normalize();
    /// let (new, _) = world.insert_points_near(&[(p, f)]).unwrap();
    /// assert_eq!(world.positions()[new[0].index()], p);
    /// ```
    ///
    /// # Errors
    /// As [`World::insert_points`], the world unchanged, no vertex inserted:
    /// [`EditError::OffSurface`], [`EditError::Item`] naming the first point refused (not
    /// finite, a duplicate of a vertex or of an earlier point, outside a planar map).
    pub fn insert_points_near(
        &mut self,
        points: &[(DVec3, Face)],
    ) -> Result<(Vec<Vertex>, EditReport), EditError> {
        let geometry = self.geometry().ok_or(EditError::NoGeometry)?;
        if let Some(index) = points.iter().position(|&(p, _)| !geometry.contains(p)) {
            return Err(EditError::OffSurface { index });
        }
        self.geometric_edit(PositionWrites::Appended, |g, mesh, positions| {
            let mut stale = Stale::of(positions);
            let r = insert_on(g, mesh, positions, points, &mut stale)
                .and_then(|new| fault::stage("insert: inserted").map(|()| new));
            if r.is_err() {
                stale.put_back(positions);
            }
            r
        })
    }

    /// [`World::insert_points_near`] in rounds, as one edit: `next(mesh, positions, new)`
    /// gives each round's points (with a face near each) from the mesh as the rounds before
    /// left it, `new` being the previous round's new vertices in its input order (empty for
    /// the first round); an empty round, or `max_rounds` of them, ends. The world is the one
    /// the same rounds make as separate calls, but the layers see one journal replay
    /// (separate calls pay one per round). Returns each round's
    /// new vertices, in its input order.
    ///
    /// ```
    /// let mut world = world::World::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
    /// // Each round puts a point in the middle of the face of the previous round's vertex.
    /// let (rounds, report) = world
    ///     .insert_points_in_rounds(3, |mesh, pos, new| {
    ///         let f = new.first().map_or(mesh.faces().next().unwrap(), |&v| {
    ///             mesh.vertex_faces(v).next().unwrap()
    ///         });
    ///         let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
    ///         vec![((a + b + c).normalize(), f)]
    ///     })
    ///     .unwrap();
    /// assert_eq!(rounds.len(), 3);
    /// assert_eq!(report.created.len(), 3);
    /// ```
    ///
    /// # Errors
    /// As [`World::insert_points_near`], the world unchanged, no vertex inserted (by any
    /// round); `index` counts the points of every round so far, in order.
    pub fn insert_points_in_rounds(
        &mut self,
        max_rounds: usize,
        mut next: impl FnMut(&Mesh, &[DVec3], &[Vertex]) -> Vec<(DVec3, Face)>,
    ) -> Result<(Vec<Vec<Vertex>>, EditReport), EditError> {
        self.geometric_edit(PositionWrites::Appended, |g, mesh, positions| {
            rounds_on(g, mesh, positions, max_rounds, &mut next, |_| Ok(()))
        })
    }
}

/// The rounds of [`World::insert_points_in_rounds`] on the lent mesh and positions, then
/// `check` of the rounds' new vertices; on failure the reused dead slots' positions are put
/// back (the runner rolls the rest back).
pub(super) fn rounds_on(
    g: Geometry,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    max_rounds: usize,
    next: &mut impl FnMut(&Mesh, &[DVec3], &[Vertex]) -> Vec<(DVec3, Face)>,
    check: impl FnOnce(&[Vec<Vertex>]) -> Result<(), EditError>,
) -> Result<Vec<Vec<Vertex>>, EditError> {
    let mut stale = Stale::of(positions);
    let mut rounds: Vec<Vec<Vertex>> = Vec::new();
    let mut before = 0;
    let mut r = Ok(());
    for _ in 0..max_rounds {
        let last = rounds.last().map_or(&[][..], Vec::as_slice);
        let points = next(mesh, positions, last);
        if points.is_empty() {
            break;
        }
        let shift = |e: EditError| match e {
            EditError::Item { index, error } => EditError::Item {
                index: before + index,
                error,
            },
            e => e,
        };
        r = match points.iter().position(|&(p, _)| !g.contains(p)) {
            Some(i) => Err(EditError::OffSurface { index: before + i }),
            None => insert_on(g, mesh, positions, &points, &mut stale).map(|new| rounds.push(new)),
        }
        .map_err(shift);
        if r.is_err() {
            break;
        }
        before += points.len();
    }
    let r = r
        .and_then(|()| fault::stage("insert: inserted"))
        .and_then(|()| check(&rounds));
    if r.is_err() {
        stale.put_back(positions);
    }
    r.map(|()| rounds)
}

/// The stale positions of the dead slots an edit's insertions reused (kept by the rollback,
/// which drops appended positions only): recorded as each insertion overwrites one, so an
/// edit costs what it inserts, not a pass over every slot.
struct Stale {
    /// The positions' length when the edit began: slots past it are appended ones.
    len: usize,
    reused: Vec<(usize, DVec3)>,
}

impl Stale {
    fn of(positions: &[DVec3]) -> Stale {
        Stale {
            len: positions.len(),
            reused: Vec::new(),
        }
    }

    /// Slot `i` held `old` before an insertion wrote it.
    fn record(&mut self, i: usize, old: Option<DVec3>) {
        if let Some(old) = old.filter(|_| i < self.len) {
            self.reused.push((i, old));
        }
    }

    /// The reused slots' positions as they were (latest first, so a slot written twice
    /// ends with its first value).
    fn put_back(&self, positions: &mut [DVec3]) {
        for &(i, p) in self.reused.iter().rev() {
            if let Some(x) = positions.get_mut(i) {
                *x = p;
            }
        }
    }
}

/// [`insert_near`] on the world's surface.
fn insert_on(
    g: Geometry,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    points: &[(DVec3, Face)],
    stale: &mut Stale,
) -> Result<Vec<Vertex>, EditError> {
    match g {
        Geometry::Sphere { .. } => insert_near(&delaunay::Sphere, mesh, positions, points, stale),
        Geometry::Plane => insert_near(&delaunay::Plane, mesh, positions, points, stale),
    }
}

/// Inserts each point from its hint (see [`World::insert_points_near`]) in spatial order,
/// planned on all cores ([`delaunay::insert_in_order`]: the world of one insertion at a time);
/// stops at the first refusal (the caller rolls the mesh back, and puts back the slots
/// `stale` recorded).
fn insert_near<S: Surface + Sync>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    points: &[(DVec3, Face)],
    stale: &mut Stale,
) -> Result<Vec<Vertex>, EditError> {
    let item = |index: usize| move |error: DelaunayError| EditError::Item { index, error };
    positions
        .try_reserve(points.len())
        .map_err(|_| item(0)(quadedge::MeshError::OutOfMemory.into()))?;
    let mut new = vec![Vertex::INVALID; points.len()];
    let order = spatial_order(points);
    let ordered: Vec<(DVec3, Face)> = order.iter().map(|&i| points[i]).collect();
    delaunay::insert_in_order(surface, mesh, positions, &ordered, |k, ins, old| {
        stale.record(ins.vertex.index(), old);
        new[order[k]] = ins.vertex;
    })
    .map_err(|(k, e)| item(order[k])(e))?;
    Ok(new)
}

/// The input indices in the order of `delaunay::insert_many` (a Morton key in the points'
/// frame, ties by coordinates then index, runs of equal keys along their own curve).
fn spatial_order(points: &[(DVec3, Face)]) -> Vec<usize> {
    let frame = MortonFrame::of(points.iter().map(|p| p.0));
    let bits = |i: u32| points[i as usize].0.to_array().map(f64::to_bits);
    let mut order: Vec<(u64, u32)> = (0..points.len() as u32)
        .map(|i| (frame.key(points[i as usize].0), i))
        .collect();
    order.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| bits(a.1).cmp(&bits(b.1)))
            .then(a.1.cmp(&b.1))
    });
    refine_runs(&mut order, |i| points[i as usize].0);
    order.into_iter().map(|(_, i)| i as usize).collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use testkit::Rng;

    /// The triangulation's edges as pairs of positions (ids differ with the insertion order;
    /// the Delaunay triangulation of points in general position does not).
    fn edges(w: &World) -> Vec<[[u64; 3]; 2]> {
        let key = |v: Vertex| w.positions()[v.index()].to_array().map(f64::to_bits);
        let mut e: Vec<[[u64; 3]; 2]> = w
            .mesh()
            .undirected_edges()
            .map(|e| {
                let (a, b) = (key(w.mesh().origin(e)), key(w.mesh().dest(e)));
                if a < b { [a, b] } else { [b, a] }
            })
            .collect();
        e.sort_unstable();
        e
    }

    /// A planet with dead slots (removals) and a face that died with them.
    pub(in crate::geometry) fn planet() -> (World, Face) {
        let mut w = World::fibonacci_sphere(3000, 1.0, 0.3, 2).unwrap();
        let gone: Vec<Vertex> = w.mesh().vertices().step_by(23).collect();
        let dead_face = w.mesh().vertex_faces(gone[5]).next().unwrap();
        w.remove_vertices(&gone).unwrap();
        (w, dead_face)
    }

    #[test]
    fn any_hint_gives_the_triangulation_of_insert_points() {
        let (w, dead) = planet();
        let mut rng = Rng::new(9);
        let points: Vec<DVec3> = (0..300).map(|_| rng.unit_dvec3()).collect();
        let mut plain = w.clone();
        plain.insert_points(&points).unwrap();
        let faces: Vec<Face> = w.mesh().faces().collect();
        let hints: [Box<dyn Fn(usize, DVec3) -> Face>; 4] = [
            // The face the point lies in.
            Box::new(|_, p| {
                delaunay::locate(&delaunay::Sphere, w.mesh(), w.positions(), p, None)
                    .unwrap()
                    .face(w.mesh())
                    .unwrap()
            }),
            // A live face far away (the antipode's region).
            Box::new(|i, _| faces[(i * 7919) % faces.len()]),
            // Dead, out of range, invalid.
            Box::new(|i, _| match i % 3 {
                0 => dead,
                1 => Face::new(u32::MAX - 5),
                _ => Face::INVALID,
            }),
            Box::new(|_, _| Face::new(0)),
        ];
        for (k, hint) in hints.iter().enumerate() {
            let mut near = w.clone();
            let batch: Vec<(DVec3, Face)> = points
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, hint(i, p)))
                .collect();
            let (new, report) = near.insert_points_near(&batch).unwrap();
            assert_eq!(report.created.len(), 300, "hint family {k}");
            for (v, p) in new.iter().zip(&points) {
                assert_eq!(near.positions()[v.index()], *p, "hint family {k}");
            }
            assert_eq!(edges(&near), edges(&plain), "hint family {k}");
            assert!(near == plain, "hint family {k}: the world of insert_points");
            assert_eq!(
                delaunay::is_delaunay(&delaunay::Sphere, near.mesh(), near.positions()),
                Ok(())
            );
        }
    }

    #[test]
    fn a_refused_point_leaves_the_world_unchanged() {
        let (mut w, dead) = planet();
        let before = w.clone();
        let mut rng = Rng::new(4);
        let mut batch: Vec<(DVec3, Face)> = (0..50).map(|_| (rng.unit_dvec3(), dead)).collect();
        // An existing vertex's position, after 50 insertions that reused dead slots.
        let on_vertex = w.positions()[w.mesh().vertices().nth(100).unwrap().index()];
        batch.push((on_vertex, Face::INVALID));
        match w.insert_points_near(&batch) {
            Err(EditError::Item {
                index: 50,
                error: DelaunayError::Duplicate(_),
            }) => {}
            r => panic!("{r:?}"),
        }
        assert!(w == before);
        // The same point twice in the batch.
        let twice = [(batch[3].0, Face::INVALID), (batch[3].0, dead)];
        assert!(matches!(
            w.insert_points_near(&twice),
            Err(EditError::Item { index: 1, .. })
        ));
        assert!(w == before);
        let off = [(batch[0].0, dead), (DVec3::new(0.0, 0.0, 2.0), dead)];
        assert!(matches!(
            w.insert_points_near(&off),
            Err(EditError::OffSurface { index: 1 })
        ));
        let nan = [(DVec3::NAN, dead)];
        assert!(w.insert_points_near(&nan).is_err());
        assert!(w == before);
        assert_eq!(w.insert_points_near(&[]).unwrap().0, Vec::new());
    }

    /// Rounds of points: each round the centres of the faces around the previous round's
    /// vertices (the first round: random faces' centres), as a filler of gaps would.
    pub(in crate::geometry) fn round_points(
        mesh: &Mesh,
        pos: &[DVec3],
        new: &[Vertex],
        first: &[Face],
    ) -> Vec<(DVec3, Face)> {
        let mut faces: Vec<Face> = if new.is_empty() {
            first.to_vec()
        } else {
            new.iter()
                .filter_map(|&v| mesh.vertex_faces(v).nth(1))
                .collect()
        };
        faces.sort_unstable();
        faces.dedup();
        faces
            .into_iter()
            .map(|f| {
                let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
                ((a + b + c).normalize(), f)
            })
            .collect()
    }

    #[test]
    fn rounds_make_the_world_of_separate_calls() {
        let (w, _) = planet();
        let first: Vec<Face> = w.mesh().faces().step_by(41).collect();
        let mut separate = w.clone();
        let mut new = Vec::new();
        let mut expected = Vec::new();
        for _ in 0..4 {
            let points = round_points(separate.mesh(), separate.positions(), &new, &first);
            new = separate.insert_points_near(&points).unwrap().0;
            expected.push(new.clone());
        }
        let mut rounds = w.clone();
        let mut asked = 0;
        let (got, report) = rounds
            .insert_points_in_rounds(4, |mesh, pos, new| {
                asked += 1;
                round_points(mesh, pos, new, &first)
            })
            .unwrap();
        assert_eq!(asked, 4);
        assert_eq!(got, expected);
        assert!(rounds == separate, "the world of separate calls");
        let mut all: Vec<Vertex> = got.concat();
        all.sort_unstable();
        assert_eq!(report.created, all);
        assert!(all.len() > 100);
        // An empty round ends early.
        let mut once = w.clone();
        let (got, _) = once
            .insert_points_in_rounds(9, |mesh, pos, new| {
                if new.is_empty() {
                    round_points(mesh, pos, new, &first)
                } else {
                    Vec::new()
                }
            })
            .unwrap();
        assert_eq!(got.len(), 1);
    }

    /// A failure after insertions that reused dead slots puts their stale positions back,
    /// bit for bit (the slots are recorded as they are written, not saved beforehand).
    #[test]
    fn a_late_refusal_puts_back_the_reused_slots_positions() {
        let (mut w, _) = planet();
        let bits = |w: &World| -> Vec<[u64; 3]> {
            w.positions()
                .iter()
                .map(|p| p.to_array().map(f64::to_bits))
                .collect()
        };
        let before = bits(&w);
        let dead: Vec<usize> = (0..w.mesh().vertex_slots())
            .filter(|&i| !w.mesh().is_vertex_alive(Vertex::new(i as u32)))
            .collect();
        assert!(dead.len() > 100);
        let first: Vec<Face> = w.mesh().faces().step_by(7).collect();
        let mut reused = 0;
        let r = w.insert_points_in_rounds(3, |mesh, pos, new| {
            reused += new.iter().filter(|v| dead.contains(&v.index())).count();
            let mut points = round_points(mesh, pos, new, &first);
            if !new.is_empty() {
                // The round's last point repeats a vertex made before.
                points.push((pos[new[0].index()], Face::INVALID));
            }
            points
        });
        assert!(matches!(r, Err(EditError::Item { .. })), "{r:?}");
        // Every dead slot was reused by the first round, then rolled back.
        assert_eq!(reused, dead.len());
        assert_eq!(bits(&w), before);
    }

    #[test]
    fn a_refused_round_leaves_the_world_unchanged() {
        let (mut w, _) = planet();
        let before = w.clone();
        let first: Vec<Face> = w.mesh().faces().step_by(97).collect();
        let mut sizes = Vec::new();
        // The third round repeats a vertex of the second.
        let r = w.insert_points_in_rounds(5, |mesh, pos, new| {
            let mut points = round_points(mesh, pos, new, &first);
            if sizes.len() == 2 {
                points.push((pos[new[0].index()], Face::INVALID));
            }
            sizes.push(points.len());
            points
        });
        match r {
            Err(EditError::Item {
                index,
                error: DelaunayError::Duplicate(_),
            }) => assert_eq!(index, sizes.iter().sum::<usize>() - 1),
            r => panic!("{r:?}"),
        }
        assert!(w == before);
        let r = w.insert_points_in_rounds(5, |mesh, pos, new| {
            let mut points = round_points(mesh, pos, new, &first);
            if !new.is_empty() {
                points.insert(1, (DVec3::new(0.0, 0.0, 2.0), Face::INVALID));
            }
            points
        });
        assert!(matches!(r, Err(EditError::OffSurface { index }) if index == first.len() + 1));
        assert!(w == before);
    }
}
