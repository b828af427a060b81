//! Renders a test planet (an icosphere coloured into a few regions) and exports it.
//!
//! `cargo run -p quadworld-export --release --example pictures -- [OUT_DIR] [SUBDIVISIONS] [THREADS]`
//!
//! Subdivision 7 gives 163 842 vertices; THREADS 0 (default) uses every core.

#[path = "../tests/common/mod.rs"]
mod common;

use export::render::{Borders, GlobeOptions, render_globe, render_mesh_closeup_with};
use export::{CloseupOptions, gltf, obj, ply};
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
        Borders::Regions(&regions),
        &GlobeOptions {
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
    let close = render_mesh_closeup_with(
        &mesh,
        &pos,
        Some(&colors),
        center,
        6.0 * spacing,
        &CloseupOptions::default(),
    )?;
    println!("close-up {0}x{0}: {1:.2?}", close.width, t.elapsed());
    close.save_png(out.join("closeup.png"))?;

    let t = Instant::now();
    obj::write_obj(out.join("planet.obj"), &mesh, &pos)?;
    ply::write_ply(out.join("planet.ply"), &mesh, &pos, Some(&colors))?;
    gltf::write_glb(out.join("planet.glb"), &mesh, &pos, Some(&colors))?;
    println!("OBJ + PLY + GLB: {:.2?}", t.elapsed());
    Ok(())
}
