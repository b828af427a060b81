//! The surface step of the demo: its pictures decode with the expected sizes (the biome map
//! exactly the heightmap's), its rivers run from source to mouth, its layers are in the
//! saved world.

use planet::demo::{DemoConfig, run};

fn png_size(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn biomes_rivers_and_layers() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_path_buf();
    let cfg = DemoConfig {
        vertices: 8000,
        plates: 5,
        seed: 3,
        out: out.clone(),
        image_width: 512,
        steps: 3,
        ..Default::default()
    };
    let report = run(&cfg, &mut |_| {}).unwrap();
    let (hw, hh, _) = png_size(&out.join("heightmap.png"));
    let (mw, mh, map) = png_size(&out.join("biomes_equirect.png"));
    assert_eq!((mw, mh), (hw, hh), "the biome map lies over the heightmap");
    // The legend's panel and text: near-black and near-white pixels in the lower left.
    let px = |x: u32, y: u32| {
        let i = 3 * (y * mw + x) as usize;
        [map[i], map[i + 1], map[i + 2]]
    };
    let corner: Vec<[u8; 3]> = (mh - 60..mh - 12)
        .flat_map(|y| (12..120).map(move |x| (x, y)))
        .map(|(x, y)| px(x, y))
        .collect();
    assert!(
        corner.iter().any(|c| c.iter().all(|&b| b > 200)),
        "legend text"
    );
    let (gw, gh, _) = png_size(&out.join("biomes.png"));
    assert_eq!(gw, 512);
    assert!(
        gh > 256,
        "the globe has a strip for its legend below the discs"
    );

    // elevation.png: the same strip, with the elevation key (blue sea, green land) at the
    // left under the discs.
    let (ew, eh, elev) = png_size(&out.join("elevation.png"));
    assert_eq!((ew, eh), (gw, gh));
    let strip: Vec<[u8; 3]> = (256..eh)
        .flat_map(|y| (0..ew / 3).map(move |x| (x, y)))
        .map(|(x, y)| {
            let i = 3 * (y * ew + x) as usize;
            [elev[i], elev[i + 1], elev[i + 2]]
        })
        .collect();
    let sea = |c: &[u8; 3]| {
        let [r, _, b] = c.map(i32::from);
        b > r + 60 && b > 100
    };
    let green = |c: &[u8; 3]| {
        let [r, g, b] = c.map(i32::from);
        g > r + 20 && g > b + 20
    };
    assert!(
        strip.iter().any(sea) && strip.iter().any(green),
        "elevation key"
    );

    let json = std::fs::read_to_string(out.join("rivers.json")).unwrap();
    assert!(json.trim_start().starts_with('[') && json.trim_end().ends_with(']'));
    let rivers = json.matches("\"drained_km2\"").count();
    assert!(rivers > 0, "{json}");
    assert!(report.facts.iter().any(|(k, _)| k == "lakes / rivers"));

    let world = world::World::load(out.join("planet.world")).unwrap();
    use surface::world_layers::{
        BIOME, DRAINED_AREA, FLOW, PRECIPITATION, RIVER_DISCHARGE, TEMPERATURE,
    };
    assert!(world.layer(&FLOW).is_some() && world.layer(&DRAINED_AREA).is_some());
    assert!(world.layer(&RIVER_DISCHARGE).is_some() && world.layer(&TEMPERATURE).is_some());
    assert!(world.layer(&PRECIPITATION).is_some());
    let biomes = world.layer(&BIOME).unwrap().as_slice();
    let distinct: std::collections::BTreeSet<u8> = biomes.iter().copied().collect();
    assert!(distinct.len() >= 5, "{distinct:?}");
    let glb = std::fs::read(out.join("biomes.glb")).unwrap();
    assert_eq!(&glb[0..4], b"glTF");
}
