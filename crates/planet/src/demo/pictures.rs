//! What makes the demo's globes readable: a strip under the discs for the keys, a 30°
//! graticule, and the names of the largest landmasses or plates.

use export::render::{Corner, GlobeLayout, Label, Place, Projection};
use export::{ExportError, GlobeOptions, Image};
use glam::Vec3;
use quadedge::{Mesh, Vertex};

/// Graticule colour.
const GRID: [u8; 3] = [230, 230, 230];
/// Landmasses named on the pictures, at most.
const MAX_LABELS: usize = 6;
/// Landmasses smaller than this share of the surface are not named.
const MIN_SHARE: f64 = 0.002;

/// A globe with room for keys below its discs.
pub(super) struct Sheet {
    /// The picture: the discs, then the strip.
    pub img: Image,
    /// How directions map to the discs' pixels.
    pub proj: Projection,
    /// The discs (for the scale at their centre).
    pub layout: GlobeLayout,
    /// Font scale of the keys: 2 on pictures at least 1600 pixels wide.
    pub text: u32,
}

impl Sheet {
    /// `globe`, rendered with `options`, on a sheet with a strip below for the keys; the
    /// graticule drawn over the discs.
    pub fn new(globe: &Image, options: &GlobeOptions<'_>) -> Result<Self, ExportError> {
        let w = globe.width;
        let text = if w >= 1600 { 2 } else { 1 };
        let strip = 36 * text + 14;
        let mut img = Image::new(w, globe.height + strip, options.background);
        img.rgb[..globe.rgb.len()].copy_from_slice(&globe.rgb);
        let layout = GlobeLayout::new(options)?;
        let proj = Projection::Globe(layout);
        export::render::draw_graticule(&mut img, &proj, 30, GRID);
        Ok(Self {
            img,
            proj,
            layout,
            text,
        })
    }

    /// A corner of the strip, 8 pixels in from the side and 4 from the bottom.
    pub fn place(corner: Corner) -> Place {
        Place {
            corner,
            dx: 8,
            dy: 4,
        }
    }

    /// The scale bar at the discs' centre, in the strip's lower right corner, for a planet of
    /// `radius_km`.
    pub fn scale_bar(&mut self, radius_km: f64) -> Result<(), ExportError> {
        let w = self.img.width;
        export::render::draw_scale_bar(
            &mut self.img,
            Self::place(Corner::BottomRight),
            self.layout.km_per_pixel(radius_km),
            (w / 8).clamp(8, 4096),
            "AT DISC CENTRE",
            self.text,
        )?;
        Ok(())
    }

    /// Names `labels` on the discs.
    pub fn label(&mut self, labels: &[(Vec3, String)]) -> Result<usize, ExportError> {
        draw_labels(&mut self.img, &self.proj, labels, self.text)
    }
}

/// `planet.png`'s readable parts, on the globe itself (the picture keeps its size): the
/// graticule, the largest plates named, the scale in the lower right corner.
pub(super) fn decorate_plates(
    img: &mut Image,
    options: &GlobeOptions<'_>,
    mesh: &Mesh,
    positions: &[Vec3],
    plate: &[u32],
    radius_km: f64,
) -> Result<(), ExportError> {
    let layout = GlobeLayout::new(options)?;
    let proj = Projection::Globe(layout);
    let text = if img.width >= 1600 { 2 } else { 1 };
    export::render::draw_graticule(img, &proj, 30, GRID);
    let names = plate_labels(mesh, positions, plate, radius_km, Some(options.view));
    draw_labels(img, &proj, &names, text)?;
    let w = img.width;
    export::render::draw_scale_bar(
        img,
        Sheet::place(Corner::BottomRight),
        layout.km_per_pixel(radius_km),
        (w / 8).clamp(8, 4096),
        "AT DISC CENTRE",
        text,
    )?;
    Ok(())
}

/// The labels whose names cannot cover one of `panels` (`[x0, y0, x1, y1]` in pixels, e.g.
/// a legend drawn over the map), whichever side of its place a name is drawn on.
pub(super) fn clear_of(
    labels: Vec<(Vec3, String)>,
    proj: &Projection,
    panels: &[[f32; 4]],
    text: u32,
) -> Vec<(Vec3, String)> {
    let t = text as f32;
    labels
        .into_iter()
        .filter(|(at, name)| {
            let Some((_, p)) = proj.project(*at) else {
                return false;
            };
            let reach = (6 * name.chars().count()) as f32 * t + 8.0 * t;
            !panels.iter().any(|&[x0, y0, x1, y1]| {
                (x0 - reach..=x1 + reach).contains(&p.x)
                    && (y0 - 8.0 * t..=y1 + 8.0 * t).contains(&p.y)
            })
        })
        .collect()
}

/// [`export::render::draw_labels`] for owned names.
pub(super) fn draw_labels(
    img: &mut Image,
    proj: &Projection,
    labels: &[(Vec3, String)],
    text: u32,
) -> Result<usize, ExportError> {
    let labels: Vec<Label<'_>> = labels
        .iter()
        .map(|(at, text)| Label { at: *at, text })
        .collect();
    export::render::draw_labels(img, proj, &labels, text)
}

/// The largest landmasses (connected cells at or above sea level 0 m), largest first, each
/// named by a letter and its area (cells counted as equal shares of the sphere), placed by
/// [`place`].
pub(super) fn landmass_labels(
    mesh: &Mesh,
    positions: &[Vec3],
    elevation: &[f32],
    radius_km: f64,
    view: Option<Vec3>,
) -> Vec<(Vec3, String)> {
    let names = ('A'..='Z').map(|c| c.to_string());
    named(
        mesh,
        positions,
        landmasses(mesh, elevation),
        names,
        radius_km,
        view,
    )
}

/// The largest plates, named by their id and area, placed by [`place`].
pub(super) fn plate_labels(
    mesh: &Mesh,
    positions: &[Vec3],
    plate: &[u32],
    radius_km: f64,
    view: Option<Vec3>,
) -> Vec<(Vec3, String)> {
    let mut groups: std::collections::BTreeMap<u32, Vec<Vertex>> = Default::default();
    for v in mesh.vertices() {
        groups.entry(plate[v.index()]).or_default().push(v);
    }
    let mut plates: Vec<(u32, Vec<Vertex>)> = groups.into_iter().collect();
    plates.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let names: Vec<String> = plates.iter().map(|(p, _)| format!("PLATE {p}")).collect();
    let cells = plates.into_iter().map(|(_, c)| c).collect();
    named(mesh, positions, cells, names.into_iter(), radius_km, view)
}

/// The first [`MAX_LABELS`] regions (largest first) of at least [`MIN_SHARE`] of the
/// surface, each with its name and area.
fn named(
    mesh: &Mesh,
    positions: &[Vec3],
    regions: Vec<Vec<Vertex>>,
    names: impl Iterator<Item = String>,
    radius_km: f64,
    view: Option<Vec3>,
) -> Vec<(Vec3, String)> {
    let total = mesh.vertex_count().max(1) as f64;
    let sphere_km2 = 4.0 * std::f64::consts::PI * radius_km * radius_km;
    regions
        .iter()
        .take(MAX_LABELS)
        .filter(|m| m.len() as f64 / total >= MIN_SHARE)
        .zip(names)
        .filter_map(|(cells, name)| {
            let at = place(cells, positions, view)?;
            let km2 = cells.len() as f64 / total * sphere_km2;
            Some((at, format!("{name} {:.1}M KM²", km2 / 1e6)))
        })
        .collect()
}

/// Where a region's name goes: its cell nearest to its mean direction, so the name sits on
/// it; on a globe looking along `view`, among the cells well inside either disc (`None`
/// when there is none).
fn place(cells: &[Vertex], positions: &[Vec3], view: Option<Vec3>) -> Option<Vec3> {
    let view = view.and_then(Vec3::try_normalize);
    let dir = |v: &Vertex| positions[v.index()].normalize_or_zero();
    // Within about 53° of a disc's centre: the name is not squeezed against the rim.
    let visible = |d: Vec3| view.is_none_or(|f| d.dot(f).abs() >= 0.6);
    let mean = cells.iter().map(dir).sum::<Vec3>().normalize_or_zero();
    cells
        .iter()
        .map(dir)
        .filter(|&d| visible(d))
        .max_by(|a, b| a.dot(mean).total_cmp(&b.dot(mean)))
}

/// Connected land cells (at or above 0 m), largest first (ties: smallest first vertex).
fn landmasses(mesh: &Mesh, elevation: &[f32]) -> Vec<Vec<Vertex>> {
    let land = |v: Vertex| elevation[v.index()] >= 0.0;
    let mut seen = vec![false; mesh.vertex_slots()];
    let mut masses: Vec<Vec<Vertex>> = Vec::new();
    for v in mesh.vertices().filter(|&v| land(v)) {
        if seen[v.index()] {
            continue;
        }
        seen[v.index()] = true;
        let mut cells = vec![v];
        let mut next = 0;
        while next < cells.len() {
            let c = cells[next];
            next += 1;
            for u in mesh.neighbors(c) {
                if land(u) && !seen[u.index()] {
                    seen[u.index()] = true;
                    cells.push(u);
                }
            }
        }
        masses.push(cells);
    }
    masses.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].index().cmp(&b[0].index())));
    masses
}
