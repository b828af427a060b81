//! Shared helpers for the criterion benchmarks: test meshes and the CSR adjacency floor.

use quadedge::shapes;

pub mod alloc;

/// The closed test meshes: icosahedron grids close to 10k, 100k and 1M vertices.
pub const SIZES: [(&str, u32); 3] = [("10k", 32), ("100k", 100), ("1M", 316)];

/// A closed triangulation (vertex count, triangles) of about `10 k² + 2` vertices.
pub fn closed_mesh(k: u32) -> (usize, Vec<[u32; 3]>) {
    shapes::icosahedron_grid(k)
}

/// Compressed sparse row adjacency: neighbours of `v` are `targets[offsets[v]..offsets[v+1]]`.
/// The flat floor any traversal structure is measured against.
pub struct Csr {
    /// Per vertex, start of its neighbour list (length `n + 1`).
    pub offsets: Vec<u32>,
    /// All neighbour lists back to back.
    pub targets: Vec<u32>,
}

impl Csr {
    /// Builds the adjacency of a closed triangle mesh by counting (each directed edge appears
    /// in exactly one triangle).
    pub fn from_triangles(n: usize, tris: &[[u32; 3]]) -> Self {
        let mut offsets = vec![0u32; n + 1];
        for t in tris {
            for &a in t {
                offsets[a as usize + 1] += 1;
            }
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; offsets[n] as usize];
        for t in tris {
            for k in 0..3 {
                let a = t[k] as usize;
                targets[fill[a] as usize] = t[(k + 1) % 3];
                fill[a] += 1;
            }
        }
        Csr { offsets, targets }
    }

    /// Sum over every vertex of its neighbours' ids.
    pub fn sweep(&self) -> u64 {
        let mut sum = 0u64;
        for v in 0..self.offsets.len() - 1 {
            let (a, b) = (self.offsets[v] as usize, self.offsets[v + 1] as usize);
            for &n in &self.targets[a..b] {
                sum += n as u64;
            }
        }
        sum
    }

    /// Heap bytes of the two arrays.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.offsets.capacity() + self.targets.capacity())
    }
}

/// Sum over every vertex of its neighbours' ids, through the quad-edge rings.
pub fn quadedge_sweep(m: &quadedge::Mesh) -> u64 {
    let mut sum = 0u64;
    for v in m.vertices() {
        for n in m.neighbors(v) {
            sum += n.raw() as u64;
        }
    }
    sum
}
