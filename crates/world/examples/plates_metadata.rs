//! Ids kept as data: plate seeds stored in a dictionary follow edits and compaction, so the
//! saved metadata still names the right vertices.
//!
//! `cargo run -p quadworld-world --example plates_metadata`

use layers::{Interpolation, LayerInfo, Value, VertexKind};
use quadedge::{Mesh, Vertex, shapes};
use world::World;

const PLATE: LayerInfo<u16, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (n, t) = shapes::icosahedron_grid(4);
    let mut world = World::new(Mesh::from_triangles(n, &t)?, 3);
    let seeds = [Vertex::new(10), Vertex::new(50), Vertex::new(120)];
    {
        let mut plate = world.lock_layer(&PLATE)?;
        for (p, s) in seeds.iter().enumerate() {
            plate[*s] = p as u16 + 1;
        }
        plate.commit()?;
    }
    world.update_dict("plates", |d| {
        d.set(
            "seeds",
            Value::List(seeds.iter().map(|&v| v.into()).collect()),
        )
    });
    {
        // Remove a few vertices by collapsing edges, then renumber densely.
        let mut mesh = world.lock_mesh();
        for v in [0, 1, 2, 3] {
            let e = mesh.vertex_edge(Vertex::new(v));
            mesh.collapse(e, 0.5)?;
        }
        mesh.compact();
        mesh.commit();
    }
    let saved = world.save_to_vec()?;
    let back = World::load_from_slice(&saved)?;
    let plate = back.layer(&PLATE).expect("saved");
    for v in back.dict("plates").expect("saved").get_list("seeds")? {
        if let Value::Vertex(v) = v {
            println!("seed {v:?} is on plate {}", plate[*v]);
            assert_ne!(plate[*v], 0);
        }
    }
    Ok(())
}
