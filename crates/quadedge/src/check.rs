//! `check()`: verifies every invariant of the structure.

use crate::mesh::DEAD_VERTEX;
use crate::{Edge, Face, Mesh, MeshError};

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(MeshError::Corrupt(format!($($msg)+)));
        }
    };
}

impl Mesh {
    /// Verifies every invariant and returns the first violation.
    ///
    /// Checked: array lengths; every live quad-edge has two distinct live endpoints and at
    /// least one face; `origin_next` is a permutation whose cycles are exactly the vertex rings
    /// (one ring per vertex, holding all its edges, origins agreeing); the dual rings are the
    /// ones the primal rings imply; every live face is a triangle whose three edges name it as
    /// their left face; vertex and face entry edges are live and correct; the free lists hold
    /// exactly the removed ids; live counts; and Euler's formula per connected component
    /// (V − E + F + holes = 2 − 2·genus, so even and at most 2 per component).
    ///
    /// Costs O(n); meant for tests and debugging.
    pub fn check(&self) -> Result<(), MeshError> {
        let ne = self.primal_origin.len();
        ensure!(ne.is_multiple_of(2), "odd number of primal edges");
        ensure!(
            self.primal_next.len() == ne
                && self.dual_origin.len() == ne
                && self.dual_next.len() == ne,
            "edge arrays differ in length"
        );
        let nv = self.vertex_edge.len();
        let nf = self.face_edge.len();

        // Free lists and counts.
        let dead_v = self
            .vertex_edge
            .iter()
            .filter(|&&e| e == DEAD_VERTEX)
            .count();
        let dead_f = self.face_edge.iter().filter(|e| !e.is_valid()).count();
        let dead_q = (0..ne / 2)
            .filter(|&q| !self.primal_origin[2 * q].is_valid())
            .count();
        ensure!(
            dead_v == self.free_vertices.len(),
            "vertex free list holds {} ids, {dead_v} dead",
            self.free_vertices.len()
        );
        ensure!(
            dead_f == self.free_faces.len(),
            "face free list holds {} ids, {dead_f} dead",
            self.free_faces.len()
        );
        ensure!(
            dead_q == self.free_quads.len(),
            "quad free list holds {} ids, {dead_q} dead",
            self.free_quads.len()
        );
        for &i in &self.free_vertices {
            ensure!(
                (i as usize) < nv && self.vertex_edge[i as usize] == DEAD_VERTEX,
                "free vertex v{i} is alive"
            );
        }
        for &i in &self.free_faces {
            ensure!(
                (i as usize) < nf && !self.face_edge[i as usize].is_valid(),
                "free face f{i} is alive"
            );
        }
        for &i in &self.free_quads {
            ensure!(
                2 * (i as usize) < ne && !self.primal_origin[2 * i as usize].is_valid(),
                "free quad q{i} is alive"
            );
        }
        ensure!(
            nv - dead_v == self.live_vertices as usize,
            "live vertex count {} != {}",
            self.live_vertices,
            nv - dead_v
        );
        ensure!(
            nf - dead_f == self.live_faces as usize,
            "live face count {} != {}",
            self.live_faces,
            nf - dead_f
        );
        ensure!(
            ne / 2 - dead_q == self.live_quads as usize,
            "live edge count {} != {}",
            self.live_quads,
            ne / 2 - dead_q
        );

        // Edges: endpoints, faces, next pointers.
        let mut incoming = vec![0u8; ne];
        let mut edges_at = vec![0u32; nv];
        for i in 0..ne {
            let e = Edge::primal(i as u32);
            if !self.primal_origin[i & !1].is_valid() {
                continue;
            }
            let o = self.primal_origin[i];
            ensure!(self.is_vertex_alive(o), "{e:?} starts at dead vertex {o:?}");
            ensure!(o != self.primal_origin[i ^ 1], "{e:?} is a loop at {o:?}");
            edges_at[o.index()] += 1;
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
            incoming[n.index()] += 1;
            // Dual ring implied by the primal one.
            let d = self.dual_next[n.index()];
            ensure!(
                d == Edge::dual((i ^ 1) as u32),
                "dual onext({:?}) = {d:?}, primal ring implies {:?}",
                n.rot(),
                e.inv_rot()
            );
        }
        for (i, &c) in incoming.iter().enumerate() {
            if self.primal_origin[i & !1].is_valid() {
                ensure!(c == 1, "e{i} is onext of {c} edges");
            }
        }
        // `origin_next` is now known to be a permutation of the live primal edges, so every
        // live dual `origin_next` entry has been checked above: `lnext` is safe to follow.
        for i in 0..ne {
            if !self.primal_origin[i & !1].is_valid() {
                continue;
            }
            let e = Edge::primal(i as u32);
            ensure!(
                self.left(self.left_next(e)) == self.left(e),
                "left face changes along lnext at {e:?}"
            );
        }

        // Vertex rings: one cycle per vertex holding all its edges.
        for v in 0..nv {
            let start = self.vertex_edge[v];
            if start == DEAD_VERTEX {
                continue;
            }
            if !start.is_valid() {
                ensure!(edges_at[v] == 0, "isolated v{v} has {} edges", edges_at[v]);
                continue;
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
        }

        // Faces: triangles with consistent left faces.
        for f in 0..nf {
            let e = self.face_edge[f];
            if !e.is_valid() {
                continue;
            }
            let face = Face::new(f as u32);
            ensure!(
                e.is_primal() && self.is_edge_alive(e),
                "{face:?} points to dead edge {e:?}"
            );
            ensure!(
                self.left(e) == face,
                "{face:?} points to {e:?} whose left face is {:?}",
                self.left(e)
            );
            let e3 = self.left_next(self.left_next(self.left_next(e)));
            ensure!(e3 == e, "{face:?} is not a triangle");
            let [a, b, c] = self.face_vertices(face);
            ensure!(a != b && b != c && a != c, "{face:?} repeats a vertex");
        }
        let mut left_count = vec![0u8; nf];
        for i in 0..ne {
            if self.primal_origin[i & !1].is_valid() {
                let f = self.dual_origin[i ^ 1];
                if f.is_valid() {
                    left_count[f.index()] = left_count[f.index()].saturating_add(1);
                }
            }
        }
        for (f, &c) in left_count.iter().enumerate() {
            if self.face_edge[f].is_valid() {
                ensure!(c == 3, "f{f} is the left face of {c} edges");
            }
        }

        // Euler per component: V - E + F + H = 2 - 2g. Components by union-find over the
        // edges (one sequential pass; a depth-first walk of the rings was a quarter of
        // `check()`), then V, E and F counted per component root.
        let mut parent: Vec<u32> = (0..nv as u32).collect();
        let find = |parent: &mut Vec<u32>, mut x: u32| {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        };
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

#[cfg(test)]
mod tests {
    use crate::{Edge, Face, Mesh, Vertex, shapes};

    /// Every single-entry corruption of every array is reported, never a panic (the world
    /// loader runs `check()` on untrusted files; the fuzzer found an unchecked `lnext`).
    #[test]
    fn corrupt_entries_are_reported_not_panicked() {
        let (n, t) = shapes::octahedron();
        let good = Mesh::from_triangles(n, &t).unwrap();
        good.check().unwrap();
        let garbage = [
            0u32,
            1,
            3,
            5,
            7,
            23,
            1 << 20,
            (1 << 31) | 1,
            (1 << 31) | 50,
            u32::MAX - 1,
            u32::MAX,
        ];
        let mut rejected = 0;
        for field in 0..6 {
            let len = match field {
                0 => good.vertex_edge.len(),
                1 => good.face_edge.len(),
                _ => good.primal_origin.len(),
            };
            for i in 0..len {
                for &g in &garbage {
                    let mut m = good.clone();
                    match field {
                        0 => m.vertex_edge[i] = Edge::from_raw(g),
                        1 => m.face_edge[i] = Edge::from_raw(g),
                        2 => m.primal_origin[i] = Vertex::new(g),
                        3 => m.primal_next[i] = Edge::from_raw(g),
                        4 => m.dual_origin[i] = Face::new(g),
                        _ => m.dual_next[i] = Edge::from_raw(g),
                    }
                    if m != good {
                        // Some replacements are still valid meshes (another entry edge);
                        // the rest must be errors, and nothing may panic.
                        rejected += usize::from(m.check().is_err());
                    }
                }
            }
        }
        assert!(rejected > 300, "only {rejected} corruptions rejected");
    }
}
