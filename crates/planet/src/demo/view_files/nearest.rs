//! Nearest of many unit directions, by buckets on the faces of a cube (about two points per
//! bucket): the frames of past steps are resampled onto the final mesh this way, one query
//! per final vertex, with flat arrays and no hashing.

use glam::Vec3;

/// Unit directions bucketed by cube face and cell.
pub(crate) struct Nearest {
    /// Cells along each side of a face.
    g: usize,
    /// `start[c]..start[c + 1]` are the entries of cell `c` in `items`.
    start: Vec<u32>,
    items: Vec<u32>,
    dirs: Vec<Vec3>,
}

/// The face of `p` seen from axis `a` (`None` when `p` points away from it), and the cell
/// coordinates of its projection onto that face, clamped to the face.
fn cell_on(p: Vec3, a: usize, g: usize) -> Option<(usize, usize, usize)> {
    let (pa, b, c) = (p[a], p[(a + 1) % 3], p[(a + 2) % 3]);
    if pa == 0.0 {
        return None;
    }
    let face = 2 * a + usize::from(pa < 0.0);
    let k = |x: f32| (((x / pa.abs() + 1.0) * 0.5 * g as f32).max(0.0) as usize).min(g - 1);
    Some((face, k(b), k(c)))
}

/// The axis of largest magnitude.
fn major(p: Vec3) -> usize {
    let q = p.abs();
    if q.x >= q.y && q.x >= q.z {
        0
    } else if q.y >= q.z {
        1
    } else {
        2
    }
}

impl Nearest {
    /// Buckets `dirs` (unit vectors, at least one).
    pub(crate) fn new(dirs: Vec<Vec3>) -> Self {
        let g = ((dirs.len() as f64 / 12.0).sqrt().ceil() as usize).max(1);
        let index = |p: Vec3| {
            let (f, i, j) = cell_on(p, major(p), g).unwrap_or((0, 0, 0));
            (f * g + j) * g + i
        };
        let mut start = vec![0u32; 6 * g * g + 1];
        for &p in &dirs {
            start[index(p) + 1] += 1;
        }
        for c in 1..start.len() {
            start[c] += start[c - 1];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; dirs.len()];
        for (k, &p) in dirs.iter().enumerate() {
            let c = index(p);
            items[fill[c] as usize] = k as u32;
            fill[c] += 1;
        }
        Self {
            g,
            start,
            items,
            dirs,
        }
    }

    /// The index of the direction nearest to `p` (a unit vector): exact whenever the nearest
    /// lies within a cell of `p`'s cell, which the bucket size makes the rule; otherwise the
    /// nearest of the first ring of cells that holds any.
    pub(crate) fn nearest(&self, p: Vec3) -> u32 {
        let g = self.g;
        let a = major(p);
        let reach = p[a].abs() / (1.0 + 2.0 / g as f32);
        let mut best = (f32::NEG_INFINITY, 0u32);
        let mut r = 1usize;
        while best.0 == f32::NEG_INFINITY {
            if r > g {
                // Nothing on the faces seen from `p`: the points are all far away.
                let all = (0..self.dirs.len() as u32).map(|k| (self.dirs[k as usize].dot(p), k));
                return all.fold(best, |b, c| if c.0 > b.0 { c } else { b }).1;
            }
            for axis in 0..3 {
                if axis != a && p[axis].abs() < reach {
                    continue;
                }
                let Some((f, i, j)) = cell_on(p, axis, g) else {
                    continue;
                };
                for jj in j.saturating_sub(r)..=(j + r).min(g - 1) {
                    let row = (f * g + jj) * g;
                    let lo = self.start[row + i.saturating_sub(r)] as usize;
                    let hi = self.start[row + (i + r).min(g - 1) + 1] as usize;
                    for &k in &self.items[lo..hi] {
                        let d = self.dirs[k as usize].dot(p);
                        if d > best.0 {
                            best = (d, k);
                        }
                    }
                }
            }
            r *= 2;
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_brute_force() {
        let mut rng = testkit::Rng::new(5);
        let mut unit = || rng.unit_dvec3().as_vec3().normalize();
        let dirs: Vec<Vec3> = (0..3000).map(|_| unit()).collect();
        let near = Nearest::new(dirs.clone());
        // Each point finds itself.
        for (k, &p) in dirs.iter().enumerate() {
            assert_eq!(near.nearest(p), k as u32);
        }
        let mut exact = 0;
        for _ in 0..2000 {
            let q = unit();
            let brute = (0..dirs.len())
                .max_by(|&a, &b| dirs[a].dot(q).total_cmp(&dirs[b].dot(q)))
                .unwrap() as u32;
            let got = near.nearest(q);
            exact += usize::from(got == brute);
            // Never far off: within a few spacings of the true nearest.
            assert!(dirs[got as usize].dot(q) > dirs[brute as usize].dot(q) - 1e-3);
        }
        assert!(exact >= 1990, "{exact} of 2000 exact");
        // Points on cube edges and corners, and a lone point.
        let one = Nearest::new(vec![Vec3::Z]);
        assert_eq!(one.nearest(-Vec3::Z), 0);
        assert_eq!(near.nearest(Vec3::ONE.normalize()), {
            let q = Vec3::ONE.normalize();
            (0..dirs.len())
                .max_by(|&a, &b| dirs[a].dot(q).total_cmp(&dirs[b].dot(q)))
                .unwrap() as u32
        });
    }
}
