//! The close-up: a gnomonic view of a small area with its Voronoi cells, Delaunay triangles
//! and sites, highlighted sites, and a legend.

use super::font;
use super::raster::{
    Canvas, check_samples, check_size, frame, srgb_to_linear_table, store, to_linear,
};
use super::sites::{Sites, circumcenter};
use crate::ExportError;
use crate::common::check_inputs;
use crate::image::Image;
use crate::locate::FaceWalk;
use glam::{Vec2, Vec3, Vec3A};
use quadedge::Topology;

/// Settings for [`render_mesh_closeup`].
///
/// The defaults aim at a picture that reads at a glance: cells filled with their (lightened)
/// colour and outlined by dark Voronoi edges, the Delaunay triangles as thin blue lines under
/// them, small dark sites, highlighted sites ringed in orange, and a legend that names each.
#[derive(Clone, Debug)]
pub struct CloseupOptions<'a> {
    /// Cell colours, one per vertex slot (drawn lightened, so the lines stay visible); default
    /// none: a pastel per vertex.
    pub colors: Option<&'a [[u8; 3]]>,
    /// Width and height of the square image; default 1024.
    pub size: u32,
    /// Samples per pixel along each axis for the cell fill; default 3.
    pub samples: u32,
    /// Fill cells with their (lightened) colour, or a pastel per vertex when no colours are
    /// given; `false` leaves the background; default `true`.
    pub fill_cells: bool,
    /// Delaunay edge colour; default mid blue.
    pub delaunay_color: [u8; 3],
    /// Voronoi edge colour; default charcoal.
    pub voronoi_color: [u8; 3],
    /// Site (vertex) dot colour; default near black.
    pub site_color: [u8; 3],
    /// Ring colour of [`highlight`](Self::highlight)ed sites; default orange.
    pub highlight_color: [u8; 3],
    /// Background; default white.
    pub background: [u8; 3],
    /// Voronoi edge width in pixels (0 = none); default 2.
    pub line_width: f32,
    /// Delaunay edge width in pixels (0 = none); default 1.
    pub delaunay_width: f32,
    /// Site dot radius in pixels (0 = none); default 2.
    pub site_radius: f32,
    /// Sites to ring, e.g. the vertices an edit touched; default none.
    pub highlight: Vec<quadedge::Vertex>,
    /// A line of text along the top edge (upper case, digits, simple punctuation); default
    /// none.
    pub caption: String,
    /// Draw a legend naming the line styles in the lower left corner; default `true`.
    pub legend: bool,
    /// The cell outlines' corners by face slot (unit or not: only directions count), e.g.
    /// the centroids or blends of `sphere::dual::dual_points`; empty (the default) draws the
    /// circumcentres, the true Voronoi cells. The fill always shows the nearest site, so with
    /// other corners leave [`fill_cells`](Self::fill_cells) off to compare outlines.
    pub dual_points: Vec<Vec3>,
}

impl Default for CloseupOptions<'_> {
    fn default() -> Self {
        Self {
            colors: None,
            size: 1024,
            samples: 3,
            fill_cells: true,
            delaunay_color: [60, 110, 215],
            voronoi_color: [35, 35, 45],
            site_color: [15, 15, 15],
            highlight_color: [235, 110, 0],
            background: [255, 255, 255],
            line_width: 2.0,
            delaunay_width: 1.0,
            site_radius: 2.0,
            highlight: Vec::new(),
            caption: String::new(),
            legend: true,
            dual_points: Vec::new(),
        }
    }
}

/// A pastel colour per vertex id, so neighbouring cells are told apart without user colours.
fn pastel(v: u32) -> [u8; 3] {
    let mut h = v.wrapping_mul(0x9E37_79B9) ^ 0x5bd1_e995;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    [
        170 + (h & 0x3f) as u8,
        170 + ((h >> 8) & 0x3f) as u8,
        170 + ((h >> 16) & 0x3f) as u8,
    ]
}

/// A close-up of the mesh in gnomonic projection centred on `center`, showing `angular_radius`
/// radians (less than 1.4) from the centre to the middle of each image side.
///
/// Gnomonic projection maps great circles to straight lines, so Delaunay edges and Voronoi
/// edges (arcs between the circumcentres of adjacent triangles) are drawn exactly as straight,
/// anti-aliased segments. Cells are filled with [`CloseupOptions::colors`] (lightened, so the
/// lines stay visible) or a pastel per vertex; the thin Delaunay lines go under the Voronoi
/// edges, then the sites, the rings of highlighted sites, the legend and the caption.
///
/// # Errors
/// [`ExportError`] for inputs that do not match the mesh (lengths, non-finite positions), an
/// `angular_radius` outside `(0, 1.4)`, a bad size, sample count or width, or a highlighted
/// vertex that is not alive.
///
/// ```
/// use glam::Vec3;
/// use export::render::{CloseupOptions, render_mesh_closeup};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let opts = CloseupOptions { size: 200, ..Default::default() };
/// let img = render_mesh_closeup(&mesh, &pos, Vec3::ONE, 1.0, &opts)?;
/// assert_eq!((img.width, img.height), (200, 200));
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn render_mesh_closeup(
    mesh: &impl Topology,
    positions: &[Vec3],
    center: Vec3,
    angular_radius: f32,
    options: &CloseupOptions<'_>,
) -> Result<Image, ExportError> {
    check_inputs(mesh, positions, options.colors)?;
    check_options(mesh, angular_radius, options)?;
    let view = View::new(center, angular_radius, options.size)?;
    let lut = srgb_to_linear_table();
    let sites = Sites::new(mesh, FaceWalk::unit_dirs(positions), &|_, _| false);
    let size = options.size;
    let mut canvas = vec![to_linear(&lut, options.background); size as usize * size as usize];
    if options.fill_cells {
        fill_cells(&mut canvas, &view, &sites, &lut, options);
    }
    let mut draw = Canvas {
        px: &mut canvas,
        size,
    };
    let rows = draw_mesh(&mut draw, mesh, &view, &sites, &lut, options);
    let style = Style {
        scale: (size / 400).max(1),
        ink: to_linear(&lut, [20, 20, 25]),
        paper: to_linear(&lut, [255, 255, 255]),
    };
    if options.legend {
        legend(&mut draw, &style, &rows);
    }
    if !options.caption.is_empty() {
        caption(&mut draw, &style, &options.caption);
    }
    let mut img = Image::new(size, size, options.background);
    for (out, c) in img.rgb.chunks_mut(3).zip(&canvas) {
        store(out, *c);
    }
    Ok(img)
}

/// Checks the view, the sizes, the line widths, the dual points and the highlighted sites.
fn check_options(
    mesh: &impl Topology,
    angular_radius: f32,
    options: &CloseupOptions<'_>,
) -> Result<(), ExportError> {
    let bad = |name, reason| Err(ExportError::InvalidOption { name, reason });
    check_size(options.size, options.size)?;
    check_samples(options.samples)?;
    if !(angular_radius > 1e-6 && angular_radius < 1.4) {
        return bad("angular_radius", "must be within (0, 1.4) radians");
    }
    let usable = |x: f32| x.is_finite() && x >= 0.0;
    if !(usable(options.line_width)
        && usable(options.delaunay_width)
        && usable(options.site_radius))
    {
        return bad(
            "line_width/delaunay_width/site_radius",
            "must be finite and not negative",
        );
    }
    let dual_ok = |f: quadedge::Face| {
        options
            .dual_points
            .get(f.index())
            .is_some_and(|p| p.is_finite() && p.length_squared() > 0.0)
    };
    if !options.dual_points.is_empty() && !mesh.faces().all(dual_ok) {
        return bad(
            "dual_points",
            "must give a finite non-zero point for every live face",
        );
    }
    let mut alive = Vec::new();
    if !options.highlight.is_empty() {
        alive.resize(mesh.vertex_slots(), false);
        mesh.vertices().for_each(|v| alive[v.index()] = true);
    }
    match options
        .highlight
        .iter()
        .find(|v| !alive.get(v.index()).copied().unwrap_or(false))
    {
        Some(v) if v.index() < mesh.vertex_slots() => bad("highlight", "names a removed vertex"),
        Some(_) => bad("highlight", "names a vertex past the end of the mesh"),
        None => Ok(()),
    }
}

/// The gnomonic view: the tangent frame at the centre and the pixel scale.
struct View {
    right: Vec3,
    up: Vec3,
    fwd: Vec3,
    half: f32,
    scale: f32,
    /// Only points this far in front of the tangent plane are drawn: the projection blows up
    /// towards the horizon, and everything visible is well inside this bound.
    min_depth: f32,
}

impl View {
    fn new(center: Vec3, angular_radius: f32, size: u32) -> Result<Self, ExportError> {
        let up_hint = if center.normalize_or_zero().z.abs() > 0.99 {
            Vec3::Y
        } else {
            Vec3::Z
        };
        let (right, up, fwd) = frame(center, up_hint).map_err(|_| ExportError::InvalidOption {
            name: "center",
            reason: "must be a finite non-zero vector",
        })?;
        let half = size as f32 / 2.0;
        Ok(Self {
            right,
            up,
            fwd,
            half,
            scale: half / angular_radius.tan(),
            min_depth: (angular_radius * 2.0).min(1.5).cos().max(0.05),
        })
    }

    /// The pixel of direction `p`, if it is in front.
    fn project(&self, p: Vec3A) -> Option<Vec2> {
        let p = Vec3::from(p);
        let d = p.dot(self.fwd);
        (d > self.min_depth).then(|| {
            Vec2::new(
                self.half + self.scale * p.dot(self.right) / d,
                self.half - self.scale * p.dot(self.up) / d,
            )
        })
    }

    /// The direction under the image point `(x, y)` (pixels, fractional).
    fn unproject(&self, x: f32, y: f32) -> Vec3A {
        let tx = (x - self.half) / self.scale;
        let ty = -(y - self.half) / self.scale;
        Vec3A::from(self.fwd + tx * self.right + ty * self.up).normalize()
    }
}

/// Fills every pixel with the colour of the cells its samples fall in.
fn fill_cells(
    canvas: &mut [Vec3],
    view: &View,
    sites: &Sites,
    lut: &[f32; 256],
    options: &CloseupOptions<'_>,
) {
    let cell = |v: u32| -> Vec3 {
        match options.colors {
            Some(c) => to_linear(lut, c[v as usize]).lerp(Vec3::ONE, 0.45),
            None => to_linear(lut, pastel(v)),
        }
    };
    let (size, s) = (options.size, options.samples);
    let inv_s = 1.0 / s as f32;
    let weight = 1.0 / (s * s) as f32;
    let start = sites.walk(sites.start, Vec3A::from(view.fwd));
    let mut hint = start;
    for y in 0..size {
        let mut row_first = None;
        for x in 0..size {
            let mut acc = Vec3::ZERO;
            for j in 0..s {
                for i in 0..s {
                    let p = view.unproject(
                        x as f32 + (i as f32 + 0.5) * inv_s,
                        y as f32 + (j as f32 + 0.5) * inv_s,
                    );
                    hint = sites.walk(hint, p);
                    row_first.get_or_insert(hint);
                    acc += cell(hint);
                }
            }
            canvas[(y * size + x) as usize] = acc * weight;
        }
        hint = row_first.unwrap_or(start);
    }
}

/// Draws the Delaunay edges, the Voronoi edges, the sites and the rings; returns the legend
/// rows of what was drawn.
fn draw_mesh(
    draw: &mut Canvas<'_>,
    mesh: &impl Topology,
    view: &View,
    sites: &Sites,
    lut: &[f32; 256],
    options: &CloseupOptions<'_>,
) -> Vec<(Swatch, &'static str)> {
    let mut rows = Vec::new();
    let at = |v: quadedge::Vertex| view.project(sites.dirs[v.index()]);
    let voronoi = to_linear(lut, options.voronoi_color);
    let delaunay = to_linear(lut, options.delaunay_color);
    // Thin Delaunay lines first, so the cell outlines stay on top.
    if options.delaunay_width > 0.0 {
        // Each edge once, from its smaller end.
        for a in mesh.vertices() {
            for b in mesh.neighbors(a).filter(|b| a.raw() < b.raw()) {
                if let (Some(a), Some(b)) = (at(a), at(b)) {
                    draw.segment(a, b, options.delaunay_width, delaunay);
                }
            }
        }
    }
    if options.line_width > 0.0 {
        let mut cc = vec![Vec3A::ZERO; mesh.face_slots()];
        for f in mesh.faces() {
            let [a, b, c] = mesh.face_vertices(f).map(|v| sites.dirs[v.index()]);
            cc[f.index()] = match options.dual_points.get(f.index()) {
                Some(&p) => Vec3A::from(p).normalize(),
                None => circumcenter(a, b, c),
            };
        }
        // A Voronoi edge joins the circumcentres of two adjacent faces: each pair once, from
        // the smaller face (none across a boundary).
        for f in mesh.faces() {
            for g in mesh.face_neighbors(f) {
                if !(g.is_valid() && f.raw() < g.raw()) {
                    continue;
                }
                if let (Some(a), Some(b)) =
                    (view.project(cc[f.index()]), view.project(cc[g.index()]))
                {
                    draw.segment(a, b, options.line_width, voronoi);
                }
            }
        }
        rows.push((
            Swatch::Line(voronoi, options.line_width),
            "Voronoi cell edge",
        ));
    }
    if options.delaunay_width > 0.0 {
        rows.push((
            Swatch::Line(delaunay, options.delaunay_width),
            "Delaunay edge",
        ));
    }
    let dot = to_linear(lut, options.site_color);
    if options.site_radius > 0.0 {
        for v in mesh.vertices() {
            if let Some(p) = at(v) {
                draw.disc(p, options.site_radius, dot);
            }
        }
        rows.push((Swatch::Dot(dot, options.site_radius), "site (vertex)"));
    }
    let ring = to_linear(lut, options.highlight_color);
    let ring_radius = options.site_radius.max(1.5) + 3.5;
    for &v in &options.highlight {
        if let Some(p) = at(v) {
            draw.ring(p, ring_radius, 2.5, ring);
        }
    }
    if !options.highlight.is_empty() {
        rows.push((Swatch::Ring(ring, ring_radius), "edited vertex"));
    }
    rows
}

/// Text size and colours of the legend and caption.
struct Style {
    /// Font pixel size in image pixels.
    scale: u32,
    ink: Vec3,
    paper: Vec3,
}

/// What a legend row shows before its label.
enum Swatch {
    Line(Vec3, f32),
    Dot(Vec3, f32),
    Ring(Vec3, f32),
}

/// A boxed legend in the lower left corner: one swatch and label per row.
fn legend(draw: &mut Canvas<'_>, style: &Style, rows: &[(Swatch, &str)]) {
    if rows.is_empty() {
        return;
    }
    let s = style.scale as i64;
    let (pad, swatch_w) = (6 * s, 22 * s);
    let row_h = (font::HEIGHT as i64 + 5) * s;
    let text_w = rows
        .iter()
        .map(|(_, t)| font::text_width(t, style.scale) as i64)
        .max()
        .unwrap_or(0);
    let (w, h) = (
        pad * 3 + swatch_w + text_w,
        pad * 2 + row_h * rows.len() as i64 - 5 * s,
    );
    let (x0, y0) = (8 * s, i64::from(draw.size) - 8 * s - h);
    draw.blend_rect(x0 - s, y0 - s, w + 2 * s, h + 2 * s, style.ink, 0.6);
    draw.blend_rect(x0, y0, w, h, style.paper, 0.92);
    for (i, (swatch, text)) in rows.iter().enumerate() {
        let y = y0 + pad + i as i64 * row_h;
        let mid = Vec2::new(
            (x0 + pad) as f32 + swatch_w as f32 / 2.0,
            (y + 3 * s) as f32 + 0.5,
        );
        match *swatch {
            Swatch::Line(c, width) => draw.segment(
                Vec2::new((x0 + pad) as f32, mid.y),
                Vec2::new((x0 + pad + swatch_w) as f32, mid.y),
                width,
                c,
            ),
            Swatch::Dot(c, r) => draw.disc(mid, r, c),
            Swatch::Ring(c, r) => draw.ring(mid, r, 2.5, c),
        }
        font::draw_text(
            draw,
            x0 + 2 * pad + swatch_w,
            y,
            text,
            style.scale,
            style.ink,
        );
    }
}

/// A line of text on a light band along the top edge.
fn caption(draw: &mut Canvas<'_>, style: &Style, text: &str) {
    let s = style.scale as i64;
    let h = (font::HEIGHT as i64 + 6) * s;
    draw.blend_rect(0, 0, i64::from(draw.size), h, style.paper, 0.85);
    font::draw_text(draw, 6 * s, 3 * s, text, style.scale, style.ink);
}
