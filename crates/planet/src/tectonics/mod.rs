//! Plate tectonics in physical units on a world: plates that move as rigid caps, oceanic crust
//! consumed at subduction fronts and made at ridges, continents that collide and shorten (small
//! terranes suture onto the plate they meet) into thickened ranges, continental crust that
//! grows back from the worn ranges and from arcs at continental margins (a budget in km³:
//! [`Budget`]), large plates that rift, relief raised by distance to the fronts and worn down
//! by erosion.
//!
//! Everything is in km, km/Myr, Myr and metres, never in edges or vertex counts, and every
//! random choice is a function of the seed and of places on the sphere (plate seeds drawn as
//! points, noise evaluated at unit directions), so the same seed makes the same planet at
//! 20,000 or 1,000,000 vertices; the vertex count only sets how finely it is sampled.
//!
//! State per vertex, in world layers: [`PLATE`], [`CRUST`], [`AGE`] (Myr), [`ELEVATION`] (m),
//! [`OROGENY`], [`RIDGE`]; per plate, in [`Tectonics::plates`]: Euler pole, angular speed,
//! area. One [`Tectonics::step`]: motion (the world's move with its exact Delaunay restore),
//! subduction (removal of the overridden ocean) and collision (shortening or suturing), new
//! crust in the gaps (insertion), relief (uplift by distance to the fronts, trenches, erosion,
//! ocean depth from age) and the continental budget's accretion, plate clean-up, rifting
//! and resampling on their own clocks. The mesh edits go through [`world_ops`], an adapter
//! shaped like the world's own operations.

mod accretion;
mod band;
mod boundary;
mod distance;
mod front_field;
mod init;
mod layer_io;
mod motion;
mod new_crust;
pub mod noise;
mod params;
mod plates;
mod relief;
mod report;
mod ridge;
mod stats;
mod suture;
pub mod world_ops;

pub use accretion::{
    ACCRETE_EVERY_MYR, ARC_KM3_PER_KM_MYR, Budget, CRUST_KM, FREEBOARD, MARGIN_AGE_MYR,
    MARGIN_WIDTH_KM, NEW_LAND_M, WEAR_MYR, continental_fraction,
};
pub use boundary::RANGE_MAX_M;
pub use params::{MAX_PLATES, MAX_VERTICES, MIN_VERTICES, Params, spacing_km};
pub use plates::{TERRANE_MIN_KM2, lonely_fraction, loose_pieces, pieces_per_plate};
pub use relief::ocean_depth;
pub use report::{StageTimes, StepReport};
pub use stats::{Summary, binned_elevation, correlation, plate_areas, summarize};
pub use suture::{SUTURE_MAX_KM2, SUTURE_STRAIT_KM};

use glam::DVec3;
use layer_io::{read, set, slice, write};
use layers::{Interpolation, LayerInfo, VertexKind};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::fmt;
use std::time::Instant;
use world::World;

/// Vertex positions on the sphere (km): the world's own position layer.
pub use world::SPHERE_POSITION as POSITION;
/// Plate id per vertex; a new vertex joins the plate of the heaviest corner.
pub const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
/// Crust type per vertex: [`OCEANIC`] or [`CONTINENTAL`].
pub const CRUST: LayerInfo<u8, VertexKind> =
    LayerInfo::new("crust").interpolation(Interpolation::MaxWeight);
/// Crust age (Myr): 0 at a ridge, growing as the crust drifts away.
pub const AGE: LayerInfo<f32, VertexKind> =
    LayerInfo::new("crust_age").interpolation(Interpolation::Lerp);
/// Elevation above sea level (m). A new vertex takes its heaviest corner's value, like
/// the crust type: blending would sink every coast by half a cell at each resampling (a
/// continental vertex with an ocean's depth), so land would shrink faster on coarse meshes.
pub const ELEVATION: LayerInfo<f32, VertexKind> =
    LayerInfo::new("elevation").interpolation(Interpolation::MaxWeight);
/// The last mountain building that raised a vertex: [`orogeny`] kinds.
pub const OROGENY: LayerInfo<u8, VertexKind> =
    LayerInfo::new("orogeny").interpolation(Interpolation::MaxWeight);

/// Oceanic crust: thin, dense, made at ridges, consumed at subduction fronts.
pub const OCEANIC: u8 = 0;
/// Continental crust: buoyant, never subducted.
pub const CONTINENTAL: u8 = 1;

/// The plate across the ridge that made a vertex's ocean floor ([`NO_PLATE`] for continental
/// crust and floor of unknown origin): the two flanks of a ridge name each other, as
/// magnetic stripes pair across their spreading axis, so floor can be dated from the ridge it
/// was born at even where another boundary has since opened nearer.
pub const RIDGE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("ridge_partner").interpolation(Interpolation::MaxWeight);

/// The kinds of [`OROGENY`].
pub mod orogeny {
    /// No mountain building.
    pub const NONE: u8 = 0;
    /// A cordillera on a continent over a subducting ocean (Andes).
    pub const ANDEAN: u8 = 1;
    /// A volcanic island arc on an ocean over an older ocean (Aleutians).
    pub const ARC: u8 = 2;
    /// A collision range between two continents (Himalaya).
    pub const HIMALAYAN: u8 = 3;
}

/// Marks a vertex on no plate.
pub const NO_PLATE: u32 = u32::MAX;

/// Why a simulation refused or stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum TectonicsError {
    /// A setting out of range (nothing was done).
    Params(String),
    /// The world lacks what the simulation needs or a mesh operation failed.
    World(String),
}

impl fmt::Display for TectonicsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TectonicsError::Params(s) => write!(f, "tectonics settings: {s}"),
            TectonicsError::World(s) => write!(f, "tectonics: {s}"),
        }
    }
}

impl std::error::Error for TectonicsError {}

impl From<world_ops::OpsError> for TectonicsError {
    fn from(e: world_ops::OpsError) -> Self {
        TectonicsError::World(e.0)
    }
}

fn world_err<E: fmt::Display>(what: &str) -> impl Fn(E) -> TectonicsError + '_ {
    move |e| TectonicsError::World(format!("{what}: {e}"))
}

/// One plate: how it turns and how much of the surface it holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plate {
    /// Unit Euler pole (the plate turns counter-clockwise about it).
    pub pole: DVec3,
    /// Angular speed (radians per Myr).
    pub omega: f64,
    /// Area (km²) when last measured ([`Tectonics::measure_areas`]).
    pub area_km2: f64,
    /// The plate it rifted from, if any.
    pub parent: Option<u32>,
}

impl Plate {
    /// Speed of the plate's fastest point, on its pole's equator (cm/yr).
    pub fn speed_cm_per_yr(&self, radius_km: f64) -> f64 {
        // 1 km/Myr = 0.1 cm/yr.
        self.omega * radius_km * 0.1
    }

    /// Velocity (km/Myr) at the point `p` (km) of the plate.
    pub fn velocity(&self, p: DVec3) -> DVec3 {
        (self.pole * self.omega).cross(p)
    }
}

/// A running simulation: the per-plate state and the counters; the per-vertex state lives
/// in the world's layers.
#[derive(Clone, Debug)]
pub struct Tectonics {
    /// The settings.
    pub params: Params,
    /// Every plate ever made, by id (a plate consumed or absorbed keeps its entry with no area).
    pub plates: Vec<Plate>,
    /// Simulated time (Myr).
    pub time_myr: f64,
    /// Steps done.
    pub steps: usize,
    /// Totals over the steps.
    pub subducted: usize,
    /// See `subducted`.
    pub created: usize,
    /// Seconds per stage over all steps.
    pub times: StageTimes,
    /// The continental budget: crust shortened, stored as thickening and arcs, accreted.
    pub budget: Budget,
    rng: Pcg64,
    /// Which plate dives where two oceanic plates converge (kept once decided).
    polarity: boundary::Polarity,
    /// Which pairs of plates are shortening in a continental collision (kept once decided),
    /// and the suture fills' scratch.
    sutures: suture::Sutures,
    /// Buffers kept from one step to the next (a clone starts with empty ones).
    scratch: Scratch,
    /// The relief's fronts between sweeps (a clone keeps them, to go on as the original).
    front_field: front_field::Field,
}

/// The stages' working arrays, kept between steps so that a step allocates nothing of the
/// mesh's size.
#[derive(Clone, Debug, Default)]
struct Scratch {
    sweep: distance::Sweep,
    /// The edges joining two plates, from the front stage to the relief.
    band: Vec<quadedge::Edge>,
    /// The vertices with a neighbour on another plate after the motion, when the motion
    /// hands them back (the front stage takes them; empty: it scans the edges).
    moved: Vec<quadedge::Vertex>,
    crust: new_crust::Buffers,
    /// The fresh sphere every resample lands on, turned.
    sphere: world_ops::KeptSphere,
}

impl Tectonics {
    /// Lays the initial state onto `world` (which needs its [`POSITION`] layer, on a sphere
    /// of `params.radius_km`): plates grown by great-circle distance from seed points,
    /// continents from noise, ocean ages and depths, motions drawn from the seed.
    ///
    /// # Errors
    /// [`TectonicsError::Params`] for settings out of range, [`TectonicsError::World`] for a
    /// world without positions or with a vertex off the sphere of `params.radius_km` (both
    /// before anything is written), or when the world refuses a layer.
    pub fn new(world: &mut World, params: Params) -> Result<Self, TectonicsError> {
        params.validate()?;
        if world.layer(&POSITION).is_none() {
            return Err(TectonicsError::World("no position layer".into()));
        }
        let pos = world_ops::positions(world);
        let r = params.radius_km;
        if let Some(v) = world.mesh().vertices().find(|v| {
            pos.get(v.index())
                .is_none_or(|p| !p.is_finite() || (p.length() / r - 1.0).abs() > 1e-6)
        }) {
            return Err(TectonicsError::World(format!(
                "vertex {v:?} is not on the sphere of radius {r} km"
            )));
        }
        let mut rng = Pcg64::seed_from_u64(noise::derive(params.seed, 0x7ec7));
        let plates = init::motions(&params, &mut rng);
        init::lay_out(world, &params, &plates)?;
        let mut t = Tectonics {
            params,
            plates,
            time_myr: 0.0,
            steps: 0,
            subducted: 0,
            created: 0,
            times: StageTimes::default(),
            budget: Budget::default(),
            rng,
            polarity: Default::default(),
            sutures: Default::default(),
            scratch: Scratch::default(),
            front_field: front_field::Field::default(),
        };
        plates::clean_up(world, &t.params)?;
        t.sutures.collisions = init::collisions_at_start(world, &t.plates)?;
        t.measure_areas(world);
        Ok(t)
    }

    /// One step of `params.time_step_myr`.
    ///
    /// # Errors
    /// [`TectonicsError::Params`] on a world of fewer than [`MIN_VERTICES`] (nothing done);
    /// [`TectonicsError::World`] when a mesh operation fails (the world is valid but the step
    /// is partly done).
    pub fn step(&mut self, world: &mut World) -> Result<StepReport, TectonicsError> {
        self.step_traced(world, |_, _| {})
    }

    /// [`Tectonics::step`], calling `trace` with each stage's name and the world after it
    /// (for measuring what each stage does to the plates).
    ///
    /// # Errors
    /// As [`Tectonics::step`].
    #[doc(hidden)]
    pub fn step_traced(
        &mut self,
        world: &mut World,
        mut trace: impl FnMut(&'static str, &World),
    ) -> Result<StepReport, TectonicsError> {
        if world.mesh().vertex_count() < MIN_VERTICES {
            return Err(TectonicsError::Params(format!(
                "the world has {} vertices: plates move on {MIN_VERTICES} or more",
                world.mesh().vertex_count()
            )));
        }
        let clock = Instant::now();
        let dt = self.params.time_step_myr;
        let mut r = StepReport::default();
        let mut lap = Instant::now();
        let mut split = || {
            let s = lap.elapsed().as_secs_f64();
            lap = Instant::now();
            s
        };
        let mut moved = std::mem::take(&mut self.scratch.moved);
        let motion = self.motion(world, &mut moved);
        self.scratch.moved = moved;
        r.restore = motion?;
        r.times.motion = split();
        trace("motion", world);
        // The creation's first round is chosen beside the collision ranges' sweep.
        let (plates, params, crust) = (&self.plates, &self.params, &mut self.scratch.crust);
        let (b, first) = boundary::subduct_and_collide(
            world,
            plates,
            params,
            &mut self.scratch.sweep,
            &mut self.polarity,
            (&mut self.scratch.moved, &mut self.scratch.band),
            &mut self.sutures,
            |w, band| new_crust::first_round(w, plates, params, crust, band),
        )?;
        let first = first?;
        r.subducted = b.subducted;
        r.shortened = b.shortened;
        self.budget.shorten(b.shortened_km2);
        r.sutured = b.sutured;
        r.times.subduction = split();
        trace("subduction", world);
        // The creation's edit is mostly serial: the last sweep is cleared beside it.
        let (created, ()) = rayon::join(
            || {
                new_crust::new_crust(
                    world,
                    &self.plates,
                    &self.params,
                    &mut self.scratch.crust,
                    &mut self.scratch.band,
                    Some(first),
                )
            },
            || self.scratch.sweep.forget(),
        );
        r.created = created?;
        r.times.creation = split();
        trace("creation", world);
        let (s, p, t) = (&mut self.scratch, &self.params, self.time_myr);
        let sweeps = (&mut s.sweep, &mut self.front_field);
        let fronts = relief::step(world, &self.plates, p, sweeps, t, &s.band)?;
        r.converging = fronts.converging;
        r.separating = fronts.separating;
        // The budget's accretion is timed with the relief.
        let accreted = accretion::accrete(
            world,
            &mut self.budget,
            &self.params,
            r.converging,
            &mut self.scratch.sweep,
        )?;
        r.accreted = accreted.len();
        r.times.relief = split();
        // Stray cells are rare (the fronts are decided before the motion): a sweep every few
        // steps, after rifting and resampling, and on demand ([`Tectonics::clean_up`]).
        if self.steps % CLEAN_EVERY == CLEAN_EVERY - 1 {
            r.reassigned = plates::clean_up_from_band(world, &self.params, &mut self.scratch.band)?;
        }
        r.times.cleanup = split();
        trace("cleanup", world);
        self.time_myr += dt;
        self.steps += 1;
        if crossed(self.time_myr, dt, self.params.rift_every_myr) {
            r.rifted = plates::rift(world, self)?;
            self.front_field.invalidate();
        }
        r.times.rift = split();
        trace("rift", world);
        if crossed(self.time_myr, dt, self.params.resample_every_myr) {
            // One fresh sphere for the whole run, each resample on it turned anew.
            let p = &self.params;
            let (seed, turn) = (
                noise::derive(p.seed, KEPT_SPHERE),
                noise::derive(p.seed, self.steps as u64),
            );
            (self.scratch.sphere).resample(world, p.vertices, 0.3, seed, turn)?;
            // Blending the plate ids can leave stray cells along boundaries.
            r.reassigned += plates::clean_up(world, &self.params)?;
            r.resampled = true;
            self.front_field.invalidate();
        }
        r.times.resample = split();
        trace("resample", world);
        self.subducted += r.subducted;
        self.created += r.created;
        r.vertices = world.mesh().vertex_count();
        r.seconds = clock.elapsed().as_secs_f64();
        self.times.add(&r.times);
        Ok(r)
    }

    /// Makes every plate one connected region now, or a main piece with its terranes (the
    /// steps do it every few steps): a piece under [`TERRANE_MIN_KM2`] joins the plate it
    /// borders most. Returns the vertices that changed plate.
    ///
    /// # Errors
    /// [`TectonicsError::World`] when the world lacks the plate layer.
    pub fn clean_up(&mut self, world: &mut World) -> Result<usize, TectonicsError> {
        plates::clean_up(world, &self.params)
    }

    /// Every plate's area (km², from the Voronoi cells), into [`Plate::area_km2`].
    pub fn measure_areas(&mut self, world: &World) {
        let areas = stats::plate_areas(world, self.plates.len());
        for (p, a) in self.plates.iter_mut().zip(areas) {
            p.area_km2 = a;
        }
    }
}

/// The salt of the kept fresh sphere's seed (the turns use the step count).
const KEPT_SPHERE: u64 = 0x5e5a_3b1e;

/// Steps between two clean-up sweeps.
const CLEAN_EVERY: usize = 4;

/// Whether a period of `every` Myr ended within the step that reached `t`.
fn crossed(t: f64, dt: f64, every: f64) -> bool {
    every > 0.0 && ((t + 1e-9) / every).floor() > ((t - dt + 1e-9) / every).floor()
}
