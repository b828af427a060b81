//! Evenly spread points in a rectangle: Bridson's Poisson-disc sampling with a background grid,
//! after boundary points along the four sides.

use crate::{PlaneError, Rect};
use glam::DVec2;
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The most points a map may hold (the `xtask map` limit; memory stays within a few GB).
pub const MAX_POINTS: usize = 50_000_000;

/// Candidates tried around each active point before it retires (Bridson's `k`).
const CANDIDATES: u32 = 12;

/// Coordinates the exact predicates handle without scaling (see `delaunay::predicates`).
const COORD_RANGE: std::ops::RangeInclusive<f64> = 1e-30..=1e30;

/// Checks a rectangle size and spacing before any work: positive, finite, within the exact
/// predicates' range, and not more than [`MAX_POINTS`] points.
///
/// # Errors
/// [`PlaneError::InvalidArgument`] naming the argument; [`PlaneError::TooManyPoints`].
pub fn validate(width: f64, height: f64, spacing: f64) -> Result<(), PlaneError> {
    for (name, value) in [("width", width), ("height", height), ("spacing", spacing)] {
        if !COORD_RANGE.contains(&value) {
            return Err(PlaneError::InvalidArgument { name, value });
        }
    }
    let estimated = estimated_points(width, height, spacing);
    if estimated.is_nan() || estimated > MAX_POINTS as f64 {
        return Err(PlaneError::TooManyPoints {
            estimated,
            limit: MAX_POINTS,
        });
    }
    Ok(())
}

/// An upper estimate of the point count: a maximal Poisson-disc set packs at most one point
/// per `(√3/2)·s²` (hexagonal packing), plus the boundary points and the four corners.
fn estimated_points(width: f64, height: f64, spacing: f64) -> f64 {
    let area = width * height / (0.866 * spacing * spacing);
    area + 2.0 * (width + height) / spacing + 8.0
}

/// Points at least `spacing` apart filling `[0, width] × [0, height]`: first the boundary
/// points (the four corners, then each side cut into equal steps of at least `spacing`), then
/// Bridson's Poisson-disc sampling of the interior grown from them, seeded and deterministic.
///
/// Every pair of points is at least `spacing` apart, except corners of a side shorter than
/// `spacing` (the corners are always there, so the map's edge is the rectangle). Points come
/// out sorted by background-grid cell, row by row, so that neighbours have close indices.
/// The first `boundary_count` points (see [`PoissonPoints`]) are the boundary ones, in
/// counter-clockwise order from `(0, 0)`.
///
/// # Errors
/// Those of [`validate`].
///
/// ```
/// let p = plane::poisson_disc(10.0, 5.0, 1.0, 7).unwrap();
/// assert!(p.points.len() > 40);
/// assert_eq!(p, plane::poisson_disc(10.0, 5.0, 1.0, 7).unwrap());
/// ```
pub fn poisson_disc(
    width: f64,
    height: f64,
    spacing: f64,
    seed: u64,
) -> Result<PoissonPoints, PlaneError> {
    validate(width, height, spacing)?;
    let rect = Rect::new(width, height);
    let mut grid = Grid::new(width, height, spacing)?;
    let mut points: Vec<DVec2> = try_vec(estimated_points(width, height, spacing) as usize)?;
    boundary_points(width, height, spacing, &mut points);
    let boundary_count = points.len();
    for (i, &p) in points.iter().enumerate() {
        grid.put(p, i as u32);
    }
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    // Active points in a bucket queue by grid row, each bucket a stack (flat linked lists):
    // the lowest row with an active point goes first, so the front sweeps the rectangle
    // upwards and its working set is a band of a few rows, which stays in cache (a random or
    // single-stack order wanders over the whole grid and waits on memory).
    let mut head: Vec<u32> = try_vec(grid.rows)?;
    head.resize(grid.rows, NONE);
    let mut next: Vec<u32> = try_vec(points.capacity())?;
    let push = |head: &mut [u32], next: &mut Vec<u32>, row: usize, id: u32| {
        if next.len() <= id as usize {
            next.resize(id as usize + 1, NONE);
        }
        next[id as usize] = head[row];
        head[row] = id;
    };
    for (i, &p) in points.iter().enumerate() {
        push(&mut head, &mut next, grid.row_of(p), i as u32);
    }
    let mut row = 0;
    let s2 = spacing * spacing;
    // Candidates on a circle just outside the spacing, at evenly turned angles from a random
    // start (a table of start directions and a rotation per step, no trigonometry per
    // attempt): denser sets and fewer failed tries than uniform candidates in the annulus
    // [s, 2s].
    let radius = spacing * (1.0 + 1e-7);
    let reach2 = (spacing + radius) * (spacing + radius);
    let (step_sin, step_cos) = (std::f64::consts::TAU / CANDIDATES as f64).sin_cos();
    let starts: Vec<DVec2> = (0..START_DIRECTIONS)
        .map(|i| {
            let angle = std::f64::consts::TAU * i as f64 / START_DIRECTIONS as f64;
            let (sin, cos) = angle.sin_cos();
            DVec2::new(cos, sin)
        })
        .collect();
    let mut near = [DVec2::INFINITY; GATHER];
    while row < grid.rows {
        let top = head[row];
        if top == NONE {
            row += 1;
            continue;
        }
        // The centre stays until an attempt fails: its neighbours are gathered once (every
        // point a candidate could conflict with lies within s + radius of it), and each point
        // it adds joins the list.
        head[row] = next[top as usize];
        let centre = points[top as usize];
        let mut count = grid.gather(centre, reach2, &mut near);
        loop {
            let mut dir = starts[(rng.next_u32() as usize) % START_DIRECTIONS];
            let mut found = None;
            for _ in 0..CANDIDATES {
                let c = centre + radius * dir;
                dir = DVec2::new(
                    dir.x * step_cos - dir.y * step_sin,
                    dir.x * step_sin + dir.y * step_cos,
                );
                if !(c.x > 0.0 && c.x < width && c.y > 0.0 && c.y < height) {
                    continue;
                }
                // Branch-free over the list: whether a candidate is free is unpredictable,
                // so an early exit costs more in mispredictions than the distances it saves.
                let nearest = near[..count].iter().fold(f64::INFINITY, |m, q| {
                    let d = q.distance_squared(c);
                    if d < m { d } else { m }
                });
                if nearest >= s2 {
                    found = Some(c);
                    break;
                }
            }
            let Some(c) = found else { break };
            let id = points.len() as u32;
            points.push(c);
            grid.put(c, id);
            let r = grid.row_of(c);
            push(&mut head, &mut next, r, id);
            row = row.min(r);
            // Packing bounds the list far below its room; gather again if it ever fills.
            if count < GATHER {
                near[count] = c;
                count += 1;
            } else {
                count = grid.gather(centre, reach2, &mut near);
            }
        }
    }
    // Interior points in grid order (each cell holds at most one point): spatial locality
    // for the triangulation and the mesh, and a deterministic order.
    let mut order: Vec<u32> = try_vec(points.len() - boundary_count)?;
    order.extend(grid.in_order().filter(|&i| i as usize >= boundary_count));
    let mut sorted = try_vec(points.len())?;
    sorted.extend_from_slice(&points[..boundary_count]);
    sorted.extend(order.iter().map(|&i| points[i as usize]));
    Ok(PoissonPoints {
        rect,
        spacing,
        points: sorted,
        boundary_count,
    })
}

/// The output of [`poisson_disc`].
#[derive(Clone, Debug, PartialEq)]
pub struct PoissonPoints {
    /// The rectangle filled.
    pub rect: Rect,
    /// The minimum distance between points.
    pub spacing: f64,
    /// Boundary points first, then the interior ones.
    pub points: Vec<DVec2>,
    /// How many of `points` lie on the rectangle's boundary.
    pub boundary_count: usize,
}

/// An empty `Vec` with room for `n` values, or a typed error instead of an abort.
pub(crate) fn try_vec<T>(n: usize) -> Result<Vec<T>, PlaneError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| PlaneError::OutOfMemory {
            bytes: n.saturating_mul(std::mem::size_of::<T>()),
        })?;
    Ok(v)
}

/// Corners and sides, counter-clockwise from the origin; each side cut into `⌊len / s⌋`
/// equal steps (at least one), so consecutive boundary points are at least `s` apart.
fn boundary_points(width: f64, height: f64, spacing: f64, out: &mut Vec<DVec2>) {
    let steps = |len: f64| ((len / spacing).floor() as usize).max(1);
    let (nx, ny) = (steps(width), steps(height));
    for i in 0..nx {
        out.push(DVec2::new(width * i as f64 / nx as f64, 0.0));
    }
    for i in 0..ny {
        out.push(DVec2::new(width, height * i as f64 / ny as f64));
    }
    for i in 0..nx {
        out.push(DVec2::new(width * (nx - i) as f64 / nx as f64, height));
    }
    for i in 0..ny {
        out.push(DVec2::new(0.0, height * (ny - i) as f64 / ny as f64));
    }
}

use quadedge::NONE;

/// Border cells around the grid, always empty, so neighbour lookups need no bounds checks.
const PAD: usize = 3;

/// Cells gathered around a centre: its own and every cell within three of it (7 × 7). A point
/// that a candidate at distance `s (1 + 1e-7)` from the centre could conflict with lies
/// within `s (2 + 1e-7)` of the centre, that is `(2 + 1e-7) √2 > 2.83` cell sides.
const GATHER: usize = 49;

/// Start directions of the candidate circles, from a table: no trigonometry per attempt.
const START_DIRECTIONS: usize = 1024;

/// Bridson's background grid: cells of side `s/√2` hold at most one point each. A cell keeps
/// its point's coordinates (infinite when empty, so an empty cell is simply far away) beside
/// its id: the hot test reads one array, without a branch for empty cells.
struct Grid {
    coords: Vec<DVec2>,
    ids: Vec<u32>,
    /// Row stride (columns plus both borders).
    stride: usize,
    cols: usize,
    rows: usize,
    inv_cell: f64,
    offsets: [isize; GATHER],
}

impl Grid {
    fn new(width: f64, height: f64, spacing: f64) -> Result<Self, PlaneError> {
        let cell = spacing / std::f64::consts::SQRT_2;
        let cols = (width / cell).floor() as usize + 1;
        let rows = (height / cell).floor() as usize + 1;
        let stride = cols + 2 * PAD;
        let offsets: [isize; GATHER] = std::array::from_fn(|i| {
            ((i / 7) as isize - 3) * stride as isize + (i % 7) as isize - 3
        });
        let len = stride * (rows + 2 * PAD);
        let mut coords = try_vec(len)?;
        coords.resize(len, DVec2::INFINITY);
        let mut ids = try_vec(len)?;
        ids.resize(len, NONE);
        Ok(Self {
            coords,
            ids,
            stride,
            cols,
            rows,
            inv_cell: 1.0 / cell,
            offsets,
        })
    }

    /// The index of the cell holding `p` (inside the rectangle).
    #[inline]
    fn cell_of(&self, p: DVec2) -> usize {
        let cx = ((p.x * self.inv_cell) as usize).min(self.cols - 1);
        let cy = ((p.y * self.inv_cell) as usize).min(self.rows - 1);
        (cy + PAD) * self.stride + cx + PAD
    }

    fn put(&mut self, p: DVec2, id: u32) {
        let i = self.cell_of(p);
        // Boundary points of a side shorter than s may share a cell: keep the first.
        if self.ids[i] == NONE {
            self.ids[i] = id;
            self.coords[i] = p;
        }
    }

    /// The grid row of `p` (inside the rectangle).
    #[inline]
    fn row_of(&self, p: DVec2) -> usize {
        ((p.y * self.inv_cell) as usize).min(self.rows - 1)
    }

    /// Copies the points within `√r2` of `p` to the front of `out`; returns their count.
    /// Branch-free: every cell is copied, the count only advances past a near one (empty
    /// cells hold infinite coordinates, so they are never near).
    #[inline]
    fn gather(&self, p: DVec2, r2: f64, out: &mut [DVec2; GATHER]) -> usize {
        let centre = self.cell_of(p);
        let mut count = 0;
        for &o in &self.offsets {
            let q = self.coords[centre.wrapping_add_signed(o)];
            out[count] = q;
            count += usize::from(q.distance_squared(p) < r2);
        }
        count
    }

    /// The points in row-major cell order.
    fn in_order(&self) -> impl Iterator<Item = u32> + '_ {
        self.ids.iter().copied().filter(|&i| i != NONE)
    }
}
