//! The nearest-site search both pictures use: site directions and a flat adjacency copied out
//! of the mesh once, a greedy walk to the nearest site, and the Voronoi arcs that are borders.

use crate::ExportError;
use crate::common::check_len;
use glam::Vec3A;
use quadedge::{Face, Topology, Vertex};

/// Which pairs of neighbouring cells get a border line between them.
#[derive(Clone, Copy, Default)]
pub enum Borders<'a> {
    /// No border lines.
    #[default]
    None,
    /// One region id per vertex slot; a line is drawn where the ids of two cells differ.
    Regions(&'a [u32]),
    /// Any rule: `true` if the two (neighbouring) vertices are in different regions.
    /// Called once per mesh edge and direction before rendering, not per pixel.
    Custom(&'a dyn Fn(Vertex, Vertex) -> bool),
}

impl std::fmt::Debug for Borders<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Borders::None => f.write_str("None"),
            Borders::Regions(r) => write!(f, "Regions({} ids)", r.len()),
            Borders::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl<'a> From<&'a [u32]> for Borders<'a> {
    fn from(regions: &'a [u32]) -> Self {
        Borders::Regions(regions)
    }
}

pub(crate) const BORDER_BIT: u32 = 1 << 31;

/// Unit site directions and a compressed adjacency (CSR) copied out of the mesh once, so that
/// the per-sample walk reads two flat arrays instead of chasing quad-edge rings.
pub(crate) struct Sites {
    pub(crate) dirs: Vec<Vec3A>,
    offsets: Vec<u32>,
    /// Neighbour ids; [`BORDER_BIT`] set where a border runs between the two cells.
    nbrs: Vec<u32>,
    /// Parallel to `nbrs`: index into `segs` for border entries.
    seg_of: Vec<u32>,
    /// The Voronoi edges that are borders.
    segs: Vec<Seg>,
    /// A live vertex with neighbours, where walks without a better hint begin.
    pub(crate) start: u32,
}

/// A Voronoi edge: an arc of the bisector great circle (normal `plane`) between two
/// circumcentres, with the normals of the two planes that bound the arc's wedge.
struct Seg {
    plane: Vec3A,
    a: Vec3A,
    b: Vec3A,
    na: Vec3A,
    nb: Vec3A,
    /// No end points (an edge on a mesh boundary): the whole bisector counts.
    open: bool,
}

impl Seg {
    fn new(plane: Vec3A, a: Vec3A, b: Vec3A) -> Self {
        let (mut na, mut nb) = (plane.cross(a), plane.cross(b));
        if (a - b).length_squared() < 1e-14 {
            // A zero-length edge (cocircular sites): only the end point counts.
            (na, nb) = (Vec3A::ZERO, Vec3A::ZERO);
        } else {
            if na.dot(b) < 0.0 {
                na = -na;
            }
            if nb.dot(a) < 0.0 {
                nb = -nb;
            }
        }
        Self {
            plane,
            a,
            b,
            na,
            nb,
            open: false,
        }
    }

    /// Chord distance from unit vector `p` to the arc: to the great circle where `p` lies in
    /// the arc's wedge, else to the nearer end. Measuring to the arc rather than the whole
    /// bisector keeps lines from overshooting at corners where a border meets a non-border.
    #[inline]
    fn distance(&self, p: Vec3A) -> f32 {
        if self.open || (p.dot(self.na) > 0.0 && p.dot(self.nb) > 0.0) {
            self.plane.dot(p).abs()
        } else {
            (p - self.a).length().min((p - self.b).length())
        }
    }
}

impl Sites {
    pub(crate) fn new(
        mesh: &impl Topology,
        dirs: Vec<Vec3A>,
        border: &dyn Fn(Vertex, Vertex) -> bool,
    ) -> Self {
        let slots = mesh.vertex_slots();
        let circumcenter_of = |f: Face| {
            let [a, b, c] = mesh.face_vertices(f).map(|v| dirs[v.index()]);
            circumcenter(a, b, c)
        };
        let mut offsets = vec![0u32; slots + 1];
        let mut nbrs = Vec::with_capacity(6 * slots);
        let mut seg_of = Vec::with_capacity(6 * slots);
        let mut segs = Vec::new();
        let mut start = None;
        // Per vertex: its neighbours (counter-clockwise) and the faces left and right of the
        // edge to each, found from the faces around it (only where a border needs them).
        let mut ring: Vec<Vertex> = Vec::new();
        let mut sides: Vec<[Face; 2]> = Vec::new();
        let mut filled = 0;
        for v in mesh.vertices() {
            let i = v.index();
            offsets[filled + 1..=i].fill(nbrs.len() as u32);
            ring.clear();
            ring.extend(mesh.neighbors(v));
            sides.clear();
            if ring.iter().any(|&n| border(v, n)) {
                sides.resize(ring.len(), [Face::INVALID; 2]);
                for f in mesh.vertex_faces(v) {
                    let c = mesh.face_vertices(f);
                    let k = c.iter().position(|&x| x == v).unwrap_or(0);
                    // Face (v, a, b): left of v → a, right of v → b.
                    let (a, b) = (c[(k + 1) % 3], c[(k + 2) % 3]);
                    if let Some(j) = ring.iter().position(|&x| x == a) {
                        sides[j][0] = f;
                    }
                    if let Some(j) = ring.iter().position(|&x| x == b) {
                        sides[j][1] = f;
                    }
                }
            }
            for (j, &n) in ring.iter().enumerate() {
                if !sides.is_empty() && border(v, n) {
                    let plane = (dirs[i] - dirs[n.index()]).normalize_or_zero();
                    let [l, r] = sides[j];
                    let seg = if l.is_valid() && r.is_valid() {
                        Seg::new(plane, circumcenter_of(l), circumcenter_of(r))
                    } else {
                        // On a mesh boundary the edge is open-ended: use the bisector.
                        Seg {
                            open: true,
                            ..Seg::new(plane, Vec3A::ZERO, Vec3A::ZERO)
                        }
                    };
                    seg_of.push(segs.len() as u32);
                    segs.push(seg);
                    nbrs.push(n.raw() | BORDER_BIT);
                } else {
                    seg_of.push(u32::MAX);
                    nbrs.push(n.raw());
                }
            }
            if start.is_none() && !ring.is_empty() {
                start = Some(i as u32);
            }
            offsets[i + 1] = nbrs.len() as u32;
            filled = i + 1;
        }
        offsets[filled + 1..].fill(nbrs.len() as u32);
        Self {
            dirs,
            offsets,
            nbrs,
            seg_of,
            segs,
            start: start.unwrap_or(0),
        }
    }

    /// Is any pair of neighbouring cells separated by a border?
    pub(crate) fn has_borders(&self) -> bool {
        !self.segs.is_empty()
    }

    #[inline]
    fn ring(&self, v: u32) -> &[u32] {
        let (a, b) = (self.offsets[v as usize], self.offsets[v as usize + 1]);
        &self.nbrs[a as usize..b as usize]
    }

    /// The site nearest to unit vector `p`, by steepest ascent of `dot(p, site)` from `v`.
    /// Terminates because the dot product strictly increases.
    #[inline]
    pub(crate) fn walk(&self, mut v: u32, p: Vec3A) -> u32 {
        let mut best = self.dirs[v as usize].dot(p);
        loop {
            let mut next = v;
            for &n in self.ring(v) {
                let n = n & !BORDER_BIT;
                let d = self.dirs[n as usize].dot(p);
                if d > best {
                    best = d;
                    next = n;
                }
            }
            if next == v {
                return v;
            }
            v = next;
        }
    }

    /// Distance (chord units on the unit sphere) from `p`, which lies in the cell of `v`, to
    /// the nearest Voronoi edge of that cell that is a border; `INFINITY` if none.
    #[inline]
    pub(crate) fn border_distance(&self, v: u32, p: Vec3A) -> f32 {
        let (a, b) = (self.offsets[v as usize], self.offsets[v as usize + 1]);
        let mut best = f32::INFINITY;
        for k in a as usize..b as usize {
            if self.nbrs[k] & BORDER_BIT != 0 {
                best = best.min(self.segs[self.seg_of[k] as usize].distance(p));
            }
        }
        best
    }
}

pub(crate) fn border_rule<'a>(
    mesh: &impl Topology,
    borders: Borders<'a>,
) -> Result<Box<dyn Fn(Vertex, Vertex) -> bool + 'a>, ExportError> {
    Ok(match borders {
        Borders::None => Box::new(|_, _| false),
        Borders::Regions(r) => {
            check_len("regions", mesh, r.len())?;
            Box::new(move |a: Vertex, b: Vertex| r[a.index()] != r[b.index()])
        }
        Borders::Custom(f) => Box::new(f),
    })
}

/// The circumcentre of a spherical triangle: the Voronoi corner it stands for. The normal of
/// the plane through the three points, oriented outwards by the counter-clockwise winding.
pub(crate) fn circumcenter(a: Vec3A, b: Vec3A, c: Vec3A) -> Vec3A {
    (b - a)
        .cross(c - a)
        .try_normalize()
        .unwrap_or_else(|| (a + b + c).normalize_or_zero())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locate::FaceWalk;
    use crate::test_meshes as common;

    #[test]
    fn greedy_walk_finds_the_nearest_site() {
        let (mesh, pos) = common::icosphere(3);
        let sites = Sites::new(&mesh, FaceWalk::unit_dirs(&pos), &|_, _| false);
        let mut rng = testkit::Rng::new(7);
        for k in 0..2000 {
            let p = Vec3A::from(rng.unit_vector().map(|c| c as f32)).normalize_or(Vec3A::X);
            let from = (k * 37 % pos.len()) as u32;
            let v = sites.walk(from, p);
            let best = sites.dirs.iter().map(|d| d.dot(p)).fold(f32::MIN, f32::max);
            assert!(sites.dirs[v as usize].dot(p) >= best - 1e-6, "sample {k}");
        }
    }

    #[test]
    fn border_distance_is_zero_on_the_bisector_and_grows_inside() {
        let (mesh, pos) = common::icosphere(2);
        let sites = Sites::new(&mesh, FaceWalk::unit_dirs(&pos), &|a, b| a.raw() < b.raw());
        let v = 0u32;
        let n = sites.ring(v)[0] & !BORDER_BIT;
        let (dv, dn) = (sites.dirs[v as usize], sites.dirs[n as usize]);
        let mid = (dv + dn).normalize();
        assert!(sites.border_distance(v, mid) < 1e-5);
        assert!(sites.border_distance(v, dv) > 0.05);
    }
}
