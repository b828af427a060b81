//! Triangle index buffers of standard shapes, topology only (no positions).
//!
//! Handy for tests, benchmarks and examples; every closed shape is wound counter-clockwise as
//! seen from outside, every open one counter-clockwise seen from above.

/// A tetrahedron: 4 vertices, 4 faces.
pub fn tetrahedron() -> (usize, Vec<[u32; 3]>) {
    (4, vec![[0, 2, 1], [0, 3, 2], [0, 1, 3], [1, 2, 3]])
}

/// An octahedron: 6 vertices (±x = 0/1, ±y = 2/3, ±z = 4/5), 8 faces.
pub fn octahedron() -> (usize, Vec<[u32; 3]>) {
    (
        6,
        vec![
            [0, 2, 4],
            [2, 1, 4],
            [1, 3, 4],
            [3, 0, 4],
            [2, 0, 5],
            [1, 2, 5],
            [3, 1, 5],
            [0, 3, 5],
        ],
    )
}

const ICOSAHEDRON: [[u32; 3]; 20] = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
];

/// An icosahedron: 12 vertices, 20 faces.
pub fn icosahedron() -> (usize, Vec<[u32; 3]>) {
    (12, ICOSAHEDRON.to_vec())
}

/// An icosahedron whose faces are each cut into `k²` triangles (a geodesic grid of frequency
/// `k ≥ 1`): `10k² + 2` vertices, `20k²` faces, every vertex of degree 6 except the 12
/// corners (degree 5).
///
/// Vertex ids: the 12 corners, then the points inside the 30 edges, then those inside faces.
///
/// # Panics
/// When `k == 0`.
pub fn icosahedron_grid(k: u32) -> (usize, Vec<[u32; 3]>) {
    assert!(k >= 1, "frequency must be at least 1");
    let k = k as usize;
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(30);
    for t in &ICOSAHEDRON {
        for s in 0..3 {
            let (a, b) = (t[s], t[(s + 1) % 3]);
            let key = (a.min(b), a.max(b));
            if !edges.contains(&key) {
                edges.push(key);
            }
        }
    }
    edges.sort_unstable();
    let edge_base = 12usize;
    let face_base = edge_base + 30 * (k - 1);
    let interior = if k >= 3 { (k - 1) * (k - 2) / 2 } else { 0 };
    let n = face_base + 20 * interior;
    // Point `p` (0..=k) along the corner pair u → w.
    let on_edge = |u: u32, w: u32, p: usize| -> u32 {
        if p == 0 {
            return u;
        }
        if p == k {
            return w;
        }
        let e = edges
            .binary_search(&(u.min(w), u.max(w)))
            .expect("icosahedron edge");
        let along = if u < w { p - 1 } else { k - p - 1 };
        (edge_base + e * (k - 1) + along) as u32
    };
    let mut tris = Vec::with_capacity(20 * k * k);
    let mut local = vec![0u32; (k + 1) * (k + 1)];
    for (f, &[a, b, c]) in ICOSAHEDRON.iter().enumerate() {
        // P(i, j) = a + i/k (b - a) + j/k (c - a).
        let mut next_inner = face_base + f * interior;
        for j in 0..=k {
            for i in 0..=k - j {
                let id = if j == 0 {
                    on_edge(a, b, i)
                } else if i == 0 {
                    on_edge(a, c, j)
                } else if i + j == k {
                    on_edge(b, c, j)
                } else {
                    next_inner += 1;
                    (next_inner - 1) as u32
                };
                local[j * (k + 1) + i] = id;
            }
        }
        let p = |i: usize, j: usize| local[j * (k + 1) + i];
        for j in 0..k {
            for i in 0..k - j {
                tris.push([p(i, j), p(i + 1, j), p(i, j + 1)]);
                if i + j + 1 < k {
                    tris.push([p(i + 1, j), p(i + 1, j + 1), p(i, j + 1)]);
                }
            }
        }
    }
    (n, tris)
}

/// A disk: one centre vertex (0) surrounded by `n ≥ 3` rim vertices (1..=n), `n` faces.
///
/// # Panics
/// When `n < 3`.
pub fn disk(n: u32) -> (usize, Vec<[u32; 3]>) {
    assert!(n >= 3, "a disk needs at least 3 rim vertices");
    let tris = (0..n).map(|i| [0, 1 + i, 1 + (i + 1) % n]).collect();
    (n as usize + 1, tris)
}

/// A strip of `n ≥ 1` triangles over vertices `0..n + 2` (bottom row even, top row odd).
///
/// # Panics
/// When `n == 0`.
pub fn strip(n: u32) -> (usize, Vec<[u32; 3]>) {
    assert!(n >= 1, "a strip needs at least one triangle");
    let tris = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                [i, i + 2, i + 1]
            } else {
                [i, i + 1, i + 2]
            }
        })
        .collect();
    (n as usize + 2, tris)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mesh;

    #[test]
    fn grid_counts_match_the_formula() {
        for k in 1..6 {
            let (n, t) = icosahedron_grid(k);
            let k = k as usize;
            assert_eq!(n, 10 * k * k + 2);
            assert_eq!(t.len(), 20 * k * k);
            let m = Mesh::from_triangles(n, &t).unwrap();
            m.check().unwrap();
            assert_eq!(m.euler_characteristic(), 2);
            assert!(m.is_closed());
        }
    }
}
