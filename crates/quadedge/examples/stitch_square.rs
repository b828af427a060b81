//! PathEngine's square (its dynamic mesh): two free triangles stitched along one edge.
//! Six vertices are created, the stitch marks two of them dead, and vertex connectivity is
//! right at once, with no initialisation pass; cutting the edge again gives six live vertices.
//!
//! `cargo run -p quadworld-quadedge --example stitch_square`

use quadedge::{Mesh, MeshError};

/// The example's lines, also checked by the `stitch_square` test.
fn run() -> Result<Vec<String>, MeshError> {
    let mut mesh = Mesh::new();
    let f1 = mesh.add_free_triangle()?;
    let f2 = mesh.add_free_triangle()?;
    let e1 = mesh.face_edges(f1)[2]; // prev(faceFirstEdge(f1))
    let e2 = mesh.face_edges(f2)[1]; // next(faceFirstEdge(f2))
    mesh.connect_edges(e1, e2)?;
    mesh.check()?;
    let dead = mesh.vertex_slots() - mesh.vertex_count();
    let mut out = vec![format!(
        "live vertices: {}, dead vertices: {dead}",
        mesh.vertex_count()
    )];
    mesh.disconnect_edge(e1)?;
    mesh.check()?;
    out.push(format!("live vertices: {}", mesh.vertex_count()));
    Ok(out)
}

fn main() -> Result<(), MeshError> {
    for line in run()? {
        println!("{line}");
    }
    Ok(())
}
