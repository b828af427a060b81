//! The Delaunay operations on a World: positions are the world's layer, lent with the mesh by
//! `World::lock_mesh_and_positions`; every other layer follows through the journal.

mod common;

use common::{Rng, plate_motion};
use delaunay::{RestoreOptions, Sphere, insert, is_delaunay, remove, restore};
use glam::DVec3;
use layers::{Interpolation, LayerInfo, VertexKind};
use quadedge::Vertex;
use world::World;

const POSITION: LayerInfo<DVec3, VertexKind> = LayerInfo::new("position");
const HEIGHT: LayerInfo<f64, VertexKind> =
    LayerInfo::new("height").interpolation(Interpolation::Lerp);

fn world(n: usize) -> World {
    let (mesh, pos) = sphere::fibonacci_sphere(n, 1.0, 0.5, 3).unwrap();
    let mut world = World::new(mesh, 1);
    {
        let mut g = world.lock_mesh_and_positions(&POSITION).unwrap();
        let (_, p) = g.parts();
        p.copy_from_slice(&pos);
        g.commit();
    }
    {
        let mut h = world.lock_layer(&HEIGHT).unwrap();
        for (i, p) in pos.iter().enumerate() {
            h[Vertex::new(i as u32)] = p.y;
        }
        h.commit().unwrap();
    }
    world
}

#[test]
fn restore_on_a_world_keeps_every_value() {
    let mut world = world(3000);
    let heights: Vec<f64> = world.layer(&HEIGHT).unwrap().to_vec();
    let mut rng = Rng::new(5);
    let stats = {
        let mut g = world.lock_mesh_and_positions(&POSITION).unwrap();
        let (mesh, pos) = g.parts();
        let edge = (8.0 * std::f64::consts::PI / (3000.0 * 3f64.sqrt())).sqrt();
        let moved = plate_motion(mesh, pos, 6, 3.0 * edge, &mut rng);
        let s = restore(&Sphere, mesh, pos, Some(&moved), &RestoreOptions::default()).unwrap();
        g.commit();
        s
    };
    assert!(stats.folds > 0 && stats.relocated > 0);
    // Only flips: every vertex keeps its id and its height.
    assert_eq!(world.layer(&HEIGHT).unwrap().to_vec(), heights);
    let pos = world.layer(&POSITION).unwrap().to_vec();
    assert_eq!(is_delaunay(&Sphere, world.mesh(), &pos), Ok(()));
    world.mesh().check().unwrap();
}

#[test]
fn insert_and_remove_on_a_world() {
    let mut world = world(2000);
    let p = DVec3::new(0.3, 0.5, -0.8).normalize();
    let v = {
        let mut g = world.lock_mesh_and_positions(&POSITION).unwrap();
        let (mesh, pos) = g.parts();
        let ins = insert(&Sphere, mesh, pos, p, None).unwrap();
        assert!(!ins.on_edge);
        g.commit();
        ins.vertex
    };
    // Every layer covers the new vertex (its value comes from the face split's journal record
    // with the barycentric weights `insert` passed; how a layer blends three sources is the
    // layers' policy).
    let h = world.layer(&HEIGHT).unwrap();
    assert_eq!(h.len(), world.mesh().vertex_slots());
    assert_eq!(world.layer(&POSITION).unwrap()[v], p);
    // And removed again: the layers shrink back with the mesh.
    {
        let mut g = world.lock_mesh_and_positions(&POSITION).unwrap();
        let (mesh, pos) = g.parts();
        remove(&Sphere, mesh, pos, v).unwrap();
        g.commit();
    }
    let pos = world.layer(&POSITION).unwrap().to_vec();
    assert_eq!(is_delaunay(&Sphere, world.mesh(), &pos), Ok(()));
    assert_eq!(world.mesh().vertex_count(), 2000);
}
