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
            .all(|&p| p < 5 || p == u32::MAX)
    );
    assert_eq!(
        w.dict("plates").unwrap().get("plates").map(|_| ()),
        Some(())
    );

    insta::assert_snapshot!("demo_report_3000", report.render(false));
}
