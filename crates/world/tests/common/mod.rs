//! Shared by the world's file tests: reading a world file's sections and writing them back
//! with fixed checksums, the layer section as the format stores it, and the sample worlds.
#![allow(dead_code)]

use layers::{EdgeKind, ElementKind, Interpolation, LayerInfo, OnChange, Sizes, VertexKind};
use quadedge::{Change, Mesh, Vertex, shapes};
use serde::{Deserialize, Serialize};
use world::World;

pub const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height")
    .interpolation(Interpolation::Lerp)
    .range(-100.0, 100.0);
pub const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);

/// Every version the world hands out, in a fixed order.
pub fn versions(w: &World) -> Vec<u64> {
    let mut v = vec![w.mesh_version(), w.random_version()];
    v.extend(w.layer_names().map(|n| w.layer_version(n)));
    v.extend(w.dict_names().map(|n| w.dict_version(n)));
    v
}

/// One section of a world file.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub tag: u8,
    pub name: Vec<u8>,
    pub payload: Vec<u8>,
}

pub const TAG_MESH: u8 = 1;
pub const TAG_DICT: u8 = 3;
pub const TAG_LAYER: u8 = 4;

/// The header (magic, version, count) and the sections of a well-formed file.
pub fn parse(bytes: &[u8]) -> (Vec<u8>, Vec<Section>) {
    let header = bytes[..16].to_vec();
    let count = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
    let mut at = 16;
    let mut sections = Vec::new();
    for _ in 0..count {
        let tag = bytes[at];
        let n = u16::from_le_bytes(bytes[at + 1..at + 3].try_into().unwrap()) as usize;
        let name = bytes[at + 3..at + 3 + n].to_vec();
        at += 3 + n;
        let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        at += 12;
        sections.push(Section {
            tag,
            name,
            payload: bytes[at..at + len].to_vec(),
        });
        at += len;
    }
    assert_eq!(at, bytes.len());
    (header, sections)
}

/// Writes sections back with correct checksums (the header's count is taken as given).
pub fn write(header: &[u8], sections: &[Section]) -> Vec<u8> {
    let mut out = header.to_vec();
    for s in sections {
        out.push(s.tag);
        out.extend_from_slice(&(s.name.len() as u16).to_le_bytes());
        out.extend_from_slice(&s.name);
        out.extend_from_slice(&(s.payload.len() as u64).to_le_bytes());
        let mut h = crc32fast::Hasher::new();
        h.update(&[s.tag]);
        h.update(&s.name);
        h.update(&s.payload);
        out.extend_from_slice(&h.finalize().to_le_bytes());
        out.extend_from_slice(&s.payload);
    }
    out
}

/// Recomputes every section's checksum of a file whose section framing is intact, or
/// `None` when the framing itself is broken.
pub fn fix_checksums(bytes: &mut [u8]) -> Option<()> {
    let count = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?);
    let mut at = 16usize;
    for _ in 0..count.min(1 << 16) {
        let tag = *bytes.get(at)?;
        let n = u16::from_le_bytes(bytes.get(at + 1..at + 3)?.try_into().ok()?) as usize;
        let name_end = at.checked_add(3 + n)?;
        let len = u64::from_le_bytes(bytes.get(name_end..name_end + 8)?.try_into().ok()?);
        let start = name_end.checked_add(12)?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        if end > bytes.len() {
            return None;
        }
        let mut h = crc32fast::Hasher::new();
        h.update(&[tag]);
        h.update(&bytes[at + 3..name_end]);
        h.update(&bytes[start..end]);
        bytes[name_end + 8..start].copy_from_slice(&h.finalize().to_le_bytes());
        at = end;
    }
    Some(())
}

/// A pending batch as the format stores it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Batch {
    Changes(Vec<Change>, Sizes),
    Reset(Sizes),
    Resize(Sizes),
}

/// A layer section's payload as the format stores it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LayerSection {
    pub kind: ElementKind,
    pub type_key: String,
    pub version: u64,
    pub len: u64,
    pub on_change: OnChange,
    pub interpolation: Interpolation,
    #[serde(with = "serde_bytes")]
    pub values: Vec<u8>,
    pub pending: Vec<Batch>,
}

pub fn config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<{ 1 << 31 }>()
}

pub fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(v, config()).unwrap()
}

pub fn decode<T: serde::de::DeserializeOwned>(b: &[u8]) -> T {
    bincode::serde::decode_from_slice(b, config()).unwrap().0
}

/// The index of the layer section named `name`.
pub fn layer_section(sections: &[Section], name: &str) -> usize {
    sections
        .iter()
        .position(|s| s.tag == TAG_LAYER && s.name == name.as_bytes())
        .unwrap()
}

/// Rewrites the layer section `name` of `file` through `edit`.
pub fn edit_layer(file: &[u8], name: &str, edit: impl FnOnce(&mut LayerSection)) -> Vec<u8> {
    let (header, mut sections) = parse(file);
    let i = layer_section(&sections, name);
    let mut s: LayerSection = decode(&sections[i].payload);
    edit(&mut s);
    sections[i].payload = encode(&s);
    write(&header, &sections)
}

pub fn octahedron_world() -> World {
    let (n, t) = shapes::octahedron();
    World::new(Mesh::from_triangles(n, &t).unwrap(), 7)
}

pub fn grid_world(k: u32) -> World {
    let (n, t) = shapes::icosahedron_grid(k);
    World::new(Mesh::from_triangles(n, &t).unwrap(), 99)
}

/// A small world with two layers, a dictionary (with an id) and a drawn generator.
pub fn sample_world() -> World {
    let mut w = grid_world(1);
    {
        let mut pair = w.lock_layers(&HEIGHT, &DISTANCE).unwrap();
        let (h, d) = pair.parts();
        for i in 0..h.len() {
            h[Vertex::new(i as u32)] = i as f32 * 0.5;
        }
        d.fill(2.5);
        pair.commit().unwrap();
    }
    {
        let mut d = w.lock_dict("plates");
        d.set("count", 3i64);
        d.set("seed", Vertex::new(3));
        d.commit();
    }
    let mut rng = w.lock_random();
    let _: u64 = rand::Rng::random(&mut *rng);
    rng.commit();
    w
}

/// `sample_world` saved, loaded (layers still encoded) and edited, so its layer sections
/// carry a pending batch (a split), then saved again.
pub fn file_with_pending_batches() -> Vec<u8> {
    let mut w = World::load_from_slice(&sample_world().save_to_vec().unwrap()).unwrap();
    {
        let mut m = w.lock_mesh();
        let e = m.vertex_edge(Vertex::new(0));
        m.split(e, 0.25).unwrap();
        m.commit();
    }
    w.save_to_vec().unwrap()
}
