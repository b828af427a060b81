//! Software renderer: a two-hemisphere globe view and a close-up of the mesh structure.
//!
//! No polygons are rasterised. A pixel's colour is the colour of the Voronoi cell it falls in,
//! i.e. of the nearest site on the sphere, found by a greedy walk over the Delaunay neighbours
//! that starts at the site of the previous sample. On a spherical Delaunay triangulation the
//! greedy walk always ends at the nearest site (if `v` is not the nearest site to `p`, the arc
//! from `v` to `p` leaves the cell of `v` through the cell of a neighbour that is closer to
//! `p`), and consecutive samples are close, so a sample costs one ring scan on average.

use crate::ExportError;
use crate::common::{check_inputs, check_len};
use crate::image::Image;
use glam::{Vec2, Vec3, Vec3A};
use quadedge::{Face, Mesh, Vertex};
use std::sync::Mutex;

/// Which pairs of neighbouring cells get a border line between them.
#[derive(Clone, Copy, Default)]
pub enum Borders<'a> {
    /// No border lines.
    #[default]
    None,
    /// One region id per vertex slot; a line is drawn where the ids of two cells differ.
    Regions(&'a [u32]),
    /// Any rule: `true` if the two (neighbouring) vertices are in different regions.
    /// Called once per mesh edge and direction before rendering, not per pixel.
    Custom(&'a dyn Fn(Vertex, Vertex) -> bool),
}

impl std::fmt::Debug for Borders<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Borders::None => f.write_str("None"),
            Borders::Regions(r) => write!(f, "Regions({} ids)", r.len()),
            Borders::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl<'a> From<&'a [u32]> for Borders<'a> {
    fn from(regions: &'a [u32]) -> Self {
        Borders::Regions(regions)
    }
}

/// Settings for [`render_globe`].
#[derive(Clone, Debug)]
pub struct GlobeOptions {
    /// Image width in pixels (both hemispheres); default 2048.
    pub width: u32,
    /// Image height in pixels; default 1024.
    pub height: u32,
    /// Samples per pixel along each axis (`n × n` per pixel); default 4 (16 samples). 1..=16.
    pub samples: u32,
    /// Direction from the globe's centre to the centre of the left (front) disc; the right
    /// disc shows the opposite hemisphere, as if one had walked round the globe.
    /// Default `+X` (longitude 0 for a Z-up world).
    pub view: Vec3,
    /// The world's up direction, drawn upwards in both discs; default `+Z`.
    pub up: Vec3,
    /// Light direction in view space (`x` right, `y` up, `z` towards the viewer); default from
    /// the upper left front.
    pub light: Vec3,
    /// Light that reaches surfaces facing away from the light, `0..=1`; default 0.25.
    pub ambient: f32,
    /// Width of region borders in pixels at the disc centre; default 1.5.
    pub border_width: f32,
    /// Border colour; default near black.
    pub border_color: [u8; 3],
    /// Background colour; default dark blue-grey.
    pub background: [u8; 3],
    /// Free space around each disc as a fraction of its half-cell; default 0.04.
    pub margin: f32,
    /// Worker threads; 0 = one per available core.
    pub threads: usize,
}

impl Default for GlobeOptions {
    fn default() -> Self {
        Self {
            width: 2048,
            height: 1024,
            samples: 4,
            view: Vec3::X,
            up: Vec3::Z,
            light: Vec3::new(-0.45, 0.55, 0.7),
            ambient: 0.25,
            border_width: 1.5,
            border_color: [20, 20, 24],
            background: [16, 18, 28],
            margin: 0.04,
            threads: 0,
        }
    }
}

/// Settings for [`render_mesh_closeup_with`].
#[derive(Clone, Debug)]
pub struct CloseupOptions {
    /// Width and height of the square image; default 1024.
    pub size: u32,
    /// Samples per pixel along each axis for the cell fill; default 3.
    pub samples: u32,
    /// Fill cells with their (lightened) colour, or a pastel per vertex when no colours are
    /// given; `false` leaves the background; default `true`.
    pub fill_cells: bool,
    /// Delaunay edge colour; default blue.
    pub delaunay_color: [u8; 3],
    /// Voronoi edge colour; default red.
    pub voronoi_color: [u8; 3],
    /// Site (vertex) dot colour; default near black.
    pub site_color: [u8; 3],
    /// Background; default white.
    pub background: [u8; 3],
    /// Line width in pixels; default 1.5.
    pub line_width: f32,
    /// Site dot radius in pixels (0 = none); default 2.5.
    pub site_radius: f32,
}

impl Default for CloseupOptions {
    fn default() -> Self {
        Self {
            size: 1024,
            samples: 3,
            fill_cells: true,
            delaunay_color: [30, 80, 200],
            voronoi_color: [200, 30, 30],
            site_color: [15, 15, 15],
            background: [255, 255, 255],
            line_width: 1.5,
            site_radius: 2.5,
        }
    }
}

// ------------------------------------------------------------------ colour space

/// sRGB byte → linear light, as a table (blending and averaging must happen in linear light,
/// or anti-aliased edges look too dark and thin lines too thick).
pub(crate) fn srgb_to_linear_table() -> [f32; 256] {
    let mut t = [0.0; 256];
    for (i, x) in t.iter_mut().enumerate() {
        let c = i as f32 / 255.0;
        *x = if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        };
    }
    t
}

fn linear_to_srgb(x: f32) -> u8 {
    let x = x.clamp(0.0, 1.0);
    let c = if x <= 0.003_130_8 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0 + 0.5) as u8
}

fn to_linear(lut: &[f32; 256], c: [u8; 3]) -> Vec3 {
    Vec3::new(lut[c[0] as usize], lut[c[1] as usize], lut[c[2] as usize])
}

fn store(out: &mut [u8], c: Vec3) {
    out[0] = linear_to_srgb(c.x);
    out[1] = linear_to_srgb(c.y);
    out[2] = linear_to_srgb(c.z);
}

// ------------------------------------------------------------------ nearest-site search

const BORDER_BIT: u32 = 1 << 31;

/// Unit site directions and a compressed adjacency (CSR) copied out of the mesh once, so that
/// the per-sample walk reads two flat arrays instead of chasing quad-edge rings.
struct Sites {
    dirs: Vec<Vec3A>,
    offsets: Vec<u32>,
    /// Neighbour ids; [`BORDER_BIT`] set where a border runs between the two cells.
    nbrs: Vec<u32>,
    /// Parallel to `nbrs`: index into `segs` for border entries.
    seg_of: Vec<u32>,
    /// The Voronoi edges that are borders.
    segs: Vec<Seg>,
    /// A live vertex with neighbours, where walks without a better hint begin.
    start: u32,
}

/// A Voronoi edge: an arc of the bisector great circle (normal `plane`) between two
/// circumcentres, with the normals of the two planes that bound the arc's wedge.
struct Seg {
    plane: Vec3A,
    a: Vec3A,
    b: Vec3A,
    na: Vec3A,
    nb: Vec3A,
    /// No end points (an edge on a mesh boundary): the whole bisector counts.
    open: bool,
}

impl Seg {
    fn new(plane: Vec3A, a: Vec3A, b: Vec3A) -> Self {
        let (mut na, mut nb) = (plane.cross(a), plane.cross(b));
        if (a - b).length_squared() < 1e-14 {
            // A zero-length edge (cocircular sites): only the end point counts.
            (na, nb) = (Vec3A::ZERO, Vec3A::ZERO);
        } else {
            if na.dot(b) < 0.0 {
                na = -na;
            }
            if nb.dot(a) < 0.0 {
                nb = -nb;
            }
        }
        Self {
            plane,
            a,
            b,
            na,
            nb,
            open: false,
        }
    }

    /// Chord distance from unit vector `p` to the arc: to the great circle where `p` lies in
    /// the arc's wedge, else to the nearer end. Measuring to the arc rather than the whole
    /// bisector keeps lines from overshooting at corners where a border meets a non-border.
    #[inline]
    fn distance(&self, p: Vec3A) -> f32 {
        if self.open || (p.dot(self.na) > 0.0 && p.dot(self.nb) > 0.0) {
            self.plane.dot(p).abs()
        } else {
            (p - self.a).length().min((p - self.b).length())
        }
    }
}

impl Sites {
    fn new(mesh: &Mesh, positions: &[Vec3], border: &dyn Fn(Vertex, Vertex) -> bool) -> Self {
        let slots = mesh.vertex_slots();
        let dirs: Vec<Vec3A> = positions
            .iter()
            .map(|&p| Vec3A::from(p).normalize_or_zero())
            .collect();
        let circumcenter_of = |f: Face| {
            let [a, b, c] = mesh.face_vertices(f).map(|v| dirs[v.index()]);
            circumcenter(a, b, c)
        };
        let mut offsets = Vec::with_capacity(slots + 1);
        let mut nbrs = Vec::with_capacity(6 * slots);
        let mut seg_of = Vec::with_capacity(6 * slots);
        let mut segs = Vec::new();
        let mut start = None;
        offsets.push(0);
        for i in 0..slots {
            let v = Vertex::new(i as u32);
            if mesh.is_vertex_alive(v) {
                for e in mesh.outgoing(v) {
                    let n = mesh.dest(e);
                    let (l, r) = (mesh.left(e), mesh.right(e));
                    if border(v, n) {
                        let plane = (dirs[v.index()] - dirs[n.index()]).normalize_or_zero();
                        let seg = if l.is_valid() && r.is_valid() {
                            Seg::new(plane, circumcenter_of(l), circumcenter_of(r))
                        } else {
                            // On a mesh boundary the edge is open-ended: use the bisector.
                            Seg {
                                open: true,
                                ..Seg::new(plane, Vec3A::ZERO, Vec3A::ZERO)
                            }
                        };
                        seg_of.push(segs.len() as u32);
                        segs.push(seg);
                        nbrs.push(n.raw() | BORDER_BIT);
                    } else {
                        seg_of.push(u32::MAX);
                        nbrs.push(n.raw());
                    }
                }
                if start.is_none() && nbrs.len() > *offsets.last().unwrap_or(&0) as usize {
                    start = Some(i as u32);
                }
            }
            offsets.push(nbrs.len() as u32);
        }
        Self {
            dirs,
            offsets,
            nbrs,
            seg_of,
            segs,
            start: start.unwrap_or(0),
        }
    }

    #[inline]
    fn ring(&self, v: u32) -> &[u32] {
        let (a, b) = (self.offsets[v as usize], self.offsets[v as usize + 1]);
        &self.nbrs[a as usize..b as usize]
    }

    /// The site nearest to unit vector `p`, by steepest ascent of `dot(p, site)` from `v`.
    /// Terminates because the dot product strictly increases.
    #[inline]
    fn walk(&self, mut v: u32, p: Vec3A) -> u32 {
        let mut best = self.dirs[v as usize].dot(p);
        loop {
            let mut next = v;
            for &n in self.ring(v) {
                let n = n & !BORDER_BIT;
                let d = self.dirs[n as usize].dot(p);
                if d > best {
                    best = d;
                    next = n;
                }
            }
            if next == v {
                return v;
            }
            v = next;
        }
    }

    /// Distance (chord units on the unit sphere) from `p`, which lies in the cell of `v`, to
    /// the nearest Voronoi edge of that cell that is a border; `INFINITY` if none.
    #[inline]
    fn border_distance(&self, v: u32, p: Vec3A) -> f32 {
        let (a, b) = (self.offsets[v as usize], self.offsets[v as usize + 1]);
        let mut best = f32::INFINITY;
        for k in a as usize..b as usize {
            if self.nbrs[k] & BORDER_BIT != 0 {
                best = best.min(self.segs[self.seg_of[k] as usize].distance(p));
            }
        }
        best
    }
}

fn border_rule<'a>(
    mesh: &Mesh,
    borders: Borders<'a>,
) -> Result<Box<dyn Fn(Vertex, Vertex) -> bool + 'a>, ExportError> {
    Ok(match borders {
        Borders::None => Box::new(|_, _| false),
        Borders::Regions(r) => {
            check_len("regions", mesh, r.len())?;
            Box::new(move |a: Vertex, b: Vertex| r[a.index()] != r[b.index()])
        }
        Borders::Custom(f) => Box::new(f),
    })
}

fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        requested
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Runs `f(first_row, rows)` over bands of rows on a few threads. Bands are handed out from a
/// shared queue because the rows through the middle of the discs cost more than the others.
fn par_bands(rgb: &mut [u8], width: u32, threads: usize, f: &(dyn Fn(u32, &mut [u8]) + Sync)) {
    const BAND: usize = 8;
    let row_bytes = 3 * width as usize;
    let queue = Mutex::new(rgb.chunks_mut(BAND * row_bytes).enumerate());
    let work = || {
        loop {
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((band, rows)) = next else { break };
            f((band * BAND) as u32, rows);
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
}

fn check_samples(samples: u32) -> Result<(), ExportError> {
    if (1..=16).contains(&samples) {
        Ok(())
    } else {
        Err(ExportError::InvalidOption {
            name: "samples",
            reason: "must be 1..=16 per axis",
        })
    }
}

fn check_size(width: u32, height: u32) -> Result<(), ExportError> {
    if width == 0 || height == 0 {
        return Err(ExportError::InvalidOption {
            name: "width/height",
            reason: "must be at least 1",
        });
    }
    if width as u64 * height as u64 > 1 << 28 {
        return Err(ExportError::InvalidOption {
            name: "width/height",
            reason: "more than 2^28 pixels",
        });
    }
    Ok(())
}

/// An orthonormal frame `(right, up, forward)` looking along `-forward` at `view`.
fn frame(view: Vec3, up: Vec3) -> Result<(Vec3, Vec3, Vec3), ExportError> {
    let fwd = view.try_normalize().ok_or(ExportError::InvalidOption {
        name: "view",
        reason: "must be a finite non-zero vector",
    })?;
    // An up parallel to the view has no meaning; any perpendicular one will do.
    let right = up
        .cross(fwd)
        .try_normalize()
        .or_else(|| Vec3::Z.cross(fwd).try_normalize())
        .or_else(|| Vec3::X.cross(fwd).try_normalize())
        .unwrap_or(Vec3::Y);
    Ok((right, fwd.cross(right), fwd))
}

// ------------------------------------------------------------------ globe

/// Renders the globe as two orthographic hemispheres side by side: the one centred on
/// `options.view` on the left, the opposite one on the right.
///
/// Each pixel averages `samples²` samples (in linear light); each sample takes the colour of
/// the Voronoi cell it falls in (`colors`, one per vertex slot), or `border_color` within
/// `border_width / 2` pixels of a bisector between two cells that [`Borders`] separates, and
/// is Lambert-shaded. Positions are projected onto the unit sphere (only directions matter),
/// so relief does not distort the picture.
///
/// The mesh should be a Delaunay triangulation of the sphere (as the world's mesh is); on other
/// meshes the greedy walk may stop at a site that is only locally nearest.
///
/// ```
/// use glam::Vec3;
/// use export::render::{Borders, GlobeOptions, render_globe};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let colors = [[200, 60, 60], [60, 200, 60], [60, 60, 200], [200, 200, 60], [240; 3], [90; 3]];
/// let regions = [0, 1, 0, 1, 2, 2];
/// let opts = GlobeOptions { width: 256, height: 128, ..Default::default() };
/// let img = render_globe(&mesh, &pos, &colors, Borders::Regions(&regions), &opts)?;
/// assert_eq!((img.width, img.height), (256, 128));
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn render_globe(
    mesh: &Mesh,
    positions: &[Vec3],
    colors: &[[u8; 3]],
    borders: Borders<'_>,
    options: &GlobeOptions,
) -> Result<Image, ExportError> {
    check_inputs(mesh, positions, Some(colors))?;
    check_size(options.width, options.height)?;
    if options.width < 2 {
        return Err(ExportError::InvalidOption {
            name: "width",
            reason: "two hemispheres need at least 2 pixels",
        });
    }
    check_samples(options.samples)?;
    if !(options.border_width.is_finite() && options.border_width >= 0.0) {
        return Err(ExportError::InvalidOption {
            name: "border_width",
            reason: "must be finite and not negative",
        });
    }
    if !(0.0..0.5).contains(&options.margin) {
        return Err(ExportError::InvalidOption {
            name: "margin",
            reason: "must be within 0..0.5",
        });
    }
    let (right, up, fwd) = frame(options.view, options.up)?;
    let light = options.light.try_normalize().unwrap_or(Vec3::Z);
    let ambient = options.ambient.clamp(0.0, 1.0);
    let rule = border_rule(mesh, borders)?;
    let sites = Sites::new(mesh, positions, &*rule);
    drop(rule);

    let lut = srgb_to_linear_table();
    let lin: Vec<Vec3> = colors.iter().map(|&c| to_linear(&lut, c)).collect();
    let border_lin = to_linear(&lut, options.border_color);
    let bg = to_linear(&lut, options.background);

    let (w, h) = (options.width, options.height);
    let radius = (w as f32 / 2.0).min(h as f32) / 2.0 * (1.0 - 2.0 * options.margin);
    let centers = [
        Vec2::new(w as f32 / 4.0, h as f32 / 2.0),
        Vec2::new(3.0 * w as f32 / 4.0, h as f32 / 2.0),
    ];
    // The back view: turned half way round the up axis.
    let bases = [(right, fwd), (-right, -fwd)];
    let s = options.samples;
    let inv_s = 1.0 / s as f32;
    let weight = 1.0 / (s * s) as f32;
    let half_border = 0.5 * options.border_width / radius;
    let draw_borders = half_border > 0.0;

    let mut img = Image::new(w, h, options.background);
    let render_band = |y0: u32, rows: &mut [u8]| {
        // Per hemisphere: the site of the latest sample, and of the first sample of the row.
        let mut row_hint = [sites.start; 2];
        for (dy, row) in rows.chunks_mut(3 * w as usize).enumerate() {
            let y = y0 + dy as u32;
            let mut hint = row_hint;
            let mut first = [true; 2];
            for x in 0..w {
                let hemi = usize::from(x >= w / 2);
                let c = centers[hemi];
                let (r_h, f_h) = bases[hemi];
                let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - c;
                if d.length_squared() > (radius + 1.0) * (radius + 1.0) {
                    continue; // background, already filled
                }
                let mut acc = Vec3::ZERO;
                for j in 0..s {
                    for i in 0..s {
                        let sx = (x as f32 + (i as f32 + 0.5) * inv_s - c.x) / radius;
                        let sy = -(y as f32 + (j as f32 + 0.5) * inv_s - c.y) / radius;
                        let r2 = sx * sx + sy * sy;
                        if r2 >= 1.0 {
                            acc += bg;
                            continue;
                        }
                        let z = (1.0 - r2).sqrt();
                        let p = Vec3A::from(sx * r_h + sy * up + z * f_h);
                        let v = sites.walk(hint[hemi], p);
                        hint[hemi] = v;
                        if first[hemi] {
                            first[hemi] = false;
                            row_hint[hemi] = v;
                        }
                        let base = if draw_borders && sites.border_distance(v, p) < half_border {
                            border_lin
                        } else {
                            lin[v as usize]
                        };
                        let lambert = Vec3::new(sx, sy, z).dot(light).max(0.0);
                        acc += base * (ambient + (1.0 - ambient) * lambert);
                    }
                }
                let o = 3 * x as usize;
                store(&mut row[o..o + 3], acc * weight);
            }
        }
    };
    par_bands(&mut img.rgb, w, thread_count(options.threads), &render_band);
    Ok(img)
}

// ------------------------------------------------------------------ close-up

/// The circumcentre of a spherical triangle: the Voronoi corner it stands for. The normal of
/// the plane through the three points, oriented outwards by the counter-clockwise winding.
fn circumcenter(a: Vec3A, b: Vec3A, c: Vec3A) -> Vec3A {
    (b - a)
        .cross(c - a)
        .try_normalize()
        .unwrap_or_else(|| (a + b + c).normalize_or_zero())
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

/// A close-up of the mesh around `center`: Delaunay triangles (blue), Voronoi cells (red
/// edges between circumcentres, pastel fill) and sites (dots), with default styling.
/// See [`render_mesh_closeup_with`].
pub fn render_mesh_closeup(
    mesh: &Mesh,
    positions: &[Vec3],
    center: Vec3,
    angular_radius: f32,
    size: u32,
) -> Result<Image, ExportError> {
    let options = CloseupOptions {
        size,
        ..Default::default()
    };
    render_mesh_closeup_with(mesh, positions, None, center, angular_radius, &options)
}

/// A close-up of the mesh in gnomonic projection centred on `center`, showing `angular_radius`
/// radians (less than 1.4) from the centre to the middle of each image side.
///
/// Gnomonic projection maps great circles to straight lines, so Delaunay edges and Voronoi
/// edges (arcs between the circumcentres of adjacent triangles) are drawn exactly as straight,
/// anti-aliased segments. Cells are filled with `colors` (lightened, so the lines stay
/// visible) or a pastel per vertex.
///
/// ```
/// use glam::Vec3;
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let img = export::render::render_mesh_closeup(&mesh, &pos, Vec3::ONE, 1.0, 200)?;
/// assert_eq!((img.width, img.height), (200, 200));
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn render_mesh_closeup_with(
    mesh: &Mesh,
    positions: &[Vec3],
    colors: Option<&[[u8; 3]]>,
    center: Vec3,
    angular_radius: f32,
    options: &CloseupOptions,
) -> Result<Image, ExportError> {
    check_inputs(mesh, positions, colors)?;
    check_size(options.size, options.size)?;
    check_samples(options.samples)?;
    if !(angular_radius > 1e-6 && angular_radius < 1.4) {
        return Err(ExportError::InvalidOption {
            name: "angular_radius",
            reason: "must be within (0, 1.4) radians",
        });
    }
    let usable = |x: f32| x.is_finite() && x >= 0.0;
    if !(usable(options.line_width) && usable(options.site_radius)) {
        return Err(ExportError::InvalidOption {
            name: "line_width/site_radius",
            reason: "must be finite and not negative",
        });
    }
    let up_hint = if center.normalize_or_zero().z.abs() > 0.99 {
        Vec3::Y
    } else {
        Vec3::Z
    };
    let (right, up, fwd) = frame(center, up_hint).map_err(|_| ExportError::InvalidOption {
        name: "center",
        reason: "must be a finite non-zero vector",
    })?;
    let size = options.size;
    let half = size as f32 / 2.0;
    let scale = half / angular_radius.tan();
    // Only points this far in front of the tangent plane are drawn: the projection blows up
    // towards the horizon, and everything visible is well inside this bound.
    let min_depth = (angular_radius * 2.0).min(1.5).cos().max(0.05);
    let project = |p: Vec3A| -> Option<Vec2> {
        let p = Vec3::from(p);
        let d = p.dot(fwd);
        (d > min_depth).then(|| {
            Vec2::new(
                half + scale * p.dot(right) / d,
                half - scale * p.dot(up) / d,
            )
        })
    };

    let lut = srgb_to_linear_table();
    let sites = Sites::new(mesh, positions, &|_, _| false);
    let mut canvas = vec![to_linear(&lut, options.background); size as usize * size as usize];

    if options.fill_cells {
        let white = Vec3::ONE;
        let cell = |v: u32| -> Vec3 {
            match colors {
                Some(c) => to_linear(&lut, c[v as usize]).lerp(white, 0.45),
                None => to_linear(&lut, pastel(v)),
            }
        };
        let s = options.samples;
        let inv_s = 1.0 / s as f32;
        let weight = 1.0 / (s * s) as f32;
        let start = sites.walk(sites.start, Vec3A::from(fwd));
        let mut hint = start;
        for y in 0..size {
            let mut row_first = None;
            for x in 0..size {
                let mut acc = Vec3::ZERO;
                for j in 0..s {
                    for i in 0..s {
                        let tx = (x as f32 + (i as f32 + 0.5) * inv_s - half) / scale;
                        let ty = -(y as f32 + (j as f32 + 0.5) * inv_s - half) / scale;
                        let p = Vec3A::from(fwd + tx * right + ty * up).normalize();
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

    let mut draw = Canvas {
        px: &mut canvas,
        size,
    };
    let voronoi = to_linear(&lut, options.voronoi_color);
    let delaunay = to_linear(&lut, options.delaunay_color);
    let lw = options.line_width;
    if lw > 0.0 {
        let cc: Vec<Vec3A> = (0..mesh.face_slots())
            .map(|i| {
                let f = Face::new(i as u32);
                if mesh.is_face_alive(f) {
                    let [a, b, c] = mesh.face_vertices(f).map(|v| sites.dirs[v.index()]);
                    circumcenter(a, b, c)
                } else {
                    Vec3A::ZERO
                }
            })
            .collect();
        for e in mesh.undirected_edges() {
            let (l, r) = (mesh.left(e), mesh.right(e));
            if !(l.is_valid() && r.is_valid()) {
                continue;
            }
            if let (Some(a), Some(b)) = (project(cc[l.index()]), project(cc[r.index()])) {
                draw.segment(a, b, lw, voronoi);
            }
        }
        for e in mesh.undirected_edges() {
            let (a, b) = (mesh.origin(e), mesh.dest(e));
            if let (Some(a), Some(b)) = (
                project(sites.dirs[a.index()]),
                project(sites.dirs[b.index()]),
            ) {
                draw.segment(a, b, lw, delaunay);
            }
        }
    }
    if options.site_radius > 0.0 {
        let dot = to_linear(&lut, options.site_color);
        for v in mesh.vertices() {
            if let Some(p) = project(sites.dirs[v.index()]) {
                draw.disc(p, options.site_radius, dot);
            }
        }
    }

    let mut img = Image::new(size, size, options.background);
    for (out, c) in img.rgb.chunks_mut(3).zip(&canvas) {
        store(out, *c);
    }
    Ok(img)
}

/// A linear-light canvas with anti-aliased primitives: each pixel is blended with the
/// coverage estimated from its centre's distance to the shape (a one-pixel ramp).
struct Canvas<'a> {
    px: &'a mut [Vec3],
    size: u32,
}

impl Canvas<'_> {
    fn cover(&mut self, lo: Vec2, hi: Vec2, color: Vec3, coverage: impl Fn(Vec2) -> f32) {
        let max = self.size as f32 - 1.0;
        if !(lo.x <= max && lo.y <= max && hi.x >= 0.0 && hi.y >= 0.0) {
            return;
        }
        let (x0, y0) = (lo.x.max(0.0) as u32, lo.y.max(0.0) as u32);
        let (x1, y1) = (hi.x.min(max) as u32, hi.y.min(max) as u32);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let a = coverage(Vec2::new(x as f32 + 0.5, y as f32 + 0.5));
                if a > 0.0 {
                    let p = &mut self.px[(y * self.size + x) as usize];
                    *p = p.lerp(color, a.min(1.0));
                }
            }
        }
    }

    fn segment(&mut self, a: Vec2, b: Vec2, width: f32, color: Vec3) {
        let pad = Vec2::splat(width / 2.0 + 1.0);
        let ab = b - a;
        let len2 = ab.length_squared().max(1e-12);
        self.cover(a.min(b) - pad, a.max(b) + pad, color, |q| {
            let t = ((q - a).dot(ab) / len2).clamp(0.0, 1.0);
            let d = (q - (a + t * ab)).length();
            (width / 2.0 + 0.5 - d).clamp(0.0, 1.0)
        });
    }

    fn disc(&mut self, c: Vec2, r: f32, color: Vec3) {
        let pad = Vec2::splat(r + 1.0);
        self.cover(c - pad, c + pad, color, |q| {
            (r + 0.5 - (q - c).length()).clamp(0.0, 1.0)
        });
    }
}

#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod common;

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(state: &mut u64) -> f32 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    #[test]
    fn greedy_walk_finds_the_nearest_site() {
        let (mesh, pos) = common::icosphere(3);
        let sites = Sites::new(&mesh, &pos, &|_, _| false);
        let mut rng = 7u64;
        for k in 0..2000 {
            let p = Vec3A::new(lcg(&mut rng), lcg(&mut rng), lcg(&mut rng)).normalize_or(Vec3A::X);
            let from = (k * 37 % pos.len()) as u32;
            let v = sites.walk(from, p);
            let best = sites.dirs.iter().map(|d| d.dot(p)).fold(f32::MIN, f32::max);
            assert!(sites.dirs[v as usize].dot(p) >= best - 1e-6, "sample {k}");
        }
    }

    #[test]
    fn border_distance_is_zero_on_the_bisector_and_grows_inside() {
        let (mesh, pos) = common::icosphere(2);
        let sites = Sites::new(&mesh, &pos, &|a, b| a.raw() < b.raw());
        let v = 0u32;
        let n = sites.ring(v)[0] & !BORDER_BIT;
        let (dv, dn) = (sites.dirs[v as usize], sites.dirs[n as usize]);
        let mid = (dv + dn).normalize();
        assert!(sites.border_distance(v, mid) < 1e-5);
        assert!(sites.border_distance(v, dv) > 0.05);
    }

    #[test]
    fn colour_conversion_round_trips_every_byte() {
        let lut = srgb_to_linear_table();
        for i in 0..=255u8 {
            assert_eq!(linear_to_srgb(lut[i as usize]), i);
        }
    }
}
