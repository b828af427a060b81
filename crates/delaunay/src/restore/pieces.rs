//! The restore of a motion by rigid pieces ([`super::restore_rigid_band`]): which quads and
//! faces the motion cannot have changed, so that Lawson's first tests and the fold test skip
//! them.
//!
//! A quad (an edge and its two faces) whose four corners lie on one piece turned with them by
//! one rotation: its circle test keeps its sign, so it is as Delaunay as before the motion,
//! unless the repair has since flipped one of its edges, which always leaves a corner among
//! the vertices whose stars the repair changed. Likewise a face with its three corners on one
//! piece keeps its orientation. (As everywhere in the rigid restore, "keeps its sign" holds up
//! to the rounding of the turned coordinates: four points of a piece cocircular to within
//! about 1e-15 of the radius are not re-tested.)

use super::par::PAR_MIN;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// Piece labels of the vertices by index; a vertex beyond the slice is on no piece (its quads
/// and faces are always tested).
#[derive(Clone, Copy)]
pub(super) struct Pieces<'a>(pub(super) &'a [u32]);

impl Pieces<'_> {
    /// Are all of `corners` on one piece?
    #[inline]
    pub(super) fn one_piece(self, corners: &[Vertex]) -> bool {
        let label = |v: &Vertex| self.0.get(v.index()).copied();
        match corners.split_first() {
            Some((first, rest)) => {
                let p = label(first);
                p.is_some() && rest.iter().all(|v| label(v) == p)
            }
            None => false,
        }
    }
}

/// Lawson's starting entries from the stars and links of the live vertices of `band`, in the
/// order [`crate::flips::star_and_link`] pushes them one vertex after the other, leaving out
/// every entry whose quad is rigid: its four corners on one piece, none of them in `changed`
/// (a mask by vertex index); on all cores for a long band. Also returns how many entries the
/// unfiltered loop pushes (for the flip budget). The left-out quads are locally Delaunay, so
/// Lawson flips exactly as from the whole list.
pub(super) fn band_stack(
    mesh: &Mesh,
    band: &[Vertex],
    pieces: Pieces<'_>,
    changed: &[bool],
) -> (Vec<Edge>, usize) {
    // A vertex's piece, or none when it is in `changed` or beyond the labels.
    let label = |u: Vertex| match changed.get(u.index()) {
        Some(false) => pieces.0.get(u.index()).copied(),
        _ => None,
    };
    let each = |v: Vertex, ring: &mut Vec<(Edge, Option<u32>)>, out: &mut Vec<Edge>| -> usize {
        if !mesh.is_vertex_alive(v) {
            return 0;
        }
        ring.clear();
        ring.extend(mesh.outgoing(v).map(|e| (e, label(mesh.dest(e)))));
        let lv = label(v);
        let d = ring.len();
        let mut pushed = 0;
        for i in 0..d {
            let (e, lu) = ring[i];
            let (_, next) = ring[(i + 1) % d];
            let (_, prev) = ring[(i + d - 1) % d];
            let left = mesh.left(e).is_valid();
            // Star edge v → u: its apexes are the ring's next and previous ends (both faces
            // there); the far edge u → next: its apex beyond is one lookup away.
            pushed += 1;
            let star_rigid = left
                && mesh.right(e).is_valid()
                && lv.is_some()
                && [lu, next, prev].iter().all(|&l| l == lv);
            if !star_rigid {
                out.push(e);
            }
            if left {
                pushed += 1;
                let far = mesh.left_next(e);
                let rigid = lv.is_some()
                    && lu == lv
                    && next == lv
                    && mesh.right(far).is_valid()
                    && label(mesh.dest(mesh.left_next(far.sym()))) == lv;
                if !rigid {
                    out.push(far);
                }
            }
        }
        pushed
    };
    if band.len() < PAR_MIN {
        let (mut out, mut ring) = (Vec::new(), Vec::new());
        let pushed = band.iter().map(|&v| each(v, &mut ring, &mut out)).sum();
        return (out, pushed);
    }
    let parts: Vec<(Vec<Edge>, usize)> = band
        .par_chunks(512)
        .map(|chunk| {
            let (mut out, mut ring) = (Vec::with_capacity(chunk.len() * 10), Vec::new());
            let pushed = chunk.iter().map(|&v| each(v, &mut ring, &mut out)).sum();
            (out, pushed)
        })
        .collect();
    let pushed = parts.iter().map(|p| p.1).sum();
    let mut out = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    for (part, _) in parts {
        out.extend_from_slice(&part);
    }
    (out, pushed)
}

/// The entries of [`band_stack`] without filtering (debug builds compare what Lawson keeps
/// of both).
#[cfg(debug_assertions)]
pub(super) fn whole_stack(mesh: &Mesh, band: &[Vertex]) -> Vec<Edge> {
    let mut out = Vec::new();
    for &v in band {
        if mesh.is_vertex_alive(v) {
            crate::flips::star_and_link(mesh, v, &mut out);
        }
    }
    out
}
