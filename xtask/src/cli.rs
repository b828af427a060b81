//! The command line, declared once: clap derives the parser, the errors and every `--help`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use planet::demo::DemoConfig;
use std::path::PathBuf;

/// The project's automation: the demo, benchmarks, CI and checks.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build a planet world and write its pictures and files (the main job).
    Demo(DemoArgs),
    /// Write a Fibonacci sphere as Wavefront OBJ and print its build time and quality.
    Sphere(SphereArgs),
    /// Build a flat map world (Poisson-disc points, planar Delaunay closed by a ghost vertex)
    /// and write DIR/map.png, DIR/map.obj and DIR/map.world.
    Map(MapArgs),
    /// Run the criterion benchmarks and regenerate docs/benchmarks.md.
    Bench(BenchArgs),
    /// Run the insta snapshot tests; list, review or accept pending snapshots.
    Snapshots(SnapshotArgs),
    /// Run what CI runs (.ci/run): fmt, clippy, tidy, tests, snapshot check, docs.
    Ci,
    /// Fuzz one cargo-fuzz target for a bounded time (nightly toolchain + cargo-fuzz).
    Fuzz(FuzzArgs),
    /// Run the long adversarial tests: `cargo test --release --workspace -- --ignored stress_`.
    Stress,
    /// Check the architecture invariants: crate dependencies, file sizes, unsafe, READMEs.
    Tidy,
    /// Serve the interactive planet viewer for a demo output on 127.0.0.1 (three.js is
    /// fetched from npm on first use).
    View(ViewArgs),
    /// Run the viewer's headless-browser tests (node, npm, Debian's chromium).
    ViewTest,
}

/// Options of `cargo xtask view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Port on 127.0.0.1 (0 = any free port; the address is printed).
    #[arg(long, value_name = "P", default_value_t = 8000)]
    pub port: u16,
    /// The demo's output folder (the one holding `view/manifest.json`).
    #[arg(value_name = "DIR", default_value = "out")]
    pub dir: PathBuf,
}

/// Options of `cargo xtask demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Number of Fibonacci points (at least 4).
    #[arg(long, value_name = "N", default_value_t = DemoConfig::default().vertices)]
    pub vertices: usize,
    /// Number of tectonic plates (1 to the number of vertices).
    #[arg(long, value_name = "K", default_value_t = DemoConfig::default().plates)]
    pub plates: usize,
    /// Seed of every random choice (points, plates, edits).
    #[arg(long, value_name = "S", default_value_t = DemoConfig::default().seed)]
    pub seed: u64,
    /// Output folder, created if missing.
    #[arg(long, value_name = "DIR", default_value_os_t = DemoConfig::default().out)]
    pub out: PathBuf,
    /// Planet radius in km.
    #[arg(long, value_name = "KM", default_value_t = DemoConfig::default().radius)]
    pub radius: f64,
    /// Tangent jitter of the Fibonacci points, in 0 ≤ P < 1: each point moves in its tangent
    /// plane by up to P times the mean spacing (0 = the regular lattice).
    #[arg(long, value_name = "P", default_value_t = DemoConfig::default().perturbation)]
    pub perturbation: f64,
    /// Width of planet.png in pixels (its height is half; at least 2).
    #[arg(long, value_name = "PX", default_value_t = DemoConfig::default().image_width)]
    pub width: u32,
    /// Plate motion steps: each plate turns about its own axis, the mesh is restored to
    /// Delaunay, relief grows where plates meet and one animation frame is drawn after each
    /// step; every output shows the moved planet (0 = no motion).
    #[arg(long, value_name = "N", default_value_t = DemoConfig::default().steps)]
    pub steps: usize,
    /// Keep the first mesh: no refinement along plate boundaries, no resampling half-way.
    #[arg(long)]
    pub no_remesh: bool,
}

impl DemoArgs {
    pub fn config(&self) -> DemoConfig {
        DemoConfig {
            vertices: self.vertices,
            plates: self.plates,
            seed: self.seed,
            out: self.out.clone(),
            radius: self.radius,
            perturbation: self.perturbation,
            image_width: self.width,
            steps: self.steps,
            remesh: !self.no_remesh,
        }
    }
}

/// Options of `cargo xtask sphere`.
#[derive(Debug, Args)]
pub struct SphereArgs {
    /// Number of Fibonacci points.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub vertices: usize,
    /// Sphere radius.
    #[arg(long, value_name = "R", default_value_t = 1.0)]
    pub radius: f64,
    /// Fibonacci perturbation, in 0 ≤ P < 1 (0 = the regular lattice).
    #[arg(long, value_name = "P", default_value_t = 0.0)]
    pub perturbation: f64,
    /// Seed of the perturbation.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The OBJ file to write.
    #[arg(long, value_name = "FILE.obj")]
    pub out: PathBuf,
}

/// Options of `cargo xtask bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Bench targets to run (quadedge, peers, edit, edit_peers, layers, sphere, world,
    /// living); all of them when none is given.
    #[arg(value_name = "GROUP")]
    pub groups: Vec<String>,
    /// Criterion's quick mode: fewer samples, for a rough look.
    #[arg(long)]
    pub quick: bool,
}

/// Options of `cargo xtask snapshots`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// Open `cargo insta review` on pending snapshots (when cargo-insta is installed).
    #[arg(long, conflicts_with = "accept")]
    pub review: bool,
    /// Accept every pending snapshot.
    #[arg(long)]
    pub accept: bool,
}

/// The cargo-fuzz targets under `fuzz/fuzz_targets`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum FuzzTarget {
    /// Arbitrary bytes into `World::load_from_slice`.
    LoadWorld,
    /// Arbitrary sequences of mesh edits, `check()` after each.
    EditSequence,
    /// Changed or raw neighbour rings into `Mesh::from_rings`.
    FromRings,
}

impl FuzzTarget {
    pub fn name(self) -> &'static str {
        match self {
            FuzzTarget::LoadWorld => "load_world",
            FuzzTarget::EditSequence => "edit_sequence",
            FuzzTarget::FromRings => "from_rings",
        }
    }
}

/// Options of `cargo xtask map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// Width of the map's rectangle.
    #[arg(long, value_name = "W", default_value_t = 1000.0)]
    pub width: f64,
    /// Height of the map's rectangle.
    #[arg(long, value_name = "H", default_value_t = 500.0)]
    pub height: f64,
    /// Minimum spacing of the Poisson-disc points.
    #[arg(long, value_name = "S", default_value_t = 5.0)]
    pub spacing: f64,
    /// Seed of the points and the elevation noise.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Output folder, created if missing.
    #[arg(long, value_name = "DIR", default_value = "out/map")]
    pub out: PathBuf,
}

/// Options of `cargo xtask fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// How long to fuzz.
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub seconds: u64,
    /// Which target to fuzz.
    #[arg(long, value_name = "NAME", value_enum, default_value_t = FuzzTarget::LoadWorld)]
    pub target: FuzzTarget,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("cargo xtask").chain(args.iter().copied()))
    }

    #[test]
    fn the_declaration_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn unknown_flags_and_missing_values_are_errors() {
        let kind = |args: &[&str]| parse(args).unwrap_err().kind();
        assert_eq!(kind(&["demo", "--frobnicate"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["demo", "--vertices"]), ErrorKind::InvalidValue);
        // A flag is never taken as the value of the option before it.
        assert!(parse(&["demo", "--out", "--vertices", "1000"]).is_err());
        assert_eq!(
            kind(&["demo", "--vertices", "many"]),
            ErrorKind::ValueValidation
        );
        assert_eq!(kind(&["sphere"]), ErrorKind::MissingRequiredArgument);
        assert_eq!(kind(&["bench", "--slow"]), ErrorKind::UnknownArgument);
        assert_eq!(
            kind(&["snapshots", "--review", "--accept"]),
            ErrorKind::ArgumentConflict
        );
        assert_eq!(kind(&["fuzz", "--target", "nope"]), ErrorKind::InvalidValue);
        assert_eq!(kind(&["stress", "extra"]), ErrorKind::UnknownArgument);
        assert_eq!(kind(&["frobnicate"]), ErrorKind::InvalidSubcommand);
        assert_eq!(
            kind(&["view", "--port", "70000"]),
            ErrorKind::ValueValidation
        );
        assert_eq!(kind(&["view", "a", "b"]), ErrorKind::UnknownArgument);
    }

    #[test]
    fn defaults_and_values_are_parsed() {
        let Command::Demo(d) = parse(&["demo"]).unwrap().command else {
            panic!("not demo");
        };
        let def = DemoConfig::default();
        let cfg = d.config();
        assert_eq!(
            (
                cfg.vertices,
                cfg.plates,
                cfg.seed,
                cfg.out.clone(),
                cfg.steps
            ),
            (def.vertices, def.plates, def.seed, def.out, 10)
        );
        let Command::Demo(d) = parse(&[
            "demo",
            "--vertices=500",
            "--plates",
            "3",
            "--out",
            "x",
            "--steps",
            "0",
        ])
        .unwrap()
        .command
        else {
            panic!("not demo");
        };
        assert_eq!(
            (d.vertices, d.plates, d.out.clone(), d.config().steps),
            (500, 3, PathBuf::from("x"), 0)
        );
        assert!(parse(&["demo", "--steps", "-1"]).is_err());
        let Command::Bench(b) = parse(&["bench", "edit", "layers", "--quick"])
            .unwrap()
            .command
        else {
            panic!("not bench");
        };
        assert_eq!(
            (b.groups, b.quick),
            (vec!["edit".into(), "layers".into()], true)
        );
        let Command::Fuzz(f) = parse(&["fuzz", "--seconds", "5", "--target", "edit_sequence"])
            .unwrap()
            .command
        else {
            panic!("not fuzz");
        };
        assert_eq!((f.seconds, f.target), (5, FuzzTarget::EditSequence));
        let Command::View(v) = parse(&["view"]).unwrap().command else {
            panic!("not view");
        };
        assert_eq!((v.port, v.dir), (8000, PathBuf::from("out")));
        let Command::View(v) = parse(&["view", "--port", "0", "x"]).unwrap().command else {
            panic!("not view");
        };
        assert_eq!((v.port, v.dir), (0, PathBuf::from("x")));
    }

    #[test]
    fn every_command_has_help_with_its_defaults() {
        let err = parse(&["demo", "--help"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DisplayHelp);
        let help = err.to_string();
        for needle in [
            "--vertices",
            "[default: 100000]",
            "--radius",
            "--perturbation",
            "--width",
            "--steps",
            "[default: 10]",
        ] {
            assert!(help.contains(needle), "demo help lacks {needle}:\n{help}");
        }
        let help = parse(&["sphere", "--help"]).unwrap_err().to_string();
        for needle in [
            "[default: 10000]",
            "--radius",
            "--perturbation",
            "--out <FILE.obj>",
        ] {
            assert!(help.contains(needle), "sphere help lacks {needle}:\n{help}");
        }
        let help = parse(&["view", "--help"]).unwrap_err().to_string();
        for needle in ["--port <P>", "[default: 8000]", "[DIR]", "[default: out]"] {
            assert!(help.contains(needle), "view help lacks {needle}:\n{help}");
        }
        let help = Cli::command().render_long_help().to_string();
        for cmd in [
            "demo",
            "sphere",
            "map",
            "bench",
            "snapshots",
            "ci",
            "fuzz",
            "stress",
            "tidy",
            "view",
            "view-test",
        ] {
            let err = parse(&[cmd, "--help"]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::DisplayHelp, "{cmd}");
            assert!(help.contains(cmd), "top-level help lacks {cmd}");
        }
    }
}
