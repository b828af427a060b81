//! `cargo xtask sphere`: a Fibonacci sphere written as Wavefront OBJ, with its statistics.

use crate::cli::SphereArgs;
use std::time::Instant;

pub fn run(args: &SphereArgs) -> Result<(), String> {
    let out = &args.out;
    let t = Instant::now();
    let (mesh, pos) =
        sphere::fibonacci_sphere(args.vertices, args.radius, args.perturbation, args.seed)
            .map_err(|e| e.to_string())?;
    let build = t.elapsed();
    let posf = export::positions_f32(&pos);
    let t = Instant::now();
    export::obj::write_obj(out, &mesh, &posf).map_err(|e| e.to_string())?;
    let write = t.elapsed();
    println!(
        "fibonacci sphere: {} vertices, {} faces, {} edges",
        mesh.vertex_count(),
        mesh.face_count(),
        mesh.undirected_edge_count()
    );
    println!(
        "  built (points + Delaunay + mesh) in {:.1} ms",
        build.as_secs_f64() * 1e3
    );
    println!(
        "  written to {} in {:.1} ms",
        out.display(),
        write.as_secs_f64() * 1e3
    );
    if let Some(q) = sphere::geometry::mesh_quality(&mesh, &pos) {
        println!(
            "  edge length min/mean/max {:.5}/{:.5}/{:.5} (ratio {:.3}), smallest angle {:.2}°",
            q.min_edge,
            q.mean_edge,
            q.max_edge,
            q.edge_ratio,
            q.min_angle.to_degrees()
        );
    }
    Ok(())
}
