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
            // Insertions may reuse dead slots, whose stale positions the rollback must put
            // back (appended ones are dropped by the runner).
            let dead: Vec<(usize, DVec3)> = if mesh.vertex_count() < mesh.vertex_slots() {
                (0..mesh.vertex_slots().min(positions.len()))
                    .filter(|&i| !mesh.is_vertex_alive(Vertex::new(i as u32)))
                    .map(|i| (i, positions[i]))
                    .collect()
            } else {
                Vec::new()
            };
            let r = match g {
                Geometry::Sphere { .. } => insert_near(&delaunay::Sphere, mesh, positions, points),
                Geometry::Plane => insert_near(&delaunay::Plane, mesh, positions, points),
            }
            .and_then(|new| fault::stage("insert: inserted").map(|()| new));
            if r.is_err() {
                for &(i, p) in &dead {
                    positions[i] = p;
                }
            }
            r
        })
    }
}

/// Inserts each point from its hint (see [`World::insert_points_near`]); stops at the first
/// refusal (the caller rolls the mesh back).
fn insert_near<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    points: &[(DVec3, Face)],
) -> Result<Vec<Vertex>, EditError> {
    let item = |index: usize| move |error: DelaunayError| EditError::Item { index, error };
    positions
        .try_reserve(points.len())
        .map_err(|_| item(0)(quadedge::MeshError::OutOfMemory.into()))?;
    let mut new = vec![Vertex::INVALID; points.len()];
    let mut last: Option<Face> = None;
    for i in spatial_order(points) {
        let (p, hint) = points[i];
        let start = if mesh.is_face_alive(hint) {
            Some(hint)
        } else {
            last
        };
        let ins = delaunay::insert(surface, mesh, positions, p, start).map_err(item(i))?;
        new[i] = ins.vertex;
        last = mesh.vertex_faces(ins.vertex).next();
    }
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
mod tests {
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
    fn planet() -> (World, Face) {
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
}
