//! What a layer can store: [`LayerValue`] and [`Interpolate`].

use core::fmt::Debug;
use glam::{DVec2, DVec3, DVec4, Vec2, Vec3, Vec4};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// How values are blended when the mesh creates or merges elements (split, collapse).
///
/// `t` is the weight of the destination side: `lerp(a, b, 0) == a`, `lerp(a, b, 1) == b`.
/// Implemented for the float and integer types, `bool` and the glam vectors. For your own
/// types implement `lerp`, `min_value` and `max_value`; `slerp` defaults to `lerp`. Types
/// without a meaningful blend (enums such as biome ids) can use
/// [`impl_interpolate_nearest!`](crate::impl_interpolate_nearest).
pub trait Interpolate: Sized {
    /// Linear blend; `t` is the weight of `b`.
    fn lerp(a: &Self, b: &Self, t: f32) -> Self;
    /// Blend that keeps magnitudes: for vectors, the lerped direction scaled to the lerped
    /// length (points on a sphere stay on it). Defaults to [`Interpolate::lerp`].
    fn slerp(a: &Self, b: &Self, t: f32) -> Self {
        Self::lerp(a, b, t)
    }
    /// The smaller of two values (component-wise for vectors).
    fn min_value(a: &Self, b: &Self) -> Self;
    /// The larger of two values (component-wise for vectors).
    fn max_value(a: &Self, b: &Self) -> Self;
}

/// A type a [`Layer`](crate::Layer) can store.
///
/// `Copy` because layers are arrays of plain data that are filled, permuted and blended in
/// bulk, and because [`LayerInfo`](crate::LayerInfo)'s builder is `const fn` (a `const fn`
/// cannot drop a generic value that might have a destructor). [`LayerValue::DEFAULT`] is the
/// initial value of a freshly described layer, available in `const` context.
pub trait LayerValue:
    Interpolate + Copy + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// The initial value of [`LayerInfo::new`](crate::LayerInfo::new) (zero, `false`, …).
    const DEFAULT: Self;

    /// Is `self` within `min ..= max`? Component-wise for vectors; `NaN` is never in range.
    fn in_range(&self, min: &Self, max: &Self) -> bool;

    /// A stable name of the type, used to find a deserialiser for a type-erased layer.
    /// Defaults to [`core::any::type_name`]; the built-in types use short fixed names.
    fn type_name() -> &'static str {
        core::any::type_name::<Self>()
    }
}

macro_rules! float_value {
    ($($t:ty),*) => {$(
        impl Interpolate for $t {
            #[inline]
            fn lerp(a: &Self, b: &Self, t: f32) -> Self {
                a + (b - a) * (t as $t)
            }
            #[inline]
            fn min_value(a: &Self, b: &Self) -> Self {
                if b < a { *b } else { *a }
            }
            #[inline]
            fn max_value(a: &Self, b: &Self) -> Self {
                if b > a { *b } else { *a }
            }
        }
        impl LayerValue for $t {
            const DEFAULT: Self = 0.0;
            #[inline]
            fn in_range(&self, min: &Self, max: &Self) -> bool {
                *self >= *min && *self <= *max
            }
            fn type_name() -> &'static str {
                stringify!($t)
            }
        }
    )*};
}
float_value!(f32, f64);

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl Interpolate for $t {
            /// Rounded to the nearest integer; exact at `t == 0` and `t == 1`.
            #[inline]
            fn lerp(a: &Self, b: &Self, t: f32) -> Self {
                if t == 0.0 {
                    *a
                } else if t == 1.0 {
                    *b
                } else {
                    let (a, b) = (*a as f64, *b as f64);
                    // `as` saturates, so extreme weights cannot wrap.
                    (a + (b - a) * t as f64).round() as $t
                }
            }
            #[inline]
            fn min_value(a: &Self, b: &Self) -> Self {
                *a.min(b)
            }
            #[inline]
            fn max_value(a: &Self, b: &Self) -> Self {
                *a.max(b)
            }
        }
        impl LayerValue for $t {
            const DEFAULT: Self = 0;
            #[inline]
            fn in_range(&self, min: &Self, max: &Self) -> bool {
                *self >= *min && *self <= *max
            }
            fn type_name() -> &'static str {
                stringify!($t)
            }
        }
    )*};
}
int_value!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Interpolate for bool {
    /// The nearer side (`a` below `t = 0.5`).
    fn lerp(a: &Self, b: &Self, t: f32) -> Self {
        if t < 0.5 { *a } else { *b }
    }
    fn min_value(a: &Self, b: &Self) -> Self {
        *a && *b
    }
    fn max_value(a: &Self, b: &Self) -> Self {
        *a || *b
    }
}

impl LayerValue for bool {
    const DEFAULT: Self = false;
    fn in_range(&self, min: &Self, max: &Self) -> bool {
        *self >= *min && *self <= *max
    }
    fn type_name() -> &'static str {
        "bool"
    }
}

macro_rules! vector_value {
    ($($t:ident: $s:ty),*) => {$(
        impl Interpolate for $t {
            #[inline]
            fn lerp(a: &Self, b: &Self, t: f32) -> Self {
                a.lerp(*b, t as $s)
            }
            /// Lerps direction and length separately: `normalize(lerp(a, b, t)) *
            /// lerp(|a|, |b|, t)`. Unit vectors stay unit vectors; a zero blend (antipodes at
            /// `t = 0.5`) falls back to the nearer input.
            #[inline]
            fn slerp(a: &Self, b: &Self, t: f32) -> Self {
                let t = t as $s;
                let len = a.length() + (b.length() - a.length()) * t;
                match a.lerp(*b, t).try_normalize() {
                    Some(dir) => dir * len,
                    None => if t < 0.5 { *a } else { *b },
                }
            }
            #[inline]
            fn min_value(a: &Self, b: &Self) -> Self {
                a.min(*b)
            }
            #[inline]
            fn max_value(a: &Self, b: &Self) -> Self {
                a.max(*b)
            }
        }
        impl LayerValue for $t {
            const DEFAULT: Self = $t::ZERO;
            #[inline]
            fn in_range(&self, min: &Self, max: &Self) -> bool {
                self.cmpge(*min).all() && self.cmple(*max).all()
            }
            fn type_name() -> &'static str {
                concat!("glam::", stringify!($t))
            }
        }
    )*};
}
vector_value!(Vec2: f32, Vec3: f32, Vec4: f32, DVec2: f64, DVec3: f64, DVec4: f64);

/// Implements [`Interpolate`] for a `Copy + PartialOrd` type without a meaningful blend:
/// `lerp` and `slerp` take the nearer side (`a` for `t < 0.5`), `min_value`/`max_value` use
/// `PartialOrd`.
///
/// ```
/// use layers::{Interpolate, impl_interpolate_nearest};
/// #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
/// enum Biome { Ocean, Desert, Forest }
/// impl_interpolate_nearest!(Biome);
/// assert_eq!(Biome::lerp(&Biome::Ocean, &Biome::Forest, 0.7), Biome::Forest);
/// assert_eq!(Biome::max_value(&Biome::Ocean, &Biome::Desert), Biome::Desert);
/// ```
#[macro_export]
macro_rules! impl_interpolate_nearest {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::Interpolate for $t {
            fn lerp(a: &Self, b: &Self, t: f32) -> Self {
                if t < 0.5 { *a } else { *b }
            }
            fn min_value(a: &Self, b: &Self) -> Self {
                if b < a { *b } else { *a }
            }
            fn max_value(a: &Self, b: &Self) -> Self {
                if b > a { *b } else { *a }
            }
        }
    )*};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_blends() {
        assert_eq!(f32::lerp(&1.0, &3.0, 0.25), 1.5);
        assert_eq!(f64::lerp(&1.0, &3.0, 0.5), 2.0);
        assert_eq!(i32::lerp(&0, &10, 0.26), 3);
        assert_eq!(u8::lerp(&200, &10, 0.5), 105);
        assert_eq!(i64::lerp(&i64::MAX, &0, 0.0), i64::MAX);
        assert_eq!(<u32 as Interpolate>::min_value(&4, &2), 2);
        assert!(bool::lerp(&false, &true, 0.5));
        assert!(!bool::lerp(&false, &true, 0.49));
        assert!(bool::max_value(&false, &true));
        assert!(!bool::min_value(&false, &true));
    }

    #[test]
    fn vector_slerp_stays_on_the_sphere() {
        let a = Vec3::X;
        let b = Vec3::Y;
        let m = <Vec3 as Interpolate>::slerp(&a, &b, 0.3);
        assert!((m.length() - 1.0).abs() < 1e-6);
        let a = DVec3::new(0.0, 0.0, 2.0);
        let b = DVec3::new(0.0, 4.0, 0.0);
        assert!((<DVec3 as Interpolate>::slerp(&a, &b, 0.5).length() - 3.0).abs() < 1e-12);
        assert_eq!(
            <Vec3 as Interpolate>::slerp(&Vec3::X, &-Vec3::X, 0.5),
            -Vec3::X
        );
        assert_eq!(
            Vec2::min_value(&Vec2::new(1.0, 5.0), &Vec2::new(2.0, 3.0)),
            Vec2::new(1.0, 3.0)
        );
    }

    #[test]
    fn ranges() {
        assert!(1.0f32.in_range(&0.0, &1.0));
        assert!(!f32::NAN.in_range(&0.0, &1.0));
        assert!(!Vec3::new(0.5, 2.0, 0.0).in_range(&Vec3::ZERO, &Vec3::ONE));
        assert!(Vec3::splat(0.5).in_range(&Vec3::ZERO, &Vec3::ONE));
        assert_eq!(<glam::Vec3 as LayerValue>::type_name(), "glam::Vec3");
        assert_eq!(<u16 as LayerValue>::type_name(), "u16");
    }
}
