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
//!
//! Sections are independent, so both directions run on all cores (rayon): saving encodes
//! and checksums every section at once (a large payload's CRC in 4 MiB pieces, combined),
//! then lays them out in order; loading reads the section headers in order (bounds checked
//! before anything is allocated), then checks and decodes every section at once (the mesh
//! with `Mesh::check_par`), then assembles them in order, reporting the first error in file
//! order exactly as a sequential reader would. The bytes written do not depend on the
//! thread count.

mod load;
mod save;

use crate::error::WorldError;
use crate::slot::{Batch, bincode_config};
use layers::{ElementKind, Interpolation, OnChange};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

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

/// Bytes of a section before its payload, past its name: payload length u64, crc32 u32.
const LEN_AND_CRC: usize = 12;

/// A layer's section; the values are borrowed both ways (no copy while encoding, one copy
/// into the world while loading).
#[derive(Serialize, Deserialize)]
struct LayerSection<'a> {
    kind: ElementKind,
    type_key: String,
    version: u64,
    /// Number of values stored (before `pending`).
    len: u64,
    on_change: OnChange,
    interpolation: Interpolation,
    /// One byte string: bincode copies it in one go instead of visiting each byte through
    /// serde (measured: that was a quarter of loading a 1M-vertex world).
    #[serde(with = "serde_bytes", borrow)]
    values: &'a [u8],
    pending: Vec<Batch>,
}

/// The fields of a [`LayerSection`] before its values, in its order: saving writes this,
/// then the values as a byte string (u64 length, bytes) encoded in place, then the pending
/// batches, which is the bincode encoding of the whole section.
#[derive(Serialize)]
struct LayerHead<'a> {
    kind: ElementKind,
    type_key: &'a str,
    version: u64,
    len: u64,
    on_change: OnChange,
    interpolation: Interpolation,
}

fn unsaveable(section: &str, e: &impl std::fmt::Display) -> WorldError {
    WorldError::Unsaveable {
        section: section.into(),
        reason: e.to_string(),
    }
}

fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8], section: &str) -> Result<T, WorldError> {
    let (v, used) = bincode::serde::decode_from_slice(bytes, bincode_config())
        .map_err(|e| corrupt(section, e))?;
    if used != bytes.len() {
        return Err(corrupt(section, "trailing bytes"));
    }
    Ok(v)
}

fn corrupt(section: &str, reason: impl ToString) -> WorldError {
    WorldError::Corrupt {
        section: section.into(),
        reason: reason.to_string(),
    }
}

/// Payloads longer than this are checksummed in pieces of this size on all cores.
const CRC_PIECE: usize = 4 << 20;

/// CRC-32 over tag, name and payload: a flipped bit anywhere in a section is caught. Large
/// payloads are hashed in pieces in parallel and combined: the same value as one pass.
fn checksum(tag: u8, name: &[u8], payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&[tag]);
    h.update(name);
    if payload.len() <= CRC_PIECE {
        h.update(payload);
    } else {
        let pieces: Vec<crc32fast::Hasher> = payload
            .par_chunks(CRC_PIECE)
            .map(|c| {
                let mut p = crc32fast::Hasher::new();
                p.update(c);
                p
            })
            .collect();
        for p in &pieces {
            h.combine(p);
        }
    }
    h.finalize()
}
