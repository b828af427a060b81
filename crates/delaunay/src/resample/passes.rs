//! The parallel passes of [`stencils`](super::stencils): vertices, then faces and edges
//! (which start their walks from the vertices' answers), each in fixed chunks of ids.

use super::{Barycentric, Stencils, face_at, locate_near, nearest_edge, stencil_at};
use crate::check::{check_len, pos};
use crate::hint::HintGrid;
use crate::locate::walk;
use crate::{DelaunayError, Location};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;

/// Elements per task of the parallel passes. Fixed, so every chunk's walks start from the
/// same hints whatever the thread count, and the stencils come out bit for bit the same.
const CHUNK: usize = 4096;

/// Face slots per sampled face of the vertex pass's hint grid.
const GRID_STRIDE: usize = 4;

/// The old and the new mesh of a [`stencils`] call.
pub(super) struct Meshes<'a, S> {
    pub(super) surface: &'a S,
    pub(super) old_mesh: &'a Mesh,
    pub(super) old_positions: &'a [DVec3],
    pub(super) new_mesh: &'a Mesh,
    pub(super) new_positions: &'a [DVec3],
}

impl<S: Barycentric> Meshes<'_, S> {
    /// [`locate_near`] in the old mesh.
    fn locate(&self, p: DVec3, hint: Option<Face>) -> Result<Location, DelaunayError> {
        locate_near(self.surface, self.old_mesh, self.old_positions, p, hint)
    }
}

/// The first error of per-chunk results, in chunk order (so the same for any thread count).
fn first_error(results: Vec<Result<(), DelaunayError>>) -> Result<(), DelaunayError> {
    results.into_iter().collect()
}

/// `len` slots filled on all cores by `fill(first slot, chunk)`, in chunks of `chunk` slots.
fn filled<T: Copy + Send>(
    len: usize,
    empty: T,
    chunk: usize,
    fill: impl Fn(usize, &mut [T]) -> Result<(), DelaunayError> + Sync,
) -> Result<Vec<T>, DelaunayError> {
    let mut out = vec![empty; len];
    let results = out
        .par_chunks_mut(chunk)
        .enumerate()
        .map(|(k, part)| fill(k * chunk, part))
        .collect();
    first_error(results)?;
    Ok(out)
}

pub(super) fn vertex_stencils<S: Barycentric + Sync>(
    m: &Meshes<'_, S>,
) -> Result<Stencils, DelaunayError> {
    check_len(m.old_mesh, m.old_positions)?;
    if m.old_mesh.face_count() == 0 {
        return Err(DelaunayError::TooFewVertices(m.old_mesh.vertex_count()));
    }
    let slots = m.new_mesh.vertex_slots();
    let mut corners = vec![[Vertex::INVALID; 3]; slots];
    let mut weights = vec![[0.0f32; 3]; slots];
    let mut vertex_faces = vec![Face::INVALID; slots];
    // Built on one core, and only used where a chunk starts or the order jumps: from every
    // fourth face (a cell two edges wide, against one for the full grid).
    let grid = HintGrid::sampled(m.old_mesh, m.old_positions, GRID_STRIDE);
    // Chunks of vertex ids, each walking in id order: visiting new vertices in a spatial
    // order instead (a cube-map bucket sort) was measured slower (stencils and
    // `World::resample` of 1M onto 1M in spiral order: 1.36 s against 0.82 s of CPU), as the
    // new mesh's reads and writes then jump; meshes in spatial order (Hilbert-sorted) get
    // both coherent walks and sequential writes.
    let results = corners
        .par_chunks_mut(CHUNK)
        .zip(weights.par_chunks_mut(CHUNK))
        .zip(vertex_faces.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(k, ((c, w), f))| vertex_chunk(m, &grid, k * CHUNK, c, w, f))
        .collect();
    first_error(results)?;
    Ok(Stencils {
        corners,
        weights,
        vertex_faces,
        faces: Vec::new(),
        edges: Vec::new(),
    })
}

/// The stencils of new vertex slots `first..first + corners.len()`.
fn vertex_chunk<S: Barycentric>(
    m: &Meshes<'_, S>,
    grid: &HintGrid,
    first: usize,
    corners: &mut [[Vertex; 3]],
    weights: &mut [[f32; 3]],
    faces: &mut [Face],
) -> Result<(), DelaunayError> {
    let old_mesh = m.old_mesh;
    // Two grid cells (a cube-face side spans π/2): closer than that, the previous answer is
    // the better start (a walk of a step or two through memory that is still cached).
    let side = (grid.cell_count() as f64 / 6.0).sqrt();
    let near2 = (2.0 * std::f64::consts::FRAC_PI_2 / side).powi(2);
    let mut prev: Option<(DVec3, Face)> = None;
    for j in 0..corners.len() {
        let v = Vertex::new((first + j) as u32);
        if !m.new_mesh.is_vertex_alive(v) {
            continue;
        }
        let p = pos(m.new_positions, v)?;
        let start = match prev {
            Some((q, f)) if (p - q).length_squared() <= near2 * p.length_squared() => f,
            _ => grid.hint(p),
        };
        let start = (start.index() < old_mesh.face_slots() && old_mesh.is_face_alive(start))
            .then_some(start);
        let f;
        (corners[j], weights[j], f) = match walked_stencil(m, p, start)? {
            Some(found) => found,
            None => {
                let loc = m.locate(p, start)?;
                let (c, w) = stencil_at(m.surface, old_mesh, m.old_positions, p, loc)?;
                (c, w, face_at(old_mesh, loc))
            }
        };
        if f.is_valid() {
            prev = Some((p, f));
        }
        faces[j] = f;
    }
    Ok(())
}

/// A vertex stencil (corners, weights) and the old face it was found in.
type Stencil = ([Vertex; 3], [f32; 3], Face);

/// The stencil of `p` and its face when the walk from `start` ends strictly inside a face:
/// read off the walk's last face (its corners in [`Mesh::face_vertices`] order, as
/// [`stencil_at`] takes them, so the same bits), without reading the face again. `None` on
/// an old edge or vertex, or outside a planar mesh ([`stencil_at`] then).
fn walked_stencil<S: Barycentric>(
    m: &Meshes<'_, S>,
    p: DVec3,
    start: Option<Face>,
) -> Result<Option<Stencil>, DelaunayError> {
    let found = walk(m.surface, m.old_mesh, m.old_positions, p, start)?;
    let (Location::InFace(f), Some((edges, corners))) = (found.loc, found.face) else {
        return Ok(None);
    };
    let first = m.old_mesh.face_edge(f);
    let Some(k) = edges.iter().position(|&x| x == first) else {
        return Ok(None);
    };
    let [a, b, c] = [k, (k + 1) % 3, (k + 2) % 3];
    let ids = [a, b, c].map(|i| m.old_mesh.origin(edges[i]));
    let w = (m.surface).weights(corners[a], corners[b], corners[c], p);
    Ok(Some((ids, w.map(|x| x as f32), f)))
}

/// A hint for a query near new vertex `v`: the old face `v` was found in, if still usable.
fn hint_of(old_mesh: &Mesh, s: &Stencils, v: Vertex) -> Option<Face> {
    let f = *s.vertex_faces.get(v.index())?;
    usable(old_mesh, f).then_some(f)
}

/// Is `f` a live face of `old_mesh` (a walk may start there)?
fn usable(old_mesh: &Mesh, f: Face) -> bool {
    f.index() < old_mesh.face_slots() && old_mesh.is_face_alive(f)
}

pub(super) fn face_sources<S: Barycentric + Sync>(
    m: &Meshes<'_, S>,
    s: &Stencils,
) -> Result<Vec<Face>, DelaunayError> {
    let len = m.new_mesh.face_slots();
    filled(len, Face::INVALID, CHUNK, |first, out| {
        face_chunk(m, s, first, out)
    })
}

/// The sources of new face slots `first..first + out.len()`.
fn face_chunk<S: Barycentric>(
    m: &Meshes<'_, S>,
    s: &Stencils,
    first: usize,
    out: &mut [Face],
) -> Result<(), DelaunayError> {
    for (j, slot) in out.iter_mut().enumerate() {
        let f = Face::new((first + j) as u32);
        if !m.new_mesh.is_face_alive(f) {
            continue;
        }
        let c = m.new_mesh.face_vertices(f);
        let [a, b, d] = [
            pos(m.new_positions, c[0])?,
            pos(m.new_positions, c[1])?,
            pos(m.new_positions, c[2])?,
        ];
        let loc = m.locate(m.surface.centroid(a, b, d), hint_of(m.old_mesh, s, c[0]))?;
        *slot = face_at(m.old_mesh, loc);
    }
    Ok(())
}

pub(super) fn edge_sources<S: Barycentric + Sync>(
    m: &Meshes<'_, S>,
    s: &Stencils,
) -> Result<Vec<Edge>, DelaunayError> {
    let len = 2 * m.new_mesh.quad_slots();
    filled(len, Edge::INVALID, 2 * CHUNK, |first, out| {
        edge_chunk(m, s, first, out)
    })
}

/// The sources of new directed edge slots `first..first + out.len()` (`first` even).
fn edge_chunk<S: Barycentric>(
    m: &Meshes<'_, S>,
    s: &Stencils,
    first: usize,
    out: &mut [Edge],
) -> Result<(), DelaunayError> {
    for j in (0..out.len()).step_by(2) {
        let e = Edge::primal((first + j) as u32);
        if !m.new_mesh.is_edge_alive(e) {
            continue;
        }
        let (u, v) = (m.new_mesh.origin(e), m.new_mesh.dest(e));
        let (a, b) = (pos(m.new_positions, u)?, pos(m.new_positions, v)?);
        let mid = m.surface.midpoint(a, b);
        // From the old face of the centroid of the new face beside the edge (a third of
        // that face's height from the midpoint) when the face pass ran, else from `u`'s.
        let hint = s
            .faces
            .get(m.new_mesh.left(e).index())
            .copied()
            .filter(|&f| usable(m.old_mesh, f))
            .or_else(|| hint_of(m.old_mesh, s, u));
        let (old, oa, ob) = match edge_in_face(m, mid, hint)? {
            Some(found) => found,
            None => edge_by_location(m, s, u, mid)?,
        };
        // Directed like the new edge.
        let old = if (ob - oa).dot(b - a) >= 0.0 {
            old
        } else {
            old.sym()
        };
        out[j] = old;
        out[j + 1] = old.sym();
    }
    Ok(())
}

/// The old edge for midpoint `mid` with its origin's and destination's positions, when the
/// walk from `hint` ends strictly inside a face: the edge of that face whose midpoint is
/// nearest, read off the walk's last face (the answer of [`edge_by_location`], which a point
/// strictly inside one face fixes whatever the walk). `None` on an old edge or vertex, or
/// outside a planar mesh, where the answer may depend on the walk.
fn edge_in_face<S: Barycentric>(
    m: &Meshes<'_, S>,
    mid: DVec3,
    hint: Option<Face>,
) -> Result<Option<(Edge, DVec3, DVec3)>, DelaunayError> {
    let found = walk(m.surface, m.old_mesh, m.old_positions, mid, hint)?;
    let (Location::InFace(f), Some((edges, corners))) = (found.loc, found.face) else {
        return Ok(None);
    };
    // In `face_edges` order, as `nearest_edge` takes them (the first of equal keys wins).
    let first = m.old_mesh.face_edge(f);
    let start = edges.iter().position(|&x| x == first).unwrap_or(0);
    let mut best = (f64::INFINITY, 0);
    for k in (start..start + 3).map(|k| k % 3) {
        let key = m
            .surface
            .distance_key(mid, m.surface.midpoint(corners[k], corners[(k + 1) % 3]));
        if key < best.0 || k == start {
            best = (key, k);
        }
    }
    let k = best.1;
    Ok(Some((edges[k], corners[k], corners[(k + 1) % 3])))
}

/// The old edge for the midpoint `mid` of a new edge leaving `u`, located from `u`'s old
/// face, with its origin's and destination's positions.
fn edge_by_location<S: Barycentric>(
    m: &Meshes<'_, S>,
    s: &Stencils,
    u: Vertex,
    mid: DVec3,
) -> Result<(Edge, DVec3, DVec3), DelaunayError> {
    let (old_mesh, old_positions) = (m.old_mesh, m.old_positions);
    let loc = m.locate(mid, hint_of(old_mesh, s, u))?;
    let old = match loc {
        Location::OnEdge(x) | Location::Outside(x) => x,
        loc => nearest_edge(
            m.surface,
            old_mesh,
            old_positions,
            face_at(old_mesh, loc),
            mid,
        )?,
    };
    Ok((
        old,
        pos(old_positions, old_mesh.origin(old))?,
        pos(old_positions, old_mesh.dest(old))?,
    ))
}

#[cfg(test)]
mod tests;
