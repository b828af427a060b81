//! The browser viewer's files (`cargo xtask view`): a mesh with named per-vertex layers and
//! optional per-step frames, as raw little-endian arrays the page maps straight into typed
//! arrays, described by a small JSON manifest.
//!
//! * `manifest.json`: counts, byte offsets, each layer's name, kind (`scalar` `f32` or
//!   `categorical` `u32`, where `u32::MAX` means "none"), unit, range and colour scale, and
//!   the frames.
//! * `mesh.bin`: positions (`f32 × 3`), triangles (`u32 × 3`, counter-clockwise from
//!   outside), the caller's vertex ids (`u32`), the optional coarse triangles (`u32 × 3`,
//!   drawn while the planet is small on screen), then every layer.
//! * `frames.bin` (only with frames): per frame, the frame's layers in manifest order. It is
//!   separate so that the page draws the planet before fetching the history.
//!
//! Size: `40 + 4·L` bytes per vertex for the mesh with `L` layers (positions 12, ids 4,
//! triangles `2·12` on a closed sphere) plus `4·Lf` per vertex and frame: 100,000 vertices
//! with four layers and 20 frames of two layers are 21.6 MB, within the budget that
//! [`budget_bytes`] states (40 MB at that size).

use crate::ExportError;
use crate::common::{Compact, put, write_file};
use glam::Vec3;
use manifest::manifest;
use quadedge::{Topology, Vertex};
use std::path::{Path, PathBuf};

/// How a scalar layer is coloured by the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// A perceptually uniform ramp over the layer's range (viridis).
    Sequential,
    /// Blues below `sea_level`, greens, browns and white above (elevations).
    Terrain {
        /// The value where water ends.
        sea_level: f32,
    },
}

/// The values of one layer, one per vertex of the view mesh.
#[derive(Clone, Copy, Debug)]
pub enum Values<'a> {
    /// Measured quantities, drawn through a colour ramp.
    Scalar(&'a [f32], Scale),
    /// Classes (plate id, biome), drawn with one colour each; `u32::MAX` is "none".
    Categorical(&'a [u32]),
    /// Classes with names (and optionally colours): value `k` is `classes[k]`, shown by its
    /// name when clicked and in the legend; values past the list show as numbers, `u32::MAX`
    /// is "none". Frames may carry such a layer as plain [`Values::Categorical`]: the names
    /// are the mesh layer's.
    Named(&'a [u32], &'a [Class<'a>]),
}

/// One named class of a [`Values::Named`] layer (crust type, biome).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Class<'a> {
    /// Shown instead of the number: 1 to 64 printable characters.
    pub name: &'a str,
    /// Its colour (sRGB), or `None` for the page's colour of that number.
    pub color: Option<[u8; 3]>,
}

/// Most classes of one [`Values::Named`] layer.
pub const MAX_CLASSES: usize = 4096;

impl Values<'_> {
    fn len(&self) -> usize {
        match self {
            Values::Scalar(v, _) => v.len(),
            Values::Categorical(v) | Values::Named(v, _) => v.len(),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Values::Scalar(..) => "scalar",
            Values::Categorical(_) | Values::Named(..) => "categorical",
        }
    }

    fn bytes(&self, out: &mut Vec<u8>) {
        match self {
            Values::Scalar(v, _) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
            Values::Categorical(v) | Values::Named(v, _) => {
                v.iter().for_each(|x| out.extend(x.to_le_bytes()));
            }
        }
    }
}

/// A named per-vertex layer.
#[derive(Clone, Copy, Debug)]
pub struct Layer<'a> {
    /// Shown in the layer picker; unique, 1 to 64 characters.
    pub name: &'a str,
    /// Unit shown with values and legend (`"m"`, `"hops"`, `""`).
    pub unit: &'a str,
    /// One value per view vertex.
    pub values: Values<'a>,
}

/// The state after one simulation step: some of the mesh's layers (same names and kinds),
/// resampled onto the view mesh.
#[derive(Clone, Debug)]
pub struct Frame<'a> {
    /// The step number shown by the time slider.
    pub step: u32,
    /// Layers of this frame; every frame carries the same names in the same order.
    pub layers: Vec<Layer<'a>>,
}

/// The viewer's input: a triangle mesh as plain slices.
#[derive(Clone, Copy, Debug)]
pub struct ViewData<'a> {
    /// Vertex positions (any radius; the page scales to the mean length).
    pub positions: &'a [Vec3],
    /// Vertex indices into `positions`, counter-clockwise seen from outside.
    pub triangles: &'a [[u32; 3]],
    /// The id a click reports for each vertex (e.g. the world's vertex id).
    pub ids: &'a [u32],
    /// Per-vertex layers.
    pub layers: &'a [Layer<'a>],
    /// Per-step frames, oldest first (may be empty).
    pub frames: &'a [Frame<'a>],
    /// The scalar layer the page raises the surface by, if any.
    pub relief: Option<Relief<'a>>,
    /// A coarser triangulation of a subset of the vertices (indices into `positions`) that the
    /// page draws while the whole planet is in view, where cells are smaller than a pixel;
    /// empty for none.
    pub coarse: &'a [[u32; 3]],
}

/// Which layer is relief, and its scale: position units per layer unit (`0.001` for
/// positions in km and elevations in m). The page multiplies it by its exaggeration slider.
#[derive(Clone, Copy, Debug)]
pub struct Relief<'a> {
    /// A scalar layer of the mesh (and of the frames, if they carry it).
    pub layer: &'a str,
    /// Position units per layer unit; finite and positive.
    pub scale: f32,
}

/// A mesh's live vertices and faces as the dense arrays [`ViewData`] takes.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewMesh {
    /// Positions of the live vertices, densely numbered.
    pub positions: Vec<Vec3>,
    /// Faces in dense indices.
    pub triangles: Vec<[u32; 3]>,
    /// Dense index → vertex slot.
    pub ids: Vec<u32>,
}

impl ViewMesh {
    /// Densely renumbers the live vertices of `mesh` (positions per vertex slot).
    ///
    /// # Errors
    /// [`ExportError::LengthMismatch`] when `positions` is not one per slot,
    /// [`ExportError::EmptyMesh`] without faces, [`ExportError::TooLarge`] past `i32` counts.
    pub fn new(mesh: &impl Topology, positions: &[Vec3]) -> Result<Self, ExportError> {
        crate::common::check_inputs(mesh, positions, None)?;
        let c = Compact::new(mesh)?;
        Ok(Self {
            positions: c.live.iter().map(|v| positions[v.index()]).collect(),
            triangles: mesh.faces().map(|f| c.face(mesh, f)).collect(),
            ids: c.live.iter().map(|v| v.index() as u32).collect(),
        })
    }

    /// The input of [`write_view`] for this mesh with `layers` and `frames` (no relief, no
    /// coarse mesh: set those with struct update syntax).
    pub fn data<'a>(&'a self, layers: &'a [Layer<'a>], frames: &'a [Frame<'a>]) -> ViewData<'a> {
        ViewData {
            positions: &self.positions,
            triangles: &self.triangles,
            ids: &self.ids,
            layers,
            frames,
            relief: None,
            coarse: &[],
        }
    }

    /// A per-slot array gathered onto the dense vertices (`None` when its length is not one
    /// per slot of the mesh this was built from).
    pub fn gather<T: Copy>(&self, per_slot: &[T]) -> Option<Vec<T>> {
        let max = self.ids.iter().max().copied().unwrap_or(0) as usize;
        (per_slot.len() > max).then(|| self.ids.iter().map(|&i| per_slot[i as usize]).collect())
    }
}

/// The size budget of the view files for `vertices` and `frames` (4 layers, 2 per frame, plus
/// a margin): 200 bytes per vertex plus 10 per vertex and frame; 40 MB at 100,000 vertices
/// and 20 frames.
pub fn budget_bytes(vertices: usize, frames: usize) -> u64 {
    vertices as u64 * (200 + 10 * frames as u64)
}

/// Most layers and frames (the page keeps them all in memory).
pub const MAX_LAYERS: usize = 64;
/// See [`MAX_LAYERS`].
pub const MAX_FRAMES: usize = 1000;

/// The files written by [`write_view`].
#[derive(Clone, Debug, PartialEq)]
pub struct ViewFiles {
    /// `manifest.json`, `mesh.bin` and, with frames, `frames.bin`.
    pub files: Vec<PathBuf>,
    /// Their total size in bytes.
    pub bytes: u64,
}

/// Writes `manifest.json`, `mesh.bin` and (with frames) `frames.bin` into `dir` (created if
/// missing); each file is written atomically, the old manifest removed first and the new one
/// written last, so a page never reads a manifest that describes other binaries. A stale
/// `frames.bin` is removed when there are no frames.
///
/// # Errors
/// [`ExportError::LengthMismatch`] for arrays of the wrong length, [`ExportError::InvalidOption`]
/// for a triangle index out of range, a bad or repeated layer name, a frame whose layers do
/// not match the mesh's, too many layers or frames; [`ExportError::NonFinitePosition`] /
/// [`ExportError::NonFiniteValue`] for NaN or infinite data (the vertex is the dense index);
/// [`ExportError::EmptyMesh`] without triangles; I/O errors naming the file.
pub fn write_view(dir: impl AsRef<Path>, data: &ViewData) -> Result<ViewFiles, ExportError> {
    let dir = dir.as_ref();
    check(data)?;
    std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    // The old manifest goes first: if a binary below fails, no manifest describes the
    // binaries left behind.
    let path = dir.join("manifest.json");
    if let Err(source) = std::fs::remove_file(&path)
        && source.kind() != std::io::ErrorKind::NotFound
    {
        return Err(ExportError::Io { path, source });
    }
    let (mesh_bin, sections) = mesh_bytes(data);
    let mut files = vec![dir.join("mesh.bin")];
    write_file(&files[0], |w| put(w, &mesh_bin))?;
    let frames = dir.join("frames.bin");
    let frame_size = if data.frames.is_empty() {
        if frames.exists() {
            std::fs::remove_file(&frames).map_err(|source| ExportError::Io {
                path: frames.clone(),
                source,
            })?;
        }
        0
    } else {
        let mut bytes = Vec::new();
        for f in data.frames {
            f.layers.iter().for_each(|l| l.values.bytes(&mut bytes));
        }
        write_file(&frames, |w| put(w, &bytes))?;
        files.push(frames);
        bytes.len() as u64 / data.frames.len() as u64
    };
    let json = manifest(data, &sections, frame_size);
    write_file(&path, |w| put(w, json.as_bytes()))?;
    files.push(path);
    let bytes = files
        .iter()
        .map(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0))
        .sum();
    Ok(ViewFiles { files, bytes })
}

fn invalid(name: &'static str, reason: &'static str) -> ExportError {
    ExportError::InvalidOption { name, reason }
}

fn check(data: &ViewData) -> Result<(), ExportError> {
    let n = data.positions.len();
    let mismatch = |what, got| ExportError::LengthMismatch {
        what,
        expected: n,
        got,
    };
    if data.triangles.is_empty() {
        return Err(ExportError::EmptyMesh);
    }
    if n >= i32::MAX as usize || data.triangles.len() >= (i32::MAX / 3) as usize {
        return Err(ExportError::TooLarge { what: "view mesh" });
    }
    if data.ids.len() != n {
        return Err(mismatch("ids", data.ids.len()));
    }
    if let Some(i) = data.positions.iter().position(|p| !p.is_finite()) {
        return Err(ExportError::NonFinitePosition {
            vertex: Vertex::new(i as u32),
        });
    }
    if data.triangles.iter().flatten().any(|&i| i as usize >= n) {
        return Err(invalid("triangles", "a vertex index is out of range"));
    }
    if data.coarse.iter().flatten().any(|&i| i as usize >= n) {
        return Err(invalid("coarse", "a vertex index is out of range"));
    }
    if data.coarse.len() > data.triangles.len() {
        return Err(invalid("coarse", "more coarse triangles than triangles"));
    }
    if data.layers.len() > MAX_LAYERS {
        return Err(invalid("layers", "more than MAX_LAYERS layers"));
    }
    if data.frames.len() > MAX_FRAMES {
        return Err(invalid("frames", "more than MAX_FRAMES frames"));
    }
    for (i, l) in data.layers.iter().enumerate() {
        let ok = (1..=64).contains(&l.name.chars().count()) && l.unit.chars().count() <= 16;
        if !ok || l.name.chars().chain(l.unit.chars()).any(char::is_control) {
            return Err(invalid(
                "layers",
                "names are 1-64 and units 0-16 printable chars",
            ));
        }
        if data.layers[..i].iter().any(|o| o.name == l.name) {
            return Err(invalid("layers", "two layers have the same name"));
        }
        check_values(&l.values, n)?;
    }
    if let Some(r) = data.relief {
        let scalar = data.layers.iter().find(|l| l.name == r.layer);
        if !scalar.is_some_and(|l| matches!(l.values, Values::Scalar(..))) {
            return Err(invalid("relief", "the relief layer is not a scalar layer"));
        }
        if !(r.scale.is_finite() && r.scale > 0.0) {
            return Err(invalid("relief", "the scale must be finite and positive"));
        }
    }
    for f in data.frames {
        if f.layers.len() != data.frames[0].layers.len() {
            return Err(invalid("frames", "frames carry different layers"));
        }
        for (k, l) in f.layers.iter().enumerate() {
            let first = &data.frames[0].layers[k];
            let base = data.layers.iter().find(|b| b.name == l.name);
            if l.name != first.name || base.is_none_or(|b| b.values.kind() != l.values.kind()) {
                return Err(invalid(
                    "frames",
                    "a frame layer is not a mesh layer of that kind",
                ));
            }
            check_values(&l.values, n)?;
        }
    }
    Ok(())
}

fn check_values(values: &Values, n: usize) -> Result<(), ExportError> {
    if values.len() != n {
        return Err(ExportError::LengthMismatch {
            what: "layer values",
            expected: n,
            got: values.len(),
        });
    }
    if let Values::Named(_, classes) = values {
        if classes.len() > MAX_CLASSES {
            return Err(invalid("classes", "more than MAX_CLASSES classes"));
        }
        let bad = |c: &Class| {
            !(1..=64).contains(&c.name.chars().count()) || c.name.chars().any(char::is_control)
        };
        if classes.iter().any(bad) {
            return Err(invalid("classes", "class names are 1-64 printable chars"));
        }
    }
    if let Values::Scalar(v, scale) = values {
        if let Some(i) = v.iter().position(|x| !x.is_finite()) {
            return Err(ExportError::NonFiniteValue {
                what: "layer values",
                vertex: Vertex::new(i as u32),
            });
        }
        if let Scale::Terrain { sea_level } = scale
            && !sea_level.is_finite()
        {
            return Err(invalid("sea_level", "must be finite"));
        }
    }
    Ok(())
}

/// Byte offsets of the sections of `mesh.bin`.
pub(crate) struct Sections {
    pub(crate) triangles: usize,
    pub(crate) ids: usize,
    pub(crate) coarse: usize,
    pub(crate) layers: Vec<usize>,
}

fn mesh_bytes(data: &ViewData) -> (Vec<u8>, Sections) {
    let n = data.positions.len();
    let size = n * (16 + 4 * data.layers.len()) + (data.triangles.len() + data.coarse.len()) * 12;
    let mut out = Vec::with_capacity(size);
    for p in data.positions {
        p.to_array()
            .iter()
            .for_each(|c| out.extend(c.to_le_bytes()));
    }
    let triangles = out.len();
    for i in data.triangles.iter().flatten() {
        out.extend(i.to_le_bytes());
    }
    let ids = out.len();
    data.ids.iter().for_each(|i| out.extend(i.to_le_bytes()));
    let coarse = out.len();
    for i in data.coarse.iter().flatten() {
        out.extend(i.to_le_bytes());
    }
    let mut layers = Vec::with_capacity(data.layers.len());
    for l in data.layers {
        layers.push(out.len());
        l.values.bytes(&mut out);
    }
    let sections = Sections {
        triangles,
        ids,
        coarse,
        layers,
    };
    (out, sections)
}

mod manifest;

#[cfg(test)]
#[path = "view_tests.rs"]
mod tests;
