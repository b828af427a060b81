//! Type-erased layers: what the world stores without knowing `T`.

use crate::error::LayerError;
use crate::info::{Interpolation, OnChange};
use crate::kind::{ElementKind, Kind, Sizes};
use crate::layer::Layer;
use crate::value::LayerValue;
use core::any::Any;
use core::fmt;
use quadedge::Change;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// What [`Layer::apply_changes`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[must_use = "a layer may ask to be removed"]
pub enum ApplyOutcome {
    /// No value or length changed.
    Unchanged,
    /// Values or the length changed (the version was bumped).
    Changed,
    /// A `RemoveLayer` policy triggered: drop the layer.
    Remove,
}

/// A [`Layer`] with its value type and kind erased, so a world can hold layers of every type
/// in one map and replay the mesh journal into all of them.
///
/// Object safe. Get the typed layer back with [`downcast_ref`](trait.AnyLayer.html#method.downcast_ref)
/// / [`downcast_mut`](trait.AnyLayer.html#method.downcast_mut); serialise with a
/// [`LayerRegistry`].
///
/// ```
/// use layers::{AnyLayer, ApplyOutcome, Layer, LayerInfo, Sizes, VertexKind};
/// use quadedge::{Change, Vertex};
/// let mut all: Vec<Box<dyn AnyLayer>> = vec![
///     Box::new(Layer::new(LayerInfo::<f32, VertexKind>::new("height"), 3)),
///     Box::new(Layer::new(LayerInfo::<u8, VertexKind>::new("biome"), 3)),
/// ];
/// let journal = [Change::VerticesAdded { first: Vertex::new(3), count: 1 }];
/// let sizes = Sizes { vertices: 4, faces: 0, quads: 0 };
/// for l in &mut all {
///     assert_eq!(l.apply_changes(&journal, sizes), ApplyOutcome::Changed);
/// }
/// let height = all[0].downcast_ref::<f32, VertexKind>().unwrap();
/// assert_eq!(height.len(), 4);
/// assert!(all[1].downcast_ref::<f32, VertexKind>().is_err());
/// ```
pub trait AnyLayer: Send + Sync + 'static {
    /// The layer's name.
    fn name(&self) -> &str;
    /// The element kind.
    fn kind(&self) -> ElementKind;
    /// [`LayerValue::type_name`] of the values.
    fn type_name(&self) -> &'static str;
    /// Number of values.
    fn len(&self) -> usize;
    /// No values?
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// See [`Layer::version`].
    fn version(&self) -> u64;
    /// Should the owner call [`AnyLayer::validate`] after every write?
    fn is_auto_validated(&self) -> bool;
    /// The on-change policy.
    fn on_change_policy(&self) -> OnChange;
    /// The interpolation policy.
    fn interpolation_policy(&self) -> Interpolation;
    /// For downcasting.
    fn as_any(&self) -> &dyn Any;
    /// For downcasting.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// For downcasting by value.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// A cheap copy sharing every chunk.
    fn clone_box(&self) -> Box<dyn AnyLayer>;
    /// See [`Layer::apply_changes`].
    fn apply_changes(&mut self, changes: &[Change], sizes: Sizes) -> ApplyOutcome;
    /// Sets the length to the slot count of the layer's kind (new values initial).
    fn resize_to(&mut self, sizes: Sizes);
    /// Sets every value to the initial value.
    fn reset(&mut self);
    /// See [`Layer::validate`].
    fn validate(&self) -> Result<(), LayerError>;
    /// See [`Layer::heap_bytes`].
    fn heap_bytes(&self) -> usize;
    /// `Debug` of the value at storage index `index` (for inspectors), `None` past the end.
    fn debug_value(&self, index: usize) -> Option<String>;
}

impl<T: LayerValue, K: Kind> AnyLayer for Layer<T, K> {
    fn name(&self) -> &str {
        Layer::name(self)
    }
    fn kind(&self) -> ElementKind {
        K::KIND
    }
    fn type_name(&self) -> &'static str {
        T::type_name()
    }
    fn len(&self) -> usize {
        Layer::len(self)
    }
    fn version(&self) -> u64 {
        Layer::version(self)
    }
    fn is_auto_validated(&self) -> bool {
        self.info().is_auto_validated()
    }
    fn on_change_policy(&self) -> OnChange {
        self.info().on_change_policy()
    }
    fn interpolation_policy(&self) -> Interpolation {
        self.info().interpolation_policy()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn clone_box(&self) -> Box<dyn AnyLayer> {
        Box::new(self.clone())
    }
    fn apply_changes(&mut self, changes: &[Change], sizes: Sizes) -> ApplyOutcome {
        Layer::apply_changes(self, changes, sizes)
    }
    fn resize_to(&mut self, sizes: Sizes) {
        self.resize(K::KIND.slots(sizes));
    }
    fn reset(&mut self) {
        Layer::reset(self);
    }
    fn validate(&self) -> Result<(), LayerError> {
        Layer::validate(self)
    }
    fn heap_bytes(&self) -> usize {
        Layer::heap_bytes(self)
    }
    fn debug_value(&self, index: usize) -> Option<String> {
        self.get(K::id(index)).map(|v| format!("{v:?}"))
    }
}

impl Clone for Box<dyn AnyLayer> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl fmt::Debug for dyn AnyLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyLayer")
            .field("name", &self.name())
            .field("kind", &self.kind())
            .field("type", &self.type_name())
            .field("len", &self.len())
            .finish()
    }
}

impl dyn AnyLayer {
    /// Does this layer hold `T` values per `K`?
    pub fn is<T: LayerValue, K: Kind>(&self) -> bool {
        self.as_any().is::<Layer<T, K>>()
    }

    fn mismatch<T: LayerValue, K: Kind>(&self) -> LayerError {
        if self.kind() != K::KIND {
            LayerError::WrongKind {
                layer: self.name().to_owned(),
                expected: K::KIND,
                found: self.kind(),
            }
        } else {
            LayerError::WrongType {
                layer: self.name().to_owned(),
                expected: T::type_name(),
                found: self.type_name(),
            }
        }
    }

    /// The typed layer, or [`LayerError::WrongKind`] / [`LayerError::WrongType`].
    pub fn downcast_ref<T: LayerValue, K: Kind>(&self) -> Result<&Layer<T, K>, LayerError> {
        match self.as_any().downcast_ref::<Layer<T, K>>() {
            Some(l) => Ok(l),
            None => Err(self.mismatch::<T, K>()),
        }
    }

    /// The typed layer for writing, or [`LayerError::WrongKind`] / [`LayerError::WrongType`].
    pub fn downcast_mut<T: LayerValue, K: Kind>(&mut self) -> Result<&mut Layer<T, K>, LayerError> {
        if self.as_any().is::<Layer<T, K>>() {
            Ok(self
                .as_any_mut()
                .downcast_mut::<Layer<T, K>>()
                .expect("checked"))
        } else {
            Err(self.mismatch::<T, K>())
        }
    }
}

/// A serialisation format for [`LayerRegistry`] (e.g. bincode in the world crate). Kept
/// abstract so this crate depends on `serde` only.
///
/// ```
/// struct Json;
/// impl layers::Codec for Json {
///     fn encode<S: serde::Serialize + ?Sized>(v: &S) -> Result<Vec<u8>, String> {
///         serde_json::to_vec(v).map_err(|e| e.to_string())
///     }
///     fn decode<D: serde::de::DeserializeOwned>(b: &[u8]) -> Result<D, String> {
///         serde_json::from_slice(b).map_err(|e| e.to_string())
///     }
/// }
/// ```
pub trait Codec: 'static {
    /// Serialises `value`.
    fn encode<S: Serialize + ?Sized>(value: &S) -> Result<Vec<u8>, String>;
    /// Deserialises a value.
    fn decode<D: DeserializeOwned>(bytes: &[u8]) -> Result<D, String>;
}

type EncodeFn = fn(&dyn AnyLayer) -> Result<Vec<u8>, LayerError>;
type DecodeFn = fn(&[u8]) -> Result<Box<dyn AnyLayer>, LayerError>;

/// Encoders and decoders for type-erased layers, keyed by
/// ([`LayerValue::type_name`], [`ElementKind`]).
///
/// A saved world stores, per layer, its `type_name()`, `kind()` and
/// [`encode`](LayerRegistry::encode)d bytes; loading looks the pair up and
/// [`decode`](LayerRegistry::decode)s. Register user value types with
/// [`register`](LayerRegistry::register) (all six kinds at once with
/// [`register_all_kinds`](LayerRegistry::register_all_kinds)).
pub struct LayerRegistry<C> {
    entries: HashMap<(String, ElementKind), (EncodeFn, DecodeFn)>,
    codec: core::marker::PhantomData<fn() -> C>,
}

impl<C: Codec> Default for LayerRegistry<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Codec> LayerRegistry<C> {
    /// An empty registry.
    pub fn new() -> Self {
        Self {
            entries: HashMap::new(),
            codec: core::marker::PhantomData,
        }
    }

    /// A registry that knows every built-in value type (floats, integers, `bool`, glam
    /// vectors) for all six kinds.
    pub fn with_builtin_types() -> Self {
        let mut r = Self::new();
        macro_rules! all {
            ($($t:ty),*) => {$( r.register_all_kinds::<$t>(); )*};
        }
        all!(f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, bool);
        all!(
            glam::Vec2,
            glam::Vec3,
            glam::Vec4,
            glam::DVec2,
            glam::DVec3,
            glam::DVec4
        );
        r
    }

    /// Registers `Layer<T, K>`.
    pub fn register<T: LayerValue, K: Kind>(&mut self) -> &mut Self {
        self.entries.insert(
            (T::type_name().to_owned(), K::KIND),
            (encode::<T, K, C>, decode::<T, K, C>),
        );
        self
    }

    /// Registers `Layer<T, K>` for all six kinds.
    pub fn register_all_kinds<T: LayerValue>(&mut self) -> &mut Self {
        use crate::kind::*;
        self.register::<T, VertexKind>()
            .register::<T, FaceKind>()
            .register::<T, EdgeKind>()
            .register::<T, DirectedEdgeKind>()
            .register::<T, DualEdgeKind>()
            .register::<T, DirectedDualEdgeKind>()
    }

    /// Can layers of this type and kind be encoded and decoded?
    pub fn knows(&self, type_name: &str, kind: ElementKind) -> bool {
        self.entries.contains_key(&(type_name.to_owned(), kind))
    }

    fn entry(
        &self,
        type_name: &str,
        kind: ElementKind,
    ) -> Result<&(EncodeFn, DecodeFn), LayerError> {
        self.entries
            .get(&(type_name.to_owned(), kind))
            .ok_or_else(|| LayerError::UnknownType {
                type_name: type_name.to_owned(),
                kind,
            })
    }

    /// Serialises a type-erased layer (description and values).
    pub fn encode(&self, layer: &dyn AnyLayer) -> Result<Vec<u8>, LayerError> {
        (self.entry(layer.type_name(), layer.kind())?.0)(layer)
    }

    /// Deserialises a layer stored with this `type_name` and `kind`.
    pub fn decode(
        &self,
        type_name: &str,
        kind: ElementKind,
        bytes: &[u8],
    ) -> Result<Box<dyn AnyLayer>, LayerError> {
        (self.entry(type_name, kind)?.1)(bytes)
    }
}

fn encode<T: LayerValue, K: Kind, C: Codec>(layer: &dyn AnyLayer) -> Result<Vec<u8>, LayerError> {
    C::encode(layer.downcast_ref::<T, K>()?).map_err(LayerError::Codec)
}

fn decode<T: LayerValue, K: Kind, C: Codec>(bytes: &[u8]) -> Result<Box<dyn AnyLayer>, LayerError> {
    let l: Layer<T, K> = C::decode(bytes).map_err(LayerError::Codec)?;
    Ok(Box::new(l))
}
