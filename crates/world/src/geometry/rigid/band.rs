//! Where the regions meet: the band of vertices with a neighbour in another region, found
//! by one pass over the edges, or from the last band and the stars a repair changed.

use quadedge::internals::set_bits;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// The band after a sub-step: a vertex gains a neighbour in another region only through a
/// flip around it, so it is in the last band or among the vertices whose stars changed
/// (both sorted); those of them still next to another region, in order.
pub(super) fn next_band(
    mesh: &Mesh,
    which: &(impl Fn(usize) -> u32 + Sync),
    last: &[Vertex],
    changed: &[Vertex],
) -> Vec<Vertex> {
    merged(last, changed)
        .into_par_iter()
        .with_min_len(1024)
        .filter(|&v| {
            let r = which(v.index());
            mesh.is_vertex_alive(v) && mesh.neighbors(v).any(|u| which(u.index()) != r)
        })
        .collect()
}

/// `a` and `b` together, sorted, each vertex once: a merge of two sorted lists (as the band
/// and the restore's changed list are) instead of a sort.
pub(in crate::geometry) fn merged(a: &[Vertex], b: &[Vertex]) -> Vec<Vertex> {
    let mut all = Vec::with_capacity(a.len() + b.len());
    if a.is_sorted() && b.is_sorted() {
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            all.push(x.min(y));
            i += usize::from(x <= y);
            j += usize::from(y <= x);
        }
        all.extend_from_slice(&a[i..]);
        all.extend_from_slice(&b[j..]);
    } else {
        all.extend_from_slice(a);
        all.extend_from_slice(b);
        all.sort_unstable();
    }
    all.dedup();
    all
}

/// The live vertices with a neighbour in another region, sorted: one pass over the edges
/// (cheaper than walking every vertex's ring), on all cores in chunks of quad-edges, each a
/// plain loop.
pub(super) fn band(mesh: &Mesh, which: &(impl Fn(usize) -> u32 + Sync)) -> Vec<Vertex> {
    const CHUNK: usize = 8192;
    let quads = mesh.quad_slots();
    let parts: Vec<Vec<Vertex>> = (0..quads.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut part = Vec::new();
            for q in c * CHUNK..quads.min((c + 1) * CHUNK) {
                let e = Edge::of_quad(q as u32);
                if !mesh.is_edge_alive(e) {
                    continue;
                }
                let (a, b) = (mesh.origin(e), mesh.dest(e));
                if a.is_valid() && b.is_valid() && which(a.index()) != which(b.index()) {
                    part.extend([a, b]);
                }
            }
            part
        })
        .collect();
    sorted_once(&parts, mesh.vertex_slots())
}

/// The vertices of `parts` (each below `slots`), sorted, each once: one bit per vertex slot
/// and a pass over the words instead of a sort of every end (twice the band, at the least).
fn sorted_once(parts: &[Vec<Vertex>], slots: usize) -> Vec<Vertex> {
    let mut bits = vec![0u64; slots.div_ceil(64)];
    let mut count = 0;
    for &v in parts.iter().flatten() {
        let (word, bit) = (v.index() / 64, 1u64 << (v.index() % 64));
        count += usize::from(bits[word] & bit == 0);
        bits[word] |= bit;
    }
    let mut out = Vec::with_capacity(count);
    out.extend(set_bits(bits.iter().copied()).map(|i| Vertex::new(i as u32)));
    out
}
