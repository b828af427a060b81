//! Save and load speed of a 1M-vertex world with 8 layers. The thread count follows
//! `RAYON_NUM_THREADS`.
//!
//! `RAYON_NUM_THREADS=2 cargo run -p quadworld-world --example save_load --release`

use glam::DVec3;
use layers::{EdgeKind, FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, shapes};
use std::time::Instant;
use world::World;

const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const TEMPERATURE: LayerInfo<f32, VertexKind> = LayerInfo::new("temperature");
const MOISTURE: LayerInfo<f32, VertexKind> = LayerInfo::new("moisture");
const PLATE: LayerInfo<u32, VertexKind> = LayerInfo::new("plate");
const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);
const FLOW: LayerInfo<f32, EdgeKind> = LayerInfo::new("flow");
const CENTER: LayerInfo<DVec3, FaceKind> = LayerInfo::new("circumcenter");

/// Best of `runs` timings of `f`, in seconds.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, triangles) = shapes::icosahedron_grid(316);
    let mut w = World::new(Mesh::from_triangles(n, &triangles)?, 1);
    for (i, p) in w
        .lock_layer(&POSITION)?
        .as_mut_slice()
        .iter_mut()
        .enumerate()
    {
        *p = DVec3::splat(i as f64);
    }
    for (i, h) in w.lock_layer(&HEIGHT)?.as_mut_slice().iter_mut().enumerate() {
        *h = i as f32;
    }
    w.lock_layer(&TEMPERATURE)?.fill(15.0);
    w.lock_layer(&MOISTURE)?.fill(0.5);
    w.lock_layer(&PLATE)?.fill(3);
    w.lock_layer(&DISTANCE)?.fill(1.0);
    w.lock_layer(&FLOW)?.fill(0.0);
    w.lock_layer(&CENTER)?.fill(DVec3::ONE);
    let bytes = w.save_to_vec()?;
    let mb = bytes.len() as f64 / 1e6;
    // `save` or `load` as the first argument: only that, ten times (for a profiler).
    match std::env::args().nth(1).as_deref() {
        Some("save") => {
            best(10, || w.save_to_vec());
            return Ok(());
        }
        Some("load") => {
            best(10, || World::load_from_slice(&bytes));
            return Ok(());
        }
        _ => {}
    }
    let save = best(5, || w.save_to_vec());
    let load = best(5, || World::load_from_slice(&bytes));
    let decode = best(5, || -> Result<(), world::WorldError> {
        let x = World::load_from_slice(&bytes)?;
        x.try_layer(&POSITION)?;
        x.try_layer(&HEIGHT)?;
        x.try_layer(&TEMPERATURE)?;
        x.try_layer(&MOISTURE)?;
        x.try_layer(&PLATE)?;
        x.try_layer(&DISTANCE)?;
        x.try_layer(&FLOW)?;
        x.try_layer(&CENTER)?;
        Ok(())
    });
    println!(
        "world: {} vertices, 8 layers, file {mb:.1} MB, threads {}",
        w.mesh().vertex_count(),
        rayon_threads()
    );
    println!("save {:.1} ms {:.0} MB/s", save * 1e3, mb / save);
    println!("load {:.1} ms {:.0} MB/s", load * 1e3, mb / load);
    println!(
        "load + decode every layer {:.1} ms {:.0} MB/s",
        decode * 1e3,
        mb / decode
    );
    Ok(())
}

fn rayon_threads() -> String {
    std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "default".into())
}
