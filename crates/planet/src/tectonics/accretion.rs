//! The continental budget: continental crust is neither made nor destroyed by plate motion
//! alone, only moved, thickened and worn down, and added where oceans are consumed.
//!
//! Two terms, in km³ of crust, held in one store ([`Budget::stored_km3`]):
//! - **Thickening**: the continental crust a collision shortens ([`super::boundary`]) is not
//!   lost. Its volume (area × [`CRUST_KM`]) thickens the other plate's margin, which rises by
//!   Airy isostasy ([`FREEBOARD`] m of surface per m of extra crust: the collision range),
//!   and goes into the store as excess thickness.
//! - **Arcs**: every converging front adds arc crust ([`ARC_KM3_PER_KM_MYR`] per km of front),
//!   as magmatism over subducting slabs does on Earth.
//!
//! The store wears down with [`WEAR_MYR`] (the continents' erosion time constant): thickened
//! ranges collapse and erode, arcs are carried to the margins and weather, and the debris,
//! deposited against the continents and accreted at their margins, becomes new continental
//! crust of normal thickness ([`accrete`]): volume / [`CRUST_KM`] of ocean floor next to a
//! continent turns continental. Island arcs far from a continent do not turn continental on
//! their own: which arc cells stood high enough differed between meshes (5° blocks of 100k
//! and 1M vertices correlated at 0.934 with them, 0.973 without; docs/benchmark-notes.md).
//! So shortened crust comes back as area over tens of Myr instead of eroding the continents
//! away, and arcs grow them at Earth's rate. Every quantity is in km, km², km³ or Myr: the
//! same budget at every resolution (only which cells carry it differs).

mod margin;

use super::distance::Sweep;
use super::{
    AGE, CONTINENTAL, CRUST, ELEVATION, NO_PLATE, OCEANIC, PLATE, Params, RIDGE, TectonicsError,
    set, slice, world_ops,
};
use glam::DVec3;
use quadedge::{Mesh, Vertex};
use rayon::prelude::*;
use world::World;

/// Thickness of normal continental crust (km): the global mean, 35–40 km.
pub const CRUST_KM: f64 = 35.0;
/// Surface rise per unit of extra crustal thickness under Airy isostasy:
/// `(ρ_mantle − ρ_crust) / ρ_mantle` with 3,300 and 2,800 kg/m³ (Tibet: ~70 km of crust,
/// twice the normal, stands about 5 km high).
pub const FREEBOARD: f64 = (3300.0 - 2800.0) / 3300.0;
/// Arc crust added per km of converging front and Myr (km³): estimates of Earth's arc
/// magmatic addition run 30–90 km³/km/Myr (Reymer and Schubert 1984; Clift et al. 2009).
/// Tuned in that band so that continents hold their area over 200 Myr at the defaults
/// (docs/benchmark-notes.md, "Continental budget IV").
pub const ARC_KM3_PER_KM_MYR: f64 = 30.0;
/// Time constant (Myr) with which the store wears down into new continental margin: the
/// continents' erosion time constant (the relief stage's), so the range a collision raises
/// and the area it gives back fade together.
pub const WEAR_MYR: f64 = 35.0;
/// Mean elevation (m) of newly accreted crust: a low coastal plain of sediment and arc rock.
pub const NEW_LAND_M: f32 = 150.0;
/// The accreted plain's relief: `NEW_LAND_M` times `1 ± NEW_LAND_SPREAD` by noise on the sphere
/// with features [`NEW_LAND_SCALE_KM`] wide (a flat 150 m everywhere read as terraces in the
/// maps and stacked the elevation percentiles on one value). Noise evaluated at the unit
/// direction: the same plain at every resolution.
const NEW_LAND_SPREAD: f32 = 0.6;
/// See [`NEW_LAND_SPREAD`] (km).
const NEW_LAND_SCALE_KM: f64 = 400.0;
/// Salt of the accreted plain's noise seed.
const NEW_LAND_SALT: u64 = 0xacc2_e7e0;
/// Youngest ocean floor (Myr) that a continent's debris turns continental: a young rifted
/// margin is still hot and subsiding, a mature margin carries a thick sediment wedge.
pub const MARGIN_AGE_MYR: f32 = 20.0;
/// Crossings of mesh edges per km of a line on a triangular lattice of spacing `e` km: the
/// edges' length per km² (`2√3 / e`) times `2/π` (Buffon). Turns a count of converging
/// boundary edges into km of front, the same at every resolution.
const CROSSINGS_PER_SPACING: f64 = 4.0 * 1.732_050_807_568_877_2 / std::f64::consts::PI;
/// Period (Myr) of the accretion: the arcs add crust at every step, the store wears and
/// accretes every this many Myr (the scan for margins is then a tenth of a step's cost per
/// step; the store's time constant is 3.5 times longer).
pub const ACCRETE_EVERY_MYR: f64 = 10.0;
/// Width (km) of the margin that accretes at once: ocean floor within this distance of a
/// shore, ranked as that shore, so a stretch of coast grows by a band this wide whatever the
/// cell size (a ring of cells next to the coast would be a cell wide: 20 km at 1M vertices,
/// 160 km at 20k, and spread the same area along eight times as much coast). About the width
/// of a continental shelf and its sediment wedge (~80 km mean, a few hundred km at most).
pub const MARGIN_WIDTH_KM: f64 = 150.0;

/// The continental budget of a run (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Budget {
    /// Continental crust (km³) held as excess thickness and arc crust, not yet accreted.
    pub stored_km3: f64,
    /// Continental area (km²) shortened by collisions so far.
    pub shortened_km2: f64,
    /// Arc crust (km³) added so far.
    pub arcs_km3: f64,
    /// Continental area (km²) accreted so far.
    pub accreted_km2: f64,
    /// Time (Myr) since the store last wore down.
    since_myr: f64,
}

impl Budget {
    /// Takes up the crust of `km2` shortened: its volume thickens the margin it ran into.
    pub(super) fn shorten(&mut self, km2: f64) {
        self.shortened_km2 += km2;
        self.stored_km3 += km2 * CRUST_KM;
    }
}

/// Front length (km) of `edges` converging boundary edges on a mesh of spacing `spacing_km`.
pub(super) fn front_km(edges: usize, spacing_km: f64) -> f64 {
    edges as f64 * spacing_km / CROSSINGS_PER_SPACING
}

/// One step of the budget: arcs along `converging` boundary edges add crust; every
/// [`ACCRETE_EVERY_MYR`], the store wears by the time since it last did and the worn volume
/// turns ocean floor continental: the floor within [`MARGIN_WIDTH_KM`] of a shore of its
/// plate older than [`MARGIN_AGE_MYR`], nearest to the shore first. Returns the vertices
/// made continental.
///
/// # Errors
/// When the world lacks a layer.
pub(super) fn accrete(
    world: &mut World,
    budget: &mut Budget,
    params: &Params,
    converging: usize,
    sweep: &mut Sweep,
) -> Result<Vec<Vertex>, TectonicsError> {
    let dt = params.time_step_myr;
    let arcs = ARC_KM3_PER_KM_MYR * front_km(converging, params.spacing_km) * dt;
    budget.arcs_km3 += arcs;
    budget.stored_km3 += arcs;
    budget.since_myr += dt;
    if budget.since_myr + 1e-9 < ACCRETE_EVERY_MYR {
        return Ok(Vec::new());
    }
    let worn = 1.0 - (-budget.since_myr / WEAR_MYR).exp();
    budget.since_myr = 0.0;
    let target_km2 = budget.stored_km3 * worn / CRUST_KM;
    let chosen = {
        let mesh = world.mesh();
        let pos = world_ops::positions(world);
        let (plate, crust) = (slice(world, &PLATE)?, slice(world, &CRUST)?);
        let age = slice(world, &AGE)?;
        let shores = margin::shores(mesh, pos, plate, crust, age);
        // The margins: the ocean floor within [`MARGIN_WIDTH_KM`] of a shore, across its
        // plate, nearest first: every mature margin advances alike, by a width the area
        // sets, on every mesh.
        let r = params.radius_km;
        let sources = margin::sources(&shores, r);
        // The nearest floor first: a cell's width of it holds the area wanted but after a
        // big collision, and the sweep costs the area it covers. The whole width when the
        // near floor runs out.
        let near_km = params.spacing_km.min(MARGIN_WIDTH_KM);
        let mut picked = None;
        for width in [near_km, MARGIN_WIDTH_KM] {
            sweep
                .unordered()
                .run(mesh, pos, r, &sources, width, Some(plate));
            let found = margin::nearest_first(sweep, crust);
            picked = margin::pick(mesh, pos, &found, target_km2, width == MARGIN_WIDTH_KM);
            if picked.is_some() {
                break;
            }
        }
        let (mut chosen, placed) = picked.unwrap_or_default();
        budget.stored_km3 -= placed * CRUST_KM;
        budget.accreted_km2 += placed;
        chosen.sort_unstable();
        chosen
    };
    if chosen.is_empty() {
        return Ok(chosen);
    }
    let risen: Vec<f32> = {
        let (h, pos) = (slice(world, &ELEVATION)?, world_ops::positions(world));
        let seed = super::noise::derive(params.seed, NEW_LAND_SALT);
        chosen
            .par_iter()
            .map(|v| {
                let dir = pos[v.index()].normalize();
                let n = super::noise::fbm(seed, dir, params.radius_km, NEW_LAND_SCALE_KM, 4, 0.5);
                h[v.index()].max(NEW_LAND_M * (1.0 + NEW_LAND_SPREAD * n as f32))
            })
            .collect()
    };
    set(world, &CRUST, &chosen, |_| CONTINENTAL)?;
    set(world, &ELEVATION, &chosen, |k| risen[k])?;
    set(world, &RIDGE, &chosen, |_| NO_PLATE)?;
    Ok(chosen)
}

/// A vertex's cell (km²): a third of each flat triangle round it. Within 0.1% of the
/// spherical cell on meshes of 10,000 vertices and more (triangles a few degrees wide), at a
/// fraction of its cost (no angles).
///
/// Each triangle's corners are read from the ring of `v` (the triangle left of an outgoing
/// edge is `v`, its end, and the next edge's end) rather than from the face's own edges, and
/// rotated to start at the face's first corner ([`Mesh::face_vertices`]): the same products
/// in the same order, so the same area to the bit, from fewer scattered reads.
pub(super) fn flat_cell(mesh: &Mesh, pos: &[glam::DVec3], v: Vertex) -> f64 {
    let mut sum = 0.0;
    let mut ring = mesh.outgoing(v).peekable();
    let Some(&first) = ring.peek() else {
        return sum;
    };
    while let Some(e) = ring.next() {
        let f = mesh.left(e);
        if !f.is_valid() {
            continue;
        }
        let next = ring.peek().copied().unwrap_or(first);
        let (b, c) = (mesh.dest(e), mesh.dest(next));
        let start = mesh.face_edge(f);
        let [a, b, c] = if start == e {
            [v, b, c]
        } else if mesh.origin(start) == b {
            [b, c, v]
        } else {
            [c, v, b]
        }
        .map(|u| pos[u.index()]);
        sum += (b - a).cross(c - a).length() / 6.0;
    }
    sum
}

/// Fraction of the surface under continental crust, by the vertices' cells.
pub fn continental_fraction(world: &World) -> f64 {
    let (mesh, pos) = (world.mesh(), world_ops::positions(world));
    let Some(crust) = world.layer(&CRUST) else {
        return 0.0;
    };
    let (land, all) = mesh
        .vertices()
        .map(|v| {
            let a = flat_cell(mesh, pos, v);
            (if crust[v] == CONTINENTAL { a } else { 0.0 }, a)
        })
        .fold((0.0, 0.0), |(l, t), (a, b)| (l + a, t + b));
    if all > 0.0 { land / all } else { 0.0 }
}

/// A shore: its ocean vertex and the midpoint of its edge (km).
type Shore = (Vertex, DVec3);

#[cfg(test)]
mod tests {
    use super::super::{boundary, suture, write};
    use super::*;
    use crate::tectonics::Tectonics;
    use sphere::geometry::voronoi_areas;

    /// Two continents in contact on a 20,000-vertex sphere: plate 1, a continental cap of
    /// 1,500 km radius, runs at 10 cm/yr into plate 0's continent of 2,500 km radius (600 km
    /// nearer: a front of ~2,000 km), flat at sea level. One front stage: the crust it shortens, measured by the Voronoi cells
    /// before, reappears as the range's rise times the cells after, by Airy isostasy.
    #[test]
    fn shortened_crust_reappears_as_thickening() {
        let n = 20_000;
        let mut params = Params::earth(n, 5);
        params.rift_every_myr = 0.0;
        params.resample_every_myr = 0.0;
        let r = params.radius_km;
        let mut world = world_ops::fibonacci_world(n, r, 0.3, 5).unwrap();
        let mut t = Tectonics::new(&mut world, params).unwrap();
        let (p, gap) = (DVec3::X, 3400.0 / r);
        let q = DVec3::new(gap.cos(), gap.sin(), 0.0);
        let km = |a: DVec3, b: DVec3| a.angle_between(b) * r;
        let pos = world_ops::positions(&world).to_vec();
        let plate: Vec<u32> = pos.iter().map(|&x| u32::from(km(x, p) < 1500.0)).collect();
        let crust: Vec<u8> = pos
            .iter()
            .map(|&x| {
                if km(x, p) < 1500.0 || km(x, q) < 2500.0 {
                    CONTINENTAL
                } else {
                    OCEANIC
                }
            })
            .collect();
        write(&mut world, &PLATE, &plate).unwrap();
        write(&mut world, &CRUST, &crust).unwrap();
        write(&mut world, &ELEVATION, &vec![0.0; pos.len()]).unwrap();
        for pl in &mut t.plates {
            pl.omega = 0.0;
        }
        t.plates[1].pole = p.cross(q).normalize();
        t.plates[1].omega = 100.0 / r;
        let cells =
            |w: &World| voronoi_areas(w.mesh(), world_ops::positions(w), &Default::default());
        let before = cells(&world);
        let c = world.layer(&CRUST).unwrap().to_vec();
        let fronts = boundary::subduct_and_collide(
            &mut world,
            &t.plates,
            &t.params,
            &mut Sweep::default(),
            &mut Default::default(),
            (&mut Vec::new(), &mut Vec::new()),
            &mut suture::Sutures::default(),
            |_, _| (),
        )
        .unwrap()
        .0;
        assert!(fronts.shortened > 10, "{} shortened", fronts.shortened);
        let mesh = world.mesh();
        let gone: f64 = (0..pos.len())
            .filter(|&i| c[i] == CONTINENTAL && !mesh.is_vertex_alive(Vertex::new(i as u32)))
            .map(|i| before[i])
            .sum();
        // A third of each triangle against the Voronoi cell: a few percent apart on the ~15
        // cells of a row, alike over the hundreds of a range.
        assert!(
            (fronts.shortened_km2 / gone - 1.0).abs() < 0.06,
            "{} km² reported, {gone} km² gone",
            fronts.shortened_km2
        );
        let after = cells(&world);
        let h = world.layer(&ELEVATION).unwrap();
        let risen: f64 = mesh
            .vertices()
            .map(|v| f64::from(h[v]) / 1000.0 * after[v.index()])
            .sum();
        let highest = mesh.vertices().map(|v| h[v]).fold(0.0, f32::max);
        assert!(
            highest > 100.0 && highest < boundary::RANGE_MAX_M,
            "{highest} m"
        );
        let thickened = fronts.shortened_km2 * CRUST_KM;
        assert!(
            (risen / (thickened * FREEBOARD) - 1.0).abs() < 0.03,
            "{risen} km³ of relief from {thickened} km³ of crust"
        );
    }
}
