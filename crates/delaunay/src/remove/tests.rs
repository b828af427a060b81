//! The plan decides as the full test of every ear and every hole edge did.

use super::*;
use crate::{Plane, Sphere};

/// The plan as it was before ears and diagonals were trusted: every ear searched from the
/// first corner with every test made, every triangle's turn and every hole edge tested. The
/// ears and triangles when it settles the removal.
fn reference_plan<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    v: Vertex,
) -> Option<(Vec<Edge>, Vec<[usize; 3]>)> {
    let mut ring: Vec<(Edge, DVec3, bool)> = Vec::new();
    let mut link: Vec<(Vertex, DVec3, Option<DVec3>)> = Vec::new();
    for e in mesh.outgoing(v) {
        let u = mesh.dest(e);
        let out = mesh.left_next(e).sym();
        let apex = mesh
            .left(out)
            .is_valid()
            .then(|| positions[mesh.dest(mesh.left_next(out)).index()]);
        ring.push((e, positions[u.index()], false));
        link.push((u, positions[u.index()], apex));
    }
    if link.len() < 3 || link.len() > EAR_TEST_MAX_DEGREE {
        return None;
    }
    let mut index: Vec<usize> = (0..link.len()).collect();
    let (mut ears, mut triangles) = (Vec::new(), Vec::new());
    while ring.len() > 3 {
        let d = ring.len();
        let b = delaunay_ear(surface, &ring)?;
        let (a, c) = (index[(b + d - 1) % d], index[(b + 1) % d]);
        if mesh.find_edge(link[a].0, link[c].0).is_some() {
            return None;
        }
        ears.push(ring[b].0);
        triangles.push([a, index[b], c]);
        ring.remove(b);
        index.remove(b);
    }
    triangles.push([index[0], index[1], index[2]]);
    let n = link.len();
    for (t, tri) in triangles.iter().enumerate() {
        let [pa, pb, pc] = tri.map(|i| link[i].1);
        if surface.orient(pa, pb, pc) <= 0.0 {
            return None;
        }
        for k in 0..3 {
            let (x, y, z) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
            let beyond = if y == (x + 1) % n {
                link[x].2
            } else {
                // Both sides of a diagonal.
                triangles
                    .iter()
                    .enumerate()
                    .find(|&(s, o)| s != t && (0..3).any(|j| o[j] == y && o[(j + 1) % 3] == x))
                    .and_then(|(_, o)| o.iter().copied().find(|&i| i != x && i != y))
                    .map(|w| link[w].1)
            };
            if let Some(w) = beyond
                && surface.in_circle(link[x].1, link[y].1, link[z].1, w) > 0.0
            {
                return None;
            }
        }
    }
    Some((ears, triangles))
}

/// Every vertex of `mesh` planned both ways: the same answer, ears and triangles. Returns
/// how many plans settled and how many did not.
fn compare<S: Surface>(surface: &S, mesh: &Mesh, positions: &[DVec3]) -> (usize, usize) {
    let (mut settled, mut unsettled) = (0, 0);
    let mut plan = RemovalPlan::default();
    for v in mesh.vertices() {
        if !surface.is_closed() && mesh.is_boundary_vertex(v) {
            continue;
        }
        let fast = plan_removal(surface, None::<(&S, f64)>, mesh, positions, v, &mut plan).unwrap();
        let reference = reference_plan(surface, mesh, positions, v);
        assert_eq!(fast, reference.is_some(), "vertex {v:?}");
        if let Some((ears, triangles)) = reference {
            assert_eq!(plan.ears, ears, "vertex {v:?}");
            assert_eq!(plan.triangles, triangles, "vertex {v:?}");
            settled += 1;
        } else {
            unsettled += 1;
        }
    }
    (settled, unsettled)
}

#[test]
fn plan_decides_as_the_full_test_on_delaunay_spheres() {
    for (jitter, seed) in [(0.3, 1), (0.0, 2), (0.9, 3)] {
        let (mesh, pos) = sphere::fibonacci_sphere(3000, 1.0, jitter, seed).unwrap();
        let (settled, unsettled) = compare(&Sphere, &mesh, &pos);
        assert_eq!((settled, unsettled), (3000, 0), "jitter {jitter}");
    }
}

#[test]
fn plan_decides_as_the_full_test_on_meshes_that_are_not_delaunay() {
    // The same topology with every point moved by up to about a spacing: stars that are not
    // Delaunay, folded, or whose ears' diagonals exist already.
    let (mesh, mut pos) = sphere::fibonacci_sphere(3000, 1.0, 0.3, 4).unwrap();
    let mut rng = testkit::Rng::new(9);
    let spacing = (4.0 * std::f64::consts::PI / 3000.0).sqrt();
    for p in &mut pos {
        let d = DVec3::from_array(rng.unit_vector());
        *p = (*p + d * spacing * rng.unit_f64()).normalize();
    }
    let (settled, unsettled) = compare(&Sphere, &mesh, &pos);
    assert!(settled > 100 && unsettled > 100, "{settled} / {unsettled}");
}

#[test]
fn plan_decides_as_the_full_test_on_cocircular_grids() {
    let (mesh, pos) = testkit::planar_grid(12, (0.0, 0.0), 1.0);
    let (settled, unsettled) = compare(&Plane, &mesh, &pos);
    assert_eq!(settled + unsettled, 100);
    assert!(settled > 0);
}
