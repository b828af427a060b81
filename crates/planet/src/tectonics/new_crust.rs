//! New ocean floor where plates moved apart: after the motion, the wide triangles across
//! opening boundaries get a vertex each, dated from the ridge axis ([`super::ridge`]), in
//! rounds so that wide gaps fill row by row.

use super::band;
use super::ridge;
use super::{
    AGE, CRUST, ELEVATION, OCEANIC, OROGENY, PLATE, Params, Plate, RIDGE, TectonicsError, orogeny,
    set, slice,
};
use glam::DVec3;
use quadedge::{Edge, Face, Mesh, Vertex};
use rayon::prelude::*;
use world::World;

/// Depth of new crust at a ridge (m).
pub const RIDGE_DEPTH_M: f32 = -2600.0;

/// Rounds of new crust per step: a gap opened by fast plates on a fine mesh is several
/// cells wide, and each round fills one row.
const ROUNDS: usize = 12;

/// The new crust's working arrays, kept between steps: per vertex slot, the index of the
/// vertex's entry among this step's new crust (or `NONE`), and the marks of a round.
#[derive(Clone, Debug, Default)]
pub(super) struct Buffers {
    fresh: Vec<u32>,
    used: Vec<bool>,
    marked: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// New oceanic crust where the plates moved apart: every triangle joining two plates whose
/// circumradius exceeds the mesh spacing gets a vertex at its centre (on the plate of the
/// nearest corner), age 0, ridge depth; up to [`ROUNDS`] rounds, so wide gaps fill in rows.
/// The rounds are one world edit, and each layer is written once for all of them. `edges`,
/// the [`band::boundary_edges`] before, are the ones after. Returns the vertices made.
///
/// # Errors
/// When the world lacks a layer or refuses the insertion.
pub(super) fn new_crust(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
    buf: &mut Buffers,
    edges: &mut Vec<Edge>,
) -> Result<usize, TectonicsError> {
    let layer = |name: &str| TectonicsError::World(format!("no `{name}` layer"));
    // The layers as they are before the rounds, shared (not copied) and dropped with the
    // closure, before the insertion's journal reaches them; the new vertices' values are
    // in `made` until the end.
    let plate = world.layer(&PLATE).ok_or_else(|| layer("plate"))?.clone();
    let crust = world.layer(&CRUST).ok_or_else(|| layer("crust"))?.clone();
    let age = world.layer(&AGE).ok_or_else(|| layer("crust_age"))?.clone();
    let ridge_of = world
        .layer(&RIDGE)
        .ok_or_else(|| layer("ridge_partner"))?
        .clone();
    let mut made = Made::default();
    let mut pending = Gaps::default();
    let mut focus: Option<Vec<Face>> = None;
    let mut recorded = 0;
    let mut first: Option<Vec<Face>> = None;
    let Buffers {
        fresh,
        used,
        marked,
    } = buf;
    let band = &edges[..];
    let (rounds, report) = world
        .insert_points_in_rounds(ROUNDS, |mesh, pos, new| {
            // The previous round's vertices and what they hold.
            for (k, &v) in new.iter().enumerate() {
                if fresh.len() <= v.index() {
                    fresh.resize(v.index() + 1, NONE);
                }
                fresh[v.index()] = made.vertices.len() as u32;
                made.vertices.push(v);
                made.owners.push(pending.owners[k]);
                made.ages.push(pending.ages[k]);
                made.ridges.push(pending.ridges[k]);
            }
            if !new.is_empty() {
                recorded += 1;
                // The next round only looks at what changed: the new vertices and the wide
                // faces a crowded round skipped.
                let mut around: Vec<Face> = new
                    .iter()
                    .chain(&pending.skipped)
                    .filter(|v| mesh.is_vertex_alive(**v))
                    .flat_map(|&v| mesh.vertex_faces(v))
                    .collect();
                around.par_sort_unstable();
                around.dedup();
                focus = Some(around);
            }
            let known = Known {
                plate: plate.as_slice(),
                crust: crust.as_slice(),
                age: age.as_slice(),
                ridge: ridge_of.as_slice(),
                fresh,
                made: &made,
            };
            let marks = Marks { used, marked };
            // The first round: the faces across the band.
            let faces = match &focus {
                Some(f) => f.as_slice(),
                None => first.get_or_insert_with(|| band::sides(mesh, band)),
            };
            pending = gaps(mesh, pos, &known, plates, params, faces, marks);
            std::mem::take(&mut pending.points)
        })
        .map_err(|e| TectonicsError::World(format!("insert: {e}")))?;
    // The last round's vertices, when the rounds ran out before an empty one.
    if let Some(last) = rounds.last().filter(|_| rounds.len() > recorded) {
        for (k, &v) in last.iter().enumerate() {
            made.vertices.push(v);
            made.owners.push(pending.owners[k]);
            made.ages.push(pending.ages[k]);
            made.ridges.push(pending.ridges[k]);
        }
    }
    for v in &made.vertices {
        if let Some(f) = fresh.get_mut(v.index()) {
            *f = NONE;
        }
    }
    let new = &made.vertices;
    set(world, &PLATE, new, |i| made.owners[i])?;
    set(world, &CRUST, new, |_| OCEANIC)?;
    set(world, &AGE, new, |i| made.ages[i])?;
    set(world, &ELEVATION, new, |_| RIDGE_DEPTH_M)?;
    set(world, &OROGENY, new, |_| orogeny::NONE)?;
    set(world, &RIDGE, new, |i| made.ridges[i])?;
    band::update(world.mesh(), slice(world, &PLATE)?, edges, report.edges);
    Ok(new.len())
}

/// The vertices made so far this step and their plates and ages.
#[derive(Default)]
struct Made {
    vertices: Vec<Vertex>,
    owners: Vec<u32>,
    ages: Vec<f32>,
    ridges: Vec<u32>,
}

/// What a gap sees of a vertex: the layers as they were before the rounds, or, for a vertex
/// made by an earlier round, its entry in `made` (its slot's index in `fresh`).
struct Known<'a> {
    plate: &'a [u32],
    crust: &'a [u8],
    age: &'a [f32],
    ridge: &'a [u32],
    fresh: &'a [u32],
    made: &'a Made,
}

impl Known<'_> {
    fn made(&self, v: Vertex) -> Option<usize> {
        let k = *self.fresh.get(v.index())?;
        (k != NONE).then_some(k as usize)
    }

    fn plate(&self, v: Vertex) -> u32 {
        self.made(v)
            .map_or_else(|| self.plate[v.index()], |k| self.made.owners[k])
    }

    fn corner(&self, pos: &[DVec3], v: Vertex) -> ridge::Corner {
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

/// What one round of [`gaps`] found.
#[derive(Default)]
struct Gaps {
    /// Where new crust goes (with the face it lies in), and the plate of each.
    points: Vec<(DVec3, Face)>,
    owners: Vec<u32>,
    /// The age of each (Myr): see [`super::ridge`].
    ages: Vec<f32>,
    /// The plate across the ridge that made each.
    ridges: Vec<u32>,
    /// Corners of wide faces left for the next round (a neighbour was filled first).
    skipped: Vec<Vertex>,
}

/// The marks of a round: the vertices near a point of this round, and which they are (so
/// that only they are cleared).
struct Marks<'a> {
    used: &'a mut Vec<bool>,
    marked: &'a mut Vec<u32>,
}

impl Marks<'_> {
    fn mark(&mut self, v: Vertex) {
        if self.used.len() <= v.index() {
            self.used.resize(v.index() + 1, false);
        }
        if !std::mem::replace(&mut self.used[v.index()], true) {
            self.marked.push(v.raw());
        }
    }

    fn is(&self, v: Vertex) -> bool {
        self.used.get(v.index()).copied().unwrap_or(false)
    }

    fn clear(&mut self) {
        for &v in self.marked.iter() {
            self.used[v as usize] = false;
        }
        self.marked.clear();
    }
}

/// The centres of the wide triangles among `faces` (the faces across the band, or around
/// what the last round changed: a face whose corners are all on one plate is no gap), at
/// most one per vertex's star per round (so two new points never crowd), and the plate each
/// joins.
fn gaps(
    mesh: &Mesh,
    pos: &[DVec3],
    known: &Known<'_>,
    plates: &[Plate],
    params: &Params,
    faces: &[Face],
    mut marks: Marks<'_>,
) -> Gaps {
    let wide = wide_gaps(mesh, pos, known, plates, params, faces);
    let mut found = Gaps::default();
    for (f, centre) in wide {
        let corners = mesh.face_vertices(f);
        if corners.iter().any(|&v| marks.is(v)) {
            found.skipped.extend(corners);
            continue;
        }
        // The centroid: inside the triangle, so the insertion always finds it.
        let point = centre;
        let nearest = corners
            .iter()
            .min_by(|u, v| {
                pos[u.index()]
                    .distance_squared(point)
                    .total_cmp(&pos[v.index()].distance_squared(point))
            })
            .copied()
            .unwrap_or(corners[0]);
        for v in corners {
            marks.mark(v);
            for u in mesh.neighbors(v) {
                marks.mark(u);
            }
        }
        let corner = |v: Vertex| known.corner(pos, v);
        let floor = ridge::new_floor(point, &corners.map(corner), plates, corner(nearest));
        found.points.push((point, f));
        found.owners.push(floor.plate);
        found.ages.push(floor.age);
        found.ridges.push(floor.ridge);
    }
    marks.clear();
    found
}

/// The faces among `faces` that are gaps where the plates open, with their centres (km).
fn wide_gaps(
    mesh: &Mesh,
    pos: &[DVec3],
    known: &Known<'_>,
    plates: &[Plate],
    params: &Params,
    faces: &[Face],
) -> Vec<(Face, DVec3)> {
    let r = params.radius_km;
    // A gap is a triangle across a boundary with room for a vertex: twice the area of a
    // lattice triangle ((√3/4)·spacing², and a lattice has two triangles per vertex, so new
    // crust gets the lattice's density), its centre at least 0.45 spacing from each corner
    // (so thin slivers along a barely opening boundary wait until they widen).
    let s2 = params.spacing_km * params.spacing_km;
    let min_area = 2.0 * 0.25 * 3f64.sqrt() * s2;
    let min_reach2 = 0.45 * 0.45 * s2;
    faces
        .par_iter()
        .filter_map(|&f| {
            let [a, b, c] = mesh.face_vertices(f);
            let (pa, pb, pc) = (known.plate(a), known.plate(b), known.plate(c));
            if pa == pb && pb == pc {
                return None;
            }
            let (x, y, z) = (pos[a.index()], pos[b.index()], pos[c.index()]);
            if 0.5 * (y - x).cross(z - x).length() < min_area {
                return None;
            }
            let centre = (x + y + z).normalize() * r;
            if [x, y, z]
                .iter()
                .any(|p| p.distance_squared(centre) < min_reach2)
            {
                return None;
            }
            // Only where the plates move apart across the gap (not along transforms or
            // fronts): see [`ridge::opens`].
            let corner = |v: Vertex| (pos[v.index()], known.plate(v));
            let opens = ridge::opens([corner(a), corner(b), corner(c)], plates);
            opens.then_some((f, centre))
        })
        .collect()
}
