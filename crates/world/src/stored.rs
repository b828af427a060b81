//! A layer's values as a file stores them, encoded straight into the file being written.

use crate::slot::Typed;

/// A layer's values as a file stores them: encoded on demand, or as loaded.
pub(crate) enum StoredValues<'a> {
    Typed(&'a Typed),
    Bytes(&'a [u8]),
}

impl StoredValues<'_> {
    /// Bytes of the encoding (counted, not written, for a typed layer).
    pub fn len(&self) -> usize {
        match self {
            StoredValues::Typed(t) => (t.encode)(t.layer.as_ref().as_ref(), None),
            StoredValues::Bytes(b) => b.len(),
        }
    }

    /// Writes the encoding into `dst`, which is [`StoredValues::len`] bytes long.
    pub fn write(&self, dst: &mut [u8]) {
        match self {
            StoredValues::Typed(t) => {
                (t.encode)(t.layer.as_ref().as_ref(), Some(dst));
            }
            StoredValues::Bytes(b) => dst.copy_from_slice(b),
        }
    }
}

impl Typed {
    /// The layer's encoding, in a buffer of its exact size.
    pub fn encode_to_vec(&self) -> Vec<u8> {
        let layer = self.layer.as_ref().as_ref();
        let mut out = vec![0; (self.encode)(layer, None)];
        (self.encode)(layer, Some(&mut out));
        out
    }
}
