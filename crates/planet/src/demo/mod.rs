//! The whole demo: generate, attach data, edit, write pictures and files, reload.
//!
//! [`run`] calls one function per step, in order; each lives with its concept: `steps.rs`
//! (sphere, plates, plate distance, metadata, pictures, files) and `edits.rs` (the edits that
//! exercise the layer policies, and what they touched).

mod edits;
mod steps;

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
/// values only make sense while both ends stay in one plate, so edits reset what they touch.
pub const PLATE_DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance")
    .initial(-1.0)
    .on_change(OnChange::ResetAffected);

/// The steps [`run`] announces through its progress callback, in order.
pub const STEP_NAMES: [&str; 8] = [
    "fibonacci sphere",
    "plates",
    "plate distance",
    "edits",
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
    /// Fibonacci perturbation (0 = the regular lattice).
    pub perturbation: f64,
    /// Width of `planet.png` (its height is half).
    pub image_width: u32,
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
        Ok(())
    }
}

/// Largest planet the demo builds (about 6 GB of world and pictures at this size).
pub const MAX_VERTICES: usize = 50_000_000;
/// Widest `planet.png` the demo renders.
pub const MAX_IMAGE_WIDTH: u32 = 16_384;

impl Default for DemoConfig {
    fn default() -> Self {
        DemoConfig {
            vertices: 100_000,
            plates: 12,
            seed: 2026,
            out: PathBuf::from("out"),
            radius: 6371.0,
            perturbation: 0.5,
            image_width: 2048,
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
    steps::plate_metadata(&mut world, &edited.seeds, cfg.radius, &mut report)?;
    timer.done("plate metadata + areas", &mut report);

    timer.start(5);
    let pictures = steps::render_pictures(&world, cfg, &edited)?;
    timer.done("render pictures", &mut report);

    timer.start(6);
    let meshes = steps::export_meshes(&world, &cfg.out)?;
    timer.done("export glb + ply", &mut report);

    timer.start(7);
    let file = steps::save_and_reload(&world, &cfg.out)?;
    timer.done("save + reload + compare", &mut report);

    report.vertices = world.mesh().vertex_count();
    report.faces = world.mesh().face_count();
    report.bytes_per_vertex = world.heap_bytes() as f64 / report.vertices as f64;
    for p in pictures.iter().chain(&meshes).chain([&file]) {
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
