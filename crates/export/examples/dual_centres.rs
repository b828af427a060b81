//! The same close-up three times, with the cell corners at the circumcentres (the true
//! Voronoi cells, ragged where triangles are thin), at the centroids (Red Blob's choice: round
//! cells, corners always inside their triangles), and at the circumcentres pulled halfway
//! inside their triangles: `docs/dual_centres.png`.
//!
//! `cargo run -p quadworld-export --example dual_centres -- [OUT_FILE]`

use export::render::render_mesh_closeup;
use export::{CloseupOptions, Image};
use glam::Vec3;
use sphere::dual::{DualCentre, dual_points};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "docs/dual_centres.png".into());
    // Strongly perturbed spiral points: many thin, obtuse triangles.
    let (mesh, pos) = sphere::fibonacci_sphere(3000, 1.0, 0.45, 3)?;
    let pos32: Vec<Vec3> = pos.iter().map(|p| p.as_vec3()).collect();
    let center = Vec3::new(0.3, 0.5, 0.8);
    let panel = 480;
    let choices = [
        (DualCentre::Circumcentre, "CIRCUMCENTRES"),
        (DualCentre::Centroid, "CENTROIDS"),
        (DualCentre::Blend(0.5), "BLEND 0.5"),
    ];
    let mut sheet = Image::new(panel * choices.len() as u32, panel, [255, 255, 255]);
    for (k, (choice, name)) in choices.into_iter().enumerate() {
        let duals = dual_points(&mesh, &pos, choice)?;
        let options = CloseupOptions {
            size: panel,
            fill_cells: false,
            legend: false,
            caption: name.into(),
            dual_points: duals.iter().map(|p| p.as_vec3()).collect(),
            ..Default::default()
        };
        let img = render_mesh_closeup(&mesh, &pos32, center, 0.22, &options)?;
        for y in 0..panel as usize {
            let src = &img.rgb[3 * y * panel as usize..3 * (y + 1) * panel as usize];
            let at = 3 * (y * sheet.width as usize + k * panel as usize);
            sheet.rgb[at..at + src.len()].copy_from_slice(src);
        }
    }
    sheet.save_png(&out)?;
    println!("wrote {out}");
    Ok(())
}
