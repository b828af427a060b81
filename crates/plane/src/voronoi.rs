//! Voronoi cells of a planar map, clipped to a rectangle, for drawing: around the
//! circumcentres, or around any other [`DualCentre`].

use crate::dual::{CellOptions, DualCentre, points_of};
use crate::{PlanarMap, Rect};
use glam::DVec2;
use quadedge::Vertex;

/// Clipped Voronoi cells, one convex polygon (counter-clockwise) per vertex slot, flat:
/// cell `i` is `points[offsets[i]..offsets[i + 1]]`. The ghost's and dead slots' cells are
/// empty.
#[derive(Clone, Debug, PartialEq)]
pub struct VoronoiCells {
    /// `vertex_slots + 1` offsets into `points`.
    pub offsets: Vec<u32>,
    /// The polygons' corners.
    pub points: Vec<[f64; 2]>,
}

impl VoronoiCells {
    /// The polygon of vertex `v` (empty for the ghost, dead or unknown vertices).
    pub fn cell(&self, v: Vertex) -> &[[f64; 2]] {
        let i = v.index();
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.points[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// The Voronoi cell of every real vertex of `map`, clipped to `clip`, with its corners where
/// `options` says ([`CellOptions`]: circumcentres by default; the centroid or a blend gives
/// rounder cells around thin triangles, and the cells of any choice still tile the rectangle).
///
/// Around an interior vertex the cell's corners are its faces' dual points in order. A hull
/// vertex's cell is unbounded: its two ghost faces are replaced by points far out along the
/// outward normals of its two hull edges (far enough to lie outside `clip`), so clipping gives
/// the right polygon.
///
/// ```
/// use plane::{CellOptions, DualCentre};
/// let pts = plane::poisson_disc(8.0, 6.0, 1.0, 1).unwrap();
/// let map = plane::triangulate(&pts.points).unwrap();
/// let cells = plane::voronoi_cells(&map, pts.rect, &CellOptions::default());
/// let area: f64 = map.mesh.vertices().map(|v| {
///     let c = cells.cell(v);
///     (0..c.len()).map(|i| { let (p, q) = (c[i], c[(i + 1) % c.len()]); p[0] * q[1] - p[1] * q[0] }).sum::<f64>() / 2.0
/// }).sum();
/// assert!((area - 48.0).abs() < 1e-9);
/// let centroids = CellOptions::with_centre(DualCentre::Centroid).unwrap();
/// let cells = plane::voronoi_cells(&map, pts.rect, &centroids);
/// assert_eq!(cells.offsets.len(), map.mesh.vertex_slots() + 1);
/// ```
pub fn voronoi_cells(map: &PlanarMap, clip: Rect, options: &CellOptions) -> VoronoiCells {
    cells_around(map, clip, options.centre())
}

/// The cells around a valid choice of dual points.
fn cells_around(map: &PlanarMap, clip: Rect, choice: DualCentre) -> VoronoiCells {
    let mesh = &map.mesh;
    let duals = points_of(mesh, &map.positions, map.ghost, choice);
    let far = 4.0 * (clip.size().length() + (map.rect.size().length()));
    let slots = mesh.vertex_slots();
    let mut offsets = Vec::with_capacity(slots + 1);
    let mut points: Vec<[f64; 2]> = Vec::with_capacity(6 * slots);
    let mut poly: Vec<DVec2> = Vec::with_capacity(16);
    let mut scratch: Vec<DVec2> = Vec::with_capacity(16);
    offsets.push(0u32);
    for i in 0..slots {
        let v = Vertex::new(i as u32);
        if mesh.is_vertex_alive(v) && v != map.ghost {
            poly.clear();
            cell_polygon(map, &duals, v, far, &mut poly);
            clip_to(&mut poly, &mut scratch, clip);
            points.extend(poly.iter().map(|p| [p.x, p.y]));
        }
        offsets.push(points.len() as u32);
    }
    VoronoiCells { offsets, points }
}

/// The (unclipped) cell of real vertex `v` around the faces' dual points, counter-clockwise.
fn cell_polygon(map: &PlanarMap, duals: &[glam::DVec3], v: Vertex, far: f64, out: &mut Vec<DVec2>) {
    let mesh = &map.mesh;
    let p = |u: Vertex| map.positions[u.index()];
    // Start just after the edge to the ghost, if any, so the real faces come in one run.
    let start = mesh
        .outgoing(v)
        .find(|&e| mesh.dest(e) == map.ghost)
        .map(|e| mesh.origin_next(e));
    let first = start.unwrap_or_else(|| mesh.vertex_edge(v));
    let mut e = first;
    loop {
        let f = mesh.left(e);
        // A hole (a face removed by an edit) contributes no corner.
        if f.is_valid() && !crate::is_ghost_face(mesh, map.ghost, f) {
            out.push(duals[f.index()].truncate());
        }
        e = mesh.origin_next(e);
        if e == first {
            break;
        }
    }
    if let Some(first) = start {
        // `first` is v → next along the hull; the edge before the ghost is v → prev.
        let next = mesh.dest(first);
        let to_ghost = mesh.origin_prev(first);
        let prev = mesh.dest(mesh.origin_prev(to_ghost));
        let outward = |from: Vertex, to: Vertex| {
            let d = (p(to) - p(from)).truncate().normalize_or_zero();
            DVec2::new(d.y, -d.x)
        };
        let n_next = outward(v, next);
        let n_prev = outward(prev, v);
        let (Some(&last_cc), Some(&first_cc)) = (out.last(), out.first()) else {
            return;
        };
        out.push(last_cc + far * n_prev);
        out.push(p(v).truncate() + far * (n_prev + n_next));
        out.push(first_cc + far * n_next);
    }
}

/// Sutherland–Hodgman clipping of a convex polygon to a rectangle.
fn clip_to(poly: &mut Vec<DVec2>, scratch: &mut Vec<DVec2>, r: Rect) {
    // Each half-plane as (axis, bound, keep-below).
    for (axis, bound, below) in [
        (0, r.min.x, false),
        (0, r.max.x, true),
        (1, r.min.y, false),
        (1, r.max.y, true),
    ] {
        let inside = |q: DVec2| {
            if below {
                q[axis] <= bound
            } else {
                q[axis] >= bound
            }
        };
        scratch.clear();
        let k = poly.len();
        for i in 0..k {
            let (a, b) = (poly[i], poly[(i + 1) % k]);
            let (ia, ib) = (inside(a), inside(b));
            if ia {
                scratch.push(a);
            }
            if ia != ib {
                let t = (bound - a[axis]) / (b[axis] - a[axis]);
                let mut q = a + t * (b - a);
                q[axis] = bound;
                scratch.push(q);
            }
        }
        std::mem::swap(poly, scratch);
    }
}
