//! The first tetrahedron of the incremental triangulation, chosen and checked with exact
//! predicates.

use crate::visibility::{outside, outside_v};
use glam::DVec3;

/// The seed tetrahedron from `candidates`: its corners, its four faces counter-clockwise from
/// outside, and its centroid if that lies strictly inside (exact predicates; a tetrahedron
/// thinner than the rounding of its coordinates may have no floating-point point inside).
/// `None` if all candidates are coplanar.
#[allow(clippy::type_complexity)]
pub(crate) fn seeded(
    pts: &[DVec3],
    candidates: &[usize],
) -> Option<([u32; 4], [[u32; 3]; 4], Option<[f64; 3]>)> {
    let v = |i: usize| pts[i];
    let [a, mut b, mut c, d] = seed_tetrahedron(pts, candidates)?;
    if outside_v(pts[a], pts[b], pts[c], pts[d]) > 0.0 {
        core::mem::swap(&mut b, &mut c);
    }
    let centre = ((v(a) + v(b) + v(c) + v(d)) / 4.0).to_array();
    let [a, b, c, d] = [a as u32, b as u32, c as u32, d as u32];
    let faces = [[a, b, c], [a, d, b], [b, d, c], [c, d, a]];
    for f in &faces {
        let [x, y, z] = f.map(|i| pts[i as usize].to_array());
        if outside(x, y, z, centre) >= 0.0 {
            // So flat that the centroid rounds onto a face.
            return Some(([a, b, c, d], faces, None));
        }
    }
    Some(([a, b, c, d], faces, Some(centre)))
}

/// Four points of `candidates` spanning a large tetrahedron: the first, the farthest from it,
/// the farthest from their line, the farthest from their plane. `None` if all are coplanar
/// (exactly, by the last step's exact predicate).
fn seed_tetrahedron(pts: &[DVec3], candidates: &[usize]) -> Option<[usize; 4]> {
    let v = |i: usize| pts[i];
    let a = candidates[0];
    let b = *candidates.iter().max_by(|&&i, &&j| {
        v(i).distance_squared(v(a))
            .total_cmp(&v(j).distance_squared(v(a)))
    })?;
    let ab = v(b) - v(a);
    let c = *candidates.iter().max_by(|&&i, &&j| {
        let fi = (v(i) - v(a)).cross(ab).length_squared();
        let fj = (v(j) - v(a)).cross(ab).length_squared();
        fi.total_cmp(&fj)
    })?;
    if (v(c) - v(a)).cross(ab).length_squared() == 0.0 {
        // Collinear in floating point; three collinear points cannot lie on a sphere anyway.
        return None;
    }
    let d = *candidates.iter().max_by(|&&i, &&j| {
        let fi = outside_v(pts[a], pts[b], pts[c], pts[i]).abs();
        let fj = outside_v(pts[a], pts[b], pts[c], pts[j]).abs();
        fi.total_cmp(&fj)
    })?;
    // The exact predicate says the farthest is coplanar: so are all.
    (outside_v(pts[a], pts[b], pts[c], pts[d]) != 0.0).then_some([a, b, c, d])
}
