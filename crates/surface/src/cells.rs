//! The cells every stage works on: one per vertex (its Voronoi cell), with its neighbours in
//! one flat array, the length of each link, its area and its latitude, built once from any
//! [`Topology`] and its positions.

use crate::error::{SurfaceError, param};
use glam::DVec3;
use quadedge::{Topology, Vertex};
use rayon::prelude::*;

/// Where the cells lie: what a distance, an area and a latitude mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Geometry {
    /// A sphere of this radius (km) centred at the origin, north along `+Y` (the frame of the
    /// Fibonacci sphere and of the equirectangular exports). Positions may lie off the sphere
    /// (relief): only their directions count.
    Sphere {
        /// Radius in km.
        radius_km: f64,
    },
    /// The `z = 0` plane; `y` grows northwards.
    Plane {
        /// Kilometres per position unit.
        km_per_unit: f64,
        /// Latitude (degrees) at `y = 0`.
        lat_at_y0_deg: f64,
        /// Degrees of latitude per position unit (the result is clamped to ±90°).
        deg_per_unit: f64,
    },
}

impl Geometry {
    fn check(&self) -> Result<(), SurfaceError> {
        match *self {
            Geometry::Sphere { radius_km } => param(
                radius_km.is_finite() && radius_km > 0.0,
                "radius_km",
                "must be finite and positive",
            ),
            Geometry::Plane {
                km_per_unit,
                lat_at_y0_deg,
                deg_per_unit,
            } => {
                param(
                    km_per_unit.is_finite() && km_per_unit > 0.0,
                    "km_per_unit",
                    "must be finite and positive",
                )?;
                param(
                    lat_at_y0_deg.is_finite() && deg_per_unit.is_finite(),
                    "latitude",
                    "must be finite",
                )
            }
        }
    }

    /// Distance in km between two positions (great-circle on the sphere).
    pub fn distance_km(&self, a: DVec3, b: DVec3) -> f64 {
        match *self {
            Geometry::Sphere { radius_km } => radius_km * a.cross(b).length().atan2(a.dot(b)),
            Geometry::Plane { km_per_unit, .. } => km_per_unit * (a - b).length(),
        }
    }

    /// Area in km² of the triangle `a b c` (spherical on the sphere).
    pub fn triangle_km2(&self, a: DVec3, b: DVec3, c: DVec3) -> f64 {
        match *self {
            Geometry::Sphere { radius_km } => {
                let (a, b, c) = (a.normalize(), b.normalize(), c.normalize());
                // Van Oosterom and Strackee: tan(Ω/2) = |a·(b×c)| / (1 + a·b + b·c + c·a).
                let num = a.dot(b.cross(c)).abs();
                let den = 1.0 + a.dot(b) + b.dot(c) + c.dot(a);
                2.0 * num.atan2(den) * radius_km * radius_km
            }
            Geometry::Plane { km_per_unit, .. } => {
                0.5 * (b - a).cross(c - a).length() * km_per_unit * km_per_unit
            }
        }
    }

    /// Latitude in radians, north positive.
    pub fn latitude(&self, p: DVec3) -> f64 {
        match *self {
            Geometry::Sphere { .. } => (p.y / p.length()).clamp(-1.0, 1.0).asin(),
            Geometry::Plane {
                lat_at_y0_deg,
                deg_per_unit,
                ..
            } => (lat_at_y0_deg + p.y * deg_per_unit)
                .clamp(-90.0, 90.0)
                .to_radians(),
        }
    }

    /// Unit vectors pointing east and north at `p` (any tangent pair at the poles).
    pub fn east_north(&self, p: DVec3) -> (DVec3, DVec3) {
        match self {
            Geometry::Sphere { .. } => {
                let up = p.normalize();
                let east = DVec3::Y
                    .cross(up)
                    .try_normalize()
                    .unwrap_or_else(|| up.any_orthonormal_vector());
                (east, up.cross(east))
            }
            Geometry::Plane { .. } => (DVec3::X, DVec3::Y),
        }
    }
}

/// The cells of a mesh: neighbours in compressed rows, link lengths, areas and latitudes,
/// indexed by vertex slot. Dead slots (and exterior vertices, see [`Cells::with_exterior`])
/// are not live: no neighbours, no area.
#[derive(Clone, Debug)]
pub struct Cells {
    pub(crate) geometry: Geometry,
    pub(crate) positions: Vec<DVec3>,
    /// `neighbors[offsets[v]..offsets[v + 1]]` are the live neighbours of `v`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) neighbors: Vec<u32>,
    /// Length in km of each entry of `neighbors`.
    pub(crate) link_km: Vec<f32>,
    pub(crate) area_km2: Vec<f64>,
    pub(crate) latitude: Vec<f32>,
    pub(crate) live: Vec<bool>,
    /// On the edge of an open mesh or next to an exterior vertex: water may leave here.
    pub(crate) boundary: Vec<bool>,
}

impl Cells {
    /// The cells of a closed or open mesh; `positions` has one entry per vertex slot.
    ///
    /// Cell areas are barycentric (a third of each adjacent triangle), so they sum exactly to
    /// the area the mesh covers; on the near-regular meshes of this project they are within
    /// a few percent of the Voronoi cells'.
    ///
    /// # Errors
    /// [`SurfaceError::LengthMismatch`] for positions not one per slot,
    /// [`SurfaceError::NonFinite`] for a non-finite position on a live vertex (or one at the
    /// sphere's centre), [`SurfaceError::InvalidParameter`] for a bad geometry,
    /// [`SurfaceError::BadMesh`] for a mesh without live vertices.
    pub fn new(
        mesh: &impl Topology,
        positions: &[DVec3],
        geometry: Geometry,
    ) -> Result<Self, SurfaceError> {
        Self::with_exterior(mesh, positions, geometry, &[])
    }

    /// [`Cells::new`] leaving out `exterior` vertices (the ghost vertex that closes a planar
    /// map): they and their triangles are ignored, and their neighbours become boundary cells
    /// through which water leaves the map.
    ///
    /// # Errors
    /// Those of [`Cells::new`]; an exterior vertex that is not live is ignored.
    pub fn with_exterior(
        mesh: &impl Topology,
        positions: &[DVec3],
        geometry: Geometry,
        exterior: &[Vertex],
    ) -> Result<Self, SurfaceError> {
        geometry.check()?;
        let slots = mesh.vertex_slots();
        if positions.len() != slots {
            return Err(SurfaceError::LengthMismatch {
                what: "positions",
                expected: slots,
                got: positions.len(),
            });
        }
        let mut live = vec![false; slots];
        for v in mesh.vertices() {
            live[v.index()] = true;
        }
        let mut outside = vec![false; slots];
        for &v in exterior {
            if let Some(slot) = live.get_mut(v.index()) {
                outside[v.index()] = *slot;
                *slot = false;
            }
        }
        if !live.iter().any(|&l| l) {
            return Err(SurfaceError::BadMesh("no live vertex"));
        }
        let sphere = matches!(geometry, Geometry::Sphere { .. });
        if let Some(i) = (0..slots).find(|&i| {
            live[i]
                && (!positions[i].is_finite() || (sphere && positions[i].length_squared() == 0.0))
        }) {
            return Err(SurfaceError::NonFinite {
                what: "positions",
                vertex: i as u32,
            });
        }
        let mut offsets = Vec::with_capacity(slots + 1);
        let mut neighbors = Vec::with_capacity(7 * slots);
        let mut boundary = vec![false; slots];
        offsets.push(0u32);
        for v in 0..slots {
            if live[v] {
                let vx = Vertex::new(v as u32);
                boundary[v] = mesh.is_boundary_vertex(vx);
                for n in mesh.neighbors(vx) {
                    if live[n.index()] {
                        neighbors.push(n.index() as u32);
                    } else if outside[n.index()] {
                        boundary[v] = true;
                    }
                }
            }
            let end = u32::try_from(neighbors.len())
                .map_err(|_| SurfaceError::BadMesh("more than 2^32 neighbour entries"))?;
            offsets.push(end);
        }
        let link_km = link_lengths(&geometry, positions, &offsets, &neighbors);
        let area_km2 = cell_areas(
            mesh, &geometry, positions, &offsets, &neighbors, &live, &boundary,
        );
        let latitude = positions
            .par_iter()
            .map(|&p| {
                if p.is_finite() && p.length_squared() > 0.0 {
                    geometry.latitude(p) as f32
                } else {
                    0.0
                }
            })
            .collect();
        Ok(Self {
            geometry,
            positions: positions.to_vec(),
            offsets,
            neighbors,
            link_km,
            area_km2,
            latitude,
            live,
            boundary,
        })
    }

    /// Number of vertex slots (the length of every per-cell slice).
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Is there no slot at all? (Never true for cells that were built.)
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// The geometry the cells were built with.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Is slot `v` a live cell? (`false` past the end.)
    pub fn is_live(&self, v: usize) -> bool {
        self.live.get(v).copied().unwrap_or(false)
    }

    /// Area of each cell in km² (0 for slots that are not live).
    pub fn areas_km2(&self) -> &[f64] {
        &self.area_km2
    }

    /// Latitude of each cell in radians.
    pub fn latitudes(&self) -> &[f32] {
        &self.latitude
    }

    /// Positions by slot, as given.
    pub fn positions(&self) -> &[DVec3] {
        &self.positions
    }

    /// The live neighbours of `v` and the length (km) of each link. Like slice indexing, it
    /// panics for `v >= self.len()`.
    pub fn links(&self, v: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let r = self.offsets[v] as usize..self.offsets[v + 1] as usize;
        self.neighbors[r.clone()]
            .iter()
            .zip(&self.link_km[r])
            .map(|(&n, &d)| (n as usize, d))
    }

    /// The live neighbours of `v` (the same order as [`Cells::links`]).
    pub(crate) fn ring(&self, v: usize) -> &[u32] {
        &self.neighbors[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The live slots.
    pub fn live_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.live.len()).filter(|&v| self.live[v])
    }

    /// Checks a per-cell scalar input.
    pub(crate) fn check<T: Copy + Into<f64>>(
        &self,
        what: &'static str,
        values: &[T],
    ) -> Result<(), SurfaceError> {
        crate::error::check_values(what, &self.live, values)
    }
}

/// Barycentric cell areas: a third of each live triangle at the cell. Interior cells take
/// their triangles from consecutive neighbours of their ring, on all cores (no face lookups);
/// cells on a boundary (where the ring has a gap) from the mesh's faces.
fn cell_areas(
    mesh: &impl Topology,
    geometry: &Geometry,
    positions: &[DVec3],
    offsets: &[u32],
    neighbors: &[u32],
    live: &[bool],
    boundary: &[bool],
) -> Vec<f64> {
    let mut area: Vec<f64> = (0..live.len())
        .into_par_iter()
        .map(|v| {
            if !live[v] || boundary[v] {
                return 0.0;
            }
            let ring = &neighbors[offsets[v] as usize..offsets[v + 1] as usize];
            let p = positions[v];
            (0..ring.len())
                .map(|k| {
                    let a = positions[ring[k] as usize];
                    let b = positions[ring[(k + 1) % ring.len()] as usize];
                    geometry.triangle_km2(p, a, b)
                })
                .sum::<f64>()
                / 3.0
        })
        .collect();
    for v in (0..live.len()).filter(|&v| live[v] && boundary[v]) {
        area[v] = mesh
            .vertex_faces(Vertex::new(v as u32))
            .map(|f| mesh.face_vertices(f))
            .filter(|c| c.iter().all(|x| live[x.index()]))
            .map(|[a, b, c]| {
                let q = |x: Vertex| positions[x.index()];
                geometry.triangle_km2(q(a), q(b), q(c))
            })
            .sum::<f64>()
            / 3.0;
    }
    area
}

/// The length in km of every link, computed on all cores.
fn link_lengths(
    geometry: &Geometry,
    positions: &[DVec3],
    offsets: &[u32],
    neighbors: &[u32],
) -> Vec<f32> {
    per_link(offsets, |v, row| {
        let p = positions[v];
        let ring = &neighbors[offsets[v] as usize..offsets[v + 1] as usize];
        for (x, &u) in row.iter_mut().zip(ring) {
            *x = geometry.distance_km(p, positions[u as usize]) as f32;
        }
    })
}

/// One value per link (per entry of the neighbour rows `offsets`), each row filled by
/// `fill(v, row)` on all cores, in chunks of consecutive cells.
pub(crate) fn per_link<T, F>(offsets: &[u32], fill: F) -> Vec<T>
where
    T: Copy + Default + Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    const CHUNK: usize = 4096;
    let slots = offsets.len() - 1;
    let mut out = vec![T::default(); offsets[slots] as usize];
    let bounds: Vec<(usize, usize)> = (0..slots.div_ceil(CHUNK))
        .map(|c| (c * CHUNK, ((c + 1) * CHUNK).min(slots)))
        .collect();
    let mut pieces: Vec<&mut [T]> = Vec::with_capacity(bounds.len());
    let mut rest = out.as_mut_slice();
    for &(a, b) in &bounds {
        let (head, tail) = rest.split_at_mut((offsets[b] - offsets[a]) as usize);
        pieces.push(head);
        rest = tail;
    }
    pieces
        .into_par_iter()
        .zip(bounds)
        .for_each(|(piece, (a, b))| {
            let base = offsets[a] as usize;
            for v in a..b {
                let r = offsets[v] as usize - base..offsets[v + 1] as usize - base;
                fill(v, &mut piece[r]);
            }
        });
    out
}
