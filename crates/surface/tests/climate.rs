//! Climate and biomes: temperature falls with latitude and height, winds follow their bands,
//! a ridge across the wind is wet on its windward side and dry in its lee, and the biome
//! table gives what Whittaker's diagram gives.

mod common;

use common::{flat_map, planet};
use surface::{
    ALL_BIOMES, Biome, CellClimate, ClimateOptions, biome, climate, land_biome, prevailing_wind,
};

#[test]
fn temperature_falls_with_latitude_on_a_water_planet() {
    let (_, _, cells) = planet(2000, 3);
    let sea = vec![-3000.0f32; cells.len()];
    let c = climate(&cells, &sea, &ClimateOptions::default()).unwrap();
    let mut by_lat: Vec<(f32, f32)> = cells
        .live_cells()
        .map(|v| (cells.latitudes()[v].abs(), c.temperature_c[v]))
        .collect();
    by_lat.sort_by(|a, b| a.0.total_cmp(&b.0));
    for w in by_lat.windows(2) {
        assert!(w[1].1 <= w[0].1, "{w:?}");
    }
    assert!(by_lat[0].1 > 25.0 && by_lat.last().unwrap().1 < -15.0);
}

#[test]
fn temperature_falls_by_the_lapse_rate_with_height() {
    let (map, cells) = flat_map(20, 20, 10.0, 1, 30.0);
    let o = ClimateOptions::default();
    // Sea along the west edge; two land columns at the same distance from it, one 2 km high.
    let flat: Vec<f32> = map
        .positions
        .iter()
        .map(|p| if p.x < 15.0 { -100.0 } else { 100.0 })
        .collect();
    let mut high = flat.clone();
    for (v, p) in map.positions.iter().enumerate() {
        if p.x > 95.0 && p.x < 125.0 {
            high[v] = 2100.0;
        }
    }
    let a = climate(&cells, &flat, &o).unwrap();
    let b = climate(&cells, &high, &o).unwrap();
    let mut seen = 0;
    for v in cells.live_cells() {
        if high[v] > 2000.0 {
            let drop = a.temperature_c[v] - b.temperature_c[v];
            assert!((drop - 13.0).abs() < 1e-3, "{drop}");
            seen += 1;
        }
    }
    assert!(seen > 20);
}

#[test]
fn winds_follow_the_latitude_bands() {
    let [e, n] = prevailing_wind(15f64.to_radians());
    assert!(e < 0.0 && n < 0.0, "north-east trades");
    let [e, n] = prevailing_wind((-15f64).to_radians());
    assert!(e < 0.0 && n > 0.0, "south-east trades");
    let [e, n] = prevailing_wind(45f64.to_radians());
    assert!(e > 0.0 && n > 0.0, "westerlies");
    let [e, _] = prevailing_wind(75f64.to_radians());
    assert!(e < 0.0, "polar easterlies");
}

#[test]
fn the_lee_of_a_ridge_is_drier_than_its_windward_side() {
    // At 45° N the westerlies blow from the sea on the west edge over a ridge at x = 300 km.
    let (map, cells) = flat_map(60, 20, 10.0, 7, 45.0);
    let ridge = |x: f64| 2500.0 * (-((x - 300.0) / 40.0).powi(2)).exp();
    let land = |x: f64| if x < 50.0 { -200.0 } else { 100.0 };
    let with: Vec<f32> = map
        .positions
        .iter()
        .map(|p| (land(p.x) + ridge(p.x)) as f32)
        .collect();
    let without: Vec<f32> = map.positions.iter().map(|p| land(p.x) as f32).collect();
    let o = ClimateOptions::default();
    let a = climate(&cells, &with, &o).unwrap();
    let b = climate(&cells, &without, &o).unwrap();
    let mean = |c: &surface::Climate, lo: f64, hi: f64| {
        let xs: Vec<f32> = cells
            .live_cells()
            .filter(|&v| {
                (lo..hi).contains(&map.positions[v].x)
                    && (40.0..160.0).contains(&map.positions[v].y)
            })
            .map(|v| c.precipitation_mm[v])
            .collect();
        xs.iter().sum::<f32>() / xs.len() as f32
    };
    let windward = mean(&a, 230.0, 290.0);
    let lee = mean(&a, 320.0, 380.0);
    assert!(lee < 0.6 * windward, "lee {lee} windward {windward}");
    assert!(
        windward > mean(&b, 230.0, 290.0),
        "the ridge lifts the air and it rains"
    );
    assert!(
        lee < mean(&b, 320.0, 380.0),
        "the ridge casts a rain shadow"
    );
}

#[test]
fn biome_table() {
    let cases = [
        ((27.0, 3000.0), Biome::Rainforest),
        ((25.0, 1500.0), Biome::TropicalForest),
        ((24.0, 800.0), Biome::Savanna),
        ((24.0, 100.0), Biome::Desert),
        ((12.0, 1000.0), Biome::TemperateForest),
        ((12.0, 2500.0), Biome::TemperateRainforest),
        ((12.0, 500.0), Biome::Grassland),
        ((12.0, 200.0), Biome::ColdDesert),
        ((0.0, 600.0), Biome::Taiga),
        ((0.0, 100.0), Biome::ColdDesert),
        ((-8.0, 300.0), Biome::Tundra),
        ((-20.0, 300.0), Biome::Ice),
    ];
    for ((t, p), b) in cases {
        assert_eq!(land_biome(t, p), b, "{t} °C, {p} mm");
    }
    let cell = |elevation, ice, lake| CellClimate {
        elevation,
        sea_level: 0.0,
        temperature_c: 10.0,
        precipitation_mm: 1000.0,
        ice,
        lake,
    };
    assert_eq!(biome(&cell(-3000.0, false, false)), Biome::DeepOcean);
    assert_eq!(biome(&cell(-100.0, false, false)), Biome::Ocean);
    assert_eq!(biome(&cell(-100.0, true, false)), Biome::SeaIce);
    assert_eq!(biome(&cell(100.0, false, true)), Biome::Lake);
    assert_eq!(biome(&cell(100.0, true, false)), Biome::Ice);
    assert_eq!(biome(&cell(100.0, false, false)), Biome::TemperateForest);
    for b in ALL_BIOMES {
        assert_eq!(Biome::from_code(b.code()).unwrap(), b);
        assert!(!b.label().is_empty());
    }
    assert!(Biome::from_code(ALL_BIOMES.len() as u8).is_err());
    let codes = [
        Biome::Taiga.code(),
        200,
        Biome::Ocean.code(),
        Biome::Taiga.code(),
    ];
    assert_eq!(
        surface::biomes_present(&codes),
        [Biome::Ocean, Biome::Taiga]
    );
    let colors = surface::biome_colors(&codes);
    assert_eq!(colors[0], Biome::Taiga.color());
    assert_eq!(
        colors[1],
        Biome::Ocean.color(),
        "unknown codes draw as ocean"
    );
    let colors: std::collections::HashSet<[u8; 3]> = ALL_BIOMES.iter().map(|b| b.color()).collect();
    assert_eq!(colors.len(), ALL_BIOMES.len(), "one colour per biome");
}

#[test]
fn precipitation_is_the_same_for_any_thread_count() {
    // The wind bands are swept in parallel: 1, 2 and 4 threads give the same bits.
    let (_, pos, cells) = planet(6000, 3);
    let elevation = common::wavy_relief(&pos, 5);
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| climate(&cells, &elevation, &ClimateOptions::default()).unwrap())
    };
    let one = run(1);
    let bits = |c: &surface::Climate| -> Vec<u32> {
        c.precipitation_mm.iter().map(|x| x.to_bits()).collect()
    };
    for threads in [2, 4] {
        assert_eq!(bits(&one), bits(&run(threads)), "{threads} threads");
    }
    // Every live cell gets rain, land included.
    let land: Vec<usize> = cells
        .live_cells()
        .filter(|&v| elevation[v] >= 0.0)
        .collect();
    assert!(land.len() > 1000, "{}", land.len());
    assert!(land.iter().all(|&v| one.precipitation_mm[v] > 0.0));
}
