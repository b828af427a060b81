//! Saving: every section encoded and checksummed at once, then laid out in file order.

use super::{
    FORMAT_VERSION, LEN_AND_CRC, LayerSection, MAGIC, MAX_NAME_BYTES, TAG_DICT, TAG_LAYER,
    TAG_MESH, TAG_RANDOM, checksum, unsaveable,
};
use crate::World;
use crate::error::WorldError;
use crate::slot::{Slot, bincode_config};
use layers::{Dict, MAX_DEPTH};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;

/// Appends one section to `out`: its header, its payload encoded in place (no copy), then
/// the payload's length and checksum written into the header.
fn write_section<T: Serialize>(
    out: &mut Vec<u8>,
    tag: u8,
    name: &str,
    value: &T,
) -> Result<(), WorldError> {
    if name.len() > MAX_NAME_BYTES {
        return Err(WorldError::NameTooLong {
            bytes: name.len(),
            max: MAX_NAME_BYTES,
        });
    }
    out.push(tag);
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    let at = out.len();
    out.extend_from_slice(&[0; LEN_AND_CRC]);
    bincode::serde::encode_into_std_write(value, out, bincode_config())
        .map_err(|e| unsaveable(name, &e))?;
    let payload = &out[at + LEN_AND_CRC..];
    let len = (payload.len() as u64).to_le_bytes();
    let crc = checksum(tag, name.as_bytes(), payload).to_le_bytes();
    out[at..at + 8].copy_from_slice(&len);
    out[at + 8..at + LEN_AND_CRC].copy_from_slice(&crc);
    Ok(())
}

/// A section after the mesh's.
enum Job<'a> {
    Random,
    Dict(&'a str, &'a Dict),
    Layer(&'a Slot),
}

impl World {
    /// One section after the mesh's, as its bytes in the file.
    fn encode_section(&self, job: &Job<'_>) -> Result<Vec<u8>, WorldError> {
        let mut out = Vec::new();
        match job {
            Job::Random => write_section(&mut out, TAG_RANDOM, "random", &*self.rng)?,
            Job::Dict(name, dict) => {
                let depth = dict.depth();
                if depth > MAX_DEPTH {
                    return Err(WorldError::TooDeep {
                        dict: name.to_string(),
                        depth,
                        max: MAX_DEPTH,
                    });
                }
                write_section(&mut out, TAG_DICT, name, dict)?;
            }
            Job::Layer(s) => {
                let (values, len, pending) = s.stored();
                let (on_change, interpolation) = s.policies();
                let section = LayerSection {
                    kind: s.kind,
                    type_key: s.type_key.clone(),
                    version: s.version,
                    len: len as u64,
                    on_change,
                    interpolation,
                    values: &values,
                    pending,
                };
                out.reserve_exact(values.len() + s.name.len() + 256);
                write_section(&mut out, TAG_LAYER, &s.name, &section)?;
            }
        }
        Ok(out)
    }

    /// Encodes the whole world into one buffer (see the module docs for the layout), every
    /// section at once on all cores; the bytes do not depend on the thread count.
    ///
    /// # Errors
    ///
    /// [`WorldError::NameTooLong`] for a layer or dictionary name of more than
    /// [`MAX_NAME_BYTES`] bytes, [`WorldError::TooDeep`] for a dictionary nested deeper than
    /// [`MAX_DEPTH`], [`WorldError::Unsaveable`] if a component cannot be encoded (the first
    /// such section in file order). Nothing is written that could not be loaded back.
    pub fn save_to_vec(&self) -> Result<Vec<u8>, WorldError> {
        let mut jobs = vec![Job::Random];
        jobs.extend(self.dicts.iter().map(|(n, (d, _))| Job::Dict(n, d)));
        jobs.extend(self.layers.iter().map(Job::Layer));
        // The mesh, the largest section, is encoded straight into the output while the
        // other sections are encoded beside it.
        let (head, rest) = rayon::join(
            || -> Result<Vec<u8>, WorldError> {
                let mut out = Vec::with_capacity(self.mesh.heap_bytes() + 1024);
                out.extend_from_slice(MAGIC);
                out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
                let count = 2 + self.dicts.len() + self.layers.len();
                out.extend_from_slice(&(count as u32).to_le_bytes());
                write_section(&mut out, TAG_MESH, "mesh", &*self.mesh)?;
                Ok(out)
            },
            || {
                jobs.par_iter()
                    .map(|j| self.encode_section(j))
                    .collect::<Vec<_>>()
            },
        );
        let mut out = head?;
        let rest = rest.into_iter().collect::<Result<Vec<_>, _>>()?;
        out.reserve_exact(rest.iter().map(Vec::len).sum());
        for section in rest {
            out.extend_from_slice(&section);
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
}
