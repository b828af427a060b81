//! Loading: section headers read in order, sections checked and decoded at once, then
//! assembled in order so that the first error in the file is the one reported.

use super::{
    FORMAT_VERSION, LEN_AND_CRC, LayerSection, MAGIC, MAX_STORED_VERSION, TAG_DICT, TAG_LAYER,
    TAG_MESH, TAG_RANDOM, checksum, corrupt, decode,
};
use crate::World;
use crate::error::WorldError;
use crate::pending::{self, Policies};
use crate::slot::{Slot, State, bincode_config};
use layers::{Dict, Sizes, Value};
use quadedge::Mesh;
use rand_pcg::Pcg64;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

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
    fn array<const N: usize>(&mut self) -> Result<[u8; N], WorldError> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }
    fn u8(&mut self) -> Result<u8, WorldError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, WorldError> {
        self.array().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Result<u32, WorldError> {
        self.array().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, WorldError> {
        self.array().map(u64::from_le_bytes)
    }

    /// The next section's header and payload, bounds checked.
    fn section(&mut self) -> Result<Raw<'a>, WorldError> {
        let tag = self.u8()?;
        let name_len = self.u16()? as usize;
        let name = self.take(name_len)?;
        let len = self.u64()?;
        let crc = self.u32()?;
        let payload = self.take(usize::try_from(len).map_err(|_| WorldError::Truncated)?)?;
        Ok(Raw {
            tag,
            name,
            crc,
            payload,
        })
    }
}

/// One section as read: header fields and the payload, not checked yet.
struct Raw<'a> {
    tag: u8,
    name: &'a [u8],
    crc: u32,
    payload: &'a [u8],
}

/// What a section decodes to (checked on its own; what depends on other sections is checked
/// when they are assembled).
enum Decoded {
    /// Boxed: a mesh's header is far larger than the other sections'.
    Mesh(Box<Mesh>),
    Random(Pcg64),
    Dict(Dict),
    /// A layer and its section's size.
    Layer(Slot, usize),
    Unknown(u8),
}

/// Checks and decodes one section; `Ok(None)` never happens for a good section.
fn check_and_decode(raw: &Raw<'_>) -> Result<(String, Decoded), WorldError> {
    let lossy = || String::from_utf8_lossy(raw.name).into_owned();
    if checksum(raw.tag, raw.name, raw.payload) != raw.crc {
        return Err(WorldError::Checksum { section: lossy() });
    }
    let name = String::from_utf8(raw.name.to_vec())
        .map_err(|_| corrupt(&lossy(), "the name is not UTF-8"))?;
    let payload = raw.payload;
    let decoded = match raw.tag {
        TAG_MESH => {
            let m: Mesh = decode(payload, &name)?;
            m.check_par().map_err(|e| corrupt(&name, e))?;
            Decoded::Mesh(Box::new(m))
        }
        TAG_RANDOM => Decoded::Random(decode(payload, &name)?),
        TAG_DICT => Decoded::Dict(decode(payload, &name)?),
        TAG_LAYER => {
            let (s, used): (LayerSection<'_>, usize) =
                bincode::serde::borrow_decode_from_slice(payload, bincode_config())
                    .map_err(|e| corrupt(&name, e))?;
            if used != payload.len() {
                return Err(corrupt(&name, "trailing bytes"));
            }
            if s.version > MAX_STORED_VERSION {
                return Err(corrupt(
                    &name,
                    format!("version {} is out of range", s.version),
                ));
            }
            let len = usize::try_from(s.len)
                .map_err(|_| corrupt(&name, "length past the address space"))?;
            let slot = Slot {
                name: name.clone(),
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
            };
            Decoded::Layer(slot, payload.len())
        }
        tag => Decoded::Unknown(tag),
    };
    Ok((name, decoded))
}

impl World {
    /// Reads a world from a file.
    ///
    /// # Errors
    ///
    /// Those of [`World::load_from_slice`], and [`WorldError::Io`].
    pub fn load(path: impl AsRef<Path>) -> Result<World, WorldError> {
        World::load_from_slice(&std::fs::read(path)?)
    }

    /// Decodes a world from bytes, every section at once on all cores. Any damage
    /// (truncation, flipped bits, wrong magic or version, absurd lengths, an inconsistent
    /// mesh, layers that do not fit the mesh, pending journals that would cost more than the
    /// file justifies, nesting deeper than [`MAX_DEPTH`](layers::MAX_DEPTH)) is a typed
    /// error, never a panic; the error reported is the first in file order, whatever the
    /// thread count. Layer values are checked when the layer is first asked for by type
    /// ([`World::try_layer`]).
    ///
    /// # Errors
    ///
    /// [`WorldError::BadMagic`], [`WorldError::UnsupportedVersion`], [`WorldError::Truncated`],
    /// [`WorldError::Checksum`] or [`WorldError::Corrupt`] naming the section.
    pub fn load_from_slice(bytes: &[u8]) -> Result<World, WorldError> {
        let (raws, stop) = read_headers(bytes)?;
        debug_assert!(raws.len() * (LEN_AND_CRC + 3) <= bytes.len());
        let decoded: Vec<_> = raws.par_iter().map(check_and_decode).collect();
        let sections = Sections::gather(decoded)?;
        if let Some(e) = stop {
            return Err(e);
        }
        let mesh = sections
            .mesh
            .ok_or_else(|| corrupt("mesh", "missing section"))?;
        let rng = sections
            .rng
            .ok_or_else(|| corrupt("random", "missing section"))?;
        check_dict_ids(&sections.dicts, &mesh)?;
        let slots = check_layers(sections.layers, &mesh)?;
        Ok(World {
            mesh: Arc::new(mesh),
            mesh_version: 1,
            layers: slots,
            dicts: sections.dicts,
            rng: Arc::new(rng),
            rng_version: 1,
            clock: sections.clock + 1,
            mesh_before_edit: None,
            mesh_logged: false,
            spare_positions: Vec::new(),
        })
    }
}

/// The file header (magic, version, section count) and the section headers in order, with
/// the error that ended the list early, if any (a bad header or trailing bytes): the sections
/// before it still report their own errors first. Each header read is backed by at least its
/// own bytes, so the list is bounded by the input.
fn read_headers(bytes: &[u8]) -> Result<(Vec<Raw<'_>>, Option<WorldError>), WorldError> {
    let mut r = Reader { rest: bytes };
    if r.take(MAGIC.len()).map_err(|_| WorldError::BadMagic)? != MAGIC {
        return Err(WorldError::BadMagic);
    }
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(WorldError::UnsupportedVersion(version));
    }
    let count = r.u32()?;
    let mut raws = Vec::new();
    let mut stop = None;
    for _ in 0..count {
        match r.section() {
            Ok(raw) => raws.push(raw),
            Err(e) => {
                stop = Some(e);
                break;
            }
        }
    }
    if stop.is_none() && !r.rest.is_empty() {
        stop = Some(corrupt("file", "trailing bytes"));
    }
    Ok((raws, stop))
}

/// The decoded sections sorted by kind, each present at most once.
#[derive(Default)]
struct Sections {
    mesh: Option<Mesh>,
    rng: Option<Pcg64>,
    dicts: BTreeMap<String, (Arc<Dict>, u64)>,
    /// Layers with their section sizes, checked against the mesh once it is known.
    layers: Vec<(Slot, usize)>,
    /// The highest layer version seen (at least 1).
    clock: u64,
}

impl Sections {
    /// Sorts the decoded sections in file order: the first section's error, a duplicate or an
    /// unknown tag, is the one reported.
    fn gather(decoded: Vec<Result<(String, Decoded), WorldError>>) -> Result<Self, WorldError> {
        let mut s = Sections {
            clock: 1,
            ..Sections::default()
        };
        for result in decoded {
            let (name, section) = result?;
            let dup = || corrupt(&name, "duplicate section");
            match section {
                Decoded::Mesh(m) => {
                    if s.mesh.replace(*m).is_some() {
                        return Err(dup());
                    }
                }
                Decoded::Random(g) => {
                    if s.rng.replace(g).is_some() {
                        return Err(dup());
                    }
                }
                Decoded::Dict(d) => {
                    if s.dicts.insert(name.clone(), (Arc::new(d), 1)).is_some() {
                        return Err(dup());
                    }
                }
                Decoded::Layer(slot, size) => {
                    if s.layers.iter().any(|(l, _)| l.name == name) {
                        return Err(dup());
                    }
                    s.clock = s.clock.max(slot.version);
                    s.layers.push((slot, size));
                }
                Decoded::Unknown(tag) => {
                    return Err(corrupt(&name, format!("unknown section tag {tag}")));
                }
            }
        }
        Ok(s)
    }
}

/// Each layer's length and pending journal against the mesh's sizes and what its section's
/// size justifies: the layers, in file order.
fn check_layers(layers: Vec<(Slot, usize)>, mesh: &Mesh) -> Result<Vec<Slot>, WorldError> {
    let sizes = Sizes::of(mesh);
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
        pending::check(&policies, *len, pending, sizes, section_bytes)
            .map_err(|reason| corrupt(&slot.name, reason))?;
        slots.push(slot);
    }
    Ok(slots)
}

/// Ids kept in dictionaries name live elements (the world keeps it so): a file that says
/// otherwise is damaged.
fn check_dict_ids(
    dicts: &BTreeMap<String, (Arc<Dict>, u64)>,
    mesh: &Mesh,
) -> Result<(), WorldError> {
    for (name, (dict, _)) in dicts {
        let dead = dict.ids().into_iter().find(|v| match v {
            Value::Vertex(x) => !mesh.is_vertex_alive(*x),
            Value::Face(x) => !mesh.is_face_alive(*x),
            Value::Edge(x) => !mesh.is_edge_alive(*x),
            _ => false,
        });
        if let Some(v) = dead {
            return Err(corrupt(name, format!("{v:?} names no live element")));
        }
    }
    Ok(())
}
