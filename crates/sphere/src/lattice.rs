//! The Fibonacci lattice path of the triangulation, on all cores.
//!
//! Points of the lattice are in latitude order: index `i` lies at height `1 − 2i/(n − 1)`.
//! So the sphere is cut into latitude bands of consecutive indices, and each band, widened by
//! an overlap of a few latitude rings on both sides, is triangulated on its own (the exact
//! lattice path of [`crate::triangulate`]'s module, one band per rayon task). A band keeps the
//! triangles it *owns* (lowest vertex index inside the band, so each triangle has one owner)
//! and proves each one global: the spherical cap beyond the triangle's plane must end short of
//! the points outside the band (a floating-point test with a margin far above its rounding
//! error), so no point of another band lies beyond the plane and the triangle is a face of the
//! hull of all points. The bands' triangles are then concatenated in band order, and the
//! half-edges that cross from one band's triangles to another's are paired by their endpoints.
//!
//! The bands depend on the point count only, never on the thread count, so the result is the
//! same bits with any number of threads. Should a band fail to prove a triangle, or the
//! triangle count or the pairing come out wrong (a co-circular tie decided differently by two
//! bands), the whole lattice is triangulated on one core instead: same exact hull.

use crate::SphereError;
use crate::order::{check_input, scale_for, try_vec};
use crate::triangulate::{Hint, Parts, Triangulator, triangulate_with_twins};
use glam::DVec3;
use quadedge::NONE;
use rayon::prelude::*;

/// [`triangulate`](crate::triangulate) for points in Fibonacci-lattice order, as [`crate::fibonacci_points`] makes
/// them without perturbation: the same exact result, faster. (A perturbed index turns its
/// point by up to 2.4 rad around the axis, which breaks the lattice: use [`triangulate`](crate::triangulate).)
///
/// Instead of sorting, points are inserted in index order, which sweeps the sphere from pole
/// to pole, so the working set is one latitude ring. Each walk starts at the lattice neighbour
/// `i − F_k` (a Fibonacci number: the golden spiral puts index-distance-`F_k` points next to
/// each other) that lies closest to point `i`. The hint only speeds up point location; every
/// decision is still an exact predicate, so any point set gives its correct triangulation
/// here too, only slower if it is not in lattice order. Exact duplicates are caught by the
/// hull predicates and reported as [`SphereError::NotInConvexPosition`] rather than
/// [`SphereError::Duplicate`].
///
/// ```
/// let p = sphere::fibonacci_points(1000, 1.0, 0.0, 3).unwrap();
/// let mut a = sphere::triangulate_fibonacci(&p).unwrap();
/// let mut b = sphere::triangulate(&p).unwrap();
/// let canon = |t: &mut Vec<[u32; 3]>| {
///     for x in t.iter_mut() {
///         let k = (0..3).min_by_key(|&k| x[k]).unwrap();
///         x.rotate_left(k);
///     }
///     t.sort();
/// };
/// canon(&mut a);
/// canon(&mut b);
/// assert_eq!(a, b);
/// ```
pub fn triangulate_fibonacci(points: &[DVec3]) -> Result<Vec<[u32; 3]>, SphereError> {
    Ok(triangulate_fibonacci_with_twins(points)?.0)
}

/// [`triangulate_fibonacci`] with each half-edge's twin (see
/// [`Mesh::from_half_edges`](quadedge::Mesh::from_half_edges)): in latitude bands on all
/// cores when the lattice is large enough, else on one.
pub(crate) fn triangulate_fibonacci_with_twins(points: &[DVec3]) -> Result<Parts, SphereError> {
    let n = check_input(points)?;
    if scale_for(points)?.is_some() || !crate::points::looks_like_lattice(points) {
        return triangulate_with_twins(points);
    }
    let layout = Layout::new(n);
    if layout.bands > 1
        && let Some(parts) = in_bands(points, &layout)?
    {
        return Ok(parts);
    }
    match lattice_hull(points, false)? {
        Some(parts) => Ok(parts),
        None => triangulate_with_twins(points),
    }
}

/// The lattice path on `points`, consecutive points of a Fibonacci lattice in index order
/// (the whole lattice or one latitude band of it), indices local to the slice: walks start
/// at the lattice neighbour `i − F_k` nearest to point `i` (see
/// [`triangulate_fibonacci`](crate::triangulate_fibonacci)). `None` when the walks ran over
/// budget: the input only looked like a lattice.
///
/// `spread_first` inserts 256 points spread over the range before the sweep: needed for a
/// band that does not start at the pole, and left out at the pole so that meshes below the
/// banded size keep the numbering they always had.
pub(crate) fn lattice_hull(
    points: &[DVec3],
    spread_first: bool,
) -> Result<Option<Parts>, SphereError> {
    let n = points.len();
    let mut fib = vec![1u32, 2];
    while let Some(&f) = fib.last() {
        let g = f as u64 + fib[fib.len() - 2] as u64;
        if g >= n as u64 {
            break;
        }
        fib.push(g as u32);
    }
    let hint = Hint::Lattice {
        fib,
        k: 0,
        spread: spread_first,
    };
    let mut t = Triangulator::new(points, None, hint)?;
    // A lattice walk is a few steps per point; far more means the input only looked like a
    // lattice at the sampled points: the caller starts again on the general path.
    t.walk_budget = Some(64 * n as u64 + 10_000);
    t.run()?;
    Ok((!t.over_budget).then(|| t.into_parts()))
}

/// Fewest points a band owns: below this, the overlap and the per-band start cost more than
/// the parallelism brings.
const MIN_BAND: usize = 1 << 16;
/// Most bands: enough to balance 64 threads.
const MAX_BANDS: usize = 64;
/// Overlap on each side of a band, in latitude rings (one ring: the `√(4πn)` indices that
/// step the height by one lattice spacing). A Delaunay triangle's circumcircle spans about
/// one spacing, so two rings leave room; a band that could not prove a triangle global sends
/// the whole lattice to the one-core path, so a short overlap costs time, never correctness.
const OVERLAP_RINGS: f64 = 1.0;

/// How `n` lattice points are cut into bands: a function of `n` only.
struct Layout {
    n: usize,
    bands: usize,
    overlap: usize,
}

impl Layout {
    fn new(n: usize) -> Self {
        let ring = (4.0 * core::f64::consts::PI * n as f64).sqrt();
        let overlap = (OVERLAP_RINGS * ring) as usize + 64;
        // A band owns at least 32 overlaps, so the overlap costs at most 1/16 more work.
        let bands = (n / MIN_BAND.max(32 * overlap)).clamp(1, MAX_BANDS);
        Self { n, bands, overlap }
    }

    /// Indices band `b` owns.
    fn owned(&self, b: usize) -> core::ops::Range<usize> {
        b * self.n / self.bands..(b + 1) * self.n / self.bands
    }
}

/// One band's proven triangles (global vertex ids) with their twins as band-local half-edge
/// ids, `NONE` for a half-edge whose twin another band owns; those are listed in `cross`
/// with their endpoints' key.
struct Band {
    tris: Vec<[u32; 3]>,
    twins: Vec<u32>,
    cross: Vec<(u64, u32)>,
}

/// The lattice triangulated band by band, or `None` when a band could not prove its
/// triangles (the caller then runs the one-core path).
fn in_bands(points: &[DVec3], layout: &Layout) -> Result<Option<Parts>, SphereError> {
    let bands: Option<Vec<Band>> = (0..layout.bands)
        .into_par_iter()
        .map(|b| band(points, layout, b))
        .collect();
    let Some(bands) = bands else {
        return Ok(None);
    };
    let n = layout.n;
    let total: usize = bands.iter().map(|b| b.tris.len()).sum();
    if total != 2 * n - 4 {
        return Ok(None);
    }
    // Each band's triangles go to their place in the whole, all bands at once.
    let mut tris = try_vec(total)?;
    tris.resize(total, [0; 3]);
    let mut twins: Vec<u32> = try_vec(3 * total)?;
    twins.resize(3 * total, NONE);
    let mut pieces = Vec::with_capacity(bands.len());
    let (mut tris_rest, mut twins_rest) = (&mut tris[..], &mut twins[..]);
    let mut first = 0;
    for b in &bands {
        let (t, tr) = tris_rest.split_at_mut(b.tris.len());
        let (w, wr) = twins_rest.split_at_mut(3 * b.tris.len());
        pieces.push((b, t, w, 3 * first as u32));
        (tris_rest, twins_rest) = (tr, wr);
        first += b.tris.len();
    }
    pieces.into_par_iter().for_each(|(b, t, w, off)| {
        t.copy_from_slice(&b.tris);
        for (out, &x) in w.iter_mut().zip(&b.twins) {
            *out = if x == NONE { NONE } else { x + off };
        }
    });
    let mut cross: Vec<(u64, u32)> = Vec::new();
    first = 0;
    for b in bands {
        let off = 3 * first as u32;
        cross.extend(b.cross.iter().map(|&(k, h)| (k, h + off)));
        first += b.tris.len();
    }
    // Each crossing edge appears twice, once from each side, running opposite ways.
    cross.par_sort_unstable();
    if !cross.len().is_multiple_of(2) {
        return Ok(None);
    }
    let ends = |h: u32| {
        let t = tris[h as usize / 3];
        (t[h as usize % 3], t[(h as usize + 1) % 3])
    };
    for pair in cross.chunks_exact(2) {
        let ((k0, h0), (k1, h1)) = (pair[0], pair[1]);
        let ((a, b), (c, d)) = (ends(h0), ends(h1));
        if k0 != k1 || a != d || b != c {
            return Ok(None);
        }
        twins[h0 as usize] = h1;
        twins[h1 as usize] = h0;
    }
    if twins.par_iter().any(|&t| t == NONE) {
        return Ok(None);
    }
    Ok(Some((tris, twins)))
}

/// Band `b`: the lattice path on its widened index range, keeping the triangles it owns once
/// each is proven a face of the whole hull; `None` when one is not. The kept triangles and
/// their twins are packed to the front of the band's own arrays, in the band's order (made
/// along the sweep, so nearby triangles are nearby in it).
fn band(points: &[DVec3], layout: &Layout, b: usize) -> Option<Band> {
    let n = layout.n;
    let own = layout.owned(b);
    let lo = own.start.saturating_sub(layout.overlap);
    let hi = (own.end + layout.overlap).min(n);
    let (mut tv, mut twin) = lattice_hull(&points[lo..hi], lo > 0).ok()??;
    let radius = points[0].length();
    // Heights are computed to about 1e-16 of the radius: a millionfold margin.
    let margin = 1e-9 * radius;
    // Points before `lo` are at least as high as point `lo − 1`, points from `hi` at most as
    // high as point `hi`.
    let above = if lo > 0 {
        points[lo - 1].y - margin
    } else {
        f64::INFINITY
    };
    let below = if hi < n {
        points[hi].y + margin
    } else {
        f64::NEG_INFINITY
    };
    let base = lo as u32;
    let (own_lo, own_hi) = ((own.start - lo) as u32, (own.end - lo) as u32);
    // New position of each owned triangle.
    let mut pos = vec![NONE; tv.len()];
    let mut kept = 0u32;
    for (t, tri) in tv.iter().enumerate() {
        let low = tri[0].min(tri[1]).min(tri[2]);
        if (own_lo..own_hi).contains(&low) {
            pos[t] = kept;
            kept += 1;
        }
    }
    let mut cross = Vec::new();
    for t in 0..tv.len() {
        let k = pos[t];
        if k == NONE {
            continue;
        }
        let tri = tv[t].map(|i| i + base);
        let (bottom, top) = cap_heights(tri.map(|i| points[i as usize]), radius);
        // Written so that a NaN (a degenerate triangle) fails the proof.
        if !(top < above && bottom > below) {
            return None;
        }
        // `k ≤ t`: packing forward never overwrites a triangle still to be read.
        tv[k as usize] = tri;
        for j in 0..3 {
            let h = twin[3 * t + j];
            let q = pos[h as usize / 3];
            twin[3 * k as usize + j] = if q != NONE {
                3 * q + h % 3
            } else {
                let (a, c) = (tri[j], tri[(j + 1) % 3]);
                let key = (u64::from(a.min(c)) << 32) | u64::from(a.max(c));
                cross.push((key, 3 * k + j as u32));
                NONE
            };
        }
    }
    tv.truncate(kept as usize);
    twin.truncate(3 * kept as usize);
    // The overlap's triangles are gone: give their room back while the other bands run.
    tv.shrink_to_fit();
    twin.shrink_to_fit();
    Some(Band {
        tris: tv,
        twins: twin,
        cross,
    })
}

/// Lowest and highest height (`y`) of the cap of the sphere of `radius` beyond the plane of
/// the counter-clockwise triangle: the points there would see the triangle.
fn cap_heights([a, b, c]: [DVec3; 3], radius: f64) -> (f64, f64) {
    let u = (b - a).cross(c - a).normalize();
    // The cap's centre is at polar angle θ (from +y), its angular radius is α; its heights
    // run from cos(θ + α) to cos(θ − α), clamped at the poles. Without trigonometry: cos α
    // from the plane's offset, sin α from the corner's distance to the axis through u (no
    // cancellation near α = 0, where cos α is close to 1).
    let (cos_t, sin_t) = (u.y, (u.x * u.x + u.z * u.z).sqrt());
    let (cos_a, sin_a) = (u.dot(a), u.cross(a).length());
    let (cc, ss) = (cos_t * cos_a, sin_t * sin_a);
    let top = if cos_t * radius >= cos_a {
        radius
    } else {
        cc + ss
    };
    let bottom = if -cos_t * radius >= cos_a {
        -radius
    } else {
        cc - ss
    };
    (bottom, top)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Triangles rotated to start at their lowest corner, sorted: equal for equal hulls.
    fn canonical(mut tris: Vec<[u32; 3]>) -> Vec<[u32; 3]> {
        for t in &mut tris {
            let k = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
            t.rotate_left(k);
        }
        tris.sort_unstable();
        tris
    }

    #[test]
    fn bands_give_the_hull_of_the_one_core_path() {
        for (n, bands) in [(5_000, 2), (20_011, 5), (20_011, 3)] {
            let points = crate::fibonacci_points(n, 3.0, 0.0, 0).unwrap();
            let layout = Layout {
                n,
                bands,
                overlap: Layout::new(n).overlap,
            };
            let (tris, twins) = in_bands(&points, &layout).unwrap().expect("proven bands");
            let (one, _) = lattice_hull(&points, false).unwrap().unwrap();
            assert_eq!(canonical(tris.clone()), canonical(one), "{n} in {bands}");
            let mesh = quadedge::Mesh::from_half_edges(n, &tris, &twins).unwrap();
            mesh.check().unwrap();
        }
    }

    #[test]
    fn a_short_overlap_is_refused_not_wrong() {
        let n = 20_000;
        let points = crate::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
        let layout = Layout {
            n,
            bands: 4,
            overlap: 20,
        };
        assert_eq!(in_bands(&points, &layout).unwrap(), None);
        // The public path then takes the one-core path: the same hull.
        let (one, _) = lattice_hull(&points, false).unwrap().unwrap();
        let tris = crate::triangulate_fibonacci(&points).unwrap();
        assert_eq!(canonical(tris), canonical(one));
    }

    #[test]
    fn a_lattice_with_one_point_moved_gets_its_own_hull() {
        // Point 70,001 is not among the indices the lattice check samples: the input still
        // looks like a lattice, the bands must prove or refuse what the move changed.
        let n = 140_000;
        let mut points = crate::fibonacci_points(n, 1.0, 0.0, 0).unwrap();
        let spacing = (4.0 * core::f64::consts::PI / n as f64).sqrt();
        let p = points[70_001];
        let tangent = p.cross(DVec3::Y).normalize();
        points[70_001] = (p + tangent * (0.45 * spacing)).normalize();
        assert!(crate::points::looks_like_lattice(&points));
        let banded = crate::triangulate_fibonacci(&points).unwrap();
        let general = crate::triangulate(&points).unwrap();
        assert_eq!(canonical(banded), canonical(general));
    }

    #[test]
    fn fibonacci_sphere_is_the_same_with_1_2_and_4_threads() {
        let n = 140_000;
        assert!(Layout::new(n).bands >= 2);
        let runs: Vec<_> = testkit::thread_pools()
            .iter()
            .map(|pool| pool.install(|| crate::fibonacci_sphere(n, 2.0, 0.0, 0).unwrap()))
            .collect();
        for (mesh, positions) in &runs[1..] {
            assert!(*mesh == runs[0].0);
            assert!(
                positions
                    .iter()
                    .zip(&runs[0].1)
                    .all(|(a, b)| a.to_array().map(f64::to_bits) == b.to_array().map(f64::to_bits))
            );
        }
        let (mesh, positions) = &runs[0];
        assert_eq!(mesh.face_count(), 2 * n - 4);
        mesh.check().unwrap();
        assert_eq!(crate::is_delaunay(mesh, positions), Ok(()));
    }
}
