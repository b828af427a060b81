//! A moving planet in a few lines: plates turn, crust is consumed and created, the planet is
//! resampled, an undo crosses the resample, and a failed edit changes nothing.

use quadworld::glam::{DQuat, DVec3};
use quadworld::layers::{Interpolation, VertexKind};
use quadworld::mesh::Vertex;
use quadworld::{Error, History, LayerInfo, MoveOptions, World};

const RADIUS: f64 = 6371.0;
const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);

/// Runs the story; returns (undo across the resample restored the world, the failed edit
/// changed nothing).
pub fn run(vertices: usize) -> Result<(bool, bool), Error> {
    let mut planet = World::fibonacci_sphere(vertices, RADIUS, 0.3, 7)?;
    // Four plates, one per quadrant of the x–z plane.
    let quadrant = |p: &DVec3| (p.x > 0.0) as u32 + 2 * (p.z > 0.0) as u32;
    let plates: Vec<u32> = planet.positions().iter().map(quadrant).collect();
    planet.update_layer(&PLATE, |l| *l.values_vec_mut() = plates)?;
    let (mut history, moves) = (History::new(1 << 30), MoveOptions::default());
    history.commit("start", &mut planet);
    let spin = [0.004, -0.003, 0.002, -0.005].map(DQuat::from_rotation_y);
    for step in 0..3 {
        // Each plate turns about the y axis at its own speed.
        let plate = planet.layer(&PLATE).expect("declared").to_vec();
        let turn = |v: Vertex, p: DVec3| (spin[plate[v.index()] as usize] * p).normalize() * RADIUS;
        planet.move_all(turn, &moves)?;
        // Plate 0 is consumed along the x = 0 seam; new crust is born in the open gap.
        let pos = planet.positions();
        let at_seam = |v: &Vertex| plate[v.index()] == 0 && pos[v.index()].x.abs() < 20.0;
        let consumed: Vec<Vertex> = planet.mesh().vertices().filter(at_seam).collect();
        planet.remove_vertices(&consumed)?;
        let born = DVec3::new(0.3, 0.1 * step as f64, 0.9).normalize() * RADIUS;
        planet.insert_points(&[born])?;
        history.commit(format!("step {step}"), &mut planet);
    }
    // Resampling onto a fresh jittered sphere is one step, undone as a whole.
    let before_resample = planet.clone();
    planet.resample_fresh_sphere(vertices, 0.3, 99)?;
    history.commit("resample", &mut planet);
    history.undo(&mut planet);
    let undo_ok = planet == before_resample;
    // Moving a vertex onto another one's place is refused, and the world is left as it was.
    let shadow = planet.clone();
    let [a, b] = [0, 1].map(|k| planet.mesh().vertices().nth(k).expect("live"));
    let failed = planet.move_vertices(&[(a, planet.positions()[b.index()])], &moves);
    Ok((undo_ok, failed.is_err() && planet == shadow))
}

#[allow(dead_code)]
fn main() -> Result<(), Error> {
    let (undo_ok, unchanged) = run(50_000)?;
    println!("undo across resample restores the world: {undo_ok}");
    println!("failed edit changed nothing: {unchanged}");
    Ok(())
}
