//! Evenly spread points in a rectangle: Bridson's Poisson-disc sampling with a background grid,
//! after boundary points along the four sides.

use crate::bridson::{PAD, Part, Shape, grow};
use crate::{PlaneError, Rect};
use glam::DVec2;
use quadedge::internals::try_vec;
use rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The most points a map may hold (the `xtask map` limit; memory stays within a few GB).
pub const MAX_POINTS: usize = 50_000_000;

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
/// Rectangles of at least 256 grid rows grow their two halves on two threads (a second
/// thread is started for the call), each with its own generator, then fill the band between
/// them; the result is the same whether or not the thread could be started.
///
/// # Errors
/// Those of [`validate`]; [`PlaneError::OutOfMemory`].
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
    let shape = Shape::new(width, height, spacing);
    let mut cells: Vec<DVec2> = try_vec(shape.len())?;
    cells.resize(shape.len(), DVec2::INFINITY);
    let mut boundary: Vec<DVec2> = Vec::new();
    boundary_points(width, height, spacing, &mut boundary);
    let mut whole = Part {
        cells: &mut cells,
        first: 0,
    };
    for &p in &boundary {
        whole.put(&shape, p);
    }
    if shape.rows < PARALLEL_ROWS {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        grow(&shape, &mut whole, &boundary, (0.0, height), &mut rng)?;
    } else {
        grow_halves(&shape, &mut cells, &boundary, seed)?;
    }
    // Interior points in grid order (each cell holds at most one point): spatial locality
    // for the triangulation and the mesh, and a deterministic order.
    let mut points: Vec<DVec2> = try_vec(estimated_points(width, height, spacing) as usize)?;
    points.extend_from_slice(&boundary);
    points.extend(
        cells
            .iter()
            .filter(|p| p.x > 0.0 && p.x < width && p.y > 0.0 && p.y < height),
    );
    Ok(PoissonPoints {
        rect,
        spacing,
        points,
        boundary_count: boundary.len(),
    })
}

/// Rows of the band between the halves: each half reads at most three rows beyond its own
/// points, so the halves' slices of the grid stay apart.
const BAND: usize = 8;

/// Grids with at least this many rows grow their halves on two threads.
const PARALLEL_ROWS: usize = 256;

/// Grows the lower and upper halves of the rectangle at once (the upper one on a second
/// thread, or after the lower one if no thread can be started: the result is the same), each
/// from the boundary points on its side and with its own generator, leaving a band of
/// [`BAND`] rows between them empty; then fills the band from the points around it.
fn grow_halves(
    shape: &Shape,
    cells: &mut [DVec2],
    boundary: &[DVec2],
    seed: u64,
) -> Result<(), PlaneError> {
    let mid = shape.rows / 2;
    let (y1, y2) = (shape.row_y(mid), shape.row_y(mid + BAND));
    let split = (mid + 4 + PAD) * shape.stride;
    let low_seeds: Vec<DVec2> = boundary.iter().copied().filter(|p| p.y < y1).collect();
    let high_seeds: Vec<DVec2> = boundary.iter().copied().filter(|p| p.y > y2).collect();
    let mut low_rng = Pcg64Mcg::seed_from_u64(seed);
    let mut high_rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5851_F42D_4C95_7F2D);
    let (low, high) = cells.split_at_mut(split);
    let mut low = Part {
        cells: low,
        first: 0,
    };
    let mut high = Part {
        cells: high,
        first: split,
    };
    let (low_done, high_done) = std::thread::scope(|s| {
        let job = std::thread::Builder::new().spawn_scoped(s, || {
            grow(
                shape,
                &mut high,
                &high_seeds,
                (y2, shape.height),
                &mut high_rng,
            )
        });
        let low_done = grow(shape, &mut low, &low_seeds, (0.0, y1), &mut low_rng);
        let high_done = job
            .ok()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        (low_done, high_done)
    });
    low_done?;
    match high_done {
        Some(done) => done?,
        None => grow(
            shape,
            &mut high,
            &high_seeds,
            (y2, shape.height),
            &mut high_rng,
        )?,
    }
    // The band: every point within reach of it becomes active again.
    let from = (mid.saturating_sub(4) + PAD) * shape.stride;
    let to = ((mid + BAND + 4).min(shape.rows) + PAD) * shape.stride;
    let seeds: Vec<DVec2> = cells[from..to]
        .iter()
        .copied()
        .filter(|p| p.x.is_finite())
        .collect();
    let mut band_rng = Pcg64Mcg::seed_from_u64(seed ^ 0x2545_F491_4F6C_DD1D);
    let mut whole = Part { cells, first: 0 };
    grow(
        shape,
        &mut whole,
        &seeds,
        (0.0, shape.height),
        &mut band_rng,
    )
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
