//! The gap search of a round of new crust: which faces are wide gaps where the plates open,
//! and the floor new crust there gets, from the vertices' data as the rounds left it.

use super::super::ridge;
use super::super::{OCEANIC, Params, Plate};
use super::{Made, NONE};
use glam::DVec3;
use quadedge::{Face, Mesh, Vertex};
use rayon::prelude::*;

/// What a gap sees of a vertex: the layers as they were before the rounds, or, for a vertex
/// made by an earlier round, its entry in `made` (its slot's index in `fresh`).
pub(super) struct Known<'a> {
    pub(super) plate: &'a [u32],
    pub(super) crust: &'a [u8],
    pub(super) age: &'a [f32],
    pub(super) ridge: &'a [u32],
    pub(super) fresh: &'a [u32],
    pub(super) fresh_bits: &'a [u64],
    pub(super) made: &'a Made,
}

impl Known<'_> {
    pub(super) fn made(&self, v: Vertex) -> Option<usize> {
        let i = v.index();
        if self
            .fresh_bits
            .get(i / 64)
            .is_none_or(|w| w & (1 << (i % 64)) == 0)
        {
            return None;
        }
        let k = *self.fresh.get(i)?;
        (k != NONE).then_some(k as usize)
    }

    pub(super) fn plate(&self, v: Vertex) -> u32 {
        self.made(v)
            .map_or_else(|| self.plate[v.index()], |k| self.made.owners[k])
    }

    pub(super) fn corner(&self, pos: &[DVec3], v: Vertex) -> ridge::Corner {
        let i = v.index();
        let (plate, crust, age, ridge) = match self.made(v) {
            Some(k) => {
                let m = self.made;
                (m.owners[k], OCEANIC, m.ages[k], m.ridges[k])
            }
            None => (self.plate[i], self.crust[i], self.age[i], self.ridge[i]),
        };
        ridge::Corner {
            point: pos[i],
            plate,
            crust,
            age,
            ridge,
        }
    }
}

/// What a round's gap search reads: the mesh as the rounds left it, its positions (km),
/// the vertices' data, the plates and the settings.
#[derive(Clone, Copy)]
pub(super) struct Search<'a> {
    pub(super) mesh: &'a Mesh,
    pub(super) pos: &'a [DVec3],
    pub(super) known: &'a Known<'a>,
    pub(super) plates: &'a [Plate],
    pub(super) params: &'a Params,
}

/// Two lists of wide faces in face order (no face in both), merged in face order.
pub(super) fn merged<'a>(a: &'a [Wide], b: &'a [Wide]) -> impl Iterator<Item = &'a Wide> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || {
        let next = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if y.0 < x.0 => {
                j += 1;
                y
            }
            (Some(x), _) => {
                i += 1;
                x
            }
            (None, Some(y)) => {
                j += 1;
                y
            }
            (None, None) => return None,
        };
        Some(next)
    })
}

/// A wide face: the face, its corners (in the mesh's order) and its centre (km). The floor
/// new crust there gets depends on the corners only (which keep their data through the
/// step), so it is found for the faces a round fills, not for every wide face.
pub(super) type Wide = (Face, [Vertex; 3], DVec3);

/// The floor new crust gets at `point` (the centroid: inside the triangle, so the insertion
/// always finds it) in the gap with these `corners` (see [`ridge::new_floor`]).
pub(super) fn floor_at(search: &Search<'_>, corners: [Vertex; 3], point: DVec3) -> ridge::Floor {
    let pos = search.pos;
    let nearest = (0..3)
        .min_by(|&i, &j| {
            let d = |k: usize| pos[corners[k].index()].distance_squared(point);
            d(i).total_cmp(&d(j))
        })
        .unwrap_or(0);
    let data = corners.map(|v| search.known.corner(pos, v));
    ridge::new_floor(point, &data, search.plates, data[nearest])
}

/// A face and its corners in the mesh's order ([`Mesh::face_vertices`]).
pub(super) type Cornered = (Face, [Vertex; 3]);

/// The faces around `v` with their corners ([`Cornered`]), counter-clockwise, read off one
/// walk around `v` (each face's corners are `v` and two consecutive neighbours; its
/// [`Mesh::face_edge`] says which comes first) instead of three reads per face.
pub(super) fn faces_around(mesh: &Mesh, v: Vertex) -> impl Iterator<Item = Cornered> + '_ {
    mesh.outgoing(v).filter_map(move |e| {
        let f = mesh.left(e);
        if !f.is_valid() {
            return None;
        }
        // The face's edges are e (v → b), its left next (b → c), and its left previous,
        // the next edge around v reversed (c → v).
        let n = mesh.origin_next(e);
        let (b, c) = (mesh.dest(e), mesh.dest(n));
        let first = mesh.face_edge(f);
        let corners = if first == e {
            [v, b, c]
        } else if first == n.sym() {
            [c, v, b]
        } else {
            [b, c, v]
        };
        debug_assert_eq!(corners, mesh.face_vertices(f));
        Some((f, corners))
    })
}

/// The faces among `faces` that are gaps where the plates open, with their corners and
/// centres (km) ([`Wide`]), on all cores (each face's corners read in the same pass).
pub(super) fn wide_gaps(search: &Search<'_>, faces: &[Face]) -> Vec<Wide> {
    let mesh = search.mesh;
    faces
        .par_iter()
        .with_min_len(256)
        .filter_map(|&f| wide_at(search, (f, mesh.face_vertices(f))))
        .collect()
}

/// The face with these corners as a gap where the plates open ([`Wide`]), if it is one.
#[inline]
pub(super) fn wide_at(search: &Search<'_>, (f, [a, b, c]): Cornered) -> Option<Wide> {
    let Search {
        pos,
        known,
        plates,
        params,
        ..
    } = *search;
    let (pa, pb, pc) = (known.plate(a), known.plate(b), known.plate(c));
    if pa == pb && pb == pc {
        return None;
    }
    // A gap is a triangle across a boundary with room for a vertex: twice the area of a
    // lattice triangle ((√3/4)·spacing², and a lattice has two triangles per vertex, so new
    // crust gets the lattice's density), its centre at least 0.45 spacing from each corner
    // (so thin slivers along a barely opening boundary wait until they widen).
    let s2 = params.spacing_km * params.spacing_km;
    let min_area = 2.0 * 0.25 * 3f64.sqrt() * s2;
    let min_reach2 = 0.45 * 0.45 * s2;
    let (x, y, z) = (pos[a.index()], pos[b.index()], pos[c.index()]);
    if 0.5 * (y - x).cross(z - x).length() < min_area {
        return None;
    }
    let centre = (x + y + z).normalize() * params.radius_km;
    if [x, y, z]
        .iter()
        .any(|p| p.distance_squared(centre) < min_reach2)
    {
        return None;
    }
    // Only where the plates move apart across the gap (not along transforms or fronts):
    // see [`ridge::opens`].
    let corner = |v: Vertex| (pos[v.index()], known.plate(v));
    let opens = ridge::opens([corner(a), corner(b), corner(c)], plates);
    opens.then_some((f, [a, b, c], centre))
}
