//! Drainage on a seeded planet and on flat maps: every path reaches the sea, lakes drain
//! onward, no cycles, areas add up, the filled surface has no pit and matches an independent
//! (slow, iterative) fill.

mod common;

use common::{flat_map, planet, wavy_relief};
use surface::{Cells, Drainage, NONE, SurfaceError, drainage};

/// Follows receivers from `v`; panics on a cycle. Returns the last cell.
fn walk(d: &Drainage, mut v: usize) -> usize {
    for _ in 0..=d.receiver.len() {
        match d.receiver[v] {
            NONE => return v,
            r => v = r as usize,
        }
    }
    panic!("cycle through {v}");
}

fn land_area(cells: &Cells, d: &Drainage) -> f64 {
    cells
        .live_cells()
        .filter(|&v| !d.ocean[v])
        .map(|v| cells.areas_km2()[v])
        .sum()
}

/// The invariants every drainage keeps.
fn check(cells: &Cells, elevation: &[f32], d: &Drainage) {
    for v in cells.live_cells() {
        let end = walk(d, v);
        if !d.ocean[v] {
            // A land path ends in the sea, or at an open edge of a map.
            assert!(
                d.ocean[end] || cells.links(end).count() < 5 || d.receiver[v] != NONE || v == end,
                "{v} ends at {end}"
            );
            let r = d.receiver[v];
            if r != NONE {
                assert!(d.filled[r as usize] < d.filled[v], "flow must fall");
            }
        }
        assert!(d.filled[v] >= f64::from(elevation[v]));
    }
    // Every lake's outlet is outside it and drains onward to where water leaves.
    for (id, lake) in d.lakes.iter().enumerate() {
        assert_ne!(lake.outlet, NONE);
        assert_ne!(d.lake[lake.outlet as usize], id as u32);
        let end = walk(d, lake.outlet as usize);
        assert!(d.lake[end] == NONE, "lake {id} drains into a lake");
        assert!(lake.depth_m > 0.0 && lake.cells > 0);
    }
    // The stack holds every live cell once, each after its receiver.
    let mut pos = vec![usize::MAX; d.receiver.len()];
    for (i, &v) in d.stack.iter().enumerate() {
        assert_eq!(pos[v as usize], usize::MAX);
        pos[v as usize] = i;
    }
    for v in cells.live_cells() {
        let r = d.receiver[v];
        assert_ne!(pos[v], usize::MAX);
        if r != NONE {
            assert!(pos[r as usize] < pos[v]);
        }
    }
    let land = land_area(cells, d);
    let mouths: f64 = d.mouths().map(|v| d.drained_km2[v]).sum();
    assert!((land - mouths).abs() <= 1e-9 * land, "{land} vs {mouths}");
}

#[test]
fn every_land_cell_drains_to_the_sea_on_a_planet() {
    let (_, pos, cells) = planet(5000, 11);
    let elevation = wavy_relief(&pos, 3);
    let d = drainage(&cells, &elevation, 0.0).unwrap();
    check(&cells, &elevation, &d);
    assert!(!d.lakes.is_empty(), "wavy relief has closed basins");
    for v in cells.live_cells() {
        if !d.ocean[v] {
            assert!(d.ocean[walk(&d, v)], "a closed planet drains to its sea");
            // No interior pit on the filled surface: a strictly lower neighbour.
            let lowest = cells
                .links(v)
                .map(|(w, _)| d.filled[w])
                .fold(f64::INFINITY, f64::min);
            assert!(lowest < d.filled[v]);
        }
    }
}

/// Planchon and Darboux's fill, by plain iteration to a fixed point: independent of the
/// priority flood and slow, for small meshes.
fn iterative_fill(cells: &Cells, elevation: &[f32], sea: f32) -> Vec<f64> {
    let n = cells.len();
    let mut w: Vec<f64> = (0..n)
        .map(|v| {
            if elevation[v] < sea {
                f64::from(elevation[v])
            } else {
                f64::INFINITY
            }
        })
        .collect();
    loop {
        let mut changed = false;
        for v in cells.live_cells() {
            if elevation[v] < sea {
                continue;
            }
            let low = cells
                .links(v)
                .map(|(u, _)| w[u])
                .fold(f64::INFINITY, f64::min);
            let new = f64::from(elevation[v]).max(low);
            if new < w[v] {
                w[v] = new;
                changed = true;
            }
        }
        if !changed {
            return w;
        }
    }
}

#[test]
fn filled_levels_match_an_independent_fill() {
    let (_, pos, cells) = planet(3000, 5);
    let elevation = wavy_relief(&pos, 9);
    let d = drainage(&cells, &elevation, 0.0).unwrap();
    let slow = iterative_fill(&cells, &elevation, 0.0);
    let mut flooded = 0;
    for v in cells.live_cells() {
        // Priority-Flood+ε raises flats by a few ulps per cell; nothing more.
        assert!(
            (d.filled[v] - slow[v]).abs() < 1e-6,
            "{v}: {} vs {}",
            d.filled[v],
            slow[v]
        );
        let lake = d.lake[v] != NONE;
        assert_eq!(lake, slow[v] > f64::from(elevation[v]) + 1e-6, "{v}");
        flooded += usize::from(lake);
    }
    assert!(flooded > 10, "the test must see lakes: {flooded}");
}

fn lake_cell(d: &Drainage) -> usize {
    d.lakes[0].deepest as usize
}

#[test]
fn a_bowl_on_a_map_becomes_one_lake_that_spills_over_its_rim() {
    let (map, cells) = flat_map(30, 30, 10.0, 2, 40.0);
    // A plain falling to the west edge, with a bowl 100 m deep in the middle.
    let elevation: Vec<f32> = map
        .positions
        .iter()
        .map(|p| {
            let bowl = ((p.x - 150.0).powi(2) + (p.y - 150.0).powi(2)).sqrt();
            let dip = if bowl < 60.0 {
                100.0 * (1.0 - bowl / 60.0)
            } else {
                0.0
            };
            (200.0 + p.x - dip) as f32
        })
        .collect();
    let d = drainage(&cells, &elevation, -1e9).unwrap();
    check(&cells, &elevation, &d);
    assert_eq!(d.lakes.len(), 1, "{:?}", d.lakes);
    let lake = d.lakes[0];
    // It spills over the western rim, about 60 km west of the bottom: the plain rises 1 m
    // per km, so the bottom (250 m) lies about 40 m below the spill point (290 m).
    assert!(lake.depth_m > 30.0 && lake.depth_m < 45.0, "{lake:?}");
    assert!(map.positions[lake.outlet as usize].x < 100.0, "{lake:?}");
    // The lake holds water where rain on its basin outweighs evaporation from its surface.
    let climate = |mm: f32| surface::Climate {
        temperature_c: vec![20.0; cells.len()],
        precipitation_mm: vec![mm; cells.len()],
        wind: vec![[1.0, 0.0]; cells.len()],
        sea_distance_km: vec![100.0; cells.len()],
        ice: vec![false; cells.len()],
    };
    for (mm, wet) in [(3000.0, true), (100.0, false)] {
        let c = climate(mm);
        let q = surface::discharge(&cells, &d, &c.precipitation_mm, 0.4).unwrap();
        assert_eq!(surface::wet_lakes(&cells, &d, &q, &c), [wet], "{mm} mm");
        let biomes = surface::classify(&cells, &elevation, &c, &d, &q, -1e9).unwrap();
        let lake = surface::Biome::Lake.code();
        assert_eq!(biomes[lake_cell(&d)] == lake, wet);
    }
    // With no sea, the water leaves over the map's edges.
    for v in cells.live_cells() {
        let end = walk(&d, v);
        assert!(cells.links(end).count() < 6 || d.receiver[end] == NONE);
    }
}

#[test]
fn bad_input_is_refused() {
    let (_, pos, cells) = planet(200, 1);
    let mut elevation = wavy_relief(&pos, 1);
    assert!(matches!(
        drainage(&cells, &elevation[1..], 0.0),
        Err(SurfaceError::LengthMismatch { .. })
    ));
    assert!(drainage(&cells, &elevation, f32::NAN).is_err());
    elevation[7] = f32::NAN;
    assert_eq!(
        drainage(&cells, &elevation, 0.0).unwrap_err(),
        SurfaceError::NonFinite {
            what: "elevation",
            vertex: 7
        }
    );
    let d = drainage(&cells, &wavy_relief(&pos, 1), 0.0).unwrap();
    assert!(d.accumulate(&[1.0]).is_err());
    // A drainage of another mesh is refused, not followed out of bounds.
    let (_, pos2, cells2) = planet(300, 2);
    let other = drainage(&cells2, &wavy_relief(&pos2, 1), 0.0).unwrap();
    let h = wavy_relief(&pos, 1);
    let sp = surface::StreamPower::default();
    assert!(surface::stream_power_step(&cells, &other, &h, None, &sp).is_err());
    let mut broken = d.clone();
    broken.stack.push(10_000);
    assert!(broken.check(cells.len()).is_err());
    assert!(surface::rivers(&broken, &vec![0.0; cells.len()], 1.0).is_err());
}
