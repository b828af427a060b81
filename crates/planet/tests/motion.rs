//! Plate motion in the demo, checked against the same planet left still: every vertex keeps
//! its id and plate and sits where its plate's rotation takes it, the mesh is the exact
//! Delaunay triangulation of the moved points (compared with one built from scratch), and
//! the edge data that survived the flips still describes its edge.

use glam::{DQuat, DVec3};
use layers::Value;
use planet::demo::{DemoConfig, PLATE, PLATE_DISTANCE, POSITION, Report, run};
use testkit::canonical_triangle as canonical;
use world::World;

/// The demo at a small size, with `steps` motion steps, into `out`; the report and the
/// reloaded world.
fn demo(out: &std::path::Path, steps: usize, seed: u64) -> (Report, World) {
    let cfg = DemoConfig {
        vertices: 3000,
        plates: 7,
        seed,
        out: out.to_path_buf(),
        image_width: 64,
        steps,
        // Vertex ids must stay those of the first mesh to compare with the still planet.
        remesh: false,
        ..Default::default()
    };
    let report = run(&cfg, &mut |_| {}).unwrap();
    let world = World::load(out.join("planet.world")).unwrap();
    (report, world)
}

/// Each plate's rotation axis and angle per step, read from the saved metadata.
fn saved_motions(w: &World) -> Vec<(DVec3, f64)> {
    let Some(Value::List(plates)) = w.dict("plates").unwrap().get("plates") else {
        panic!("no plate list");
    };
    plates
        .iter()
        .map(|p| {
            let Value::Dict(d) = p else {
                panic!("not a dict")
            };
            let Some(Value::List(axis)) = d.get("rotation_axis") else {
                panic!("rotation_axis: {:?}", d.get("rotation_axis"))
            };
            let axis: Vec<f64> = axis
                .iter()
                .map(|c| match c {
                    Value::Float(x) => *x,
                    other => panic!("axis component {other:?}"),
                })
                .collect();
            let Some(Value::Float(angle)) = d.get("rotation_rad_per_step") else {
                panic!(
                    "rotation_rad_per_step: {:?}",
                    d.get("rotation_rad_per_step")
                )
            };
            (DVec3::from_slice(&axis), *angle)
        })
        .collect()
}

#[test]
fn moved_planet_keeps_ids_and_data_and_is_exactly_delaunay() {
    for seed in [7, 2026] {
        let still_dir = tempfile::tempdir().unwrap();
        let moved_dir = tempfile::tempdir().unwrap();
        let (still_report, still) = demo(still_dir.path(), 0, seed);
        let (report, moved) = demo(moved_dir.path(), 10, seed);
        assert!(still_report.motion.is_empty());
        assert_eq!(report.motion.len(), 10);
        let total = |f: fn(&delaunay::RestoreStats) -> usize| -> usize {
            report.motion.iter().map(|m| f(&m.stats)).sum()
        };
        // The motion is large enough to fold the mesh where plates converge, and nothing
        // collided, so every vertex is still there under its id.
        assert!(
            total(|s| s.folds) > 0 && total(|s| s.relocated) > 0,
            "{seed}"
        );
        assert_eq!(total(|s| s.merged), 0, "{seed}");

        let mesh = moved.mesh();
        mesh.check().unwrap();
        assert_eq!(mesh.vertex_slots(), still.mesh().vertex_slots());
        assert_eq!(mesh.vertex_count(), still.mesh().vertex_count());
        assert_eq!(mesh.face_count(), 2 * mesh.vertex_count() - 4);
        let pos = moved.layer(&POSITION).unwrap();
        let plate = moved.layer(&PLATE).unwrap();
        let dist = moved.layer(&PLATE_DISTANCE).unwrap();
        assert_eq!(pos.len(), mesh.vertex_slots());
        assert_eq!(plate.len(), mesh.vertex_slots());
        assert_eq!(dist.len(), mesh.quad_slots());
        assert_eq!(plate.to_vec(), still.layer(&PLATE).unwrap().to_vec());
        let positions = pos.to_vec();
        assert_eq!(
            delaunay::is_delaunay(&delaunay::Sphere, mesh, &positions),
            Ok(())
        );

        // Every vertex sits where ten turns of its plate take its still position.
        let motions = saved_motions(&moved);
        assert_eq!(motions, saved_motions(&still));
        let radius = 6371.0;
        let still_pos = still.layer(&POSITION).unwrap();
        for v in mesh.vertices() {
            let (axis, angle) = motions[plate[v] as usize];
            let expected = DQuat::from_axis_angle(axis, 10.0 * angle) * still_pos[v];
            assert!(
                pos[v].distance(expected) < 1e-9 * radius,
                "{seed}: {v:?} at {:?}, expected {expected:?}",
                pos[v]
            );
            assert!(
                pos[v] != still_pos[v] || angle == 0.0,
                "{seed}: {v:?} did not move"
            );
        }

        // The same triangle set as a triangulation of the moved points from scratch.
        let live: Vec<_> = mesh.vertices().collect();
        let points: Vec<DVec3> = live.iter().map(|&v| pos[v]).collect();
        let mut scratch: Vec<[u32; 3]> = sphere::triangulate(&points)
            .unwrap()
            .into_iter()
            .map(|t| canonical(t.map(|i| live[i as usize].index() as u32)))
            .collect();
        let mut restored: Vec<[u32; 3]> = mesh
            .faces()
            .map(|f| canonical(mesh.face_vertices(f).map(|v| v.index() as u32)))
            .collect();
        scratch.sort_unstable();
        restored.sort_unstable();
        assert_eq!(restored, scratch, "{seed}");

        // Edge data follows the flips: an edge the flips never touched keeps its id, its two
        // ends and its value; a flipped edge was reset by its layer's policy.
        let (still_mesh, still_dist) = (still.mesh(), still.layer(&PLATE_DISTANCE).unwrap());
        let mut kept = 0;
        for e in mesh.undirected_edges() {
            let (a, b) = (mesh.origin(e), mesh.dest(e));
            if dist[e] >= 0.0 {
                assert_eq!(plate[a], plate[b], "{seed}: {e:?} crosses a border");
                let ends = [still_mesh.origin(e), still_mesh.dest(e)];
                assert!(
                    ends == [a, b] || ends == [b, a],
                    "{seed}: {e:?} flipped, kept"
                );
                assert_eq!(dist[e], still_dist[e], "{seed}: {e:?}");
                kept += 1;
            }
        }
        // And every value kept is the length of its edge, before and after the motion
        // (rotations are rigid).
        for (w, name) in [(&still, "still"), (&moved, "moved")] {
            let (m, p, d) = (
                w.mesh(),
                w.layer(&POSITION).unwrap(),
                w.layer(&PLATE_DISTANCE).unwrap(),
            );
            for e in m.undirected_edges().filter(|&e| d[e] >= 0.0) {
                let length = sphere::geometry::great_circle_distance(p[m.origin(e)], p[m.dest(e)]);
                let stored = f64::from(d[e]);
                assert!(
                    (stored - length).abs() < 1e-5 * length,
                    "{seed} {name}: {e:?} {stored} ≠ {length}"
                );
            }
        }
        assert!(kept > mesh.undirected_edge_count() / 2, "{seed}: {kept}");
    }
}
