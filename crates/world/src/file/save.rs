//! Saving: every section encoded and checksummed at once, then laid out in file order.

use super::{
    FORMAT_VERSION, LEN_AND_CRC, LayerHead, MAGIC, MAX_NAME_BYTES, TAG_DICT, TAG_LAYER, TAG_MESH,
    TAG_RANDOM, checksum, unsaveable,
};
use crate::World;
use crate::error::WorldError;
use crate::slot::{Batch, Slot, bincode_config};
use crate::stored::StoredValues;
use layers::{Dict, MAX_DEPTH};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;

/// Bytes of the bincode encoding of `value`, counted without writing (byte strings are
/// counted in one step).
fn encoded_len<T: Serialize>(value: &T, section: &str) -> Result<usize, WorldError> {
    let mut w = bincode::enc::write::SizeWriter::default();
    bincode::serde::encode_into_writer(value, &mut w, bincode_config())
        .map_err(|e| unsaveable(section, &e))?;
    Ok(w.bytes_written)
}

/// A section's bytes before its payload: tag, name length, name, payload length, crc (the
/// last filled in once the payload is written).
fn header_len(name: &str) -> usize {
    3 + name.len() + LEN_AND_CRC
}

/// What a section's payload is made of.
enum Payload<'a> {
    /// Encoded straight into the file.
    Mesh(&'a quadedge::Mesh),
    /// Encoded already (small sections).
    Bytes(Vec<u8>),
    /// A layer section: its head, its values (encoded in place) and pending batches.
    Layer(LayerHead<'a>, StoredValues<'a>, Vec<Batch>),
}

/// A section ready to be laid out: its place in the file is known before it is written.
struct Prepared<'a> {
    tag: u8,
    name: &'a str,
    payload: Payload<'a>,
    payload_len: usize,
}

/// Byte sizes of a layer payload's three parts: head, values, pending batches.
fn layer_parts(
    head: &LayerHead<'_>,
    values: &StoredValues<'_>,
    pending: &[Batch],
    name: &str,
) -> Result<[usize; 3], WorldError> {
    Ok([
        encoded_len(head, name)?,
        values.len(),
        encoded_len(&pending, name)?,
    ])
}

impl Prepared<'_> {
    fn len(&self) -> usize {
        header_len(self.name) + self.payload_len
    }

    /// Writes the section into `dst` (exactly [`Prepared::len`] bytes).
    fn write(&self, dst: &mut [u8]) -> Result<(), WorldError> {
        let (head, payload) = dst.split_at_mut(header_len(self.name));
        let written = match &self.payload {
            Payload::Mesh(m) => bincode::serde::encode_into_slice(m, payload, bincode_config()),
            Payload::Bytes(b) => {
                payload.copy_from_slice(b);
                Ok(b.len())
            }
            Payload::Layer(head, values, pending) => {
                // The values were counted when prepared: only the small parts again.
                let (h, p) = (
                    encoded_len(head, self.name)?,
                    encoded_len(pending, self.name)?,
                );
                let Some(v) = payload.len().checked_sub(h + 8 + p) else {
                    return Err(unsaveable(self.name, &"the encoding changed size"));
                };
                let (head_bytes, rest) = payload.split_at_mut(h);
                let (values_len, rest) = rest.split_at_mut(8);
                let (values_bytes, pending_bytes) = rest.split_at_mut(v);
                let cfg = bincode_config();
                bincode::serde::encode_into_slice(head, head_bytes, cfg)
                    .and_then(|_| {
                        values_len.copy_from_slice(&(v as u64).to_le_bytes());
                        values.write(values_bytes);
                        bincode::serde::encode_into_slice(pending, pending_bytes, cfg)
                    })
                    .map(|_| payload.len())
            }
        }
        .map_err(|e| unsaveable(self.name, &e))?;
        if written != payload.len() {
            return Err(unsaveable(self.name, &"the encoding changed size"));
        }
        head[0] = self.tag;
        head[1..3].copy_from_slice(&(self.name.len() as u16).to_le_bytes());
        let (name, len_crc) = head[3..].split_at_mut(self.name.len());
        name.copy_from_slice(self.name.as_bytes());
        len_crc[..8].copy_from_slice(&(payload.len() as u64).to_le_bytes());
        let crc = checksum(self.tag, self.name.as_bytes(), payload);
        len_crc[8..].copy_from_slice(&crc.to_le_bytes());
        Ok(())
    }
}

/// A section to save.
enum Job<'a> {
    Mesh,
    Random,
    Dict(&'a str, &'a Dict),
    Layer(&'a Slot),
}

fn check_name(name: &str) -> Result<(), WorldError> {
    if name.len() > MAX_NAME_BYTES {
        return Err(WorldError::NameTooLong {
            bytes: name.len(),
            max: MAX_NAME_BYTES,
        });
    }
    Ok(())
}

impl World {
    /// Encodes what must be encoded before the section's size is known (layer values,
    /// small sections) and measures the payload.
    fn prepare<'a>(&'a self, job: &Job<'a>) -> Result<Prepared<'a>, WorldError> {
        let (tag, name, payload) = match *job {
            Job::Mesh => (TAG_MESH, "mesh", Payload::Mesh(&self.mesh)),
            Job::Random => {
                let b = bincode::serde::encode_to_vec(&*self.rng, bincode_config())
                    .map_err(|e| unsaveable("random", &e))?;
                (TAG_RANDOM, "random", Payload::Bytes(b))
            }
            Job::Dict(name, dict) => {
                let depth = dict.depth();
                if depth > MAX_DEPTH {
                    return Err(WorldError::TooDeep {
                        dict: name.to_string(),
                        depth,
                        max: MAX_DEPTH,
                    });
                }
                let b = bincode::serde::encode_to_vec(dict, bincode_config())
                    .map_err(|e| unsaveable(name, &e))?;
                (TAG_DICT, name, Payload::Bytes(b))
            }
            Job::Layer(s) => {
                let (values, len, pending) = s.to_save();
                let (on_change, interpolation) = s.policies();
                let head = LayerHead {
                    kind: s.kind,
                    type_key: &s.type_key,
                    version: s.version,
                    len: len as u64,
                    on_change,
                    interpolation,
                };
                (
                    TAG_LAYER,
                    s.name.as_str(),
                    Payload::Layer(head, values, pending),
                )
            }
        };
        check_name(name)?;
        let payload_len = match &payload {
            Payload::Mesh(m) => encoded_len(m, name)?,
            Payload::Bytes(b) => b.len(),
            Payload::Layer(head, values, pending) => {
                let [h, v, p] = layer_parts(head, values, pending, name)?;
                h + 8 + v + p
            }
        };
        Ok(Prepared {
            tag,
            name,
            payload,
            payload_len,
        })
    }

    /// Encodes the whole world into one buffer (see the module docs for the layout) on all
    /// cores: every section is prepared at once, the file is allocated once at its exact
    /// size, and every section is written into its own part of it at once. The bytes do not
    /// depend on the thread count.
    ///
    /// # Errors
    ///
    /// [`WorldError::NameTooLong`] for a layer or dictionary name of more than
    /// [`MAX_NAME_BYTES`] bytes, [`WorldError::TooDeep`] for a dictionary nested deeper than
    /// [`MAX_DEPTH`], [`WorldError::Unsaveable`] if a component cannot be encoded (the first
    /// such section in file order). Nothing is written that could not be loaded back.
    pub fn save_to_vec(&self) -> Result<Vec<u8>, WorldError> {
        let mut jobs = vec![Job::Mesh, Job::Random];
        jobs.extend(self.dicts.iter().map(|(n, (d, _))| Job::Dict(n, d)));
        jobs.extend(self.layers.iter().map(Job::Layer));
        let sections = jobs
            .par_iter()
            .map(|j| self.prepare(j))
            .collect::<Vec<_>>()
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let head = MAGIC.len() + 8;
        let total = head + sections.iter().map(Prepared::len).sum::<usize>();
        let mut out = vec![0u8; total];
        let (header, mut rest) = out.split_at_mut(head);
        header[..MAGIC.len()].copy_from_slice(MAGIC);
        header[MAGIC.len()..MAGIC.len() + 4].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[MAGIC.len() + 4..].copy_from_slice(&(sections.len() as u32).to_le_bytes());
        let mut parts = Vec::with_capacity(sections.len());
        for s in &sections {
            let (part, tail) = rest.split_at_mut(s.len());
            parts.push((s, part));
            rest = tail;
        }
        parts
            .into_par_iter()
            .map(|(s, part)| s.write(part))
            .collect::<Vec<_>>()
            .into_iter()
            .collect::<Result<(), _>>()?;
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
}
