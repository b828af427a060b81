//! Reading one layer while writing another and editing the mesh, in one transaction; then
//! undo.
//!
//! `cargo run -p quadworld-world --example transaction`

use layers::{FaceKind, LayerInfo, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use world::{History, World};

const HEIGHT: LayerInfo<f32, VertexKind> = LayerInfo::new("height");
const SLOPE: LayerInfo<f32, FaceKind> = LayerInfo::new("slope");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, t) = shapes::icosahedron_grid(3);
    let mut world = World::new(Mesh::from_triangles(n, &t)?, 5);
    {
        let mut h = world.lock_layer(&HEIGHT)?;
        for i in 0..h.len() {
            h[Vertex::new(i as u32)] = (i % 7) as f32;
        }
        h.commit()?;
    }
    let mut history = History::new(64 << 20);
    history.commit("heights", &mut world);

    let mut tx = world.transaction();
    tx.create(&SLOPE)?;
    {
        let height = tx.read(&HEIGHT)?;
        let mut slope = tx.write(&SLOPE)?;
        let mesh = tx.mesh()?;
        for f in mesh.faces() {
            let [a, b, c] = mesh.face_vertices(f).map(|v| height[v]);
            slope[f] = a.max(b).max(c) - a.min(b).min(c);
        }
    }
    {
        let mut mesh = tx.mesh_mut()?;
        let e = mesh.vertex_edge(Vertex::new(0));
        mesh.split(e, 0.5)?;
    }
    tx.commit()?;
    history.commit("slopes and a split", &mut world);
    let steepest = world
        .layer(&SLOPE)
        .expect("created")
        .iter()
        .fold(0.0f32, |m, &s| m.max(s));
    println!(
        "{} faces, steepest slope {steepest}, height of the new vertex {}",
        world.mesh().face_count(),
        world.layer(&HEIGHT).expect("created")[Vertex::new(n as u32)]
    );
    history.undo(&mut world);
    assert!(world.layer(&SLOPE).is_none());
    println!("undone: {} faces", world.mesh().face_count());
    Ok(())
}
