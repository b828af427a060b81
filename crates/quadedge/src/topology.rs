//! [`Topology`]: the read-only queries shared by the editable [`Mesh`] and the
//! [`FrozenMesh`](crate::FrozenMesh), so that generic algorithms run on either.
//!
//! Both meshes use the same [`Vertex`], [`Face`] and [`Edge`] ids: a frozen mesh is made from
//! a mesh in sweep order and keeps every id, so layers keyed by those ids serve both.

use crate::{Edge, Face, Mesh, Vertex};

/// Read-only traversal of a triangle mesh: counts, elements, rings, faces and boundary.
///
/// Queries take live ids; like slice indexing they may panic on ids past the end.
///
/// ```
/// use quadedge::{FrozenMesh, Mesh, Topology, shapes};
///
/// /// Mean vertex degree, written once for both meshes.
/// fn mean_degree(t: &impl Topology) -> f64 {
///     let total: usize = t.vertices().map(|v| t.neighbors(v).count()).sum();
///     total as f64 / t.vertex_count() as f64
/// }
///
/// let (n, tris) = shapes::icosahedron();
/// let mut mesh = Mesh::from_triangles(n, &tris).unwrap();
/// let identity: Vec<u32> = (0..n as u32).collect();
/// mesh.reorder_vertices(&identity).unwrap(); // sweep order, needed to freeze
/// let frozen = FrozenMesh::freeze(&mesh).unwrap();
/// assert_eq!(mean_degree(&mesh), 5.0);
/// assert_eq!(mean_degree(&frozen), 5.0);
/// ```
pub trait Topology {
    /// Number of live vertices.
    fn vertex_count(&self) -> usize;
    /// Number of live faces.
    fn face_count(&self) -> usize;
    /// Number of undirected edges.
    fn undirected_edge_count(&self) -> usize;
    /// Length of the vertex id space: the size of a vertex data array.
    fn vertex_slots(&self) -> usize;
    /// Length of the face id space: the size of a face data array.
    fn face_slots(&self) -> usize;
    /// All live vertices, in id order.
    fn vertices(&self) -> impl Iterator<Item = Vertex> + '_;
    /// All live faces, in id order.
    fn faces(&self) -> impl Iterator<Item = Face> + '_;
    /// Neighbour vertices of `v`, counter-clockwise (on the boundary, across the gap too).
    fn neighbors(&self, v: Vertex) -> impl Iterator<Item = Vertex> + '_;
    /// Faces around `v`, counter-clockwise (the corners of its Voronoi cell); holes skipped.
    fn vertex_faces(&self, v: Vertex) -> impl Iterator<Item = Face> + '_;
    /// Number of edges at `v`.
    fn degree(&self, v: Vertex) -> usize;
    /// The three corners of `f`, counter-clockwise.
    fn face_vertices(&self, f: Face) -> [Vertex; 3];
    /// The faces across the three edges of `f` (the edge from corner `k` to corner `k + 1`),
    /// [`Face::INVALID`] across the boundary.
    fn face_neighbors(&self, f: Face) -> [Face; 3];
    /// The primal edge from `a` to `b`, if they are connected.
    fn find_edge(&self, a: Vertex, b: Vertex) -> Option<Edge>;
    /// Is `v` on the boundary (or isolated)?
    fn is_boundary_vertex(&self, v: Vertex) -> bool;
    /// Is there no boundary edge at all?
    fn is_closed(&self) -> bool;
    /// V − E + F (2 for a closed mesh of genus 0).
    fn euler_characteristic(&self) -> i64 {
        self.vertex_count() as i64 - self.undirected_edge_count() as i64 + self.face_count() as i64
    }
}

impl Topology for Mesh {
    fn vertex_count(&self) -> usize {
        Mesh::vertex_count(self)
    }
    fn face_count(&self) -> usize {
        Mesh::face_count(self)
    }
    fn undirected_edge_count(&self) -> usize {
        Mesh::undirected_edge_count(self)
    }
    fn vertex_slots(&self) -> usize {
        Mesh::vertex_slots(self)
    }
    fn face_slots(&self) -> usize {
        Mesh::face_slots(self)
    }
    fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        Mesh::vertices(self)
    }
    fn faces(&self) -> impl Iterator<Item = Face> + '_ {
        Mesh::faces(self)
    }
    fn neighbors(&self, v: Vertex) -> impl Iterator<Item = Vertex> + '_ {
        Mesh::neighbors(self, v)
    }
    fn vertex_faces(&self, v: Vertex) -> impl Iterator<Item = Face> + '_ {
        Mesh::vertex_faces(self, v)
    }
    fn degree(&self, v: Vertex) -> usize {
        Mesh::degree(self, v)
    }
    fn face_vertices(&self, f: Face) -> [Vertex; 3] {
        Mesh::face_vertices(self, f)
    }
    fn face_neighbors(&self, f: Face) -> [Face; 3] {
        Mesh::face_neighbors(self, f)
    }
    fn find_edge(&self, a: Vertex, b: Vertex) -> Option<Edge> {
        Mesh::find_edge(self, a, b)
    }
    fn is_boundary_vertex(&self, v: Vertex) -> bool {
        Mesh::is_boundary_vertex(self, v)
    }
    fn is_closed(&self) -> bool {
        Mesh::is_closed(self)
    }
    fn euler_characteristic(&self) -> i64 {
        Mesh::euler_characteristic(self)
    }
}
