//! Deduplications of a large restore on all cores: the last entry of each quad-edge in
//! Lawson's starting stack, and the sorted set of a list of vertices. Each gives exactly the
//! serial answer, in the serial order, for any thread count: the list is cut into runs, each
//! run is read into its own bit set, and the bit sets settle what the serial pass over the
//! whole list would have kept.

use crate::DelaunayError;
use quadedge::{Edge, Vertex};
use rayon::prelude::*;

/// Below this many entries a run is not worth a bit set of its own.
const RUN_MIN: usize = 16_384;

/// The words of a bit set read back by one task.
const WORDS: usize = 1024;

/// The runs to cut a list of `total` entries into: one on one thread, else four per thread
/// (a thread that starts late still gets a share), fewer for a short list.
fn runs_for(total: usize) -> usize {
    match rayon::current_num_threads() {
        0 | 1 => 1,
        threads => (4 * threads).clamp(1, (total / RUN_MIN).max(1)),
    }
}

/// The entries of `slices` (read as one list) from `start` to `end`, as the slices' pieces.
fn cut<'a>(slices: &[&'a [Edge]], start: usize, end: usize) -> Vec<&'a [Edge]> {
    let mut out = Vec::new();
    let mut at = 0;
    for &s in slices {
        let (lo, hi) = (start.max(at), end.min(at + s.len()));
        if lo < hi {
            out.push(&s[lo - at..hi - at]);
        }
        at += s.len();
    }
    out
}

/// The last entry of each quad-edge in `run` (read as one list), in order, and the bit set
/// of the quads it names; entries beyond `quads` slots are dropped.
fn last_in_run(run: &[&[Edge]], quads: usize) -> (Vec<Edge>, Vec<u64>) {
    let mut seen = vec![0u64; quads.div_ceil(64)];
    let total = run.iter().map(|s| s.len()).sum::<usize>();
    let mut last: Vec<Edge> = Vec::with_capacity(total / 2);
    for &e in run.iter().rev().flat_map(|s| s.iter().rev()) {
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
    (last, seen)
}

/// Of the last entry of each quad-edge among `slices` (read as one list, the parts of a stack
/// built on all cores; entries beyond `quads` slots are dropped), in their order, those that
/// `keep` accepts; the first error `keep` returns instead, if any (which one is not fixed).
///
/// The list is cut into runs read on all cores, each into its last entries and a bit set of
/// its quads. An entry last in its run is last in the list when no later run names its quad:
/// the union of the later runs' bit sets tells. So `keep` sees exactly the entries the serial
/// pass keeps, and `keep` runs on all cores too.
pub(super) fn kept_last_entries<F>(
    slices: &[&[Edge]],
    quads: usize,
    keep: F,
) -> Result<Vec<Edge>, DelaunayError>
where
    F: Fn(Edge) -> Result<bool, DelaunayError> + Sync,
{
    let total = slices.iter().map(|s| s.len()).sum::<usize>();
    kept_last_in_runs(slices, quads, runs_for(total), keep)
}

/// [`kept_last_entries`] with the list cut into `runs` runs (the answer does not depend on it).
fn kept_last_in_runs<F>(
    slices: &[&[Edge]],
    quads: usize,
    runs: usize,
    keep: F,
) -> Result<Vec<Edge>, DelaunayError>
where
    F: Fn(Edge) -> Result<bool, DelaunayError> + Sync,
{
    let total = slices.iter().map(|s| s.len()).sum::<usize>();
    let runs = runs.max(1);
    let mut read: Vec<(Vec<Edge>, Vec<u64>)> = (0..runs)
        .into_par_iter()
        .map(|r| {
            last_in_run(
                &cut(slices, total * r / runs, total * (r + 1) / runs),
                quads,
            )
        })
        .collect();
    // Each run's bit set becomes the union of its own and every later run's.
    for r in (0..runs.saturating_sub(1)).rev() {
        let (head, tail) = read.split_at_mut(r + 1);
        let (mine, next) = (&mut head[r].1, &tail[0].1);
        mine.iter_mut().zip(next).for_each(|(m, n)| *m |= n);
    }
    let (read, keep) = (&read, &keep);
    read.par_iter()
        .enumerate()
        .flat_map(|(r, (last, _))| {
            let later = read.get(r + 1).map(|(_, seen)| seen.as_slice());
            last.par_iter().with_min_len(512).filter_map(move |&e| {
                let word = later.and_then(|l| l.get(e.quad() / 64)).copied();
                if word.is_some_and(|w| w & (1u64 << (e.quad() % 64)) != 0) {
                    return None;
                }
                match keep(e) {
                    Ok(true) => Some(Ok(e)),
                    Ok(false) => None,
                    Err(err) => Some(Err(err)),
                }
            })
        })
        .collect()
}

/// `vertices` sorted, each once, through one bit per slot (`slots` of them), read on all
/// cores: each run of the list sets its own bit set, and the bit sets are read back together
/// word range by word range, in order. `None` (the list untouched) when a vertex lies beyond
/// `slots`.
pub(super) fn sorted_by_bits(vertices: &[Vertex], slots: usize) -> Option<Vec<Vertex>> {
    sorted_by_bits_in_runs(vertices, slots, runs_for(vertices.len()))
}

/// [`sorted_by_bits`] with the list cut into `runs` runs (the answer does not depend on it).
fn sorted_by_bits_in_runs(vertices: &[Vertex], slots: usize, runs: usize) -> Option<Vec<Vertex>> {
    let words = slots.div_ceil(64);
    let runs = runs.max(1);
    let n = vertices.len();
    let sets: Vec<Option<Vec<u64>>> = (0..runs)
        .into_par_iter()
        .map(|r| {
            let mut bits = vec![0u64; words];
            for v in &vertices[n * r / runs..n * (r + 1) / runs] {
                *bits.get_mut(v.index() / 64)? |= 1 << (v.index() % 64);
            }
            Some(bits)
        })
        .collect();
    let sets: Vec<Vec<u64>> = sets.into_iter().collect::<Option<_>>()?;
    let word = |k: usize| sets.iter().fold(0u64, |acc, s| acc | s[k]);
    // Word ranges counted, then written on all cores into their places.
    let ranges: Vec<(usize, usize)> = (0..words)
        .step_by(WORDS)
        .map(|k| (k, (k + WORDS).min(words)))
        .collect();
    let counts: Vec<usize> = ranges
        .par_iter()
        .map(|&(lo, hi)| (lo..hi).map(|k| word(k).count_ones() as usize).sum())
        .collect();
    let mut out = vec![Vertex::new(0); counts.iter().sum()];
    let mut places = Vec::with_capacity(ranges.len());
    let mut rest = out.as_mut_slice();
    for &c in &counts {
        let (mine, later) = rest.split_at_mut(c);
        places.push(mine);
        rest = later;
    }
    places
        .into_par_iter()
        .zip(ranges)
        .for_each(|(place, (lo, hi))| {
            let mut place = place.iter_mut();
            for k in lo..hi {
                let mut w = word(k);
                while w != 0 {
                    if let Some(p) = place.next() {
                        *p = Vertex::new(64 * k as u32 + w.trailing_zeros());
                    }
                    w &= w - 1;
                }
            }
        });
    Some(out)
}

#[cfg(test)]
#[path = "dedup_tests.rs"]
mod tests;
