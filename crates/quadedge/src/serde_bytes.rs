//! Serde for the mesh's `u32` arrays as one byte string each (little-endian), so binary
//! formats copy them in bulk instead of visiting millions of elements one by one (measured:
//! element-wise decoding was a third of loading a 1M-vertex world). Self-describing formats
//! see a byte array; any sequence of bytes is accepted back.

use crate::{Edge, Face, Vertex};
use serde::de::{Error, SeqAccess, Visitor};
use serde::{Deserializer, Serializer};
use std::marker::PhantomData;

/// A `u32` newtype stored in the mesh arrays.
///
/// # Safety
/// Implementors must be `u32` or `#[repr(transparent)]` over `u32`, so that a slice of them
/// can be viewed as bytes without a copy (why: see the measurement in [`serialize`]).
// SAFETY: an unsafe trait because `serialize` views `&[T]` as bytes; the contract above is
// what makes that sound, and every impl below states why it holds. Measured reason: copying
// into a byte buffer first made saving a 1M-vertex world 30% slower.
pub(crate) unsafe trait Raw: Copy + Send + Sync {
    #[cfg_attr(target_endian = "little", allow(dead_code))]
    fn to_u32(self) -> u32;
    fn from_u32(raw: u32) -> Self;
}

// The byte view below relies on every `Raw` type being exactly a `u32` in size and alignment;
// checked at compile time, so a change to the id types cannot silently break it.
const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<Vertex>() == 4 && align_of::<Vertex>() == align_of::<u32>());
    assert!(size_of::<Face>() == 4 && align_of::<Face>() == align_of::<u32>());
    assert!(size_of::<Edge>() == 4 && align_of::<Edge>() == align_of::<u32>());
};

// SAFETY: `u32` itself.
unsafe impl Raw for u32 {
    fn to_u32(self) -> u32 {
        self
    }
    fn from_u32(raw: u32) -> Self {
        raw
    }
}

// SAFETY: `#[repr(transparent)]` over `u32`.
unsafe impl Raw for Vertex {
    fn to_u32(self) -> u32 {
        self.raw()
    }
    fn from_u32(raw: u32) -> Self {
        Vertex::new(raw)
    }
}

// SAFETY: `#[repr(transparent)]` over `u32`.
unsafe impl Raw for Face {
    fn to_u32(self) -> u32 {
        self.raw()
    }
    fn from_u32(raw: u32) -> Self {
        Face::new(raw)
    }
}

// SAFETY: `#[repr(transparent)]` over `u32`.
unsafe impl Raw for Edge {
    fn to_u32(self) -> u32 {
        self.raw()
    }
    fn from_u32(raw: u32) -> Self {
        Edge::from_raw(raw)
    }
}

pub(crate) fn serialize<T: Raw, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
    #[cfg(target_endian = "little")]
    {
        // SAFETY: `T` is `u32` or transparent over it (trait contract), so the slice is
        // `4 * len` initialised bytes with no padding, aligned for `u8`, borrowed for as
        // long as `v`. On little-endian targets these bytes are the format's encoding.
        // Measured: copying into a byte buffer first made saving a 1M world 30% slower.
        let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), 4 * v.len()) };
        s.serialize_bytes(bytes)
    }
    #[cfg(not(target_endian = "little"))]
    {
        let mut bytes = Vec::with_capacity(4 * v.len());
        for x in v {
            bytes.extend_from_slice(&x.to_u32().to_le_bytes());
        }
        s.serialize_bytes(&bytes)
    }
}

pub(crate) fn deserialize<'de, T: Raw, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    d.deserialize_bytes(BytesVisitor(PhantomData))
}

struct BytesVisitor<T>(PhantomData<T>);

fn from_bytes<T: Raw, E: Error>(b: &[u8]) -> Result<Vec<T>, E> {
    if !b.len().is_multiple_of(4) {
        return Err(E::invalid_length(b.len(), &"a multiple of 4 bytes"));
    }
    let value = |c: &[u8]| T::from_u32(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    // Large arrays (a loaded mesh's) are converted on all cores: the same values in order.
    #[cfg(feature = "rayon")]
    if b.len() >= PAR_BYTES {
        use rayon::prelude::*;
        return Ok(b.par_chunks_exact(4).map(value).collect());
    }
    Ok(b.chunks_exact(4).map(value).collect())
}

/// Arrays of at least this many bytes are converted in parallel.
#[cfg(feature = "rayon")]
const PAR_BYTES: usize = 1 << 20;

impl<'de, T: Raw> Visitor<'de> for BytesVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("little-endian u32 values as bytes")
    }

    fn visit_bytes<E: Error>(self, b: &[u8]) -> Result<Vec<T>, E> {
        from_bytes(b)
    }

    fn visit_borrowed_bytes<E: Error>(self, b: &'de [u8]) -> Result<Vec<T>, E> {
        from_bytes(b)
    }

    fn visit_byte_buf<E: Error>(self, b: Vec<u8>) -> Result<Vec<T>, E> {
        from_bytes(&b)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // Self-describing formats (JSON) hand bytes back as a sequence. Grow as elements
        // arrive: the size hint of untrusted input is not trusted.
        let mut b = Vec::new();
        while let Some(x) = seq.next_element::<u8>()? {
            b.push(x);
        }
        from_bytes(&b)
    }
}
