//! The real part of a ghost-closed map, seen as an open mesh: the ghost vertex, its edges and
//! its faces left out, so the hull is the boundary. Generic code over [`Topology`] runs on it
//! unchanged; in particular `delaunay::is_delaunay(&delaunay::Plane, ..)`, the workspace's
//! one Delaunay check, checks a planar map through it (real faces counter-clockwise, real
//! edges locally Delaunay, the hull convex, the region covered once).

use crate::PlaneError;
use crate::repair::is_ghost_face;
use quadedge::{Edge, Face, Mesh, Topology, Vertex};

/// A ghost-closed mesh without its ghost: see the module notes and [`real_part`].
#[derive(Clone, Copy, Debug)]
pub struct RealPart<'a> {
    mesh: &'a Mesh,
    ghost: Vertex,
}

/// The real part of the ghost-closed `mesh` (ghost `ghost`), to check or walk as an open mesh.
///
/// ```
/// use delaunay::{Plane, is_delaunay};
/// let pts = plane::poisson_disc(10.0, 8.0, 1.0, 3).unwrap();
/// let map = plane::triangulate(&pts.points).unwrap();
/// let real = plane::real_part(&map.mesh, map.ghost).unwrap();
/// assert_eq!(is_delaunay(&Plane, &real, &map.positions), Ok(()));
/// assert_eq!(quadedge::Topology::face_count(&real), map.real_faces().count());
/// ```
///
/// # Errors
/// [`PlaneError::NotPlanarMap`] when the ghost is dead or the mesh has boundary edges.
pub fn real_part(mesh: &Mesh, ghost: Vertex) -> Result<RealPart<'_>, PlaneError> {
    if ghost.index() >= mesh.vertex_slots() || !mesh.is_vertex_alive(ghost) {
        return Err(PlaneError::NotPlanarMap("the ghost vertex is dead"));
    }
    if !mesh.is_closed() {
        return Err(PlaneError::NotPlanarMap("the mesh has boundary edges"));
    }
    Ok(RealPart { mesh, ghost })
}

impl RealPart<'_> {
    fn is_ghost_face(&self, f: Face) -> bool {
        is_ghost_face(self.mesh, self.ghost, f)
    }

    /// `v`'s ring read as (the part after the ghost, then the part before it): a hull
    /// vertex's ring then runs from one hull neighbour to the other, as on any open mesh.
    /// Returns how many neighbours to skip and how many to take from the start.
    fn after_ghost(&self, v: Vertex) -> (usize, usize) {
        match self.mesh.neighbors(v).position(|u| u == self.ghost) {
            Some(k) => (k + 1, k),
            None => (0, 0),
        }
    }
}

impl Topology for RealPart<'_> {
    fn vertex_count(&self) -> usize {
        self.mesh.vertex_count() - 1
    }
    fn face_count(&self) -> usize {
        self.mesh.face_count() - self.mesh.degree(self.ghost)
    }
    fn undirected_edge_count(&self) -> usize {
        self.mesh.undirected_edge_count() - self.mesh.degree(self.ghost)
    }
    fn vertex_slots(&self) -> usize {
        self.mesh.vertex_slots()
    }
    fn face_slots(&self) -> usize {
        self.mesh.face_slots()
    }
    fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        self.mesh.vertices().filter(|&v| v != self.ghost)
    }
    fn faces(&self) -> impl Iterator<Item = Face> + '_ {
        self.mesh.faces().filter(|&f| !self.is_ghost_face(f))
    }
    fn neighbors(&self, v: Vertex) -> impl Iterator<Item = Vertex> + '_ {
        let (skip, take) = self.after_ghost(v);
        let ring = self.mesh.neighbors(v);
        ring.clone().skip(skip).chain(ring.take(take))
    }
    fn vertex_faces(&self, v: Vertex) -> impl Iterator<Item = Face> + '_ {
        self.mesh
            .vertex_faces(v)
            .filter(|&f| !self.is_ghost_face(f))
    }
    fn degree(&self, v: Vertex) -> usize {
        self.mesh.degree(v) - usize::from(self.is_boundary_vertex(v))
    }
    fn face_vertices(&self, f: Face) -> [Vertex; 3] {
        self.mesh.face_vertices(f)
    }
    fn face_neighbors(&self, f: Face) -> [Face; 3] {
        self.mesh.face_neighbors(f).map(|g| {
            if g.is_valid() && self.is_ghost_face(g) {
                Face::INVALID
            } else {
                g
            }
        })
    }
    fn find_edge(&self, a: Vertex, b: Vertex) -> Option<Edge> {
        if a == self.ghost || b == self.ghost {
            return None;
        }
        self.mesh.find_edge(a, b)
    }
    fn is_boundary_vertex(&self, v: Vertex) -> bool {
        self.mesh.find_edge(v, self.ghost).is_some()
    }
    fn is_closed(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn the_real_part_is_the_open_triangulation_of_the_hull() {
        // A square with its centre: 4 real faces, 4 hull edges.
        let pts = [
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 2.0),
            DVec2::new(0.0, 2.0),
            DVec2::new(1.0, 1.0),
        ];
        let map = crate::triangulate(&pts).unwrap();
        let real = real_part(&map.mesh, map.ghost).unwrap();
        assert_eq!(
            (
                real.vertex_count(),
                real.undirected_edge_count(),
                real.face_count()
            ),
            (5, 8, 4)
        );
        assert_eq!(real.euler_characteristic(), 1);
        let centre = Vertex::new(4);
        assert!(!real.is_boundary_vertex(centre));
        assert_eq!(real.degree(centre), 4);
        let corner = Vertex::new(0);
        assert!(real.is_boundary_vertex(corner));
        assert_eq!(real.degree(corner), 3);
        // A hull vertex's ring runs from one hull neighbour to the other, without the ghost:
        // (0, 0) sees (2, 0), the centre, then (0, 2), counter-clockwise.
        let ring: Vec<Vertex> = real.neighbors(corner).collect();
        assert_eq!(ring, [Vertex::new(1), centre, Vertex::new(3)]);
        assert_eq!(real.vertex_faces(corner).count(), 2);
        for f in real.vertex_faces(corner) {
            let open = real
                .face_neighbors(f)
                .iter()
                .filter(|g| !g.is_valid())
                .count();
            assert_eq!(open, 1);
        }
        assert_eq!(real.find_edge(corner, map.ghost), None);
        assert!(real_part(&map.mesh, Vertex::new(99)).is_err());
    }
}
