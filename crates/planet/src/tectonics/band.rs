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
    live_edges(mesh)
        .filter(|&e| plate(mesh.origin(e)) != plate(mesh.dest(e)))
        .collect()
}

/// Every live edge, one per quad (its base), on all cores; `collect` keeps edge order.
pub(super) fn live_edges(mesh: &Mesh) -> impl ParallelIterator<Item = Edge> + '_ {
    (0..mesh.quad_slots() as u32)
        .into_par_iter()
        .with_min_len(4096)
        .map(Edge::of_quad)
        .filter(|&e| mesh.is_edge_alive(e))
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
mod tests {
    use super::*;

    #[test]
    fn the_band_is_what_a_scan_of_every_ring_and_face_finds() {
        let (mesh, pos) = sphere::fibonacci_sphere(5000, 1.0, 0.3, 2).unwrap();
        let plate: Vec<u32> = pos
            .iter()
            .map(|p| u32::from(p.x > 0.1) + 2 * u32::from(p.z > -0.3))
            .collect();
        let edges = boundary_edges(&mesh, &plate);
        let scan: Vec<Edge> = mesh
            .undirected_edges()
            .filter(|&e| plate[mesh.origin(e).index()] != plate[mesh.dest(e).index()])
            .collect();
        assert_eq!(edges, scan);
        assert!(edges.len() > 100);
        let rings = testkit::border_vertices(&mesh, &plate);
        assert_eq!(ends(&mesh, &edges), rings);
        let mixed: Vec<Face> = mesh
            .faces()
            .filter(|&f| {
                let [a, b, c] = mesh.face_vertices(f).map(|v| plate[v.index()]);
                !(a == b && b == c)
            })
            .collect();
        assert_eq!(sides(&mesh, &edges), mixed);
    }

    /// From the band's vertices (any order, duplicates or extra vertices do no harm, the
    /// scan's answer on 1, 2 and 4 threads), after random plate motions.
    #[test]
    fn the_band_from_its_vertices_is_the_scan() {
        let mut total = 0;
        for seed in 0..4 {
            let mut rng = testkit::Rng::new(seed + 7);
            let mut world = world::World::fibonacci_sphere(3000, 1.0, 0.3, seed).unwrap();
            let (plate, turns) = testkit::plate_regions(world.positions(), 5, 0.02, &mut rng);
            let mut band = Vec::new();
            let options = world::MoveOptions::default();
            world
                .turn_regions_in_steps_banded(&plate, &turns, 2, &options, &mut band)
                .unwrap();
            let mesh = world.mesh();
            let scan = boundary_edges(mesh, &plate);
            for pool in testkit::thread_pools() {
                assert_eq!(pool.install(|| from_vertices(mesh, &plate, &band)), scan);
            }
            // Extra vertices inside the plates, in another order.
            let mut more: Vec<Vertex> = band.iter().rev().copied().collect();
            more.extend(mesh.vertices().step_by(11));
            more.sort_by_key(|v| v.index() % 7);
            more.dedup();
            assert_eq!(from_vertices(mesh, &plate, &more), scan);
            total += scan.len();
        }
        assert!(total > 1000, "{total}");
    }

    /// The walk that skips the vertex it came from ends where a walk scanning every
    /// neighbour of every step ends, from random starts to random points a few cells away
    /// and far away.
    #[test]
    fn the_walk_skipping_where_it_came_from_ends_where_the_full_walk_ends() {
        let world = world::World::fibonacci_sphere(20_000, 6371.0, 0.3, 9).unwrap();
        let (mesh, pos) = (world.mesh(), world.positions());
        let full = |v: Vertex, q: DVec3| {
            let (mut best, mut key) = (v, distance_key(pos, v, q));
            loop {
                let from = best;
                for u in mesh.neighbors(from) {
                    let k = distance_key(pos, u, q);
                    if k < key {
                        (best, key) = (u, k);
                    }
                }
                if best == from {
                    return best;
                }
            }
        };
        let mut rng = testkit::Rng::new(12);
        let n = mesh.vertex_slots() as u32;
        for k in 0..4000 {
            let v = Vertex::new(rng.below(n as usize) as u32);
            let spread = if k % 2 == 0 { 300.0 } else { 6000.0 };
            let offset = DVec3::new(
                rng.unit_f64() - 0.5,
                rng.unit_f64() - 0.5,
                rng.unit_f64() - 0.5,
            ) * spread;
            let q = (pos[v.index()] + offset).normalize() * 6371.0;
            assert_eq!(nearest_from(mesh, pos, v, q), full(v, q));
        }
    }

    /// The filtered comparison answers as the plain one, bit for bit: keys of neighbours,
    /// the vertex's own key and keys a few units of rounding either side (ties the squares
    /// cannot tell), queries near and far (beyond 90°, where the key is positive).
    #[test]
    fn a_key_compared_by_squares_is_the_key_compared() {
        let world = world::World::fibonacci_sphere(3000, 6371.0, 0.3, 9).unwrap();
        let (mesh, pos) = (world.mesh(), world.positions());
        let mut rng = testkit::Rng::new(5);
        let n = mesh.vertex_slots();
        let (mut told, mut all) = (0usize, 0usize);
        for k in 0..3000 {
            let v = Vertex::new(rng.below(n) as u32);
            let spread = [50.0, 400.0, 9000.0, 20000.0][k % 4];
            let offset = DVec3::new(
                rng.unit_f64() - 0.5,
                rng.unit_f64() - 0.5,
                rng.unit_f64() - 0.5,
            ) * spread;
            let q = (pos[v.index()] + offset).normalize() * 6371.0 * (1.0 + 1e-3 * rng.unit_f64());
            let kv = distance_key(pos, v, q);
            let ulps = |x: f64, d: i64| f64::from_bits((x.to_bits() as i64 + d) as u64);
            for u in mesh.neighbors(v).chain([v]) {
                let ku = distance_key(pos, u, q);
                let keys = [
                    kv,
                    ku,
                    ulps(ku, 1),
                    ulps(ku, -1),
                    ulps(ku, 3),
                    ulps(ku, -3),
                    -ku,
                    0.0,
                ];
                for key in keys {
                    let plain = (ku < key).then_some(ku);
                    let filtered = nearer_key(pos, u, q, key);
                    assert_eq!(
                        plain.map(f64::to_bits),
                        filtered.map(f64::to_bits),
                        "{u:?} {key}"
                    );
                    all += 1;
                    told += usize::from(plain.is_none());
                }
            }
        }
        assert!(all > 100_000 && told > all / 4, "{told} of {all}");
    }

    #[test]
    fn the_band_follows_removals_insertions_and_plate_changes() {
        let mut world = world::World::fibonacci_sphere(4000, 1.0, 0.3, 5).unwrap();
        let mut plate: Vec<u32> = world
            .positions()
            .iter()
            .map(|p| u32::from(p.y > 0.2) + 2 * u32::from(p.z > 0.1))
            .collect();
        let mut band = boundary_edges(world.mesh(), &plate);
        // Remove vertices along the band, and change the plate of others.
        let ends = ends(world.mesh(), &band);
        let gone: Vec<Vertex> = ends.iter().step_by(5).copied().collect();
        let report = world.remove_vertices(&gone).unwrap();
        let moved: Vec<Vertex> = ends.iter().skip(2).step_by(7).copied().collect();
        for v in &moved {
            plate[v.index()] = 3 - plate[v.index()].min(3);
        }
        let mesh = world.mesh();
        let touched = report.edges.iter().copied().chain(around(mesh, &moved));
        update(mesh, &plate, &mut band, touched);
        assert_eq!(band, boundary_edges(mesh, &plate));
        // Insert points in the faces across the band (the new vertices on plate 0).
        let faces = sides(world.mesh(), &band);
        let points: Vec<(DVec3, Face)> = faces
            .iter()
            .step_by(3)
            .map(|&f| {
                let [a, b, c] = world
                    .mesh()
                    .face_vertices(f)
                    .map(|v| world.positions()[v.index()]);
                ((a + b + c).normalize(), f)
            })
            .collect();
        let (new, report) = world.insert_points_near(&points).unwrap();
        for v in &new {
            if plate.len() <= v.index() {
                plate.resize(v.index() + 1, 0);
            }
            plate[v.index()] = 0;
        }
        let mesh = world.mesh();
        let before = band.len();
        update(mesh, &plate, &mut band, report.edges);
        assert_eq!(band, boundary_edges(mesh, &plate));
        assert!(before > 100 && band.len() > 100 && !new.is_empty());
    }

    /// A strip of neighbouring removals: the rings of the shore after it hold every edge
    /// the removal made (the band as a scan finds it), and the shore is every neighbour of a
    /// removed vertex that stays.
    #[test]
    fn the_band_follows_a_removal_from_its_shore() {
        let mut world = world::World::fibonacci_sphere(4000, 1.0, 0.3, 6).unwrap();
        let plate: Vec<u32> = world
            .positions()
            .iter()
            .map(|p| u32::from(p.z > 0.0))
            .collect();
        let mut band = boundary_edges(world.mesh(), &plate);
        // Two rows either side of the equator, most of them: clusters, not lone vertices.
        let gone: Vec<Vertex> = world
            .mesh()
            .vertices()
            .filter(|v| world.positions()[v.index()].z.abs() < 0.04 && v.index() % 5 != 0)
            .collect();
        let shore = shore(world.mesh(), &gone);
        let mut expected: Vec<Vertex> = gone
            .iter()
            .flat_map(|&v| world.mesh().neighbors(v))
            .filter(|u| !gone.contains(u))
            .collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(shore, expected);
        world.remove_vertices_unreported(&gone).unwrap();
        let mesh = world.mesh();
        update(mesh, &plate, &mut band, around(mesh, &shore));
        assert_eq!(band, boundary_edges(mesh, &plate));
        assert!(gone.len() > 100 && band.len() > 50);
    }
}
