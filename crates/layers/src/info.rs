//! [`LayerInfo`]: what a layer is called, holds, starts from, accepts and does on edits.

use crate::kind::{ElementKind, Kind};
use crate::value::LayerValue;
use core::marker::PhantomData;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// What a layer does to elements the mesh deletes or rewires.
///
/// Triggered by: removal of an element of the layer's kind (`VertexRemoved`, `FaceRemoved`,
/// `EdgeRemoved`, the vertex, edges and faces a collapse or a vertex dissolve removes), by a
/// flip, which changes the flipped edge's endpoints (edge layers) and the corners of the two
/// faces beside it (face layers), and by a dissolve, which changes the corners of the merged
/// face.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OnChange {
    /// Leave the values alone (a deleted slot keeps its stale value until the id is reused,
    /// which resets it).
    #[default]
    Keep,
    /// Set the affected elements back to the initial value.
    ResetAffected,
    /// Set every element back to the initial value.
    ResetAll,
    /// The layer no longer makes sense: the owner should drop it
    /// ([`ApplyOutcome::Remove`](crate::ApplyOutcome::Remove)).
    RemoveLayer,
}

impl OnChange {
    /// Every policy, in declaration order.
    pub const ALL: [OnChange; 4] = [
        OnChange::Keep,
        OnChange::ResetAffected,
        OnChange::ResetAll,
        OnChange::RemoveLayer,
    ];
}

/// What a layer does when the mesh creates or merges elements: an edge split (new vertex
/// between `origin` and `dest` at weight `t`, new edges and faces that descend from cut ones),
/// a face split (new vertex inside a triangle with three barycentric weights) and a collapse
/// (the surviving vertex stands for both endpoints).
///
/// For vertex layers the policy picks the new or surviving vertex's value from the source
/// values: two for an edge split or a collapse (`a` = origin with weight `1 − t`, `b` = dest
/// with weight `t`), three for a face split (the corners with their weights). Edges and faces
/// created by a split have exactly one ancestor, so every value-producing policy (`KeepSrc`
/// to `MaxWeight`) copies the ancestor's value; edges without an ancestor (a split's cross
/// edges, a face split's spokes) start from the initial value.
///
/// The variant names differ from [`OnChange`]'s on purpose: `Reset` here resets the *created*
/// elements and their sources, `OnChange::ResetAffected` the *deleted or rewired* ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Interpolation {
    /// No computation: new elements get the initial value, a collapse survivor keeps its own.
    DontCare,
    /// New elements and the elements they were cut from (the split edge, the cut faces, a
    /// collapse survivor) get the initial value.
    Reset,
    /// Every element goes back to the initial value.
    ResetLayer,
    /// The owner should drop the layer ([`ApplyOutcome::Remove`](crate::ApplyOutcome::Remove)).
    DropLayer,
    /// The origin's value `a`; for three sources, the first corner's.
    KeepSrc,
    /// The destination's value `b`; for three sources, the last corner's.
    KeepDest,
    /// [`Interpolate::lerp`](crate::Interpolate::lerp)`(a, b, t)`; three sources:
    /// [`Interpolate::lerp3`](crate::Interpolate::lerp3) (barycentric).
    #[default]
    Lerp,
    /// [`Interpolate::nlerp`](crate::Interpolate::nlerp)`(a, b, t)`: normalised lerp (cheap;
    /// positions stay on the sphere, the angle is not linear in `t`); three sources:
    /// [`Interpolate::nlerp3`](crate::Interpolate::nlerp3).
    Nlerp,
    /// [`Interpolate::slerp`](crate::Interpolate::slerp)`(a, b, t)`: great-circle
    /// interpolation; three sources: [`Interpolate::slerp3`](crate::Interpolate::slerp3).
    Slerp,
    /// [`Interpolate::min_value`](crate::Interpolate::min_value)`(a, b)`; three sources: the
    /// minimum over the three.
    MinValue,
    /// [`Interpolate::max_value`](crate::Interpolate::max_value)`(a, b)`; three sources: the
    /// maximum over the three.
    MaxValue,
    /// The value of the side with the smaller weight (`a` when `1 − t <= t`, else `b`); three
    /// sources: the lightest corner (the first on ties).
    MinWeight,
    /// The value of the side with the larger weight (`a` when `1 − t >= t`, else `b`); three
    /// sources: the heaviest corner (the first on ties).
    MaxWeight,
}

impl Interpolation {
    /// Every policy, in declaration order (for menus, and for tests that try them all).
    pub const ALL: [Interpolation; 13] = [
        Interpolation::DontCare,
        Interpolation::Reset,
        Interpolation::ResetLayer,
        Interpolation::DropLayer,
        Interpolation::KeepSrc,
        Interpolation::KeepDest,
        Interpolation::Lerp,
        Interpolation::Nlerp,
        Interpolation::Slerp,
        Interpolation::MinValue,
        Interpolation::MaxValue,
        Interpolation::MinWeight,
        Interpolation::MaxWeight,
    ];

    /// Does this policy compute a value from the source element(s) (`KeepSrc` to
    /// `MaxWeight`), as opposed to resetting, dropping or ignoring?
    pub const fn produces_value(self) -> bool {
        !matches!(
            self,
            Interpolation::DontCare
                | Interpolation::Reset
                | Interpolation::ResetLayer
                | Interpolation::DropLayer
        )
    }
}

/// Everything about a layer except its values.
///
/// Built in `const` context so layer descriptions can be shared constants between the modules
/// that communicate through them:
///
/// ```
/// use layers::{EdgeKind, Interpolation, LayerInfo, OnChange, VertexKind};
/// const PLATE_DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance")
///     .initial(-1.0)
///     .on_change(OnChange::ResetAffected);
/// const POSITION: LayerInfo<glam::Vec3, VertexKind> =
///     LayerInfo::new("position").interpolation(Interpolation::Slerp);
/// const ELEVATION: LayerInfo<f32, VertexKind> =
///     LayerInfo::new("elevation").range(-11_000.0, 9_000.0).auto_validate(true);
/// assert_eq!(PLATE_DISTANCE.initial_value(), &-1.0);
/// assert_eq!(ELEVATION.max_value(), Some(&9_000.0));
/// ```
///
/// Defaults: initial value [`LayerValue::DEFAULT`], no range, no automatic validation,
/// [`OnChange::Keep`], [`Interpolation::Lerp`].
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "T: LayerValue", deserialize = "T: LayerValue"))]
pub struct LayerInfo<T, K> {
    name: Cow<'static, str>,
    initial: T,
    min: Option<T>,
    max: Option<T>,
    auto_validate: bool,
    on_change: OnChange,
    interpolation: Interpolation,
    #[serde(skip)]
    kind: PhantomData<fn() -> K>,
}

impl<T: Clone, K> Clone for LayerInfo<T, K> {
    fn clone(&self) -> Self {
        Self {
            name: self.name.clone(),
            initial: self.initial.clone(),
            min: self.min.clone(),
            max: self.max.clone(),
            auto_validate: self.auto_validate,
            on_change: self.on_change,
            interpolation: self.interpolation,
            kind: PhantomData,
        }
    }
}

impl<T: LayerValue, K: Kind> core::fmt::Debug for LayerInfo<T, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LayerInfo")
            .field("name", &self.name)
            .field("kind", &K::KIND)
            .field("type", &T::TYPE_KEY)
            .field("initial", &self.initial)
            .field("min", &self.min)
            .field("max", &self.max)
            .field("auto_validate", &self.auto_validate)
            .field("on_change", &self.on_change)
            .field("interpolation", &self.interpolation)
            .finish()
    }
}

impl<T: LayerValue, K: Kind> PartialEq for LayerInfo<T, K> {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && self.initial == o.initial
            && self.min == o.min
            && self.max == o.max
            && self.auto_validate == o.auto_validate
            && self.on_change == o.on_change
            && self.interpolation == o.interpolation
    }
}

impl<T: LayerValue, K: Kind> LayerInfo<T, K> {
    /// Like `==` with values compared bit for bit ([`LayerValue::bits_eq`]).
    pub fn bits_eq(&self, o: &Self) -> bool {
        let opt = |a: &Option<T>, b: &Option<T>| match (a, b) {
            (Some(a), Some(b)) => a.bits_eq(b),
            (None, None) => true,
            _ => false,
        };
        self.name == o.name
            && self.initial.bits_eq(&o.initial)
            && opt(&self.min, &o.min)
            && opt(&self.max, &o.max)
            && self.auto_validate == o.auto_validate
            && self.on_change == o.on_change
            && self.interpolation == o.interpolation
    }

    /// A layer named `name` with the defaults listed on the type.
    pub const fn new(name: &'static str) -> Self {
        Self {
            name: Cow::Borrowed(name),
            initial: T::DEFAULT,
            min: None,
            max: None,
            auto_validate: false,
            on_change: OnChange::Keep,
            interpolation: Interpolation::Lerp,
            kind: PhantomData,
        }
    }

    /// Like [`LayerInfo::new`] for a name made at run time.
    pub fn named(name: impl Into<Cow<'static, str>>) -> Self {
        Self {
            name: name.into(),
            ..Self::new("")
        }
    }

    /// The value of new elements, of reset elements, and of the whole layer when created.
    pub const fn initial(mut self, value: T) -> Self {
        self.initial = value;
        self
    }

    /// Valid values are `min ..= max` (checked by [`Layer::validate`](crate::Layer::validate),
    /// which also reports a range with `min > max`).
    pub const fn range(mut self, min: T, max: T) -> Self {
        self.min = Some(min);
        self.max = Some(max);
        self
    }

    /// Only a lower bound.
    pub const fn min(mut self, min: T) -> Self {
        self.min = Some(min);
        self
    }

    /// Only an upper bound.
    pub const fn max(mut self, max: T) -> Self {
        self.max = Some(max);
        self
    }

    /// Ask the owner to validate the layer after every write (the flag is all this crate
    /// stores; [`Layer::validate`](crate::Layer::validate) does the check).
    pub const fn auto_validate(mut self, yes: bool) -> Self {
        self.auto_validate = yes;
        self
    }

    /// The [`OnChange`] policy.
    pub const fn on_change(mut self, policy: OnChange) -> Self {
        self.on_change = policy;
        self
    }

    /// The [`Interpolation`] policy.
    pub const fn interpolation(mut self, policy: Interpolation) -> Self {
        self.interpolation = policy;
        self
    }

    /// The layer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The element kind (from `K`).
    pub const fn kind(&self) -> ElementKind {
        K::KIND
    }

    /// The initial value.
    pub const fn initial_value(&self) -> &T {
        &self.initial
    }

    /// The lower bound, if any.
    pub const fn min_value(&self) -> Option<&T> {
        self.min.as_ref()
    }

    /// The upper bound, if any.
    pub const fn max_value(&self) -> Option<&T> {
        self.max.as_ref()
    }

    /// Should the owner validate after every write?
    pub const fn is_auto_validated(&self) -> bool {
        self.auto_validate
    }

    /// The [`OnChange`] policy.
    pub const fn on_change_policy(&self) -> OnChange {
        self.on_change
    }

    /// The [`Interpolation`] policy.
    pub const fn interpolation_policy(&self) -> Interpolation {
        self.interpolation
    }

    /// Is `value` within the range (always true without bounds)?
    pub fn accepts(&self, value: &T) -> bool {
        let lo = self.min.as_ref().is_none_or(|m| value.in_range(m, value));
        let hi = self.max.as_ref().is_none_or(|m| value.in_range(value, m));
        lo && hi
    }
}
