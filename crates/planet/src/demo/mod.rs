//! The whole demo: a tectonic planet. Generate, lay out plates and crust, edit, run the
//! plate tectonics in physical units, write pictures and files, reload.
//!
//! [`run`] calls one function per step, in order; each lives with its concept: `steps.rs`
//! (sphere, plate distance, metadata, pictures, meshes, save), `edits.rs` (the edits that
//! exercise the layer policies, and what they touched), `history.rs` (the tectonic stage:
//! [`crate::tectonics`] step by step, with a hook per step for animation frames),
//! `relief_files.rs` (the elevation globe, heightmap and animation) and `json_files.rs`
//! (`summary.json`, `heightmap.json`). After the tectonic stage the world holds positions
//! and an `elevation` vertex layer in metres, which later stages read.

mod edits;
mod history;
mod json_files;
mod pictures;
mod relief_files;
mod steps;
mod surface_files;
mod view_files;

pub use crate::tectonics::{ELEVATION, PLATE, POSITION};
pub use history::frame_every;

use layers::{EdgeKind, Interpolation, LayerInfo, OnChange};
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

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
    "plates and crust",
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
    /// Tectonic steps of [`DemoConfig::myr_per_step`] each (0 = the plates stay as laid
    /// out); planets under [`crate::tectonics::MIN_VERTICES`] vertices stay still.
    pub steps: usize,
    /// Simulated time per step (Myr).
    pub myr_per_step: f64,
    /// Resample the world onto a fresh sphere every 20 Myr, when the moving, consumed and
    /// created vertices have made the sampling uneven.
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
        if self.vertices < 5 {
            return bad(format!(
                "--vertices {}: a Fibonacci planet needs at least 5 vertices (4 lattice points lie in one hemisphere)",
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
        if !(self.myr_per_step.is_finite() && self.myr_per_step > 0.0 && self.myr_per_step <= 50.0)
        {
            return bad(format!(
                "--myr-per-step {}: must lie in 0 < dt ≤ 50",
                self.myr_per_step
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
/// Most tectonic steps (20 Gyr at 2 Myr per step).
pub const MAX_STEPS: usize = 10_000;
/// Default tectonic steps: 80 Myr at 2 Myr per step, long enough for ridges to open wide
/// oceans, arcs and cordilleras to rise and continents to collide.
pub const DEFAULT_STEPS: usize = 40;

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
            steps: DEFAULT_STEPS,
            myr_per_step: 2.0,
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
    /// What each tectonic step did, in order.
    pub motion: Vec<crate::tectonics::StepReport>,
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
            s += "tectonics (every step's row; time per step):\n";
            s += "   step   flips  folds vertices subducted created shortened sutured accreted strays  conv   sep event          time\n";
        }
        for (i, m) in self.motion.iter().enumerate() {
            let t = if times {
                format!("{:6.1} ms", m.seconds * 1e3)
            } else {
                "  [time]".into()
            };
            let event = match (m.rifted, m.resampled) {
                (Some(p), true) => format!("rift {p}+resample"),
                (Some(p), false) => format!("rift {p}"),
                (None, true) => "resample".into(),
                (None, false) => String::new(),
            };
            s += &format!(
                "  {:5} {:7} {:6} {:8} {:9} {:7} {:9} {:7} {:8} {:6} {:5} {:5} {:<14} {t}\n",
                i + 1,
                m.restore.flips,
                m.restore.folds,
                m.vertices,
                m.subducted,
                m.created,
                m.shortened,
                m.sutured,
                m.accreted,
                m.reassigned,
                m.converging,
                m.separating,
                event
            );
        }
        s += "files:\n";
        for (f, b) in &self.files {
            // summary.json holds the timings, so its length varies from run to run.
            if !times && f == "summary.json" {
                s += &format!("  {f:<28} [size]\n");
            } else {
                s += &format!("  {f:<28} {b} bytes\n");
            }
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
    let mut sim = history::lay_out(&mut world, cfg)?;
    let seeds = steps::plate_representatives(&world, sim.plates.len());
    timer.done("plates, crust (initial state)", &mut report);

    timer.start(2);
    steps::plate_distance(&mut world)?;
    timer.done("plate_distance (edge layer)", &mut report);

    timer.start(3);
    let live_seeds: Vec<_> = seeds.iter().copied().filter(|v| v.is_valid()).collect();
    let edited = edits::edit_around(&mut world, &live_seeds, sim.plates.len(), cfg.radius)?;
    edited.report(&mut report);
    timer.done("split, collapse, flip, compact", &mut report);

    timer.start(4);
    let closeup = steps::render_closeup(&world, cfg, &edited)?;
    timer.done("render close-up", &mut report);

    timer.start(5);
    let mut frames = Vec::new();
    let every = frame_every(cfg.steps);
    let mut hook = |w: &world::World, step: usize| -> Result<(), DemoError> {
        if step.is_multiple_of(every) || step == cfg.steps {
            frames.push(relief_files::frame(w, cfg)?);
        }
        view_files::record_step(w, cfg, step)
    };
    history::run(&mut world, &mut sim, cfg, &mut report, &mut hook)?;
    timer.done(
        &format!("tectonics ({} steps)", report.motion.len()),
        &mut report,
    );

    timer.start(6);
    steps::plate_metadata(&mut world, &mut sim, &mut report)?;
    timer.done("plate metadata + areas", &mut report);

    timer.start(7);
    let planet = steps::render_planet(&world, cfg)?;
    let (relief_files, range) = relief_files::write(&world, cfg, &frames)?;
    report.facts.push((
        "elevation range (m)".into(),
        format!("{:.0} .. {:.0}", range.0, range.1),
    ));
    let heightmap_json = json_files::heightmap(&cfg.out, range)?;
    timer.done("render globes + heightmap", &mut report);
    surface_files::write(&mut world, cfg, &mut report)?;

    timer.start(8);
    let meshes = steps::export_meshes(&world, &cfg.out)?;
    view_files::write(&world, cfg)?;
    timer.done("export glb + ply", &mut report);

    timer.start(9);
    let file = steps::save_and_reload(&world, &cfg.out)?;
    timer.done("save + reload + compare", &mut report);
    let summary_json = json_files::summary(&world, &sim, &report, &cfg.out)?;

    report.vertices = world.mesh().vertex_count();
    report.faces = world.mesh().face_count();
    report.bytes_per_vertex = world.heap_bytes() as f64 / report.vertices as f64;
    let pictures = [planet, closeup];
    for p in pictures.iter().chain(&relief_files).chain(&meshes).chain([
        &file,
        &heightmap_json,
        &summary_json,
    ]) {
        let size = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let name = p.file_name().map(|s| s.to_string_lossy().into_owned());
        report.files.push((name.unwrap_or_default(), size));
    }
    Ok(report)
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
