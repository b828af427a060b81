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
//! Location walks from coherent hints: vertices start from a
//! [`HintGrid`](crate::hint::HintGrid) cell (about an edge from the answer), faces from the
//! face their first corner was found in, edges from the face found for the centroid of the
//! new face beside them (or their origin's when faces are not asked for), so each query costs
//! a step or two. Every
//! containment decision is an exact predicate. The passes (`passes.rs`) run on all cores in
//! fixed chunks of ids, each walking from its own hints, so the result is the same bit for bit
//! for any number of threads.

use crate::check::{check_len, pos};
use crate::{DelaunayError, Location, Plane, Sphere, Surface, locate};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};

mod passes;

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
    let m = passes::Meshes {
        surface,
        old_mesh,
        old_positions,
        new_mesh,
        new_positions,
    };
    let mut out = passes::vertex_stencils(&m)?;
    if kinds.faces {
        out.faces = passes::face_sources(&m, &out)?;
    }
    if kinds.edges {
        out.edges = passes::edge_sources(&m, &out)?;
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
