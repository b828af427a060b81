//! One named layer inside a world: typed and shared, or still encoded from a file.

use crate::error::WorldError;
use layers::{AnyLayer, ApplyOutcome, ElementKind, Kind, Layer, LayerValue, Sizes};
use quadedge::Change;
use std::sync::{Arc, OnceLock};

/// Encodes a typed layer; monomorphised when the layer is first seen with its type, so no
/// global registry of types is needed.
pub(crate) type EncodeFn = fn(&dyn AnyLayer) -> Vec<u8>;

pub(crate) fn bincode_config() -> impl bincode::config::Config {
    // The limit caps what a corrupt length prefix can make the decoder claim.
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<{ 1 << 31 }>()
}

fn encode_typed<T: LayerValue, K: Kind>(l: &dyn AnyLayer) -> Vec<u8> {
    let layer = l.downcast_ref::<T, K>().expect("encoder matches its layer");
    bincode::serde::encode_to_vec(layer, bincode_config()).expect("encoding to memory cannot fail")
}

/// A decoded layer with its encoder.
#[derive(Clone)]
pub(crate) struct Typed {
    pub layer: Arc<Box<dyn AnyLayer>>,
    pub encode: EncodeFn,
}

/// What reached a layer while it was still encoded, replayed in order on decode:
/// `(reset, changes, sizes)` — `reset` means the mesh was replaced wholesale (all values back
/// to initial at `sizes`), otherwise `changes` is a journal batch.
pub(crate) type Pending = Vec<(bool, Arc<[Change]>, Sizes)>;

#[derive(Clone)]
pub(crate) enum State {
    Typed(Typed),
    /// Loaded from a file, not yet asked for by type. Decoded on first typed access, then
    /// the journal batches that arrived meanwhile are replayed.
    Encoded {
        bytes: Arc<[u8]>,
        pending: Arc<Pending>,
        decoded: Arc<OnceLock<Result<Typed, String>>>,
    },
}

#[derive(Clone)]
pub(crate) struct Slot {
    pub name: String,
    pub kind: ElementKind,
    pub type_name: String,
    pub version: u64,
    pub state: State,
    /// Validation failure found when a guard was dropped, until taken.
    pub error: Option<layers::LayerError>,
}

impl Slot {
    pub fn new<T: LayerValue, K: Kind>(layer: Layer<T, K>, version: u64) -> Self {
        Slot {
            name: layer.name().to_string(),
            kind: K::KIND,
            type_name: T::type_name().to_string(),
            version,
            state: State::Typed(Typed {
                layer: Arc::new(Box::new(layer)),
                encode: encode_typed::<T, K>,
            }),
            error: None,
        }
    }

    pub fn check_type<T: LayerValue, K: Kind>(&self) -> Result<(), WorldError> {
        if self.kind != K::KIND || self.type_name != T::type_name() {
            return Err(WorldError::LayerMismatch {
                name: self.name.clone(),
                stored: (self.kind, self.type_name.clone()),
                requested: (K::KIND, T::type_name().to_string()),
            });
        }
        Ok(())
    }

    fn decode<T: LayerValue, K: Kind>(bytes: &[u8], pending: &Pending) -> Result<Typed, String> {
        let (mut layer, used): (Layer<T, K>, usize) =
            bincode::serde::decode_from_slice(bytes, bincode_config())
                .map_err(|e| e.to_string())?;
        if used != bytes.len() {
            return Err(format!("{} trailing bytes", bytes.len() - used));
        }
        let mut removed = false;
        for (reset, changes, sizes) in pending {
            if *reset {
                layer.resize(<K as Kind>::KIND.slots(*sizes));
                layer.reset();
            } else if layer.apply_changes(changes, *sizes) == ApplyOutcome::Remove {
                removed = true;
            }
        }
        if removed {
            return Err("a remove-layer policy fired while the layer was encoded".into());
        }
        Ok(Typed {
            layer: Arc::new(Box::new(layer)),
            encode: encode_typed::<T, K>,
        })
    }

    /// The typed layer, decoding it first if needed (through `&self`: the decode is cached).
    pub fn get<T: LayerValue, K: Kind>(&self) -> Result<&Layer<T, K>, WorldError> {
        self.check_type::<T, K>()?;
        let typed = match &self.state {
            State::Typed(t) => t,
            State::Encoded {
                bytes,
                pending,
                decoded,
            } => decoded
                .get_or_init(|| Self::decode::<T, K>(bytes, pending))
                .as_ref()
                .map_err(|r| WorldError::Corrupt {
                    section: self.name.clone(),
                    reason: r.clone(),
                })?,
        };
        Ok(typed
            .layer
            .downcast_ref::<T, K>()
            .expect("type checked above"))
    }

    /// Makes the slot typed (decoding if needed) and returns the layer for writing; copies
    /// the layer's chunk table if a snapshot shares it.
    pub fn get_mut<T: LayerValue, K: Kind>(&mut self) -> Result<&mut Layer<T, K>, WorldError> {
        self.check_type::<T, K>()?;
        if let State::Encoded {
            bytes,
            pending,
            decoded,
        } = &self.state
        {
            let typed = match decoded.get() {
                Some(r) => r.clone(),
                None => Self::decode::<T, K>(bytes, pending),
            }
            .map_err(|r| WorldError::Corrupt {
                section: self.name.clone(),
                reason: r,
            })?;
            self.state = State::Typed(typed);
        }
        let State::Typed(t) = &mut self.state else {
            unreachable!("made typed above")
        };
        let boxed = Arc::make_mut(&mut t.layer);
        Ok(boxed.downcast_mut::<T, K>().expect("type checked above"))
    }

    /// Brings the layer up to date with a journal batch. Returns `false` when the layer
    /// asked to be removed.
    pub fn apply(&mut self, changes: &Arc<[Change]>, sizes: Sizes, version: u64) -> bool {
        match &mut self.state {
            State::Typed(t) => match Arc::make_mut(&mut t.layer).apply_changes(changes, sizes) {
                ApplyOutcome::Remove => return false,
                ApplyOutcome::Changed => self.version = version,
                ApplyOutcome::Unchanged => {}
            },
            State::Encoded {
                pending, decoded, ..
            } => {
                let mut p = (**pending).clone();
                p.push((false, changes.clone(), sizes));
                *pending = Arc::new(p);
                *decoded = Arc::new(OnceLock::new());
                self.version = version;
            }
        }
        true
    }

    /// The mesh was replaced wholesale: every value goes back to the initial one.
    pub fn reset_to(&mut self, sizes: Sizes, version: u64) {
        match &mut self.state {
            State::Typed(t) => {
                let l = Arc::make_mut(&mut t.layer);
                l.resize_to(sizes);
                l.reset();
            }
            State::Encoded {
                pending, decoded, ..
            } => {
                let mut p = (**pending).clone();
                p.push((true, Arc::from(Vec::new()), sizes));
                *pending = Arc::new(p);
                *decoded = Arc::new(OnceLock::new());
            }
        }
        self.version = version;
    }

    /// Bytes of the encoded layer plus its pending journal (what a file stores).
    pub fn encoded(&self) -> (Vec<u8>, Pending) {
        match &self.state {
            State::Typed(t) => ((t.encode)(t.layer.as_ref().as_ref()), Vec::new()),
            State::Encoded { bytes, pending, .. } => (bytes.to_vec(), (**pending).clone()),
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

    /// Does this slot share its storage with `other` (same `Arc`)?
    pub fn shares(&self, other: &Slot) -> bool {
        match (&self.state, &other.state) {
            (State::Typed(a), State::Typed(b)) => Arc::ptr_eq(&a.layer, &b.layer),
            (State::Encoded { bytes: a, .. }, State::Encoded { bytes: b, .. }) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    pub fn validate(&self) -> Result<(), layers::LayerError> {
        match &self.state {
            State::Typed(t) => t.layer.validate(),
            State::Encoded { .. } => Ok(()),
        }
    }
}
