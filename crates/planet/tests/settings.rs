//! The demo's settings at their limits: impossible ones are refused before any work, small
//! planets work, and the saved plate metadata names vertices of the right plates.

use layers::Value;
use planet::demo::{DemoConfig, PLATE, run};

fn small(out: &std::path::Path, vertices: usize, plates: usize) -> DemoConfig {
    DemoConfig {
        vertices,
        plates,
        seed: 11,
        out: out.to_path_buf(),
        image_width: 64,
        ..Default::default()
    }
}

#[test]
fn impossible_settings_are_refused_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("never-created");
    let base = small(&out, 1000, 4);
    let cases: Vec<(DemoConfig, &str)> = vec![
        (
            DemoConfig {
                plates: 0,
                ..base.clone()
            },
            "--plates 0",
        ),
        (
            DemoConfig {
                plates: 1001,
                ..base.clone()
            },
            "--plates 1001",
        ),
        (
            DemoConfig {
                vertices: 4,
                plates: 1,
                ..base.clone()
            },
            "--vertices 4",
        ),
        (
            DemoConfig {
                vertices: 0,
                plates: 1,
                ..base.clone()
            },
            "--vertices 0",
        ),
        (
            DemoConfig {
                vertices: usize::MAX,
                ..base.clone()
            },
            "--vertices",
        ),
        (
            DemoConfig {
                image_width: 1,
                ..base.clone()
            },
            "--width 1",
        ),
        (
            DemoConfig {
                image_width: 0,
                ..base.clone()
            },
            "--width 0",
        ),
        (
            DemoConfig {
                image_width: u32::MAX,
                ..base.clone()
            },
            "--width",
        ),
        (
            DemoConfig {
                perturbation: 1.0,
                ..base.clone()
            },
            "--perturbation 1",
        ),
        (
            DemoConfig {
                perturbation: -0.1,
                ..base.clone()
            },
            "--perturbation -0.1",
        ),
        (
            DemoConfig {
                perturbation: f64::NAN,
                ..base.clone()
            },
            "--perturbation NaN",
        ),
        (
            DemoConfig {
                radius: 0.0,
                ..base.clone()
            },
            "--radius 0",
        ),
        (
            DemoConfig {
                radius: f64::INFINITY,
                ..base.clone()
            },
            "--radius inf",
        ),
        (
            DemoConfig {
                steps: planet::demo::MAX_STEPS + 1,
                ..base.clone()
            },
            "--steps 10001",
        ),
        (
            DemoConfig {
                steps: usize::MAX,
                ..base.clone()
            },
            "--steps",
        ),
    ];
    for (cfg, names) in cases {
        let e = cfg.validate().unwrap_err();
        assert!(e.to_string().starts_with(names), "{names}: {e}");
        let mut steps = 0;
        let e2 = run(&cfg, &mut |_| steps += 1).unwrap_err();
        assert_eq!(e.to_string(), e2.to_string());
        assert_eq!(steps, 0, "{names}: work started");
        assert!(!out.exists(), "{names}: the output folder was created");
    }
    base.validate().unwrap();
}

#[test]
fn small_planets_work() {
    let tmp = tempfile::tempdir().unwrap();
    for (vertices, plates) in [
        (5, 1),
        (5, 4),
        (5, 2),
        (12, 3),
        (40, 12),
        (100, 5),
        (600, 12),
    ] {
        let cfg = small(tmp.path(), vertices, plates);
        let report = run(&cfg, &mut |_| {})
            .unwrap_or_else(|e| panic!("{vertices} vertices, {plates} plates: {e}"));
        assert_eq!(report.faces, 2 * report.vertices - 4, "{vertices} vertices");
        // Planets too small to move stay still; the others take the default steps.
        let moves = report.vertices >= planet::tectonics::MIN_VERTICES;
        assert_eq!(
            report.motion.len(),
            if moves {
                planet::demo::DEFAULT_STEPS
            } else {
                0
            },
            "{vertices}"
        );
        let w = world::World::load(tmp.path().join("planet.world")).unwrap();
        w.mesh().check().unwrap();
        assert!(tmp.path().join("planet_mesh.png").is_file());
    }
}

/// Each plate's stored id and seed vertex, read back from the saved file.
fn saved_seeds(w: &world::World) -> Vec<(i64, quadedge::Vertex)> {
    let Some(Value::List(plates)) = w.dict("plates").unwrap().get("plates") else {
        panic!("no plate list");
    };
    plates
        .iter()
        .filter_map(|p| {
            let Value::Dict(d) = p else {
                panic!("plate entry is not a dict")
            };
            let Some(Value::Int(id)) = d.get("id") else {
                panic!("id: {:?}", d.get("id"))
            };
            match d.get("seed_vertex") {
                Some(Value::Vertex(v)) => Some((*id, *v)),
                // A plate sutured or swallowed away has no vertex left.
                Some(Value::Null) => None,
                other => panic!("seed_vertex: {other:?}"),
            }
        })
        .collect()
}

#[test]
fn saved_seeds_lie_on_their_own_plates_after_the_edits() {
    let tmp = tempfile::tempdir().unwrap();
    for (vertices, plates, seed) in [(3000, 12, 2026), (2000, 40, 5), (50, 7, 1)] {
        let cfg = DemoConfig {
            seed,
            ..small(tmp.path(), vertices, plates)
        };
        let report = run(&cfg, &mut |_| {}).unwrap();
        let w = world::World::load(tmp.path().join("planet.world")).unwrap();
        let plate = w.layer(&PLATE).unwrap();
        let seeds = saved_seeds(&w);
        // Rifting adds plates; a few may be left without vertices.
        assert!(seeds.len() + 3 >= plates, "{} of {plates}", seeds.len());
        // The edits removed vertices and compaction renumbered the rest: the ids must follow.
        let collapsed = report
            .facts
            .iter()
            .find(|(k, _)| k == "edges collapsed there")
            .map(|(_, v)| v.parse::<usize>().unwrap());
        assert!(
            collapsed.unwrap() > 0 || vertices < 100,
            "{:?}",
            report.facts
        );
        for (id, v) in seeds {
            assert!(
                w.mesh().is_vertex_alive(v),
                "plate {id}: seed {v:?} is dead"
            );
            assert_eq!(
                i64::from(plate[v]),
                id,
                "plate {id}: seed {v:?} lies on another plate"
            );
        }
    }
}
