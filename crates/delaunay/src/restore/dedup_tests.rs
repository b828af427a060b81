use super::*;
use std::collections::HashSet;
use testkit::Rng;

/// A stack in parts (empty parts included) of random edges of `quads` quads, either
/// direction, with a few entries beyond the slots.
fn random_parts(rng: &mut Rng, sizes: &[usize], quads: usize) -> Vec<Vec<Edge>> {
    sizes
        .iter()
        .map(|&n| {
            (0..n)
                .map(|_| {
                    let e = Edge::of_quad(rng.below(quads + quads / 50 + 1) as u32);
                    if rng.below(2) == 0 { e } else { e.sym() }
                })
                .collect()
        })
        .collect()
}

/// The serial answer, by a set: the whole stack read backwards, an entry kept when its quad
/// (within the slots) was not met yet, then put back in order and filtered.
fn expected(parts: &[Vec<Edge>], quads: usize, keep: impl Fn(Edge) -> bool) -> Vec<Edge> {
    let mut met = HashSet::new();
    let mut last: Vec<Edge> = parts
        .iter()
        .rev()
        .flat_map(|p| p.iter().rev())
        .filter(|e| e.quad() < quads && met.insert(e.quad()))
        .copied()
        .collect();
    last.reverse();
    last.into_iter().filter(|&e| keep(e)).collect()
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Any cut into runs keeps exactly the last entries the serial pass keeps, in its order,
/// filtered by the predicate; an error of the predicate is returned.
#[test]
fn last_entries_in_runs_are_the_serial_ones() {
    let mut rng = Rng::new(5);
    for (sizes, quads) in [
        (vec![0, 40, 0, 700, 13], 300),
        (vec![5000, 1, 7000, 0, 2500], 4000),
        (vec![20_000], 100_000),
        (vec![], 10),
    ] {
        let parts = random_parts(&mut rng, &sizes, quads);
        let slices: Vec<&[Edge]> = parts.iter().map(Vec::as_slice).collect();
        let all = expected(&parts, quads, |_| true);
        let some = expected(&parts, quads, |e| e.quad() % 3 != 0);
        for runs in 1..=6 {
            let got = kept_last_in_runs(&slices, quads, runs, |_| Ok(true));
            assert_eq!(got.ok(), Some(all.clone()), "{sizes:?}, runs {runs}");
            let got = kept_last_in_runs(&slices, quads, runs, |e| Ok(e.quad() % 3 != 0));
            assert_eq!(got.ok(), Some(some.clone()), "{sizes:?}, runs {runs}");
            if let Some(&bad) = all.first() {
                let fails = |e: Edge| match e.quad() == bad.quad() {
                    true => Err(DelaunayError::Outside),
                    false => Ok(true),
                };
                let got = kept_last_in_runs(&slices, quads, runs, fails);
                assert_eq!(got.err(), Some(DelaunayError::Outside));
            }
        }
    }
}

/// On 1 and 2 threads, a stack long enough to be cut into runs gives the serial answer.
#[test]
fn last_entries_on_one_and_two_threads() {
    let mut rng = Rng::new(17);
    let quads = 60_000;
    let parts = random_parts(&mut rng, &[30_000, 0, 12_000, 25_000], quads);
    let slices: Vec<&[Edge]> = parts.iter().map(Vec::as_slice).collect();
    let want = expected(&parts, quads, |e| e.quad() % 5 < 2);
    for threads in [1, 2] {
        let got =
            pool(threads).install(|| kept_last_entries(&slices, quads, |e| Ok(e.quad() % 5 < 2)));
        assert_eq!(got.ok(), Some(want.clone()), "{threads} threads");
    }
}

/// Any cut into runs, on 1 and 2 threads, gives a sort and a dedup; a vertex beyond the
/// slots gives `None`.
#[test]
fn sorted_by_bits_is_a_sort_and_dedup() {
    let mut rng = Rng::new(23);
    for (len, slots) in [
        (50_000, 70_000),
        (40_000, 1000),
        (10, 64),
        (0, 5),
        (3000, 200_000),
    ] {
        let list: Vec<Vertex> = (0..len)
            .map(|_| Vertex::new(rng.below(slots) as u32))
            .collect();
        let mut want = list.clone();
        want.sort_unstable();
        want.dedup();
        for runs in 1..=5 {
            let got = sorted_by_bits_in_runs(&list, slots, runs);
            assert_eq!(got.as_ref(), Some(&want), "len {len}, runs {runs}");
        }
        for threads in [1, 2] {
            let got = pool(threads).install(|| sorted_by_bits(&list, slots));
            assert_eq!(got.as_ref(), Some(&want), "len {len}, {threads} threads");
        }
        let mut beyond = list.clone();
        beyond.insert(len / 2, Vertex::new(slots.div_ceil(64) as u32 * 64 + 3));
        for runs in 1..=3 {
            assert_eq!(sorted_by_bits_in_runs(&beyond, slots, runs), None);
        }
    }
}

/// The first refused vertex found on all cores is the first in order, on 1 and 2 threads.
#[test]
fn position_first_is_the_first_in_order() {
    let mut rng = Rng::new(29);
    let list: Vec<Vertex> = (0..40_000)
        .map(|_| Vertex::new(rng.below(1 << 20) as u32))
        .collect();
    for bound in [0, 7, 1000, 1 << 19, 1 << 20] {
        let refused = |v: Vertex| v.index() < bound && v.index() % 3 == 1;
        let want = list.iter().position(|&v| refused(v));
        for threads in [1, 2] {
            let got = pool(threads).install(|| super::super::par::position_first(&list, refused));
            assert_eq!(got, want, "bound {bound}, {threads} threads");
        }
    }
}
