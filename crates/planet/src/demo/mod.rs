//! The whole demo: a small tectonic planet. Generate, attach data, edit, move the plates and
//! build relief, write pictures and files, reload.
//!
//! [`run`] calls one function per step, in order; each lives with its concept: `steps.rs`
//! (sphere, plates, plate distance, metadata, pictures, files), `edits.rs` (the edits that
//! exercise the layer policies, and what they touched), `motion.rs` (plates turning, the
//! mesh restored to Delaunay after each step), `tectonic.rs` (relief where plates meet,
//! refinement along boundaries, the resampling half-way) and `relief_files.rs` (the elevation
//! globe, heightmap and animation).

mod edits;
mod motion;
mod relief_files;
mod steps;
mod surface_files;
mod tectonic;
mod view_files;

pub use motion::MIN_MOVING_VERTICES;
pub use tectonic::{ELEVATION, boundary_distance, size_factor};

use glam::DVec3;
use layers::{EdgeKind, Interpolation, LayerInfo, OnChange, VertexKind};
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

/// Vertex positions on the sphere; splits keep them on it.
pub const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
/// Plate id per vertex; a vertex made by a split joins the plate of the heavier side.
pub const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);
/// Great-circle length of edges inside a plate, −1 across plate borders: an edge layer whose
/// values only make sense while both ends stay in one plate, so edits reset what they touch:
/// flips and removals (`ResetAffected`) and splits (`Reset`: the halves of a split edge are
/// shorter than the edge they came from).
pub const PLATE_DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance")
    .initial(-1.0)
    .interpolation(Interpolation::Reset)
    .on_change(OnChange::ResetAffected);

/// The steps [`run`] announces through its progress callback, in order.
pub const STEP_NAMES: [&str; 10] = [
    "fibonacci sphere",
    "plates",
    "plate distance",
    "edits",
    "close-up",
    "tectonics",
    "plate metadata",
    "render",
    "export",
    "save",
];
/// Number of steps [`run`] announces through its progress callback.
pub const STEPS: usize = STEP_NAMES.len();

/// What to build and where to write it.
#[derive(Clone, Debug)]
pub struct DemoConfig {
    /// Number of Fibonacci points.
    pub vertices: usize,
    /// Number of plates.
    pub plates: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Output folder (created if missing).
    pub out: PathBuf,
    /// Planet radius (km).
    pub radius: f64,
    /// Tangent jitter of the Fibonacci points ([`sphere::Perturbation::Tangent`]): each point
    /// moves in its tangent plane by up to this fraction of the mean spacing (0 = the regular
    /// lattice); natural-looking cells without the near-duplicates of the spiral offset.
    pub perturbation: f64,
    /// Width of `planet.png` (its height is half).
    pub image_width: u32,
    /// Plate motion steps (0 = the plates stay where they grew); each also builds relief and
    /// renders one animation frame.
    pub steps: usize,
    /// Change the mesh with the data: refine along plate boundaries and coarsen inside plates
    /// (after the first step and after the resampling), and resample the world onto a fresh
    /// sphere half-way. Without it vertex ids stay those of the first mesh.
    pub remesh: bool,
}

impl DemoConfig {
    /// Checks the settings before any work, so an impossible request fails at once with a
    /// message that names the setting (and `out` is not touched).
    ///
    /// # Errors
    /// A [`DemoError`] naming the first setting out of range.
    pub fn validate(&self) -> Result<(), DemoError> {
        let bad = |what: String| Err(DemoError(what));
        if self.vertices < 4 {
            return bad(format!(
                "--vertices {}: a closed planet needs at least 4 vertices",
                self.vertices
            ));
        }
        if self.vertices > MAX_VERTICES {
            return bad(format!(
                "--vertices {}: at most {MAX_VERTICES} are supported",
                self.vertices
            ));
        }
        if self.plates == 0 || self.plates > self.vertices {
            return bad(format!(
                "--plates {}: need between 1 and the number of vertices ({})",
                self.plates, self.vertices
            ));
        }
        if !(self.radius.is_finite() && self.radius > 0.0) {
            return bad(format!(
                "--radius {}: must be finite and positive",
                self.radius
            ));
        }
        if !(0.0..1.0).contains(&self.perturbation) {
            return bad(format!(
                "--perturbation {}: must lie in 0 ≤ P < 1",
                self.perturbation
            ));
        }
        if !(2..=MAX_IMAGE_WIDTH).contains(&self.image_width) {
            return bad(format!(
                "--width {}: must lie in 2..={MAX_IMAGE_WIDTH} (the height is half the width)",
                self.image_width
            ));
        }
        if self.steps > MAX_STEPS {
            return bad(format!(
                "--steps {}: at most {MAX_STEPS} plate motion steps are supported",
                self.steps
            ));
        }
        Ok(())
    }
}

/// Largest planet the demo builds (about 6 GB of world and pictures at this size).
pub const MAX_VERTICES: usize = 50_000_000;
/// Widest `planet.png` the demo renders.
pub const MAX_IMAGE_WIDTH: u32 = 16_384;
/// Most plate motion steps: far past where plates have crossed each other several times.
pub const MAX_STEPS: usize = 10_000;

impl Default for DemoConfig {
    fn default() -> Self {
        DemoConfig {
            vertices: 100_000,
            plates: 12,
            seed: 2026,
            out: PathBuf::from("out"),
            radius: 6371.0,
            perturbation: 0.3,
            image_width: 2048,
            steps: 10,
            remesh: true,
        }
    }
}

/// Why the demo stopped.
#[derive(Debug)]
pub struct DemoError(pub String);

impl fmt::Display for DemoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DemoError {}

/// Wraps a step's error with the step's name.
fn err(step: &str) -> impl Fn(&dyn fmt::Display) -> DemoError + '_ {
    move |e| DemoError(format!("{step}: {e}"))
}

/// What the demo did, for printing.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Vertices after the edits and compaction.
    pub vertices: usize,
    /// Faces after the edits.
    pub faces: usize,
    /// Plates grown.
    pub plates: usize,
    /// `(step, seconds)`.
    pub steps: Vec<(String, f64)>,
    /// Facts about the result, `(what, value)`.
    pub facts: Vec<(String, String)>,
    /// `(file, bytes)`.
    pub files: Vec<(String, u64)>,
    /// Heap bytes of the world per vertex.
    pub bytes_per_vertex: f64,
    /// What each plate motion step cost, in order.
    pub motion: Vec<MotionStep>,
}

/// One plate motion step: what restoring the Delaunay mesh took, the relief and remeshing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MotionStep {
    /// Flips, folds, relocations (re-insertions keeping the id) and merges.
    pub stats: delaunay::RestoreStats,
    /// Wall time of the step: rotating the positions, restoring the mesh, relief, remeshing
    /// and the animation frame.
    pub seconds: f64,
    /// Live vertices after the step.
    pub vertices: usize,
    /// Boundary vertices whose plates converge / separate there.
    pub converging: usize,
    /// See `converging`.
    pub separating: usize,
    /// What changed the mesh besides the motion: `""`, `"adapt"`, `"resample+adapt"`.
    pub remesh: &'static str,
}

impl Report {
    /// The report as text; `times = false` masks durations (for snapshots).
    pub fn render(&self, times: bool) -> String {
        let mut s = format!(
            "planet: {} vertices, {} faces, {} plates\n",
            self.vertices, self.faces, self.plates
        );
        for (k, v) in &self.facts {
            s += &format!("  {k:<28} {v}\n");
        }
        s += &format!(
            "  {:<28} {:.1}\n",
            "world bytes per vertex", self.bytes_per_vertex
        );
        s += "steps:\n";
        for (k, t) in &self.steps {
            let t = if times {
                format!("{:8.1} ms", t * 1e3)
            } else {
                "   [time]".into()
            };
            s += &format!("  {k:<28} {t}\n");
        }
        if !self.motion.is_empty() {
            s += "plate motion and relief:\n";
            s += "   step    flips    folds relocated reloc.flips merged vertices  conv   sep remesh          time\n";
        }
        for (i, m) in self.motion.iter().enumerate() {
            let r = &m.stats;
            let t = if times {
                format!("{:6.1} ms", m.seconds * 1e3)
            } else {
                "  [time]".into()
            };
            s += &format!(
                "  {:5} {:8} {:8} {:9} {:11} {:6} {:8} {:5} {:5} {:<14} {t}\n",
                i + 1,
                r.flips,
                r.folds,
                r.relocated,
                r.relocation_flips,
                r.merged,
                m.vertices,
                m.converging,
                m.separating,
                m.remesh
            );
        }
        s += "files:\n";
        for (f, b) in &self.files {
            s += &format!("  {f:<28} {b} bytes\n");
        }
        s
    }
}

/// Runs the demo; `progress` hears the name of each step (one of [`STEP_NAMES`]) as it starts.
///
/// # Errors
/// [`DemoError`] for settings that [`DemoConfig::validate`] refuses (before anything is
/// done), an output folder that cannot be written, or a check that fails along the way (the
/// edited mesh, positions off the sphere, a reloaded world that differs).
pub fn run(cfg: &DemoConfig, progress: &mut dyn FnMut(&str)) -> Result<Report, DemoError> {
    cfg.validate()?;
    std::fs::create_dir_all(&cfg.out)
        .map_err(|e| DemoError(format!("cannot create {}: {e}", cfg.out.display())))?;
    let mut report = Report {
        plates: cfg.plates,
        ..Report::default()
    };
    let mut timer = StepTimer::new(progress);

    timer.start(0);
    let mut world = steps::build_sphere(cfg)?;
    timer.done("fibonacci sphere + mesh", &mut report);

    timer.start(1);
    let seeds = steps::grow_plate_layer(&mut world, cfg.plates)?;
    timer.done("plates (flood fill)", &mut report);

    timer.start(2);
    steps::plate_distance(&mut world)?;
    timer.done("plate_distance (edge layer)", &mut report);

    timer.start(3);
    let edited = edits::edit_around(&mut world, &seeds, cfg.radius)?;
    edited.report(&mut report);
    timer.done("split, collapse, flip, compact", &mut report);

    timer.start(4);
    let closeup = steps::render_closeup(&world, cfg, &edited)?;
    timer.done("render close-up", &mut report);

    timer.start(5);
    let motions = motion::plate_motions(&mut world, cfg.plates);
    let seed_points = steps::seed_points(&world, &edited.seeds);
    let (frames, relief) = tectonics(&mut world, cfg, &motions, &mut report)?;
    motion::check_and_report(&world, cfg.plates, cfg.radius, &mut report)?;
    relief.report(&mut report);
    timer.done(
        &format!("tectonics ({} steps)", report.motion.len()),
        &mut report,
    );

    timer.start(6);
    let seeds = steps::moved_seeds(&world, &seed_points, &motions, report.motion.len());
    steps::plate_metadata(&mut world, &seeds, &motions, cfg.radius, &mut report)?;
    timer.done("plate metadata + areas", &mut report);

    timer.start(7);
    let planet = steps::render_planet(&world, cfg)?;
    let (relief_files, range) = relief_files::write(&world, cfg, &frames)?;
    report.facts.push((
        "elevation range (m)".into(),
        format!("{:.0} .. {:.0}", range.0, range.1),
    ));
    timer.done("render globes + heightmap", &mut report);
    surface_files::write(&mut world, cfg, &mut report)?;

    timer.start(8);
    let meshes = steps::export_meshes(&world, &cfg.out)?;
    view_files::write(&world, cfg)?;
    timer.done("export glb + ply", &mut report);

    timer.start(9);
    let file = steps::save_and_reload(&world, &cfg.out)?;
    timer.done("save + reload + compare", &mut report);

    report.vertices = world.mesh().vertex_count();
    report.faces = world.mesh().face_count();
    report.bytes_per_vertex = world.heap_bytes() as f64 / report.vertices as f64;
    let pictures = [planet, closeup];
    for p in pictures
        .iter()
        .chain(&relief_files)
        .chain(&meshes)
        .chain([&file])
    {
        let size = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let name = p.file_name().map(|s| s.to_string_lossy().into_owned());
        report.files.push((name.unwrap_or_default(), size));
    }
    Ok(report)
}

/// What remeshing did, for the report.
#[derive(Default)]
struct Relief {
    /// `(when, vertices before, vertices after)` per refinement.
    adapted: Vec<(String, usize, usize)>,
    /// Vertices of the fresh sphere the world was resampled onto.
    resampled: Option<usize>,
}

impl Relief {
    fn report(&self, report: &mut Report) {
        for (when, before, after) in &self.adapted {
            report.facts.push((
                format!("refinement {when}"),
                format!("{before} → {after} vertices"),
            ));
        }
        if let Some(n) = self.resampled {
            report.facts.push((
                "resampled onto fresh sphere".into(),
                format!("{n} vertices"),
            ));
        }
    }
}

/// The plates move `cfg.steps` times; after each move the relief grows where they meet and
/// one animation frame is rendered. With `cfg.remesh`, the mesh is refined along plate
/// boundaries after the first step, and half-way the world is resampled onto a fresh sphere
/// and refined again.
fn tectonics(
    world: &mut world::World,
    cfg: &DemoConfig,
    motions: &[motion::PlateMotion],
    report: &mut Report,
) -> Result<(Vec<export::Image>, Relief), DemoError> {
    let continental = tectonic::initial_relief(world, cfg.plates)?;
    let turns = motion::turns(motions);
    let mut frames = Vec::with_capacity(cfg.steps);
    let mut relief = Relief::default();
    let half = cfg.steps.div_ceil(2).max(1);
    for step in 1..=cfg.steps {
        let clock = Instant::now();
        let Some(stats) = motion::move_step(world, &turns, cfg.radius, step)? else {
            break;
        };
        let r = tectonic::relief_step(world, motions, &continental)?;
        let mut remesh = "";
        if cfg.remesh && step == half && cfg.steps > 1 {
            *world = tectonic::resample_onto_fresh_sphere(world, cfg.radius, cfg.perturbation)?;
            relief.resampled = Some(world.mesh().vertex_count());
            remesh = "resample+adapt";
        }
        if cfg.remesh && (step == 1 || !remesh.is_empty()) {
            let before = world.mesh().vertex_count();
            tectonic::adapt_to_boundaries(world, cfg.radius, cfg.vertices)?;
            let when = format!("at step {step}");
            relief
                .adapted
                .push((when, before, world.mesh().vertex_count()));
            if remesh.is_empty() {
                remesh = "adapt";
            }
        }
        frames.push(relief_files::frame(world, cfg)?);
        view_files::record_step(world, cfg, step)?;
        report.motion.push(MotionStep {
            stats,
            seconds: clock.elapsed().as_secs_f64(),
            vertices: world.mesh().vertex_count(),
            converging: r.converging,
            separating: r.separating,
            remesh,
        });
    }
    Ok((frames, relief))
}

/// Announces steps and records how long each took.
struct StepTimer<'a> {
    progress: &'a mut dyn FnMut(&str),
    clock: Instant,
}

impl<'a> StepTimer<'a> {
    fn new(progress: &'a mut dyn FnMut(&str)) -> Self {
        Self {
            progress,
            clock: Instant::now(),
        }
    }

    fn start(&mut self, step: usize) {
        (self.progress)(STEP_NAMES[step]);
        self.clock = Instant::now();
    }

    fn done(&mut self, what: &str, report: &mut Report) {
        report
            .steps
            .push((what.to_string(), self.clock.elapsed().as_secs_f64()));
    }
}
