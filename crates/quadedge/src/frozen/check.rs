//! Validation of frozen arrays from untrusted sources: after [`FrozenMesh::check`] every query
//! stays in range, every twin and face corner is found, and thawing gives a valid mesh.

use super::{
    EVEN, FrozenError, FrozenMesh, HOLE, ID, MAX_FROZEN_VERTICES, RANK_UNKNOWN, ROT_SHIFT,
};

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(FrozenError::Corrupt(format!($($msg)+)));
        }
    };
}

/// The arrays of a [`FrozenMesh`], as [`FrozenMesh::into_parts`] gives them and
/// [`FrozenMesh::from_parts`] takes them back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FrozenParts {
    /// Per vertex, plus one: the first slot of its ring in `dest`.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub ring_start: Vec<u32>,
    /// Per outgoing half-edge, grouped by vertex counter-clockwise: destination vertex, bit 30
    /// set on the even edge of its quad-edge, bit 31 set when the face on its left is a hole.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub dest: Vec<u32>,
    /// Per vertex, plus one: the first edge counted at it (at the smaller end of each edge).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub edge_start: Vec<u32>,
    /// Per vertex, plus one: the first face counted at it (at the smallest corner).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub face_start: Vec<u32>,
    /// Per face: its smallest corner, and in bits 30..32 which corner (0..=2 counter-clockwise
    /// from it) the face starts at.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub face_corner: Vec<u32>,
    /// Per half-edge (as `dest`): the rank of its left face among the faces counted at that
    /// face's smallest corner, 255 for 255 and more, 0 for a hole.
    pub face_rank: Vec<u8>,
}

impl FrozenMesh {
    /// The raw arrays (for custom storage).
    pub fn into_parts(self) -> FrozenParts {
        FrozenParts {
            ring_start: self.ring_start,
            dest: self.dest,
            edge_start: self.edge_start,
            face_start: self.face_start,
            face_corner: self.face_corner,
            face_rank: self.face_rank,
        }
    }

    /// A frozen mesh from raw arrays, validated by [`FrozenMesh::check`].
    ///
    /// ```
    /// use quadedge::{FrozenError, FrozenMesh, Mesh, shapes};
    /// let (n, t) = shapes::tetrahedron();
    /// let mut mesh = Mesh::from_triangles(n, &t).unwrap();
    /// mesh.reorder_vertices(&[0, 1, 2, 3]).unwrap();
    /// let mut parts = FrozenMesh::freeze(&mesh).unwrap().into_parts();
    /// parts.dest[0] = 7; // a vertex that does not exist
    /// assert!(matches!(FrozenMesh::from_parts(parts), Err(FrozenError::Corrupt(_))));
    /// ```
    ///
    /// # Errors
    /// [`FrozenError::Corrupt`] naming the first broken invariant, [`FrozenError::TooLarge`]
    /// for sizes past the id space.
    pub fn from_parts(parts: FrozenParts) -> Result<FrozenMesh, FrozenError> {
        let m = FrozenMesh {
            ring_start: parts.ring_start,
            dest: parts.dest,
            edge_start: parts.edge_start,
            face_start: parts.face_start,
            face_corner: parts.face_corner,
            face_rank: parts.face_rank,
        };
        m.check()?;
        Ok(m)
    }

    /// Verifies every invariant, in `O(h log d)` for `h` half-edges and degrees up to `d`
    /// whatever the input:
    /// array lengths and prefix sums; destinations in range, no loops, no repeated
    /// neighbour; every half-edge has a twin with the opposite orientation flag and not a hole
    /// on both sides; every face corner `(v, w, x)` is found at `w` and `x` too; per-vertex
    /// edge and face counts; every face's smallest corner and rotation.
    ///
    /// # Errors
    /// [`FrozenError::Corrupt`] naming the first broken invariant, [`FrozenError::TooLarge`].
    pub fn check(&self) -> Result<(), FrozenError> {
        let (nv, nh) = self.check_lengths()?;
        let by_dest = self.rings_by_dest(nv, nh)?;
        let corner_rank = self.corner_ranks(nv, nh);
        let (edges_at, faces_at) = self.check_twins_and_faces(nv, &by_dest, &corner_rank)?;
        drop(by_dest);
        drop(corner_rank);
        self.check_counts(nv, nh, &edges_at, &faces_at)
    }

    /// The array lengths and the `ring_start` prefix sum, before anything is indexed by them:
    /// the vertex and half-edge counts.
    fn check_lengths(&self) -> Result<(usize, usize), FrozenError> {
        let nh = self.dest.len();
        ensure!(!self.ring_start.is_empty(), "ring_start is empty");
        let nv = self.ring_start.len() - 1;
        if nv > MAX_FROZEN_VERTICES || nh >= (1 << 31) {
            return Err(FrozenError::TooLarge);
        }
        ensure!(nh.is_multiple_of(2), "odd number of half-edges");
        ensure!(
            self.face_rank.len() == nh,
            "{} face ranks for {nh} half-edges",
            self.face_rank.len()
        );
        ensure!(
            self.edge_start.len() == nv + 1 && self.face_start.len() == nv + 1,
            "prefix arrays differ in length from ring_start"
        );
        ensure!(self.ring_start[0] == 0, "ring_start[0] != 0");
        for v in 0..nv {
            ensure!(
                self.ring_start[v] <= self.ring_start[v + 1],
                "ring_start decreases at v{v}"
            );
        }
        ensure!(
            self.ring_start[nv] as usize == nh,
            "ring_start ends at {}, {nh} half-edges",
            self.ring_start[nv]
        );
        Ok((nv, nh))
    }

    /// Each ring's slots sorted by destination, after checking destinations are in range, not
    /// loops and not repeated: twins and corners are then found by binary search within one
    /// short ring, whatever the degrees a hostile file claims.
    fn rings_by_dest(&self, nv: usize, nh: usize) -> Result<Vec<u32>, FrozenError> {
        let mut by_dest: Vec<u32> = (0..nh as u32).collect();
        for v in 0..nv as u32 {
            let ring = self.ring(v);
            for j in ring.clone() {
                let w = self.dest[j] & ID;
                ensure!(
                    (w as usize) < nv,
                    "half-edge {j} of v{v} ends at v{w}, out of range"
                );
                ensure!(w != v, "half-edge {j} is a loop at v{v}");
            }
            let sorted = &mut by_dest[ring];
            sorted.sort_unstable_by_key(|&j| self.dest[j as usize] & ID);
            if let Some(k) = sorted
                .windows(2)
                .find(|k| self.dest[k[0] as usize] & ID == self.dest[k[1] as usize] & ID)
            {
                let w = self.dest[k[0] as usize] & ID;
                ensure!(false, "two half-edges v{v} -> v{w}");
            }
        }
        Ok(by_dest)
    }

    /// The slot of half-edge `a → b`, by binary search in `a`'s ring sorted by
    /// [`FrozenMesh::rings_by_dest`].
    fn sorted_slot(&self, by_dest: &[u32], a: u32, b: u32) -> Option<usize> {
        let sorted = &by_dest[self.ring(a)];
        sorted
            .binary_search_by_key(&b, |&j| self.dest[j as usize] & ID)
            .ok()
            .map(|i| sorted[i] as usize)
    }

    /// Per half-edge, the rank of the face on its left within its ring when it is the face's
    /// smallest corner (where face ids are counted), else `u32::MAX`.
    fn corner_ranks(&self, nv: usize, nh: usize) -> Vec<u32> {
        let mut corner_rank = vec![u32::MAX; nh];
        for v in 0..nv as u32 {
            let ring = self.ring(v);
            let mut rank = 0;
            for j in ring.clone() {
                if self.is_face_corner(v, &ring, j) {
                    corner_rank[j] = rank;
                    rank += 1;
                }
            }
        }
        corner_rank
    }

    /// Every half-edge's twin, and every face closed at its three corners with the right
    /// stored rank: the edges and faces counted at each vertex (`(edges_at, faces_at)`).
    fn check_twins_and_faces(
        &self,
        nv: usize,
        by_dest: &[u32],
        corner_rank: &[u32],
    ) -> Result<(Vec<u32>, Vec<u32>), FrozenError> {
        let mut faces_at = vec![0u32; nv];
        let mut edges_at = vec![0u32; nv];
        for v in 0..nv as u32 {
            let ring = self.ring(v);
            for j in ring.clone() {
                let d = self.dest[j];
                let w = d & ID;
                let Some(t) = self.sorted_slot(by_dest, w, v) else {
                    return Err(FrozenError::Corrupt(format!("v{v} -> v{w} has no twin")));
                };
                ensure!(
                    (d ^ self.dest[t]) & EVEN != 0,
                    "v{v} -> v{w} and its twin have the same orientation flag"
                );
                ensure!(
                    d & self.dest[t] & HOLE == 0,
                    "edge v{v} - v{w} has no face on either side"
                );
                edges_at[v as usize] += u32::from(v < w);
                if d & HOLE != 0 {
                    ensure!(
                        self.face_rank[j] == 0,
                        "hole at half-edge {j} has a face rank"
                    );
                    continue;
                }
                let x = self.dest[Self::next_slot(&ring, j)] & ID;
                let corner = self.check_face_closed(by_dest, v, w, x, j)?;
                let expected = corner_rank[corner].min(u32::from(RANK_UNKNOWN));
                ensure!(
                    u32::from(self.face_rank[j]) == expected,
                    "half-edge {j} stores face rank {}",
                    self.face_rank[j]
                );
                faces_at[v as usize] += u32::from(v < w && v < x);
            }
        }
        Ok((edges_at, faces_at))
    }

    /// The face left of half-edge `j` (corner `(v, w, x)`) must show up at `w` as `(w, x, v)`
    /// and at `x` as `(x, v, w)`: the slot of its smallest corner.
    fn check_face_closed(
        &self,
        by_dest: &[u32],
        v: u32,
        w: u32,
        x: u32,
        j: usize,
    ) -> Result<usize, FrozenError> {
        ensure!(x != w, "face at half-edge {j} repeats v{w}");
        let mut corner = j;
        for (a, b, c) in [(w, x, v), (x, v, w)] {
            let found = self.sorted_slot(by_dest, a, b).filter(|&k| {
                self.dest[k] & HOLE == 0 && self.dest[Self::next_slot(&self.ring(a), k)] & ID == c
            });
            let Some(k) = found else {
                return Err(FrozenError::Corrupt(format!(
                    "face (v{v}, v{w}, v{x}) is not closed at v{a}"
                )));
            };
            if a < v.min(b).min(c) {
                corner = k;
            }
        }
        Ok(corner)
    }

    /// The edge and face prefix sums against the counts found at each vertex, and each face's
    /// smallest corner and rotation.
    fn check_counts(
        &self,
        nv: usize,
        nh: usize,
        edges_at: &[u32],
        faces_at: &[u32],
    ) -> Result<(), FrozenError> {
        for (name, start, count) in [
            ("edge_start", &self.edge_start, edges_at),
            ("face_start", &self.face_start, faces_at),
        ] {
            ensure!(start[0] == 0, "{name}[0] != 0");
            for v in 0..nv {
                ensure!(
                    u64::from(start[v + 1]) == u64::from(start[v]) + u64::from(count[v]),
                    "{name} at v{v} does not count its {} elements",
                    count[v]
                );
            }
        }
        ensure!(
            self.edge_start[nv] as usize == nh / 2,
            "edge_start ends at {}, {} edges",
            self.edge_start[nv],
            nh / 2
        );
        ensure!(
            self.face_start[nv] as usize == self.face_corner.len(),
            "face_start ends at {}, {} faces",
            self.face_start[nv],
            self.face_corner.len()
        );
        for v in 0..nv {
            for f in self.face_start[v]..self.face_start[v + 1] {
                let c = self.face_corner[f as usize];
                ensure!(
                    (c & ID) as usize == v && c >> ROT_SHIFT <= 2,
                    "face_corner[{f}] = {c:#x}, expected v{v} and a rotation 0..=2"
                );
            }
        }
        Ok(())
    }
}

impl TryFrom<FrozenParts> for FrozenMesh {
    type Error = FrozenError;

    /// [`FrozenMesh::from_parts`]: how serde loads a frozen mesh, validated.
    fn try_from(parts: FrozenParts) -> Result<Self, FrozenError> {
        FrozenMesh::from_parts(parts)
    }
}
