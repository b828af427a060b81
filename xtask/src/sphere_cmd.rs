//! `cargo xtask sphere`: a Fibonacci sphere written as Wavefront OBJ, with its statistics.

use std::time::Instant;

pub fn run(args: &[String]) -> Result<(), String> {
    let n: usize = crate::num(args, "--vertices", 10_000)?;
    let perturbation: f64 = crate::num(args, "--perturbation", 0.0)?;
    let seed: u64 = crate::num(args, "--seed", 0)?;
    let radius: f64 = crate::num(args, "--radius", 1.0)?;
    let out = crate::opt(args, "--out").ok_or("--out FILE.obj is required")?;
    let t = Instant::now();
    let (mesh, pos) =
        sphere::fibonacci_sphere(n, radius, perturbation, seed).map_err(|e| e.to_string())?;
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
    println!("  written to {out} in {:.1} ms", write.as_secs_f64() * 1e3);
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
