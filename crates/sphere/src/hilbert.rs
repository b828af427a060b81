//! Hilbert curve orders of points on the sphere and in the plane, for
//! [`Mesh::reorder_vertices`](quadedge::Mesh::reorder_vertices).
//!
//! A Hilbert curve visits the cells of a `2^k × 2^k` grid so that consecutive cells are always
//! neighbours, and cells close in the plane are mostly close along the curve. Sorting points by
//! their cell's position along the curve gives ids that keep neighbours close in memory, which
//! is what mesh traversal needs once the mesh outgrows the caches.
//!
//! On the sphere, each direction is projected onto the face of the cube it points through
//! (the largest coordinate picks the face), and the six faces are visited one after another in
//! an order where consecutive faces share an edge.

use crate::SphereError;
use glam::{DVec2, DVec3};
use quadedge::{Mesh, Remap, ReorderError};
use rayon::prelude::*;

/// Bits per axis of the grid on each cube face: 2^29 cells per edge, far finer than any mesh
/// the 31-bit edge ids allow, and 3 + 2·29 bits fit one `u64` key.
const SPHERE_BITS: u32 = 29;
/// Bits per axis of the planar grid (2·31 bits in one `u64` key).
const PLANE_BITS: u32 = 31;

/// Position of cell `(x, y)` along the Hilbert curve of a `2^bits × 2^bits` grid
/// (`bits ≤ 32`; coordinates must be below `2^bits`).
///
/// ```
/// use sphere::internals::hilbert_index;
/// // The order-1 curve: (0,0) → (0,1) → (1,1) → (1,0).
/// let cells = [(0, 0), (0, 1), (1, 1), (1, 0)];
/// let d: Vec<u64> = cells.iter().map(|&(x, y)| hilbert_index(x, y, 1)).collect();
/// assert_eq!(d, [0, 1, 2, 3]);
/// ```
pub fn hilbert_index(x: u32, y: u32, bits: u32) -> u64 {
    // Three levels per table look-up, from the top. A level of zero bits above the grid
    // only toggles the swap, so padding `bits` to a multiple of three starts with the swap
    // toggled once per padded level.
    let levels = bits.div_ceil(STEP) * STEP;
    let pad = levels - bits;
    let (x, y) = (u64::from(x), u64::from(y));
    let mut state = (pad & 1) as usize;
    let mut d = 0u64;
    let mut shift = levels;
    while shift > 0 {
        shift -= STEP;
        let cell = ((x >> shift & 7) << 3 | (y >> shift & 7)) as usize;
        let entry = HILBERT_STEPS[state << 6 | cell];
        d = d << (2 * STEP) | u64::from(entry & 63);
        state = usize::from(entry >> 6);
    }
    d
}

/// Levels of the curve per look-up in [`HILBERT_STEPS`].
const STEP: u32 = 3;

/// The Hilbert curve as a state machine, three levels at a time. The state is how the current
/// sub-square is turned: bit 0 swaps `x` and `y`, bit 1 mirrors both (`v → 1 − v`); the two
/// commute. Entry `state << 6 | x3 << 3 | y3` (three bits of each coordinate) holds the six
/// bits of curve position in its low bits and the next state in its top two.
const HILBERT_STEPS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let mut state = i >> 6;
        let mut digits = 0;
        let mut level = 0;
        while level < 3 {
            let bx = (i >> (5 - level)) & 1;
            let by = (i >> (2 - level)) & 1;
            let (mut rx, mut ry) = if state & 1 == 1 { (by, bx) } else { (bx, by) };
            if state & 2 == 2 {
                rx ^= 1;
                ry ^= 1;
            }
            digits = digits << 2 | ((3 * rx) ^ ry);
            // Turn the quadrant so that its sub-curve starts where the parent curve enters it.
            if ry == 0 {
                state ^= if rx == 1 { 3 } else { 1 };
            }
            level += 1;
        }
        table[i] = (digits | state << 6) as u8;
        i += 1;
    }
    table
};

/// Maps `t` in `[0, 1]` to a cell coordinate in `0..2^bits`; NaN goes to 0 (saturating cast).
#[inline]
fn cell(t: f64, bits: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f64;
    (t * max).clamp(0.0, max) as u32
}

/// Sorts indices by key, ties by index: deterministic whatever the sort's stability and the
/// thread count (no two entries compare equal). On all cores.
fn order_by_keys(keys: impl IndexedParallelIterator<Item = u64>) -> Vec<u32> {
    let mut keyed: Vec<(u64, u32)> = keys.enumerate().map(|(i, k)| (k, i as u32)).collect();
    keyed.par_sort_unstable();
    keyed.into_par_iter().map(|(_, i)| i).collect()
}

/// Key of a direction: cube face in the top bits, Hilbert position on the face below.
fn sphere_key(p: DVec3) -> u64 {
    let a = p.abs();
    // Faces in the order +x, +y, +z, −x, −y, −z: consecutive ones share an edge.
    let (face, u, v, m) = if a.x >= a.y && a.x >= a.z {
        (if p.x >= 0.0 { 0 } else { 3 }, p.y, p.z, a.x)
    } else if a.y >= a.z {
        (if p.y >= 0.0 { 1 } else { 4 }, p.z, p.x, a.y)
    } else {
        (if p.z >= 0.0 { 2 } else { 5 }, p.x, p.y, a.z)
    };
    let (u, v) = (0.5 + 0.5 * u / m, 0.5 + 0.5 * v / m);
    let d = hilbert_index(cell(u, SPHERE_BITS), cell(v, SPHERE_BITS), SPHERE_BITS);
    (face << (2 * SPHERE_BITS)) | d
}

/// The Hilbert order of points on a sphere centred at the origin (any radius): `order[i]` is
/// the index of the point that should become vertex `i`, ready for
/// [`Mesh::reorder_vertices`](quadedge::Mesh::reorder_vertices).
///
/// Only directions matter. `O(n log n)` and deterministic: equal keys are ordered by index.
/// Points that are zero or not finite get some key without panicking.
///
/// ```
/// use glam::DVec3;
/// let p = sphere::fibonacci_points(1000, 1.0, 0.0, 0).unwrap();
/// let order = sphere::internals::hilbert_order_sphere(&p);
/// let mut sorted = order.clone();
/// sorted.sort();
/// assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
/// // Consecutive points along the curve are close.
/// let mean_step: f64 = order.windows(2).map(|w| p[w[0] as usize].distance(p[w[1] as usize])).sum::<f64>() / 999.0;
/// assert!(mean_step < 0.2);
/// ```
pub fn hilbert_order_sphere(points: &[DVec3]) -> Vec<u32> {
    order_by_keys(points.par_iter().map(|&p| sphere_key(p)))
}

/// The Hilbert order of points in the plane over their bounding box (see
/// [`hilbert_order_sphere`]). Non-finite coordinates are left out of the box and get some
/// key without panicking.
///
/// ```
/// use glam::DVec2;
/// let p = [DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(0.0, 1.0), DVec2::new(1.0, 1.0)];
/// assert_eq!(sphere::internals::hilbert_order_plane(&p), [0, 2, 3, 1]);
/// ```
pub fn hilbert_order_plane(points: &[DVec2]) -> Vec<u32> {
    let finite = points.iter().filter(|p| p.is_finite());
    let lo = finite.clone().fold(DVec2::INFINITY, |a, &p| a.min(p));
    let hi = finite.fold(DVec2::NEG_INFINITY, |a, &p| a.max(p));
    // One scale for both axes keeps cells square, so the curve's locality holds in both.
    let span = (hi - lo).max_element();
    let scale = if span > 0.0 && span.is_finite() {
        1.0 / span
    } else {
        0.0
    };
    order_by_keys(points.par_iter().map(|&p| {
        let t = (p - lo) * scale;
        hilbert_index(cell(t.x, PLANE_BITS), cell(t.y, PLANE_BITS), PLANE_BITS)
    }))
}

/// Renumbers a sphere mesh and its positions along the Hilbert curve of the positions:
/// [`hilbert_order_sphere`] then [`Mesh::reorder_vertices`]; `positions` (one per vertex
/// slot) is permuted the same way. Returns the remap for any other layer.
///
/// ```
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(500, 1.0, 0.5, 3).unwrap();
/// let before = pos.clone();
/// let remap = sphere::hilbert_sort_mesh(&mut mesh, &mut pos).unwrap();
/// mesh.check().unwrap();
/// assert!(delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos).is_ok());
/// assert_eq!(pos[remap.vertices[7] as usize], before[7]);
/// ```
///
/// # Errors
/// [`ReorderError::WrongLength`] when `positions` does not hold one point per vertex slot, or
/// the mesh has removed vertices (compact it first); the mesh and the positions are unchanged.
pub fn hilbert_sort_mesh(
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
) -> Result<Remap, ReorderError> {
    if positions.len() != mesh.vertex_slots() || mesh.vertex_count() != mesh.vertex_slots() {
        return Err(ReorderError::WrongLength {
            expected: mesh.vertex_count(),
            got: positions.len(),
        });
    }
    let order = hilbert_order_sphere(positions);
    let remap = mesh.reorder_vertices(&order)?;
    *positions = order.iter().map(|&i| positions[i as usize]).collect();
    Ok(remap)
}

/// The spherical Delaunay mesh of `points` with vertices in Hilbert order: vertex `i` is
/// `points[order[i]]`. Returns the mesh, its positions and `order` (the original index of each
/// vertex, for moving other per-point data). Sorting before triangulating gives the same
/// locality as [`hilbert_sort_mesh`] afterwards, and a faster build, since the triangulation
/// and the mesh build then work on nearby ids too.
///
/// ```
/// let p = sphere::fibonacci_points(2000, 1.0, 0.9, 1).unwrap();
/// let (mesh, pos, order) = sphere::sphere_mesh_hilbert(&p).unwrap();
/// assert_eq!(pos[5], p[order[5] as usize]);
/// assert!(delaunay::is_delaunay(&delaunay::Sphere, &mesh, &pos).is_ok());
/// ```
///
/// # Errors
/// As [`sphere_mesh`](crate::sphere_mesh); point indices in errors are indices into `points`.
pub fn sphere_mesh_hilbert(points: &[DVec3]) -> Result<(Mesh, Vec<DVec3>, Vec<u32>), SphereError> {
    // Checked on the input, so that errors name input indices directly.
    crate::order::check_input(points)?;
    let scale = crate::order::scale_for(points)?;
    crate::probe_memory(points.len())?;
    let mut keyed: Vec<(u64, u32)> = quadedge::internals::try_vec(points.len())?;
    keyed.par_extend(
        points
            .par_iter()
            .enumerate()
            .map(|(i, &p)| (sphere_key(p), i as u32)),
    );
    keyed.par_sort_unstable();
    refuse_duplicates(points, &keyed)?;
    let mut order: Vec<u32> = quadedge::internals::try_vec(points.len())?;
    order.par_extend(keyed.par_iter().map(|&(_, i)| i));
    drop(keyed);
    let mut sorted: Vec<DVec3> = quadedge::internals::try_vec(points.len())?;
    sorted.par_extend(order.par_iter().map(|&i| points[i as usize]));
    match mesh_of_sorted(sorted, scale) {
        Ok((mesh, pos)) => Ok((mesh, pos, order)),
        Err(SphereError::NotInConvexPosition { index }) => Err(SphereError::NotInConvexPosition {
            index: order.get(index).map_or(index, |&o| o as usize),
        }),
        Err(e) => Err(e),
    }
}

/// [`SphereError::Duplicate`] for the first pair of equal points along the curve. Equal points
/// have equal keys, so only runs of equal keys (one point each, almost always) are searched,
/// each sorted by coordinates.
fn refuse_duplicates(points: &[DVec3], keyed: &[(u64, u32)]) -> Result<(), SphereError> {
    let bits = |i: u32| {
        let p = points[i as usize];
        (p.x.to_bits(), p.y.to_bits(), p.z.to_bits(), i)
    };
    let mut run: Vec<(u64, u64, u64, u32)> = Vec::new();
    for group in keyed.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
        run.clear();
        run.extend(group.iter().map(|&(_, i)| bits(i)));
        run.sort_unstable();
        for w in run.windows(2) {
            let (a, b) = (w[0].3 as usize, w[1].3 as usize);
            if points[a] == points[b] {
                return Err(SphereError::Duplicate {
                    first: a.min(b),
                    second: a.max(b),
                });
            }
        }
    }
    Ok(())
}

/// The mesh of checked, duplicate-free points already in spatial order, keeping the points as
/// its positions. Its triangles are renumbered by lowest corner first: in insertion order they
/// would make the build read the mesh in random order.
fn mesh_of_sorted(
    points: Vec<DVec3>,
    scale: Option<f64>,
) -> Result<(Mesh, Vec<DVec3>), SphereError> {
    let parts = crate::triangulate::triangulate_sorted_with_twins(&points, scale)?;
    let (tris, twins) = crate::order::by_lowest_corner(parts, points.len())?;
    let mesh = crate::build_mesh(points.len(), &tris, twins.as_flattened())?;
    crate::encloses::check_encloses(&mesh, &points)?;
    Ok((mesh, points))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The curve one level at a time, turning the coordinates themselves.
    fn hilbert_index_by_levels(x: u32, y: u32, bits: u32) -> u64 {
        let (mut x, mut y) = (u64::from(x), u64::from(y));
        let n = 1u64 << bits;
        let mut d = 0u64;
        let mut s = n >> 1;
        while s > 0 {
            let rx = u64::from(x & s != 0);
            let ry = u64::from(y & s != 0);
            d += s * s * ((3 * rx) ^ ry);
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x;
                    y = n - 1 - y;
                }
                core::mem::swap(&mut x, &mut y);
            }
            s >>= 1;
        }
        d
    }

    #[test]
    fn table_curve_is_the_level_by_level_curve() {
        let mut r = 0x1234_5678_9abc_def0u64;
        for bits in 1..=32u32 {
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1 << bits) - 1
            };
            for _ in 0..2000 {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                let (x, y) = (r as u32 & mask, (r >> 32) as u32 & mask);
                assert_eq!(
                    hilbert_index(x, y, bits),
                    hilbert_index_by_levels(x, y, bits),
                    "({x}, {y}) at {bits} bits"
                );
            }
        }
    }
}
