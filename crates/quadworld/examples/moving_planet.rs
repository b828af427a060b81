//! A moving planet in a few lines: plates turn, crust is consumed and created, the planet is
//! resampled, an undo crosses the resample, and a failed edit changes nothing.

use quadworld::layers::{Interpolation, VertexKind};
use quadworld::{
    Error, History, LayerInfo, MoveOptions, World,
    glam::{DQuat, DVec3},
};

const PLATE: LayerInfo<u32, VertexKind> =
    LayerInfo::new("plate").interpolation(Interpolation::MaxWeight);

/// Runs the story; returns (undo across the resample restored the world, the failed edit
/// changed nothing).
pub fn run(vertices: usize) -> Result<(bool, bool), Error> {
    let mut planet = World::fibonacci_sphere(vertices, 6371.0, 0.3, 7)?;
    let plate_of = |p: DVec3| (p.x > 0.0) as u32 + 2 * (p.z > 0.0) as u32;
    let positions = planet.positions().to_vec();
    planet
        .lock_layer(&PLATE)?
        .entries_mut()
        .for_each(|(v, x)| *x = plate_of(positions[v.index()]));
    let mut history = History::new(1 << 30);
    history.commit("start", &mut planet);
    let spin = [0.004, -0.003, 0.002, -0.005].map(DQuat::from_rotation_y);
    for step in 0..3 {
        // Plates turn about the y axis, each at its own speed.
        let plates = planet.layer(&PLATE).expect("declared").to_vec();
        planet.move_all(
            |v, p| (spin[plates[v.index()] as usize] * p).normalize() * 6371.0,
            &MoveOptions::default(),
        )?;
        // Crust consumed where plate 0 meets plate 1, new crust in the open gap.
        let consumed: Vec<_> = planet
            .mesh()
            .vertices()
            .filter(|v| plates[v.index()] == 0 && planet.positions()[v.index()].x.abs() < 20.0)
            .collect();
        planet.remove_vertices(&consumed)?;
        let born = DVec3::new(0.3, 0.1 * step as f64, 0.9).normalize() * 6371.0;
        planet.insert_points(&[born])?;
        history.commit(format!("step {step}"), &mut planet);
    }
    let before_resample = planet.clone();
    planet.resample_fresh_sphere(vertices, 0.3, 99)?;
    history.commit("resample", &mut planet);
    history.undo(&mut planet);
    let undo_ok = planet == before_resample;
    // A vertex moved onto another one's place, without merging: refused, nothing changed.
    let shadow = planet.clone();
    let [a, b] = [0, 1].map(|k| planet.mesh().vertices().nth(k).expect("live"));
    let failed = planet.move_vertices(
        &[(a, planet.positions()[b.index()])],
        &MoveOptions::default(),
    );
    Ok((undo_ok, failed.is_err() && planet == shadow))
}

#[allow(dead_code)]
fn main() -> Result<(), Error> {
    let (undo_ok, unchanged) = run(50_000)?;
    println!("undo across resample restores the world: {undo_ok}");
    println!("failed edit changed nothing: {unchanged}");
    Ok(())
}
