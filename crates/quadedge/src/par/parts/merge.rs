//! The merge of [`Mesh::edit_in_parts`]: part 1's undo records copied after part 0's, and
//! the ids the parts freed put on the free lists.

use super::dissolve::Freed;
use crate::Mesh;
use crate::undo::Target;

/// From this many undo records in part 1, the merge copies them on all cores.
const COPY_SPLIT: usize = 1 << 15;

/// `from` appended to `to` and left empty; a long one copied on all cores into its place.
pub(super) fn append_copies<T: Copy + Send + Sync>(to: &mut Vec<T>, from: &mut Vec<T>) {
    use rayon::prelude::*;
    if from.len() >= COPY_SPLIT {
        to.par_extend(from.par_iter().copied().with_min_len(COPY_SPLIT / 2));
        from.clear();
    } else {
        to.append(from);
    }
}

impl Mesh {
    /// [`Mesh::push_freed`], recorded in the undo log when `log`.
    pub(super) fn push_freed_logged(&mut self, log: bool, freed: &Freed) {
        if log {
            self.push_freed::<true>(freed);
        } else {
            self.push_freed::<false>(freed);
        }
    }

    /// The ids a part freed onto the free lists, in order, and the live counts down by as
    /// many.
    fn push_freed<const LOG: bool>(&mut self, freed: &Freed) {
        let lists = [
            (Target::FreeVertices, &freed.vertices, self.live_vertices),
            (Target::FreeQuads, &freed.quads, self.live_quads),
            (Target::FreeFaces, &freed.faces, self.live_faces),
        ];
        for (list, ids, live) in lists {
            if ids.is_empty() {
                continue;
            }
            for &id in ids {
                self.push_free::<LOG>(list, id);
            }
            self.set_live::<LOG>(list, live - ids.len() as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::ThreadPoolBuilder;

    /// Long and short lists, on 1 and 2 threads: what a plain append gives, `from` left
    /// empty with its room.
    #[test]
    fn append_copies_is_an_append() {
        for (head, tail) in [(0, 3 * COPY_SPLIT + 7), (1000, COPY_SPLIT), (5, 10), (7, 0)] {
            let to: Vec<u64> = (0..head as u64).map(|i| i * 31 + 1).collect();
            let from: Vec<u64> = (0..tail as u64).map(|i| i * 17 + 3).collect();
            let mut want = to.clone();
            want.extend_from_slice(&from);
            for threads in [1, 2] {
                let pool = ThreadPoolBuilder::new().num_threads(threads).build();
                let pool = pool.expect("a thread pool");
                let (mut t, mut f) = (to.clone(), from.clone());
                pool.install(|| append_copies(&mut t, &mut f));
                assert_eq!(t, want, "{head} + {tail} on {threads} threads");
                assert!(f.is_empty() && f.capacity() >= tail);
            }
        }
    }
}
