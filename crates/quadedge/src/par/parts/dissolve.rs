//! [`Mesh::dissolve_vertex`](crate::Mesh::dissolve_vertex) in a part: the ids it frees wait
//! for the merge.

use super::{MeshPart, PartError};
use crate::journal::{Change, DissolveRecord};
use crate::mesh::DEAD_VERTEX;
use crate::undo::Target;
use crate::{Edge, Face, Vertex};

/// The ids a part freed, in the order [`crate::Mesh::dissolve_vertex`] would push them on the
/// free lists; [`crate::Mesh::edit_in_parts`] pushes them after the parts, part 0's first.
#[derive(Default)]
pub(super) struct Freed {
    pub(super) vertices: Vec<u32>,
    pub(super) quads: Vec<u32>,
    pub(super) faces: Vec<u32>,
}

impl Freed {
    /// Empties the lists, keeping their room.
    pub(super) fn clear(&mut self) {
        self.vertices.clear();
        self.quads.clear();
        self.faces.clear();
    }
}

impl<O: Fn(Vertex) -> u8 + Sync> MeshPart<'_, O> {
    /// [`crate::Mesh::dissolve_vertex`] of an owned vertex of degree 3 whose neighbours this
    /// part owns: the same writes, undo records and journal record; the freed ids go on the
    /// free lists (and the live counts drop) when the parts merge, part 0's ids first, each
    /// part's in the order of its dissolves.
    ///
    /// # Errors
    /// Changing nothing: [`PartError::NotOwned`] when the part does not own `v` or a
    /// neighbour; otherwise what [`crate::Mesh::dissolve_vertex`] returns, as
    /// [`PartError::Mesh`].
    pub fn dissolve_vertex(&mut self, v: Vertex) -> Result<DissolveRecord, PartError> {
        let (spokes, corners, sides) = self.owned_triangle_star(v)?;
        let faces = spokes.map(|s| self.left(s));
        // The writes of `Mesh::close_star`, then the dead marks of `free_*`.
        let face = faces[0];
        self.close_link(spokes, sides, face);
        self.put(Target::VertexEdge, v.index(), DEAD_VERTEX.0);
        self.freed.vertices.push(v.raw());
        let removed_edges = spokes.map(|s| s.base());
        for q in removed_edges {
            let i = q.index() & !1;
            for j in [i, i + 1] {
                self.put(Target::PrimalOrigin, j, Vertex::INVALID.0);
                self.put(Target::PrimalNext, j, Edge::INVALID.0);
                self.put(Target::DualOrigin, j, Face::INVALID.0);
                self.put(Target::DualNext, j, Edge::INVALID.0);
            }
            self.freed.quads.push((i / 2) as u32);
        }
        let removed_faces = [faces[1], faces[2]];
        for x in removed_faces {
            self.put(Target::FaceEdge, x.index(), Edge::INVALID.0);
            self.freed.faces.push(x.raw());
        }
        let rec = DissolveRecord {
            vertex: v,
            corners,
            face,
            removed_faces,
            removed_edges,
        };
        self.edited = true;
        if self.journal {
            self.changes.push(Change::VertexDissolved(rec));
        }
        Ok(rec)
    }
}
