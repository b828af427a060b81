//! Euler's formula per connected component.

use super::ensure;
use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Mesh, MeshError};

/// Root of `x` in a union-find forest, with path halving.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

impl Mesh {
    /// V − E + F + H = 2 − 2g per component: even and at most 2.
    ///
    /// Components come from union-find over the edges (one sequential pass; a depth-first
    /// walk of the rings was a quarter of `check()`), then V, E and F are counted per root.
    pub(super) fn check_euler(&self) -> Result<(), MeshError> {
        let nv = self.vertex_edge.len();
        let ne = self.primal_origin.len();
        let mut parent: Vec<u32> = (0..nv as u32).collect();
        for q in 0..ne / 2 {
            let (a, b) = (self.primal_origin[2 * q], self.primal_origin[2 * q + 1]);
            if !a.is_valid() {
                continue;
            }
            let (ra, rb) = (find(&mut parent, a.0), find(&mut parent, b.0));
            if ra != rb {
                // Smaller root wins: deterministic, and keeps trees shallow in practice.
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                parent[hi as usize] = lo;
            }
        }
        let mut comp = vec![u32::MAX; nv];
        let mut stats: Vec<[i64; 3]> = Vec::new(); // V, directed E, faces (as 3 corners)
        for v in 0..nv {
            if !self.vertex_edge[v].is_valid() || self.vertex_edge[v] == DEAD_VERTEX {
                continue;
            }
            let r = find(&mut parent, v as u32) as usize;
            if comp[r] == u32::MAX {
                comp[r] = stats.len() as u32;
                stats.push([0; 3]);
            }
            comp[v] = comp[r];
            stats[comp[v] as usize][0] += 1;
        }
        drop(parent);
        for i in 0..ne {
            let o = self.primal_origin[i];
            if !self.primal_origin[i & !1].is_valid() {
                continue;
            }
            let s = &mut stats[comp[o.index()] as usize];
            s[1] += 1;
            if self.dual_origin[i ^ 1].is_valid() {
                s[2] += 1;
            }
        }
        // Holes: lnext loops of edges with no left face.
        let mut seen = vec![false; ne];
        let mut holes = vec![0i64; stats.len()];
        for i in 0..ne {
            let e = Edge::primal(i as u32);
            if seen[i] || !self.primal_origin[i & !1].is_valid() || self.left(e).is_valid() {
                continue;
            }
            holes[comp[self.origin(e).index()] as usize] += 1;
            let mut x = e;
            let mut steps = 0;
            loop {
                seen[x.index()] = true;
                x = self.left_next(x);
                steps += 1;
                ensure!(steps <= ne, "hole loop from {e:?} does not close");
                ensure!(
                    !self.left(x).is_valid(),
                    "hole loop from {e:?} enters a face"
                );
                if x == e {
                    break;
                }
            }
        }
        for (c, s) in stats.iter().enumerate() {
            let chi = s[0] - s[1] / 2 + s[2] / 3 + holes[c];
            ensure!(
                chi <= 2 && chi % 2 == 0,
                "component {c} has V - E + F + holes = {chi}"
            );
        }
        Ok(())
    }
}
