//! `cargo xtask stress`: the stages on a 1M-cell planet, timed in CPU seconds of this process
//! (the machine is shared, so wall time says little; CPU time divided by the threads is the
//! wall time of an idle machine). Prints the figures for `docs/benchmark-notes.md`.

use glam::DVec3;
use surface::{Cells, ClimateOptions, Geometry, StreamPower};

/// CPU seconds (user + system, all threads) of this process so far; Linux only.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|x| x.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of the file (utime, stime), counted after the command name.
    (ticks(11) + ticks(12)) / 100.0
}

fn relief(p: DVec3) -> f32 {
    let u = p / 6371.0;
    let big = (2.1 * u.x + 0.7).sin() * (1.7 * u.y).cos() + 0.8 * (2.9 * u.z - 1.3 * u.x).sin();
    let mid = 0.35 * (9.0 * u.y + 5.0 * u.z).sin() * (7.0 * u.x).cos();
    let small = 0.12 * (41.0 * u.x + 37.0 * u.y).sin() * (43.0 * u.z).cos();
    ((big + mid + small) * 2500.0 - 600.0) as f32
}

#[test]
#[ignore]
fn stress_million_cell_stage_times() {
    let (mesh, pos) = sphere::fibonacci_sphere(1_000_000, 6371.0, 0.3, 1).unwrap();
    let elevation: Vec<f32> = pos.iter().map(|&p| relief(p)).collect();
    let g = Geometry::Sphere { radius_km: 6371.0 };
    let time = |name: &str, reps: usize, f: &mut dyn FnMut()| {
        let (c0, w0) = (cpu_seconds(), std::time::Instant::now());
        for _ in 0..reps {
            f();
        }
        let cpu = (cpu_seconds() - c0) / reps as f64;
        let wall = w0.elapsed().as_secs_f64() / reps as f64;
        println!("{name:<22} cpu {cpu:.3} s   wall {wall:.3} s");
    };
    let mut cells = None;
    time("cells", 3, &mut || {
        cells = Some(Cells::new(&mesh, &pos, g).unwrap())
    });
    let cells = cells.unwrap();
    let mut d = None;
    time("drainage", 5, &mut || {
        d = Some(surface::drainage(&cells, &elevation, 0.0).unwrap())
    });
    let d = d.unwrap();
    let sp = StreamPower::default();
    time("stream_power_step", 5, &mut || {
        surface::stream_power_step(&cells, &d, &elevation, None, &sp).unwrap();
    });
    time("climate+biomes", 5, &mut || {
        let c = surface::climate(&cells, &elevation, &ClimateOptions::default()).unwrap();
        let q = surface::discharge(&cells, &d, &c.precipitation_mm, 0.4).unwrap();
        surface::classify(&cells, &elevation, &c, &d, &q, 0.0).unwrap();
    });
    // The parts of climate + biomes.
    let mut c = None;
    time("  climate", 5, &mut || {
        c = Some(surface::climate(&cells, &elevation, &ClimateOptions::default()).unwrap())
    });
    let c = c.unwrap();
    let mut q = None;
    time("  discharge", 5, &mut || {
        q = Some(surface::discharge(&cells, &d, &c.precipitation_mm, 0.4).unwrap())
    });
    let q = q.unwrap();
    time("  classify", 5, &mut || {
        surface::classify(&cells, &elevation, &c, &d, &q, 0.0).unwrap();
    });
    let total: f64 = cells.live_cells().map(|v| cells.areas_km2()[v]).sum();
    let sphere = 4.0 * std::f64::consts::PI * 6371.0f64.powi(2);
    assert!((total - sphere).abs() < 1e-9 * sphere);
}
