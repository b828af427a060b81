//! The planar Delaunay triangulation closed by a ghost vertex: input checks, the insertion
//! order and the first triangle, then [`Triangulator`] and one bulk mesh build.
//!
//! The triangulator produces triangles and their half-edge twins with the ghost triangles
//! already in place, so the quad-edge mesh is built in one pass
//! ([`Mesh::from_half_edges`]), without searching for twins and without a separate closure.

use crate::order::{MAX_ORDERED, insertion_order};
use crate::predicates::orient;
use crate::triangulator::Triangulator;
use crate::{MAX_POINTS, PlanarMap, PlaneError, Rect};
use glam::{DVec2, DVec3};
use quadedge::internals::try_vec;
use quadedge::{Mesh, Vertex};

/// Largest coordinate magnitude accepted: products of four differences stay inside `f64`.
const MAX_COORD: f64 = 1e30;
/// Smallest nonzero coordinate magnitude accepted: nonzero differences stay far from
/// underflow in the exact predicates.
const MIN_COORD: f64 = 1e-40;

/// The planar Delaunay triangulation of `points`, closed by one ghost vertex joined to every
/// hull vertex: vertex `i` is point `i`, the ghost is vertex `points.len()`.
///
/// Exact: every decision is an exact predicate on the input coordinates, so every real face
/// is counter-clockwise, every real edge passes the exact in-circle test with both
/// neighbours and the hull is convex (an arbitrary diagonal in exactly co-circular quads).
/// Collinear points on the hull are all hull vertices (no flat triangles). Runs in expected
/// `O(n log n)` for any input (randomized rounds), about linear for evenly spread points.
///
/// # Errors
/// [`PlaneError::BadPoints`] for fewer than 3 points, a coordinate that is not finite, beyond
/// `±1e30` or nonzero below `1e-40` in magnitude, or all points on one line;
/// [`PlaneError::Duplicate`] for two equal points; [`PlaneError::TooManyPoints`] beyond
/// [`MAX_POINTS`]; [`PlaneError::OutOfMemory`].
///
/// ```
/// use glam::DVec2;
/// let pts = [DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(1.0, 1.5)];
/// let map = plane::triangulate(&pts).unwrap();
/// // Three real triangles would need a flat one: the side 0-2-1 is hull, so two real faces.
/// assert_eq!(map.real_faces().count(), 2);
/// assert_eq!(map.mesh.face_count(), 2 + 4);
/// ```
pub fn triangulate(points: &[DVec2]) -> Result<PlanarMap, PlaneError> {
    let (tris, rect) = half_edges_in(points)?;
    let n = points.len();
    let mesh = Mesh::from_half_edges(n + 1, &tris.triangles, &tris.twins)?;
    let solid_faces = tris.solid as usize;
    drop(tris);
    let mut positions: Vec<DVec3> = try_vec(n + 1)?;
    positions.extend(points.iter().map(|p| p.extend(0.0)));
    positions.push((0.5 * (rect.min + rect.max)).extend(0.0));
    Ok(PlanarMap {
        mesh,
        positions,
        ghost: Vertex::new(n as u32),
        rect,
        solid_faces,
    })
}

/// A ghost-closed triangulation as flat arrays, before any mesh is built: what
/// [`triangulate_half_edges`] returns and [`Mesh::from_half_edges`] takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HalfEdges {
    /// Counter-clockwise triangles; ghost triangles have `ghost` as a corner. The solid ones
    /// come first, sorted by their lowest corner (so faces follow the vertex order), then the
    /// ghost ones, sorted by their lowest real corner: as in Red Blob's dual mesh, triangle
    /// `t` is a ghost exactly when `t >= solid`, and half-edge `h` belongs to a ghost triangle
    /// exactly when `h >= 3 * solid`, with no lookup.
    pub triangles: Vec<[u32; 3]>,
    /// `twins[3t + k]` is the half-edge opposite to the one from corner `k` to corner `k + 1`
    /// of triangle `t`; every half-edge has one (the triangulation is closed).
    pub twins: Vec<u32>,
    /// The ghost vertex's id: the number of points.
    pub ghost: u32,
    /// Number of solid (real) triangles: `triangles[..solid]` are real, the rest ghosts.
    pub solid: u32,
}

/// The same triangulation as [`triangulate`] without building the quad-edge mesh: triangles
/// (the ghost ones included) and half-edge twins, as half-edge triangulators such as
/// delaunator produce them.
///
/// # Errors
/// As [`triangulate`].
///
/// ```
/// use glam::DVec2;
/// let pts = [DVec2::ZERO, DVec2::X, DVec2::Y, DVec2::ONE];
/// let t = plane::triangulate_half_edges(&pts).unwrap();
/// // 2 real triangles and 4 ghost ones (one per hull edge).
/// assert_eq!(t.triangles.len(), 6);
/// assert_eq!(t.triangles.iter().filter(|c| c.contains(&t.ghost)).count(), 4);
/// ```
pub fn triangulate_half_edges(points: &[DVec2]) -> Result<HalfEdges, PlaneError> {
    Ok(half_edges_in(points)?.0)
}

/// [`triangulate_half_edges`] and the points' bounding box.
fn half_edges_in(points: &[DVec2]) -> Result<(HalfEdges, Rect), PlaneError> {
    let n = points.len();
    if n < 3 {
        return Err(PlaneError::BadPoints("fewer than three points"));
    }
    if n > MAX_POINTS.min(MAX_ORDERED - 1) {
        return Err(PlaneError::TooManyPoints {
            estimated: n as f64,
            limit: MAX_POINTS,
        });
    }
    let (lo, hi) = bounds(points)?;
    let mut order = insertion_order(points, lo, hi)?;
    let first = first_triangle(points, &mut order)?;
    let mut t = Triangulator::new(points, first)?;
    for &v in &order[3..] {
        t.insert(v)?;
    }
    drop(order);
    // Faces in vertex order: the mesh build (and later traversals) then walk vertices and
    // faces together instead of jumping through memory in insertion order.
    let tris = sort_by_vertex(n, &t.corners, &t.twins)?;
    Ok((tris, Rect { min: lo, max: hi }))
}

/// The bounding box, after checking every coordinate.
fn bounds(points: &[DVec2]) -> Result<(DVec2, DVec2), PlaneError> {
    let (mut lo, mut hi) = (points[0], points[0]);
    let mut bad = false;
    for &p in points {
        let a = p.abs();
        // NaN fails both comparisons, so `!(…)` catches it.
        bad |= !(a.x <= MAX_COORD && a.y <= MAX_COORD);
        bad |= (a.x < MIN_COORD && a.x != 0.0) || (a.y < MIN_COORD && a.y != 0.0);
        lo = lo.min(p);
        hi = hi.max(p);
    }
    if bad {
        return Err(PlaneError::BadPoints(
            "a coordinate is not finite, beyond ±1e30, or nonzero below 1e-40 in magnitude",
        ));
    }
    Ok((lo, hi))
}

/// Moves a first triangle to the front of `order` (the first point, the next one distinct
/// from it, the next one off their line) and returns it counter-clockwise.
fn first_triangle(points: &[DVec2], order: &mut [u32]) -> Result<[u32; 3], PlaneError> {
    let p = |i: u32| points[i as usize];
    let a = order[0];
    let Some(ib) = order.iter().position(|&i| p(i) != p(a)) else {
        return Err(PlaneError::Duplicate {
            first: a as usize,
            second: order[1] as usize,
        });
    };
    order.swap(1, ib);
    let b = order[1];
    let Some(ic) = (2..order.len()).find(|&k| orient(p(a), p(b), p(order[k])) != 0.0) else {
        return Err(PlaneError::BadPoints("all points on one line"));
    };
    order.swap(2, ic);
    let c = order[2];
    Ok(if orient(p(a), p(b), p(c)) > 0.0 {
        [a, b, c]
    } else {
        [a, c, b]
    })
}

/// Triangles renumbered by their lowest corner (a counting sort), the ghost ones after all
/// solid ones (by their lowest real corner), twins remapped: the mesh build then walks
/// vertices and faces in the same order, and ghosts are a range.
fn sort_by_vertex(n: usize, corners: &[[u32; 3]], twins: &[u32]) -> Result<HalfEdges, PlaneError> {
    // Buckets 0..n: solid triangles by lowest corner; n..2n: ghosts by lowest real corner.
    let key = |c: &[u32; 3]| {
        let low = c[0].min(c[1]).min(c[2]) as usize;
        if c.contains(&(n as u32)) {
            n + low
        } else {
            low
        }
    };
    let mut start: Vec<u32> = try_vec(2 * n + 1)?;
    start.resize(2 * n + 1, 0);
    for c in corners {
        start[key(c) + 1] += 1;
    }
    for k in 0..2 * n {
        start[k + 1] += start[k];
    }
    let solid = start[n];
    let mut new_of: Vec<u32> = try_vec(corners.len())?;
    new_of.extend(corners.iter().map(|c| {
        let slot = &mut start[key(c)];
        *slot += 1;
        *slot - 1
    }));
    drop(start);
    let mut sorted = try_vec(corners.len())?;
    sorted.resize(corners.len(), [0u32; 3]);
    let mut new_twins = try_vec(twins.len())?;
    new_twins.resize(twins.len(), 0u32);
    for (t, c) in corners.iter().enumerate() {
        let nt = new_of[t] as usize;
        sorted[nt] = *c;
        for k in 0..3 {
            let h = twins[3 * t + k];
            new_twins[3 * nt + k] = 3 * new_of[h as usize / 3] + h % 3;
        }
    }
    Ok(HalfEdges {
        triangles: sorted,
        twins: new_twins,
        ghost: n as u32,
        solid,
    })
}
