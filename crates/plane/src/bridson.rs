//! Bridson's Poisson-disc growth on a background grid, over a band of rows, so that the two
//! halves of a large rectangle can grow at once on two threads.
//!
//! The grid's cells have side `s/√2`, so each holds at most one point; a cell keeps its
//! point's coordinates (infinite when empty, so an empty cell is simply far away). Each part
//! of the rectangle owns a contiguous range of grid rows: [`grow`] only reads and writes the
//! rows of its slice, which is what lets the halves run in parallel without sharing memory.

use crate::PlaneError;
use glam::DVec2;
use quadedge::NONE;
use quadedge::internals::try_vec;
use rand_core::RngCore;
use rand_pcg::Pcg64Mcg;

/// Candidates tried around each active point per attempt (Bridson's `k`).
const CANDIDATES: u32 = 12;

/// Border cells around the grid, always empty, so neighbour lookups need no bounds checks.
pub(crate) const PAD: usize = 3;

/// Cells gathered around a centre: its own and every cell within three of it (7 × 7). A point
/// that a candidate at distance `s (1 + 1e-7)` from the centre could conflict with lies
/// within `s (2 + 1e-7)` of the centre, that is `(2 + 1e-7) √2 > 2.83` cell sides.
const GATHER: usize = 49;

/// Start directions of the candidate circles, from a table: no trigonometry per attempt.
const START_DIRECTIONS: usize = 1024;

/// The grid's geometry, shared by every part.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    /// Row stride (columns plus both borders).
    pub(crate) stride: usize,
    pub(crate) cols: usize,
    pub(crate) rows: usize,
    inv_cell: f64,
    offsets: [isize; GATHER],
    pub(crate) width: f64,
    pub(crate) height: f64,
    pub(crate) spacing: f64,
}

impl Shape {
    pub(crate) fn new(width: f64, height: f64, spacing: f64) -> Self {
        let cell = spacing / std::f64::consts::SQRT_2;
        let cols = (width / cell).floor() as usize + 1;
        let rows = (height / cell).floor() as usize + 1;
        let stride = cols + 2 * PAD;
        let offsets: [isize; GATHER] = std::array::from_fn(|i| {
            ((i / 7) as isize - 3) * stride as isize + (i % 7) as isize - 3
        });
        Self {
            stride,
            cols,
            rows,
            inv_cell: 1.0 / cell,
            offsets,
            width,
            height,
            spacing,
        }
    }

    /// Cells in the padded grid.
    pub(crate) fn len(&self) -> usize {
        self.stride * (self.rows + 2 * PAD)
    }

    /// The grid row of `p` (inside the rectangle).
    #[inline]
    pub(crate) fn row_of(&self, p: DVec2) -> usize {
        ((p.y * self.inv_cell) as usize).min(self.rows - 1)
    }

    /// The index of the cell holding `p` (inside the rectangle) in the padded grid.
    #[inline]
    pub(crate) fn cell_of(&self, p: DVec2) -> usize {
        let cx = ((p.x * self.inv_cell) as usize).min(self.cols - 1);
        (self.row_of(p) + PAD) * self.stride + cx + PAD
    }

    /// The lower `y` of grid row `r`.
    pub(crate) fn row_y(&self, r: usize) -> f64 {
        r as f64 * self.spacing / std::f64::consts::SQRT_2
    }
}

/// A contiguous range of the padded grid's rows: `cells[0]` is cell `first` of the grid.
pub(crate) struct Part<'a> {
    pub(crate) cells: &'a mut [DVec2],
    pub(crate) first: usize,
}

impl Part<'_> {
    /// Stores `p` in its cell unless the cell is taken (boundary points of a side shorter
    /// than the spacing may share one: the first stays).
    pub(crate) fn put(&mut self, shape: &Shape, p: DVec2) {
        let cell = &mut self.cells[shape.cell_of(p) - self.first];
        if !cell.x.is_finite() {
            *cell = p;
        }
    }

    /// Copies the points within `√r2` of `p` to the front of `out`; returns their count.
    /// Branch-free: every cell is copied, the count only advances past a near one (empty
    /// cells hold infinite coordinates, so they are never near).
    #[inline]
    fn gather(&self, shape: &Shape, p: DVec2, r2: f64, out: &mut [DVec2; GATHER]) -> usize {
        let centre = shape.cell_of(p) - self.first;
        let mut count = 0;
        for &o in &shape.offsets {
            let q = self.cells[centre.wrapping_add_signed(o)];
            out[count] = q;
            count += usize::from(q.distance_squared(p) < r2);
        }
        count
    }
}

/// Grows Bridson's set from the active points `seeds` (already in the grid), with candidates
/// restricted to `y_lo <= y < y_hi` inside the rectangle, until no active point remains.
/// Every centre reads and writes only cells within three rows of a point of that band, which
/// must lie inside `part`.
///
/// Active points sit in a bucket queue by grid row, each bucket a stack (flat linked lists):
/// the lowest row with an active point goes first, so the front sweeps the band upwards and
/// its working set is a few rows, which stays in cache.
///
/// # Errors
/// [`PlaneError::OutOfMemory`].
pub(crate) fn grow(
    shape: &Shape,
    part: &mut Part<'_>,
    seeds: &[DVec2],
    (y_lo, y_hi): (f64, f64),
    rng: &mut Pcg64Mcg,
) -> Result<(), PlaneError> {
    let mut points: Vec<DVec2> = try_vec(seeds.len())?;
    points.extend_from_slice(seeds);
    let mut head: Vec<u32> = try_vec(shape.rows)?;
    head.resize(shape.rows, NONE);
    let mut next: Vec<u32> = try_vec(seeds.len())?;
    let push = |head: &mut [u32], next: &mut Vec<u32>, row: usize, id: u32| {
        if next.len() <= id as usize {
            next.resize(id as usize + 1, NONE);
        }
        next[id as usize] = head[row];
        head[row] = id;
    };
    let mut row = shape.rows;
    for (i, &p) in points.iter().enumerate() {
        let r = shape.row_of(p);
        push(&mut head, &mut next, r, i as u32);
        row = row.min(r);
    }
    let (width, spacing) = (shape.width, shape.spacing);
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
    let (y_lo, y_hi) = (y_lo.max(0.0), y_hi.min(shape.height));
    let mut near = [DVec2::INFINITY; GATHER];
    while row < shape.rows {
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
        let mut count = part.gather(shape, centre, reach2, &mut near);
        loop {
            let mut dir = starts[(rng.next_u32() as usize) % START_DIRECTIONS];
            let mut found = None;
            for _ in 0..CANDIDATES {
                let c = centre + radius * dir;
                dir = DVec2::new(
                    dir.x * step_cos - dir.y * step_sin,
                    dir.x * step_sin + dir.y * step_cos,
                );
                if !(c.x > 0.0 && c.x < width && c.y > y_lo && c.y < y_hi && c.y > 0.0) {
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
            part.put(shape, c);
            let r = shape.row_of(c);
            push(&mut head, &mut next, r, id);
            row = row.min(r);
            // Packing bounds the list far below its room; gather again if it ever fills.
            if count < GATHER {
                near[count] = c;
                count += 1;
            } else {
                count = part.gather(shape, centre, reach2, &mut near);
            }
        }
    }
    Ok(())
}
