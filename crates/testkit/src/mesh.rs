//! Mesh helpers: picking edges (live or not) for random edits, and small assertions.

use crate::Rng;
use quadedge::{Edge, Face, Mesh, MeshError, Vertex};

/// One of the four edges of quad-edge `i % (quad_slots + 1)`, rotated `r` times: mostly live
/// edges, sometimes a removed one or the first slot past the end, and every kind (primal,
/// dual, either direction). For random edit sequences that must also try bad ids.
pub fn pick_edge(m: &Mesh, i: u32, r: u8) -> Edge {
    let slots = m.quad_slots() as u32 + 1;
    let mut e = Edge::of_quad(i % slots);
    for _ in 0..r % 4 {
        e = e.rot();
    }
    e
}

/// A random live primal edge, either direction; `None` on a mesh without edges. Tries random
/// slots first and falls back to a scan, so it also works on meshes with many holes.
pub fn live_primal_edge(m: &Mesh, rng: &mut Rng) -> Option<Edge> {
    let slots = m.quad_slots();
    if m.undirected_edge_count() == 0 {
        return None;
    }
    let flip = |e: Edge, rng: &mut Rng| if rng.next_u64() & 1 == 0 { e } else { e.sym() };
    for _ in 0..8 {
        let e = Edge::of_quad(rng.below(slots) as u32);
        if m.is_edge_alive(e) {
            return Some(flip(e, rng));
        }
    }
    let skip = rng.below(m.undirected_edge_count());
    let e = m.undirected_edges().nth(skip)?;
    Some(flip(e, rng))
}

/// A vertex id in `0..=vertex_slots`: live, removed or one past the end.
pub fn pick_vertex(m: &Mesh, i: u32) -> Vertex {
    Vertex::new(i % (m.vertex_slots() as u32 + 1))
}

/// A face id in `0..=face_slots`: live, removed or one past the end.
pub fn pick_face(m: &Mesh, i: u32) -> Face {
    Face::new(i % (m.face_slots() as u32 + 1))
}

/// A mesh from a triangle buffer that must build and pass `check()`.
///
/// # Panics
/// When the buffer is rejected or the mesh fails `check()`.
pub fn build(shape: (usize, Vec<[u32; 3]>)) -> Mesh {
    let m = Mesh::from_triangles(shape.0, &shape.1).expect("shape builds");
    m.check().expect("shape passes check()");
    m
}

/// Neighbours of `x` counter-clockwise, rotated to start at the smallest id: a canonical form
/// to compare rings exactly.
pub fn ring(m: &Mesh, x: Vertex) -> Vec<u32> {
    let mut r: Vec<u32> = m.neighbors(x).map(|n| n.raw()).collect();
    if let Some(k) = (0..r.len()).min_by_key(|&i| r[i]) {
        r.rotate_left(k);
    }
    r
}

/// The canonical ring of every vertex slot, in id order (empty for removed vertices).
pub fn rings(m: &Mesh) -> Vec<Vec<u32>> {
    (0..m.vertex_slots() as u32)
        .map(|i| ring(m, Vertex::new(i)))
        .collect()
}

/// Corners of a face rotated to start at the smallest id.
pub fn corners(m: &Mesh, x: Face) -> [u32; 3] {
    let vs = m.face_vertices(x).map(|c| c.raw());
    let k = (0..3).min_by_key(|&i| vs[i]).unwrap_or(0);
    [vs[k], vs[(k + 1) % 3], vs[(k + 2) % 3]]
}

/// Runs `op` on a clone of `m` with a fresh journal and asserts that it fails with `err`,
/// leaves the mesh bit-identical and logs nothing.
///
/// # Panics
/// When any of that does not hold.
pub fn assert_rejected<T: core::fmt::Debug>(
    m: &Mesh,
    err: MeshError,
    op: impl FnOnce(&mut Mesh) -> Result<T, MeshError>,
) {
    let mut c = m.clone();
    c.discard_journal();
    let rec = c.record_changes().expect("no journal after discard");
    assert_eq!(op(&mut c).unwrap_err(), err);
    assert_eq!(&c, m, "a rejected operation changed the mesh");
    assert_eq!(
        c.take_changes(&rec),
        Ok(vec![]),
        "a rejected operation logged"
    );
}

/// A triangle's corners rotated so that the smallest comes first (orientation kept): equal
/// for the same oriented triangle whatever corner it was listed from.
///
/// ```
/// assert_eq!(testkit::canonical_triangle([5, 2, 9]), [2, 9, 5]);
/// ```
pub fn canonical_triangle(mut t: [u32; 3]) -> [u32; 3] {
    let k = if t[1] < t[0] && t[1] < t[2] {
        1
    } else if t[2] < t[0] && t[2] < t[1] {
        2
    } else {
        0
    };
    t.rotate_left(k);
    t
}

/// Triangles made canonical ([`canonical_triangle`]) and sorted: equal for the same oriented
/// triangulation whatever the order and numbering of its faces.
///
/// ```
/// let a = testkit::canonical_triangles(vec![[3, 1, 2], [0, 1, 3]]);
/// assert_eq!(a, [[0, 1, 3], [1, 2, 3]]);
/// ```
pub fn canonical_triangles(mut tris: Vec<[u32; 3]>) -> Vec<[u32; 3]> {
    for t in &mut tris {
        *t = canonical_triangle(*t);
    }
    tris.sort_unstable();
    tris
}

/// The unit octahedron's six corners (±X, ±Y, ±Z), numbered as
/// [`quadedge::shapes::octahedron`] numbers its vertices.
pub const OCTAHEDRON_POINTS: [glam::DVec3; 6] = [
    glam::DVec3::X,
    glam::DVec3::NEG_X,
    glam::DVec3::Y,
    glam::DVec3::NEG_Y,
    glam::DVec3::Z,
    glam::DVec3::NEG_Z,
];

/// The unit octahedron: its mesh ([`quadedge::shapes::octahedron`]) and corners.
pub fn octahedron() -> (Mesh, Vec<glam::DVec3>) {
    (
        build(quadedge::shapes::octahedron()),
        OCTAHEDRON_POINTS.to_vec(),
    )
}

/// A planar `n × n` grid of spacing `s` from `origin` (`z = 0`), each square cut along the
/// same diagonal: a Delaunay triangulation full of co-circular squares, for degenerate cases.
pub fn planar_grid(n: u32, origin: (f64, f64), s: f64) -> (Mesh, Vec<glam::DVec3>) {
    let id = |i: u32, j: u32| i * n + j;
    let mut tris = Vec::new();
    for i in 1..n {
        for j in 1..n {
            let (a, b, c, d) = (id(i - 1, j - 1), id(i - 1, j), id(i, j), id(i, j - 1));
            tris.push([a, b, c]);
            tris.push([a, c, d]);
        }
    }
    let pos = (0..n * n)
        .map(|k| {
            let (x, y) = ((k % n) as f64, (k / n) as f64);
            glam::DVec3::new(origin.0 + x * s, origin.1 + y * s, 0.0)
        })
        .collect();
    (build(((n * n) as usize, tris)), pos)
}
