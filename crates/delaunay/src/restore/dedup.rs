//! The deduplications of a large restore on all cores: each core keeps one range of the ids
//! (a bit per id of its range) and reads the whole list, so no core waits for a serial pass
//! over a list of hundreds of thousands of entries. The ranges' answers are put together in
//! the list's order (or the ids' order), so the result is the one serial pass's, for any
//! thread count.

use crate::check::is_reflex;
use crate::{DelaunayError, Surface};
use glam::DVec3;
use quadedge::{Edge, Mesh, Vertex};
use rayon::prelude::*;

/// The number of id ranges: one per core, at most eight (each range reads the whole list).
fn ranges() -> usize {
    rayon::current_num_threads().clamp(1, 8)
}

/// The bounds of range `k` of `n` ranges over `len` ids.
fn bounds(k: usize, n: usize, len: usize) -> (usize, usize) {
    (len * k / n, len * (k + 1) / n)
}

/// Of the stack `slices` (read as one list, the parts built on all cores), the last entry of
/// each quad-edge below `quads` (the first popped), in the stack's order, with its index in
/// the stack, for the quad-edges of `lo..hi`.
fn last_in_range(slices: &[&[Edge]], lo: usize, hi: usize) -> Vec<(u32, Edge)> {
    let mut seen = vec![0u64; (hi - lo).div_ceil(64)];
    let mut last = Vec::new();
    let mut i = slices.iter().map(|s| s.len()).sum::<usize>();
    for &e in slices.iter().rev().flat_map(|s| s.iter().rev()) {
        i -= 1;
        let q = e.quad();
        if q < lo || q >= hi {
            continue;
        }
        let (word, bit) = ((q - lo) / 64, 1u64 << ((q - lo) % 64));
        if seen[word] & bit == 0 {
            seen[word] |= bit;
            last.push((i as u32, e));
        }
    }
    last.reverse();
    last
}

/// `parts`' last entry of each quad-edge (entries beyond the quad slots dropped), kept when
/// the edge is alive and not locally Delaunay, in the stack's order; `None` when a test
/// fails. Each core takes the quad-edges of one range and tests its own last entries; the
/// ranges' few reflex edges are then merged by their place in the stack.
pub(super) fn last_reflex<S: Surface>(
    surface: &S,
    mesh: &Mesh,
    positions: &[DVec3],
    slices: &[&[Edge]],
) -> Option<Vec<Edge>> {
    let n = ranges();
    let quads = mesh.quad_slots();
    if slices.iter().map(|s| s.len()).sum::<usize>() >= u32::MAX as usize {
        return None;
    }
    let test = |e: Edge| -> Result<bool, DelaunayError> {
        Ok(mesh.is_edge_alive(e) && is_reflex(surface, mesh, positions, e)?)
    };
    let kept: Vec<Option<Vec<(u32, Edge)>>> = (0..n)
        .into_par_iter()
        .map(|k| {
            let (lo, hi) = bounds(k, n, quads);
            let last = last_in_range(slices, lo, hi);
            let reflex: Vec<Result<bool, DelaunayError>> = last
                .par_iter()
                .with_min_len(512)
                .map(|&(_, e)| test(e))
                .collect();
            let mut keep = Vec::new();
            for (&entry, r) in last.iter().zip(reflex) {
                if r.ok()? {
                    keep.push(entry);
                }
            }
            Some(keep)
        })
        .collect();
    let kept: Vec<Vec<(u32, Edge)>> = kept.into_iter().collect::<Option<_>>()?;
    Some(merge_by_index(&kept))
}

/// The entries of `lists` (each sorted by index, the indices all distinct) in index order.
fn merge_by_index(lists: &[Vec<(u32, Edge)>]) -> Vec<Edge> {
    let mut heads = vec![0usize; lists.len()];
    let total = lists.iter().map(Vec::len).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    for _ in 0..total {
        let next = lists
            .iter()
            .zip(&heads)
            .enumerate()
            .filter_map(|(k, (l, &h))| l.get(h).map(|&(i, _)| (i, k)))
            .min();
        let Some((_, k)) = next else { break };
        out.push(lists[k][heads[k]].1);
        heads[k] += 1;
    }
    out
}

/// `vertices` (each below `slots`) sorted, each once, through a bit per slot: each core sets
/// the bits of one range of the slots and lists its range's vertices, the ranges then
/// concatenated in order. `false` (the list untouched) when a vertex lies beyond `slots`.
pub(super) fn sort_dedup_by_bits(vertices: &mut Vec<Vertex>, slots: usize) -> bool {
    let n = ranges();
    let list = vertices.as_slice();
    let runs: Vec<Option<Vec<Vertex>>> = (0..n)
        .into_par_iter()
        .map(|k| {
            // Ranges of whole words, so that a word is one range's.
            let (lo, hi) = bounds(k, n, slots.div_ceil(64));
            let (lo, hi) = (64 * lo, 64 * hi);
            let mut bits = vec![0u64; (hi - lo) / 64];
            for v in list {
                let i = v.index();
                if (lo..hi).contains(&i) {
                    bits[(i - lo) / 64] |= 1 << ((i - lo) % 64);
                } else if i >= slots {
                    return None;
                }
            }
            let mut run = Vec::new();
            for (w, &word) in bits.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    run.push(Vertex::new((lo + 64 * w) as u32 + b.trailing_zeros()));
                    b &= b - 1;
                }
            }
            Some(run)
        })
        .collect();
    let Some(runs) = runs.into_iter().collect::<Option<Vec<_>>>() else {
        return false;
    };
    vertices.clear();
    for run in runs {
        vertices.extend_from_slice(&run);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::Rng;

    /// Random stacks in parts (repeats, entries beyond the slots): the ranges' last entries,
    /// merged, are those of one reverse pass over the whole stack, for 1, 2, 3 and 5 ranges.
    #[test]
    fn last_entries_by_ranges_are_those_of_one_pass() {
        let mut rng = Rng::new(9);
        let quads = 1000;
        let parts: Vec<Vec<Edge>> = [0, 300, 1, 2500, 40]
            .iter()
            .map(|&n| {
                (0..n)
                    .map(|_| {
                        let e = Edge::of_quad(rng.below(quads + 20) as u32);
                        if rng.below(2) == 0 { e } else { e.sym() }
                    })
                    .collect()
            })
            .collect();
        let whole = parts.concat();
        let mut expected = Vec::new();
        for (i, &e) in whole.iter().enumerate() {
            let later = whole[i + 1..].iter().any(|f| f.quad() == e.quad());
            if e.quad() < quads && !later {
                expected.push(e);
            }
        }
        let slices: Vec<&[Edge]> = parts.iter().map(Vec::as_slice).collect();
        for n in [1, 2, 3, 5] {
            let lists: Vec<Vec<(u32, Edge)>> = (0..n)
                .map(|k| {
                    let (lo, hi) = bounds(k, n, quads);
                    last_in_range(&slices, lo, hi)
                })
                .collect();
            for list in &lists {
                assert!(list.windows(2).all(|w| w[0].0 < w[1].0));
                assert!(list.iter().all(|&(i, e)| whole[i as usize] == e));
            }
            assert_eq!(merge_by_index(&lists), expected, "{n} ranges");
        }
    }

    /// The ranges' sort is a sort and dedup, on 1, 2 and 3 threads; a vertex beyond the
    /// slots leaves the list untouched.
    #[test]
    fn sort_dedup_by_ranges_is_a_sort() {
        let mut rng = Rng::new(4);
        for (len, slots) in [(5000, 3000), (3000, 100_000), (10, 64), (0, 10), (200, 1)] {
            let list: Vec<Vertex> = (0..len)
                .map(|_| Vertex::new(rng.below(slots) as u32))
                .collect();
            let mut expected = list.clone();
            expected.sort_unstable();
            expected.dedup();
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut got = list.clone();
                assert!(pool.install(|| sort_dedup_by_bits(&mut got, slots)));
                assert_eq!(got, expected, "len {len}, slots {slots}, {threads} threads");
            }
            let mut beyond = list.clone();
            beyond.push(Vertex::new(slots as u32));
            assert!(!sort_dedup_by_bits(&mut beyond, slots));
            assert_eq!(beyond.len(), list.len() + 1);
        }
    }
}
