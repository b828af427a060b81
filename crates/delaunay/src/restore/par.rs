//! The read-only passes of a restore over many vertices, on all cores: the fold test of each
//! moved vertex, the first test of the edges Lawson starts from, the certificate's fold and
//! winding tests. Each gives exactly the serial answer (results are collected in order and
//! read in order), so the repair is the same for any thread count.

use super::folded_faces;
use super::pieces::{Pieces, folded_faces_in};
use crate::check::is_reflex;
use crate::covering::winding;
use crate::flips::star_and_link;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::internals::set_bits;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// Below this many items the serial loop is cheaper than splitting the work.
pub(super) const PAR_MIN: usize = 2048;

/// The number of clockwise or flat faces around each of `vertices` (in their order), or the
/// first error in that order; faces on one of `pieces` are not tested.
pub(super) fn fold_counts<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
    pieces: Option<Pieces<'_>>,
) -> Result<Vec<usize>, DelaunayError> {
    let counts: Vec<Result<usize, DelaunayError>> = vertices
        .par_iter()
        .with_min_len(256)
        .map(|&v| folded_faces_in(surface, mesh, positions, v, pieces))
        .collect();
    counts.into_iter().collect()
}

/// The first live vertex of `vertices` with a clockwise or flat face around it, or the first
/// error met before it: what the serial loop over `vertices` finds.
pub(super) fn first_folded<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    vertices: &[Vertex],
) -> Result<Option<Vertex>, DelaunayError> {
    let folded: Vec<Result<bool, DelaunayError>> = vertices
        .par_iter()
        .with_min_len(256)
        .map(|&v| Ok(mesh.is_vertex_alive(v) && folded_faces(surface, mesh, positions, v)? > 0))
        .collect();
    for (&v, f) in vertices.iter().zip(folded) {
        if f? {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// With `changed` sorted and part of sorted `wind`: [`DelaunayError::FoldUnresolved`] for the
/// first vertex of `changed` with a clockwise or flat face around it (or the first error met
/// before it), else whether every live vertex of `wind` winds once. What the fold test of
/// `changed` followed by the windings of `wind` give, in one pass over the rings.
pub(super) fn folds_then_windings<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    wind: &[Vertex],
    changed: &[Vertex],
) -> Result<bool, DelaunayError> {
    let tested: Vec<(Result<bool, DelaunayError>, bool)> = wind
        .par_iter()
        .with_min_len(256)
        .map(|&u| {
            if !mesh.is_vertex_alive(u) {
                return (Ok(false), true);
            }
            let folded = match changed.binary_search(&u) {
                Ok(_) => folded_faces(surface, mesh, positions, u).map(|n| n > 0),
                Err(_) => Ok(false),
            };
            (folded, winding(surface, mesh, positions, u) == 1)
        })
        .collect();
    let mut once = true;
    for (&u, (folded, winds_once)) in wind.iter().zip(tested) {
        if folded? {
            return Err(DelaunayError::FoldUnresolved(u));
        }
        once &= winds_once;
    }
    Ok(once)
}

/// Lawson's starting stack as parts in order (the stack is their concatenation), so that a
/// stack built on all cores is not copied into one array before [`keep_reflex`] reads it.
#[derive(Default)]
pub(super) struct Parts(pub(super) Vec<Vec<Edge>>);

impl Parts {
    /// The number of entries.
    pub(super) fn len(&self) -> usize {
        self.0.iter().map(Vec::len).sum()
    }

    /// The stack itself.
    pub(super) fn concat(self) -> Vec<Edge> {
        match <[Vec<Edge>; 1]>::try_from(self.0) {
            Ok([one]) => one,
            Err(parts) => parts.concat(),
        }
    }
}

/// Keeps of Lawson's starting stack (`parts`) only the live edges that are not locally
/// Delaunay now, each quad-edge once (its last entry, the first popped), in their order;
/// `None` when a test fails, so that the serial pass meets the error where it would have.
///
/// The flips are then the same as from the whole stack. An edge that passes now can only
/// fail after a flip of a quad beside it, and that flip pushes it again. An earlier entry of
/// an edge is popped after the later one was handled: flipped, it is locally Delaunay until
/// a flip beside it pushes it again; stuck, it stays stuck until then.
pub(super) fn keep_reflex<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    parts: &Parts,
) -> Option<Vec<Edge>> {
    let slices: Vec<&[Edge]> = parts.0.iter().map(Vec::as_slice).collect();
    let last = last_entries(&slices, mesh.quad_slots());
    // Filtered on all cores, in order (no list of verdicts and no serial pass over them).
    let kept: Result<Vec<Edge>, DelaunayError> = last
        .par_iter()
        .with_min_len(512)
        .filter_map(|&e| match mesh.is_edge_alive(e) {
            false => None,
            true => match is_reflex(surface, mesh, positions, e) {
                Ok(true) => Some(Ok(e)),
                Ok(false) => None,
                Err(err) => Some(Err(err)),
            },
        })
        .collect();
    kept.ok()
}

/// The last entry of each quad-edge among `slices` (read as one list, the parts of a stack
/// built on all cores: not copied into one array first), in their order; entries beyond
/// `quads` slots are dropped. One bit per quad-edge: an eighth of a byte array's cache lines
/// for this serial pass.
fn last_entries(slices: &[&[Edge]], quads: usize) -> Vec<Edge> {
    let mut seen = vec![0u64; quads.div_ceil(64)];
    let total = slices.iter().map(|s| s.len()).sum::<usize>();
    let mut last: Vec<Edge> = Vec::with_capacity(total / 2);
    for &e in slices.iter().rev().flat_map(|s| s.iter().rev()) {
        let (word, bit) = (e.quad() / 64, 1u64 << (e.quad() % 64));
        if e.quad() < quads
            && let Some(s) = seen.get_mut(word)
            && *s & bit == 0
        {
            *s |= bit;
            last.push(e);
        }
    }
    last.reverse();
    last
}

/// Sorts `vertices` and drops repeats. A long list of vertices of a mesh with `slots` vertex
/// slots (a restore's changed list names most vertices several times, once per flip beside
/// them) goes through one bit per slot, a pass instead of a sort; a short one is sorted, on
/// all cores when there are many. The same result either way.
pub(super) fn sort_dedup(vertices: &mut Vec<Vertex>, slots: usize) {
    if vertices.len() >= PAR_MIN && vertices.len() >= slots / 64 && by_bits(vertices, slots) {
        return;
    }
    if vertices.len() >= PAR_MIN {
        vertices.par_sort_unstable();
    } else {
        vertices.sort_unstable();
    }
    vertices.dedup();
}

/// [`sort_dedup`] through a bit per slot; `false` (the list untouched) when a vertex lies
/// beyond `slots`.
fn by_bits(vertices: &mut Vec<Vertex>, slots: usize) -> bool {
    let mut bits = vec![0u64; slots.div_ceil(64)];
    for v in vertices.iter() {
        match bits.get_mut(v.index() / 64) {
            Some(word) => *word |= 1 << (v.index() % 64),
            None => return false,
        }
    }
    vertices.clear();
    vertices.extend(set_bits(bits.iter().copied()).map(|i| Vertex::new(i as u32)));
    true
}

/// Appends to `out` the star and link edges ([`star_and_link`]) of every live vertex of
/// `lists`, list after list, each in order, as parts: what the serial loop pushes, built on
/// all cores when there are many.
pub(super) fn stars_and_links<L: AsRef<[Vertex]>>(mesh: &Mesh, lists: &[L], out: &mut Parts) {
    let each = |v: Vertex, out: &mut Vec<Edge>| {
        if mesh.is_vertex_alive(v) {
            star_and_link(mesh, v, out);
        }
    };
    for list in lists {
        let list = list.as_ref();
        if list.len() < PAR_MIN {
            let mut part = Vec::with_capacity(12 * list.len());
            list.iter().for_each(|&v| each(v, &mut part));
            out.0.push(part);
            continue;
        }
        // Chunks in order, each built serially.
        let chunks: Vec<Vec<Edge>> = list
            .par_chunks(512)
            .map(|chunk| {
                let mut part = Vec::with_capacity(12 * chunk.len());
                chunk.iter().for_each(|&v| each(v, &mut part));
                part
            })
            .collect();
        out.0.extend(chunks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::Rng;

    fn sorted(mut v: Vec<Vertex>) -> Vec<Vertex> {
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Long lists with many repeats (the bit path), short ones (the sort) and a vertex
    /// beyond the slots (the bit path declines): always what a sort and dedup give.
    #[test]
    fn sort_dedup_is_a_sort_and_dedup_whatever_the_path() {
        let mut rng = Rng::new(11);
        for (len, slots) in [
            (5000, 3000),
            (5000, 200_000),
            (100, 64),
            (PAR_MIN, 64 * PAR_MIN),
        ] {
            let list: Vec<Vertex> = (0..len)
                .map(|_| Vertex::new(rng.below(slots) as u32))
                .collect();
            let mut got = list.clone();
            sort_dedup(&mut got, slots);
            assert_eq!(got, sorted(list.clone()), "len {len}, slots {slots}");
            let mut beyond = list.clone();
            beyond.push(Vertex::new(slots as u32 + 70));
            beyond.push(Vertex::INVALID);
            let mut got = beyond.clone();
            sort_dedup(&mut got, slots);
            assert_eq!(got, sorted(beyond), "len {len}, slots {slots}, one beyond");
        }
        let mut empty = Vec::new();
        sort_dedup(&mut empty, 0);
        assert!(empty.is_empty());
    }

    /// The last entry of each quad-edge, read off the parts of a stack (empty parts
    /// included), is what one reverse pass over the whole stack keeps; entries beyond the
    /// slots are dropped.
    #[test]
    fn last_entries_of_parts_are_those_of_the_whole_stack() {
        let mut rng = Rng::new(5);
        let quads = 300;
        let parts = Parts(
            [0, 40, 0, 700, 13]
                .iter()
                .map(|&n| {
                    let mut part: Vec<Edge> = (0..n)
                        .map(|_| Edge::of_quad(rng.below(quads) as u32).sym())
                        .collect();
                    part.push(Edge::of_quad(quads as u32 + 3));
                    part
                })
                .collect(),
        );
        let whole = parts.0.concat();
        let mut expected: Vec<Edge> = Vec::new();
        for (i, &e) in whole.iter().enumerate() {
            let later = whole[i + 1..].iter().any(|f| f.quad() == e.quad());
            if e.quad() < quads && !later {
                expected.push(e);
            }
        }
        assert!(expected.len() > 200 && expected.len() < 300);
        assert_eq!(last_entries(&[whole.as_slice()], quads), expected);
        let slices: Vec<&[Edge]> = parts.0.iter().map(Vec::as_slice).collect();
        assert_eq!(last_entries(&slices, quads), expected);
        assert_eq!(parts.len(), whole.len());
        assert_eq!(parts.concat(), whole);
    }
}
