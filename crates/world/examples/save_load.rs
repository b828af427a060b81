//! Save and load speed of a 1M-vertex world with 8 layers. The thread count follows
//! `RAYON_NUM_THREADS`.
//!
//! `RAYON_NUM_THREADS=2 cargo run -p quadworld-world --example save_load --release`

use quadedge::{Mesh, shapes};
use std::time::Instant;
use world::World;
use world::sample::{
    CENTER, DISTANCE, FLOW, HEIGHT, MOISTURE, PLATE, POSITION, TEMPERATURE, eight_layer_world,
};

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
    let w = eight_layer_world(Mesh::from_triangles(n, &triangles)?)?;
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
