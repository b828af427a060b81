//! `cargo xtask demo`: the main job. Checks the settings and calls `planet::demo::run`.

use crate::cli::DemoArgs;
use indicatif::{ProgressBar, ProgressStyle};
use planet::demo::{STEPS, run as run_demo};
use std::time::{Duration, Instant};

pub fn run(args: &DemoArgs) -> Result<(), String> {
    let cfg = args.config();
    // Impossible settings are refused before any work (and before `out/` is touched).
    cfg.validate().map_err(|e| e.to_string())?;
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
