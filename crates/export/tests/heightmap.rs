//! Equirectangular heightmaps and animated PNGs, decoded by code other than the encoder's.

mod common;

use common::{fibonacci, icosphere, with_frozen};
use export::heightmap::{HeightMap, direction, equirectangular};
use export::{ExportError, Image, apng};
use glam::Vec3;
use std::f32::consts::PI;

/// A field that is an affine function of position: barycentric interpolation reproduces it
/// exactly on each face's plane, so the only error is the plane's distance from the sphere.
fn affine(p: Vec3) -> f32 {
    0.3 * p.x + 0.5 * p.y - 0.2 * p.z + 1.0
}
const GRADIENT_NORM: f32 = 0.616_441_4; // |(0.3, 0.5, -0.2)|

/// The largest gap between a face's plane and the sphere, over all faces: the interpolation
/// error bound for [`affine`] is `GRADIENT_NORM` times it.
fn max_sagitta(mesh: &quadedge::Mesh, pos: &[Vec3]) -> f32 {
    mesh.faces()
        .map(|f| {
            let [a, b, c] = mesh.face_vertices(f).map(|v| pos[v.index()]);
            1.0 - (b - a).cross(c - a).normalize().dot(a)
        })
        .fold(0.0, f32::max)
}

fn pixel_direction(x: u32, y: u32, w: u32, h: u32) -> Vec3 {
    let lat = PI / 2.0 - PI * (y as f32 + 0.5) / h as f32;
    let lon = -PI + 2.0 * PI * (x as f32 + 0.5) / w as f32;
    direction(lat, lon)
}

#[test]
fn affine_field_is_reproduced_everywhere_including_poles_and_antimeridian() {
    let (mesh, pos) = fibonacci(2000);
    let values: Vec<f32> = pos.iter().map(|&p| affine(p)).collect();
    let (w, h) = (256, 128);
    let map = equirectangular(&mesh, &pos, &values, w, h).unwrap();
    assert_eq!(map.values.len(), (w * h) as usize);
    let tol = GRADIENT_NORM * max_sagitta(&mesh, &pos) + 1e-5;
    assert_affine(&map.values, w, h, tol, "");
    // The frame: north (+Y) on top, longitude 0 (+Z) in the middle, east (+X) to the right.
    let at = |x: u32, y: u32| map.values[(y * w + x) as usize];
    assert!(at(0, 0) > at(0, h - 1) + 0.9, "north row has the high y");
    assert!(
        at(3 * w / 4, h / 2) > at(w / 4, h / 2) + 0.5,
        "east (x > 0) on the right"
    );
    assert!(
        at(w / 2, h / 2) < at(0, h / 2),
        "+Z (z weighs -0.2) in the middle"
    );
}

#[test]
fn the_16_bit_png_decodes_independently_to_the_values() {
    let (mesh, pos) = icosphere(3);
    let values: Vec<f32> = pos.iter().map(|&p| affine(p)).collect();
    let (w, h) = (64, 32);
    let map = equirectangular(&mesh, &pos, &values, w, h).unwrap();
    let range = (0.0, 2.0);
    let png = map.png16_bytes(Some(range)).unwrap();
    let mut dec = zune_png::PngDecoder::new(&png);
    let pixels = dec.decode().unwrap();
    let info = dec.get_info().unwrap();
    assert_eq!((info.width, info.height), (w as usize, h as usize));
    let samples = pixels.u16().expect("a 16-bit image");
    assert_eq!(samples.len(), (w * h) as usize, "one grey sample per pixel");
    assert_eq!(samples, map.to_u16(Some(range)));
    let tol = GRADIENT_NORM * max_sagitta(&mesh, &pos) + 2.0 / 65535.0;
    // Known points: both poles' rows, both sides of the antimeridian, the centre.
    for (x, y) in [
        (0, 0),
        (w - 1, 0),
        (w / 2, 0),
        (0, h - 1),
        (w - 1, h - 1),
        (0, h / 2),
        (w - 1, h / 2),
        (w / 2, h / 2),
    ] {
        let decoded = samples[(y * w + x) as usize] as f32 / 65535.0 * 2.0;
        let want = affine(pixel_direction(x, y, w, h));
        assert!(
            (decoded - want).abs() <= tol,
            "({x}, {y}): {decoded} vs {want}"
        );
    }
    // The file written to disk holds the same bytes.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("height.png");
    map.save_png16(&path, Some(range)).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), png);
}

/// Random points, triangulated, then made non-Delaunay by flipping random edges of convex
/// quads (the walk may then cycle and fall back to a scan): the map of an affine field must
/// still be right at every pixel.
fn check_random_mesh(seed: u64, points: usize, flips: usize, h: u32) {
    let mut rng = testkit::Rng::new(seed);
    let points: Vec<glam::DVec3> = (0..points).map(|_| rng.unit_vector().into()).collect();
    let (mut mesh, pos) = sphere::sphere_mesh(&points).unwrap();
    let pos: Vec<Vec3> = pos.iter().map(|p| p.as_vec3()).collect();
    let folded_at = |m: &quadedge::Mesh, v: quadedge::Vertex| {
        m.vertex_faces(v).any(|f| {
            let [a, b, c] = m.face_vertices(f).map(|v| pos[v.index()]);
            a.dot(b.cross(c)) < 1e-7
        })
    };
    let mut flipped = 0;
    for _ in 0..flips {
        let edges: Vec<_> = mesh.undirected_edges().collect();
        let e = edges[rng.below(edges.len())];
        let Ok(new) = mesh.flip(e) else { continue };
        let ends = [mesh.origin(new), mesh.dest(new)];
        if ends.iter().any(|&v| folded_at(&mesh, v)) {
            mesh.flip(new).unwrap();
        } else {
            flipped += 1;
        }
    }
    assert!(flipped * 10 > flips, "seed {seed}: {flipped} flips");
    mesh.check().unwrap();
    let values: Vec<f32> = pos.iter().map(|&p| affine(p)).collect();
    let w = 2 * h;
    let map = equirectangular(&mesh, &pos, &values, w, h).unwrap();
    let tol = GRADIENT_NORM * max_sagitta(&mesh, &pos) + 1e-4;
    assert_affine(&map.values, w, h, tol, &format!("seed {seed}: "));
}

#[test]
fn random_and_non_delaunay_meshes_are_covered_without_gaps() {
    for seed in 1..=3 {
        check_random_mesh(seed, 300, 200, 48);
    }
}

/// `cargo xtask stress`: more and larger random meshes, more flips.
#[test]
#[ignore]
fn stress_heightmaps_of_random_meshes() {
    for seed in 10..40 {
        check_random_mesh(seed, 5000, 3000, 128);
    }
}

#[test]
fn a_vertex_value_shows_only_around_its_vertex() {
    // One vertex at 1, all others 0: the non-zero pixels are those whose direction lies in a
    // face around the vertex, and the peak pixel is the one nearest to it.
    let (mesh, pos) = icosphere(2);
    let v = 17;
    let mut values = vec![0.0f32; pos.len()];
    values[v] = 1.0;
    let (w, h) = (128, 64);
    let map = equirectangular(&mesh, &pos, &values, w, h).unwrap();
    let d = pos[v].normalize();
    let ring_radius = mesh
        .neighbors(quadedge::Vertex::new(v as u32))
        .map(|n| pos[n.index()].normalize().dot(d))
        .fold(1.0, f32::min);
    let mut lit = 0;
    for y in 0..h {
        for x in 0..w {
            let val = map.values[(y * w + x) as usize];
            assert!((0.0..=1.0).contains(&val));
            if val > 0.0 {
                lit += 1;
                assert!(pixel_direction(x, y, w, h).dot(d) >= ring_radius - 1e-4);
            }
        }
    }
    assert!(lit > 3, "{lit} pixels");
}

#[test]
fn frozen_and_dynamic_meshes_give_the_same_map() {
    let (mesh, pos) = fibonacci(500);
    let (mesh, frozen) = with_frozen(mesh);
    let values: Vec<f32> = pos.iter().map(|p| p.x * p.y).collect();
    let a = equirectangular(&mesh, &pos, &values, 64, 32).unwrap();
    let b = equirectangular(&frozen, &pos, &values, 64, 32).unwrap();
    assert_eq!(a, b);
}

#[test]
fn hostile_heightmap_inputs_are_typed_errors() {
    let (mesh, pos) = icosphere(1);
    let values = vec![0.5f32; pos.len()];
    let opt = |r: Result<HeightMap, ExportError>| match r {
        Err(ExportError::InvalidOption { name, .. }) => name,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        opt(equirectangular(&mesh, &pos, &values, 0, 0)),
        "width/height"
    );
    assert_eq!(
        opt(equirectangular(&mesh, &pos, &values, 10, 4)),
        "width/height"
    );
    assert_eq!(
        opt(equirectangular(&mesh, &pos, &values, 1, 1)),
        "width/height"
    );
    // Absurd sizes fail before anything is allocated.
    assert_eq!(
        opt(equirectangular(
            &mesh,
            &pos,
            &values,
            u32::MAX,
            u32::MAX / 2
        )),
        "width/height"
    );
    assert_eq!(
        opt(equirectangular(&mesh, &pos, &values, 1 << 16, 1 << 15)),
        "width/height"
    );
    assert!(matches!(
        equirectangular(&mesh, &pos, &values[1..], 8, 4),
        Err(ExportError::LengthMismatch { what: "values", .. })
    ));
    assert!(matches!(
        equirectangular(&mesh, &pos[1..], &values, 8, 4),
        Err(ExportError::LengthMismatch {
            what: "positions",
            ..
        })
    ));
    for bad in [f32::NAN, f32::INFINITY] {
        let mut v = values.clone();
        v[7] = bad;
        assert!(matches!(
            equirectangular(&mesh, &pos, &v, 8, 4),
            Err(ExportError::NonFiniteValue { what: "values", vertex }) if vertex.index() == 7
        ));
    }
    let mut p = pos.clone();
    p[3].y = f32::NAN;
    assert!(matches!(
        equirectangular(&mesh, &p, &values, 8, 4),
        Err(ExportError::NonFinitePosition { .. })
    ));
    // An open mesh (one face missing) cannot cover the sphere.
    let (tris, _) = common::icosphere_data(1);
    let open = quadedge::Mesh::from_triangles(pos.len(), &tris[1..]).unwrap();
    assert!(matches!(
        equirectangular(&open, &pos, &values, 8, 4),
        Err(ExportError::OpenMesh)
    ));
    let empty = quadedge::Mesh::new();
    assert!(matches!(
        equirectangular(&empty, &[], &[], 8, 4),
        Err(ExportError::EmptyMesh)
    ));
    // A hand-made map whose values do not match its size.
    let bad = HeightMap {
        width: 4,
        height: 2,
        values: vec![0.0; 7],
    };
    assert!(matches!(
        bad.png16_bytes(None),
        Err(ExportError::LengthMismatch { .. })
    ));
    let zero = HeightMap {
        width: 0,
        height: 0,
        values: vec![],
    };
    assert!(matches!(
        zero.png16_bytes(None),
        Err(ExportError::InvalidOption { .. })
    ));
}

#[test]
fn quantisation_handles_ranges_and_nan() {
    let m = HeightMap {
        width: 4,
        height: 1,
        values: vec![-1.0, 0.0, 1.0, f32::NAN],
    };
    assert_eq!(m.to_u16(None), [0, 32768, 65535, 0]);
    assert_eq!(m.to_u16(Some((1.0, -1.0))), [65535, 32768, 0, 0]);
    // An empty range is widened around its value; a non-finite one is the data's extent.
    assert_eq!(m.to_u16(Some((0.0, 0.0))), [0, 32768, 65535, 0]);
    assert_eq!(m.to_u16(Some((f32::NAN, 1.0))), [0, 32768, 65535, 0]);
    assert_eq!(
        m.to_u16(Some((-3e38, 3e38))),
        [32768; 3].into_iter().chain([0]).collect::<Vec<_>>()
    );
    let flat = HeightMap {
        width: 2,
        height: 1,
        values: vec![5.0, 5.0],
    };
    assert_eq!(flat.to_u16(None), [32768, 32768], "a flat map is mid grey");
    let nan = HeightMap {
        width: 1,
        height: 1,
        values: vec![f32::NAN],
    };
    assert_eq!(nan.to_u16(None), [0]);
}

// ---- Animated PNG ----

/// The chunks of a PNG file, checked by a reader written here: signature, lengths, CRCs.
fn chunks(png: &[u8]) -> Vec<([u8; 4], &[u8])> {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let mut out = Vec::new();
    let mut at = 8;
    while at < png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let kind: [u8; 4] = png[at + 4..at + 8].try_into().unwrap();
        let data = &png[at + 8..at + 8 + len];
        let crc = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(
            crc,
            crc32(&png[at + 4..at + 8 + len]),
            "{}",
            String::from_utf8_lossy(&kind)
        );
        out.push((kind, data));
        at += 12 + len;
    }
    assert_eq!(out.last().unwrap().0, *b"IEND");
    out
}

/// CRC-32 (ISO 3309, as PNG uses it), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn apng_holds_one_frame_per_image_with_its_delay() {
    let frames: Vec<Image> = (0..12u8)
        .map(|i| {
            let mut img = Image::new(24, 16, [i * 20, 100, 200 - i * 10]);
            img.rgb[0] = i; // frames differ
            img
        })
        .collect();
    let bytes = apng::apng_bytes(&frames, 125).unwrap();
    let cs = chunks(&bytes);
    let actl: Vec<_> = cs.iter().filter(|c| &c.0 == b"acTL").collect();
    assert_eq!(actl.len(), 1);
    assert_eq!(be32(actl[0].1, 0), 12, "num_frames");
    assert_eq!(be32(actl[0].1, 4), 0, "loops forever");
    let fctl: Vec<&[u8]> = cs.iter().filter(|c| &c.0 == b"fcTL").map(|c| c.1).collect();
    assert_eq!(fctl.len(), 12);
    for f in &fctl {
        assert_eq!((be32(f, 4), be32(f, 8)), (24, 16), "frame size");
        let delay = (
            u16::from_be_bytes([f[20], f[21]]),
            u16::from_be_bytes([f[22], f[23]]),
        );
        assert_eq!(delay, (125, 1000));
    }
    // Sequence numbers run 0, 1, 2, ... over fcTL and fdAT chunks in file order.
    let seq: Vec<u32> = cs
        .iter()
        .filter(|c| &c.0 == b"fcTL" || &c.0 == b"fdAT")
        .map(|c| be32(c.1, 0))
        .collect();
    assert_eq!(seq, (0..seq.len() as u32).collect::<Vec<_>>());
    assert!(cs.iter().any(|c| &c.0 == b"fdAT"));
    // A decoder that ignores animation sees the first frame.
    let mut dec = zune_png::PngDecoder::new(&bytes);
    let first = dec.decode_raw().unwrap();
    assert_eq!(first, frames[0].rgb);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("anim.png");
    apng::save_apng(&path, &frames, 125).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    // One frame is still a valid animation.
    let one = apng::apng_bytes(&frames[..1], 0).unwrap();
    assert_eq!(chunks(&one).iter().filter(|c| &c.0 == b"fcTL").count(), 1);
}

#[test]
fn hostile_apng_inputs_are_typed_errors() {
    assert!(matches!(
        apng::apng_bytes(&[], 10),
        Err(ExportError::InvalidOption { name: "frames", .. })
    ));
    let a = Image::new(4, 4, [0; 3]);
    let b = Image::new(4, 5, [0; 3]);
    assert!(matches!(
        apng::apng_bytes(&[a.clone(), a.clone(), b], 10),
        Err(ExportError::FrameSizeMismatch {
            frame: 2,
            expected: (4, 4),
            got: (4, 5)
        })
    ));
    let mut short = a.clone();
    short.rgb.pop();
    assert!(matches!(
        apng::apng_bytes(&[a.clone(), short], 10),
        Err(ExportError::LengthMismatch { what: "rgb", .. })
    ));
    let absurd = Image {
        width: u32::MAX,
        height: u32::MAX,
        rgb: vec![],
    };
    assert!(matches!(
        apng::apng_bytes(std::slice::from_ref(&absurd), 10),
        Err(ExportError::LengthMismatch { what: "rgb", .. })
    ));
    assert!(absurd.to_png_bytes().is_err());
    let empty = Image::new(0, 0, [0; 3]);
    assert!(apng::apng_bytes(&[empty], 10).is_err());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.png");
    assert!(apng::save_apng(&path, &[], 10).is_err());
    assert!(!path.exists(), "no file for a failed export");
}

/// Every pixel of a `w × h` equirectangular map holds the affine field at its direction,
/// within `tol`.
fn assert_affine(values: &[f32], w: u32, h: u32, tol: f32, context: &str) {
    for y in 0..h {
        for x in 0..w {
            let want = affine(pixel_direction(x, y, w, h));
            let got = values[(y * w + x) as usize];
            assert!(
                (got - want).abs() <= tol,
                "{context}pixel ({x}, {y}): {got} vs {want} (tol {tol})"
            );
        }
    }
}
