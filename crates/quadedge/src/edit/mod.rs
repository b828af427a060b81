//! Local edits: flip and split ([`flip_split`]; `flip_fresh` for callers that know the flip
//! makes no parallel edge), collapse ([`collapse`]), face split and vertex dissolve ([`star`]),
//! a vertex of degree 3 moved into another face ([`move_vertex`]), face removal (here),
//! all-or-nothing sequences of edits ([`atomic`]), and the primitives they share.
//!
//! Every operation reads and validates first and writes afterwards, so a rejected operation
//! leaves the mesh bit-identical (free lists included); [`Mesh::atomically`] extends that to
//! an algorithm made of many edits that may fail half-way. Removed elements are marked dead, skipped
//! by every iterator and their ids pushed on the per-kind free lists (LIFO), from which later
//! additions take them; [`Mesh::compact`](crate::Mesh::compact) squeezes the holes out.
//!
//! All rings are rewired through one primitive that sets a primal `origin_next` and the dual
//! `origin_next` it implies (`onext(rot n) = inv_rot(p)` when `onext(p) = n`), so the dual rings
//! stay exact without walking whole rings.

mod atomic;
mod collapse;
mod fans;
mod flip_split;
mod move_vertex;
mod split_record;
mod star;
mod stitch;
#[cfg(test)]
mod tests;

use crate::journal::Change;
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, MeshError, Vertex};

impl Mesh {
    /// Reserves room for about `vertices` more vertices of a closed triangle mesh (2 faces and
    /// 3 quad-edges each), e.g. before many splits, so that the arrays grow once.
    ///
    /// # Errors
    /// Changing nothing visible (capacity may have grown for some arrays):
    /// [`MeshError::TooManyElements`] when that many elements would not fit the id spaces,
    /// [`MeshError::OutOfMemory`] when the memory cannot be reserved.
    ///
    /// ```
    /// use quadedge::{Mesh, MeshError};
    /// let mut m = Mesh::from_triangles(3, &[[0, 1, 2]]).unwrap();
    /// m.reserve(1000).unwrap();
    /// assert!(m.heap_bytes() >= 1000 * 108);
    /// assert_eq!(m.reserve(usize::MAX), Err(MeshError::TooManyElements));
    /// ```
    pub fn reserve(&mut self, vertices: usize) -> Result<(), MeshError> {
        let fits = |len: usize, extra: Option<usize>, limit: usize| matches!(extra.and_then(|x| x.checked_add(len)), Some(n) if n <= limit);
        let max_edges = crate::ids::MAX_DIRECTED_EDGES;
        if !fits(
            self.vertex_edge.len(),
            Some(vertices),
            DEAD_VERTEX.raw() as usize - 1,
        ) || !fits(
            self.face_edge.len(),
            vertices.checked_mul(2),
            u32::MAX as usize - 1,
        ) || !fits(self.primal_origin.len(), vertices.checked_mul(6), max_edges)
        {
            return Err(MeshError::TooManyElements);
        }
        let oom = |_| MeshError::OutOfMemory;
        self.vertex_edge.try_reserve(vertices).map_err(oom)?;
        self.face_edge.try_reserve(2 * vertices).map_err(oom)?;
        self.primal_origin.try_reserve(6 * vertices).map_err(oom)?;
        self.primal_next.try_reserve(6 * vertices).map_err(oom)?;
        self.dual_origin.try_reserve(6 * vertices).map_err(oom)?;
        self.dual_next.try_reserve(6 * vertices).map_err(oom)?;
        Ok(())
    }

    /// A copy that keeps the spare capacity of every array, for a copy made to be edited (a
    /// copy-on-write): it grows as the original would have, instead of reallocating, and so
    /// copying, the whole mesh on its first insertions. Room never written costs no physical
    /// memory. A plain [`Clone`] holds exact capacities (a snapshot keeps no reserve).
    ///
    /// ```
    /// use quadedge::{Mesh, shapes};
    /// let (n, t) = shapes::octahedron();
    /// let mut m = Mesh::from_triangles(n, &t).unwrap();
    /// m.reserve(1000).unwrap();
    /// let copy = m.clone_keeping_capacity();
    /// assert_eq!(copy, m);
    /// assert_eq!(copy.heap_bytes(), m.heap_bytes());
    /// assert!(m.clone().heap_bytes() < m.heap_bytes());
    /// ```
    pub fn clone_keeping_capacity(&self) -> Mesh {
        fn keep<T: Copy>(v: &[T], capacity: usize) -> Vec<T> {
            let mut c = Vec::with_capacity(capacity);
            c.extend_from_slice(v);
            c
        }
        let k = |v: &Vec<Edge>| keep(v, v.capacity());
        Mesh {
            vertex_edge: k(&self.vertex_edge),
            face_edge: k(&self.face_edge),
            primal_origin: keep(&self.primal_origin, self.primal_origin.capacity()),
            primal_next: k(&self.primal_next),
            dual_origin: keep(&self.dual_origin, self.dual_origin.capacity()),
            dual_next: k(&self.dual_next),
            free_vertices: keep(&self.free_vertices, self.free_vertices.capacity()),
            free_faces: keep(&self.free_faces, self.free_faces.capacity()),
            free_quads: keep(&self.free_quads, self.free_quads.capacity()),
            live_vertices: self.live_vertices,
            live_faces: self.live_faces,
            live_quads: self.live_quads,
            journal: self.journal.clone(),
            journal_spare: Vec::new(),
            undo: self.undo.clone(),
            // A copy is never lent (the guard lent the original).
            lent: self.lent.clone(),
            #[cfg(feature = "rayon")]
            parts: Default::default(),
        }
    }

    // ---------------------------------------------------------------- primitives

    /// Sets `onext(p) = n` for primal edges and keeps the dual ring consistent.
    #[inline(always)]
    pub(crate) fn set_next<const LOG: bool>(&mut self, p: Edge, n: Edge) {
        self.set_primal_next::<LOG>(p.index(), n);
        self.set_dual_next::<LOG>(n.index(), Edge::dual((p.index() ^ 1) as u32));
    }

    /// `onext` of a primal edge.
    #[inline(always)]
    pub(crate) fn onext(&self, e: Edge) -> Edge {
        self.primal_next[e.index()]
    }

    /// `oprev` of a primal edge, in O(1) through the dual ring.
    #[inline(always)]
    pub(crate) fn oprev(&self, e: Edge) -> Edge {
        self.dual_next[e.index()].rot()
    }

    /// Takes primal edge `x` out of its origin ring (the ring stays consistent).
    pub(crate) fn unlink<const LOG: bool>(&mut self, x: Edge) {
        let o = self.primal_origin[x.index()];
        let n = self.onext(x);
        if n == x {
            self.set_vertex_edge::<LOG>(o.index(), Edge::INVALID);
        } else {
            let p = self.oprev(x);
            self.set_next::<LOG>(p, n);
            if self.vertex_edge[o.index()] == x {
                self.set_vertex_edge::<LOG>(o.index(), n);
            }
        }
    }

    /// Does an edge of the ring strictly between `from` and `until` (counter-clockwise, with
    /// `onext(until) == from`) end at `w`? Walks from both ends at once, which halves the chain
    /// of dependent memory reads on large meshes.
    #[inline]
    pub(crate) fn ring_reaches(&self, from: Edge, until: Edge, w: Vertex) -> bool {
        let mut f = self.onext(from);
        if f == until {
            return false;
        }
        let mut b = self.oprev(until);
        loop {
            if self.primal_origin[f.index() ^ 1] == w || self.primal_origin[b.index() ^ 1] == w {
                return true;
            }
            if f == b {
                return false;
            }
            let nf = self.onext(f);
            if nf == b {
                return false;
            }
            f = nf;
            b = self.oprev(b);
        }
    }

    /// The primal edge an operation works on: validates liveness and kind.
    #[inline]
    pub(crate) fn live_primal(&self, e: Edge) -> Result<Edge, MeshError> {
        if !self.is_edge_alive(e) {
            return Err(MeshError::DeadEdge(e));
        }
        if e.is_dual() {
            return Err(MeshError::WrongEdgeKind(e));
        }
        Ok(e)
    }

    // ---------------------------------------------------------------- removal

    /// Removes a face. Its edges that are left without a face on either side are removed too;
    /// vertices left without edges stay as isolated vertices (remove them with
    /// [`Mesh::remove_vertex`]). The face id goes to the free list first, then the removed
    /// quad-edges in the order of [`Mesh::face_edges`]. Logs [`Change::FaceRemoved`], then one
    /// [`Change::EdgeRemoved`] per removed quad-edge.
    ///
    /// A corner whose faces come apart in several fans (the face was the only link between
    /// them) is split: the fan holding its entry edge keeps the id, every other fan gets a new
    /// vertex ([`Change::VertexSplit`] each, logged last), so no vertex is left non-manifold.
    ///
    /// # Errors
    /// Changing nothing: [`MeshError::DeadFace`] for a dead or out-of-range face,
    /// [`MeshError::TooManyElements`] when a split vertex would not fit the id space.
    ///
    /// ```
    /// use quadedge::{Face, Mesh, MeshError, Vertex};
    /// let mut m = Mesh::from_triangles(4, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    /// m.remove_face(Face::new(0)).unwrap();
    /// assert_eq!((m.vertex_count(), m.undirected_edge_count(), m.face_count()), (4, 3, 1));
    /// assert_eq!(m.degree(Vertex::new(1)), 0);
    /// assert_eq!(m.remove_face(Face::new(0)), Err(MeshError::DeadFace(Face::new(0))));
    /// m.check().unwrap();
    /// m.remove_vertex(Vertex::new(1)).unwrap();
    /// m.check().unwrap();
    /// // Two triangles meeting only at vertex 0 through a third: removing it splits vertex 0.
    /// let mut m = Mesh::from_triangles(5, &[[0, 1, 2], [0, 2, 3], [0, 3, 4]]).unwrap();
    /// m.remove_face(Face::new(1)).unwrap();
    /// assert_eq!((m.vertex_count(), m.fan_count(Vertex::new(0))), (6, 1));
    /// m.check().unwrap();
    /// ```
    pub fn remove_face(&mut self, f: Face) -> Result<(), MeshError> {
        if self.undo.rec.is_some() {
            self.remove_face_with::<true>(f)
        } else {
            self.remove_face_with::<false>(f)
        }
    }

    /// [`Mesh::remove_face`], with the undo log (`LOG`) or without: one branch per edit, not per write.
    fn remove_face_with<const LOG: bool>(&mut self, f: Face) -> Result<(), MeshError> {
        if !self.is_face_alive(f) {
            return Err(MeshError::DeadFace(f));
        }
        let es = self.face_edges(f);
        let corners = es.map(|x| self.origin(x));
        let splits: usize = es.iter().map(|&x| self.ring_gaps(x)).sum();
        if !self.can_alloc_vertices(splits) {
            return Err(MeshError::TooManyElements);
        }
        for x in es {
            self.set_dual_origin::<LOG>(x.index() ^ 1, Face::INVALID);
        }
        self.free_face::<LOG>(f);
        self.log(|| Change::FaceRemoved(f));
        for x in es {
            if !self.dual_origin[x.index()].is_valid() {
                self.unlink::<LOG>(x);
                self.unlink::<LOG>(x.sym());
                self.free_quad::<LOG>(x);
                self.log(|| Change::EdgeRemoved(x.base()));
            }
        }
        for v in corners {
            let keep = self.vertex_edge[v.index()];
            if keep.is_valid() {
                self.split_fans::<LOG>(v, keep);
            }
        }
        Ok(())
    }
}
