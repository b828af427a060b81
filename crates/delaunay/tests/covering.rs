//! The global covering (issue 21): meshes that wrap the sphere more than once are seen by
//! `is_delaunay`, and the operations that can change the covering never return one.

mod common;

use common::{Rng, from_scratch, triangle_set};
use delaunay::{DelaunayError, RestoreOptions, Sphere, Violation, is_delaunay, restore};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// Either `Ok` with the exact triangulation of the final positions, every id kept, or a typed
/// error with the mesh as it was.
fn restore_is_valid_or_refused(
    mesh: &mut Mesh,
    pos: &mut [DVec3],
    moved: Option<&[Vertex]>,
) -> Result<(), DelaunayError> {
    let before = mesh.clone();
    let n = mesh.vertex_count();
    match restore(&Sphere, mesh, pos, moved, &RestoreOptions::default()) {
        Ok(_) => {
            mesh.check().unwrap();
            assert_eq!(is_delaunay(&Sphere, mesh, pos), Ok(()));
            assert_eq!(mesh.vertex_count(), n);
            assert_eq!(triangle_set(mesh), from_scratch(mesh, pos));
            Ok(())
        }
        Err(e) => {
            assert_eq!(*mesh, before, "{e:?} changed the mesh");
            Err(e)
        }
    }
}

/// A mesh wrapped twice: the local conditions hold, the covering does not.
#[test]
fn a_double_covering_is_seen() {
    // The octahedron's faces, each twice over a branched double cover: take the square
    // bipyramid with the equator walked twice (8 equator vertices on 4 places is a collision,
    // so use a 2-fold cover of the sphere branched at the poles: equator at angles k·π/2 for
    // k = 0..8, each vertex at angle k·π/2 · ... ) — simplest: an 8-gon equator whose vertices
    // go twice round.
    let k = 5usize;
    let mut pos = vec![DVec3::Z, DVec3::NEG_Z];
    for i in 0..k {
        let t = 2.0 * std::f64::consts::TAU * i as f64 / k as f64;
        pos.push(DVec3::new(t.cos(), t.sin(), 0.0));
    }
    let mut tris = Vec::new();
    for i in 0..k as u32 {
        let (a, b) = (2 + i, 2 + (i + 1) % k as u32);
        tris.push([a, b, 0]);
        tris.push([b, a, 1]);
    }
    let mesh = Mesh::from_triangles(pos.len(), &tris).unwrap();
    mesh.check().unwrap();
    assert_eq!(
        is_delaunay(&Sphere, &mesh, &pos),
        Err(Ok(Violation::Covering { times: 2 }))
    );
}

/// Permutations of positions (vertices ending on other vertices' old places), at several sizes.
#[test]
fn restore_after_permutations() {
    let mut rng = Rng::new(21);
    for &n in &[8usize, 20, 100, 500] {
        for round in 0..6 {
            let (mut mesh, mut pos) = sphere::fibonacci_sphere(n, 1.0, 0.0, 0).unwrap();
            let count = [2, 3, 5, n / 2, n][round % 5].min(n);
            let mut chosen: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut chosen);
            chosen.truncate(count);
            let old: Vec<DVec3> = chosen.iter().map(|&i| pos[i]).collect();
            for (j, &i) in chosen.iter().enumerate() {
                pos[i] = old[(j + 1) % count];
            }
            let moved: Vec<Vertex> = chosen.iter().map(|&i| Vertex::new(i as u32)).collect();
            let r = restore_is_valid_or_refused(&mut mesh, &mut pos, Some(&moved));
            println!("n {n} count {count}: {r:?}");
        }
    }
}
