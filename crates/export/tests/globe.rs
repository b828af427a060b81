//! The globe's new options (poles up, interpolated colours, hillshading) and the exporters on
//! a frozen mesh.

mod common;

use common::{fibonacci, icosphere, with_frozen};
use export::colormap::{ColorMap, colorize};
use export::render::{Borders, GlobeOptions, Shading, render_globe, render_mesh_closeup};
use export::{ExportError, Image, gltf, obj, ply};
use glam::Vec3;

/// Small, one sample per pixel, no Lambert falloff (ambient 1), so colours are the data's.
fn plain() -> GlobeOptions<'static> {
    GlobeOptions {
        width: 256,
        height: 128,
        samples: 1,
        ambient: 1.0,
        threads: 1,
        ..Default::default()
    }
}

fn grey(img: &Image, x: u32, y: u32) -> i32 {
    img.pixel(x, y)
        .unwrap()
        .iter()
        .map(|&c| c as i32)
        .sum::<i32>()
        / 3
}

#[test]
fn the_poles_are_up_by_default_and_up_can_be_chosen() {
    let (mesh, pos) = fibonacci(3000);
    // North cap red, south cap blue, the rest grey.
    let colors: Vec<[u8; 3]> = pos
        .iter()
        .map(|p| match p.y {
            y if y > 0.6 => [220, 30, 30],
            y if y < -0.6 => [30, 30, 220],
            _ => [128; 3],
        })
        .collect();
    let img = render_globe(&mesh, &pos, &colors, &plain()).unwrap();
    for cx in [64, 192] {
        assert_eq!(
            img.pixel(cx, 10),
            Some([220, 30, 30]),
            "north on top at x {cx}"
        );
        assert_eq!(
            img.pixel(cx, 117),
            Some([30, 30, 220]),
            "south at the bottom at x {cx}"
        );
        assert_eq!(img.pixel(cx, 64), Some([128; 3]));
    }
    let z_up = GlobeOptions {
        up: Vec3::Z,
        view: Vec3::X,
        ..plain()
    };
    let img = render_globe(&mesh, &pos, &colors, &z_up).unwrap();
    assert_eq!(
        img.pixel(64, 10),
        Some([128; 3]),
        "+Z up: the Y poles are at the sides"
    );
}

/// The grey levels along the equator row of the left disc.
fn equator_row(img: &Image) -> Vec<i32> {
    (12..116).map(|x| grey(img, x, 64)).collect()
}

fn longest_run(row: &[i32]) -> usize {
    let (mut best, mut run) = (1, 1);
    for w in row.windows(2) {
        run = if w[0] == w[1] { run + 1 } else { 1 };
        best = best.max(run);
    }
    best
}

#[test]
fn interpolated_shading_is_a_smooth_ramp_where_flat_has_cells() {
    let (mesh, pos) = icosphere(2);
    // Grey rising from west to east (x), so the equator row is a ramp.
    let values: Vec<f32> = pos.iter().map(|p| p.x).collect();
    let colors: Vec<[u8; 3]> = values
        .iter()
        .map(|&v| [((v + 1.0) * 127.5).round() as u8; 3])
        .collect();
    let flat = render_globe(&mesh, &pos, &colors, &plain()).unwrap();
    let smooth_opts = GlobeOptions {
        shading: Shading::Interpolated,
        ..plain()
    };
    let smooth = render_globe(&mesh, &pos, &colors, &smooth_opts).unwrap();
    let (f, s) = (equator_row(&flat), equator_row(&smooth));
    assert!(longest_run(&f) > 10, "flat cells are wide: {f:?}");
    assert!(
        longest_run(&s) <= 4,
        "interpolated changes every few pixels: {s:?}"
    );
    assert!(
        s.windows(2).all(|w| w[1] >= w[0] - 1),
        "monotone ramp: {s:?}"
    );
    assert!(s[s.len() - 1] - s[0] > 150);
    // Borders still draw over interpolated colours.
    let regions: Vec<u32> = pos.iter().map(|p| u32::from(p.x > 0.0)).collect();
    let bordered = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            borders: Borders::Regions(&regions),
            ..smooth_opts
        },
    )
    .unwrap();
    assert_ne!(bordered, smooth);
}

#[test]
fn mapped_shading_keeps_a_coastline_sharp_and_straight() {
    let (mesh, pos) = icosphere(2);
    // Sea west of x = 0, land east of it: the coast is the vertical line through the left
    // disc's centre (view +Z).
    let x: Vec<f32> = pos.iter().map(|p| p.x).collect();
    let map = ColorMap::Terrain { sea_level: 0.0 };
    let colors = colorize(&x, &map, (-1.0, 1.0));
    let opts = |shading| GlobeOptions {
        shading,
        hillshade: 0.0,
        ..plain()
    };
    let is_land = |c: [u8; 3]| c[1] > c[2];
    let coast = |img: &Image, y: u32| (0..128).find(|&x| is_land(img.pixel(x, y).unwrap()));
    let mapped = Shading::Mapped {
        map,
        range: (-1.0, 1.0),
    };
    let img = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            relief: Some(&x),
            ..opts(mapped)
        },
    );
    let img = img.unwrap();
    for y in 20..108 {
        let c = coast(&img, y).unwrap();
        assert!((63..=65).contains(&c), "row {y}: coast at {c}");
        // Pure map colours on both sides: no blend of sea and land across the triangles.
        let px = img.pixel(c, y).unwrap();
        // In t units the sea level 0 of the range -1..1 is 0.5.
        let in_t = ColorMap::Terrain { sea_level: 0.5 };
        let shore = (0..=60).map(|k| in_t.color(0.5 + k as f32 * 0.0005));
        assert!(
            shore.into_iter().any(|m| m == px),
            "row {y}: {px:?} is a blend"
        );
    }
    // Interpolated colours follow the triangles: the coast wanders.
    let blurred = render_globe(&mesh, &pos, &colors, &opts(Shading::Interpolated));
    let blurred = blurred.unwrap();
    let spread: Vec<u32> = (20..108).filter_map(|y| coast(&blurred, y)).collect();
    let (lo, hi) = (spread.iter().min().unwrap(), spread.iter().max().unwrap());
    assert!(hi - lo > 2, "interpolated coast {lo}..{hi}");
    // Mapped needs the layer.
    assert!(matches!(
        render_globe(&mesh, &pos, &colors, &opts(mapped)),
        Err(ExportError::InvalidOption {
            name: "shading",
            ..
        })
    ));
}

#[test]
fn hillshade_lights_north_west_slopes_and_darkens_south_east_ones() {
    let (mesh, pos) = fibonacci(20_000);
    // A round hill centred on the left disc's centre (+Z), uniform grey.
    let hill: Vec<f32> = pos
        .iter()
        .map(|p| (-(*p - Vec3::Z).length_squared() / 0.05).exp())
        .collect();
    let colors = vec![[128u8; 3]; pos.len()];
    let opts = GlobeOptions {
        shading: Shading::Interpolated,
        ..plain()
    };
    let img = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            relief: Some(&hill),
            ..opts
        },
    )
    .unwrap();
    let (cx, cy, d) = (64, 64, 9);
    let nw = grey(&img, cx - d, cy - d);
    let se = grey(&img, cx + d, cy + d);
    let top = grey(&img, cx, cy);
    assert!(nw > 128 + 20, "north-west flank lit: {nw}");
    assert!(se < 128 - 20, "south-east flank in shade: {se}");
    assert!(
        (top - 128).abs() < (nw - 128).min(128 - se),
        "the top, nearly flat, changes least: {top} between {se} and {nw}"
    );
    // Far from the hill the ground is flat: unchanged.
    assert_eq!(grey(&img, 192, 64), 128);
    // Strength 0, or no layer, is the plain render.
    let plain_img = render_globe(&mesh, &pos, &colors, &opts).unwrap();
    let off = GlobeOptions {
        hillshade: 0.0,
        ..opts
    };
    assert_eq!(
        render_globe(
            &mesh,
            &pos,
            &colors,
            &GlobeOptions {
                relief: Some(&hill),
                ..off
            }
        )
        .unwrap(),
        plain_img
    );
    assert_eq!(
        render_globe(&mesh, &pos, &colors, &opts).unwrap(),
        plain_img
    );
    // Stronger shading, stronger contrast; flat shading shades too.
    let strong = GlobeOptions {
        hillshade: 3.0,
        ..opts
    };
    let img3 = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            relief: Some(&hill),
            ..strong
        },
    );
    let se3 = grey(&img3.unwrap(), cx + d, cy + d);
    assert!(se3 < se, "{se3} vs {se} (nw {nw}, top {top})");
    let flat = GlobeOptions {
        shading: Shading::Flat,
        ..opts
    };
    let imgf = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            relief: Some(&hill),
            ..flat
        },
    );
    assert!(grey(&imgf.unwrap(), cx - d, cy - d) > 128 + 20);
}

#[test]
fn open_meshes_render_interpolated_without_searching_the_hole() {
    // The northern part of a sphere only: samples in the hole stop at the boundary.
    let (mesh, pos) = fibonacci(4000);
    let tris: Vec<[u32; 3]> = mesh
        .faces()
        .map(|f| mesh.face_vertices(f).map(|v| v.raw()))
        .filter(|t| t.iter().all(|&v| pos[v as usize].y > -0.2))
        .collect();
    let open = quadedge::Mesh::from_triangles(pos.len(), &tris).unwrap();
    assert!(!open.is_closed());
    let colors: Vec<[u8; 3]> = pos
        .iter()
        .map(|p| [((p.y + 1.0) * 127.0) as u8; 3])
        .collect();
    let h: Vec<f32> = pos.iter().map(|p| p.x).collect();
    for shading in [Shading::Flat, Shading::Interpolated] {
        let o = GlobeOptions {
            shading,
            hillshade: 1.0,
            ..plain()
        };
        let img = render_globe(
            &open,
            &pos,
            &colors,
            &GlobeOptions {
                relief: Some(&h),
                ..o
            },
        )
        .unwrap();
        assert!(grey(&img, 64, 10) > 220, "{shading:?}: the north is there");
        // Below the boundary (y < -0.2) the samples take the boundary's colours.
        let south = grey(&img, 64, 110);
        assert!((70..=135).contains(&south), "{shading:?}: {south}");
    }
}

#[test]
fn hostile_hillshade_inputs_are_typed_errors() {
    let (mesh, pos) = icosphere(1);
    let colors = vec![[9u8; 3]; pos.len()];
    let h = vec![0.0f32; pos.len()];
    let run = |relief: &[f32], opts: &GlobeOptions| {
        render_globe(
            &mesh,
            &pos,
            &colors,
            &GlobeOptions {
                relief: Some(relief),
                ..*opts
            },
        )
        .unwrap_err()
    };
    assert!(matches!(
        run(&h[1..], &plain()),
        ExportError::LengthMismatch {
            what: "hillshade",
            ..
        }
    ));
    let mut nan = h.clone();
    nan[4] = f32::NAN;
    assert!(matches!(
        run(&nan, &plain()),
        ExportError::NonFiniteValue {
            what: "hillshade",
            ..
        }
    ));
    for s in [-1.0, 17.0, f32::NAN, f32::INFINITY] {
        let o = GlobeOptions {
            hillshade: s,
            ..plain()
        };
        assert!(matches!(
            run(&h, &o),
            ExportError::InvalidOption {
                name: "hillshade",
                ..
            }
        ));
    }
}

#[test]
fn frozen_mesh_exports_the_same_bytes() {
    let (mesh, pos) = fibonacci(800);
    let (mesh, frozen) = with_frozen(mesh);
    let values: Vec<f32> = pos.iter().map(|p| p.x - p.z * p.y).collect();
    let colors = colorize(&values, &ColorMap::Magma, (-1.5, 1.5));
    let regions: Vec<u32> = values.iter().map(|&v| u32::from(v > 0.2)).collect();

    let mut a = Vec::new();
    let mut b = Vec::new();
    obj::write_obj_to(&mut a, &mesh, &pos).unwrap();
    obj::write_obj_to(&mut b, &frozen, &pos).unwrap();
    assert_eq!(a, b);
    a.clear();
    b.clear();
    ply::write_ply_to(&mut a, &mesh, &pos, Some(&colors)).unwrap();
    ply::write_ply_to(&mut b, &frozen, &pos, Some(&colors)).unwrap();
    assert_eq!(a, b);
    let opts = gltf::GlbOptions {
        colors: Some(&colors),
        scalar: Some(("_ELEVATION", &values)),
        relief: Some(0.1),
    };
    assert_eq!(
        gltf::glb_bytes(&mesh, &pos, &opts).unwrap(),
        gltf::glb_bytes(&frozen, &pos, &opts).unwrap()
    );
    let center = pos[100];
    let closeup = export::CloseupOptions {
        colors: Some(&colors),
        size: 160,
        highlight: vec![quadedge::Vertex::new(100)],
        caption: "frozen".into(),
        ..Default::default()
    };
    assert_eq!(
        render_mesh_closeup(&mesh, &pos, center, 0.2, &closeup).unwrap(),
        render_mesh_closeup(&frozen, &pos, center, 0.2, &closeup).unwrap()
    );
    let mapped = Shading::Mapped {
        map: ColorMap::Viridis,
        range: (-1.0, 1.0),
    };
    for shading in [Shading::Flat, Shading::Interpolated, mapped] {
        let o = GlobeOptions {
            shading,
            threads: 2,
            borders: Borders::Regions(&regions),
            relief: Some(&values),
            ..plain()
        };
        assert_eq!(
            render_globe(&mesh, &pos, &colors, &o).unwrap(),
            render_globe(&frozen, &pos, &colors, &o).unwrap(),
            "{shading:?}"
        );
    }
}
