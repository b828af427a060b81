//! glTF 2.0 binary (`.glb`): one file that web viewers, Blender and game engines load directly.
//!
//! Layout: a 12-byte header, a JSON chunk (padded with spaces to 4 bytes) and a BIN chunk
//! (padded with zeros) holding, in order, `POSITION`, `NORMAL`, optional `COLOR_0` (linear
//! `f32` RGB), an optional custom scalar attribute (`f32`, e.g. `_ELEVATION`) and `u32`
//! indices, each in its own buffer view at a 4-byte aligned offset.

use crate::ExportError;
use crate::common::{Compact, check_inputs, put, write_file};
use crate::heightmap::check_values;
use glam::Vec3;
use quadedge::Topology;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

const GLB_MAGIC: u32 = 0x4654_6C67; // "glTF"
const CHUNK_JSON: u32 = 0x4E4F_534A; // "JSON"
const CHUNK_BIN: u32 = 0x004E_4942; // "BIN\0"
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;

/// Writes `mesh` as a `.glb` file with the extras of `options`. See [`glb_bytes`] for the
/// content.
///
/// # Errors
/// As [`glb_bytes`], plus the file errors ([`ExportError::Io`] and the path checks).
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap();
/// # let dir = tmp.path();
/// use glam::Vec3;
/// use export::gltf::{GlbOptions, write_glb};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// write_glb(dir.join("octa.glb"), &mesh, &pos, &GlbOptions::default())?;
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn write_glb(
    path: impl AsRef<Path>,
    mesh: &impl Topology,
    positions: &[Vec3],
    options: &GlbOptions<'_>,
) -> Result<(), ExportError> {
    let bytes = glb_bytes(mesh, positions, options)?;
    write_file(path.as_ref(), |w| put(w, &bytes))
}

/// What goes into a `.glb` besides positions, normals and faces; the default adds nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct GlbOptions<'a> {
    /// sRGB colours, one per vertex slot, written as `COLOR_0`.
    pub colors: Option<&'a [[u8; 3]]>,
    /// A scalar layer, one value per vertex slot, written raw as a custom vertex attribute
    /// (`FLOAT`, `SCALAR`) under the given name, which must start with an underscore (glTF's
    /// rule for application-specific attributes) followed by 1 to 63 ASCII letters, digits or
    /// underscores, e.g. `_ELEVATION`. Blender imports it as a mesh attribute.
    pub scalar: Option<(&'a str, &'a [f32])>,
    /// Relief: each vertex moves along its direction from the centre by `relief * value`
    /// (the scalar's value, so an exaggeration factor in the scalar's units per unit of
    /// radius). Needs `scalar`.
    pub relief: Option<f32>,
}

impl<'a> GlbOptions<'a> {
    /// Only vertex colours.
    pub fn colors(colors: &'a [[u8; 3]]) -> Self {
        Self {
            colors: Some(colors),
            ..Self::default()
        }
    }
}

/// Writes a `.glb` to any writer. See [`glb_bytes`].
///
/// # Errors
/// As [`glb_bytes`], plus [`ExportError::Io`] from the writer.
pub fn write_glb_to<W: Write>(
    mut writer: W,
    mesh: &impl Topology,
    positions: &[Vec3],
    options: &GlbOptions<'_>,
) -> Result<(), ExportError> {
    let bytes = glb_bytes(mesh, positions, options)?;
    put(&mut writer, &bytes)?;
    writer.flush().map_err(crate::common::w_err)
}

/// Checks a custom attribute name: `_` then 1 to 63 of `[A-Za-z0-9_]` (it goes into the
/// JSON unescaped, so nothing else is allowed).
fn check_attribute_name(name: &str) -> Result<(), ExportError> {
    let bad = |reason| ExportError::InvalidOption {
        name: "scalar name",
        reason,
    };
    let Some(rest) = name.strip_prefix('_') else {
        return Err(bad("a custom glTF attribute name starts with '_'"));
    };
    if rest.is_empty() || rest.len() > 63 {
        return Err(bad("must have 1 to 63 characters after the '_'"));
    }
    if !rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(bad("only ASCII letters, digits and '_' are allowed"));
    }
    Ok(())
}

/// Builds the `.glb` file in memory.
///
/// * `POSITION`: the positions of the live vertices (renumbered densely), with the `min`/`max`
///   bounds glTF requires; moved by `relief` when set.
/// * `NORMAL`: area-weighted face normals summed per vertex, so that terrain relief is lit
///   correctly; a vertex without usable faces gets its normalised position (right for a
///   sphere centred at the origin).
/// * `COLOR_0` (when `colors` is given): the sRGB bytes converted to linear `f32` RGB, because
///   glTF vertex colours are linear and viewers would otherwise show them washed out.
/// * The scalar attribute (when `scalar` is given), raw.
/// * Indices: `u32`, counter-clockwise from outside (glTF's front-face convention).
/// * A matte (non-metallic, rough) material, since glTF's default material is fully metallic
///   and would render the planet nearly black.
///
/// # Errors
/// [`ExportError::EmptyMesh`] for a mesh without faces, [`ExportError::LengthMismatch`] for
/// positions or colours not one per vertex slot, [`ExportError::NonFinitePosition`] for a
/// position that is not finite on a live vertex; for the scalar,
/// [`ExportError::InvalidOption`] for a bad attribute name, [`ExportError::LengthMismatch`]
/// when it is not one value per vertex slot, [`ExportError::NonFiniteValue`] for a NaN or
/// infinite value on a live vertex; [`ExportError::InvalidOption`] for `relief` without a
/// scalar or not finite; [`ExportError::NonFinitePosition`] when relief pushes a vertex to
/// infinity; [`ExportError::TooLarge`] past glTF's 4 GiB.
///
/// ```
/// use glam::Vec3;
/// use export::gltf::{GlbOptions, glb_bytes};
/// let (n, tris) = quadedge::shapes::octahedron();
/// let mesh = quadedge::Mesh::from_triangles(n, &tris).unwrap();
/// let pos = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
/// let elevation = [0.1, 0.0, 0.2, -0.1, 0.0, 0.05];
/// let opts = GlbOptions { scalar: Some(("_ELEVATION", &elevation)), relief: Some(0.5), ..Default::default() };
/// let glb = glb_bytes(&mesh, &pos, &opts)?;
/// assert!(glb.windows(10).any(|w| w == b"_ELEVATION"));
/// # Ok::<(), export::ExportError>(())
/// ```
pub fn glb_bytes(
    mesh: &impl Topology,
    positions: &[Vec3],
    options: &GlbOptions<'_>,
) -> Result<Vec<u8>, ExportError> {
    check_inputs(mesh, positions, options.colors)?;
    let relief = check_options(mesh, options)?;
    let compact = Compact::new(mesh)?;
    let faces: Vec<[u32; 3]> = mesh.faces().map(|f| compact.face(mesh, f)).collect();
    let mut pos: Vec<Vec3> = compact.live.iter().map(|v| positions[v.index()]).collect();
    if let Some((r, values)) = relief {
        for (p, v) in pos.iter_mut().zip(&compact.live) {
            *p += r * values[v.index()] * p.normalize_or_zero();
            if !p.is_finite() {
                return Err(ExportError::NonFinitePosition { vertex: *v });
            }
        }
    }
    let scalar: Option<(&str, Vec<f32>)> = options.scalar.map(|(name, values)| {
        (
            name,
            compact.live.iter().map(|v| values[v.index()]).collect(),
        )
    });
    let colors: Option<Vec<[u8; 3]>> = options
        .colors
        .map(|c| compact.live.iter().map(|v| c[v.index()]).collect());
    let bin = binary_chunk(&pos, &faces, colors.as_deref(), scalar.as_ref())?;
    let (min, max) = pos.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    let extra = scalar.as_ref().map(|(name, values)| {
        let (lo, hi) = values
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        (*name, lo, hi)
    });
    let json = gltf_json(
        pos.len(),
        faces.len(),
        min,
        max,
        colors.is_some(),
        extra,
        bin.len(),
    );
    assemble(json.into_bytes(), bin)
}

/// Checks the scalar and the relief of `options`; returns the relief factor and its values.
fn check_options<'a>(
    mesh: &impl Topology,
    options: &GlbOptions<'a>,
) -> Result<Option<(f32, &'a [f32])>, ExportError> {
    if let Some((name, values)) = options.scalar {
        check_attribute_name(name)?;
        check_values("scalar", mesh, values)?;
    }
    match (options.relief, options.scalar) {
        (None, _) => Ok(None),
        (Some(r), Some((_, values))) if r.is_finite() => Ok(Some((r, values))),
        (Some(_), None) => Err(ExportError::InvalidOption {
            name: "relief",
            reason: "relief displaces by a scalar layer: set `scalar` too",
        }),
        (Some(_), Some(_)) => Err(ExportError::InvalidOption {
            name: "relief",
            reason: "must be finite",
        }),
    }
}

/// The BIN chunk's content, per live vertex in order: positions, normals, colours (linear),
/// the scalar, then the indices. Every view is a multiple of 4 bytes long, so offsets stay
/// aligned.
fn binary_chunk(
    pos: &[Vec3],
    faces: &[[u32; 3]],
    colors: Option<&[[u8; 3]]>,
    scalar: Option<&(&str, Vec<f32>)>,
) -> Result<Vec<u8>, ExportError> {
    let n = pos.len();
    let color_len = if colors.is_some() { 12 * n } else { 0 };
    let scalar_len = if scalar.is_some() { 4 * n } else { 0 };
    let total = 24 * n + color_len + scalar_len + 12 * faces.len();
    if total > (u32::MAX as usize) - (1 << 20) {
        return Err(ExportError::TooLarge {
            what: "glTF buffer",
        });
    }
    let mut bin = Vec::with_capacity(total);
    let put_vec3 = |bin: &mut Vec<u8>, v: Vec3| {
        for c in v.to_array() {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    };
    pos.iter().for_each(|&p| put_vec3(&mut bin, p));
    vertex_normals(pos, faces)
        .iter()
        .for_each(|&p| put_vec3(&mut bin, p));
    if let Some(colors) = colors {
        let lut = crate::render::srgb_to_linear_table();
        for &[r, g, b] in colors {
            put_vec3(
                &mut bin,
                Vec3::new(lut[r as usize], lut[g as usize], lut[b as usize]),
            );
        }
    }
    if let Some((_, values)) = scalar {
        for x in values {
            bin.extend_from_slice(&x.to_le_bytes());
        }
    }
    for f in faces {
        for i in f {
            bin.extend_from_slice(&i.to_le_bytes());
        }
    }
    debug_assert_eq!(bin.len(), total);
    Ok(bin)
}

/// The file: header, JSON chunk padded with spaces, BIN chunk padded with zeros.
fn assemble(mut json: Vec<u8>, mut bin: Vec<u8>) -> Result<Vec<u8>, ExportError> {
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let length = 12 + 8 + json.len() + 8 + bin.len();
    let length = u32::try_from(length).map_err(|_| ExportError::TooLarge { what: "glb file" })?;
    let mut out = Vec::with_capacity(length as usize);
    for word in [GLB_MAGIC, 2, length, json.len() as u32, CHUNK_JSON] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&json);
    for word in [bin.len() as u32, CHUNK_BIN] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&bin);
    Ok(out)
}

fn vertex_normals(pos: &[Vec3], faces: &[[u32; 3]]) -> Vec<Vec3> {
    let mut acc = vec![Vec3::ZERO; pos.len()];
    for &[a, b, c] in faces {
        let (pa, pb, pc) = (pos[a as usize], pos[b as usize], pos[c as usize]);
        // Twice the area times the unit normal: bigger faces weigh more.
        let n = (pb - pa).cross(pc - pa);
        for i in [a, b, c] {
            acc[i as usize] += n;
        }
    }
    acc.iter()
        .zip(pos)
        .map(|(&n, &p)| n.try_normalize().unwrap_or_else(|| p.normalize_or(Vec3::Z)))
        .collect()
}

/// The JSON document, written by hand (it is small and fixed-shape; no serde needed).
fn gltf_json(
    vertices: usize,
    faces: usize,
    min: Vec3,
    max: Vec3,
    with_colors: bool,
    scalar: Option<(&str, f32, f32)>,
    bin_len: usize,
) -> String {
    let v3 = 12 * vertices;
    let mut views = vec![(0, v3, ARRAY_BUFFER), (v3, v3, ARRAY_BUFFER)];
    let mut attrs = String::from(r#""POSITION":0,"NORMAL":1"#);
    let mut next_offset = 2 * v3;
    if with_colors {
        let _ = write!(attrs, r#","COLOR_0":{}"#, views.len());
        views.push((next_offset, v3, ARRAY_BUFFER));
        next_offset += v3;
    }
    if let Some((name, _, _)) = scalar {
        let _ = write!(attrs, r#","{name}":{}"#, views.len());
        views.push((next_offset, 4 * vertices, ARRAY_BUFFER));
        next_offset += 4 * vertices;
    }
    let indices = views.len();
    views.push((next_offset, 12 * faces, ELEMENT_ARRAY_BUFFER));

    let mut j = String::with_capacity(2048);
    j += r#"{"asset":{"version":"2.0","generator":"quadworld export"},"#;
    j += r#""scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0,"name":"planet"}],"#;
    let _ = write!(
        j,
        r#""meshes":[{{"name":"planet","primitives":[{{"attributes":{{{attrs}}},"indices":{indices},"material":0,"mode":4}}]}}],"#
    );
    j += r#""materials":[{"name":"matte","pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":1}}],"#;
    let _ = write!(j, r#""buffers":[{{"byteLength":{bin_len}}}],"#);
    j += r#""bufferViews":["#;
    for (i, (offset, len, target)) in views.iter().enumerate() {
        if i > 0 {
            j.push(',');
        }
        let _ = write!(
            j,
            r#"{{"buffer":0,"byteOffset":{offset},"byteLength":{len},"target":{target}}}"#
        );
    }
    j += "],";
    let _ = write!(
        j,
        r#""accessors":[{{"bufferView":0,"componentType":{FLOAT},"count":{vertices},"type":"VEC3","min":[{},{},{}],"max":[{},{},{}]}},"#,
        json_f32(min.x),
        json_f32(min.y),
        json_f32(min.z),
        json_f32(max.x),
        json_f32(max.y),
        json_f32(max.z)
    );
    let _ = write!(
        j,
        r#"{{"bufferView":1,"componentType":{FLOAT},"count":{vertices},"type":"VEC3"}},"#
    );
    if with_colors {
        let _ = write!(
            j,
            r#"{{"bufferView":2,"componentType":{FLOAT},"count":{vertices},"type":"VEC3"}},"#
        );
    }
    if let Some((_, lo, hi)) = scalar {
        let _ = write!(
            j,
            r#"{{"bufferView":{},"componentType":{FLOAT},"count":{vertices},"type":"SCALAR","min":[{}],"max":[{}]}},"#,
            indices - 1,
            json_f32(lo),
            json_f32(hi)
        );
    }
    let _ = write!(
        j,
        r#"{{"bufferView":{indices},"componentType":{UNSIGNED_INT},"count":{},"type":"SCALAR"}}]}}"#,
        3 * faces
    );
    j
}

/// Rust prints `f32` as the shortest decimal that reads back to the same `f32` and never
/// uses exponent or `NaN` syntax for finite values, so the bounds match the buffer exactly.
fn json_f32(x: f32) -> String {
    format!("{x}")
}
