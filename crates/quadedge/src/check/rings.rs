//! Edges, vertex rings, dual rings and simplicity (no loops, no parallel edges).

use super::{ensure, scan};
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Mesh, MeshError, Vertex};

impl Mesh {
    /// Endpoints, faces and `origin_next` of every live edge; returns the number of edges
    /// leaving each vertex.
    pub(super) fn check_edges(&self, par: bool) -> Result<Vec<u32>, MeshError> {
        let ne = self.primal_origin.len();
        scan(ne, par, |i| {
            let e = Edge::primal(i as u32);
            if !self.primal_origin[i & !1].is_valid() {
                return Ok(());
            }
            let o = self.primal_origin[i];
            ensure!(self.is_vertex_alive(o), "{e:?} starts at dead vertex {o:?}");
            ensure!(o != self.primal_origin[i ^ 1], "{e:?} is a loop at {o:?}");
            ensure!(
                self.left(e).is_valid() || self.right(e).is_valid(),
                "{e:?} has no face on either side"
            );
            for f in [self.left(e), self.right(e)] {
                ensure!(
                    !f.is_valid() || self.is_face_alive(f),
                    "{e:?} borders dead face {f:?}"
                );
            }
            let n = self.primal_next[i];
            ensure!(
                n.is_primal() && self.is_edge_alive(n),
                "onext({e:?}) = {n:?} is not a live primal edge"
            );
            ensure!(
                self.primal_origin[n.index()] == o,
                "onext({e:?}) = {n:?} starts elsewhere"
            );
            // Dual ring implied by the primal one.
            let d = self.dual_next[n.index()];
            ensure!(
                d == Edge::dual((i ^ 1) as u32),
                "dual onext({:?}) = {d:?}, primal ring implies {:?}",
                n.rot(),
                e.inv_rot()
            );
            Ok(())
        })?;
        // Every entry is now in range: count edges per vertex and `onext` preimages.
        let mut incoming = vec![0u8; ne];
        let mut edges_at = vec![0u32; self.vertex_edge.len()];
        for i in 0..ne {
            if self.primal_origin[i & !1].is_valid() {
                edges_at[self.primal_origin[i].index()] += 1;
                let n = self.primal_next[i].index();
                incoming[n] = incoming[n].saturating_add(1);
            }
        }
        scan(ne, par, |i| {
            let c = incoming[i];
            if self.primal_origin[i & !1].is_valid() {
                ensure!(c == 1, "e{i} is onext of {c} edges");
            }
            Ok(())
        })?;
        // `origin_next` is now known to be a permutation of the live primal edges, so every
        // live dual `origin_next` entry has been checked above: `lnext` is safe to follow.
        scan(ne, par, |i| {
            if !self.primal_origin[i & !1].is_valid() {
                return Ok(());
            }
            let e = Edge::primal(i as u32);
            ensure!(
                self.left(self.left_next(e)) == self.left(e),
                "left face changes along lnext at {e:?}"
            );
            Ok(())
        })?;
        Ok(edges_at)
    }

    /// One cycle per vertex holding all its edges.
    pub(super) fn check_vertex_rings(&self, edges_at: &[u32], par: bool) -> Result<(), MeshError> {
        scan(self.vertex_edge.len(), par, |v| {
            let start = self.vertex_edge[v];
            if start == DEAD_VERTEX {
                return Ok(());
            }
            if !start.is_valid() {
                ensure!(edges_at[v] == 0, "isolated v{v} has {} edges", edges_at[v]);
                return Ok(());
            }
            ensure!(
                start.is_primal() && self.is_edge_alive(start),
                "v{v} points to dead edge {start:?}"
            );
            ensure!(
                self.primal_origin[start.index()].index() == v,
                "v{v} points to {start:?} which starts elsewhere"
            );
            let n = self.ring(start).take(edges_at[v] as usize + 1).count();
            ensure!(
                n == edges_at[v] as usize,
                "ring of v{v} holds {n} of its {} edges",
                edges_at[v]
            );
            Ok(())
        })
    }

    /// No two edges join the same two vertices. Every edit's precondition (above all the link
    /// condition of collapse) assumes a simple graph: collapsing one of two parallel edges
    /// would turn the other into a loop. Runs once the rings are known to be cycles.
    pub(super) fn check_no_parallel_edges(&self) -> Result<(), MeshError> {
        // seen[w] == v + 1: some edge of v's ring already ends at w.
        let mut seen = vec![0u32; self.vertex_edge.len()];
        for v in 0..self.vertex_edge.len() {
            let start = self.vertex_edge[v];
            if start == DEAD_VERTEX || !start.is_valid() {
                continue;
            }
            for e in self.ring(start) {
                let w = self.primal_origin[e.index() ^ 1].index();
                if seen[w] == v as u32 + 1 {
                    let first = self
                        .ring(start)
                        .find(|x| self.primal_origin[x.index() ^ 1].index() == w)
                        .unwrap_or(e);
                    ensure!(
                        false,
                        "parallel edges {first:?} and {e:?} both join v{v} and {:?}",
                        Vertex::new(w as u32)
                    );
                }
                seen[w] = v as u32 + 1;
            }
        }
        Ok(())
    }
}
