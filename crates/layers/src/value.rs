//! What a layer can store: [`LayerValue`] and [`Interpolate`].

use core::fmt::Debug;
use glam::{DVec2, DVec3, DVec4, Vec2, Vec3, Vec4};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// How values are blended when the mesh creates or merges elements (edge split, face split,
/// collapse).
///
/// `t` is the weight of the destination side: `lerp(a, b, 0) == a`, `lerp(a, b, 1) == b`.
/// Implemented for the float and integer types, `bool` and the glam vectors. For your own
/// types implement `lerp`, `min_value` and `max_value`; the other methods have defaults
/// (`nlerp` and `slerp` fall back to `lerp`, the three-source blends to two-source ones).
/// Types without a meaningful blend (enums such as biome ids) can use
/// [`impl_interpolate_nearest!`](crate::impl_interpolate_nearest).
pub trait Interpolate: Sized {
    /// Linear blend; `t` is the weight of `b`.
    fn lerp(a: &Self, b: &Self, t: f32) -> Self;
    /// Normalised linear blend: for vectors, the lerped direction scaled to the lerped length
    /// (cheap; points on a sphere stay on it, but the angle is not linear in `t`). Defaults
    /// to [`Interpolate::lerp`].
    fn nlerp(a: &Self, b: &Self, t: f32) -> Self {
        Self::lerp(a, b, t)
    }
    /// Great-circle blend: for vectors, the direction turns by `t` times the angle between `a`
    /// and `b` and the length is lerped (at `t = 0.25` between two orthogonal unit vectors
    /// the result is 22.5° from `a`). Defaults to [`Interpolate::lerp`].
    fn slerp(a: &Self, b: &Self, t: f32) -> Self {
        Self::lerp(a, b, t)
    }
    /// Barycentric blend of three values with weights `w` (they need not sum to 1; all zero
    /// gives `v[0]`). The default composes two [`Interpolate::lerp`]s, exact for linear types.
    fn lerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
        compose3(v, w, Self::lerp)
    }
    /// Three-source [`Interpolate::nlerp`]: the normalised barycentric blend of the values
    /// scaled to the barycentric blend of their lengths. Defaults to composing two `nlerp`s.
    fn nlerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
        compose3(v, w, Self::nlerp)
    }
    /// Three-source [`Interpolate::slerp`]. For vectors this is defined as the normalised
    /// barycentric blend of the unit directions, scaled to the barycentric blend of the lengths:
    /// it stays on the sphere, is symmetric in the three sources and equals each source at its
    /// corner (it is not the exact spherical barycentric point, which needs an iteration).
    /// Defaults to composing two `slerp`s.
    fn slerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
        compose3(v, w, Self::slerp)
    }
    /// The smaller of two values (component-wise for vectors).
    fn min_value(a: &Self, b: &Self) -> Self;
    /// The larger of two values (component-wise for vectors).
    fn max_value(a: &Self, b: &Self) -> Self;
}

/// `blend(blend(v0, v1, w1 / (w0 + w1)), v2, w2 / (w0 + w1 + w2))`: a three-source blend
/// built from a two-source one. Non-finite or non-positive weight sums fall back to the
/// heaviest source so the result is always one of the inputs or a blend of them.
fn compose3<T>(v: [&T; 3], w: [f32; 3], blend: fn(&T, &T, f32) -> T) -> T {
    let w = w.map(|x| if x.is_finite() && x > 0.0 { x } else { 0.0 });
    let ab = w[0] + w[1];
    let all = ab + w[2];
    if all <= 0.0 || !all.is_finite() {
        return blend(v[0], v[0], 0.0);
    }
    let first = if ab > 0.0 {
        blend(v[0], v[1], w[1] / ab)
    } else {
        blend(v[1], v[1], 0.0)
    };
    blend(&first, v[2], w[2] / all)
}

/// A type a [`Layer`](crate::Layer) can store.
///
/// `Copy` because layers are arrays of plain data that are filled, permuted and blended in
/// bulk, and because [`LayerInfo`](crate::LayerInfo)'s builder is `const fn` (a `const fn`
/// cannot drop a generic value that might have a destructor). [`LayerValue::DEFAULT`] is the
/// initial value of a freshly described layer, available in `const` context.
///
/// ```
/// use layers::{LayerValue, impl_interpolate_nearest};
/// #[derive(Clone, Copy, Debug, PartialEq, PartialOrd, serde::Serialize, serde::Deserialize)]
/// enum Biome { Ocean, Forest }
/// impl_interpolate_nearest!(Biome);
/// impl LayerValue for Biome {
///     const DEFAULT: Self = Biome::Ocean;
///     const TYPE_KEY: &'static str = "mygame::Biome";
///     fn in_range(&self, min: &Self, max: &Self) -> bool { self >= min && self <= max }
/// }
/// assert_eq!(Biome::TYPE_KEY, "mygame::Biome");
/// ```
pub trait LayerValue:
    Interpolate + Copy + PartialEq + Debug + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// The initial value of [`LayerInfo::new`](crate::LayerInfo::new) (zero, `false`, …).
    const DEFAULT: Self;

    /// The type's name in saved files: fixed by the implementer, never derived from the
    /// compiler (`core::any::type_name` may change between compiler versions and would make
    /// old files unreadable). Must be unique among the types a program stores; the built-in
    /// types use `"f32"`, `"u16"`, `"bool"`, `"glam::Vec3"`, … (the Rust spelling).
    const TYPE_KEY: &'static str;

    /// Is `self` within `min ..= max`? Component-wise for vectors; `NaN` is never in range.
    fn in_range(&self, min: &Self, max: &Self) -> bool;

    /// Equal bit for bit (floats compared by their bits, so `NaN` equals itself and `0.0`
    /// differs from `-0.0`): what "same contents" means for saved data. Defaults to `==`;
    /// the built-in float and vector types compare bits.
    fn bits_eq(&self, other: &Self) -> bool {
        self == other
    }
}

macro_rules! float_value {
    ($($t:ty),*) => {$(
        impl Interpolate for $t {
            /// `a + (b − a)·t`, or `a·(1 − t) + b·t` where `b − a` overflows: finite between
            /// finite values.
            #[inline]
            fn lerp(a: &Self, b: &Self, t: f32) -> Self {
                let (t, r) = (t as $t, a + (b - a) * t as $t);
                if r.is_finite() || !(a.is_finite() && b.is_finite()) { r } else { a * (1.0 - t) + b * t }
            }
            /// Where the sum overflows between finite values: normalised weights, halved values,
            /// clamped to the values' range.
            #[inline]
            fn lerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
                let sum = w[0] as $t + w[1] as $t + w[2] as $t;
                if !(sum > 0.0 && sum.is_finite()) { return *v[0]; }
                let r = (v[0] * w[0] as $t + v[1] * w[1] as $t + v[2] * w[2] as $t) / sum;
                if r.is_finite() || !v.iter().all(|x| x.is_finite()) { return r; }
                let half: $t = (0..3).map(|i| v[i] * 0.5 * (w[i] as $t / sum)).sum();
                (half * 2.0).clamp(v[0].min(*v[1]).min(*v[2]), v[0].max(*v[1]).max(*v[2]))
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
            const TYPE_KEY: &'static str = stringify!($t);
            #[inline]
            fn in_range(&self, min: &Self, max: &Self) -> bool {
                *self >= *min && *self <= *max
            }
            #[inline]
            fn bits_eq(&self, other: &Self) -> bool {
                self.to_bits() == other.to_bits()
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
            const TYPE_KEY: &'static str = stringify!($t);
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
    const TYPE_KEY: &'static str = "bool";
}

macro_rules! vector_value {
    ($($t:ident: $s:ty),*) => {$(
        impl Interpolate for $t {
            /// As the scalars: finite between finite vectors.
            #[inline]
            fn lerp(a: &Self, b: &Self, t: f32) -> Self {
                let (t, r) = (t as $s, a.lerp(*b, t as $s));
                if r.is_finite() || !(a.is_finite() && b.is_finite()) { r } else { *a * (1.0 - t) + *b * t }
            }
            /// `normalize(lerp(a, b, t)) * lerp(|a|, |b|, t)`. A zero blend (antipodes at
            /// `t = 0.5`) falls back to the nearer input.
            #[inline]
            fn nlerp(a: &Self, b: &Self, t: f32) -> Self {
                let t = t as $s;
                let len = a.length() + (b.length() - a.length()) * t;
                match a.lerp(*b, t).try_normalize() {
                    Some(dir) => dir * len,
                    None => if t < 0.5 { *a } else { *b },
                }
            }
            /// Great-circle interpolation of the directions (the angle is linear in `t`),
            /// length lerped. Antipodal or zero inputs have no unique great circle: the
            /// result then falls back to [`Interpolate::nlerp`].
            #[inline]
            fn slerp(a: &Self, b: &Self, t: f32) -> Self {
                let t = t as $s;
                let (la, lb) = (a.length(), b.length());
                let (Some(ua), Some(ub)) = (a.try_normalize(), b.try_normalize()) else {
                    return Self::nlerp(a, b, t as f32);
                };
                let len = la + (lb - la) * t;
                if t == 0.5 {
                    // The midpoint of the arc is the normalised sum (exact, and the common case
                    // of a split at the middle): skip the trigonometry.
                    if let Some(mid) = (ua + ub).try_normalize() {
                        return mid * len;
                    }
                }
                // The angle from atan2 of |cross|-like and dot terms stays accurate near 0 and π.
                let dot = ua.dot(ub).clamp(-1.0, 1.0);
                let perp = ub - ua * dot;
                let sin = perp.length();
                let angle = sin.atan2(dot);
                if sin <= <$s>::EPSILON * 4.0 {
                    // Parallel (same direction) or antipodal: no unique plane.
                    return Self::nlerp(a, b, t as f32);
                }
                let (s, c) = (angle * t).sin_cos();
                // Renormalised: keeps unit inputs within an ulp or two of the sphere.
                (ua * c + perp * (s / sin)).normalize() * len
            }
            #[inline]
            fn lerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
                let sum = w[0] as $s + w[1] as $s + w[2] as $s;
                if !(sum > 0.0 && sum.is_finite()) { return *v[0]; }
                let r = (*v[0] * w[0] as $s + *v[1] * w[1] as $s + *v[2] * w[2] as $s) / sum;
                if r.is_finite() || !v.iter().all(|x| x.is_finite()) { return r; }
                let half = (0..3).fold(Self::ZERO, |acc, i| acc + *v[i] * 0.5 * (w[i] as $s / sum));
                (half * 2.0).clamp(v[0].min(*v[1]).min(*v[2]), v[0].max(*v[1]).max(*v[2]))
            }
            /// Normalised barycentric blend of the values, scaled to the barycentric blend of
            /// their lengths; a zero blend falls back to the heaviest source.
            #[inline]
            fn nlerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
                blend3_on_sphere(v, w, |x| *x)
            }
            /// Normalised barycentric blend of the unit directions, scaled to the barycentric
            /// blend of the lengths (see [`Interpolate::slerp3`]).
            #[inline]
            fn slerp3(v: [&Self; 3], w: [f32; 3]) -> Self {
                blend3_on_sphere(v, w, |x| x.normalize_or_zero())
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
            const TYPE_KEY: &'static str = concat!("glam::", stringify!($t));
            #[inline]
            fn in_range(&self, min: &Self, max: &Self) -> bool {
                self.cmpge(*min).all() && self.cmple(*max).all()
            }
            #[inline]
            fn bits_eq(&self, other: &Self) -> bool {
                self.to_array().iter().zip(other.to_array()).all(|(a, b)| a.to_bits() == b.to_bits())
            }
        }
        impl SphereBlend for $t {
            fn weighted(v: [Self; 3], w: [f64; 3]) -> Self {
                v[0] * w[0] as $s + v[1] * w[1] as $s + v[2] * w[2] as $s
            }
            fn scaled_to(self, len: f64) -> Option<Self> {
                self.try_normalize().map(|d| d * len as $s)
            }
            fn len(&self) -> f64 {
                self.length() as f64
            }
        }
    )*};
}

/// What the three-source sphere blends need from a vector type.
trait SphereBlend: Copy {
    fn weighted(v: [Self; 3], w: [f64; 3]) -> Self;
    fn scaled_to(self, len: f64) -> Option<Self>;
    fn len(&self) -> f64;
}

/// `normalize(Σ wᵢ dir(vᵢ)) * Σ wᵢ |vᵢ| / Σ wᵢ`; the heaviest source when the blend vanishes.
fn blend3_on_sphere<T: SphereBlend>(v: [&T; 3], w: [f32; 3], dir: fn(&T) -> T) -> T {
    let w = w.map(|x| if x.is_finite() && x > 0.0 { x } else { 0.0 });
    let heaviest = *v[heaviest_index(w)];
    let w = w.map(f64::from);
    let sum = w[0] + w[1] + w[2];
    if !(sum > 0.0 && sum.is_finite()) {
        return *v[0];
    }
    let len = (v[0].len() * w[0] + v[1].len() * w[1] + v[2].len() * w[2]) / sum;
    T::weighted([dir(v[0]), dir(v[1]), dir(v[2])], w)
        .scaled_to(len)
        .unwrap_or(heaviest)
}

/// Index of the largest weight (the first on ties; NaN counts as smallest).
pub(crate) fn heaviest_index(w: [f32; 3]) -> usize {
    let mut best = 0;
    for i in 1..3 {
        if w[i] > w[best] || w[best].is_nan() && !w[i].is_nan() {
            best = i;
        }
    }
    best
}

/// Index of the smallest weight (the first on ties; NaN counts as largest).
pub(crate) fn lightest_index(w: [f32; 3]) -> usize {
    let mut best = 0;
    for i in 1..3 {
        if w[i] < w[best] || w[best].is_nan() && !w[i].is_nan() {
            best = i;
        }
    }
    best
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
    fn slerp_turns_by_a_linear_angle_and_nlerp_does_not() {
        let deg = |v: DVec3| v.y.atan2(v.x).to_degrees();
        let s = <DVec3 as Interpolate>::slerp(&DVec3::X, &DVec3::Y, 0.25);
        assert!((deg(s) - 22.5).abs() < 1e-5, "{}", deg(s));
        assert!((s.length() - 1.0).abs() < 1e-12);
        let n = <DVec3 as Interpolate>::nlerp(&DVec3::X, &DVec3::Y, 0.25);
        assert!((deg(n) - 18.434948822922).abs() < 1e-6, "{}", deg(n));
        // Near-parallel and nearly antipodal inputs stay finite and on the sphere.
        let a = DVec3::new(1.0, 1e-12, 0.0).normalize();
        let m = <DVec3 as Interpolate>::slerp(&DVec3::X, &a, 0.5);
        assert!((m.length() - 1.0).abs() < 1e-12);
        let far = DVec3::new(-1.0, 1e-3, 0.0).normalize();
        let m = <DVec3 as Interpolate>::slerp(&DVec3::X, &far, 0.5);
        assert!((m.length() - 1.0).abs() < 1e-9 && m.y > 0.99, "{m}");
        assert_eq!(
            <Vec3 as Interpolate>::slerp(&Vec3::X, &Vec3::Y, 0.0),
            Vec3::X
        );
        let end = <Vec3 as Interpolate>::slerp(&Vec3::X, &Vec3::Y, 1.0);
        assert!((end - Vec3::Y).length() < 1e-6);
    }

    #[test]
    fn three_source_blends() {
        let w = [0.5, 0.25, 0.25];
        assert_eq!(f64::lerp3([&0.0, &4.0, &8.0], w), 3.0);
        assert_eq!(f32::lerp3([&1.0, &2.0, &3.0], [0.0, 0.0, 0.0]), 1.0);
        assert_eq!(i32::lerp3([&0, &4, &8], w), 3);
        assert_eq!(
            <DVec3 as Interpolate>::lerp3([&DVec3::X, &DVec3::Y, &DVec3::Z], [1.0, 1.0, 2.0]),
            DVec3::new(0.25, 0.25, 0.5)
        );
        let s = <DVec3 as Interpolate>::slerp3([&DVec3::X, &DVec3::Y, &DVec3::Z], [1.0; 3]);
        assert!((s - DVec3::ONE.normalize()).length() < 1e-12);
        let s = <DVec3 as Interpolate>::slerp3(
            [&(DVec3::X * 2.0), &(DVec3::Y * 4.0), &DVec3::Z],
            [1.0, 1.0, 0.0],
        );
        assert!((s.length() - 3.0).abs() < 1e-12);
        assert!((s.normalize() - DVec3::new(1.0, 1.0, 0.0).normalize()).length() < 1e-12);
        // At a corner the blend is that corner.
        let c = <Vec3 as Interpolate>::slerp3([&Vec3::X, &Vec3::Y, &Vec3::Z], [0.0, 1.0, 0.0]);
        assert!((c - Vec3::Y).length() < 1e-6);
        assert_eq!(heaviest_index([0.2, 0.5, 0.5]), 1);
        assert_eq!(lightest_index([0.2, 0.1, 0.1]), 1);
        assert_eq!(heaviest_index([f32::NAN, 0.1, 0.0]), 1);
    }

    #[test]
    fn ranges() {
        assert!(1.0f32.in_range(&0.0, &1.0));
        assert!(!f32::NAN.in_range(&0.0, &1.0));
        assert!(!Vec3::new(0.5, 2.0, 0.0).in_range(&Vec3::ZERO, &Vec3::ONE));
        assert!(Vec3::splat(0.5).in_range(&Vec3::ZERO, &Vec3::ONE));
        assert_eq!(<glam::Vec3 as LayerValue>::TYPE_KEY, "glam::Vec3");
        assert_eq!(<u16 as LayerValue>::TYPE_KEY, "u16");
        assert!(f32::NAN.bits_eq(&f32::NAN));
        assert!(!0.0f64.bits_eq(&-0.0));
        assert!(Vec3::NAN.bits_eq(&Vec3::NAN));
    }
}
