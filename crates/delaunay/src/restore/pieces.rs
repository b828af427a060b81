//! The restore of a motion by rigid pieces ([`super::restore_rigid_band`]): a face whose
//! three corners lie on one piece turned with them by one rotation, so it keeps its
//! orientation and the fold test ([`folded_faces_in`]) skips it. (As everywhere in the rigid restore, "keeps" holds
//! up to the rounding of the turned coordinates.)
//!
//! Quads were tried too: leaving out of Lawson's start the band's quads with four corners on
//! one piece and none in the relocations' wake drops only 16–21% of its entries at 500k (a
//! band vertex's quads nearly all reach the other piece or the wake), and the lookups cost
//! as much as the circle tests they spare (docs/benchmark-notes.md, "Motion II").

use crate::check::pos;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Mesh, Vertex};

/// Piece labels of the vertices by index; a vertex beyond the slice is on no piece (its faces
/// are always tested).
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

/// [`super::folded_faces`], not testing the faces whose corners are all on one of `pieces` (a rigid
/// motion keeps their orientation).
#[inline]
pub(super) fn folded_faces_in<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    v: Vertex,
    pieces: Option<Pieces<'_>>,
) -> Result<usize, DelaunayError> {
    let pv = pos(positions, v)?;
    let first = mesh.vertex_edge(v);
    if !first.is_valid() {
        return Ok(0);
    }
    let rigid = |a: Vertex, c: Vertex| pieces.is_some_and(|p| p.one_piece(&[v, a, c]));
    // Without pieces every neighbour's position is read (and checked) as the walk meets it.
    let eager = pieces.is_none();
    let (mut n, mut e) = (0, first);
    let mut a = mesh.dest(e);
    let mut pa = if eager {
        Some(pos(positions, a)?)
    } else {
        None
    };
    loop {
        let next = mesh.origin_next(e);
        let c = mesh.dest(next);
        let mut pc = if eager {
            Some(pos(positions, c)?)
        } else {
            None
        };
        if mesh.left(e).is_valid() {
            debug_assert_eq!(
                mesh.dest(mesh.left_next(e)),
                c,
                "a face that is no triangle"
            );
            if !rigid(a, c) {
                let p = match pa {
                    Some(p) => p,
                    None => pos(positions, a)?,
                };
                let q = match pc {
                    Some(q) => q,
                    None => *pc.insert(pos(positions, c)?),
                };
                if surface.orient(pv, p, q) <= 0.0 {
                    n += 1;
                }
            }
        }
        if next == first {
            return Ok(n);
        }
        (e, a, pa) = (next, c, pc);
    }
}
