//! Resampling stencils: where each element of a new mesh sits in an old one, so that data on
//! the old mesh can be carried over (a world's layers through `World::resample`).
//!
//! * A **vertex** of the new mesh gets a stencil: the three corners of the old face that
//!   contains it and barycentric weights. On the sphere the weights are the planar
//!   barycentric coordinates of the point's central projection onto the face's plane (the
//!   triple products `p·(b×c)`, `p·(c×a)`, `p·(a×b)`, normalised): linear fields on the old
//!   triangle are reproduced exactly, and a point on an old vertex gets that vertex alone
//!   (weights `[1, 0, 0]`, all three corners that vertex), so data copies bit for bit.
//! * A **face** of the new mesh takes the old face containing its centroid.
//! * An **edge** of the new mesh takes, among the three edges of the old face containing its
//!   midpoint, the one whose midpoint is nearest (the edge itself when the midpoint lies on
//!   an old edge), directed like the new edge; so edge data and directed edge data map both
//!   directions, and a dual edge maps to the dual of the matching primal edge.
//! * In the plane, a point beyond the old mesh's border (which a Delaunay triangulation keeps
//!   convex) takes the nearest point of the border: the two ends of the nearest border edge,
//!   weighted by the projection, and that edge's face.
//!
//! Location walks from coherent hints: vertices start from a [`HintGrid`] cell (about an edge
//! from the answer), faces and edges from the face their first corner was found in, so each
//! query costs a step or two. Every containment decision is an exact predicate. The passes run
//! on all cores in fixed chunks of ids, each walking from its own hints, so the result is the
//! same bit for bit for any number of threads.

use crate::check::{check_len, pos};
use crate::hint::HintGrid;
use crate::{DelaunayError, Location, Plane, Sphere, Surface, locate};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;

/// A surface on which barycentric weights and midpoints are defined (the sphere and the plane).
pub trait Barycentric: Surface {
    /// Weights of `a`, `b`, `c` for `p` (inside the triangle or on its border): non-negative,
    /// summing to 1, exact at the corners.
    fn weights(&self, a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> [f64; 3];
    /// A point between `a` and `b` that [`locate`] finds where the edge's middle is (on the
    /// sphere any positive multiple of the great-circle midpoint will do).
    fn midpoint(&self, a: DVec3, b: DVec3) -> DVec3;
    /// A point inside the triangle `a, b, c` (its centroid, or a positive multiple of it).
    fn centroid(&self, a: DVec3, b: DVec3, c: DVec3) -> DVec3;
}

/// Normalises three non-negative areas to weights; a degenerate triangle (zero or non-finite
/// total) gives its first corner everything, so weights are always usable.
fn normalise(w: [f64; 3]) -> [f64; 3] {
    let w = w.map(|x| if x > 0.0 { x } else { 0.0 });
    let sum = w[0] + w[1] + w[2];
    if sum > 0.0 && sum.is_finite() {
        w.map(|x| x / sum)
    } else {
        [1.0, 0.0, 0.0]
    }
}

impl Barycentric for Sphere {
    fn weights(&self, a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> [f64; 3] {
        normalise([p.dot(b.cross(c)), p.dot(c.cross(a)), p.dot(a.cross(b))])
    }
    fn midpoint(&self, a: DVec3, b: DVec3) -> DVec3 {
        a + b
    }
    fn centroid(&self, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
        a + b + c
    }
}

impl Barycentric for Plane {
    fn weights(&self, a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> [f64; 3] {
        let area = |u: DVec3, v: DVec3, w: DVec3| (v - u).truncate().perp_dot((w - u).truncate());
        normalise([area(p, b, c), area(a, p, c), area(a, b, p)])
    }
    fn midpoint(&self, a: DVec3, b: DVec3) -> DVec3 {
        (a + b) * 0.5
    }
    fn centroid(&self, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
        (a + b + c) / 3.0
    }
}

/// Where the elements of a new mesh come from in an old one (see the [module](self) docs),
/// indexed by the new mesh's slots; dead slots of the new mesh hold invalid ids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stencils {
    /// Per new vertex slot: the three old corners (all [`Vertex::INVALID`] for a dead slot).
    pub corners: Vec<[Vertex; 3]>,
    /// Per new vertex slot: the corners' weights (non-negative, summing to 1).
    pub weights: Vec<[f32; 3]>,
    /// Per new vertex slot: the old face the vertex was found in (a hint for later queries).
    pub vertex_faces: Vec<Face>,
    /// Per new face slot: the old face containing the centroid (empty unless asked for).
    pub faces: Vec<Face>,
    /// Per new directed primal edge (index `2q` and `2q + 1`): the old directed primal edge
    /// matching it (empty unless asked for).
    pub edges: Vec<Edge>,
}

/// Which element kinds [`stencils`] computes sources for (vertices always).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StencilKinds {
    /// Sources of the new faces ([`Stencils::faces`]).
    pub faces: bool,
    /// Sources of the new edges ([`Stencils::edges`]).
    pub edges: bool,
}

impl StencilKinds {
    /// Vertices, faces and edges.
    pub const ALL: Self = Self {
        faces: true,
        edges: true,
    };
}

/// The stencils of every live element of `new_mesh` (positions `new_positions`) in `old_mesh`
/// (positions `old_positions`): vertices always, faces and edges as `kinds` asks.
///
/// # Errors
/// Positions too short or not finite (either mesh), an old mesh that is empty or not a
/// triangulation, a new point outside a planar old mesh ([`DelaunayError::Outside`]). Nothing
/// is returned partially.
///
/// ```
/// use delaunay::{Sphere, resample::{StencilKinds, stencils}};
/// let (old, old_pos) = sphere::fibonacci_sphere(2000, 1.0, 0.3, 1).unwrap();
/// let (new, new_pos) = sphere::fibonacci_sphere(500, 1.0, 0.3, 2).unwrap();
/// let s = stencils(&Sphere, &old, &old_pos, &new, &new_pos, StencilKinds::ALL).unwrap();
/// // A linear field is reproduced (up to the projection onto the old face's plane).
/// let f = |p: glam::DVec3| p.x + 2.0 * p.y;
/// for v in new.vertices() {
///     let [a, b, c] = s.corners[v.index()].map(|u| old_pos[u.index()]);
///     let w = s.weights[v.index()].map(f64::from);
///     let blended = w[0] * f(a) + w[1] * f(b) + w[2] * f(c);
///     assert!((blended - f(new_pos[v.index()])).abs() < 2e-2);
/// }
/// assert_eq!(s.faces.len(), new.face_slots());
/// assert_eq!(s.edges.len(), 2 * new.quad_slots());
/// ```
pub fn stencils<S: Barycentric + Sync>(
    surface: &S,
    old_mesh: &Mesh,
    old_positions: &[DVec3],
    new_mesh: &Mesh,
    new_positions: &[DVec3],
    kinds: StencilKinds,
) -> Result<Stencils, DelaunayError> {
    check_len(new_mesh, new_positions)?;
    let m = Meshes {
        surface,
        old_mesh,
        old_positions,
        new_mesh,
        new_positions,
    };
    let mut out = vertex_stencils(&m)?;
    if kinds.faces {
        out.faces = face_sources(&m, &out)?;
    }
    if kinds.edges {
        out.edges = edge_sources(&m, &out)?;
    }
    Ok(out)
}

/// The stencil of one point located at `loc` in the old mesh.
fn stencil_at<S: Barycentric>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    loc: Location,
) -> Result<([Vertex; 3], [f32; 3]), DelaunayError> {
    match loc {
        Location::OnVertex(v) => Ok(([v; 3], [1.0, 0.0, 0.0])),
        Location::InFace(f) => face_stencil(surface, mesh, positions, f, p),
        // The edge's left face holds the point on its border: one weight is zero.
        Location::OnEdge(e) => face_stencil(surface, mesh, positions, mesh.left(e), p),
        // Beyond a planar mesh's border: the nearest point of the border.
        Location::Outside(e) => {
            let (u, v) = (mesh.origin(e), mesh.dest(e));
            let t = border_t(pos(positions, u)?, pos(positions, v)?, p);
            Ok(([u, v, v], [(1.0 - t) as f32, t as f32, 0.0]))
        }
    }
}

/// The corners of face `f` and the weights of `p` in it.
fn face_stencil<S: Barycentric>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    f: Face,
    p: DVec3,
) -> Result<([Vertex; 3], [f32; 3]), DelaunayError> {
    let c = mesh.face_vertices(f);
    let [a, b, d] = [
        pos(positions, c[0])?,
        pos(positions, c[1])?,
        pos(positions, c[2])?,
    ];
    Ok((c, surface.weights(a, b, d, p).map(|x| x as f32)))
}

/// [`locate`], with a point beyond a planar mesh's border reported beyond the border edge
/// nearest to it (the walk stops at the first border edge that sees the point, which may be
/// far along the border).
fn locate_near<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    p: DVec3,
    hint: Option<Face>,
) -> Result<Location, DelaunayError> {
    let loc = locate(surface, mesh, positions, p, hint)?;
    let Location::Outside(mut e) = loc else {
        return Ok(loc);
    };
    let dist = |e: Edge| -> Result<f64, DelaunayError> {
        let (a, b) = (
            pos(positions, mesh.origin(e))?,
            pos(positions, mesh.dest(e))?,
        );
        Ok((a + (b - a) * border_t(a, b, p) - p)
            .truncate()
            .length_squared())
    };
    let mut best = dist(e)?;
    // Each step strictly nearer: at most one visit per border edge.
    for _ in 0..mesh.undirected_edge_count() {
        // The border edges before and after `e` (hole on their right, like `e`).
        let next = mesh
            .outgoing(mesh.dest(e))
            .find(|x| !mesh.right(*x).is_valid() && *x != e.sym());
        let prev = mesh
            .outgoing(mesh.origin(e))
            .find(|x| !mesh.left(*x).is_valid() && *x != e)
            .map(|x| x.sym());
        let mut moved = false;
        for x in [next, prev].into_iter().flatten() {
            let d = dist(x)?;
            if d < best {
                (e, best, moved) = (x, d, true);
            }
        }
        if !moved {
            break;
        }
    }
    Ok(Location::Outside(e))
}

/// The weight of `b` of the point of segment `a`–`b` (in the `x, y` plane) nearest to `p`.
fn border_t(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let ab = (b - a).truncate();
    let len2 = ab.length_squared();
    if len2 > 0.0 {
        ((p - a).truncate().dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The old face at a location (for a border edge outside a planar mesh, the face inside it).
fn face_at(mesh: &Mesh, loc: Location) -> Face {
    match loc {
        Location::Outside(e) => mesh.left(e),
        loc => loc.face(mesh).unwrap_or(Face::INVALID),
    }
}

/// Elements per task of the parallel passes. Fixed, so every chunk's walks start from the
/// same hints whatever the thread count, and the stencils come out bit for bit the same.
const CHUNK: usize = 4096;

/// The old and the new mesh of a [`stencils`] call.
struct Meshes<'a, S> {
    surface: &'a S,
    old_mesh: &'a Mesh,
    old_positions: &'a [DVec3],
    new_mesh: &'a Mesh,
    new_positions: &'a [DVec3],
}

impl<S: Barycentric> Meshes<'_, S> {
    /// [`locate_near`] in the old mesh.
    fn locate(&self, p: DVec3, hint: Option<Face>) -> Result<Location, DelaunayError> {
        locate_near(self.surface, self.old_mesh, self.old_positions, p, hint)
    }
}

/// The first error of per-chunk results, in chunk order (so the same for any thread count).
fn first_error(results: Vec<Result<(), DelaunayError>>) -> Result<(), DelaunayError> {
    results.into_iter().collect()
}

fn vertex_stencils<S: Barycentric + Sync>(m: &Meshes<'_, S>) -> Result<Stencils, DelaunayError> {
    check_len(m.old_mesh, m.old_positions)?;
    if m.old_mesh.face_count() == 0 {
        return Err(DelaunayError::TooFewVertices(m.old_mesh.vertex_count()));
    }
    let slots = m.new_mesh.vertex_slots();
    let mut corners = vec![[Vertex::INVALID; 3]; slots];
    let mut weights = vec![[0.0f32; 3]; slots];
    let mut vertex_faces = vec![Face::INVALID; slots];
    let grid = HintGrid::new(m.old_mesh, m.old_positions);
    // Chunks of vertex ids, each walking in id order: visiting new vertices in a spatial
    // order instead (a cube-map bucket sort) was measured slower (stencils and
    // `World::resample` of 1M onto 1M in spiral order: 1.36 s against 0.82 s of CPU), as the
    // new mesh's reads and writes then jump; meshes in spatial order (Hilbert-sorted) get
    // both coherent walks and sequential writes.
    let results = corners
        .par_chunks_mut(CHUNK)
        .zip(weights.par_chunks_mut(CHUNK))
        .zip(vertex_faces.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(k, ((c, w), f))| vertex_chunk(m, &grid, k * CHUNK, c, w, f))
        .collect();
    first_error(results)?;
    Ok(Stencils {
        corners,
        weights,
        vertex_faces,
        faces: Vec::new(),
        edges: Vec::new(),
    })
}

/// The stencils of new vertex slots `first..first + corners.len()`.
fn vertex_chunk<S: Barycentric>(
    m: &Meshes<'_, S>,
    grid: &HintGrid,
    first: usize,
    corners: &mut [[Vertex; 3]],
    weights: &mut [[f32; 3]],
    faces: &mut [Face],
) -> Result<(), DelaunayError> {
    let old_mesh = m.old_mesh;
    // Two grid cells (a cube-face side spans π/2): closer than that, the previous answer is
    // the better start (a walk of a step or two through memory that is still cached).
    let side = (grid.cell_count() as f64 / 6.0).sqrt();
    let near2 = (2.0 * std::f64::consts::FRAC_PI_2 / side).powi(2);
    let mut prev: Option<(DVec3, Face)> = None;
    for j in 0..corners.len() {
        let v = Vertex::new((first + j) as u32);
        if !m.new_mesh.is_vertex_alive(v) {
            continue;
        }
        let p = pos(m.new_positions, v)?;
        let start = match prev {
            Some((q, f)) if (p - q).length_squared() <= near2 * p.length_squared() => f,
            _ => grid.hint(p),
        };
        let start = (start.index() < old_mesh.face_slots() && old_mesh.is_face_alive(start))
            .then_some(start);
        let loc = m.locate(p, start)?;
        (corners[j], weights[j]) = stencil_at(m.surface, old_mesh, m.old_positions, p, loc)?;
        let f = face_at(old_mesh, loc);
        if f.is_valid() {
            prev = Some((p, f));
        }
        faces[j] = f;
    }
    Ok(())
}

/// A hint for a query near new vertex `v`: the old face `v` was found in, if still usable.
fn hint_of(old_mesh: &Mesh, s: &Stencils, v: Vertex) -> Option<Face> {
    let f = *s.vertex_faces.get(v.index())?;
    (f.index() < old_mesh.face_slots() && old_mesh.is_face_alive(f)).then_some(f)
}

fn face_sources<S: Barycentric + Sync>(
    m: &Meshes<'_, S>,
    s: &Stencils,
) -> Result<Vec<Face>, DelaunayError> {
    let mut faces = vec![Face::INVALID; m.new_mesh.face_slots()];
    let results = faces
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(k, out)| face_chunk(m, s, k * CHUNK, out))
        .collect();
    first_error(results)?;
    Ok(faces)
}

/// The sources of new face slots `first..first + out.len()`.
fn face_chunk<S: Barycentric>(
    m: &Meshes<'_, S>,
    s: &Stencils,
    first: usize,
    out: &mut [Face],
) -> Result<(), DelaunayError> {
    for (j, slot) in out.iter_mut().enumerate() {
        let f = Face::new((first + j) as u32);
        if !m.new_mesh.is_face_alive(f) {
            continue;
        }
        let c = m.new_mesh.face_vertices(f);
        let [a, b, d] = [
            pos(m.new_positions, c[0])?,
            pos(m.new_positions, c[1])?,
            pos(m.new_positions, c[2])?,
        ];
        let loc = m.locate(m.surface.centroid(a, b, d), hint_of(m.old_mesh, s, c[0]))?;
        *slot = face_at(m.old_mesh, loc);
    }
    Ok(())
}

fn edge_sources<S: Barycentric + Sync>(
    m: &Meshes<'_, S>,
    s: &Stencils,
) -> Result<Vec<Edge>, DelaunayError> {
    let mut edges = vec![Edge::INVALID; 2 * m.new_mesh.quad_slots()];
    let results = edges
        .par_chunks_mut(2 * CHUNK)
        .enumerate()
        .map(|(k, out)| edge_chunk(m, s, 2 * k * CHUNK, out))
        .collect();
    first_error(results)?;
    Ok(edges)
}

/// The sources of new directed edge slots `first..first + out.len()` (`first` even).
fn edge_chunk<S: Barycentric>(
    m: &Meshes<'_, S>,
    s: &Stencils,
    first: usize,
    out: &mut [Edge],
) -> Result<(), DelaunayError> {
    let (old_mesh, old_positions) = (m.old_mesh, m.old_positions);
    for j in (0..out.len()).step_by(2) {
        let e = Edge::primal((first + j) as u32);
        if !m.new_mesh.is_edge_alive(e) {
            continue;
        }
        let (u, v) = (m.new_mesh.origin(e), m.new_mesh.dest(e));
        let (a, b) = (pos(m.new_positions, u)?, pos(m.new_positions, v)?);
        let mid = m.surface.midpoint(a, b);
        let loc = m.locate(mid, hint_of(old_mesh, s, u))?;
        let old = match loc {
            Location::OnEdge(x) | Location::Outside(x) => x,
            loc => nearest_edge(
                m.surface,
                old_mesh,
                old_positions,
                face_at(old_mesh, loc),
                mid,
            )?,
        };
        // Directed like the new edge.
        let (oa, ob) = (
            pos(old_positions, old_mesh.origin(old))?,
            pos(old_positions, old_mesh.dest(old))?,
        );
        let old = if (ob - oa).dot(b - a) >= 0.0 {
            old
        } else {
            old.sym()
        };
        out[j] = old;
        out[j + 1] = old.sym();
    }
    Ok(())
}

/// The edge of face `f` whose midpoint is nearest `m`.
fn nearest_edge<S: Barycentric>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    f: Face,
    m: DVec3,
) -> Result<Edge, DelaunayError> {
    let mut best = (f64::INFINITY, Edge::INVALID);
    for e in mesh.face_edges(f) {
        let mid = surface.midpoint(
            pos(positions, mesh.origin(e))?,
            pos(positions, mesh.dest(e))?,
        );
        let key = surface.distance_key(m, mid);
        if key < best.0 || !best.1.is_valid() {
            best = (key, e);
        }
    }
    Ok(best.1)
}
