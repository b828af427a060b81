//! The whole-mesh passes of a restore that moved many vertices: a linear scan of flat arrays
//! costs less than walking every moved vertex's ring when most vertices moved.

use crate::check::finite4;
use crate::covering::Probe;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};

/// What a pass over the faces found.
#[derive(Debug, Default)]
pub(super) struct FaceScan {
    /// Clockwise or flat faces with a moved corner.
    pub(super) folds: usize,
    /// The smallest moved corner of each such face (not deduplicated).
    pub(super) owners: Vec<Vertex>,
    /// The corners of each such face.
    pub(super) folded: Vec<[Vertex; 3]>,
    /// With the covering asked for: the corners of each counter-clockwise face holding the
    /// covering probe ([`crate::covering`]; the faces without a moved corner are taken as
    /// they were, counter-clockwise).
    pub(super) holding: Option<Vec<[Vertex; 3]>>,
}

/// One pass over the faces: the clockwise or flat faces with a moved corner (each once) and,
/// with `covering`, the faces holding the covering probe.
pub(super) fn scan_folds<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    moved: &[bool],
    covering: bool,
) -> Result<FaceScan, DelaunayError> {
    let probe = Probe::new(surface, [DVec3::ZERO; 3]);
    let mut scan = FaceScan {
        holding: covering.then(Vec::new),
        ..FaceScan::default()
    };
    for f in mesh.faces() {
        let corners = mesh.face_vertices(f);
        let [a, b, c] = corners;
        let m = [moved[a.index()], moved[b.index()], moved[c.index()]];
        if m == [false; 3] && !covering {
            continue;
        }
        let [pa, pb, pc, _] = finite4(positions, [a, b, c, a])?;
        if m != [false; 3] && surface.orient(pa, pb, pc) <= 0.0 {
            scan.folds += 1;
            let owner = corners
                .into_iter()
                .zip(m)
                .filter(|&(_, m)| m)
                .map(|(v, _)| v)
                .min();
            scan.owners.extend(owner);
            scan.folded.push(corners);
        } else if let Some(h) = scan.holding.as_mut()
            && probe.in_face(surface, [pa, pb, pc])
        {
            h.push(corners);
        }
    }
    Ok(scan)
}

/// One pass over the edges: pushes to `out` every edge that is not locally Delaunay among
/// those whose circle test a move can change (one of its four quad corners moved). Lawson
/// then starts from these only: an edge found Delaunay here changes its quad only through a
/// neighbouring flip, which queues it again.
pub(super) fn scan_reflex<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    moved: &[bool],
    out: &mut Vec<Edge>,
) -> Result<(), DelaunayError> {
    for e in mesh.undirected_edges() {
        if mesh.is_boundary_edge(e) {
            continue;
        }
        let quad = [
            mesh.origin(e),
            mesh.dest(e),
            mesh.dest(mesh.left_next(e)),
            mesh.dest(mesh.left_next(e.sym())),
        ];
        if !quad.iter().any(|v| moved[v.index()]) {
            continue;
        }
        let [pa, pb, pc, pd] = finite4(positions, quad)?;
        if surface.in_circle(pa, pb, pc, pd) > 0.0 {
            out.push(e);
        }
    }
    Ok(())
}
