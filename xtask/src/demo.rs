//! `cargo xtask demo`: the main job. Parses arguments and calls `planet::demo::run`.

use indicatif::{ProgressBar, ProgressStyle};
use planet::demo::{DemoConfig, STEPS, run as run_demo};
use std::time::{Duration, Instant};

pub fn run(args: &[String]) -> Result<(), String> {
    let d = DemoConfig::default();
    let cfg = DemoConfig {
        vertices: crate::num(args, "--vertices", d.vertices)?,
        plates: crate::num(args, "--plates", d.plates)?,
        seed: crate::num(args, "--seed", d.seed)?,
        out: crate::opt(args, "--out").map(Into::into).unwrap_or(d.out),
        radius: crate::num(args, "--radius", d.radius)?,
        perturbation: crate::num(args, "--perturbation", d.perturbation)?,
        image_width: crate::num(args, "--width", d.image_width)?,
    };
    let start = Instant::now();
    // A bar over the steps with a live clock, so long steps (10M vertices) visibly progress;
    // plain lines when stderr is not a terminal (CI logs).
    let bar = ProgressBar::new(STEPS as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    let mut first = true;
    let report = run_demo(&cfg, &mut |step| {
        if !first {
            bar.inc(1);
        }
        first = false;
        if bar.is_hidden() {
            eprintln!("[{:6.2} s] {step}…", start.elapsed().as_secs_f64());
        }
        bar.set_message(step.to_string());
    });
    bar.finish_and_clear();
    let report = report.map_err(|e| e.to_string())?;
    println!("{}", report.render(true));
    println!(
        "outputs in {} ({:.1} s in all)",
        cfg.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
