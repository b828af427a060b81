//! The whole demo: generate, attach data, edit, write pictures and files, reload.

use crate::plates::grow_plates;
use export::{Borders, CloseupOptions, GlobeOptions};
use glam::{DVec3, Vec3};
use layers::{EdgeKind, Interpolation, LayerInfo, OnChange, Value, VertexKind};
use quadedge::{Edge, Vertex};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;
use world::World;

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

/// Number of steps [`run`] announces through its progress callback.
pub const STEPS: usize = 8;

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

fn palette(p: u32) -> [u8; 3] {
    const P: [[u8; 3]; 12] = [
        [76, 114, 176],
        [221, 132, 82],
        [85, 168, 104],
        [196, 78, 82],
        [129, 114, 179],
        [147, 120, 96],
        [218, 139, 195],
        [140, 140, 140],
        [204, 185, 116],
        [100, 181, 205],
        [60, 90, 60],
        [230, 200, 150],
    ];
    let base = P[(p as usize) % P.len()];
    let shade = ((p as usize / P.len()) % 3) as u8 * 25;
    base.map(|c| c.saturating_sub(shade))
}

/// Runs the demo; `progress` hears the name of each step as it starts.
pub fn run(cfg: &DemoConfig, progress: &mut dyn FnMut(&str)) -> Result<Report, DemoError> {
    cfg.validate()?;
    let mut report = Report {
        plates: cfg.plates,
        ..Report::default()
    };
    std::fs::create_dir_all(&cfg.out)
        .map_err(|e| DemoError(format!("cannot create {}: {e}", cfg.out.display())))?;
    let mut clock = Instant::now();
    let mut step = |name: &str, report: &mut Report, progress: &mut dyn FnMut(&str)| {
        report
            .steps
            .push((name.to_string(), clock.elapsed().as_secs_f64()));
        clock = Instant::now();
        let _ = progress;
    };

    // 1. The sphere.
    progress("fibonacci sphere");
    let (mesh, points) =
        sphere::fibonacci_sphere(cfg.vertices, cfg.radius, cfg.perturbation, cfg.seed)
            .map_err(|e| err("sphere")(&e))?;
    let mut world = World::new(mesh, cfg.seed);
    {
        let mut pos = world
            .lock_layer(&POSITION)
            .map_err(|e| err("positions")(&e))?;
        for (i, p) in points.iter().enumerate() {
            pos[Vertex::new(i as u32)] = *p;
        }
    }
    step("fibonacci sphere + mesh", &mut report, progress);

    // 2. Plates: random seeds from the world's generator, randomised flood.
    progress("plates");
    let (plate_ids, seeds) = {
        let mesh = world.mesh().clone();
        let mut rng = world.lock_random();
        grow_plates(&mesh, cfg.plates, &mut *rng)
    };
    {
        let mut plate = world.lock_layer(&PLATE).map_err(|e| err("plates")(&e))?;
        for (i, &p) in plate_ids.iter().enumerate() {
            plate[Vertex::new(i as u32)] = p;
        }
    }
    step("plates (flood fill)", &mut report, progress);

    // 3. Plate areas from the Voronoi cells, into the plate dictionary.
    progress("areas");
    let positions = world.layer(&POSITION).expect("created above").to_vec();
    let areas = sphere::geometry::voronoi_areas(world.mesh(), &positions);
    let mut plate_area = vec![0.0f64; seeds.len()];
    let mut plate_count = vec![0usize; seeds.len()];
    for v in world.mesh().vertices() {
        let p = plate_ids[v.index()] as usize;
        plate_area[p] += areas[v.index()];
        plate_count[p] += 1;
    }
    let total: f64 = plate_area.iter().sum();
    let sphere_area = 4.0 * std::f64::consts::PI * cfg.radius * cfg.radius;
    {
        let mut d = world.lock_dict("plates");
        let list: Vec<Value> = (0..seeds.len())
            .map(|p| {
                let mut e = layers::Dict::default();
                e.set("id", p as i64);
                e.set("seed_vertex", seeds[p].raw() as i64);
                e.set("vertices", plate_count[p] as i64);
                e.set("area_km2", plate_area[p]);
                Value::from(e)
            })
            .collect();
        d.set("plates", Value::List(list));
        d.set("radius_km", cfg.radius);
    }
    report.facts.push((
        "Voronoi area / 4πr²".into(),
        format!("{:.12}", total / sphere_area),
    ));
    let largest = plate_area.iter().cloned().fold(0.0, f64::max);
    report.facts.push((
        "largest plate (% of surface)".into(),
        format!("{:.1}", 100.0 * largest / sphere_area),
    ));
    step("plate areas (Voronoi cells)", &mut report, progress);

    // 4. plate_distance on every edge.
    progress("plate distance");
    {
        let mesh = world.mesh().clone();
        let mut dist = world
            .lock_layer(&PLATE_DISTANCE)
            .map_err(|e| err("plate_distance")(&e))?;
        for e in mesh.undirected_edges() {
            let (a, b) = (mesh.origin(e), mesh.dest(e));
            if plate_ids[a.index()] == plate_ids[b.index()] {
                dist[e] = sphere::geometry::great_circle_distance(
                    positions[a.index()],
                    positions[b.index()],
                ) as f32;
            }
        }
    }
    step("plate_distance (edge layer)", &mut report, progress);

    // 5. Edits that exercise the policies.
    progress("edits");
    let (splits, collapses) = edit(&mut world, &plate_ids, &positions)?;
    let positions = world.layer(&POSITION).expect("kept").to_vec();
    let flips = {
        let mut mesh = world.lock_mesh();
        sphere::make_delaunay(&mut mesh, &positions).map_err(|e| err("delaunay")(&e))?
    };
    let remap_len = {
        let mut mesh = world.lock_mesh();
        mesh.compact();
        mesh.vertex_slots()
    };
    let pos = world.layer(&POSITION).expect("kept");
    let plate = world.layer(&PLATE).expect("kept");
    let max_dev = world
        .mesh()
        .vertices()
        .map(|v| (pos[v].length() / cfg.radius - 1.0).abs())
        .fold(0.0f64, f64::max);
    if max_dev > 1e-6 {
        return Err(DemoError(format!("positions left the sphere by {max_dev}")));
    }
    if world
        .mesh()
        .vertices()
        .any(|v| plate[v] as usize >= seeds.len())
    {
        return Err(DemoError("a vertex lost its plate".into()));
    }
    sphere::is_delaunay(world.mesh(), &pos.to_vec())
        .map_err(|e| DemoError(format!("not Delaunay at {e:?}")))?;
    world.mesh().check().map_err(|e| err("check")(&e))?;
    report
        .facts
        .push(("edges split in plate 0".into(), splits.to_string()));
    report
        .facts
        .push(("edges collapsed".into(), collapses.to_string()));
    report
        .facts
        .push(("flips back to Delaunay".into(), flips.to_string()));
    report
        .facts
        .push(("vertex slots after compact".into(), remap_len.to_string()));
    report
        .facts
        .push(("max |p|/r − 1 after edits".into(), format!("{max_dev:.1e}")));
    step("split, collapse, flip, compact", &mut report, progress);

    // 6. Pictures.
    progress("render");
    let posf: Vec<Vec3> = export::positions_f32(&pos.to_vec());
    let plates_now = plate.to_vec();
    let colors: Vec<[u8; 3]> = plates_now.iter().map(|&p| palette(p)).collect();
    let globe = GlobeOptions {
        width: cfg.image_width,
        height: cfg.image_width / 2,
        up: Vec3::Y,
        view: Vec3::Z,
        ..Default::default()
    };
    let img = export::render::render_globe(
        world.mesh(),
        &posf,
        &colors,
        Borders::Regions(&plates_now),
        &globe,
    )
    .map_err(|e| err("render")(&e))?;
    let png = cfg.out.join("planet.png");
    img.save_png(&png).map_err(|e| err("planet.png")(&e))?;
    let center = posf[seeds[0].index()].normalize();
    let spacing = (4.0 * std::f32::consts::PI / world.mesh().vertex_count() as f32).sqrt();
    let closeup = CloseupOptions {
        size: (cfg.image_width / 2).max(256),
        ..Default::default()
    };
    let img = export::render::render_mesh_closeup_with(
        world.mesh(),
        &posf,
        Some(&colors),
        center,
        10.0 * spacing,
        &closeup,
    )
    .map_err(|e| err("render closeup")(&e))?;
    let png_mesh = cfg.out.join("planet_mesh.png");
    img.save_png(&png_mesh)
        .map_err(|e| err("planet_mesh.png")(&e))?;
    step("render pictures", &mut report, progress);

    // 7. Mesh files.
    progress("export");
    let glb = cfg.out.join("planet.glb");
    export::gltf::write_glb(&glb, world.mesh(), &posf, Some(&colors))
        .map_err(|e| err("planet.glb")(&e))?;
    let ply = cfg.out.join("planet.ply");
    export::ply::write_ply(&ply, world.mesh(), &posf, Some(&colors))
        .map_err(|e| err("planet.ply")(&e))?;
    step("export glb + ply", &mut report, progress);

    // 8. Save, reload, compare.
    progress("save");
    let file = cfg.out.join("planet.world");
    world.save(&file).map_err(|e| err("planet.world")(&e))?;
    let back = World::load(&file).map_err(|e| err("reload")(&e))?;
    if back != world {
        return Err(DemoError(
            "the reloaded world differs from the saved one".into(),
        ));
    }
    step("save + reload + compare", &mut report, progress);

    report.vertices = world.mesh().vertex_count();
    report.faces = world.mesh().face_count();
    report.bytes_per_vertex = world.heap_bytes() as f64 / report.vertices as f64;
    for p in [&png, &png_mesh, &glb, &ply, &file] {
        let size = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        report.files.push((file_name(p), size));
    }
    Ok(report)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Splits the longest edges inside plate 0 and collapses the shortest edges anywhere.
fn edit(
    world: &mut World,
    plate_ids: &[u32],
    positions: &[DVec3],
) -> Result<(usize, usize), DemoError> {
    let len = |m: &quadedge::Mesh, e: Edge| {
        positions[m.origin(e).index()].distance(positions[m.dest(e).index()])
    };
    let mut inner: Vec<(f64, Edge)> = Vec::new();
    let mut all: Vec<(f64, Edge)> = Vec::new();
    {
        let m = world.mesh();
        for e in m.undirected_edges() {
            let l = len(m, e);
            all.push((l, e));
            if plate_ids[m.origin(e).index()] == 0 && plate_ids[m.dest(e).index()] == 0 {
                inner.push((l, e));
            }
        }
    }
    inner.sort_by(|a, b| b.0.total_cmp(&a.0));
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n_split = (inner.len() / 10).clamp(1, 500).min(inner.len());
    let n_collapse = (all.len() / 1000).clamp(1, 200);
    let mut mesh = world.lock_mesh();
    let mut splits = 0;
    for &(_, e) in inner.iter().take(n_split) {
        if mesh.split(e, 0.5).is_ok() {
            splits += 1;
        }
    }
    let mut collapses = 0;
    for &(_, e) in all.iter() {
        if collapses == n_collapse {
            break;
        }
        if mesh.is_edge_alive(e) && mesh.collapse(e, 0.5).is_ok() {
            collapses += 1;
        }
    }
    Ok((splits, collapses))
}
