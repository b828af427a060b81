//! Construction: vertices and faces one at a time ([`incremental`]), whole triangle
//! buffers ([`bulk`]) (both validate the same way, through the helpers here), and whole
//! closed meshes from their vertices' neighbour rings ([`rings`]).

mod bulk;
mod incremental;
#[cfg(feature = "rayon")]
mod par;
mod rings;

use crate::mesh::DEAD_VERTEX;
use crate::{MeshError, Vertex};

/// Validates a triangle buffer for a bulk build: the vertex count fits the id space, the
/// triangle count fits the edge id space, every index is below `vertices`, and no triangle
/// repeats a vertex. The one place both bulk builders check their input.
pub(crate) fn validate_triangles(vertices: usize, triangles: &[[u32; 3]]) -> Result<(), MeshError> {
    // Every triangle may bring three quad-edges: 6 directed edges each.
    if vertices >= DEAD_VERTEX.raw() as usize
        || triangles.len() > crate::ids::MAX_DIRECTED_EDGES / 6
    {
        return Err(MeshError::TooManyElements);
    }
    for (t, tri) in triangles.iter().enumerate() {
        if let Some(&i) = tri.iter().find(|&&i| i as usize >= vertices) {
            return Err(MeshError::IndexOutOfRange {
                triangle: t,
                index: i,
            });
        }
        if tri[0] == tri[1] || tri[0] == tri[2] {
            return Err(MeshError::RepeatedVertex(Vertex::new(tri[0])));
        }
        if tri[1] == tri[2] {
            return Err(MeshError::RepeatedVertex(Vertex::new(tri[1])));
        }
    }
    Ok(())
}
