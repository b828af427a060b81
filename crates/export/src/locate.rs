//! Point location on a triangulated sphere: which face contains a direction, and its
//! barycentric weights there. The heightmap and the interpolated globe both sample many
//! directions in scan order, so a walk from the previous sample's face costs a step or two.
//!
//! Every direction gets exactly one face, so a raster sampled this way has neither gaps nor
//! double coverage, whatever the triangles do at the antimeridian or the poles.

use glam::{Vec3, Vec3A};
use quadedge::Topology;

/// Flat copies of what the walk reads: unit directions per vertex slot, the three corners and
/// the three faces across the edges of every face slot (`u32::MAX` for none or dead).
pub(crate) struct FaceWalk {
    pub(crate) dirs: Vec<Vec3A>,
    corners: Vec<[u32; 3]>,
    /// `across[f][k]`: the face across the edge from corner `k` to corner `k + 1`.
    across: Vec<[u32; 3]>,
    /// Live faces, for the exhaustive fallback.
    live: Vec<u32>,
    /// A live face where walks without a better hint begin.
    pub(crate) start: u32,
}

/// A located direction: the face and the weights of its three corners (summing to 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub(crate) face: u32,
    pub(crate) corners: [u32; 3],
    pub(crate) weights: [f32; 3],
}

impl FaceWalk {
    /// Copies the mesh's faces out once. `dirs` holds one (unit) direction per vertex slot.
    pub(crate) fn new(mesh: &impl Topology, dirs: Vec<Vec3A>) -> Self {
        let slots = mesh.face_slots();
        let mut corners = vec![[u32::MAX; 3]; slots];
        let mut across = vec![[u32::MAX; 3]; slots];
        let mut live = Vec::with_capacity(mesh.face_count());
        for f in mesh.faces() {
            let i = f.index();
            corners[i] = mesh.face_vertices(f).map(|v| v.raw());
            across[i] = mesh
                .face_neighbors(f)
                .map(|g| if g.is_valid() { g.raw() } else { u32::MAX });
            live.push(i as u32);
        }
        let start = live.first().copied().unwrap_or(0);
        Self {
            dirs,
            corners,
            across,
            live,
            start,
        }
    }

    /// Unit directions of `positions` (zero for a zero vector).
    pub(crate) fn unit_dirs(positions: &[Vec3]) -> Vec<Vec3A> {
        positions
            .iter()
            .map(|&p| Vec3A::from(p).normalize_or_zero())
            .collect()
    }

    /// The signed volumes `[p·(b×c), p·(c×a), p·(a×b)]`: all ≥ 0 iff `p` is inside the
    /// (counter-clockwise) face, and proportional to its barycentric weights there.
    #[inline]
    fn volumes(&self, f: u32, p: Vec3A) -> ([u32; 3], [f32; 3]) {
        let c = self.corners[f as usize];
        let [a, b, cc] = c.map(|v| self.dirs[v as usize]);
        (
            c,
            [p.dot(b.cross(cc)), p.dot(cc.cross(a)), p.dot(a.cross(b))],
        )
    }

    fn hit(face: u32, corners: [u32; 3], vol: [f32; 3]) -> Hit {
        let vol = vol.map(|x| x.max(0.0));
        let sum = vol[0] + vol[1] + vol[2];
        let weights = if sum > 0.0 {
            vol.map(|x| x / sum)
        } else {
            [1.0 / 3.0; 3] // a degenerate face, or a direction on a corner's ray
        };
        Hit {
            face,
            corners,
            weights,
        }
    }

    /// The face containing unit direction `p`, walking from face `hint` across the edge `p`
    /// is furthest outside of. On a Delaunay triangulation the walk cannot cycle; on other
    /// meshes (or after rounding on a near-degenerate one) a step limit hands over to a scan
    /// of every face, which picks the face `p` is least outside of.
    pub(crate) fn locate(&self, hint: u32, p: Vec3A) -> Hit {
        let mut f = hint;
        let mut steps = 0usize;
        loop {
            let (corners, vol) = self.volumes(f, p);
            // Edge k (corner k to k + 1) is opposite corner k + 2.
            let out = [vol[2], vol[0], vol[1]];
            let (mut k, mut worst) = (0, out[0]);
            for (j, &o) in out.iter().enumerate().skip(1) {
                if o < worst {
                    (k, worst) = (j, o);
                }
            }
            if worst >= 0.0 {
                return Self::hit(f, corners, vol);
            }
            let next = self.across[f as usize][k];
            steps += 1;
            if next == u32::MAX || steps > self.live.len() {
                return self.scan(p);
            }
            f = next;
        }
    }

    /// Exhaustive search: the face whose most negative volume is largest.
    #[cold]
    fn scan(&self, p: Vec3A) -> Hit {
        let mut best = (f32::NEG_INFINITY, self.start);
        for &f in &self.live {
            let (_, vol) = self.volumes(f, p);
            let m = vol[0].min(vol[1]).min(vol[2]);
            if m > best.0 {
                best = (m, f);
            }
        }
        let (corners, vol) = self.volumes(best.1, p);
        Self::hit(best.1, corners, vol)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes as common;

    #[test]
    fn walk_finds_the_containing_face_from_anywhere() {
        let (mesh, pos) = common::icosphere(3);
        let walk = FaceWalk::new(&mesh, FaceWalk::unit_dirs(&pos));
        let mut rng = testkit::Rng::new(11);
        for k in 0..2000 {
            let p = Vec3A::from(glam::DVec3::from(rng.unit_vector()).as_vec3());
            let hint = walk.live[k * 31 % walk.live.len()];
            let hit = walk.locate(hint, p);
            let (_, vol) = walk.volumes(hit.face, p);
            assert!(vol.iter().all(|&x| x >= 0.0), "sample {k}: {vol:?}");
            assert!((hit.weights.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            // Weights reproduce the direction (projected onto the face's plane).
            let q: Vec3A = (0..3)
                .map(|i| walk.dirs[hit.corners[i] as usize] * hit.weights[i])
                .sum();
            assert!(q.normalize().dot(p) > 1.0 - 1e-5);
        }
    }
}
