//! Colour maps: a scalar layer (elevation, temperature, age) to sRGB colours for every output
//! that takes per-vertex colours (PNG globes, PLY, glTF).
//!
//! The perceptual maps are small tables of control points written for this crate (evenly
//! spaced in `t`, linearly interpolated in sRGB), shaped after the well-known maps of the same
//! names: [`ColorMap::Viridis`], [`ColorMap::Magma`] and [`ColorMap::Cividis`] grow steadily
//! lighter from `t = 0` to `t = 1` (so a greyscale print still orders the values; cividis also
//! reads the same to the common colour-vision deficiencies), [`ColorMap::Turbo`] is a
//! rainbow with dark ends for maximum contrast, not ordered by lightness.
//!
//! The tables are this crate's own rather than `colorous`'s exact maps: the browser viewer
//! (`xtask/view/colors.js`) samples the same nine-point tables, so a layer has the same
//! colours in the pictures and in the viewer, and nine points interpolated in sRGB keep each
//! map's lightness order (tested below).

/// A map from `t ∈ [0, 1]` to an sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ColorMap {
    /// Dark purple through blue and green to yellow; lightness increasing.
    Viridis,
    /// Black through purple and pink-red to pale yellow; lightness increasing.
    Magma,
    /// Dark blue through grey to yellow; lightness increasing, colour-blind friendly.
    Cividis,
    /// Dark blue, blue, cyan, green, yellow, orange, red, dark red: high contrast rainbow.
    Turbo,
    /// Elevation colours: deep blue to shallow cyan below `sea_level`, then green, brown, grey
    /// and white above it. For [`ColorMap::color`] the sea level is in `t` units (`0..=1`);
    /// [`colorize`] takes it in the data's units and maps it through its range.
    Terrain {
        /// The value (or `t`) at the shore line.
        sea_level: f32,
    },
}

/// Mid grey: the colour of NaN.
pub const NAN_COLOR: [u8; 3] = [128, 128, 128];

const VIRIDIS: [[u8; 3]; 9] = [
    [68, 1, 84],
    [71, 44, 122],
    [59, 81, 139],
    [44, 113, 142],
    [33, 144, 141],
    [39, 173, 129],
    [92, 200, 99],
    [170, 220, 50],
    [253, 231, 37],
];

const MAGMA: [[u8; 3]; 9] = [
    [0, 0, 4],
    [28, 16, 68],
    [79, 18, 123],
    [129, 37, 129],
    [181, 54, 122],
    [229, 80, 100],
    [251, 135, 97],
    [254, 194, 135],
    [252, 253, 191],
];

const CIVIDIS: [[u8; 3]; 9] = [
    [0, 34, 78],
    [24, 54, 110],
    [59, 73, 108],
    [87, 93, 109],
    [112, 113, 115],
    [138, 134, 120],
    [166, 157, 117],
    [199, 182, 102],
    [250, 230, 70],
];

const TURBO: [[u8; 3]; 9] = [
    [48, 18, 59],
    [68, 90, 204],
    [62, 156, 254],
    [24, 215, 203],
    [114, 254, 94],
    [200, 239, 52],
    [250, 186, 57],
    [233, 93, 13],
    [122, 4, 3],
];

/// Below sea level, from the deepest water (`0`) to the shore (`1`).
const SEA: [[u8; 3]; 3] = [[8, 29, 88], [33, 94, 170], [110, 200, 220]];
/// Above sea level, from the shore (`0`) to the highest peak (`1`).
const LAND: [[u8; 3]; 6] = [
    [56, 132, 64],
    [120, 160, 80],
    [150, 130, 80],
    [125, 100, 75],
    [160, 160, 160],
    [250, 250, 250],
];

/// Linear interpolation in a table of evenly spaced control points; `t` already in `[0, 1]`.
fn sample(table: &[[u8; 3]], t: f32) -> [u8; 3] {
    let x = t * (table.len() - 1) as f32;
    let i = (x as usize).min(table.len() - 2);
    let f = x - i as f32;
    let (a, b) = (table[i], table[i + 1]);
    [0, 1, 2].map(|k| (a[k] as f32 + (b[k] as f32 - a[k] as f32) * f).round() as u8)
}

/// The terrain map at `t` with the shore at `sea` (both in `[0, 1]`).
fn terrain(t: f32, sea: f32) -> [u8; 3] {
    if t < sea {
        sample(&SEA, t / sea)
    } else if sea >= 1.0 {
        sample(&SEA, 1.0)
    } else {
        sample(&LAND, (t - sea) / (1.0 - sea))
    }
}

impl ColorMap {
    /// The colour at `t`, clamped to `[0, 1]`; NaN gives [`NAN_COLOR`].
    ///
    /// ```
    /// use export::colormap::ColorMap;
    /// assert_eq!(ColorMap::Viridis.color(0.0), [68, 1, 84]);
    /// assert_eq!(ColorMap::Viridis.color(f32::NAN), [128, 128, 128]);
    /// let sea = ColorMap::Terrain { sea_level: 0.5 }.color(0.25);
    /// assert!(sea[2] > sea[0]); // blue below the sea level
    /// ```
    pub fn color(&self, t: f32) -> [u8; 3] {
        if t.is_nan() {
            return NAN_COLOR;
        }
        let t = t.clamp(0.0, 1.0);
        match *self {
            ColorMap::Viridis => sample(&VIRIDIS, t),
            ColorMap::Magma => sample(&MAGMA, t),
            ColorMap::Cividis => sample(&CIVIDIS, t),
            ColorMap::Turbo => sample(&TURBO, t),
            ColorMap::Terrain { sea_level } => terrain(t, clamp_sea(sea_level)),
        }
    }
}

/// A non-finite sea level counts as `0` (all land).
fn clamp_sea(sea: f32) -> f32 {
    if sea.is_nan() {
        0.0
    } else {
        sea.clamp(0.0, 1.0)
    }
}

/// The elevations (m) the terrain colours of a whole planet span, from the deepest trenches
/// to the highest ranges, fixed so that pictures compare across steps and planets.
pub const PLANET_TERRAIN_RANGE: (f32, f32) = (-7000.0, 6000.0);

/// The terrain colours every picture of elevation uses: [`ColorMap::Terrain`] with the shore
/// at `sea_level`, over `range` (both in the data's units, e.g. metres).
///
/// ```
/// use export::colormap::{PLANET_TERRAIN_RANGE, terrain_colors};
/// let c = terrain_colors(&[-3000.0, 10.0], 0.0, PLANET_TERRAIN_RANGE);
/// assert!(c[0][2] > c[0][0] && c[1][1] > c[1][2]); // blue sea, green lowland
/// ```
pub fn terrain_colors(elevation: &[f32], sea_level: f32, range: (f32, f32)) -> Vec<[u8; 3]> {
    colorize(elevation, &ColorMap::Terrain { sea_level }, range)
}

/// One colour per value: `t = (value − range.0) / (range.1 − range.0)` through `map`.
///
/// A reversed range (`range.1 < range.0`) reverses the map. An empty range (`range.0 ==
/// range.1`) is widened to one unit centred on it, and a non-finite one is replaced by the
/// finite values' own minimum and maximum. NaN values are [`NAN_COLOR`]. For
/// [`ColorMap::Terrain`] the sea level is a value in the data's units, mapped through the same
/// range.
///
/// ```
/// use export::colormap::{ColorMap, colorize};
/// let elevation = [-100.0, 0.0, 2500.0, f32::NAN];
/// let c = colorize(&elevation, &ColorMap::Terrain { sea_level: 0.0 }, (-1000.0, 3000.0));
/// assert!(c[0][2] > c[0][1]); // sea: blue
/// assert!(c[1][1] > c[1][2]); // shore: green
/// assert_eq!(c[3], [128, 128, 128]);
/// ```
pub fn colorize(values: &[f32], map: &ColorMap, range: (f32, f32)) -> Vec<[u8; 3]> {
    let scaled = Scaled::new(map, range, values);
    values.iter().map(|&v| scaled.color(v)).collect()
}

/// A map with its range resolved as [`colorize`] documents: colours for raw values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scaled {
    map: ColorMap,
    lo: f64,
    inv: f64,
}

impl Scaled {
    /// `values` supply the extent when `range` is not finite.
    pub(crate) fn new(map: &ColorMap, range: (f32, f32), values: &[f32]) -> Self {
        let (mut lo, mut hi) = range;
        if !(lo.is_finite() && hi.is_finite()) {
            (lo, hi) = values
                .iter()
                .filter(|v| v.is_finite())
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &v| {
                    (a.min(v), b.max(v))
                });
            if lo > hi {
                (lo, hi) = (0.0, 1.0);
            }
        }
        if lo == hi {
            (lo, hi) = (lo - 0.5, hi + 0.5);
        }
        // In f64: a range like (-1e38, 1e38) would overflow its width in f32.
        let (lo, inv) = (lo as f64, 1.0 / (hi as f64 - lo as f64));
        let mut scaled = Self { map: *map, lo, inv };
        if let ColorMap::Terrain { sea_level } = *map {
            scaled.map = ColorMap::Terrain {
                sea_level: scaled.t(sea_level),
            };
        }
        scaled
    }

    #[inline]
    fn t(&self, v: f32) -> f32 {
        ((v as f64 - self.lo) * self.inv) as f32
    }

    #[inline]
    pub(crate) fn color(&self, v: f32) -> [u8; 3] {
        self.map.color(self.t(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CIE L* of an sRGB colour (D65), the lightness a viewer perceives.
    fn lightness(c: [u8; 3]) -> f32 {
        let lin = |b: u8| {
            let c = b as f32 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let y = 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
        if y > 216.0 / 24389.0 {
            116.0 * y.cbrt() - 16.0
        } else {
            y * 24389.0 / 27.0
        }
    }

    #[test]
    fn perceptual_maps_grow_lighter() {
        for map in [ColorMap::Viridis, ColorMap::Magma, ColorMap::Cividis] {
            let mut prev = -1.0;
            for i in 0..=1000 {
                let l = lightness(map.color(i as f32 / 1000.0));
                // Rounding to bytes may wobble by a fraction of a unit between neighbours.
                assert!(l >= prev - 0.3, "{map:?} at {i}: {l} after {prev}");
                prev = prev.max(l);
            }
            let (l0, l1) = (lightness(map.color(0.0)), lightness(map.color(1.0)));
            assert!(l1 - l0 > 60.0, "{map:?} spans {l0}..{l1}");
        }
    }

    #[test]
    fn turbo_has_dark_ends_and_a_light_middle() {
        let m = ColorMap::Turbo;
        let mid = lightness(m.color(0.5));
        assert!(lightness(m.color(0.0)) < mid - 40.0);
        assert!(lightness(m.color(1.0)) < mid - 40.0);
    }

    #[test]
    fn terrain_is_blue_below_and_green_then_white_above() {
        let m = ColorMap::Terrain { sea_level: 0.4 };
        let deep = m.color(0.0);
        let shallow = m.color(0.39);
        assert!(deep[2] > deep[0] && shallow[2] > shallow[0]);
        assert!(
            lightness(shallow) > lightness(deep) + 20.0,
            "deep water is darker"
        );
        let shore = m.color(0.41);
        assert!(shore[1] > shore[0] && shore[1] > shore[2]);
        assert_eq!(m.color(1.0), [250, 250, 250]);
        // Sea levels outside [0, 1] or NaN: all sea, all land.
        assert_eq!(ColorMap::Terrain { sea_level: 2.0 }.color(1.0), SEA[2]);
        assert_eq!(ColorMap::Terrain { sea_level: -1.0 }.color(0.0), LAND[0]);
        assert_eq!(
            ColorMap::Terrain {
                sea_level: f32::NAN
            }
            .color(0.0),
            LAND[0]
        );
    }

    #[test]
    fn colorize_clamps_reverses_and_handles_degenerate_ranges() {
        let v = [0.0, 5.0, 10.0, -3.0, 20.0, f32::NAN, f32::INFINITY];
        let m = ColorMap::Viridis;
        let c = colorize(&v, &m, (0.0, 10.0));
        assert_eq!(c[0], m.color(0.0));
        assert_eq!(c[1], m.color(0.5));
        assert_eq!(c[2], m.color(1.0));
        assert_eq!(c[3], c[0]);
        assert_eq!(c[4], c[2]);
        assert_eq!(c[5], NAN_COLOR);
        assert_eq!(c[6], c[2]);
        let r = colorize(&v, &m, (10.0, 0.0));
        assert_eq!((r[0], r[2]), (c[2], c[0]));
        // Empty range: the value itself sits in the middle.
        assert_eq!(colorize(&[3.0], &m, (3.0, 3.0))[0], m.color(0.5));
        // Non-finite range: the finite values' own extent (here -3..=20).
        let auto = colorize(&v, &m, (f32::NAN, 1.0));
        assert_eq!((auto[3], auto[4]), (m.color(0.0), m.color(1.0)));
        assert_eq!(colorize(&[f32::NAN], &m, (f32::NAN, f32::NAN)), [NAN_COLOR]);
        assert!(colorize(&[], &m, (0.0, 1.0)).is_empty());
        // Huge ranges do not overflow.
        assert_eq!(colorize(&[0.0], &m, (-3e38, 3e38))[0], m.color(0.5));
    }

    #[test]
    fn terrain_sea_level_follows_the_range() {
        let m = ColorMap::Terrain { sea_level: 100.0 };
        let c = colorize(&[99.0, 101.0], &m, (0.0, 1000.0));
        assert!(
            c[0][2] > c[0][1],
            "just below the sea level is water: {:?}",
            c[0]
        );
        assert!(c[1][1] > c[1][2], "just above is land: {:?}", c[1]);
    }
}
