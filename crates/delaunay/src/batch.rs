//! Batch insertion and removal: the same edits as [`insert`] and [`remove`], in an order that
//! keeps memory access coherent.
//!
//! At a million vertices the cost of one insertion or removal is cache misses, not
//! instructions: a mesh whose ids are not in spatial order (a Fibonacci lattice, say) puts a
//! vertex's neighbours far apart in memory. Taking a batch in the order of a space-filling
//! curve (a Morton key of the positions) makes consecutive edits touch the region the previous
//! one left in cache, and the walk from the previous insertion is a step or two long.

use crate::check::check_len;
use crate::morton::{MortonFrame, refine_runs};
use crate::{DelaunayError, Surface, insert, remove};
use glam::DVec3;
use quadedge::{Face, Mesh, Vertex};
use rayon::prelude::*;

/// Why a batch stopped, and what it had done.
///
/// Checks that need no edit run first (then nothing changed and every entry of `done` is
/// [`Vertex::INVALID`]); after that the batch runs item by item in spatial order, each item all
/// or nothing as the single operation, and stops at the first failure: the items done before
/// it stay done.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchError {
    /// The input index of the item that failed.
    pub index: usize,
    /// Why it failed.
    pub error: DelaunayError,
    /// Per input item: the vertex it created ([`insert_many`]) or removed ([`remove_many`]),
    /// [`Vertex::INVALID`] when it was not done.
    pub done: Vec<Vertex>,
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.done.iter().filter(|v| v.is_valid()).count();
        write!(
            f,
            "item {} failed after {n} done: {}",
            self.index, self.error
        )
    }
}

impl std::error::Error for BatchError {}

/// Inserts every point of `points` ([`insert`] for each), in the order of a Morton key of the
/// points, each walk starting from the previous insertion's face; the mesh and the positions
/// grow once. Returns the new vertex of each point, in input order.
///
/// The result is the triangulation the same insertions one by one would give (the Delaunay
/// triangulation is unique up to co-circular ties; [`Mesh::split_face`]'s data weights are
/// those of the face each point falls in, which may differ with the order).
///
/// # Errors
/// A [`BatchError`] naming the failed point's input index. Before any edit (nothing changed):
/// positions not covering the mesh, a NaN or infinite point ([`DelaunayError::NonFinite`]), the
/// same point twice in the batch ([`DelaunayError::Duplicate`] with [`Vertex::INVALID`]), more
/// points than the mesh's ids can hold. Then, as [`insert`] refuses a point (on an existing
/// vertex, outside, not in convex position): the points inserted before it stay, listed in
/// `done`; the failed point and those after it in the batch's spatial order are not inserted.
/// For all or nothing over the whole batch, use [`insert_many_atomic`].
///
/// ```
/// use delaunay::{Sphere, insert_many, is_delaunay};
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
/// let points: Vec<glam::DVec3> = (0..200)
///     .map(|i| glam::DVec3::new((i as f64).sin(), (i as f64 * 0.7).cos(), 0.3 - i as f64 * 0.003).normalize())
///     .collect();
/// let new = insert_many(&Sphere, &mut mesh, &mut pos, &points).unwrap();
/// assert_eq!(mesh.vertex_count(), 1200);
/// assert_eq!(pos[new[7].index()], points[7]);
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// ```
pub fn insert_many<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    points: &[DVec3],
) -> Result<Vec<Vertex>, BatchError> {
    let fail = |index: usize, error: DelaunayError| BatchError {
        index,
        error,
        done: vec![Vertex::INVALID; points.len()],
    };
    check_len(mesh, positions).map_err(|e| fail(0, e))?;
    if let Some(i) = points.iter().position(|p| !p.is_finite()) {
        return Err(fail(i, DelaunayError::NonFinite(None)));
    }
    mesh.reserve(points.len()).map_err(|e| fail(0, e.into()))?;
    positions
        .try_reserve(points.len())
        .map_err(|_| fail(0, quadedge::MeshError::OutOfMemory.into()))?;
    let order = spatial_order(points.iter().copied());
    // Equal points have equal keys and bits: they sit side by side, by input index.
    for w in order.windows(2) {
        let (a, b) = (w[0].1 as usize, w[1].1 as usize);
        if w[0].0 == w[1].0 && points[a] == points[b] {
            return Err(fail(b, DelaunayError::Duplicate(Vertex::INVALID)));
        }
    }
    let mut done = vec![Vertex::INVALID; points.len()];
    let mut hint: Option<Face> = None;
    for &(_, i) in &order {
        let i = i as usize;
        match insert(surface, mesh, positions, points[i], hint) {
            Ok(ins) => {
                done[i] = ins.vertex;
                hint = mesh.vertex_faces(ins.vertex).next();
            }
            Err(error) => {
                return Err(BatchError {
                    index: i,
                    error,
                    done,
                });
            }
        }
    }
    Ok(done)
}

/// [`insert_many`], all or nothing: on any error the mesh (bit for bit, free lists included)
/// and `positions` (length, and the entries of dead vertex slots the batch reused) are as they
/// were, and the error's `done` lists nothing. Costs one pass over the vertex slots more when
/// the mesh has dead slots (their positions are kept aside), nothing more otherwise.
///
/// # Errors
/// As [`insert_many`], with nothing done.
///
/// ```
/// use delaunay::{Sphere, insert_many_atomic, remove};
/// let (mut mesh, mut pos) = sphere::fibonacci_sphere(500, 1.0, 0.3, 1).unwrap();
/// remove(&Sphere, &mut mesh, &pos, quadedge::Vertex::new(3)).unwrap(); // a dead slot to reuse
/// let (before, before_pos) = (mesh.clone(), pos.clone());
/// // The second point lies on vertex 9: refused, and nothing of the batch stays.
/// let points = [glam::DVec3::new(0.3, -0.2, 0.9).normalize(), pos[9]];
/// assert!(insert_many_atomic(&Sphere, &mut mesh, &mut pos, &points).is_err());
/// assert_eq!((mesh, pos), (before, before_pos));
/// ```
pub fn insert_many_atomic<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &mut Vec<DVec3>,
    points: &[DVec3],
) -> Result<Vec<Vertex>, BatchError> {
    let old_len = positions.len();
    let dead: Vec<(u32, DVec3)> = if mesh.vertex_count() < mesh.vertex_slots() {
        (0..mesh.vertex_slots().min(old_len) as u32)
            .filter(|&i| !mesh.is_vertex_alive(Vertex::new(i)))
            .map(|i| (i, positions[i as usize]))
            .collect()
    } else {
        Vec::new()
    };
    mesh.atomically(|mesh| insert_many(surface, mesh, positions, points))
        .map_err(|mut e| {
            positions.truncate(old_len);
            for &(i, p) in &dead {
                positions[i as usize] = p;
            }
            e.done.fill(Vertex::INVALID);
            e
        })
}

/// Removes every vertex of `vertices` ([`remove`] for each), in the order of a Morton key of
/// their positions, so consecutive removals work on neighbouring stars.
///
/// # Errors
/// A [`BatchError`] naming the failed vertex's input index. Before any edit (nothing changed):
/// positions not covering the mesh, a dead or out-of-range id ([`DelaunayError::DeadVertex`]),
/// the same vertex twice ([`DelaunayError::DeadVertex`] at its second occurrence), a sphere
/// left with fewer than four vertices ([`DelaunayError::TooFewVertices`]). Then, as
/// [`remove`] refuses a vertex (a boundary vertex of the plane, positions not finite, a mesh
/// that was not Delaunay): the vertices removed before it stay removed, listed in `done`.
///
/// ```
/// use delaunay::{Sphere, is_delaunay, remove_many};
/// use quadedge::Vertex;
/// let (mut mesh, pos) = sphere::fibonacci_sphere(1000, 1.0, 0.3, 1).unwrap();
/// let victims: Vec<Vertex> = (0..1000).step_by(7).map(Vertex::new).collect();
/// remove_many(&Sphere, &mut mesh, &pos, &victims).unwrap();
/// assert_eq!(mesh.vertex_count(), 1000 - victims.len());
/// assert_eq!(is_delaunay(&Sphere, &mesh, &pos), Ok(()));
/// ```
pub fn remove_many<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<(), BatchError> {
    let order = removal_order(surface, mesh, positions, vertices)?;
    let done = vec![Vertex::INVALID; vertices.len()];
    remove_in_order(
        surface,
        mesh,
        positions,
        vertices,
        order.iter().map(|&(_, i)| i),
        done,
    )
}

/// [`remove`] for each input index of `order`, marking the removed in `done`; the first
/// refusal stops it with the index and what was removed so far.
pub(crate) fn remove_in_order<S: Surface>(
    surface: &S,
    mesh: &mut Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
    order: impl IntoIterator<Item = u32>,
    mut done: Vec<Vertex>,
) -> Result<(), BatchError> {
    for i in order {
        let (i, v) = (i as usize, vertices[i as usize]);
        if let Err(error) = remove(surface, mesh, positions, v) {
            return Err(BatchError {
                index: i,
                error,
                done,
            });
        }
        done[i] = v;
    }
    Ok(())
}

/// The checks of [`remove_many`] that need no edit, then the order of its removals.
pub(crate) fn removal_order<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<Vec<(u64, u32)>, BatchError> {
    let fail = |index: usize, error: DelaunayError| BatchError {
        index,
        error,
        done: vec![Vertex::INVALID; vertices.len()],
    };
    check_len(mesh, positions).map_err(|e| fail(0, e))?;
    if let Some(i) = vertices
        .iter()
        .position(|&v| v.index() >= mesh.vertex_slots() || !mesh.is_vertex_alive(v))
    {
        return Err(fail(i, DelaunayError::DeadVertex(vertices[i])));
    }
    let mut seen = vec![false; mesh.vertex_slots()];
    for (i, &v) in vertices.iter().enumerate() {
        if std::mem::replace(&mut seen[v.index()], true) {
            return Err(fail(i, DelaunayError::DeadVertex(v)));
        }
    }
    drop(seen);
    let left = mesh.vertex_count() - vertices.len();
    if surface.is_closed() && left < 4 && !vertices.is_empty() {
        return Err(fail(0, DelaunayError::TooFewVertices(mesh.vertex_count())));
    }
    // The positions gathered and keyed on all cores (a batch is scattered over the mesh).
    let all = vertices
        .par_iter()
        .with_min_len(ON_ALL_CORES)
        .map(|v| positions[v.index()])
        .collect();
    Ok(keyed_order(all))
}

/// Batches from this many items key and sort on all cores (the same order for any thread
/// count: the order is total).
const ON_ALL_CORES: usize = 4096;

/// `(Morton key, input index)` of each point, sorted (the frame: the finite points'
/// bounding box; runs of equal keys along their own curve, see [`refine_runs`]); a non-finite
/// coordinate sorts as the frame's high side.
fn spatial_order(points: impl Iterator<Item = DVec3>) -> Vec<(u64, u32)> {
    keyed_order(points.collect())
}

/// [`spatial_order`] of `all`.
fn keyed_order(all: Vec<DVec3>) -> Vec<(u64, u32)> {
    let frame = MortonFrame::of(all.iter().copied());
    let mut order: Vec<(u64, u32)> = all
        .par_iter()
        .with_min_len(ON_ALL_CORES)
        .enumerate()
        .map(|(i, &p)| (frame.key(p), i as u32))
        .collect();
    // Ties by coordinates, then index: equal points end side by side.
    let bits = |i: u32| {
        let p = all[i as usize];
        (p.x.to_bits(), p.y.to_bits(), p.z.to_bits())
    };
    let by = |a: &(u64, u32), b: &(u64, u32)| {
        a.0.cmp(&b.0)
            .then_with(|| bits(a.1).cmp(&bits(b.1)))
            .then(a.1.cmp(&b.1))
    };
    if order.len() < ON_ALL_CORES {
        order.sort_unstable_by(by);
    } else {
        order.par_sort_unstable_by(by);
    }
    refine_runs(&mut order, |i| all[i as usize]);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keyed and sorted on all cores, the order one core gives (a serial sort of the same
    /// keys), with repeated points and more items than [`ON_ALL_CORES`], on 1 and 3 threads.
    #[test]
    fn the_order_on_all_cores_is_the_serial_order() {
        let points: Vec<DVec3> = (0..3 * ON_ALL_CORES)
            .map(|i| {
                let t = (i % (2 * ON_ALL_CORES)) as f64;
                DVec3::new((t * 0.37).sin(), (t * 0.011).cos(), (t * 0.23).sin() * 0.5)
            })
            .collect();
        let frame = MortonFrame::of(points.iter().copied());
        let mut serial: Vec<(u64, u32)> = (0..points.len() as u32)
            .map(|i| (frame.key(points[i as usize]), i))
            .collect();
        let bits = |i: u32| {
            let p = points[i as usize];
            (p.x.to_bits(), p.y.to_bits(), p.z.to_bits())
        };
        serial.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| bits(a.1).cmp(&bits(b.1)))
                .then(a.1.cmp(&b.1))
        });
        refine_runs(&mut serial, |i| points[i as usize]);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let order = pool.install(|| spatial_order(points.iter().copied()));
            assert_eq!(order, serial, "{threads} threads");
        }
    }
}
