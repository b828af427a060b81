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
//!
//! New floor also remembers the plate across its ridge ([`super::RIDGE`]): floor that only
//! fills a hole in its plate inherits the ridge of its nearest corner.

use super::{CONTINENTAL, NO_PLATE, Plate};
use glam::DVec3;

/// One corner of a gap triangle: position (km), plate, crust type, age (Myr).
#[derive(Clone, Copy, Debug)]
pub(super) struct Corner {
    pub point: DVec3,
    pub plate: u32,
    pub crust: u8,
    pub age: f32,
    /// The plate across the ridge that made the corner's floor ([`super::RIDGE`]).
    pub ridge: u32,
}

/// New ocean floor: its plate, age (Myr) and the plate across the ridge that made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Floor {
    pub plate: u32,
    pub age: f32,
    pub ridge: u32,
}

/// Slowest opening (km/Myr) dated by the axis; slower gaps are holes ([`new_floor`]).
const MIN_OPENING: f64 = 1.0;

/// Whether the plates of a gap triangle's corners (position in km, plate) move apart across
/// it: for some pair of its plates, the relative motion has a positive component from the one
/// plate's corners (their centroid) to the other's. A single cross-plate edge is not asked:
/// along a front or a transform the boundary's cell-sized zigzag always has edges that
/// lengthen, and filling those triangles on the overriding side would advance that plate
/// into the diving one by a cell's share each time, consuming more on a coarser mesh.
pub(super) fn opens(corners: [(DVec3, u32); 3], plates: &[Plate]) -> bool {
    let centroid = |p: u32| {
        corners
            .iter()
            .filter(|c| c.1 == p)
            .map(|c| c.0)
            .sum::<DVec3>()
            / corners.iter().filter(|c| c.1 == p).count().max(1) as f64
    };
    let pairs = [(0, 1), (1, 2), (2, 0)];
    pairs.iter().any(|&(i, j)| {
        let (pu, pv) = (corners[i].1, corners[j].1);
        let (Some(a), Some(b)) = (plates.get(pu as usize), plates.get(pv as usize)) else {
            return false;
        };
        if pu == pv {
            return false;
        }
        let (cu, cv) = (centroid(pu), centroid(pv));
        (b.velocity(cv) - a.velocity(cu)).dot(cv - cu) > 0.0
    })
}

/// New crust at `point` in a gap whose corner nearest to the point is `nearest`: dated from
/// the ridge axis ([`date`]) where the corners' plates move apart across the gap; elsewhere
/// (a triangle widened along a transform, or too slow to date) the point only fills a hole
/// in the sampling of `nearest`'s plate, and takes the mean age of that plate's oceanic
/// corners (0 when there are none) and `nearest`'s ridge.
pub(super) fn new_floor(
    point: DVec3,
    corners: &[Corner; 3],
    plates: &[Plate],
    nearest: Corner,
) -> Floor {
    date(point, corners, plates).unwrap_or_else(|| {
        let (sum, k) = corners
            .iter()
            .filter(|c| c.plate == nearest.plate && c.crust != CONTINENTAL && c.age.is_finite())
            .fold((0.0, 0.0), |(x, k), c| (x + c.age, k + 1.0));
        Floor {
            plate: nearest.plate,
            age: if k > 0.0 { sum / k } else { 0.0 },
            ridge: if nearest.crust == CONTINENTAL {
                NO_PLATE
            } else {
                nearest.ridge
            },
        }
    })
}

/// New crust at `point` in a gap between the corners' two plates, on one of them and made by
/// the ridge between them; `None` when those plates do not move apart across the gap (at a triple junction, the two
/// corners nearest to the point stand for the gap).
fn date(point: DVec3, corners: &[Corner; 3], plates: &[Plate]) -> Option<Floor> {
    // At a triple junction, the two corners nearest to the point make its gap.
    let three = corners[0].plate != corners[1].plate
        && corners[1].plate != corners[2].plate
        && corners[0].plate != corners[2].plate;
    let far = (0..3)
        .max_by(|&i, &j| {
            let d = |k: usize| corners[k].point.distance_squared(point);
            d(i).total_cmp(&d(j))
        })
        .unwrap_or(0);
    // The corners used, in order (no allocation per new point).
    let mut kept = [&corners[0]; 3];
    let mut n = 0;
    for (k, c) in corners.iter().enumerate() {
        if !(three && k == far) {
            kept[n] = c;
            n += 1;
        }
    }
    let used = &kept[..n];
    let a = used[0].plate;
    let b = used.iter().map(|c| c.plate).find(|&p| p != a)?;
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
    // Along `u`, plate `a`'s flank lies on the low side of the axis, `b`'s on the high side.
    let s = |c: &Corner| (c.point - point).dot(u);
    let mean = |p: u32, f: &dyn Fn(&Corner) -> f64| {
        let (sum, k) = used
            .iter()
            .filter(|c| c.plate == p)
            .fold((0.0, 0.0), |(x, k), c| (x + f(c), k + 1.0));
        sum / k
    };
    let (lo, hi) = (mean(a, &s), mean(b, &s));
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
    let axis = 0.5
        * (mean(a, &|c| (s(c) + half * known(c)).clamp(lo, hi))
            + mean(b, &|c| (s(c) - half * known(c)).clamp(lo, hi)));
    // The point is at 0 along `u`.
    let (owner, dist, across) = if axis >= 0.0 {
        (a, axis, b)
    } else {
        (b, -axis, a)
    };
    // Floor between the axis and a flank is younger than that flank.
    let oldest = used
        .iter()
        .filter(|c| c.plate == owner)
        .map(|c| known(c))
        .fold(0.0, f64::max);
    Some(Floor {
        plate: owner,
        age: (dist / half).min(oldest) as f32,
        ridge: across,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: f64 = 6371.0;

    fn at(x: f64, y: f64) -> DVec3 {
        DVec3::new(x, y, (R * R - x * x - y * y).sqrt())
    }

    /// Plate 0 at rest; plate 1 moving towards −y at 40 km/Myr near the north pole.
    fn plates() -> Vec<Plate> {
        let plate = |pole: DVec3, omega: f64| Plate {
            pole,
            omega,
            area_km2: 0.0,
            parent: None,
        };
        vec![plate(DVec3::Z, 0.0), plate(DVec3::X, 40.0 / R)]
    }

    fn corner(x: f64, y: f64, plate: u32, crust: u8, age: f32) -> Corner {
        Corner {
            point: at(x, y),
            plate,
            crust,
            age,
            ridge: NO_PLATE,
        }
    }

    #[test]
    fn a_gap_between_old_flanks_is_dated_from_its_middle() {
        // Continental flanks at y = ±300 km: the axis is y = 0; a point 100 km towards plate
        // 0 is on plate 0 and 100 / 20 = 5 Myr old.
        let c = [
            corner(-200.0, 300.0, 0, CONTINENTAL, 0.0),
            corner(200.0, 300.0, 0, CONTINENTAL, 0.0),
            corner(0.0, -300.0, 1, CONTINENTAL, 0.0),
        ];
        let f = date(at(0.0, 100.0), &c, &plates()).unwrap();
        assert_eq!((f.plate, f.ridge), (0, 1));
        assert!((f.age - 5.0).abs() < 0.05, "{f:?}");
        let f = date(at(0.0, -60.0), &c, &plates()).unwrap();
        assert_eq!((f.plate, f.ridge), (1, 0));
        assert!((f.age - 3.0).abs() < 0.05, "{f:?}");
    }

    #[test]
    fn flanks_made_at_the_ridge_place_its_axis() {
        // Plate 0's flank is 2 Myr old (40 km from the axis), plate 1's 14 Myr (280 km): the
        // axis is at y = 260 km, so a point at y = 100 km is plate 1's floor, 8 Myr old, and
        // never older than its flank.
        let c = [
            corner(-200.0, 300.0, 0, 0, 2.0),
            corner(200.0, 300.0, 0, 0, 2.0),
            corner(0.0, -20.0, 1, 0, 14.0),
        ];
        let f = date(at(0.0, 100.0), &c, &plates()).unwrap();
        assert_eq!((f.plate, f.ridge), (1, 0));
        assert!((f.age - 8.0).abs() < 0.1, "{f:?}");
    }

    #[test]
    fn a_gap_that_does_not_open_is_a_hole_in_its_plate() {
        // Plate 1's corner on plate 0's far side: the plates close across this triangle.
        let c = [
            corner(-200.0, -300.0, 0, 0, 30.0),
            corner(200.0, -300.0, 0, 0, 50.0),
            corner(0.0, 300.0, 1, 0, 10.0),
        ];
        assert_eq!(date(at(0.0, -100.0), &c, &plates()), None);
        let hole = Corner { ridge: 7, ..c[0] };
        let f = new_floor(at(0.0, -100.0), &c, &plates(), hole);
        assert_eq!((f.plate, f.age, f.ridge), (0, 40.0, 7));
    }
}
