//! The close-up draws its cell outlines around the dual points it is given.

use export::render::render_mesh_closeup;
use export::{CloseupOptions, ExportError};
use glam::Vec3;
use sphere::dual::{DualCentre, dual_points};

#[test]
fn given_dual_points_move_the_outlines_and_bad_ones_are_refused() {
    let (mesh, pos) = sphere::fibonacci_sphere(2000, 1.0, 0.45, 4).unwrap();
    let pos32: Vec<Vec3> = pos.iter().map(|p| p.as_vec3()).collect();
    let at = |choice| -> Vec<Vec3> {
        let d = dual_points(&mesh, &pos, choice).unwrap();
        d.iter().map(|p| p.as_vec3()).collect()
    };
    let draw = |dual_points: Vec<Vec3>| {
        let options = CloseupOptions {
            size: 160,
            fill_cells: false,
            legend: false,
            dual_points,
            ..Default::default()
        };
        render_mesh_closeup(&mesh, &pos32, Vec3::Z, 0.3, &options)
    };
    let plain = draw(Vec::new()).unwrap();
    // The circumcentres given explicitly draw (almost) the same picture as none given.
    let cc = draw(at(DualCentre::Circumcentre)).unwrap();
    // Summed channel differences: rounding (f64 points given, f32 computed) shifts the
    // anti-aliasing a little, other corners move whole lines.
    let diff = |a: &export::Image, b: &export::Image| {
        a.rgb
            .iter()
            .zip(&b.rgb)
            .map(|(&x, &y)| x.abs_diff(y) as u64)
            .sum::<u64>()
    };
    let centroids = draw(at(DualCentre::Centroid)).unwrap();
    let (near, far) = (diff(&plain, &cc), diff(&plain, &centroids));
    assert!(20 * near < far, "{near} vs {far}");
    // Too short, or not finite: refused.
    let mut short = at(DualCentre::Centroid);
    short.truncate(10);
    let mut nan = at(DualCentre::Centroid);
    nan[0] = Vec3::NAN;
    for bad in [short, nan] {
        assert!(matches!(
            draw(bad),
            Err(ExportError::InvalidOption {
                name: "dual_points",
                ..
            })
        ));
    }
}
