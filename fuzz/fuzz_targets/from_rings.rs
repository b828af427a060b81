//! Feeds arbitrary bytes to `Mesh::from_rings`: the rings of a small closed shape (picked by
//! the first byte) changed entry by entry by the rest, or rings read raw from the bytes. It
//! must return a typed error or a mesh that passes `check()` and has exactly the given rings,
//! never panic or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quadedge::{Mesh, Vertex, shapes};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let rings = if mode < 128 {
        changed_shape(mode, rest)
    } else {
        raw_rings(rest)
    };
    let Ok(m) = Mesh::from_rings(rings.len(), |v| rings[v as usize].as_slice()) else {
        return;
    };
    m.check().expect("a mesh built from rings passes check()");
    for (v, ring) in rings.iter().enumerate() {
        let got: Vec<u32> = m.neighbors(Vertex::new(v as u32)).map(Vertex::raw).collect();
        assert_eq!(&got, ring, "vertex {v} keeps its ring");
    }
});

/// The rings of a closed shape, then per three bytes one change to one ring: replace,
/// swap, remove or insert an entry.
fn changed_shape(mode: u8, bytes: &[u8]) -> Vec<Vec<u32>> {
    let (n, tris) = match mode % 4 {
        0 => shapes::tetrahedron(),
        1 => shapes::octahedron(),
        2 => shapes::icosahedron(),
        _ => shapes::icosahedron_grid(2),
    };
    let m = Mesh::from_triangles(n, &tris).expect("a shape builds");
    let mut rings: Vec<Vec<u32>> = m
        .vertices()
        .map(|v| m.neighbors(v).map(Vertex::raw).collect())
        .collect();
    for op in bytes.chunks_exact(3) {
        let r = &mut rings[op[0] as usize % n];
        if r.is_empty() {
            continue;
        }
        let j = op[1] as usize % r.len();
        let x = u32::from(op[2]);
        match op[1] % 4 {
            0 => r[j] = x % (n as u32 + 2),
            1 => {
                let k = (j + 1 + x as usize) % r.len();
                r.swap(j, k);
            }
            2 => {
                r.remove(j);
            }
            _ => r.insert(j, x % (n as u32 + 2)),
        }
    }
    rings
}

/// Rings straight from the bytes: a vertex count, then per vertex a length and its entries.
fn raw_rings(bytes: &[u8]) -> Vec<Vec<u32>> {
    let Some((&count, mut rest)) = bytes.split_first() else {
        return Vec::new();
    };
    let n = usize::from(count % 64);
    (0..n)
        .map(|_| {
            let Some((&len, tail)) = rest.split_first() else {
                return Vec::new();
            };
            let len = usize::from(len % 16).min(tail.len());
            let (ring, tail) = tail.split_at(len);
            rest = tail;
            ring.iter().map(|&b| u32::from(b) % (n as u32 + 1)).collect()
        })
        .collect()
}
