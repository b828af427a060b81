//! Writes every format for small meshes and parses the files back.

mod common;

use common::{icosphere, icosphere_with_hole};
use export::{ExportError, gltf, obj, ply};
use glam::Vec3;
use quadedge::Mesh;
use std::path::PathBuf;
use tempfile::TempDir;

/// A fresh folder, removed (with what the test wrote) when dropped, even if the test fails.
fn temp_dir() -> TempDir {
    tempfile::tempdir().unwrap()
}

fn octahedron() -> (Mesh, Vec<Vec3>) {
    let (n, t) = quadedge::shapes::octahedron();
    let pos = vec![Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
    (Mesh::from_triangles(n, &t).unwrap(), pos)
}

fn parse_obj(text: &str) -> (Vec<Vec3>, Vec<[usize; 3]>) {
    let mut v = Vec::new();
    let mut f = Vec::new();
    for line in text.lines() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let c: Vec<f32> = it.map(|x| x.parse().unwrap()).collect();
                v.push(Vec3::new(c[0], c[1], c[2]));
            }
            Some("f") => {
                let c: Vec<usize> = it.map(|x| x.parse().unwrap()).collect();
                f.push([c[0], c[1], c[2]]);
            }
            _ => {}
        }
    }
    (v, f)
}

#[test]
fn obj_round_trips_counts_positions_and_winding() {
    let (mesh, pos) = icosphere(2);
    let tmp = temp_dir();
    let dir = tmp.path().to_path_buf();
    let path = dir.join("ico.obj");
    obj::write_obj(&path, &mesh, &pos).unwrap();
    let (v, f) = parse_obj(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(v.len(), mesh.vertex_count());
    assert_eq!(f.len(), mesh.face_count());
    assert_eq!(v, pos, "f32 Display round-trips exactly");
    for [a, b, c] in f {
        assert!(a >= 1 && b >= 1 && c >= 1 && a <= v.len());
        let (a, b, c) = (v[a - 1], v[b - 1], v[c - 1]);
        assert!(
            (b - a).cross(c - a).dot(a + b + c) > 0.0,
            "counter-clockwise from outside"
        );
    }
    // No temporary file left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn obj_compacts_dead_vertex_slots() {
    let (mesh, pos) = icosphere_with_hole(1);
    assert!(mesh.has_holes());
    let mut out = Vec::new();
    obj::write_obj_to(&mut out, &mesh, &pos).unwrap();
    let (v, f) = parse_obj(std::str::from_utf8(&out).unwrap());
    assert_eq!(v.len(), 42);
    assert_eq!(v[..], pos[1..]);
    assert_eq!(f.len(), 80);
    assert!(f.iter().flatten().all(|&i| (1..=42).contains(&i)));
}

/// Where a PLY file's binary body starts.
fn header_end(bytes: &[u8]) -> usize {
    bytes
        .windows(11)
        .position(|w| w == b"end_header\n")
        .unwrap()
        + 11
}

#[test]
fn ply_header_and_byte_length() {
    let (mesh, pos) = icosphere_with_hole(1);
    let colors: Vec<[u8; 3]> = (0..pos.len()).map(|i| [i as u8, 7, 200]).collect();
    let tmp = temp_dir();
    let dir = tmp.path().to_path_buf();
    for with_colors in [false, true] {
        let path = dir.join(format!("ico-{with_colors}.ply"));
        let c = with_colors.then_some(&colors[..]);
        ply::write_ply(&path, &mesh, &pos, c).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let end = header_end(&bytes);
        let header = std::str::from_utf8(&bytes[..end]).unwrap();
        assert!(header.starts_with("ply\nformat binary_little_endian 1.0\n"));
        assert!(header.contains("element vertex 42\n"));
        assert!(header.contains("element face 80\n"));
        assert!(header.contains("property list uchar int vertex_indices\n"));
        assert_eq!(header.contains("property uchar red\n"), with_colors);
        let stride = if with_colors { 15 } else { 12 };
        assert_eq!(bytes.len(), end + 42 * stride + 80 * 13);
        // First vertex is slot 1 (slot 0 is dead).
        let x = f32::from_le_bytes(bytes[end..end + 4].try_into().unwrap());
        assert_eq!(x, pos[1].x);
        if with_colors {
            assert_eq!(bytes[end + 12..end + 15], [1, 7, 200]);
        }
        // Every face record: count 3 and indices in range.
        let faces = &bytes[end + 42 * stride..];
        for rec in faces.chunks(13) {
            assert_eq!(rec[0], 3);
            for k in 0..3 {
                let i = i32::from_le_bytes(rec[1 + 4 * k..5 + 4 * k].try_into().unwrap());
                assert!((0..42).contains(&i));
            }
        }
    }
}

/// `f64` positions are written as `double` and read back bit for bit (what an independent
/// exact checker of the Delaunay property needs).
#[test]
fn ply_double_positions_keep_every_bit() {
    let (mesh, pos) = icosphere_with_hole(1);
    let exact: Vec<glam::DVec3> = pos.iter().map(|p| p.as_dvec3() * (1.0 + 1e-12)).collect();
    let tmp = temp_dir();
    let path = tmp.path().join("ico64.ply");
    ply::write_ply(&path, &mesh, &exact, None).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let end = header_end(&bytes);
    let header = std::str::from_utf8(&bytes[..end]).unwrap();
    assert!(header.contains("property double x\nproperty double y\nproperty double z\n"));
    assert_eq!(bytes.len(), end + 42 * 24 + 80 * 13);
    let live: Vec<usize> = mesh.vertices().map(|v| v.index()).collect();
    for (k, &i) in live.iter().enumerate() {
        for (c, want) in exact[i].to_array().into_iter().enumerate() {
            let at = end + 24 * k + 8 * c;
            let x = f64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            assert_eq!(x.to_bits(), want.to_bits());
        }
    }
    let mut bad = exact.clone();
    bad[live[3]].y = f64::NAN;
    assert!(matches!(
        ply::write_ply(tmp.path().join("bad.ply"), &mesh, &bad, None),
        Err(ExportError::NonFinitePosition { .. })
    ));
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Splits a `.glb` into its JSON and BIN chunks, checking the container's structure.
fn parse_glb(glb: &[u8]) -> (serde_json::Value, &[u8]) {
    assert_eq!(&glb[..4], b"glTF");
    assert_eq!(u32_at(glb, 4), 2);
    assert_eq!(u32_at(glb, 8) as usize, glb.len());
    let json_len = u32_at(glb, 12) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    let bin_at = 20 + json_len;
    assert_eq!(&glb[bin_at + 4..bin_at + 8], b"BIN\0");
    let json = serde_json::from_slice(&glb[20..bin_at]).unwrap();
    (json, &glb[bin_at + 8..])
}

/// The `f32`s an accessor points at.
fn accessor_f32s(json: &serde_json::Value, bin: &[u8], accessor: u64) -> Vec<f32> {
    let acc = &json["accessors"][accessor as usize];
    assert_eq!(acc["componentType"], 5126);
    let view = &json["bufferViews"][acc["bufferView"].as_u64().unwrap() as usize];
    let off = view["byteOffset"].as_u64().unwrap() as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    bin[off..off + len]
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

#[test]
fn glb_structure_alignment_and_json() {
    let (mesh, pos) = icosphere_with_hole(1);
    let colors: Vec<[u8; 3]> = (0..pos.len()).map(|i| [i as u8, 128, 255]).collect();
    let heights: Vec<f32> = pos.iter().map(|p| p.x * 100.0 - 7.0).collect();
    let configs = [
        (None, None),
        (Some(&colors[..]), None),
        (None, Some(("_ELEVATION", &heights[..]))),
        (Some(&colors[..]), Some(("_H_2", &heights[..]))),
    ];
    for (c, scalar) in configs {
        let opts = gltf::GlbOptions {
            colors: c,
            scalar,
            relief: None,
        };
        let glb = gltf::glb_bytes(&mesh, &pos, &opts).unwrap();
        assert_eq!(&glb[..4], b"glTF");
        assert_eq!(u32_at(&glb, 4), 2);
        assert_eq!(u32_at(&glb, 8) as usize, glb.len());
        let json_len = u32_at(&glb, 12) as usize;
        assert_eq!(&glb[16..20], b"JSON");
        assert_eq!(json_len % 4, 0);
        let json_bytes = &glb[20..20 + json_len];
        let bin_at = 20 + json_len;
        let bin_len = u32_at(&glb, bin_at) as usize;
        assert_eq!(&glb[bin_at + 4..bin_at + 8], b"BIN\0");
        assert_eq!(bin_len % 4, 0);
        assert_eq!(bin_at + 8 + bin_len, glb.len());
        let bin = &glb[bin_at + 8..];

        let json: serde_json::Value = serde_json::from_slice(json_bytes).unwrap();
        assert_eq!(json["asset"]["version"], "2.0");
        assert_eq!(
            json["buffers"][0]["byteLength"].as_u64().unwrap() as usize,
            bin_len
        );
        let prim = &json["meshes"][0]["primitives"][0];
        assert_eq!(prim["attributes"]["COLOR_0"].is_null(), c.is_none());
        let attrs = prim["attributes"].as_object().unwrap();
        assert_eq!(
            attrs.len(),
            2 + usize::from(c.is_some()) + usize::from(scalar.is_some())
        );
        if let Some((name, values)) = scalar {
            // The raw values of the live vertices (slot 0 is dead), with exact bounds.
            let a = attrs[name].as_u64().unwrap();
            let acc = &json["accessors"][a as usize];
            assert_eq!(acc["type"], "SCALAR");
            let got = accessor_f32s(&json, bin, a);
            assert_eq!(got, values[1..]);
            let lo = got.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = got.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(acc["min"][0].as_f64().unwrap() as f32, lo);
            assert_eq!(acc["max"][0].as_f64().unwrap() as f32, hi);
        }
        let accessors = json["accessors"].as_array().unwrap();
        let views = json["bufferViews"].as_array().unwrap();
        for acc in accessors {
            let view = &views[acc["bufferView"].as_u64().unwrap() as usize];
            let offset = view["byteOffset"].as_u64().unwrap() as usize;
            let len = view["byteLength"].as_u64().unwrap() as usize;
            assert_eq!(offset % 4, 0);
            assert!(offset + len <= bin_len);
            let count = acc["count"].as_u64().unwrap() as usize;
            let size = if acc["type"] == "VEC3" { 12 } else { 4 };
            assert_eq!(count * size, len);
        }
        let position = &accessors[prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
        assert_eq!(position["count"], 42);
        let (min, max) = (&position["min"], &position["max"]);
        // Bounds match the buffer exactly.
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for v in bin[..42 * 12].chunks(4).collect::<Vec<_>>().chunks(3) {
            for k in 0..3 {
                let x = f32::from_le_bytes(v[k].try_into().unwrap());
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
            }
        }
        for k in 0..3 {
            assert_eq!(min[k].as_f64().unwrap() as f32, lo[k]);
            assert_eq!(max[k].as_f64().unwrap() as f32, hi[k]);
        }
        let indices = &accessors[prim["indices"].as_u64().unwrap() as usize];
        assert_eq!(indices["count"], 240);
        assert_eq!(indices["componentType"], 5125);
        // Normals are unit length.
        let nview = &views[accessors[1]["bufferView"].as_u64().unwrap() as usize];
        let noff = nview["byteOffset"].as_u64().unwrap() as usize;
        for v in bin[noff..noff + 42 * 12].chunks(12) {
            let n = Vec3::from_slice(
                &v.chunks(4)
                    .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                    .collect::<Vec<_>>(),
            );
            assert!((n.length() - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn glb_relief_moves_vertices_along_their_direction() {
    let (mesh, pos) = icosphere(1);
    let heights: Vec<f32> = (0..pos.len()).map(|i| (i % 5) as f32 * 0.1).collect();
    let opts = gltf::GlbOptions {
        scalar: Some(("_ELEVATION", &heights)),
        relief: Some(0.5),
        ..Default::default()
    };
    let glb = gltf::glb_bytes(&mesh, &pos, &opts).unwrap();
    let (json, bin) = parse_glb(&glb);
    let prim = &json["meshes"][0]["primitives"][0];
    let moved = accessor_f32s(&json, bin, prim["attributes"]["POSITION"].as_u64().unwrap());
    for (i, p) in moved.chunks(3).enumerate() {
        let p = Vec3::from_slice(p);
        let want = pos[i] * (1.0 + 0.5 * heights[i]);
        assert!((p - want).length() < 1e-6, "vertex {i}: {p} vs {want}");
    }
    // Zero relief: the positions of the plain export.
    let flat = gltf::GlbOptions {
        relief: Some(0.0),
        ..opts
    };
    let zero = gltf::glb_bytes(&mesh, &pos, &flat).unwrap();
    let plain = gltf::glb_bytes(&mesh, &pos, &Default::default()).unwrap();
    let ((json0, bin0), (jsonp, binp)) = (parse_glb(&zero), parse_glb(&plain));
    assert_eq!(
        accessor_f32s(&json0, bin0, 0),
        accessor_f32s(&jsonp, binp, 0)
    );
}

#[test]
fn glb_options_reject_hostile_inputs() {
    let (mesh, pos) = octahedron();
    let h = [0.0f32; 6];
    let bad = |opts: gltf::GlbOptions<'_>| gltf::glb_bytes(&mesh, &pos, &opts).unwrap_err();
    let with = |name, values, relief| gltf::GlbOptions {
        colors: None,
        scalar: Some((name, values)),
        relief,
    };
    let (long, longest) = (
        format!("_{}", "A".repeat(64)),
        format!("_{}", "A".repeat(63)),
    );
    for name in ["ELEVATION", "_", "", "_a\"b", "_é", "_a b", &long] {
        assert!(
            matches!(
                bad(with(name, &h, None)),
                ExportError::InvalidOption {
                    name: "scalar name",
                    ..
                }
            ),
            "{name:?}"
        );
    }
    assert!(gltf::glb_bytes(&mesh, &pos, &with(&longest, &h, None)).is_ok());
    assert!(matches!(
        bad(with("_H", &h[..5], None)),
        ExportError::LengthMismatch {
            what: "scalar",
            expected: 6,
            got: 5
        }
    ));
    let nan = [0.0, 0.0, f32::NAN, 0.0, 0.0, 0.0];
    assert!(matches!(
        bad(with("_H", &nan, None)),
        ExportError::NonFiniteValue { what: "scalar", vertex } if vertex.index() == 2
    ));
    assert!(matches!(
        bad(gltf::GlbOptions {
            relief: Some(1.0),
            ..Default::default()
        }),
        ExportError::InvalidOption { name: "relief", .. }
    ));
    assert!(matches!(
        bad(with("_H", &h, Some(f32::INFINITY))),
        ExportError::InvalidOption { name: "relief", .. }
    ));
    let huge = [3e38f32; 6];
    assert!(matches!(
        bad(with("_H", &huge, Some(1e10))),
        ExportError::NonFinitePosition { .. }
    ));
    let c = [[0u8; 3]; 2];
    assert!(matches!(
        bad(gltf::GlbOptions {
            colors: Some(&c),
            ..Default::default()
        }),
        ExportError::LengthMismatch { what: "colors", .. }
    ));
}

#[test]
fn glb_file_matches_bytes() {
    let (mesh, pos) = octahedron();
    let tmp = temp_dir();
    let dir = tmp.path().to_path_buf();
    let path = dir.join("octa.glb");
    gltf::write_glb(&path, &mesh, &pos, &Default::default()).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        gltf::glb_bytes(&mesh, &pos, &Default::default()).unwrap()
    );
}

#[test]
fn bad_paths_give_typed_errors_naming_the_path() {
    let (mesh, pos) = octahedron();
    let missing = PathBuf::from("/proc/nonexistent/x.obj");
    match obj::write_obj(&missing, &mesh, &pos) {
        Err(ExportError::Io { path, .. }) => assert_eq!(path, missing),
        other => panic!("{other:?}"),
    }
    let tmp = temp_dir();
    let dir = tmp.path().to_path_buf();
    let file = dir.join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    let under_file = file.join("sub").join("x.ply");
    match ply::write_ply(&under_file, &mesh, &pos, None) {
        Err(e @ ExportError::NotADirectory { .. }) => {
            assert!(e.to_string().contains("plain-file"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    match gltf::write_glb(&dir, &mesh, &pos, &Default::default()) {
        Err(ExportError::IsADirectory { path }) => assert_eq!(path, dir),
        other => panic!("{other:?}"),
    }
    let msg = obj::write_obj(&missing, &mesh, &pos)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("/proc/nonexistent/x.obj"), "{msg}");
}

#[test]
fn bad_inputs_give_typed_errors() {
    let (mesh, pos) = octahedron();
    let mut sink = Vec::new();
    assert!(matches!(
        obj::write_obj_to(&mut sink, &mesh, &pos[..5]),
        Err(ExportError::LengthMismatch {
            what: "positions",
            expected: 6,
            got: 5
        })
    ));
    assert!(matches!(
        ply::write_ply_to(&mut sink, &mesh, &pos, Some(&[[0; 3]; 2])),
        Err(ExportError::LengthMismatch { what: "colors", .. })
    ));
    let mut nan = pos.clone();
    nan[3].y = f32::NAN;
    assert!(matches!(
        gltf::glb_bytes(&mesh, &nan, &Default::default()),
        Err(ExportError::NonFinitePosition { vertex }) if vertex.index() == 3
    ));
    assert!(matches!(
        obj::write_obj_to(&mut sink, &Mesh::new(), &[]),
        Err(ExportError::EmptyMesh)
    ));
}

#[test]
fn failing_writer_is_reported() {
    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let (mesh, pos) = octahedron();
    assert!(matches!(
        ply::write_ply_to(Broken, &mesh, &pos, None),
        Err(ExportError::Writer(_))
    ));
    assert!(matches!(
        obj::write_obj_to(Broken, &mesh, &pos),
        Err(ExportError::Writer(_))
    ));
}
