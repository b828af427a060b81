//! Type-erased layers: what the world stores without knowing `T`.

use crate::error::LayerError;
use crate::info::{Interpolation, OnChange};
use crate::kind::{ElementKind, Kind, Sizes};
use crate::layer::{Layer, LayerDelta};
use crate::resample::{ResampleError, ResamplePlan};
use crate::value::LayerValue;
use core::any::Any;
use core::fmt;
use quadedge::Change;

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
/// / [`downcast_mut`](trait.AnyLayer.html#method.downcast_mut); a typed `Layer` serialises
/// with serde.
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
    /// [`LayerValue::TYPE_KEY`] of the values.
    fn type_key(&self) -> &'static str;
    /// Number of values.
    fn len(&self) -> usize;
    /// No values?
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// See [`Layer::write_count`].
    fn write_count(&self) -> u64;
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
    /// A cheap copy sharing the values.
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
    /// See [`Layer::unshared_bytes`]; all of [`AnyLayer::heap_bytes`] when `other` holds
    /// another type.
    fn unshared_bytes(&self, other: &dyn AnyLayer) -> usize;
    /// Same type, kind, description and values bit for bit ([`Layer::bits_eq`]).
    fn bits_eq(&self, other: &dyn AnyLayer) -> bool;
    /// `Debug` of the value at storage index `index` (for inspectors), `None` past the end.
    fn debug_value(&self, index: usize) -> Option<String>;
    /// See [`Layer::delta_to`]; `None` when `newer` holds another type or kind.
    fn delta_to(&self, newer: &dyn AnyLayer) -> Option<Box<dyn AnyDelta>>;
    /// See [`Layer::resampled`].
    fn resampled(&self, plan: &ResamplePlan<'_>) -> Result<Box<dyn AnyLayer>, ResampleError>;
}

/// A [`LayerDelta`] with its type erased: an old version of a layer kept as the blocks that
/// differ from a newer one, for undo histories.
pub trait AnyDelta: Send + Sync + 'static {
    /// The old version, rebuilt from the layer the delta was taken against; `None` when
    /// `newer` holds another type or kind.
    fn rebuild(&self, newer: &dyn AnyLayer) -> Option<Box<dyn AnyLayer>>;
    /// A layer with the old version's description and no values: what stands in for it
    /// while only the delta is kept.
    fn shell(&self) -> Box<dyn AnyLayer>;
    /// Heap bytes held.
    fn heap_bytes(&self) -> usize;
}

impl<T: LayerValue, K: Kind> AnyDelta for LayerDelta<T, K> {
    fn rebuild(&self, newer: &dyn AnyLayer) -> Option<Box<dyn AnyLayer>> {
        let newer = newer.as_any().downcast_ref::<Layer<T, K>>()?;
        Some(Box::new(LayerDelta::rebuild(self, newer)))
    }
    fn shell(&self) -> Box<dyn AnyLayer> {
        Box::new(Layer::new(self.info().clone(), 0))
    }
    fn heap_bytes(&self) -> usize {
        LayerDelta::heap_bytes(self)
    }
}

impl<T: LayerValue, K: Kind> AnyLayer for Layer<T, K> {
    fn name(&self) -> &str {
        Layer::name(self)
    }
    fn kind(&self) -> ElementKind {
        K::KIND
    }
    fn type_key(&self) -> &'static str {
        T::TYPE_KEY
    }
    fn len(&self) -> usize {
        Layer::len(self)
    }
    fn write_count(&self) -> u64 {
        Layer::write_count(self)
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
    fn unshared_bytes(&self, other: &dyn AnyLayer) -> usize {
        match other.as_any().downcast_ref::<Layer<T, K>>() {
            Some(o) => Layer::unshared_bytes(self, o),
            None => Layer::heap_bytes(self),
        }
    }
    fn bits_eq(&self, other: &dyn AnyLayer) -> bool {
        other
            .as_any()
            .downcast_ref::<Layer<T, K>>()
            .is_some_and(|o| Layer::bits_eq(self, o))
    }
    fn debug_value(&self, index: usize) -> Option<String> {
        self.get(K::id(index)).map(|v| format!("{v:?}"))
    }
    fn delta_to(&self, newer: &dyn AnyLayer) -> Option<Box<dyn AnyDelta>> {
        let newer = newer.as_any().downcast_ref::<Layer<T, K>>()?;
        Some(Box::new(Layer::delta_to(self, newer)))
    }
    fn resampled(&self, plan: &ResamplePlan<'_>) -> Result<Box<dyn AnyLayer>, ResampleError> {
        Ok(Box::new(Layer::resampled(self, plan)?))
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
            .field("type", &self.type_key())
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
                expected: T::TYPE_KEY,
                found: self.type_key(),
            }
        }
    }

    /// The typed layer.
    ///
    /// # Errors
    ///
    /// [`LayerError::WrongKind`] or [`LayerError::WrongType`] when it holds something else.
    pub fn downcast_ref<T: LayerValue, K: Kind>(&self) -> Result<&Layer<T, K>, LayerError> {
        match self.as_any().downcast_ref::<Layer<T, K>>() {
            Some(l) => Ok(l),
            None => Err(self.mismatch::<T, K>()),
        }
    }

    /// The typed layer for writing.
    ///
    /// # Errors
    ///
    /// [`LayerError::WrongKind`] or [`LayerError::WrongType`] when it holds something else.
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
