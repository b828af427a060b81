//! The boundary band: the edges joining two plates, found by one pass over the edge arrays on
//! all cores (in edge order whatever the thread count). The front, new crust and relief stages
//! start from it instead of scanning every vertex's ring or every face.

use super::NO_PLATE;
use glam::DVec3;
use quadedge::internals::set_bits;
use quadedge::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;

/// Every live undirected edge whose two ends are on different plates, in edge order (the
/// order of [`Mesh::undirected_edges`]).
pub(super) fn boundary_edges(mesh: &Mesh, plate: &[u32]) -> Vec<Edge> {
    // The scan reads two plates per edge at random: a copy in 16 bits (half the bytes, in a
    // core's cache at 500k vertices) when every id fits, which it does short of 65,535
    // plates.
    let wide = plate
        .par_iter()
        .any(|&p| p >= u32::from(u16::MAX) && p != NO_PLATE);
    if wide {
        return scan(mesh, |v| plate[v.index()]);
    }
    let small: Vec<u16> = plate
        .par_iter()
        .with_min_len(1 << 14)
        .map(|&p| p.min(u32::from(u16::MAX)) as u16)
        .collect();
    scan(mesh, |v| small[v.index()])
}

/// The edges whose ends have different `plate` values, in edge order.
fn scan<T: PartialEq>(mesh: &Mesh, plate: impl Fn(Vertex) -> T + Sync) -> Vec<Edge> {
    scan_live_edges(mesh, |e, out| {
        if plate(mesh.origin(e)) != plate(mesh.dest(e)) {
            out.push(e);
        }
    })
}

/// Quads per piece of [`scan_live_edges`].
pub(super) const SCAN_PIECE: u32 = 1 << 14;

/// What `visit` pushes for every live edge (one per quad, its base), in edge order: the quads
/// in pieces on all cores, each piece a plain loop, the pieces joined in order. A filter and
/// a collect of a parallel iterator over the edges cost two and a half times as much (8 ms
/// against 3 ms at 500k vertices on one core, docs/benchmark-notes.md "Accretion: the
/// shores' pass in plain loops").
pub(super) fn scan_live_edges<T: Send>(
    mesh: &Mesh,
    visit: impl Fn(Edge, &mut Vec<T>) + Sync,
) -> Vec<T> {
    let quads = mesh.quad_slots() as u32;
    let pieces: Vec<Vec<T>> = (0..quads.div_ceil(SCAN_PIECE))
        .into_par_iter()
        .map(|k| {
            let mut found = Vec::new();
            for q in k * SCAN_PIECE..quads.min((k + 1) * SCAN_PIECE) {
                let e = Edge::of_quad(q);
                if mesh.is_edge_alive(e) {
                    visit(e, &mut found);
                }
            }
            found
        })
        .collect();
    let mut all = Vec::with_capacity(pieces.iter().map(Vec::len).sum());
    for piece in pieces {
        all.extend(piece);
    }
    all
}

/// The [`boundary_edges`] from `vertices`, every live vertex with a neighbour on another
/// plate (the band the world's rigid motion hands back; other vertices and repeats do no
/// harm): each edge from its base's origin, then one sort. A ring per band vertex instead of a pass over every edge of the mesh.
#[cfg(test)]
pub(super) fn from_vertices(mesh: &Mesh, plate: &[u32], vertices: &[Vertex]) -> Vec<Edge> {
    let mut edges: Vec<Edge> = vertices
        .par_iter()
        .with_min_len(1024)
        .flat_map_iter(|&v| {
            let p = plate[v.index()];
            mesh.outgoing(v)
                .filter(move |&e| e == e.base() && plate[mesh.dest(e).index()] != p)
        })
        .collect();
    in_edge_order(mesh, &mut edges);
    debug_assert!(
        edges == boundary_edges(mesh, plate),
        "the band from its vertices as a scan finds it"
    );
    edges
}

/// [`from_vertices`] from the edges its rings give (`edges`: each band edge from its base's
/// origin, in any order): the band in edge order.
pub(super) fn in_edge_order_of(mesh: &Mesh, plate: &[u32], mut edges: Vec<Edge>) -> Vec<Edge> {
    in_edge_order(mesh, &mut edges);
    debug_assert!(
        edges == boundary_edges(mesh, plate),
        "the band from its vertices' rings as a scan finds it"
    );
    edges
}

/// `edges` (base edges, repeats allowed) each once, in edge order: one bit per quad-edge
/// slot, read back word by word (a few tens of thousands of scattered writes and one pass
/// over a few hundred KB, instead of a sort).
fn in_edge_order(mesh: &Mesh, edges: &mut Vec<Edge>) {
    let mut bits = vec![0u64; mesh.quad_slots().div_ceil(64)];
    for e in edges.iter() {
        let q = e.quad();
        if let Some(w) = bits.get_mut(q / 64) {
            *w |= 1 << (q % 64);
        }
    }
    edges.clear();
    edges.extend(set_bits(bits).map(|q| Edge::of_quad(q as u32)));
}

/// `band`, the [`boundary_edges`] before an edit, brought up to date after it: the
/// boundary edges among its old entries and the `touched` ones (every edge the edit made or
/// flipped, and those around a vertex whose plate changed), in edge order. Equal to
/// [`boundary_edges`] of the mesh after the edit (an edge the edit did not touch keeps its
/// ends and their plates), at the cost of the change.
pub(super) fn update(
    mesh: &Mesh,
    plate: &[u32],
    band: &mut Vec<Edge>,
    touched: impl IntoIterator<Item = Edge>,
) {
    band.extend(touched.into_iter().map(Edge::base));
    band.retain(|&e| {
        mesh.is_edge_alive(e) && plate[mesh.origin(e).index()] != plate[mesh.dest(e).index()]
    });
    in_edge_order(mesh, band);
    debug_assert!(
        *band == boundary_edges(mesh, plate),
        "the band as a scan finds it"
    );
}

/// The edges around `vertices` (see [`update`]).
pub(super) fn around<'m>(
    mesh: &'m Mesh,
    vertices: &'m [Vertex],
) -> impl Iterator<Item = Edge> + 'm {
    vertices
        .iter()
        .filter(|v| mesh.is_vertex_alive(**v))
        .flat_map(|&v| mesh.outgoing(v))
}

/// The neighbours of `gone` that are not in it, each once, in increasing order: the vertices
/// whose rings a removal of `gone` can change. One bit per vertex slot for each set, read back
/// word by word (no sort; the rings walked here are those the removal walks next).
pub(super) fn shore(mesh: &Mesh, gone: &[Vertex]) -> Vec<Vertex> {
    let words = mesh.vertex_slots().div_ceil(64);
    let (mut out_of, mut near) = (vec![0u64; words], vec![0u64; words]);
    for &v in gone {
        out_of[v.index() / 64] |= 1 << (v.index() % 64);
    }
    for &v in gone {
        for u in mesh.neighbors(v) {
            near[u.index() / 64] |= 1 << (u.index() % 64);
        }
    }
    set_bits(near.iter().zip(&out_of).map(|(&n, &o)| n & !o))
        .map(|i| Vertex::new(i as u32))
        .collect()
}

/// The ends of `edges`, each once, in increasing order.
pub(super) fn ends(mesh: &Mesh, edges: &[Edge]) -> Vec<Vertex> {
    let mut v: Vec<Vertex> = edges
        .iter()
        .flat_map(|&e| [mesh.origin(e), mesh.dest(e)])
        .collect();
    v.par_sort_unstable();
    v.dedup();
    v
}

/// The live faces on either side of `edges`, each once, in increasing order: on a
/// triangulation, exactly the faces whose corners are not all on one plate when `edges` are
/// the [`boundary_edges`].
pub(super) fn sides(mesh: &Mesh, edges: &[Edge]) -> Vec<Face> {
    // A bit per face slot: read back word by word, the faces come out in increasing order
    // and each once, with no sort.
    let mut bits = vec![0u64; mesh.face_slots().div_ceil(64)];
    for f in edges.iter().flat_map(|&e| [mesh.left(e), mesh.right(e)]) {
        if mesh.is_face_alive(f) {
            bits[f.index() / 64] |= 1 << (f.index() % 64);
        }
    }
    set_bits(bits.iter().copied())
        .map(|i| Face::new(i as u32))
        .collect()
}

/// The vertex nearest to `q`, by a greedy walk from `v` to ever nearer neighbours. On a
/// Delaunay triangulation the walk ends at the nearest vertex (a vertex nearer to `q` than
/// all its neighbours has `q` in its Voronoi cell, which its neighbours bound), the answer of
/// [`delaunay::nearest_vertex`] (same distance key) without its exact point location: `q` is a few cells from `v`.
#[cfg(test)]
pub(super) fn nearest_from(mesh: &Mesh, pos: &[DVec3], v: Vertex, q: DVec3) -> Vertex {
    nearest_from_keyed(mesh, pos, v, distance_key(pos, v, q), q)
}

/// The walk's distance key of vertex `u` from `q` ([`delaunay::Surface::distance_key`] on
/// the sphere).
#[inline]
pub(super) fn distance_key(pos: &[DVec3], u: Vertex, q: DVec3) -> f64 {
    use delaunay::Surface;
    delaunay::Sphere.distance_key(q, pos[u.index()])
}

/// [`nearest_from`] with the key of `v` known. Each step scans the ring of the nearest vertex
/// so far for the first strictly nearer one, skipping the vertex it came from (nearer to `q`
/// than that one is why it moved): the answer of a scan of every neighbour. The keys are
/// compared by [`nearer_key`] (a root and a division only for the few nearer vertices).
pub(super) fn nearest_from_keyed(
    mesh: &Mesh,
    pos: &[DVec3],
    v: Vertex,
    key_v: f64,
    q: DVec3,
) -> Vertex {
    let (mut best, mut key) = (v, key_v);
    let mut came = Vertex::INVALID;
    loop {
        let from = best;
        for u in mesh.neighbors(from) {
            if u == came {
                continue;
            }
            if let Some(k) = nearer_key(pos, u, q, key) {
                (best, key) = (u, k);
            }
        }
        if best == from {
            return best;
        }
        came = from;
    }
}

/// A margin far above the relative rounding of the squares compared in [`nearer_key`] (a
/// few units of 2⁻⁵³).
const KEY_MARGIN: f64 = 1.0 + 1e-12;

/// [`distance_key`] of `u` from `q` when it is below `key` (`k < key`, the same answer
/// and the same bits), `None` otherwise; without the key's root and division when the
/// squares tell. The key is `t / √n` with `t = −q·p` and `n = p·p` (`p` the vertex's
/// position): with `t` and `key` negative (within 90° of `q`, every walk's case) and
/// `t² = A`, `key²·n = B` far enough apart (by [`KEY_MARGIN`]), `|t|/√n` is above or below
/// `|key|` by far more than the two roundings of the key (its root and its division, within
/// 2.3·10⁻¹⁶ relative), so the rounded key is too; otherwise (signs, ties within the
/// margin, squares that are not normal numbers) the key is computed and compared.
#[inline]
pub(super) fn nearer_key(pos: &[DVec3], u: Vertex, q: DVec3, key: f64) -> Option<f64> {
    let p = pos[u.index()];
    // The terms of `Sphere::distance_key(q, p)`: `-q.dot(p) / p.length()`.
    let t = -q.dot(p);
    let n = p.dot(p);
    if t < 0.0 && key < 0.0 {
        let (a, b) = (t * t, key * key * n);
        if a.is_normal() && b.is_normal() {
            if a * KEY_MARGIN < b {
                return None;
            }
            if a > b * KEY_MARGIN {
                return Some(t / n.sqrt());
            }
        }
    }
    let k = t / n.sqrt();
    (k < key).then_some(k)
}

#[cfg(test)]
mod tests;
