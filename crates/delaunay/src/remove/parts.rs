//! A batch of removals on two cores: the mesh in two parts ([`Mesh::edit_in_parts`]), each
//! removing the vertices whose whole star it owns, then the others on one core.
//!
//! A vertex's part is the side of a plane it lies on (a fixed axis, the plane through the
//! median of the batch's positions along it): a function of the positions and of the batch,
//! never of the thread count. Each part takes its own vertices in the batch's order and
//! removes one when it owns the vertex and every neighbour at that moment: the removal's ear
//! flips and its dissolve then stay inside the star (the plan reads the ring, the faces beyond
//! the link edges, and the corners' rings), so the part reads only its own rings and each
//! part's edits depend only on the mesh before. A vertex whose plan fails (a neighbour in the
//! other part, a huge degree, a star the plan cannot settle) is left standing,
//! and the vertices left go through [`remove`](super::remove) on one core afterwards, in the batch's order.
//! Every removal takes a Delaunay mesh to the Delaunay mesh without the vertex, so the end is
//! the triangulation [`crate::remove_many`] gives (unique without co-circular ties); only the
//! free lists' order of the freed ids differs. A surface with a boundary, and a batch of
//! fewer than [`PARTS_MIN`] vertices, stay on one core.

use super::{RemovalPlan, plan_removal};
use crate::Surface;
use crate::batch::{BatchError, removal_order, remove_in_order};
use glam::DVec3;
use quadedge::{Mesh, MeshPart, Vertex};

/// Below this many vertices one core removes them all.
const PARTS_MIN: usize = 256;

/// The axis across which the parts are cut (any fixed direction would do).
const AXIS: DVec3 = DVec3::new(0.6, -0.48, 0.64);

/// [`crate::remove_many`] on two cores: the same checks and errors, the same triangulation
/// (see the module's notes); the mesh is the same for any thread count.
///
/// # Errors
/// As [`crate::remove_many`]: before any edit (nothing changed) a dead, out-of-range or
/// repeated vertex, positions not covering the mesh, a sphere left with fewer than four
/// vertices. Then, as [`remove`](super::remove) refuses a vertex: the vertices removed before it (the
/// parts' and the serial ones before it in the batch's order) stay removed, listed in
/// `done`.
///
/// ```
/// use delaunay::{Sphere, is_delaunay, remove_many_in_parts};
/// use quadedge::Vertex;
/// let (mut mesh, pos) = sphere::fibonacci_sphere(4000, 1.0, 0.3, 1).unwrap();
/// let victims: Vec<Vertex> = (0..4000).step_by(5).map(Vertex::new).collect();
/// remove_many_in_parts(&Sphere, &mut mesh, &pos, &victims).unwrap();
/// assert_eq!(mesh.vertex_count(), 4000 - victims.len());
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// ```
pub fn remove_many_in_parts<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<(), BatchError> {
    remove_many_in_parts_within(surface, None::<(&S, f64)>, mesh, positions, vertices)
}

/// [`remove_many_in_parts`] whose parts plan a star with `within`'s surface when every point
/// the plan tests (the link and the apexes beyond it) has each coordinate within its reach.
/// That surface must return `surface`'s value, bit for bit, for every orientation and circle
/// test of such points (a static filter): the mesh is then exactly [`remove_many_in_parts`]'s.
/// The vertices left to one core take `surface`.
///
/// # Errors
/// As [`remove_many_in_parts`].
pub fn remove_many_in_parts_within<S: Surface, F: Surface>(
    surface: &S,
    within: Option<(&F, f64)>,
    mesh: &mut Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<(), BatchError> {
    let order = removal_order(surface, mesh, positions, vertices)?;
    let mut done = vec![Vertex::INVALID; vertices.len()];
    // Input indices, in the batch's order.
    let sorted: Vec<u32> = order.iter().map(|&(_, i)| i).collect();
    // A surface with a boundary keeps to one core (a part would have to test its stars'
    // faces).
    let rest = if sorted.len() < PARTS_MIN || !surface.is_closed() {
        sorted
    } else {
        let batch = (vertices, &sorted[..]);
        in_parts(surface, within, mesh, positions, batch, &mut done)
    };
    remove_in_order(surface, mesh, positions, vertices, rest, done)
}

/// What a part removed and what it left, as positions in the batch's order.
#[derive(Default)]
struct PartOut {
    removed: Vec<u32>,
    left: Vec<u32>,
}

/// The parts' removals; marks them in `done` and returns the input indices left, in the
/// batch's order.
fn in_parts<S: Surface, F: Surface>(
    surface: &S,
    within: Option<(&F, f64)>,
    mesh: &mut Mesh,
    positions: &[DVec3],
    (vertices, sorted): (&[Vertex], &[u32]),
    done: &mut [Vertex],
) -> Vec<u32> {
    let key = |v: Vertex| AXIS.dot(positions[v.index()]);
    let cut = median(vertices.iter().map(|&v| key(v)));
    let owner = |v: Vertex| match positions.get(v.index()) {
        Some(p) => u8::from(AXIS.dot(*p) > cut),
        None => 2,
    };
    let mut own: [Vec<u32>; 2] = Default::default();
    for (k, &i) in sorted.iter().enumerate() {
        if let Some(list) = own.get_mut(usize::from(owner(vertices[i as usize]))) {
            list.push(k as u32);
        }
    }
    let outs = mesh.edit_in_parts(&owner, |part| {
        let mut out = PartOut::default();
        let mut plan = RemovalPlan::default();
        for &k in &own[usize::from(part.part())] {
            let v = vertices[sorted[k as usize] as usize];
            match remove_in_part((surface, within), part, positions, v, &mut plan) {
                true => out.removed.push(k),
                false => out.left.push(k),
            }
        }
        out
    });
    let [p0, p1] = outs;
    for &k in p0.removed.iter().chain(&p1.removed) {
        let i = sorted[k as usize] as usize;
        done[i] = vertices[i];
    }
    let mut left = p0.left;
    left.extend_from_slice(&p1.left);
    left.sort_unstable();
    left.iter().map(|&k| sorted[k as usize]).collect()
}

/// The median of the finite keys (0 for none).
fn median(keys: impl Iterator<Item = f64>) -> f64 {
    let mut keys: Vec<f64> = keys.filter(|k| k.is_finite()).collect();
    if keys.is_empty() {
        return 0.0;
    }
    let mid = keys.len() / 2;
    *keys.select_nth_unstable_by(mid, f64::total_cmp).1
}

/// Removes `v` in the part (on a closed surface) when the part owns it and its whole ring,
/// with finite positions ([`super::read::StarRead::may_plan`]), and the plan settles
/// it (Delaunay ears, the hole Delaunay): the planned ear flips, then the dissolve. `false`
/// (the mesh unchanged) otherwise.
fn remove_in_part<S: Surface, F: Surface, O: Fn(Vertex) -> u8 + Sync>(
    (surface, within): (&S, Option<(&F, f64)>),
    part: &mut MeshPart<'_, O>,
    positions: &[DVec3],
    v: Vertex,
    plan: &mut RemovalPlan,
) -> bool {
    if !matches!(
        plan_removal(surface, within, part, positions, v, plan),
        Ok(true)
    ) {
        return false;
    }
    for &e in &plan.ears {
        // The plan's flips join corners that are not joined, inside the owned star: they
        // cannot be refused. Were one refused, the vertex stays (the serial pass removes
        // it from the star left, with Lawson's flips if need be).
        if part.flip_fresh(e).is_err() {
            debug_assert!(false, "planned ear flip of {e:?} refused in a part");
            return false;
        }
    }
    part.dissolve_vertex(v).is_ok()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod within_tests;
