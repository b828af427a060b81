//! Ghost faces and half-edges form ranges after the solid ones (Red Blob's dual mesh), so
//! telling them apart needs no lookup.

#[test]
fn ghost_faces_and_half_edges_are_numbered_after_the_solid_ones() {
    let pts = plane::poisson_disc(30.0, 20.0, 1.0, 9).unwrap();
    let map = plane::triangulate(&pts.points).unwrap();
    let hull = map.mesh.degree(map.ghost);
    assert_eq!(map.solid_faces + hull, map.mesh.face_count());
    // The range test agrees with the corner lookup for every face.
    for f in map.mesh.faces() {
        let by_corner = plane::is_ghost_face(&map.mesh, map.ghost, f);
        assert_eq!(map.is_ghost_face(f), by_corner, "{f:?}");
        assert_eq!(f.index() >= map.solid_faces, by_corner);
    }
    assert_eq!(map.real_faces().count(), map.solid_faces);
    // The flat arrays: triangles `solid..` and half-edges `3 * solid..` are the ghosts'.
    let t = plane::triangulate_half_edges(&pts.points).unwrap();
    assert_eq!(t.solid as usize, map.solid_faces);
    for (i, c) in t.triangles.iter().enumerate() {
        assert_eq!(i >= t.solid as usize, c.contains(&t.ghost), "triangle {i}");
    }
    for h in 0..t.twins.len() {
        let ghost_side = t.triangles[h / 3].contains(&t.ghost);
        assert_eq!(h >= 3 * t.solid as usize, ghost_side);
    }
    // Solid triangles still follow the vertex order (lowest corner), ghosts too among themselves.
    let low = |c: &[u32; 3]| *c.iter().filter(|&&v| v != t.ghost).min().unwrap();
    let (solid, ghosts) = t.triangles.split_at(t.solid as usize);
    assert!(solid.windows(2).all(|w| low(&w[0]) <= low(&w[1])));
    assert!(ghosts.windows(2).all(|w| low(&w[0]) <= low(&w[1])));
}
