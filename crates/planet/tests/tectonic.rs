//! The tectonic pieces of the demo on their own: distances to plate boundaries and the size
//! field built from them, on meshes small enough to check by hand; and the remeshing of the
//! demo keeping every layer on the new mesh.

use planet::demo::{DemoConfig, ELEVATION, PLATE, POSITION, boundary_distance, run, size_factor};
use quadedge::{Mesh, shapes};

#[test]
fn boundary_distance_counts_hops_from_the_nearest_border() {
    // The octahedron: ±x = 0/1, ±y = 2/3, ±z = 4/5; every vertex neighbours all but its
    // opposite. Plate 1 is vertex 0 alone: it and its four neighbours are on a border, its
    // opposite (vertex 1) is one hop away.
    let (n, t) = shapes::octahedron();
    let mesh = Mesh::from_triangles(n, &t).unwrap();
    let plate = [1, 0, 0, 0, 0, 0];
    assert_eq!(boundary_distance(&mesh, &plate), [0, 1, 0, 0, 0, 0]);
    // One plate: no border anywhere.
    assert_eq!(boundary_distance(&mesh, &[0; 6]), [u32::MAX; 6]);
    // A long strip of a grid sphere: hops grow away from the border one ring at a time.
    let (n, t) = shapes::icosahedron_grid(12);
    let mesh = Mesh::from_triangles(n, &t).unwrap();
    let mut plate = vec![0u32; n];
    plate[0] = 1;
    let d = boundary_distance(&mesh, &plate);
    for v in mesh.vertices() {
        for u in mesh.neighbors(v) {
            assert!(d[v.index()].abs_diff(d[u.index()]) <= 1, "{v:?} {u:?}");
        }
    }
    assert!(d.iter().any(|&x| x >= 5));
}

#[test]
fn the_size_field_refines_borders_and_coarsens_inside() {
    assert_eq!(size_factor(0), 0.6);
    assert!(size_factor(1) > size_factor(0) && size_factor(3) > size_factor(2));
    assert_eq!(size_factor(40), 1.3);
    assert_eq!(size_factor(u32::MAX), 1.3);
}

#[test]
fn remeshing_keeps_every_layer_on_the_mesh_and_the_mesh_delaunay() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = DemoConfig {
        vertices: 2000,
        plates: 6,
        seed: 11,
        out: tmp.path().to_path_buf(),
        image_width: 64,
        steps: 4,
        ..Default::default()
    };
    let report = run(&cfg, &mut |_| {}).unwrap();
    let remeshed: Vec<&str> = report.motion.iter().map(|m| m.remesh).collect();
    assert_eq!(remeshed, ["adapt", "resample+adapt", "", ""]);
    let w = world::World::load(tmp.path().join("planet.world")).unwrap();
    let mesh = w.mesh();
    mesh.check().unwrap();
    let pos = w.layer(&POSITION).unwrap().to_vec();
    assert_eq!(delaunay::is_delaunay(&delaunay::Sphere, mesh, &pos), Ok(()));
    for v in mesh.vertices() {
        assert!((pos[v.index()].length() / 6371.0 - 1.0).abs() < 1e-9);
        assert!(w.layer(&PLATE).unwrap()[v] < 6);
        assert!(w.layer(&ELEVATION).unwrap()[v].is_finite());
    }
    assert_eq!(w.layer(&ELEVATION).unwrap().len(), mesh.vertex_slots());
}
