//! A failure forced at every stage of every geometric world operation (move, insert,
//! remove, refine, resample) leaves the world `==` to what it was, with the same versions,
//! and its history intact: undo and redo still give back the recorded worlds.

use super::fault;
use crate::{EditError, History, MoveOptions, World};
use glam::{DQuat, DVec3};
use layers::{EdgeKind, FaceKind, Interpolation, LayerInfo, VertexKind};
use quadedge::Vertex;
use testkit::Rng;

/// Every version the world hands out: mesh, generator, layers, dictionaries.
fn stamps(w: &World) -> (u64, u64, Vec<u64>, Vec<u64>) {
    let layers = w.layer_names().map(|n| w.layer_version(n)).collect();
    let dicts = w.dict_names().map(|n| w.dict_version(n)).collect();
    (w.mesh_version(), w.random_version(), layers, dicts)
}

/// A small planet with a layer of each element kind and interpolation family.
fn planet() -> World {
    let mut w = World::fibonacci_sphere(1500, 1.0, 0.3, 3).unwrap();
    let pos = w.positions().to_vec();
    let blended = LayerInfo::<f32, VertexKind>::new("h").interpolation(Interpolation::Lerp);
    let mut h = w.lock_layer(&blended).unwrap();
    h.as_mut_slice()
        .iter_mut()
        .zip(&pos)
        .for_each(|(x, q)| *x = q.z as f32);
    h.commit().unwrap();
    let discrete = LayerInfo::<u32, VertexKind>::new("p").interpolation(Interpolation::MaxWeight);
    let mut p = w.lock_layer(&discrete).unwrap();
    p.as_mut_slice()
        .iter_mut()
        .zip(&pos)
        .for_each(|(x, q)| *x = (q.x > 0.0) as u32);
    p.commit().unwrap();
    w.update_layer(&LayerInfo::<f64, FaceKind>::new("a"), |l| l.fill(2.0))
        .unwrap();
    w.update_layer(&LayerInfo::<f32, EdgeKind>::new("l"), |l| l.fill(3.0))
        .unwrap();
    w.update_dict("meta", |d| d.set("first", Vertex::new(1)));
    w
}

type Op = fn(&mut World) -> Result<(), EditError>;

/// Every operation, with input that succeeds when nothing is forced.
fn operations() -> Vec<(&'static str, Op)> {
    vec![
        ("move", |w| {
            // Half the planet turned by a few edges against the other: flips and folds.
            let turn = DQuat::from_rotation_z(0.08);
            let o = MoveOptions::default();
            w.move_all(|_, p| if p.x > 0.0 { turn * p } else { p }, &o)
                .map(drop)
        }),
        ("move_vertices", |w| {
            let turn = DQuat::from_rotation_x(0.05);
            let moves: Vec<(Vertex, DVec3)> = w
                .mesh()
                .vertices()
                .step_by(3)
                .map(|v| (v, turn * w.positions()[v.index()]))
                .collect();
            w.move_vertices(&moves, &MoveOptions::default()).map(drop)
        }),
        ("insert", |w| {
            let mut rng = Rng::new(5);
            let points: Vec<DVec3> = (0..40).map(|_| rng.unit_dvec3()).collect();
            w.insert_points(&points).map(drop)
        }),
        ("insert_near", |w| {
            let mut rng = Rng::new(6);
            let hint = w.mesh().faces().nth(9).unwrap();
            let points: Vec<(DVec3, quadedge::Face)> =
                (0..40).map(|_| (rng.unit_dvec3(), hint)).collect();
            w.insert_points_near(&points).map(drop)
        }),
        ("remove", |w| {
            let gone: Vec<Vertex> = w.mesh().vertices().step_by(17).collect();
            w.remove_vertices(&gone).map(drop)
        }),
        ("refine", |w| {
            let spacing = (4.0 * std::f64::consts::PI / 1500.0).sqrt();
            let size = move |_: Vertex, p: DVec3| spacing * (1.5 - p.z);
            w.refine(size, &delaunay::AdaptOptions::default()).map(drop)
        }),
        ("resample", |w| {
            w.resample_fresh_sphere(1200, 0.3, 7).map(drop)
        }),
        ("resample_onto_turned", |w| {
            let fresh = crate::FreshSphere::fibonacci(1100, 1.0, 0.3, 5).unwrap();
            w.resample_onto_turned(&fresh, DQuat::from_rotation_x(0.4))
                .map(drop)
        }),
        ("resample_onto", |w| {
            let (mesh, pos) = sphere::fibonacci_sphere(900, 1.0, 0.0, 1).unwrap();
            w.resample_onto(mesh, pos).map(drop)
        }),
    ]
}

#[test]
fn a_failure_forced_at_any_stage_changes_nothing() {
    for (name, op) in operations() {
        let mut stages = 0;
        for n in 1.. {
            // A history with one step to undo, then the operation with stage `n` failing.
            let mut w = planet();
            let mut history = History::new(usize::MAX);
            history.commit("start", &mut w);
            let start = w.clone();
            w.move_all(
                |_, p| DQuat::from_rotation_y(0.01) * p,
                &MoveOptions::default(),
            )
            .unwrap();
            history.commit("turn", &mut w);
            let before = w.clone();
            let before_versions = stamps(&w);
            fault::fail_at(n);
            let result = op(&mut w);
            fault::fail_at(0);
            match result {
                Err(EditError::Injected(stage)) => {
                    assert!(w == before, "{name}: {stage} changed the world");
                    assert_eq!(stamps(&w), before_versions, "{name}: {stage}");
                    assert_eq!(history.undo(&mut w), Some("start"), "{name}: {stage}");
                    assert!(w == start, "{name}: {stage}: undo");
                    assert_eq!(history.redo(&mut w), Some("turn"), "{name}: {stage}");
                    assert!(w == before, "{name}: {stage}: redo");
                    // And the operation still succeeds on the world the failure left.
                    op(&mut w).unwrap();
                    stages += 1;
                }
                Ok(()) => break,
                Err(e) => panic!("{name}: stage {n}: {e}"),
            }
        }
        // Every operation has its entry stage and at least one after its algorithm ran.
        assert!(stages >= 2, "{name}: {stages} stages");
    }
}
