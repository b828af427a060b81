//! The demo pipeline at a small size: every output exists and parses back.

use planet::demo::{DemoConfig, run};

#[test]
fn demo_outputs_exist_and_parse() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_path_buf();
    let cfg = DemoConfig {
        vertices: 3000,
        plates: 5,
        seed: 7,
        out: out.clone(),
        image_width: 256,
        ..Default::default()
    };
    let report = run(&cfg, &mut |_| {}).unwrap();
    assert_eq!(report.plates, 5);
    assert!(report.vertices >= 3000);
    assert_eq!(report.faces, 2 * report.vertices - 4);

    // PNG: right size, more than one plate colour.
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(out.join("planet.png")).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (256, 128));
    let mut colours: Vec<[u8; 3]> = buf[..info.buffer_size()]
        .chunks(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 5);

    // glb header and length, PLY header.
    let glb = std::fs::read(out.join("planet.glb")).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
    assert_eq!(
        u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize,
        glb.len()
    );
    let ply = std::fs::read(out.join("planet.ply")).unwrap();
    let header = String::from_utf8_lossy(&ply[..200]);
    assert!(header.starts_with("ply\nformat binary_little_endian 1.0"));
    assert!(
        header.contains(&format!("element vertex {}", report.vertices)),
        "{header}"
    );

    // The saved world reloads equal (the demo compares too) and keeps its layers.
    let w = world::World::load(out.join("planet.world")).unwrap();
    assert_eq!(w.mesh().vertex_count(), report.vertices);
    assert!(
        w.layer(&planet::demo::PLATE)
            .unwrap()
            .iter()
            .all(|&p| (p as usize) < 5 + report.motion.len() || p == u32::MAX)
    );
    assert_eq!(
        w.dict("plates").unwrap().get("plates").map(|_| ()),
        Some(())
    );

    // The relief: a 16-bit equirectangular heightmap spanning the reported range, an
    // animation of one frame per step, the elevation carried by the glb.
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(out.join("heightmap.png")).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    assert_eq!((info.width, info.height), (256, 128));
    assert_eq!(info.bit_depth, png::BitDepth::Sixteen);
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(out.join("evolution.png")).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    let frames = reader.info().animation_control().map(|a| a.num_frames);
    let every = planet::demo::frame_every(report.motion.len());
    assert_eq!(frames, Some(report.motion.len().div_ceil(every) as u32));
    assert_eq!(report.motion.len(), planet::demo::DEFAULT_STEPS);
    assert!(glb.windows(10).any(|w| w == b"_ELEVATION"));
    let elevation = w.layer(&planet::demo::ELEVATION).unwrap();
    let live: Vec<f32> = w.mesh().vertices().map(|v| elevation[v]).collect();
    // Oceans, trenches and mountains within Earth's bounds.
    assert!(live.iter().any(|&h| h < -7000.0) && live.iter().any(|&h| h > 1500.0));
    assert!(live.iter().all(|&h| (-11_000.0..=9_000.0).contains(&h)));
    assert!(std::fs::metadata(out.join("elevation.png")).unwrap().len() > 1000);

    // The JSON files: metres back from the heightmap, the planet's figures.
    let hm: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("heightmap.json")).unwrap())
            .unwrap();
    let (lo, hi) = (hm["min_m"].as_f64().unwrap(), hm["max_m"].as_f64().unwrap());
    let (min, max) = live
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
    assert_eq!((lo, hi), (f64::from(min), f64::from(max)));
    assert_eq!(hm["sea_level_m"].as_f64(), Some(0.0));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["vertices"].as_u64(), Some(report.vertices as u64));
    let land = summary["land_fraction"].as_f64().unwrap();
    assert!((0.1..0.45).contains(&land), "land {land}");
    let areas: f64 = summary["plates"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["area_km2"].as_f64().unwrap())
        .sum();
    assert!((areas / (4.0 * std::f64::consts::PI * 6371.0f64.powi(2)) - 1.0).abs() < 1e-9);
    assert_eq!(
        summary["step_seconds"].as_array().unwrap().len(),
        report.motion.len()
    );

    insta::assert_snapshot!("demo_report_3000", report.render(false));
}
