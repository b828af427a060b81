//! Biomes: a Whittaker-style classification of land by annual mean temperature and
//! precipitation, the sea by depth and ice; one palette and one legend label per biome.

use crate::error::SurfaceError;

/// A biome; the discriminant is what the biome layer stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Biome {
    /// Sea deeper than [`DEEP_SEA_M`].
    DeepOcean = 0,
    /// Sea down to [`DEEP_SEA_M`].
    Ocean = 1,
    /// Frozen sea.
    SeaIce = 2,
    /// Water above sea level (a filled depression).
    Lake = 3,
    /// Land under ice.
    Ice = 4,
    /// Cold and treeless.
    Tundra = 5,
    /// Boreal forest.
    Taiga = 6,
    /// Dry and cool: steppe and cold desert.
    ColdDesert = 7,
    /// Temperate grassland and shrubland.
    Grassland = 8,
    /// Temperate broadleaf and mixed forest.
    TemperateForest = 9,
    /// Temperate rainforest.
    TemperateRainforest = 10,
    /// Hot desert.
    Desert = 11,
    /// Tropical grassland with scattered trees.
    Savanna = 12,
    /// Tropical seasonal (dry) forest.
    TropicalForest = 13,
    /// Tropical rainforest.
    Rainforest = 14,
    /// Bare rock and snow above the tree line.
    Alpine = 15,
}

/// Sea deeper than this (m below sea level) is deep ocean.
pub const DEEP_SEA_M: f32 = 2000.0;

/// Every biome, in discriminant order (the legend's order).
pub const ALL_BIOMES: [Biome; 16] = [
    Biome::DeepOcean,
    Biome::Ocean,
    Biome::SeaIce,
    Biome::Lake,
    Biome::Ice,
    Biome::Tundra,
    Biome::Taiga,
    Biome::ColdDesert,
    Biome::Grassland,
    Biome::TemperateForest,
    Biome::TemperateRainforest,
    Biome::Desert,
    Biome::Savanna,
    Biome::TropicalForest,
    Biome::Rainforest,
    Biome::Alpine,
];

impl Biome {
    /// The biome stored as `code`.
    ///
    /// # Errors
    /// [`SurfaceError::InvalidParameter`] for a code no biome has.
    pub fn from_code(code: u8) -> Result<Self, SurfaceError> {
        ALL_BIOMES
            .get(usize::from(code))
            .copied()
            .ok_or(SurfaceError::InvalidParameter {
                name: "biome code",
                reason: "no biome has this code",
            })
    }

    /// The code stored in the biome layer.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The map colour (sRGB), chosen after the usual atlas colours: blues for water, white
    /// for ice, greens for forests (darker where wetter), tans for dry land.
    pub fn color(self) -> [u8; 3] {
        match self {
            Biome::DeepOcean => [22, 44, 94],
            Biome::Ocean => [44, 90, 160],
            Biome::SeaIce => [200, 220, 235],
            Biome::Lake => [70, 130, 200],
            Biome::Ice => [245, 248, 252],
            Biome::Tundra => [160, 170, 150],
            Biome::Taiga => [60, 100, 80],
            Biome::ColdDesert => [190, 180, 150],
            Biome::Grassland => [170, 190, 100],
            Biome::TemperateForest => [80, 140, 60],
            Biome::TemperateRainforest => [40, 110, 70],
            Biome::Desert => [230, 205, 140],
            Biome::Savanna => [200, 190, 90],
            Biome::TropicalForest => [110, 160, 50],
            Biome::Rainforest => [20, 110, 40],
            Biome::Alpine => [150, 140, 135],
        }
    }

    /// The legend label.
    pub fn label(self) -> &'static str {
        match self {
            Biome::DeepOcean => "deep ocean",
            Biome::Ocean => "ocean",
            Biome::SeaIce => "sea ice",
            Biome::Lake => "lake",
            Biome::Ice => "ice",
            Biome::Tundra => "tundra",
            Biome::Taiga => "taiga",
            Biome::ColdDesert => "cold desert, steppe",
            Biome::Grassland => "grassland",
            Biome::TemperateForest => "temperate forest",
            Biome::TemperateRainforest => "temperate rainforest",
            Biome::Desert => "desert",
            Biome::Savanna => "savanna",
            Biome::TropicalForest => "tropical dry forest",
            Biome::Rainforest => "tropical rainforest",
            Biome::Alpine => "alpine, bare rock",
        }
    }
}

/// The biomes that occur among `codes` (a biome layer), in legend order; unknown codes are
/// ignored.
pub fn biomes_present(codes: &[u8]) -> Vec<Biome> {
    let mut seen = [false; ALL_BIOMES.len()];
    for &c in codes {
        if let Some(x) = seen.get_mut(usize::from(c)) {
            *x = true;
        }
    }
    ALL_BIOMES
        .into_iter()
        .filter(|b| seen[usize::from(b.code())])
        .collect()
}

/// The colour of rivers on maps, beside the biome palette.
pub const RIVER_COLOR: [u8; 3] = [40, 95, 190];

/// A map legend for a biome layer: `(colour, label)` of each biome that occurs, in legend
/// order, then rivers.
pub fn legend(codes: &[u8]) -> Vec<([u8; 3], &'static str)> {
    let mut items: Vec<([u8; 3], &'static str)> = biomes_present(codes)
        .into_iter()
        .map(|b| (b.color(), b.label()))
        .collect();
    items.push((RIVER_COLOR, "river"));
    items
}

/// The palette colour of each code of a biome layer (unknown codes as ocean).
pub fn biome_colors(codes: &[u8]) -> Vec<[u8; 3]> {
    codes
        .iter()
        .map(|&c| Biome::from_code(c).unwrap_or(Biome::Ocean).color())
        .collect()
}

/// The land biome of an annual mean temperature (°C) and precipitation (mm/yr), after
/// Whittaker's diagram: temperature bands (below −12 °C ice, −12 to −5 tundra, −5 to 5
/// boreal, 5 to 20 temperate, above 20 tropical), then precipitation thresholds within each.
///
/// ```
/// use surface::{Biome, land_biome};
/// assert_eq!(land_biome(26.0, 3000.0), Biome::Rainforest);
/// assert_eq!(land_biome(26.0, 100.0), Biome::Desert);
/// assert_eq!(land_biome(-20.0, 400.0), Biome::Ice);
/// ```
pub fn land_biome(temperature_c: f32, precipitation_mm: f32) -> Biome {
    let (t, p) = (temperature_c, precipitation_mm);
    if t < -12.0 {
        Biome::Ice
    } else if t < -5.0 {
        Biome::Tundra
    } else if t < 5.0 {
        if p < 250.0 {
            Biome::ColdDesert
        } else {
            Biome::Taiga
        }
    } else if t < 20.0 {
        if p < 300.0 {
            Biome::ColdDesert
        } else if p < 700.0 {
            Biome::Grassland
        } else if p < 2000.0 {
            Biome::TemperateForest
        } else {
            Biome::TemperateRainforest
        }
    } else if p < 400.0 {
        Biome::Desert
    } else if p < 1100.0 {
        Biome::Savanna
    } else if p < 2000.0 {
        Biome::TropicalForest
    } else {
        Biome::Rainforest
    }
}

/// What [`biome`] looks at in one cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellClimate {
    /// Elevation (m).
    pub elevation: f32,
    /// Sea level (m).
    pub sea_level: f32,
    /// Annual mean temperature (°C).
    pub temperature_c: f32,
    /// Annual precipitation (mm).
    pub precipitation_mm: f32,
    /// Covered by ice.
    pub ice: bool,
    /// Under a lake.
    pub lake: bool,
}

/// Land higher than this above sea level, and colder than [`ALPINE_C`], is alpine.
pub const ALPINE_M: f32 = 3000.0;
/// See [`ALPINE_M`].
pub const ALPINE_C: f32 = 0.0;

/// The biome of one cell: sea by depth (frozen where there is ice), lakes, ice, bare
/// mountains, then [`land_biome`].
pub fn biome(c: &CellClimate) -> Biome {
    if c.elevation < c.sea_level {
        if c.ice {
            Biome::SeaIce
        } else if c.sea_level - c.elevation > DEEP_SEA_M {
            Biome::DeepOcean
        } else {
            Biome::Ocean
        }
    } else if c.ice {
        Biome::Ice
    } else if c.lake {
        Biome::Lake
    } else if c.elevation - c.sea_level > ALPINE_M && c.temperature_c < ALPINE_C {
        Biome::Alpine
    } else {
        land_biome(c.temperature_c, c.precipitation_mm)
    }
}
