//! Renders a test planet (an icosphere coloured into a few regions) and exports it; then an
//! elevation made of a few smooth bumps: `elevation.png` (terrain colours of the interpolated
//! elevation, hillshaded), `heightmap.png` (16-bit, 2048 × 1024), `spin.png` (an animated PNG of the
//! globe turning) and `relief.glb` (with `_ELEVATION` and relief).
//!
//! `cargo run -p quadworld-export --release --example pictures -- [OUT_DIR] [SUBDIVISIONS] [THREADS]`
//!
//! Subdivision 7 gives 163 842 vertices; THREADS 0 (default) uses every core.

#[path = "../tests/common/mod.rs"]
mod common;

use export::colormap::{ColorMap, colorize};
use export::render::{Borders, GlobeOptions, Shading, render_globe, render_mesh_closeup};
use export::{CloseupOptions, apng, gltf, heightmap, obj, ply};
use glam::Vec3;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().unwrap_or_else(|| "/tmp".into()));
    let level: u32 = args.next().map_or(Ok(5), |s| s.parse())?;
    let threads: usize = args.next().map_or(Ok(0), |s| s.parse())?;

    let t = Instant::now();
    let (mesh, pos) = common::icosphere(level);
    let (regions, colors) = common::regions_and_colors(&pos);
    println!(
        "mesh: {} vertices, {} faces, built in {:.2?}",
        mesh.vertex_count(),
        mesh.face_count(),
        t.elapsed()
    );

    let t = Instant::now();
    let img = render_globe(
        &mesh,
        &pos,
        &colors,
        &GlobeOptions {
            borders: Borders::Regions(&regions),
            threads,
            ..Default::default()
        },
    )?;
    println!(
        "globe {}x{} (16 samples/pixel): {:.2?}",
        img.width,
        img.height,
        t.elapsed()
    );
    img.save_png(out.join("globe.png"))?;

    let t = Instant::now();
    let center = pos[0] + 0.02 * pos[1];
    let spacing = (4.0 * std::f32::consts::PI / mesh.vertex_count() as f32).sqrt();
    let close = render_mesh_closeup(
        &mesh,
        &pos,
        center,
        6.0 * spacing,
        &CloseupOptions {
            colors: Some(&colors),
            ..Default::default()
        },
    )?;
    println!("close-up {0}x{0}: {1:.2?}", close.width, t.elapsed());
    close.save_png(out.join("closeup.png"))?;

    let t = Instant::now();
    obj::write_obj(out.join("planet.obj"), &mesh, &pos)?;
    ply::write_ply(out.join("planet.ply"), &mesh, &pos, Some(&colors))?;
    gltf::write_glb(
        out.join("planet.glb"),
        &mesh,
        &pos,
        &gltf::GlbOptions::colors(&colors),
    )?;
    println!("OBJ + PLY + GLB: {:.2?}", t.elapsed());

    // Elevation: a few smooth bumps and basins, sea level 0.
    let bumps = [
        (Vec3::new(0.3, 0.5, 0.8), 0.8),
        (Vec3::new(-0.7, 0.1, 0.6), -0.6),
        (Vec3::new(0.1, -0.9, 0.3), 0.7),
        (Vec3::new(0.9, 0.2, -0.4), 0.5),
    ];
    let elevation: Vec<f32> = pos
        .iter()
        .map(|p| {
            let p = p.normalize();
            let e: f32 = bumps
                .iter()
                .map(|&(c, h)| h * (-(p - c.normalize()).length_squared() / 0.15).exp())
                .sum();
            e - 0.15 + 0.05 * (17.0 * p.x).sin() * (13.0 * p.z).cos()
        })
        .collect();
    let range = (-0.8, 0.9);
    let terrain = colorize(&elevation, &ColorMap::Terrain { sea_level: 0.0 }, range);
    let t = Instant::now();
    let opts = GlobeOptions {
        shading: Shading::Mapped {
            map: ColorMap::Terrain { sea_level: 0.0 },
            range,
        },
        threads,
        ..Default::default()
    };
    let img = render_globe(
        &mesh,
        &pos,
        &terrain,
        &GlobeOptions {
            relief: Some(&elevation),
            ..opts
        },
    )?;
    img.save_png(out.join("elevation.png"))?;
    println!(
        "elevation globe (interpolated, hillshaded): {:.2?}",
        t.elapsed()
    );

    let t = Instant::now();
    let map = heightmap::equirectangular(&mesh, &pos, &elevation, 2048, 1024)?;
    map.save_png16(out.join("heightmap.png"), Some(range))?;
    println!("heightmap 2048x1024 (16-bit PNG): {:.2?}", t.elapsed());

    let t = Instant::now();
    let frames = (0..12)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 12.0;
            let o = GlobeOptions {
                width: 512,
                height: 256,
                view: Vec3::new(a.sin(), 0.0, a.cos()),
                ..opts
            };
            render_globe(
                &mesh,
                &pos,
                &terrain,
                &GlobeOptions {
                    relief: Some(&elevation),
                    ..o
                },
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    apng::save_apng(out.join("spin.png"), &frames, 150)?;
    let glb = gltf::GlbOptions {
        colors: Some(&terrain),
        scalar: Some(("_ELEVATION", &elevation)),
        relief: Some(0.1),
    };
    gltf::write_glb(out.join("relief.glb"), &mesh, &pos, &glb)?;
    println!("12-frame APNG + relief GLB: {:.2?}", t.elapsed());
    Ok(())
}
