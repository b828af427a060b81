//! The summary figures of a small seeded planet run through every stage, as a snapshot: any
//! change of a stage's result shows up in review.

mod common;

use common::{planet, wavy_relief};
use surface::{ALL_BIOMES, SurfaceOptions, run};

#[test]
fn seeded_planet_summary() {
    let (_, pos, cells) = planet(4000, 2026);
    let elevation = wavy_relief(&pos, 2026);
    let o = SurfaceOptions {
        river_threshold_km2: 400_000.0,
        ..SurfaceOptions::default()
    };
    let s = run(&cells, &elevation, None, &o).unwrap();
    let live: Vec<usize> = cells.live_cells().collect();
    let land: Vec<usize> = live
        .iter()
        .copied()
        .filter(|&v| !s.drainage.ocean[v])
        .collect();
    let mean = |x: &[f32], set: &[usize]| {
        set.iter().map(|&v| f64::from(x[v])).sum::<f64>() / set.len() as f64
    };
    let mut out = String::new();
    out += &format!("cells {}, land {}\n", live.len(), land.len());
    out += &format!(
        "lakes {}, rivers {}\n",
        s.drainage.lakes.len(),
        s.rivers.len()
    );
    let big = &s.rivers[0];
    out += &format!(
        "largest river: {} cells, {:.0} thousand km², {:.0} m³/s\n",
        big.cells.len(),
        big.drained_km2 / 1e3,
        big.discharge_m3s
    );
    out += &format!(
        "mean land temperature {:.1} °C, precipitation {:.0} mm\n",
        mean(&s.climate.temperature_c, &land),
        mean(&s.climate.precipitation_mm, &land)
    );
    let eroded: f64 = land
        .iter()
        .map(|&v| f64::from(elevation[v] - s.elevation[v]))
        .sum::<f64>()
        / land.len() as f64;
    out += &format!("mean erosion on land {eroded:.1} m\n");
    for b in ALL_BIOMES {
        let n = live.iter().filter(|&&v| s.biome[v] == b.code()).count();
        if n > 0 {
            out += &format!("  {:<22} {n}\n", b.label());
        }
    }
    insta::assert_snapshot!(out);
}
