//! Parallel iteration over a layer's values with `rayon` (feature `rayon`).
//!
//! The values are one slice, so these are rayon's slice iterators: work is split by index,
//! never by timing, and a kernel that writes each value from its own inputs gives the same
//! bits whatever the thread count. Reductions (`sum` of floats) combine in an order that
//! depends on the split: fold per [`CHUNK`] slice and combine the per-chunk results in order
//! (`par_chunks(..).map(..).collect::<Vec<_>>()`) for results independent of the threads.

use crate::kind::Kind;
use crate::layer::Layer;
use crate::storage::CHUNK;
use crate::value::LayerValue;
use rayon::prelude::*;

impl<T: LayerValue, K: Kind> Layer<T, K> {
    /// The values in parallel, in id order (`enumerate()` gives the index).
    pub fn par_iter(&self) -> rayon::slice::Iter<'_, T> {
        self.as_slice().par_iter()
    }

    /// The values for writing in parallel (copied once first if shared).
    pub fn par_iter_mut(&mut self) -> rayon::slice::IterMut<'_, T> {
        self.as_mut_slice().par_iter_mut()
    }

    /// Slices of [`CHUNK`] values in parallel: one task each, in id order.
    pub fn par_chunks(&self) -> rayon::slice::Chunks<'_, T> {
        self.as_slice().par_chunks(CHUNK)
    }

    /// Mutable slices of [`CHUNK`] values in parallel (copied once first if shared).
    pub fn par_chunks_mut(&mut self) -> rayon::slice::ChunksMut<'_, T> {
        self.as_mut_slice().par_chunks_mut(CHUNK)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Layer, LayerInfo, VertexKind};
    use rayon::prelude::*;

    /// A neighbour-style kernel (each value from other values of another layer) and a
    /// chunked reduction give the same bits with 1, 2 and 4 threads.
    #[test]
    fn results_are_bit_identical_for_1_2_and_4_threads() {
        let n = 100_003;
        let src = Layer::from_values(
            LayerInfo::<f64, VertexKind>::new("src"),
            (0..n).map(|i| (i as f64 * 0.618).sin()).collect(),
        );
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut dst = Layer::new(LayerInfo::<f64, VertexKind>::new("dst"), n);
                let s = src.as_slice();
                dst.par_iter_mut().enumerate().for_each(|(i, d)| {
                    let (a, b) = (s[(i * 7 + 1) % n], s[(i * 13 + 5) % n]);
                    *d = a.mul_add(0.25, b / 3.0);
                });
                let sums: Vec<f64> = dst.par_chunks().map(|c| c.iter().sum()).collect();
                let total: f64 = sums.iter().sum();
                let count = src.par_iter().filter(|x| **x > 0.0).count();
                (dst, total, count)
            })
        };
        let (one, total1, count1) = run(1);
        for threads in [2, 4] {
            let (other, total, count) = run(threads);
            assert!(other.bits_eq(&one), "{threads} threads");
            assert_eq!(total.to_bits(), total1.to_bits(), "{threads} threads");
            assert_eq!(count, count1);
        }
        assert!(one.as_slice().iter().any(|x| *x != 0.0));
    }
}
