//! Depression filling by priority flood (Barnes, Lehman and Mulla 2014, "Priority-Flood+ε"):
//! water enters the land from the sea (and from the open edges of a map) lowest cell first;
//! a cell reached from a higher spill point is raised just above it, so every land cell ends
//! up with a neighbour strictly lower on the filled surface, and no interior pit is left.
//!
//! `O(n log n)`: each cell enters the heap once; cells inside a depression skip the heap and
//! go through a plain queue (the "pit" queue of the paper), which is what makes lakes cheap.

use crate::cells::Cells;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A key that orders `f64`s as numbers (for finite values and ±0).
#[inline]
pub(crate) fn ordered(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// A heap entry: the `f32` level's order in the high half, the cell in the low half (cells
/// enter the heap only at their own elevation, an `f32`; raised cells go to the pit queue).
#[inline]
pub(crate) fn entry(level: f32, v: usize) -> u64 {
    let b = level.to_bits();
    let key = if b >> 31 == 1 { !b } else { b | (1 << 31) };
    (u64::from(key) << 32) | v as u64
}

/// The filled surface and what the flood learnt on the way.
pub(crate) struct Filled {
    /// Elevation (m) after filling: every land cell that water does not leave from has a neighbour
    /// strictly lower.
    pub(crate) level: Vec<f64>,
    /// The cell was below its spill level (it lies under a lake).
    pub(crate) flooded: Vec<bool>,
}

/// Fills `elevation` (m, one per slot) with the sea below `sea_level`.
pub(crate) fn priority_flood(cells: &Cells, elevation: &[f32], sea_level: f32) -> Filled {
    let n = cells.len();
    let z = |v: usize| f64::from(elevation[v]);
    let mut level: Vec<f64> = (0..n).map(z).collect();
    let mut closed = vec![false; n];

    let mut flooded = vec![false; n];
    let mut heap: BinaryHeap<Reverse<u64>> = BinaryHeap::new();
    let ocean = |v: usize| cells.live[v] && elevation[v] < sea_level;
    for v in cells.live_cells() {
        if ocean(v) {
            closed[v] = true;
            // Only the coast needs to spread: the open sea has no land to reach.
            if cells.links(v).any(|(w, _)| !ocean(w)) {
                heap.push(Reverse(entry(elevation[v], v)));
            }
        } else if cells.boundary[v] {
            closed[v] = true;
            heap.push(Reverse(entry(elevation[v], v)));
        }
    }
    let mut pit: VecDeque<u32> = VecDeque::new();
    let mut flood =
        |heap: &mut BinaryHeap<Reverse<u64>>, closed: &mut Vec<bool>, level: &mut Vec<f64>| {
            loop {
                let c = if let Some(c) = pit.pop_front() {
                    c as usize
                } else if let Some(Reverse(e)) = heap.pop() {
                    (e & 0xffff_ffff) as usize
                } else {
                    break;
                };
                let spill = level[c];
                for &w in cells.ring(c) {
                    let w = w as usize;
                    if closed[w] {
                        continue;
                    }
                    closed[w] = true;
                    if level[w] <= spill {
                        flooded[w] = level[w] < spill;
                        level[w] = spill.next_up();
                        pit.push_back(w as u32);
                    } else {
                        heap.push(Reverse(entry(elevation[w], w)));
                    }
                }
            }
        };
    flood(&mut heap, &mut closed, &mut level);
    // Land that no sea or edge reaches (a closed planet without sea, an island of the mesh):
    // its lowest cell becomes a sink, lowest first, until every cell is reached.
    let mut rest: Vec<u32> = cells
        .live_cells()
        .filter(|&v| !closed[v])
        .map(|v| v as u32)
        .collect();
    rest.sort_by_key(|&v| (ordered(level[v as usize]), v));
    for v in rest {
        let v = v as usize;
        if closed[v] {
            continue;
        }
        closed[v] = true;
        heap.push(Reverse(entry(elevation[v], v)));
        flood(&mut heap, &mut closed, &mut level);
    }
    Filled { level, flooded }
}

#[cfg(test)]
mod tests {
    use super::{entry, ordered};

    #[test]
    fn keys_order_like_the_numbers() {
        let xs = [-1e9, -3.5, -0.0, 0.0, 1e-300, 2.0, 7e8];
        for w in xs.windows(2) {
            assert!(ordered(w[0]) <= ordered(w[1]), "{w:?}");
        }
        assert!(ordered(-1.0) < ordered(1.0));
        let ys = [-5e3f32, -1.5, -0.0, 0.0, 2.0, 9e3];
        for w in ys.windows(2) {
            assert!(entry(w[0], 7) <= entry(w[1], 3), "{w:?}");
        }
        assert!(entry(1.0, 3) < entry(1.0, 4));
        assert_eq!(entry(1.0, 123_456) & 0xffff_ffff, 123_456);
    }
}
