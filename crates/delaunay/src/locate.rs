//! Point location: the face (or edge, or vertex) under a point, by walking from a hint.

use crate::check::{check_len, pos};
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};

/// Where a point lies in a triangulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// Strictly inside this face.
    InFace(Face),
    /// On this edge (its left face is the face the walk ended in), strictly between its ends.
    OnEdge(Edge),
    /// On this vertex: the predicates cannot separate the point from it.
    OnVertex(Vertex),
    /// Outside the triangulated region (plane only): beyond this boundary edge.
    Outside(Edge),
}

impl Location {
    /// A face at the location, to pass as the next query's hint (coherent queries then walk a
    /// few steps only). `None` outside the region.
    pub fn face(self, mesh: &Mesh) -> Option<Face> {
        match self {
            Location::InFace(f) => Some(f),
            Location::OnEdge(e) => Some(mesh.left(e)),
            Location::OnVertex(v) => mesh.vertex_faces(v).find(|f| f.is_valid()),
            Location::Outside(_) => None,
        }
    }
}

/// A small deterministic generator: which edge a walk tries first, so that it cannot cycle.
#[derive(Clone, Copy)]
pub(crate) struct Xorshift(pub(crate) u32);

impl Xorshift {
    #[inline]
    pub(crate) fn next3(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 % 3) as usize
    }
}

/// Finds the face of `mesh` that contains `p` (the direction `p` on the sphere), or the edge
/// or vertex it lies on, by a visibility walk from `hint` (any live face; the first face when
/// `None`): step across an edge that has `p` strictly on its far side, trying the face's edges
/// from a random one so that the walk cannot cycle. Every decision is an exact predicate.
///
/// The walk assumes a valid triangulation (no inverted face). A guard against absurdly long
/// walks falls back to a scan of every face, which is exact too.
///
/// # Errors
/// Positions too short or not finite on the way, `p` not finite, a dead hint, an empty mesh
/// ([`DelaunayError::TooFewVertices`]), a walk into a non-triangular face.
///
/// ```
/// use delaunay::{Location, Sphere, locate};
/// let (mesh, pos) = sphere::fibonacci_sphere(1000, 1.0, 0.0, 0).unwrap();
/// let p = glam::DVec3::new(0.3, -0.2, 0.9);
/// let Location::InFace(f) = locate(&Sphere, &mesh, &pos, p, None).unwrap() else { panic!() };
/// // The corners of `f` see `p` inside the face.
/// let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
/// assert!(a.cross(b).dot(p) > 0.0 && b.cross(c).dot(p) > 0.0 && c.cross(a).dot(p) > 0.0);
/// // A vertex is found as itself.
/// assert_eq!(locate(&Sphere, &mesh, &pos, pos[17], Some(f)), Ok(Location::OnVertex(quadedge::Vertex::new(17))));
/// ```
pub fn locate<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    hint: Option<Face>,
) -> Result<Location, DelaunayError> {
    Ok(walk(surface, mesh, positions, p, hint)?.loc)
}

/// Where a [`walk`] ended: the location and, when the walk stopped in a face (the location
/// is in it or on its border), that face's three edges from the one the walk stood on, with
/// their origins' positions (each edge `k` goes from corner `k` to corner `k + 1`).
pub(crate) struct Walk {
    pub(crate) loc: Location,
    pub(crate) face: Option<([Edge; 3], [DVec3; 3])>,
}

/// [`locate`], also handing back the last face's edges and corners (callers that look at
/// that face next need not read the mesh again).
pub(crate) fn walk<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    hint: Option<Face>,
) -> Result<Walk, DelaunayError> {
    check_len(mesh, positions)?;
    if !p.is_finite() {
        return Err(DelaunayError::NonFinite(None));
    }
    let start = match hint {
        Some(f) if f.index() < mesh.face_slots() && mesh.is_face_alive(f) => f,
        Some(f) => return Err(DelaunayError::DeadFace(f)),
        None => mesh
            .faces()
            .next()
            .ok_or(DelaunayError::TooFewVertices(mesh.vertex_count()))?,
    };
    let limit = 4 * mesh.face_count() + 64;
    let mut rng = Xorshift(0x9e37_79b9 ^ start.raw());
    // The walk stands on edge `e` (origin `a`, destination `b`) with the current face on its
    // left, usually the edge it came in through: `p` is then known to be strictly on its inner
    // side, and each step reads one new corner only.
    let mut e = mesh.face_edge(start);
    let mut pa = pos(positions, mesh.origin(e))?;
    let mut pb = pos(positions, mesh.dest(e))?;
    let mut entered = false;
    for _ in 0..limit {
        let e1 = mesh.left_next(e);
        let e2 = mesh.left_next(e1);
        if mesh.left_next(e2) != e {
            return Err(DelaunayError::NotTriangulated(mesh.left(e)));
        }
        let pc = pos(positions, mesh.dest(e1))?;
        let corners = [pa, pb, pc];
        let edges = [e, e1, e2];
        let r = rng.next3();
        let mut side = [1.0f64; 3];
        let mut crossed = None;
        for k in 0..3 {
            let i = (r + k) % 3;
            if i == 0 && entered {
                continue;
            }
            let o = surface.orient(corners[i], corners[(i + 1) % 3], p);
            if o < 0.0 {
                crossed = Some(i);
                break;
            }
            side[i] = o;
        }
        let Some(i) = crossed else {
            return Ok(Walk {
                loc: classify(mesh, edges, side),
                face: Some((edges, corners)),
            });
        };
        let x = edges[i];
        if !mesh.right(x).is_valid() {
            return Ok(Walk {
                loc: Location::Outside(x),
                face: None,
            });
        }
        // Step across `x`: its reverse is the new entering edge.
        e = x.sym();
        (pa, pb) = (corners[(i + 1) % 3], corners[i]);
        entered = true;
    }
    Ok(Walk {
        loc: scan(surface, mesh, positions, p)?,
        face: None,
    })
}

/// The location inside a face from the signs against its three edges (none negative).
fn classify(mesh: &Mesh, edges: [Edge; 3], side: [f64; 3]) -> Location {
    let zeros = [side[0] == 0.0, side[1] == 0.0, side[2] == 0.0];
    match zeros {
        [false, false, false] => Location::InFace(mesh.left(edges[0])),
        [true, false, false] => Location::OnEdge(edges[0]),
        [false, true, false] => Location::OnEdge(edges[1]),
        [false, false, true] => Location::OnEdge(edges[2]),
        // On edges i and i + 1: their shared corner, the origin of edge i + 1.
        [true, true, _] => Location::OnVertex(mesh.origin(edges[1])),
        [false, true, true] => Location::OnVertex(mesh.origin(edges[2])),
        [true, false, true] => Location::OnVertex(mesh.origin(edges[0])),
    }
}

/// The exact fallback: the first face whose three edges all have `p` on their inner side.
#[cold]
fn scan<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
) -> Result<Location, DelaunayError> {
    let mut outside = None;
    for f in mesh.faces() {
        let [e0, e1, e2] = mesh.face_edges(f);
        let edges = [e0, e1, e2];
        let mut side = [0.0; 3];
        for i in 0..3 {
            let a = pos(positions, mesh.origin(edges[i]))?;
            let b = pos(positions, mesh.dest(edges[i]))?;
            side[i] = surface.orient(a, b, p);
        }
        if side.iter().all(|&s| s >= 0.0) && side.iter().filter(|&&s| s == 0.0).count() < 3 {
            return Ok(classify(mesh, edges, side));
        }
        if outside.is_none() {
            outside = edges
                .into_iter()
                .zip(side)
                .find(|&(e, s)| s < 0.0 && !mesh.right(e).is_valid())
                .map(|(e, _)| e);
        }
    }
    match outside {
        Some(e) => Ok(Location::Outside(e)),
        None => Err(DelaunayError::Outside),
    }
}

/// The vertex of `mesh` nearest to `p` on the surface: [`locate`] `p`, then walk greedily to
/// a neighbour closer to `p` while there is one (on a Delaunay triangulation the greedy walk
/// ends at the nearest vertex). Returns the vertex and the face the query ended in (a hint for
/// the next query).
///
/// # Errors
/// As [`locate`]; [`DelaunayError::Outside`] when `p` is outside a planar triangulation.
///
/// ```
/// use delaunay::{Sphere, nearest_vertex};
/// let (mesh, pos) = sphere::fibonacci_sphere(1000, 1.0, 0.0, 0).unwrap();
/// let p = pos[321] * 1.0 + glam::DVec3::splat(1e-4);
/// assert_eq!(nearest_vertex(&Sphere, &mesh, &pos, p, None).unwrap().0, quadedge::Vertex::new(321));
/// ```
pub fn nearest_vertex<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    hint: Option<Face>,
) -> Result<(Vertex, Face), DelaunayError> {
    let loc = locate(surface, mesh, positions, p, hint)?;
    let face = loc.face(mesh).ok_or(DelaunayError::Outside)?;
    if let Location::OnVertex(v) = loc {
        return Ok((v, face));
    }
    let mut best = mesh.face_vertices(face)[0];
    let mut key = surface.distance_key(p, positions[best.index()]);
    for v in mesh.face_vertices(face) {
        let k = surface.distance_key(p, positions[v.index()]);
        if k < key {
            (best, key) = (v, k);
        }
    }
    loop {
        let mut moved = false;
        for u in mesh.neighbors(best) {
            let k = surface.distance_key(p, positions[u.index()]);
            if k < key {
                (best, key, moved) = (u, k, true);
            }
        }
        if !moved {
            return Ok((best, face));
        }
    }
}
