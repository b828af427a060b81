//! The age of new ocean floor. New crust is made on a ridge axis and drifts away from it at
//! half the opening rate, so floor `d` km from the axis is `d / v_half` Myr old. The mesh
//! fills a gap only once it has room for a vertex, so the point it inserts (the centre of a
//! wide triangle across the boundary) is in general off the axis: its age is its distance
//! from the axis along the opening direction over the half rate, and it joins the plate on
//! whose side of the axis it lies.
//!
//! The axis is found from the flanks: a flank vertex of age `a` made at this ridge is
//! `v_half · a` from the axis, on its plate's side. Each side's estimate is kept within the
//! gap (a flank older than the gap, a continental margin or old floor where a boundary has
//! just begun to open, says only "the axis is at least this far"), and the axis is the mean
//! of the two sides' estimates: the middle of the gap when neither flank was made here.

use super::{CONTINENTAL, Plate};
use glam::DVec3;

/// One corner of a gap triangle: position (km), plate, crust type, age (Myr).
#[derive(Clone, Copy, Debug)]
pub(super) struct Corner {
    pub point: DVec3,
    pub plate: u32,
    pub crust: u8,
    pub age: f32,
}

/// Slowest opening (km/Myr) dated by the axis; slower gaps take age 0 on the nearest plate.
const MIN_OPENING: f64 = 1.0;

/// The plate and age (Myr) of new crust at `point` in a gap between the corners' two plates;
/// `None` when the triangle does not join exactly two plates that move apart there.
pub(super) fn date(point: DVec3, corners: &[Corner; 3], plates: &[Plate]) -> Option<(u32, f32)> {
    let a = corners[0].plate;
    let b = corners.iter().map(|c| c.plate).find(|&p| p != a)?;
    if corners.iter().any(|c| c.plate != a && c.plate != b) {
        return None;
    }
    let (pa, pb) = (plates.get(a as usize)?, plates.get(b as usize)?);
    let n = point.try_normalize()?;
    let rel = pb.velocity(point) - pa.velocity(point);
    let rel = rel - n * rel.dot(n);
    let speed = rel.length();
    if speed < MIN_OPENING {
        return None;
    }
    let u = rel / speed;
    let half = 0.5 * speed;
    // Along `u`, plate `a` lies on the low side of the axis, `b` on the high side.
    let s = |c: &Corner| (c.point - point).dot(u);
    let lo = corners
        .iter()
        .filter(|c| c.plate == a)
        .map(s)
        .fold(f64::NEG_INFINITY, f64::max);
    let hi = corners
        .iter()
        .filter(|c| c.plate == b)
        .map(s)
        .fold(f64::INFINITY, f64::min);
    if hi <= lo {
        return None;
    }
    let known = |c: &Corner| {
        if c.crust == CONTINENTAL || !c.age.is_finite() {
            f64::INFINITY
        } else {
            f64::from(c.age.max(0.0))
        }
    };
    let side = |p: u32, sign: f64| {
        let (sum, k) = corners
            .iter()
            .filter(|c| c.plate == p)
            .map(|c| (s(c) + sign * half * known(c)).clamp(lo, hi))
            .fold((0.0, 0.0), |(x, k), e| (x + e, k + 1.0));
        sum / k
    };
    let axis = 0.5 * (side(a, 1.0) + side(b, -1.0));
    // The point is at 0 along `u`.
    let (owner, dist) = if axis >= 0.0 { (a, axis) } else { (b, -axis) };
    // Floor between the axis and a flank is younger than that flank.
    let oldest = corners
        .iter()
        .filter(|c| c.plate == owner)
        .map(known)
        .fold(0.0, f64::max);
    Some((owner, (dist / half).min(oldest) as f32))
}
