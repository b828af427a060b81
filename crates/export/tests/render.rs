//! Renders small meshes, decodes the PNGs and checks what is in the picture.

mod common;

use export::render::{Borders, CloseupOptions, GlobeOptions, render_globe, render_mesh_closeup};
use export::{ExportError, Image};
use std::collections::HashSet;

fn decode(png_bytes: &[u8]) -> Image {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    Image {
        width: info.width,
        height: info.height,
        rgb: buf,
    }
}

fn small() -> GlobeOptions<'static> {
    GlobeOptions {
        width: 512,
        height: 256,
        threads: 2,
        ..Default::default()
    }
}

#[test]
fn globe_png_has_two_discs_regions_and_borders() {
    let (mesh, pos) = common::icosphere(3);
    let (regions, colors) = common::regions_and_colors(&pos);
    let opts = small();
    let img = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            borders: Borders::Regions(&regions),
            ..opts
        },
    )
    .unwrap();
    let img = decode(&img.to_png_bytes().unwrap());
    assert_eq!((img.width, img.height), (512, 256));

    let bg = opts.background;
    // Corners are background, both disc centres are not.
    for (x, y) in [(0, 0), (511, 0), (0, 255), (511, 255), (256, 2)] {
        assert_eq!(img.pixel(x, y), Some(bg), "({x}, {y})");
    }
    for x in [128, 384] {
        assert_ne!(img.pixel(x, 128), Some(bg));
    }
    // Several region hues and dark border pixels inside the discs.
    let mut hues = HashSet::new();
    let mut dark = 0;
    for y in 0..256 {
        for x in 0..512 {
            let [r, g, b] = img.pixel(x, y).unwrap();
            let inside =
                ((x as f32 % 256.0 - 128.0).powi(2) + (y as f32 - 128.0).powi(2)).sqrt() < 100.0;
            if !inside {
                continue;
            }
            let max = r.max(g).max(b);
            if max < 40 {
                dark += 1;
            } else if max > 120 {
                hues.insert((r / 64, g / 64, b / 64));
            }
        }
    }
    assert!(hues.len() >= 4, "{hues:?}");
    assert!(dark > 200, "{dark} border pixels");

    // Without borders there are no dark pixels near the disc centres.
    let plain = render_globe(&mesh, &pos, &colors, &opts).unwrap();
    let dark_plain = (0..256u32)
        .flat_map(|y| (0..512u32).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            ((x as f32 % 256.0 - 128.0).powi(2) + (y as f32 - 128.0).powi(2)).sqrt() < 60.0
        })
        .filter(|&(x, y)| plain.pixel(x, y).unwrap().iter().all(|&c| c < 40))
        .count();
    assert_eq!(dark_plain, 0);
}

#[test]
fn custom_borders_match_region_borders_and_threads_do_not_change_the_picture() {
    let (mesh, pos) = common::icosphere(3);
    let (regions, colors) = common::regions_and_colors(&pos);
    let rule = |a: quadedge::Vertex, b: quadedge::Vertex| regions[a.index()] != regions[b.index()];
    let one = GlobeOptions {
        threads: 1,
        ..small()
    };
    let a = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            borders: Borders::Custom(&rule),
            ..one
        },
    )
    .unwrap();
    let b = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            borders: Borders::Regions(&regions),
            ..small()
        },
    )
    .unwrap();
    assert_eq!(a, b);
}

#[test]
fn meshes_with_dead_slots_render() {
    let (mesh, pos) = common::icosphere_with_hole(2);
    let colors = vec![[200, 100, 50]; pos.len()];
    let img = render_globe(&mesh, &pos, &colors, &small()).unwrap();
    assert_ne!(img.pixel(128, 128), Some(small().background));
}

#[test]
fn closeup_shows_delaunay_and_voronoi_lines() {
    let (mesh, pos) = common::icosphere(3);
    // Pure colours, so each kind of line can be counted; no fill, legend or sites in the way.
    let lines = CloseupOptions {
        size: 300,
        fill_cells: false,
        legend: false,
        site_radius: 0.0,
        delaunay_color: [0, 0, 255],
        voronoi_color: [255, 0, 0],
        ..Default::default()
    };
    let img = render_mesh_closeup(&mesh, &pos, pos[5], 0.2, &lines).unwrap();
    let img = decode(&img.to_png_bytes().unwrap());
    assert_eq!((img.width, img.height), (300, 300));
    let count = |img: &Image, want: fn(i32, i32, i32) -> bool| {
        img.rgb
            .chunks(3)
            .filter(|p| want(p[0] as i32, p[1] as i32, p[2] as i32))
            .count()
    };
    let blue = count(&img, |r, g, b| b > r + 60 && b > g + 60);
    let red = count(&img, |r, g, b| r > b + 60 && r > g + 60);
    assert!(blue > 300 && red > 500, "blue {blue} red {red}");
    // The Voronoi edges are drawn wider than the Delaunay ones by default.
    assert!(red > blue, "blue {blue} red {red}");

    let bare = CloseupOptions {
        fill_cells: false,
        size: 100,
        ..Default::default()
    };
    let img = render_mesh_closeup(&mesh, &pos, pos[5], 0.2, &bare).unwrap();
    assert!(img.rgb.chunks(3).any(|p| p == [255, 255, 255]));
}

#[test]
fn closeup_rings_highlighted_sites_and_draws_legend_and_caption() {
    let (mesh, pos) = common::icosphere(3);
    let plain = CloseupOptions {
        size: 400,
        legend: false,
        ..Default::default()
    };
    let orange = |img: &Image| {
        img.rgb
            .chunks(3)
            .filter(|p| p[0] > 200 && (90..150).contains(&p[1]) && p[2] < 60)
            .count()
    };
    let base = render_mesh_closeup(&mesh, &pos, pos[5], 0.2, &plain).unwrap();
    assert_eq!(orange(&base), 0);
    let ringed = CloseupOptions {
        highlight: vec![quadedge::Vertex::new(5)],
        ..plain.clone()
    };
    let img = render_mesh_closeup(&mesh, &pos, pos[5], 0.2, &ringed).unwrap();
    assert!(orange(&img) > 20, "ring pixels {}", orange(&img));
    // Only the ring, round the centre, changed.
    let changed: Vec<(u32, u32)> = (0..400 * 400)
        .filter(|&i| img.rgb[3 * i..3 * i + 3] != base.rgb[3 * i..3 * i + 3])
        .map(|i| ((i % 400) as u32, (i / 400) as u32))
        .collect();
    assert!(!changed.is_empty());
    assert!(
        changed
            .iter()
            .all(|&(x, y)| x.abs_diff(200) < 12 && y.abs_diff(200) < 12)
    );

    // Legend and caption paint their corners; nothing else moves.
    let labelled = CloseupOptions {
        legend: true,
        caption: "CLOSE-UP 1:2".into(),
        ..plain.clone()
    };
    let img = render_mesh_closeup(&mesh, &pos, pos[5], 0.2, &labelled).unwrap();
    let differs = |x: u32, y: u32| img.pixel(x, y) != base.pixel(x, y);
    assert!(
        (0..60).any(|x| (0..14).any(|y| differs(x, y))),
        "no caption"
    );
    assert!(
        (0..100).any(|x| (340..400).any(|y| differs(x, y))),
        "no legend"
    );
    assert!(
        !(150..250).any(|x| (150..250).any(|y| differs(x, y))),
        "centre touched"
    );

    // A dead or absent highlighted vertex is an error, not a panic.
    let bad = CloseupOptions {
        highlight: vec![quadedge::Vertex::new(1 << 20)],
        ..plain
    };
    assert!(matches!(
        render_mesh_closeup(&mesh, &pos, pos[5], 0.2, &bad),
        Err(ExportError::InvalidOption {
            name: "highlight",
            ..
        })
    ));
}

#[test]
fn png_file_round_trip_and_bad_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let img = Image::new(7, 3, [1, 2, 3]);
    let path = dir.join("tiny.png");
    img.save_png(&path).unwrap();
    assert_eq!(decode(&std::fs::read(&path).unwrap()), img);
    assert!(matches!(
        img.save_png(path.join("x.png")),
        Err(ExportError::NotADirectory { .. })
    ));
    assert!(matches!(
        img.save_png("/proc/nonexistent/x.png"),
        Err(ExportError::Io { .. })
    ));
    let broken = Image {
        rgb: vec![0; 5],
        ..img
    };
    assert!(matches!(
        broken.to_png_bytes(),
        Err(ExportError::LengthMismatch { what: "rgb", .. })
    ));
}

#[test]
fn bad_render_inputs_give_typed_errors() {
    let (mesh, pos) = common::icosphere(1);
    let colors = vec![[0u8; 3]; pos.len()];
    let err = |o: GlobeOptions| render_globe(&mesh, &pos, &colors, &o).unwrap_err();
    assert!(matches!(
        err(GlobeOptions {
            width: 0,
            ..small()
        }),
        ExportError::InvalidOption { .. }
    ));
    assert!(matches!(
        err(GlobeOptions {
            samples: 0,
            ..small()
        }),
        ExportError::InvalidOption {
            name: "samples",
            ..
        }
    ));
    assert!(matches!(
        err(GlobeOptions {
            view: glam::Vec3::ZERO,
            ..small()
        }),
        ExportError::InvalidOption { name: "view", .. }
    ));
    assert!(matches!(
        render_globe(
            &mesh,
            &pos,
            &colors,
            &GlobeOptions {
                borders: Borders::Regions(&[1, 2]),
                ..small()
            }
        ),
        Err(ExportError::LengthMismatch {
            what: "regions",
            ..
        })
    ));
    assert!(matches!(
        render_globe(&mesh, &pos, &colors[1..], &small()),
        Err(ExportError::LengthMismatch { what: "colors", .. })
    ));
    assert!(matches!(
        render_mesh_closeup(
            &mesh,
            &pos,
            glam::Vec3::X,
            2.0,
            &CloseupOptions {
                size: 64,
                ..Default::default()
            }
        ),
        Err(ExportError::InvalidOption {
            name: "angular_radius",
            ..
        })
    ));
    assert!(matches!(
        render_mesh_closeup(
            &mesh,
            &pos,
            glam::Vec3::ZERO,
            0.5,
            &CloseupOptions {
                size: 64,
                ..Default::default()
            }
        ),
        Err(ExportError::InvalidOption { name: "center", .. })
    ));
    // An up vector parallel to the view is replaced, not an error.
    assert!(
        render_globe(
            &mesh,
            &pos,
            &colors,
            &GlobeOptions {
                view: glam::Vec3::Z,
                ..small()
            }
        )
        .is_ok()
    );
}
