//! Hillshading of flat maps: the slope of a scalar layer at each vertex (least squares over
//! its neighbours in the plane), lit from the north-west at 45°, as a brightness factor per
//! vertex that multiplies its colour (1 on flat ground).

use crate::ExportError;
use quadedge::{Topology, Vertex};

/// Brightness factors (`0..=1.6`, 1 on flat ground) of `values` over the points `xy` (one
/// per vertex slot); `skip` (a map's ghost vertex) is ignored as a neighbour and gets 1.
/// Slopes are scaled so that at `strength` 1 the 98th percentile is 30°, whatever the units.
///
/// # Errors
/// [`ExportError::LengthMismatch`] for `xy` or `values` not one per slot,
/// [`ExportError::InvalidOption`] for a strength outside `0..=16`.
pub fn planar_hillshade(
    mesh: &impl Topology,
    xy: &[[f64; 2]],
    values: &[f32],
    skip: Option<Vertex>,
    strength: f32,
) -> Result<Vec<f32>, ExportError> {
    let slots = mesh.vertex_slots();
    for (what, len) in [("xy", xy.len()), ("values", values.len())] {
        if len != slots {
            return Err(ExportError::LengthMismatch {
                what,
                expected: slots,
                got: len,
            });
        }
    }
    if !(0.0..=16.0).contains(&strength) {
        return Err(ExportError::InvalidOption {
            name: "strength",
            reason: "must be within 0..=16",
        });
    }
    let mut grad = vec![[0.0f64; 2]; slots];
    for v in mesh.vertices() {
        if Some(v) == skip {
            continue;
        }
        let (p, z) = (xy[v.index()], f64::from(values[v.index()]));
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for n in mesh.neighbors(v) {
            if Some(n) == skip {
                continue;
            }
            let (dx, dy) = (xy[n.index()][0] - p[0], xy[n.index()][1] - p[1]);
            let dz = f64::from(values[n.index()]) - z;
            a11 += dx * dx;
            a12 += dx * dy;
            a22 += dy * dy;
            b1 += dx * dz;
            b2 += dy * dz;
        }
        let det = a11 * a22 - a12 * a12;
        if det.abs() > 1e-12 * (a11 * a22).max(1e-300) && det.is_finite() {
            let g = [(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det];
            if g[0].is_finite() && g[1].is_finite() {
                grad[v.index()] = g;
            }
        }
    }
    let mut lengths: Vec<f64> = grad
        .iter()
        .map(|g| g[0].hypot(g[1]))
        .filter(|&l| l > 0.0)
        .collect();
    let scale = if lengths.is_empty() {
        0.0
    } else {
        let k = (lengths.len() - 1) * 98 / 100;
        let (_, &mut g98, _) = lengths.select_nth_unstable_by(k, f64::total_cmp);
        f64::from(strength) * 0.577_350_3 / g98
    };
    // Light from the north-west, 45° up.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let light = [-h * h, h * h, h];
    Ok(grad
        .iter()
        .map(|g| {
            let n = [-g[0] * scale, -g[1] * scale, 1.0];
            let len = (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
            let lit = (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / len;
            ((lit.max(0.0) / h).min(1.6)) as f32
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slopes_facing_north_west_brighten_and_flat_ground_keeps_its_colour() {
        let (n, tris) = quadedge::shapes::octahedron();
        let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
        let xy = [
            [1.0, 0.0],
            [-1.0, 0.0],
            [0.0, 1.0],
            [0.0, -1.0],
            [0.0, 0.0],
            [0.1, 0.1],
        ];
        let flat = planar_hillshade(&mesh, &xy, &[0.0; 6], None, 1.0).unwrap();
        assert!(flat.iter().all(|&f| f == 1.0), "{flat:?}");
        // Rising to the south-east: the slope faces the north-west light.
        let z: Vec<f32> = xy.iter().map(|p| (p[0] - p[1]) as f32).collect();
        let f = planar_hillshade(&mesh, &xy, &z, None, 1.0).unwrap();
        assert!(f.iter().all(|&x| x > 1.0), "{f:?}");
        assert!(planar_hillshade(&mesh, &xy[1..], &z, None, 1.0).is_err());
        assert!(planar_hillshade(&mesh, &xy, &z, None, -1.0).is_err());
    }
}
