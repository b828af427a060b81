//! The independent groups of a sweep's sources: a source touches only vertices within its
//! chord limit of its point, so two sources whose points are farther apart than their two
//! limits together never touch the same vertex, and neither do the connected groups of
//! sources joined by nearer pairs. Each group's sweep is then the one queue over everything
//! restricted to the group's vertices (see the parent module).

use super::Reach;

/// The sources (indices into `reach`) in groups that no vertex is within reach of two of:
/// the connected components of the sources whose points are within their two chord limits
/// of each other (more joined is safe, never fewer). Each group lists its sources in
/// increasing order; the groups come largest first.
pub(super) fn groups(reach: &[Reach]) -> Vec<Vec<u32>> {
    let n = reach.len() as u32;
    let widest = reach
        .iter()
        .map(|r| r.chord)
        .filter(|c| *c > 0.0)
        .fold(0.0, f64::max);
    let extent = reach
        .iter()
        .map(|r| r.point.abs().max_element())
        .filter(|e| e.is_finite())
        .fold(1.0, f64::max);
    // Cells whose diagonal is under twice the widest chord: every pair of sources in a cell
    // may share a vertex (joined unseen), and a pair that may lies at most two cells apart
    // along each axis. Not finer than a millionth of the extent (the cell keys' range).
    let cell = (2.0 * widest / 3f64.sqrt() * (1.0 - 1e-9)).max(extent * 1e-6);
    if n == 0 || !widest.is_finite() || !cell.is_finite() {
        return vec![(0..n).collect()];
    }
    // (x, y, z) in one integer, each coordinate biased to unsigned: a neighbour's key is the
    // key plus the offsets (no carries across fields).
    let key = |i: u32| {
        let c = reach[i as usize].point / cell;
        let field = |x: f64| (floor(x) + (1 << 20)).clamp(0, (1 << 21) - 1) as u64;
        field(c.x) << 42 | field(c.y) << 21 | field(c.z)
    };
    let mut keyed: Vec<(u64, u32)> = (0..n).map(|i| (key(i), i)).collect();
    keyed.sort_unstable();
    let cells: Vec<&[(u64, u32)]> = keyed.chunk_by(|a, b| a.0 == b.0).collect();
    let keys: Vec<u64> = cells.iter().map(|c| c[0].0).collect();
    let mut root: Vec<u32> = (0..cells.len() as u32).collect();
    // The rows of cells (runs of z) after the cell's own row in key order, within two cells
    // along x and y: each a cursor that only moves forward as the cells do.
    let rows: Vec<i64> = [(0, 1), (0, 2)]
        .into_iter()
        .chain((1..=2).flat_map(|dx| (-2..=2).map(move |dy| (dx, dy))))
        .map(|(dx, dy): (i64, i64)| (dx << 42) + (dy << 21))
        .collect();
    let mut cursor = vec![0usize; rows.len()];
    let mut near = Vec::new();
    for a in 0..cells.len() {
        let k = keys[a];
        near.clear();
        near.extend((a + 1..cells.len()).take_while(|&b| keys[b] <= k + 2));
        for (row, c) in rows.iter().zip(&mut cursor) {
            let lo = k.wrapping_add_signed(row - 2);
            while *c < keys.len() && keys[*c] < lo {
                *c += 1;
            }
            let hi = k.wrapping_add_signed(row + 2);
            near.extend((*c..keys.len()).take_while(|&b| keys[b] <= hi));
        }
        for &b in &near {
            if find(&mut root, a) != find(&mut root, b) && touch(reach, cells[a], cells[b]) {
                join(&mut root, a, b);
            }
        }
    }
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut slot = vec![u32::MAX; cells.len()];
    for (a, c) in cells.iter().enumerate() {
        let r = find(&mut root, a);
        if slot[r] == u32::MAX {
            slot[r] = groups.len() as u32;
            groups.push(Vec::new());
        }
        groups[slot[r] as usize].extend(c.iter().map(|&(_, i)| i));
    }
    for g in &mut groups {
        g.sort_unstable();
    }
    groups.sort_by_key(|g| (std::cmp::Reverse(g.len()), g[0]));
    groups
}

/// The sources (indices into `of`, each source's region) in one group per region: the
/// regions in increasing order, each group's sources in increasing order. Counted into
/// place when the region values are small (plates), sorted otherwise.
pub(super) fn by_region(of: &[u32]) -> Vec<Vec<u32>> {
    let top = of.iter().copied().max().map_or(0, |m| m as usize);
    if top > 4 * of.len() + 1024 {
        let mut keyed: Vec<(u32, u32)> = of.iter().copied().zip(0..).collect();
        keyed.sort_unstable();
        return keyed
            .chunk_by(|a, b| a.0 == b.0)
            .map(|g| g.iter().map(|k| k.1).collect())
            .collect();
    }
    // Each region value's source count, then its group.
    let mut group = vec![0u32; top + 1];
    for &r in of {
        group[r as usize] += 1;
    }
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for g in &mut group {
        if *g > 0 {
            groups.push(Vec::with_capacity(*g as usize));
            *g = groups.len() as u32 - 1;
        }
    }
    for (i, &r) in (0..).zip(of) {
        groups[group[r as usize] as usize].push(i);
    }
    groups
}

/// `x` rounded down, for `|x|` within a few millions (no library call).
fn floor(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x { t - 1 } else { t }
}

/// Whether some source of `a` and some of `b` may reach a common vertex (a margin for the
/// rounding of the distances the sweep compares).
fn touch(reach: &[Reach], a: &[(u64, u32)], b: &[(u64, u32)]) -> bool {
    a.iter().any(|&(_, i)| {
        let p = reach[i as usize];
        b.iter().any(|&(_, j)| {
            let q = reach[j as usize];
            let within = (p.chord + q.chord) * (1.0 + 1e-9);
            p.point.distance_squared(q.point) <= within * within.abs()
        })
    })
}

/// The root of `a`'s set (paths halved on the way).
fn find(root: &mut [u32], mut a: usize) -> usize {
    while root[a] as usize != a {
        root[a] = root[root[a] as usize];
        a = root[a] as usize;
    }
    a
}

fn join(root: &mut [u32], a: usize, b: usize) {
    let (ra, rb) = (find(root, a), find(root, b));
    root[ra.max(rb)] = ra.min(rb) as u32;
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    #[test]
    fn groups_join_exactly_what_may_share_a_vertex_or_more() {
        // Points on a sphere of radius 100 with chords of three sizes (and some that reach
        // nothing), against every pair.
        let mut rng = testkit::Rng::new(9);
        let reach: Vec<Reach> = (0..600)
            .map(|i| {
                let p = DVec3::from_array(rng.unit_vector());
                Reach::new(p * 100.0, [2.0, 5.0, 9.0, -1.0][i % 4])
            })
            .collect();
        let groups = groups(&reach);
        let mut of = vec![usize::MAX; reach.len()];
        for (g, members) in groups.iter().enumerate() {
            assert!(members.windows(2).all(|w| w[0] < w[1]));
            for &i in members {
                assert_eq!(of[i as usize], usize::MAX, "{i} in two groups");
                of[i as usize] = g;
            }
        }
        assert!(of.iter().all(|&g| g != usize::MAX));
        assert!(groups.windows(2).all(|w| w[0].len() >= w[1].len()));
        // Every pair that may share a vertex is in one group.
        for (i, p) in reach.iter().enumerate() {
            for (j, q) in reach.iter().enumerate() {
                if p.point.distance(q.point) <= p.chord + q.chord {
                    assert_eq!(of[i], of[j], "{i} {j}");
                }
            }
        }
        // Not everything joined: the groups are what the sweep runs in parallel.
        assert!(groups.len() > 50, "{}", groups.len());
        assert!(super::groups(&[]).iter().all(|g| g.is_empty()));
    }
}
