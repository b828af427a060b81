//! What one undo step costs: the memory a [`History`] keeps for a committed state beyond
//! what it shares with the next one.
//!
//! `cargo run -p quadworld-world --example undo_cost --release`

use glam::DVec3;
use quadedge::{Mesh, Vertex, shapes};
use world::sample::{DISTANCE, HEIGHT, POSITION};
use world::{History, World};

/// Bytes of the newest undo step.
fn last_step(history: &History) -> usize {
    history.step_bytes().last().unwrap_or(0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 10 k² + 2 vertices: k = 317 gives about 1M.
    let (n, triangles) = shapes::icosahedron_grid(317);
    let mut world = World::new(Mesh::from_triangles(n, &triangles)?, 1);
    {
        // Any distinct points will do for this measurement.
        let mut pos = world.lock_layer(&POSITION)?;
        for (i, p) in pos.as_mut_slice().iter_mut().enumerate() {
            let a = i as f64 * 2.399_963;
            *p = DVec3::new(a.cos(), a.sin(), 0.5).normalize();
        }
        pos.commit()?;
    }
    world.update_layer(&HEIGHT, |l| l.fill(1.0))?;
    world.update_layer(&DISTANCE, |l| l.fill(0.0))?;
    println!(
        "world: {} vertices, {} bytes on the heap",
        world.mesh().vertex_count(),
        world.heap_bytes()
    );
    let mut history = History::new(usize::MAX);
    history.commit("start", &mut world);

    world.update_layer(&HEIGHT, |l| l[Vertex::new(12_345)] = 2.0)?;
    history.commit("one value", &mut world);
    println!("undo step after one value: {} bytes", last_step(&history));

    world.update_layer(&POSITION, |l| l[Vertex::new(54_321)] = DVec3::Z)?;
    history.commit("one position", &mut world);
    println!(
        "undo step after one position (DVec3): {} bytes",
        last_step(&history)
    );

    {
        let mut mesh = world.lock_mesh();
        let e = mesh.vertex_edge(Vertex::new(12_345));
        mesh.flip(e)?;
        mesh.commit();
    }
    history.commit("one flip", &mut world);
    println!("undo step after one flip: {} bytes", last_step(&history));

    {
        let mut mesh = world.lock_mesh();
        let e = mesh.vertex_edge(Vertex::new(23_456));
        mesh.split(e, 0.5)?;
        mesh.commit();
    }
    history.commit("one split", &mut world);
    println!("undo step after one split: {} bytes", last_step(&history));

    {
        let mut mesh = world.lock_mesh();
        let e = mesh.vertex_edge(Vertex::new(34_567));
        mesh.collapse(e, 0.5)?;
        mesh.commit();
    }
    history.commit("one collapse", &mut world);
    println!(
        "undo step after one collapse: {} bytes",
        last_step(&history)
    );

    for _ in 0..3 {
        history.undo(&mut world).ok_or("undo")?;
    }
    println!(
        "three undos: {} vertices, mesh check {:?}",
        world.mesh().vertex_count(),
        world.mesh().check().is_ok()
    );
    Ok(())
}
