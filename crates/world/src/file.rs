//! Save and load: one binary file, one checksummed section per component.
//!
//! ```text
//! magic "QWORLD\r\n" (8 bytes) | format version u32 | section count u32
//! per section: tag u8 | name length u16 | name | payload length u64 | crc32 u32 | payload
//! ```
//!
//! Payloads are bincode 2 (serde). Tags: 1 mesh, 2 random generator, 3 dictionary, 4 layer.
//! A layer's payload keeps its kind, [type key](layers::LayerValue::TYPE_KEY), length,
//! policies, encoded values and the journal batches that reached it while it was still
//! encoded; it is decoded only when the layer is first asked for by type, so loading needs no
//! registry of types.
//!
//! Nothing read is trusted: every length is checked against what is left of the input before
//! anything is allocated, every section against its checksum, the mesh against all its
//! invariants (`Mesh::check`), each layer's length and pending batches against the mesh
//! ([`crate::pending`]), dictionaries against [`layers::MAX_DEPTH`]. A decoded layer is checked
//! against its section header and its own validation before it is handed out.
//!
//! Format versions: 1 (type names from the compiler; no longer read), 2 (stable type keys,
//! layer length and policies in the section, pending batches as an enum, id values in
//! dictionaries).

use crate::World;
use crate::error::WorldError;
use crate::pending::{self, Policies};
use crate::slot::{Batch, Slot, State, bincode_config};
use layers::{Dict, ElementKind, Interpolation, MAX_DEPTH, OnChange, Sizes, Value};
use quadedge::Mesh;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"QWORLD\r\n";
/// Version of the file format this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;
/// Versions above this in a file are refused, so the world's clock can never overflow.
const MAX_STORED_VERSION: u64 = 1 << 62;
/// Longest section name the format can carry (its length is a u16).
pub const MAX_NAME_BYTES: usize = u16::MAX as usize;

const TAG_MESH: u8 = 1;
const TAG_RANDOM: u8 = 2;
const TAG_DICT: u8 = 3;
const TAG_LAYER: u8 = 4;

#[derive(Serialize, Deserialize)]
struct LayerSection {
    kind: ElementKind,
    type_key: String,
    version: u64,
    /// Number of values stored (before `pending`).
    len: u64,
    on_change: OnChange,
    interpolation: Interpolation,
    /// One byte string: bincode copies it in one go instead of visiting each byte through
    /// serde (measured: that was a quarter of loading a 1M-vertex world).
    #[serde(with = "serde_bytes")]
    values: Vec<u8>,
    pending: Vec<Batch>,
}

fn encode<T: Serialize>(value: &T, section: &str) -> Result<Vec<u8>, WorldError> {
    bincode::serde::encode_to_vec(value, bincode_config()).map_err(|e| WorldError::Unsaveable {
        section: section.into(),
        reason: e.to_string(),
    })
}

fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8], section: &str) -> Result<T, WorldError> {
    let (v, used) = bincode::serde::decode_from_slice(bytes, bincode_config()).map_err(|e| {
        WorldError::Corrupt {
            section: section.into(),
            reason: e.to_string(),
        }
    })?;
    if used != bytes.len() {
        return Err(WorldError::Corrupt {
            section: section.into(),
            reason: "trailing bytes".into(),
        });
    }
    Ok(v)
}

fn push_section(out: &mut Vec<u8>, tag: u8, name: &str, payload: &[u8]) -> Result<(), WorldError> {
    if name.len() > MAX_NAME_BYTES {
        return Err(WorldError::NameTooLong {
            bytes: name.len(),
            max: MAX_NAME_BYTES,
        });
    }
    out.push(tag);
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(tag, name.as_bytes(), payload).to_le_bytes());
    out.extend_from_slice(payload);
    Ok(())
}

/// CRC-32 over tag, name and payload: a flipped bit anywhere in a section is caught.
fn checksum(tag: u8, name: &[u8], payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&[tag]);
    h.update(name);
    h.update(payload);
    h.finalize()
}

/// A cursor that never reads past the end.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WorldError> {
        if n > self.rest.len() {
            return Err(WorldError::Truncated);
        }
        let (a, b) = self.rest.split_at(n);
        self.rest = b;
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, WorldError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, WorldError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }
    fn u32(&mut self) -> Result<u32, WorldError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, WorldError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

impl World {
    /// Encodes the whole world into one buffer (see the module docs for the layout).
    ///
    /// # Errors
    ///
    /// [`WorldError::NameTooLong`] for a layer or dictionary name of more than
    /// [`MAX_NAME_BYTES`] bytes, [`WorldError::TooDeep`] for a dictionary nested deeper than
    /// [`MAX_DEPTH`], [`WorldError::Unsaveable`] if a component cannot be encoded. Nothing is
    /// written that could not be loaded back.
    pub fn save_to_vec(&self) -> Result<Vec<u8>, WorldError> {
        let mut out = Vec::with_capacity(self.heap_bytes() + 1024);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let count = 2 + self.dicts.len() + self.layers.len();
        out.extend_from_slice(&(count as u32).to_le_bytes());
        push_section(&mut out, TAG_MESH, "mesh", &encode(&*self.mesh, "mesh")?)?;
        push_section(
            &mut out,
            TAG_RANDOM,
            "random",
            &encode(&*self.rng, "random")?,
        )?;
        for (name, (dict, _)) in &self.dicts {
            let depth = dict.depth();
            if depth > MAX_DEPTH {
                return Err(WorldError::TooDeep {
                    dict: name.clone(),
                    depth,
                    max: MAX_DEPTH,
                });
            }
            push_section(&mut out, TAG_DICT, name, &encode(&**dict, name)?)?;
        }
        for s in &self.layers {
            let (values, len, pending) = s.encoded();
            let (on_change, interpolation) = s.policies();
            let section = LayerSection {
                kind: s.kind,
                type_key: s.type_key.clone(),
                version: s.version,
                len: len as u64,
                on_change,
                interpolation,
                values,
                pending,
            };
            push_section(&mut out, TAG_LAYER, &s.name, &encode(&section, &s.name)?)?;
        }
        Ok(out)
    }

    /// Writes the world to a file.
    ///
    /// # Errors
    ///
    /// Those of [`World::save_to_vec`] (checked before the file is touched), and
    /// [`WorldError::Io`].
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), WorldError> {
        let bytes = self.save_to_vec()?;
        std::fs::write(path, bytes)?;
        Ok(())
    }

    /// Reads a world from a file.
    ///
    /// # Errors
    ///
    /// Those of [`World::load_from_slice`], and [`WorldError::Io`].
    pub fn load(path: impl AsRef<Path>) -> Result<World, WorldError> {
        World::load_from_slice(&std::fs::read(path)?)
    }

    /// Decodes a world from bytes. Any damage (truncation, flipped bits, wrong magic or
    /// version, absurd lengths, an inconsistent mesh, layers that do not fit the mesh,
    /// pending journals that would cost more than the file justifies, nesting deeper than
    /// [`MAX_DEPTH`]) is a typed error, never a panic. Layer values are checked when the layer
    /// is first asked for by type ([`World::try_layer`]).
    ///
    /// # Errors
    ///
    /// [`WorldError::BadMagic`], [`WorldError::UnsupportedVersion`], [`WorldError::Truncated`],
    /// [`WorldError::Checksum`] or [`WorldError::Corrupt`] naming the section.
    pub fn load_from_slice(bytes: &[u8]) -> Result<World, WorldError> {
        let mut r = Reader { rest: bytes };
        if r.take(8).map_err(|_| WorldError::BadMagic)? != MAGIC {
            return Err(WorldError::BadMagic);
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(WorldError::UnsupportedVersion(version));
        }
        let count = r.u32()?;
        let mut mesh: Option<Mesh> = None;
        let mut rng: Option<Pcg64> = None;
        let mut dicts = BTreeMap::new();
        // Layers with their section sizes, checked against the mesh once it is known.
        let mut layers: Vec<(Slot, usize)> = Vec::new();
        let mut clock = 1u64;
        for _ in 0..count {
            let tag = r.u8()?;
            let name_len = r.u16()? as usize;
            let raw_name = r.take(name_len)?;
            let len = r.u64()?;
            let crc = r.u32()?;
            let payload = r.take(usize::try_from(len).map_err(|_| WorldError::Truncated)?)?;
            if checksum(tag, raw_name, payload) != crc {
                return Err(WorldError::Checksum {
                    section: String::from_utf8_lossy(raw_name).into_owned(),
                });
            }
            let name = String::from_utf8(raw_name.to_vec()).map_err(|_| WorldError::Corrupt {
                section: String::from_utf8_lossy(raw_name).into_owned(),
                reason: "the name is not UTF-8".into(),
            })?;
            let dup = || WorldError::Corrupt {
                section: name.clone(),
                reason: "duplicate section".into(),
            };
            match tag {
                TAG_MESH => {
                    if mesh.is_some() {
                        return Err(dup());
                    }
                    let m: Mesh = decode(payload, &name)?;
                    m.check().map_err(|e| WorldError::Corrupt {
                        section: name.clone(),
                        reason: e.to_string(),
                    })?;
                    mesh = Some(m);
                }
                TAG_RANDOM => {
                    if rng.is_some() {
                        return Err(dup());
                    }
                    rng = Some(decode(payload, &name)?);
                }
                TAG_DICT => {
                    let d: Dict = decode(payload, &name)?;
                    if dicts.insert(name.clone(), (Arc::new(d), 1)).is_some() {
                        return Err(dup());
                    }
                }
                TAG_LAYER => {
                    if layers.iter().any(|(s, _)| s.name == name) {
                        return Err(dup());
                    }
                    let s: LayerSection = decode(payload, &name)?;
                    if s.version > MAX_STORED_VERSION {
                        return Err(WorldError::Corrupt {
                            section: name,
                            reason: format!("version {} is out of range", s.version),
                        });
                    }
                    clock = clock.max(s.version);
                    let len = usize::try_from(s.len).map_err(|_| WorldError::Corrupt {
                        section: name.clone(),
                        reason: "length past the address space".into(),
                    })?;
                    let slot = Slot {
                        name,
                        kind: s.kind,
                        type_key: s.type_key,
                        version: s.version,
                        state: State::Encoded {
                            len,
                            on_change: s.on_change,
                            interpolation: s.interpolation,
                            bytes: Arc::from(s.values),
                            pending: Arc::new(s.pending),
                            decoded: Arc::new(OnceLock::new()),
                        },
                        error: None,
                    };
                    layers.push((slot, payload.len()));
                }
                _ => {
                    return Err(WorldError::Corrupt {
                        section: name,
                        reason: format!("unknown section tag {tag}"),
                    });
                }
            }
        }
        if !r.rest.is_empty() {
            return Err(WorldError::Corrupt {
                section: "file".into(),
                reason: "trailing bytes".into(),
            });
        }
        let missing = |s: &str| WorldError::Corrupt {
            section: s.into(),
            reason: "missing section".into(),
        };
        let mesh = mesh.ok_or_else(|| missing("mesh"))?;
        let rng = rng.ok_or_else(|| missing("random"))?;
        // Ids kept in dictionaries name live elements (the world keeps it so): a file that says
        // otherwise is damaged.
        for (name, (dict, _)) in &dicts {
            let dead = dict.ids().into_iter().find(|v| match v {
                Value::Vertex(x) => !mesh.is_vertex_alive(*x),
                Value::Face(x) => !mesh.is_face_alive(*x),
                Value::Edge(x) => !mesh.is_edge_alive(*x),
                _ => false,
            });
            if let Some(v) = dead {
                return Err(WorldError::Corrupt {
                    section: name.clone(),
                    reason: format!("{v:?} names no live element"),
                });
            }
        }
        let sizes = Sizes::of(&mesh);
        let mut slots = Vec::with_capacity(layers.len());
        for (slot, section_bytes) in layers {
            let State::Encoded {
                len,
                on_change,
                interpolation,
                pending,
                ..
            } = &slot.state
            else {
                unreachable!("loaded layers are encoded")
            };
            let policies = Policies {
                kind: slot.kind,
                on_change: *on_change,
                interpolation: *interpolation,
            };
            pending::check(&policies, *len, pending, sizes, section_bytes).map_err(|reason| {
                WorldError::Corrupt {
                    section: slot.name.clone(),
                    reason,
                }
            })?;
            slots.push(slot);
        }
        Ok(World {
            mesh: Arc::new(mesh),
            mesh_version: 1,
            layers: slots,
            dicts,
            rng: Arc::new(rng),
            rng_version: 1,
            clock: clock + 1,
            errors: Vec::new(),
            mesh_before_edit: None,
        })
    }
}
