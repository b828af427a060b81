//! Dual centres on the plane: centroid and blended points lie inside their triangles (exact
//! orientation), and the cells of every choice still tile the rectangle.

use delaunay::{Plane, Surface};
use glam::DVec2;
use plane::{DUAL_POINT, DualCentre, PlaneError, VoronoiCells};

fn area(cells: &VoronoiCells, n: usize) -> f64 {
    (0..n)
        .map(|i| {
            let c = cells.cell(quadedge::Vertex::new(i as u32));
            let k = c.len();
            (0..k)
                .map(|j| {
                    let (p, q) = (c[j], c[(j + 1) % k]);
                    p[0] * q[1] - p[1] * q[0]
                })
                .sum::<f64>()
                / 2.0
        })
        .sum()
}

#[test]
fn centroids_and_blends_lie_inside_and_cells_tile_the_rectangle() {
    // Jittered points (Poisson disc with a small spacing leaves some thin triangles).
    let pts = plane::poisson_disc(40.0, 25.0, 0.8, 5).unwrap();
    let map = plane::triangulate(&pts.points).unwrap();
    let rect_area = pts.rect.size().x * pts.rect.size().y;
    let mut cc_outside = 0;
    for choice in [
        DualCentre::Circumcentre,
        DualCentre::Centroid,
        DualCentre::Blend(0.0),
        DualCentre::Blend(0.5),
        DualCentre::Blend(0.99),
    ] {
        let duals = plane::dual_points(&map, choice).unwrap();
        for f in map.mesh.faces() {
            let d = duals[f.index()];
            if map.is_ghost_face(f) {
                assert!(d.is_nan());
                continue;
            }
            let [a, b, c] = map.mesh.face_vertices(f).map(|v| map.positions[v.index()]);
            let inside = [(a, b), (b, c), (c, a)]
                .iter()
                .all(|&(u, v)| Plane.orient(u, v, d) > 0.0);
            if choice == DualCentre::Circumcentre {
                cc_outside += usize::from(!inside);
            } else {
                assert!(inside, "{choice:?}: {f:?}");
            }
        }
        let options = plane::CellOptions::with_centre(choice).unwrap();
        let cells = plane::voronoi_cells(&map, pts.rect, &options);
        let total = area(&cells, map.mesh.vertex_slots());
        assert!(
            (total - rect_area).abs() < 1e-9 * rect_area,
            "{choice:?}: {total}"
        );
    }
    // The test can fail: some circumcentres are outside their (obtuse) triangles.
    assert!(cc_outside > 0);
    let circumcentres = plane::CellOptions::with_centre(DualCentre::Circumcentre).unwrap();
    assert_eq!(
        plane::voronoi_cells(&map, pts.rect, &circumcentres),
        plane::voronoi_cells(&map, pts.rect, &Default::default())
    );
}

#[test]
fn the_dual_layer_follows_the_choice_and_bad_weights_are_refused() {
    let o = plane::MapOptions {
        width: 20.0,
        height: 12.0,
        spacing: 1.0,
        seed: 8,
    };
    let (mut world, map) = plane::map_world(&o).unwrap();
    for t in [-0.5, 1.5, f64::NAN] {
        assert!(matches!(
            plane::set_dual_layer(&mut world, map.ghost, DualCentre::Blend(t)),
            Err(PlaneError::InvalidArgument { name: "blend", .. })
        ));
        assert!(plane::dual_points(&map, DualCentre::Blend(t)).is_err());
    }
    assert!(
        world.layer(&DUAL_POINT).is_none(),
        "a refused call created the layer"
    );
    plane::set_dual_layer(&mut world, map.ghost, DualCentre::Centroid).unwrap();
    let layer = world.layer(&DUAL_POINT).unwrap();
    for f in map.mesh.faces() {
        let [a, b, c] = map.mesh.face_vertices(f).map(|v| map.positions[v.index()]);
        if map.is_ghost_face(f) {
            assert!(layer[f].is_nan());
        } else {
            assert_eq!(layer[f], (a + b + c) / 3.0);
        }
    }
    let g = plane::dual_point(DVec2::ZERO, DVec2::X, DVec2::Y, DualCentre::Centroid);
    assert_eq!(g, DVec2::splat(1.0 / 3.0));
}
