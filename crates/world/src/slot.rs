//! One named layer inside a world: typed and shared, or still encoded from a file.

use crate::edit::Shared;
use crate::error::WorldError;
use layers::{
    AnyLayer, ApplyOutcome, ElementKind, Interpolation, Kind, Layer, LayerError, LayerValue,
    OnChange, Sizes, journal_removes_layer,
};
use quadedge::Change;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock, RwLock};

/// Encodes a typed layer; monomorphised when the layer is first seen with its type, so no
/// global registry of types is needed.
/// Encodes a layer of the slot's type into `dst` (returns the bytes written), or with `None`
/// only counts the bytes (no memory written: a file can be laid out before it is filled).
pub(crate) type EncodeFn = fn(&dyn AnyLayer, Option<&mut [u8]>) -> usize;
/// Decodes bytes of the same type as the layer that supplied it (see [`Slot::decode`]).
pub(crate) type DecodeFn = fn(&Header, &[u8], &[Batch]) -> Result<Typed, DecodeError>;

pub(crate) fn bincode_config() -> impl bincode::config::Config {
    // The limit caps what a corrupt length prefix can make the decoder claim.
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<{ 1 << 31 }>()
}

fn encode_typed<T: LayerValue, K: Kind>(l: &dyn AnyLayer, dst: Option<&mut [u8]>) -> usize {
    let layer = l.downcast_ref::<T, K>().expect("encoder matches its layer");
    match dst {
        None => {
            let mut w = bincode::enc::write::SizeWriter::default();
            bincode::serde::encode_into_writer(layer, &mut w, bincode_config())
                .expect("counting cannot fail");
            w.bytes_written
        }
        Some(dst) => bincode::serde::encode_into_slice(layer, dst, bincode_config())
            .expect("the destination was sized by a count"),
    }
}

/// Decoders of every layer type this process has held, so two layers that were never decoded
/// can still be compared by contents. Written once per type (when a layer of it is created or
/// decoded); a handful of entries, so a list.
type Decoders = RwLock<Vec<(&'static str, ElementKind, DecodeFn)>>;

fn decoders() -> &'static Decoders {
    static DECODERS: OnceLock<Decoders> = OnceLock::new();
    DECODERS.get_or_init(|| RwLock::new(Vec::new()))
}

fn register<T: LayerValue, K: Kind>() {
    let known = |list: &[(&'static str, ElementKind, DecodeFn)]| {
        list.iter()
            .any(|(t, k, _)| *t == T::TYPE_KEY && *k == K::KIND)
    };
    if decoders().read().is_ok_and(|l| known(&l)) {
        return;
    }
    if let Ok(mut l) = decoders().write()
        && !known(&l)
    {
        l.push((T::TYPE_KEY, K::KIND, Slot::decode::<T, K>));
    }
}

pub(crate) fn registered_decoder(type_key: &str, kind: ElementKind) -> Option<DecodeFn> {
    let l = decoders().read().ok()?;
    l.iter()
        .find(|(t, k, _)| *t == type_key && *k == kind)
        .map(|(_, _, d)| *d)
}

/// A decoded layer with the functions that encode and decode its type.
#[derive(Clone)]
pub(crate) struct Typed {
    pub layer: Arc<Box<dyn AnyLayer>>,
    pub encode: EncodeFn,
    pub decode: DecodeFn,
}

/// What reached a layer while it was still encoded, replayed in order on decode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Batch {
    /// A journal batch, replayed by the layer's policies; `Sizes` are the mesh's slot counts
    /// after it.
    Changes(Arc<[Change]>, Sizes),
    /// The mesh was replaced wholesale: every value back to the initial one at these sizes.
    Reset(Sizes),
    /// The mesh was replaced with the same id space for this layer's kind: values kept,
    /// length set to these sizes.
    Resize(Sizes),
}

impl Batch {
    pub fn sizes(&self) -> Sizes {
        match self {
            Batch::Changes(_, s) | Batch::Reset(s) | Batch::Resize(s) => *s,
        }
    }
}

/// Why a stored layer could not be handed out.
#[derive(Clone, Debug)]
pub(crate) enum DecodeError {
    /// The bytes do not make a layer consistent with its section.
    Corrupt(String),
    /// The layer decoded, but its values fail its own validation.
    Invalid(LayerError),
}

/// What a layer section says about the layer before its values are decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub name: String,
    pub kind: ElementKind,
    pub type_key: String,
    /// Number of stored values (before the pending batches).
    pub len: usize,
    pub on_change: OnChange,
    pub interpolation: Interpolation,
}

#[derive(Clone)]
pub(crate) enum State {
    Typed(Typed),
    /// Loaded from a file, not yet asked for by type. Decoded on first typed access, then
    /// the batches that arrived meanwhile are replayed.
    Encoded {
        len: usize,
        on_change: OnChange,
        interpolation: Interpolation,
        bytes: Arc<[u8]>,
        pending: Arc<Vec<Batch>>,
        decoded: Arc<OnceLock<Result<Typed, DecodeError>>>,
    },
}

#[derive(Clone)]
pub(crate) struct Slot {
    pub name: String,
    pub kind: ElementKind,
    pub type_key: String,
    /// Stamp from the world's clock of the last change of the values.
    pub version: u64,
    pub state: State,
}

impl Slot {
    pub fn new<T: LayerValue, K: Kind>(layer: Layer<T, K>, version: u64) -> Self {
        register::<T, K>();
        Slot {
            name: layer.name().to_string(),
            kind: K::KIND,
            type_key: T::TYPE_KEY.to_string(),
            version,
            state: State::Typed(Typed {
                layer: Arc::new(Box::new(layer)),
                encode: encode_typed::<T, K>,
                decode: Self::decode::<T, K>,
            }),
        }
    }

    pub fn check_type<T: LayerValue, K: Kind>(&self) -> Result<(), WorldError> {
        if self.kind != K::KIND || self.type_key != T::TYPE_KEY {
            return Err(WorldError::LayerMismatch {
                name: self.name.clone(),
                stored: (self.kind, self.type_key.clone()),
                requested: (K::KIND, T::TYPE_KEY.to_string()),
            });
        }
        Ok(())
    }

    fn header(&self) -> Option<Header> {
        match &self.state {
            State::Typed(_) => None,
            State::Encoded {
                len,
                on_change,
                interpolation,
                ..
            } => Some(Header {
                name: self.name.clone(),
                kind: self.kind,
                type_key: self.type_key.clone(),
                len: *len,
                on_change: *on_change,
                interpolation: *interpolation,
            }),
        }
    }

    /// Decodes a stored layer and replays what reached it meanwhile. Everything the section
    /// header promised is checked against the decoded layer, and the result against its own
    /// validation, so an inconsistent or invalid layer is never handed out.
    fn decode<T: LayerValue, K: Kind>(
        h: &Header,
        bytes: &[u8],
        pending: &[Batch],
    ) -> Result<Typed, DecodeError> {
        register::<T, K>();
        let corrupt = |m: String| Err(DecodeError::Corrupt(m));
        let (mut layer, used): (Layer<T, K>, usize) =
            bincode::serde::decode_from_slice(bytes, bincode_config())
                .map_err(|e| DecodeError::Corrupt(e.to_string()))?;
        if used != bytes.len() {
            return corrupt(format!("{} trailing bytes", bytes.len() - used));
        }
        if layer.name() != h.name {
            return corrupt(format!("the layer calls itself `{}`", layer.name()));
        }
        if layer.len() != h.len {
            return corrupt(format!("{} values, the header says {}", layer.len(), h.len));
        }
        let info = layer.info();
        if (info.on_change_policy(), info.interpolation_policy()) != (h.on_change, h.interpolation)
        {
            return corrupt("policies differ from the section header".into());
        }
        for batch in pending {
            match batch {
                Batch::Reset(sizes) => {
                    layer.resize(K::KIND.slots(*sizes));
                    layer.reset();
                }
                Batch::Resize(sizes) => layer.resize(K::KIND.slots(*sizes)),
                Batch::Changes(changes, sizes) => {
                    if layer.apply_changes(changes, *sizes) == ApplyOutcome::Remove {
                        return corrupt("a pending batch removes the layer".into());
                    }
                }
            }
        }
        layer.validate().map_err(|e| match e {
            LayerError::BadRange { .. } => DecodeError::Corrupt(e.to_string()),
            e => DecodeError::Invalid(e),
        })?;
        Ok(Typed {
            layer: Arc::new(Box::new(layer)),
            encode: encode_typed::<T, K>,
            decode: Self::decode::<T, K>,
        })
    }

    fn to_world_error(&self, e: &DecodeError) -> WorldError {
        match e {
            DecodeError::Corrupt(reason) => WorldError::Corrupt {
                section: self.name.clone(),
                reason: reason.clone(),
            },
            DecodeError::Invalid(e) => WorldError::Invalid(e.clone()),
        }
    }

    /// The decoded layer, through `&self` (the decode is cached), with the decoder to use.
    pub(crate) fn typed_with(&self, decode: DecodeFn) -> Result<&Typed, WorldError> {
        match &self.state {
            State::Typed(t) => Ok(t),
            State::Encoded {
                bytes,
                pending,
                decoded,
                ..
            } => {
                let h = self.header().expect("encoded");
                decoded
                    .get_or_init(|| decode(&h, bytes, pending))
                    .as_ref()
                    .map_err(|e| self.to_world_error(e))
            }
        }
    }

    /// The layer if it is typed or already decoded (no decoder needed).
    fn typed_if_known(&self) -> Option<&Typed> {
        match &self.state {
            State::Typed(t) => Some(t),
            State::Encoded { decoded, .. } => decoded.get().and_then(|r| r.as_ref().ok()),
        }
    }

    /// The typed layer, decoding it first if needed (through `&self`: the decode is cached).
    pub fn get<T: LayerValue, K: Kind>(&self) -> Result<&Layer<T, K>, WorldError> {
        self.check_type::<T, K>()?;
        let typed = self.typed_with(Self::decode::<T, K>)?;
        Ok(typed
            .layer
            .downcast_ref::<T, K>()
            .expect("type checked above"))
    }

    /// Makes the slot typed (decoding if needed) and returns the layer for writing; copies
    /// the layer's chunk table if a snapshot shares it.
    pub fn get_mut<T: LayerValue, K: Kind>(&mut self) -> Result<&mut Layer<T, K>, WorldError> {
        self.check_type::<T, K>()?;
        if let State::Encoded { .. } = &self.state {
            let typed = self.typed_with(Self::decode::<T, K>)?.clone();
            self.state = State::Typed(typed);
        }
        let State::Typed(t) = &mut self.state else {
            unreachable!("made typed above")
        };
        let boxed = Arc::make_mut(&mut t.layer);
        Ok(boxed.downcast_mut::<T, K>().expect("type checked above"))
    }

    /// The typed layer's write count, if typed (for "did the guard write?").
    pub fn write_count(&self) -> Option<u64> {
        match &self.state {
            State::Typed(t) => Some(t.layer.write_count()),
            State::Encoded { .. } => None,
        }
    }

    fn push_pending(&mut self, batch: Batch) {
        if let State::Encoded {
            pending, decoded, ..
        } = &mut self.state
        {
            Arc::make_mut(pending).push(batch);
            *decoded = Arc::new(OnceLock::new());
        }
    }

    /// A decoded vertex layer of `sizes`' length: a journal of flips and vertex moves alone
    /// leaves it as is.
    pub fn skips_flips(&self, sizes: Sizes) -> bool {
        matches!(&self.state, State::Typed(t) if self.kind == ElementKind::Vertex && t.layer.len() == sizes.vertices)
    }

    /// Brings the layer up to date with a journal batch (an encoded layer keeps `arc`'s copy).
    /// Returns `false` when the layer asked to be removed — decided from the policies alone,
    /// so a layer still encoded is removed exactly when a decoded one would be.
    pub fn apply(&mut self, changes: &[Change], arc: &Shared, sizes: Sizes, version: u64) -> bool {
        match &mut self.state {
            State::Typed(t) => match Arc::make_mut(&mut t.layer).apply_changes(changes, sizes) {
                ApplyOutcome::Remove => return false,
                ApplyOutcome::Changed => self.version = version,
                ApplyOutcome::Unchanged => {}
            },
            State::Encoded {
                on_change,
                interpolation,
                ..
            } => {
                if journal_removes_layer(self.kind, *on_change, *interpolation, changes) {
                    return false;
                }
                let kept = arc.get_or_init(|| changes.into()).clone();
                self.push_pending(Batch::Changes(kept, sizes));
                self.version = version;
            }
        }
        true
    }

    /// The mesh was replaced wholesale: values go back to the initial one (`keep == false`)
    /// or are kept and resized (`keep == true`, the id space of this kind is unchanged).
    pub fn replace(&mut self, sizes: Sizes, keep: bool, version: u64) {
        match &mut self.state {
            State::Typed(t) => {
                let l = Arc::make_mut(&mut t.layer);
                l.resize_to(sizes);
                if !keep {
                    l.reset();
                }
            }
            State::Encoded { .. } => self.push_pending(if keep {
                Batch::Resize(sizes)
            } else {
                Batch::Reset(sizes)
            }),
        }
        self.version = version;
    }

    /// What a file stores, without encoding anything yet: the values (a typed layer to encode
    /// in place, or the stored bytes), the stored length and the pending batches.
    pub fn to_save(&self) -> (crate::stored::StoredValues<'_>, usize, Vec<Batch>) {
        match &self.state {
            State::Typed(t) => (
                crate::stored::StoredValues::Typed(t),
                t.layer.len(),
                Vec::new(),
            ),
            State::Encoded {
                bytes,
                pending,
                len,
                ..
            } => (
                crate::stored::StoredValues::Bytes(bytes),
                *len,
                (**pending).clone(),
            ),
        }
    }

    /// What a file stores, copying nothing already encoded: the bytes (borrowed, or encoded
    /// now from a typed layer), the stored length and the pending batches.
    pub fn stored(&self) -> (std::borrow::Cow<'_, [u8]>, usize, Vec<Batch>) {
        match &self.state {
            State::Typed(t) => (t.encode_to_vec().into(), t.layer.len(), Vec::new()),
            State::Encoded {
                bytes,
                pending,
                len,
                ..
            } => (bytes[..].into(), *len, (**pending).clone()),
        }
    }

    /// The policies, from the typed layer or the section header.
    pub fn policies(&self) -> (OnChange, Interpolation) {
        match &self.state {
            State::Typed(t) => (t.layer.on_change_policy(), t.layer.interpolation_policy()),
            State::Encoded {
                on_change,
                interpolation,
                ..
            } => (*on_change, *interpolation),
        }
    }

    /// Same contents: decoded values compared bit for bit when the type is known (either
    /// side is typed, or this process has held a layer of the type), otherwise the stored
    /// bytes and pending batches.
    pub fn same_contents(&self, other: &Slot) -> bool {
        if self.name != other.name || self.kind != other.kind || self.type_key != other.type_key {
            return false;
        }
        let decoder = self
            .typed_if_known()
            .or_else(|| other.typed_if_known())
            .map(|t| t.decode)
            .or_else(|| registered_decoder(&self.type_key, self.kind));
        let stored = |s: &Slot| {
            let (b, len, p) = s.stored();
            let p = bincode::serde::encode_to_vec(&p, bincode_config()).ok();
            (s.policies(), b.into_owned(), len, p)
        };
        match decoder.map(|d| (self.typed_with(d), other.typed_with(d))) {
            Some((Ok(a), Ok(b))) => a.layer.bits_eq(b.layer.as_ref().as_ref()),
            Some((Ok(_), Err(_)) | (Err(_), Ok(_))) => false,
            // Undecodable (or of a type never held): the stored form is all there is.
            Some((Err(_), Err(_))) | None => stored(self) == stored(other),
        }
    }

    pub fn heap_bytes(&self) -> usize {
        match &self.state {
            State::Typed(t) => t.layer.heap_bytes(),
            // Once decoded through `&self`, both the bytes and the values are held.
            State::Encoded { bytes, decoded, .. } => {
                bytes.len()
                    + match decoded.get() {
                        Some(Ok(t)) => t.layer.heap_bytes(),
                        _ => 0,
                    }
            }
        }
    }

    /// Heap bytes `self` holds that `other` does not share (chunk by chunk for typed layers).
    pub fn unshared_bytes(&self, other: &Slot) -> usize {
        match (&self.state, &other.state) {
            (State::Typed(a), State::Typed(b)) => {
                if Arc::ptr_eq(&a.layer, &b.layer) {
                    0
                } else {
                    a.layer.unshared_bytes(b.layer.as_ref().as_ref())
                }
            }
            (State::Encoded { bytes: a, .. }, State::Encoded { bytes: b, .. })
                if Arc::ptr_eq(a, b) =>
            {
                0
            }
            _ => self.heap_bytes(),
        }
    }

    /// Does the layer validate itself on every write through a guard? (A layer still
    /// encoded cannot have been written.)
    pub fn auto_validated(&self) -> bool {
        match &self.state {
            State::Typed(t) => t.layer.is_auto_validated(),
            State::Encoded { .. } => false,
        }
    }

    pub fn validate(&self) -> Result<(), LayerError> {
        match &self.state {
            State::Typed(t) => t.layer.validate(),
            State::Encoded { .. } => Ok(()),
        }
    }
}
