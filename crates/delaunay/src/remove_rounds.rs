//! Removing many vertices with their removals planned on all cores: in rounds of vertices
//! whose closed stars are disjoint, each round planned on the mesh as the last round left it
//! and applied in a fixed order.
//!
//! A removal ([`crate::remove`]) flips edges at the removed vertex and dissolves it: it
//! changes only the faces and edges at that vertex and adds edges between its neighbours.
//! Its plan reads the vertex's star, the faces across its link and its neighbours' rings. So
//! when no two vertices of a round share a vertex of their closed stars (the vertex and its
//! neighbours), no removal of the round changes what another's plan read: the plans made on
//! the mesh at the round's start are the plans each would make in its turn. A vertex the
//! plan cannot settle (the general path's Lawson flips reach beyond the star) is removed
//! after the round's planned ones; a vertex whose star meets one already taken waits for a
//! later round.
//!
//! The triangulation left is that of [`crate::remove_many`] (the Delaunay triangulation of
//! the vertices left, unique but for co-circular points); the order of the removals differs,
//! so which quad-edge and face slots hold which edges and faces differs too. The rounds, the
//! order within each and the fallbacks depend on the mesh and the input only: the same
//! mesh for any thread count.

use crate::check::check_len;
use crate::remove::{plan_removal, remove, with_plan};
use crate::{BatchError, DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// Removes `vertices` (live, distinct) and re-triangulates their holes as Delaunay, as
/// [`crate::remove_many`] does, planning the removals on all cores (see the module docs);
/// the vertices are taken in input order within each round.
///
/// # Errors
/// As [`crate::remove_many`]: a dead or repeated vertex, too few vertices left, or what a
/// removal refuses; mesh and positions are then as far as the removals went (`done` names
/// them), so callers run it inside [`Mesh::atomically`] to keep it all or nothing.
pub fn remove_in_rounds<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<(), BatchError> {
    let fail =
        |index: usize, error: DelaunayError, done: Vec<Vertex>| BatchError { index, error, done };
    let none = || vec![Vertex::INVALID; vertices.len()];
    check_len(mesh, positions).map_err(|e| fail(0, e, none()))?;
    // Each vertex named once.
    let mut named = vec![u32::MAX; mesh.vertex_slots()];
    for (i, &v) in vertices.iter().enumerate() {
        let alive = v.index() < mesh.vertex_slots() && mesh.is_vertex_alive(v);
        if !alive || named[v.index()] != u32::MAX {
            return Err(fail(i, DelaunayError::DeadVertex(v), none()));
        }
        named[v.index()] = i as u32;
    }
    drop(named);
    if surface.is_closed() && !vertices.is_empty() && mesh.vertex_count() - vertices.len() < 4 {
        return Err(fail(
            0,
            DelaunayError::TooFewVertices(mesh.vertex_count()),
            none(),
        ));
    }
    let mut done = none();
    let mut claimed = vec![0u32; mesh.vertex_slots()];
    let mut left: Vec<u32> = (0..vertices.len() as u32).collect();
    let mut round = 0u32;
    while !left.is_empty() {
        round += 1;
        let (take, wait) = split_round(mesh, vertices, &left, &mut claimed, round);
        let plans: Vec<Option<Vec<Edge>>> = {
            let m: &Mesh = mesh;
            take.par_iter()
                .with_min_len(64)
                .map(|&i| plan(surface, m, positions, vertices[i as usize]))
                .collect()
        };
        let mut later = Vec::new();
        for (&i, plan) in take.iter().zip(plans) {
            let v = vertices[i as usize];
            match plan {
                Some(ears) => {
                    for e in ears {
                        let r = mesh.flip_fresh(e);
                        debug_assert!(r.is_ok(), "planned ear flip of {e:?}: {r:?}");
                    }
                    if let Err(e) = mesh.dissolve_vertex(v) {
                        return Err(fail(i as usize, e.into(), done));
                    }
                    done[i as usize] = v;
                }
                None => later.push(i),
            }
        }
        for i in later {
            let v = vertices[i as usize];
            if let Err(error) = remove(surface, mesh, positions, v) {
                return Err(fail(i as usize, error, done));
            }
            done[i as usize] = v;
        }
        left = wait;
    }
    Ok(())
}

/// The vertices of `left` (input indices, in order) whose closed stars meet no closed star
/// taken before them in this round, and the others; marks the taken stars with `round`.
fn split_round(
    mesh: &Mesh,
    vertices: &[Vertex],
    left: &[u32],
    claimed: &mut [u32],
    round: u32,
) -> (Vec<u32>, Vec<u32>) {
    let mut take = Vec::new();
    let mut wait = Vec::new();
    for &i in left {
        let v = vertices[i as usize];
        let free =
            claimed[v.index()] != round && mesh.neighbors(v).all(|u| claimed[u.index()] != round);
        if free {
            claimed[v.index()] = round;
            for u in mesh.neighbors(v) {
                claimed[u.index()] = round;
            }
            take.push(i);
        } else {
            wait.push(i);
        }
    }
    (take, wait)
}

/// The ear flips that remove `v` ([`plan_removal`]), `None` when the plan cannot settle it
/// (the general path removes it, or reports why not).
fn plan<S: Surface>(surface: &S, mesh: &Mesh, positions: &[DVec3], v: Vertex) -> Option<Vec<Edge>> {
    if !surface.is_closed() && mesh.is_boundary_vertex(v) {
        return None;
    }
    if !mesh.neighbors(v).all(|u| positions[u.index()].is_finite()) {
        return None;
    }
    with_plan(|p| match plan_removal(surface, mesh, positions, v, p) {
        Ok(true) => Some(p.ears.clone()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sphere;

    /// The faces of a mesh as sorted corner triples, sorted.
    fn faces(mesh: &Mesh) -> Vec<[u32; 3]> {
        let mut f: Vec<[u32; 3]> = mesh
            .faces()
            .map(|f| {
                let mut c = mesh.face_vertices(f).map(|v| v.index() as u32);
                c.sort_unstable();
                c
            })
            .collect();
        f.sort_unstable();
        f
    }

    /// Strips of neighbouring vertices and scattered ones: the triangulation of
    /// `remove_many`, Delaunay, the same mesh on 1, 2 and 4 threads.
    #[test]
    fn rounds_leave_the_triangulation_remove_many_leaves() {
        for seed in 0..3 {
            let (mesh, pos) = sphere::fibonacci_sphere(4000, 1.0, 0.3, seed).unwrap();
            let mut rng = testkit::Rng::new(seed + 40);
            let gone: Vec<Vertex> = mesh
                .vertices()
                .filter(|v| {
                    let p = pos[v.index()];
                    p.z.abs() < 0.06 || rng.below(9) == 0
                })
                .collect();
            assert!(gone.len() > 500);
            let mut serial = mesh.clone();
            crate::remove_many(&Sphere, &mut serial, &pos, &gone).unwrap();
            let mut meshes = Vec::new();
            for pool in testkit::thread_pools() {
                let mut m = mesh.clone();
                pool.install(|| remove_in_rounds(&Sphere, &mut m, &pos, &gone))
                    .unwrap();
                meshes.push(m);
            }
            assert_eq!(faces(&meshes[0]), faces(&serial));
            assert!(crate::is_delaunay(&Sphere, &meshes[0], &pos).is_ok());
            assert!(meshes.windows(2).all(|w| w[0] == w[1]));
        }
    }

    #[test]
    fn bad_input_is_refused_before_any_edit() {
        let (mesh, pos) = sphere::fibonacci_sphere(200, 1.0, 0.3, 1).unwrap();
        let v = Vertex::new(5);
        let mut m = mesh.clone();
        let e = remove_in_rounds(&Sphere, &mut m, &pos, &[v, v]).unwrap_err();
        assert_eq!((e.index, m == mesh), (1, true));
        let e = remove_in_rounds(&Sphere, &mut m, &pos, &[Vertex::new(10_000)]).unwrap_err();
        assert!(matches!(e.error, DelaunayError::DeadVertex(_)));
        let all: Vec<Vertex> = mesh.vertices().collect();
        let e = remove_in_rounds(&Sphere, &mut m, &pos, &all[3..]).unwrap_err();
        assert!(matches!(e.error, DelaunayError::TooFewVertices(_)));
        assert!(m == mesh);
    }
}
