use super::*;
use crate::test_meshes::icosphere_with_hole;

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn files_round_trip_through_the_manifest() {
    let (mesh, pos) = icosphere_with_hole(2);
    let vm = ViewMesh::new(&mesh, &pos).unwrap();
    assert_eq!(vm.positions.len(), mesh.vertex_count());
    assert_eq!(vm.triangles.len(), mesh.face_count());
    // Slot 0 is dead, so dense index 0 is slot 1.
    assert_eq!(vm.ids[0], 1);
    let per_slot: Vec<f32> = (0..mesh.vertex_slots()).map(|i| i as f32 * 0.5).collect();
    let height = vm.gather(&per_slot).unwrap();
    assert_eq!(height[0], 0.5);
    assert_eq!(vm.gather(&[1.0f32]), None);
    let plate: Vec<u32> = (0..vm.ids.len() as u32).map(|i| i % 3).collect();
    let mut plate_then = plate.clone();
    plate_then[5] = u32::MAX;
    let height_then: Vec<f32> = height.iter().map(|h| h - 100.0).collect();
    let layers = [
        Layer {
            name: "elevation",
            unit: "m",
            values: Values::Scalar(&height, Scale::Terrain { sea_level: 0.0 }),
        },
        Layer {
            name: "plate \"id\"",
            unit: "",
            values: Values::Categorical(&plate),
        },
    ];
    let frames = [Frame {
        step: 3,
        layers: vec![
            Layer {
                values: Values::Scalar(&height_then, Scale::Sequential),
                ..layers[0]
            },
            Layer {
                values: Values::Categorical(&plate_then),
                ..layers[1]
            },
        ],
    }];
    let data = ViewData {
        relief: Some(Relief {
            layer: "elevation",
            scale: 0.001,
        }),
        coarse: &vm.triangles[..4],
        ..vm.data(&layers, &frames)
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("view");
    let files = write_view(&dir, &data).unwrap();
    assert_eq!(files.files.len(), 3);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let bin = std::fs::read(dir.join("mesh.bin")).unwrap();
    let n = vm.positions.len();
    assert_eq!(m["vertices"], n);
    let t = m["mesh"]["triangles"].as_u64().unwrap() as usize;
    let ids = m["mesh"]["ids"].as_u64().unwrap() as usize;
    assert_eq!(f32s(&bin[..12])[..], vm.positions[0].to_array()[..]);
    assert_eq!(u32s(&bin[t..t + 12]), vm.triangles[0].to_vec());
    assert_eq!(u32s(&bin[ids..ids + 4 * n]), vm.ids);
    let coarse = m["mesh"]["coarse"].as_u64().unwrap() as usize;
    assert_eq!(m["mesh"]["coarse_triangles"], 4);
    assert_eq!(coarse, ids + 4 * n);
    assert_eq!(u32s(&bin[coarse..coarse + 48]), vm.triangles[..4].concat());
    let l = &m["layers"];
    assert_eq!(l[1]["name"], "plate \"id\"");
    assert_eq!(l[1]["kind"], "categorical");
    assert_eq!(
        (l[1]["min"].as_f64(), l[1]["max"].as_f64()),
        (Some(0.0), Some(2.0))
    );
    assert_eq!(l[0]["scale"]["terrain"], 0.0);
    assert_eq!(m["relief"]["layer"], "elevation");
    assert_eq!(m["relief"]["scale"], 0.001);
    // The range covers the frames too.
    let lo = height.iter().fold(f32::MAX, |a, &b| a.min(b)) - 100.0;
    assert_eq!(l[0]["min"].as_f64(), Some(lo as f64));
    let off = l[0]["offset"].as_u64().unwrap() as usize;
    assert_eq!(f32s(&bin[off..off + 4 * n]), height);
    let off = l[1]["offset"].as_u64().unwrap() as usize;
    assert_eq!(u32s(&bin[off..]), plate);
    let fr = std::fs::read(dir.join("frames.bin")).unwrap();
    assert_eq!(m["frames"]["steps"][0], 3);
    assert_eq!(m["frames"]["bytes_per_frame"], 8 * n);
    assert_eq!(f32s(&fr[..4 * n]), height_then);
    assert_eq!(u32s(&fr[4 * n..]), plate_then);
    let total: u64 = files
        .files
        .iter()
        .map(|f| f.metadata().unwrap().len())
        .sum();
    assert_eq!(files.bytes, total);

    // Without frames, a stale frames.bin goes and the manifest says null.
    let files = write_view(
        &dir,
        &ViewData {
            frames: &[],
            ..data
        },
    )
    .unwrap();
    assert_eq!(files.files.len(), 2);
    assert!(!dir.join("frames.bin").exists());
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert!(m["frames"].is_null());

    // A binary that cannot be written leaves no manifest describing the old files.
    std::fs::remove_file(dir.join("mesh.bin")).unwrap();
    std::fs::create_dir(dir.join("mesh.bin")).unwrap();
    let err = write_view(&dir, &data).unwrap_err();
    assert!(matches!(err, ExportError::IsADirectory { .. }), "{err}");
    assert!(!dir.join("manifest.json").exists());
}

#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let pos = [Vec3::X, Vec3::Y, Vec3::Z];
    let tris = [[0, 1, 2]];
    let ids = [0, 1, 2];
    let h = [1.0f32, 2.0, 3.0];
    let nan = [1.0f32, f32::NAN, 3.0];
    let short = [1.0f32];
    let good = [Layer {
        name: "h",
        unit: "m",
        values: Values::Scalar(&h, Scale::Sequential),
    }];
    let base = ViewData {
        positions: &pos,
        triangles: &tris,
        ids: &ids,
        layers: &good,
        frames: &[],
        relief: None,
        coarse: &[],
    };
    let layer = |name, v: &'static [f32]| Layer {
        name,
        unit: "",
        values: Values::Scalar(v, Scale::Sequential),
    };
    let nan_l = [Layer {
        name: "h",
        unit: "",
        values: Values::Scalar(&nan, Scale::Sequential),
    }];
    let short_l = [Layer {
        name: "h",
        unit: "",
        values: Values::Scalar(&short, Scale::Sequential),
    }];
    let twice = [layer("a", &[0.0; 3]), layer("a", &[0.0; 3])];
    let unnamed = [layer("", &[0.0; 3])];
    let bad_frames = [Frame {
        step: 1,
        layers: vec![Layer {
            name: "h",
            unit: "",
            values: Values::Categorical(&[0, 0, 0]),
        }],
    }];
    let far = [[0, 1, 3]];
    let inf = [Vec3::X, Vec3::INFINITY, Vec3::Z];
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(ViewData, &str); 12] = [
        (
            ViewData {
                coarse: &far,
                ..base
            },
            "option coarse",
        ),
        (
            ViewData {
                relief: Some(Relief {
                    layer: "x",
                    scale: 1.0,
                }),
                ..base
            },
            "relief layer",
        ),
        (
            ViewData {
                relief: Some(Relief {
                    layer: "h",
                    scale: 0.0,
                }),
                ..base
            },
            "positive",
        ),
        (
            ViewData {
                triangles: &[],
                ..base
            },
            "no faces",
        ),
        (
            ViewData {
                triangles: &far,
                ..base
            },
            "option triangles",
        ),
        (ViewData { ids: &[0], ..base }, "ids has 1"),
        (
            ViewData {
                positions: &inf,
                ..base
            },
            "non-finite position",
        ),
        (
            ViewData {
                layers: &nan_l,
                ..base
            },
            "not finite",
        ),
        (
            ViewData {
                layers: &short_l,
                ..base
            },
            "layer values has 1",
        ),
        (
            ViewData {
                layers: &twice,
                ..base
            },
            "same name",
        ),
        (
            ViewData {
                layers: &unnamed,
                ..base
            },
            "printable",
        ),
        (
            ViewData {
                frames: &bad_frames,
                ..base
            },
            "of that kind",
        ),
    ];
    for (data, needle) in cases {
        let msg = write_view(tmp.path(), &data).unwrap_err().to_string();
        assert!(msg.contains(needle), "{msg} lacks {needle}");
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
    write_view(tmp.path(), &base).unwrap();
}

/// The stated budget holds at 100,000 vertices, four layers and 20 frames of two layers
/// (the demo's shape), and the files are the size the module documents.
#[test]
fn size_budget_at_100k_vertices_and_20_frames() {
    let n = 100_000usize;
    let positions: Vec<Vec3> = (0..n).map(|i| Vec3::new(i as f32, 1.0, 0.0)).collect();
    let triangles: Vec<[u32; 3]> = (0..2 * n as u32 - 4)
        .map(|i| [i / 2, i / 2 + 1, i / 2 + 2])
        .collect();
    let ids: Vec<u32> = (0..n as u32).collect();
    let f: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let u: Vec<u32> = (0..n as u32).map(|i| i % 12).collect();
    let s = Values::Scalar(&f, Scale::Sequential);
    let layers = [
        Layer {
            name: "elevation",
            unit: "m",
            values: s,
        },
        Layer {
            name: "plate",
            unit: "",
            values: Values::Categorical(&u),
        },
        Layer {
            name: "a",
            unit: "",
            values: s,
        },
        Layer {
            name: "b",
            unit: "",
            values: s,
        },
    ];
    let frames: Vec<Frame> = (0..20)
        .map(|step| Frame {
            step,
            layers: layers[..2].to_vec(),
        })
        .collect();
    let data = ViewData {
        positions: &positions,
        triangles: &triangles,
        ids: &ids,
        layers: &layers,
        frames: &frames,
        relief: None,
        coarse: &[],
    };
    let tmp = tempfile::tempdir().unwrap();
    let files = write_view(tmp.path(), &data).unwrap();
    let binaries = (n * (40 + 16) - 48 + 20 * 8 * n) as u64;
    assert!(
        files.bytes > binaries && files.bytes < binaries + 4096,
        "{}",
        files.bytes
    );
    assert!(files.bytes <= budget_bytes(n, 20));
    assert_eq!(budget_bytes(n, 20), 40_000_000);
}

#[test]
fn named_classes_reach_the_manifest_and_bad_names_are_refused() {
    let (mesh, pos) = icosphere_with_hole(1);
    let vm = ViewMesh::new(&mesh, &pos).unwrap();
    let crust: Vec<u32> = (0..vm.ids.len() as u32).map(|i| i % 2).collect();
    let mut crust_then = crust.clone();
    crust_then[0] = 7; // a value past the names shows as its number
    let classes = [
        Class {
            name: "oceanic",
            color: Some([40, 80, 160]),
        },
        Class {
            name: "conti\"nental",
            color: None,
        },
    ];
    let layers = [Layer {
        name: "crust",
        unit: "",
        values: Values::Named(&crust, &classes),
    }];
    // A frame may carry the layer as plain classes: the names are the mesh layer's.
    let frames = [Frame {
        step: 1,
        layers: vec![Layer {
            values: Values::Categorical(&crust_then),
            ..layers[0]
        }],
    }];
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("view");
    write_view(&dir, &vm.data(&layers, &frames)).unwrap();
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let l = &m["layers"][0];
    assert_eq!(l["kind"], "categorical");
    assert_eq!(l["classes"][0]["name"], "oceanic");
    assert_eq!(l["classes"][0]["color"], serde_json::json!([40, 80, 160]));
    assert_eq!(l["classes"][1]["name"], "conti\"nental");
    assert!(l["classes"][1]["color"].is_null());
    assert_eq!(l["max"].as_f64(), Some(7.0));
    let bin = std::fs::read(dir.join("mesh.bin")).unwrap();
    let off = l["offset"].as_u64().unwrap() as usize;
    assert_eq!(u32s(&bin[off..]), crust);

    // Unnamed, over-long or control-character names and too many classes are refused, and
    // nothing is written.
    let long = "x".repeat(65);
    let many = vec![classes[0]; MAX_CLASSES + 1];
    let bad: [&[Class]; 4] = [
        &[Class {
            name: "",
            color: None,
        }],
        &[Class {
            name: &long,
            color: None,
        }],
        &[Class {
            name: "a\nb",
            color: None,
        }],
        &many,
    ];
    for (i, named) in bad.into_iter().enumerate() {
        let layers = [Layer {
            values: Values::Named(&crust, named),
            ..layers[0]
        }];
        let dir = tmp.path().join(format!("bad{i}"));
        let e = write_view(&dir, &vm.data(&layers, &[])).unwrap_err();
        assert!(e.to_string().contains("class"), "{e}");
        assert!(!dir.exists(), "case {i} wrote files");
    }
}
