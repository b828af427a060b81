//! New ocean floor where plates moved apart: after the motion, the wide triangles across
//! opening boundaries get a vertex each, dated from the ridge axis ([`super::ridge`]), in
//! rounds so that wide gaps fill row by row.

use super::band;
use super::ridge;
use super::{
    AGE, CRUST, ELEVATION, OCEANIC, OROGENY, PLATE, Params, Plate, RIDGE, TectonicsError, orogeny,
    set, world_ops,
};
use glam::DVec3;
use quadedge::Vertex;
use rayon::prelude::*;
use world::World;

/// Depth of new crust at a ridge (m).
pub const RIDGE_DEPTH_M: f32 = -2600.0;

/// Rounds of new crust per step: a gap opened by fast plates on a fine mesh is several
/// cells wide, and each round fills one row.
const ROUNDS: usize = 12;

/// New oceanic crust where the plates moved apart: every triangle joining two plates whose
/// circumradius exceeds the mesh spacing gets a vertex at its centre (on the plate of the
/// nearest corner), age 0, ridge depth; up to [`ROUNDS`] rounds, so wide gaps fill in rows.
/// Returns the vertices made.
///
/// # Errors
/// When the world refuses the insertion.
pub(super) fn new_crust(
    world: &mut World,
    plates: &[Plate],
    params: &Params,
) -> Result<usize, TectonicsError> {
    let mut made = 0;
    // The first round looks at every face; the next ones only round what changed: the new
    // vertices and the wide faces a crowded round skipped.
    let mut focus: Option<Vec<quadedge::Face>> = None;
    let mut used = Vec::new();
    for _ in 0..ROUNDS {
        let found = gaps(world, plates, params, focus.as_deref(), &mut used)?;
        if found.points.is_empty() {
            break;
        }
        let new = world_ops::insert_points_near(world, &found.points)?;
        set(world, &PLATE, &new, |i| found.owners[i])?;
        set(world, &CRUST, &new, |_| OCEANIC)?;
        set(world, &AGE, &new, |i| found.ages[i])?;
        set(world, &ELEVATION, &new, |_| RIDGE_DEPTH_M)?;
        set(world, &OROGENY, &new, |_| orogeny::NONE)?;
        set(world, &RIDGE, &new, |i| found.ridges[i])?;
        made += new.len();
        let mesh = world.mesh();
        let mut around: Vec<quadedge::Face> = new
            .iter()
            .chain(&found.skipped)
            .filter(|v| mesh.is_vertex_alive(**v))
            .flat_map(|&v| mesh.vertex_faces(v))
            .collect();
        around.sort_unstable();
        around.dedup();
        focus = Some(around);
    }
    Ok(made)
}

/// What one round of [`gaps`] found.
struct Gaps {
    /// Where new crust goes (with the face it lies in), and the plate of each.
    points: Vec<(DVec3, quadedge::Face)>,
    owners: Vec<u32>,
    /// The age of each (Myr): see [`super::ridge`].
    ages: Vec<f32>,
    /// The plate across the ridge that made each.
    ridges: Vec<u32>,
    /// Corners of wide faces left for the next round (a neighbour was filled first).
    skipped: Vec<Vertex>,
}

/// The centres of the wide triangles across plate boundaries, at most one per vertex's
/// star per round (so two new points never crowd), and the plate each joins.
fn gaps(
    world: &World,
    plates: &[Plate],
    params: &Params,
    focus: Option<&[quadedge::Face]>,
    used: &mut Vec<bool>,
) -> Result<Gaps, TectonicsError> {
    let layer = |name: &str| TectonicsError::World(format!("no `{name}` layer"));
    let plate = world
        .layer(&PLATE)
        .ok_or_else(|| layer("plate"))?
        .as_slice();
    let crust = world
        .layer(&CRUST)
        .ok_or_else(|| layer("crust"))?
        .as_slice();
    let age = world
        .layer(&AGE)
        .ok_or_else(|| layer("crust_age"))?
        .as_slice();
    let ridge_of = world
        .layer(&RIDGE)
        .ok_or_else(|| layer("ridge_partner"))?
        .as_slice();
    let mesh = world.mesh();
    let pos = world_ops::positions(world);
    // The first round: the faces across the band (a face whose corners are all on one
    // plate is no gap).
    let mixed: Vec<quadedge::Face>;
    let faces = match focus {
        Some(f) => f,
        None => {
            mixed = band::sides(mesh, &band::boundary_edges(mesh, plate));
            &mixed
        }
    };
    let wide = wide_gaps(mesh, pos, plate, plates, params, faces);
    // Marks, kept between rounds (no allocation per round).
    used.clear();
    used.resize(mesh.vertex_slots(), false);
    let (mut points, mut owners, mut ages, mut ridges, mut skipped) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (f, centre) in wide {
        let corners = mesh.face_vertices(f);
        if corners.iter().any(|v| used[v.index()]) {
            skipped.extend(corners);
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
            used[v.index()] = true;
            for u in mesh.neighbors(v) {
                used[u.index()] = true;
            }
        }
        let corner = |v: Vertex| ridge::Corner {
            point: pos[v.index()],
            plate: plate[v.index()],
            crust: crust[v.index()],
            age: age[v.index()],
            ridge: ridge_of[v.index()],
        };
        let floor = ridge::new_floor(point, &corners.map(corner), plates, corner(nearest));
        points.push((point, f));
        owners.push(floor.plate);
        ages.push(floor.age);
        ridges.push(floor.ridge);
    }
    Ok(Gaps {
        points,
        owners,
        ages,
        ridges,
        skipped,
    })
}

/// The faces among `faces` that are gaps where the plates open, with their centres (km).
fn wide_gaps(
    mesh: &quadedge::Mesh,
    pos: &[DVec3],
    plate: &[u32],
    plates: &[Plate],
    params: &Params,
    faces: &[quadedge::Face],
) -> Vec<(quadedge::Face, DVec3)> {
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
            let (pa, pb, pc) = (plate[a.index()], plate[b.index()], plate[c.index()]);
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
            // Only where the plates move apart (not along transforms or fronts): some edge
            // of the triangle joining two plates opens.
            let opens = [(a, b), (b, c), (c, a)].iter().any(|&(u, v)| {
                let (pu, pv) = (plate[u.index()] as usize, plate[v.index()] as usize);
                if pu == pv || pu >= plates.len() || pv >= plates.len() {
                    return false;
                }
                let (xu, xv) = (pos[u.index()], pos[v.index()]);
                (plates[pv].velocity(xv) - plates[pu].velocity(xu)).dot(xv - xu) > 0.0
            });
            opens.then_some((f, centre))
        })
        .collect()
}
