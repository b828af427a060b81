//! What one undo step costs: the memory a snapshot keeps that the next state does not share.
//!
//! `cargo run -p quadworld-world --example undo_cost --release`

use glam::DVec3;
use layers::{EdgeKind, Interpolation, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use world::World;

const POSITION: LayerInfo<DVec3, VertexKind> =
    LayerInfo::new("position").interpolation(Interpolation::Slerp);
const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const DISTANCE: LayerInfo<f32, EdgeKind> = LayerInfo::new("plate_distance").initial(-1.0);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, triangles) = shapes::icosahedron_grid(60);
    let mut world = World::new(Mesh::from_triangles(n, &triangles)?, 1);
    {
        // Any distinct points will do for this measurement.
        let mut pos = world.lock_layer(&POSITION)?;
        for i in 0..n {
            let a = i as f64 * 2.399_963;
            pos[Vertex::new(i as u32)] = DVec3::new(a.cos(), a.sin(), 0.5).normalize();
        }
    }
    world.lock_layer(&HEIGHT)?.fill(1.0);
    world.lock_layer(&DISTANCE)?.fill(0.0);
    println!(
        "world: {} vertices, {} bytes on the heap",
        world.mesh().vertex_count(),
        world.heap_bytes()
    );

    let before = world.clone();
    world.lock_layer(&HEIGHT)?[Vertex::new(12_345)] = 2.0;
    println!(
        "undo step after one value: {} bytes",
        before.unshared_bytes(&world)
    );

    let before = world.clone();
    {
        let mut mesh = world.lock_mesh();
        let e = mesh.vertex_edge(Vertex::new(12_345));
        mesh.flip(e)?;
    }
    println!(
        "undo step after one flip: {} bytes (the mesh is copied whole; layers share)",
        before.unshared_bytes(&world)
    );
    Ok(())
}
