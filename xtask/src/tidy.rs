//! `cargo xtask tidy`: the architecture invariants of `docs/architecture.md`, checked.
//!
//! Each rule is a plain scan of the workspace (no compilation), so it runs in a second:
//! which workspace crates each crate may depend on, a line limit per source file, no
//! citations of documents that are not in the repository, `#![forbid(unsafe_code)]` in every
//! crate without `unsafe` (and a `SAFETY:` comment on every `unsafe` block or impl elsewhere),
//! a README in every crate, and only the layout's entries at the root. Known exceptions are
//! listed below, each with its reason; an entry that no longer applies is reported so that it
//! can be deleted.

use crate::tasks::{metadata, root};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The workspace crates (package name without the `quadworld-` prefix) each crate may use as
/// a normal dependency. A crate missing here is an error: new crates need a rule.
const ALLOWED_DEPS: &[(&str, &[&str])] = &[
    ("quadedge", &[]),
    ("layers", &["quadedge"]),
    ("world", &["quadedge", "layers", "delaunay", "sphere"]),
    ("delaunay", &["quadedge"]),
    ("sphere", &["quadedge", "delaunay"]),
    ("export", &["quadedge"]),
    (
        "plane",
        &["quadedge", "layers", "world", "delaunay", "sphere"],
    ),
    (
        "planet",
        &[
            "quadedge", "layers", "world", "delaunay", "sphere", "export", "surface",
        ],
    ),
    ("surface", &["quadedge", "layers", "world"]),
    (
        "quadworld",
        &[
            "quadedge", "layers", "world", "delaunay", "sphere", "plane", "export", "planet",
            "surface",
        ],
    ),
    ("testkit", &["quadedge"]),
    (
        "xtask",
        &[
            "quadedge",
            "layers",
            "world",
            "delaunay",
            "sphere",
            "plane",
            "export",
            "planet",
            "quadworld",
            "surface",
            "testkit",
        ],
    ),
    (
        "benches",
        &[
            "quadedge",
            "layers",
            "world",
            "delaunay",
            "sphere",
            "plane",
            "export",
            "planet",
            "quadworld",
            "surface",
            "testkit",
        ],
    ),
];

/// Crates no other crate may use, not even in its tests (tests may otherwise combine any
/// workspace crates: the invariants are about what a user of a crate has to build).
const NEVER_DEPENDED_ON: &[&str] = &["xtask", "benches"];

/// Source files longer than this are split by concept.
const MAX_LINES: usize = 500;

/// Files still over [`MAX_LINES`], each to be split (issue 16); no new entries.
const LONG_FILES: &[&str] = &[];

/// Files that still cite documents outside the repository, owned by other work in progress.
const CITATION_EXCEPTIONS: &[&str] = &[];

/// Crates without `unsafe` whose root does not yet say `#![forbid(unsafe_code)]`.
const FORBID_EXCEPTIONS: &[&str] = &[];

/// What the repository's root may hold (tracked files and folders): the layout of
/// `docs/architecture.md`, so that scratch output committed by mistake is caught.
const ROOT_ENTRIES: &[&str] = &[
    ".cargo",
    ".ci",
    ".gitignore",
    "CHANGELOG.md",
    "Cargo.lock",
    "Cargo.toml",
    "LICENSE-APACHE",
    "LICENSE-MIT",
    "README.md",
    "benches",
    "crates",
    "docs",
    "fuzz",
    "rust-toolchain.toml",
    "xtask",
];

/// Runs every check and prints every problem before failing.
pub fn run() -> Result<(), String> {
    let meta = metadata()?;
    let crates = workspace_crates(&meta)?;
    let files = source_files(&root());
    let mut problems = Vec::new();
    let mut stale = Vec::new();
    check_dependencies(&crates, &mut problems);
    check_line_limit(&files, &mut problems, &mut stale);
    check_citations(&files, &mut problems, &mut stale);
    check_unsafe(&crates, &mut problems, &mut stale);
    check_readmes(&crates, &mut problems);
    match tracked_files() {
        Some(tracked) => check_root_entries(&tracked, &mut problems),
        None => stale.push("not a git checkout: the root's layout was not checked".into()),
    }
    for s in &stale {
        println!("tidy: note: {s}");
    }
    if problems.is_empty() {
        println!(
            "tidy: {} crates, {} files: all rules hold",
            crates.len(),
            files.len()
        );
        Ok(())
    } else {
        for p in &problems {
            eprintln!("tidy: {p}");
        }
        Err(format!("{} tidy problem(s)", problems.len()))
    }
}

/// A workspace member as tidy sees it.
struct Crate {
    /// Package name without the `quadworld-` prefix (`quadedge`, `xtask`, …).
    name: String,
    /// The folder holding its Cargo.toml.
    dir: PathBuf,
    /// `(workspace crate it depends on, is a dev-dependency)`.
    deps: Vec<(String, bool)>,
}

fn short(package: &str) -> &str {
    package.strip_prefix("quadworld-").unwrap_or(package)
}

fn workspace_crates(meta: &Value) -> Result<Vec<Crate>, String> {
    let packages = meta["packages"]
        .as_array()
        .ok_or("cargo metadata lists no packages")?;
    let names: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut out = Vec::new();
    for p in packages {
        let name = p["name"].as_str().unwrap_or_default();
        let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap_or_default());
        let deps = p["dependencies"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(|d| {
                let dep = d["name"].as_str()?;
                names
                    .contains(dep)
                    .then(|| (short(dep).to_string(), d["kind"].as_str() == Some("dev")))
            })
            .collect();
        out.push(Crate {
            name: short(name).to_string(),
            dir: manifest.parent().map(Path::to_path_buf).unwrap_or_default(),
            deps,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

fn check_dependencies(crates: &[Crate], problems: &mut Vec<String>) {
    for c in crates {
        let Some((_, allowed)) = ALLOWED_DEPS.iter().find(|(n, _)| *n == c.name) else {
            problems.push(format!(
                "crate `{}` has no dependency rule: add it to ALLOWED_DEPS in xtask/src/tidy.rs \
                 and to docs/architecture.md",
                c.name
            ));
            continue;
        };
        for (dep, dev) in &c.deps {
            let ok = if *dev {
                !NEVER_DEPENDED_ON.contains(&dep.as_str())
            } else {
                allowed.contains(&dep.as_str())
            };
            if !ok {
                let kind = if *dev { "dev-dependency" } else { "dependency" };
                problems.push(format!(
                    "`{}` must not depend on `{dep}` ({kind}); its normal dependencies may be \
                     only {:?}, and no crate may use {:?}",
                    c.name, allowed, NEVER_DEPENDED_ON
                ));
            }
        }
    }
}

/// Every Rust and Markdown file of the workspace, relative to the root, skipping build output.
fn source_files(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in rd.flatten() {
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                let skip = name.starts_with('.')
                    || ["target", "out", "corpus", "artifacts", "node_modules"]
                        .contains(&name.as_str());
                if !skip {
                    walk(root, &p, out);
                }
            } else if name.ends_with(".rs") || name.ends_with(".md") || name.ends_with(".toml") {
                out.push(p.strip_prefix(root).unwrap_or(&p).to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn unix(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(root().join(p)).unwrap_or_default()
}

fn check_line_limit(files: &[PathBuf], problems: &mut Vec<String>, stale: &mut Vec<String>) {
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let lines = read(f).lines().count();
        let name = unix(f);
        let excepted = LONG_FILES.contains(&name.as_str());
        if lines > MAX_LINES && !excepted {
            problems.push(format!(
                "{name} has {lines} lines (limit {MAX_LINES}): split it by concept"
            ));
        } else if lines <= MAX_LINES && excepted {
            stale.push(format!("{name} is short now: remove it from LONG_FILES"));
        }
    }
}

/// Does `text` cite one of the numbered seed documents ("seed" + space + "00" + digit) or a
/// blog post's title? (The patterns are spelt in pieces so that this file does not match.)
fn cites_seed_document(text: &str) -> bool {
    let lower = text.to_lowercase();
    let needle = "seed 00";
    lower.match_indices(needle).any(|(i, _)| {
        lower[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    }) || lower.contains(&["creating", " a ", "sphere"].concat())
}

fn check_citations(files: &[PathBuf], problems: &mut Vec<String>, stale: &mut Vec<String>) {
    for f in files {
        let name = unix(f);
        let excepted = CITATION_EXCEPTIONS.contains(&name.as_str());
        let cites = cites_seed_document(&read(f));
        if cites && !excepted {
            problems.push(format!(
                "{name} cites a document that is not in the repository (\"seed 00…\"): say the \
                 idea or a public reference instead"
            ));
        } else if !cites && excepted {
            stale.push(format!(
                "{name} is clean now: remove it from CITATION_EXCEPTIONS"
            ));
        }
    }
}

fn check_unsafe(crates: &[Crate], problems: &mut Vec<String>, stale: &mut Vec<String>) {
    for c in crates {
        let src = c.dir.join("src");
        let mut files = Vec::new();
        collect_rs(&src, &mut files);
        // Spelt in pieces so that this file does not match itself.
        let block = ["unsafe", " {"].concat();
        let imp = ["unsafe", " impl"].concat();
        let func = ["unsafe", " fn"].concat();
        let ext = ["unsafe", " extern"].concat();
        let mut has_unsafe = false;
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains(&block) || code.contains(&imp) {
                    has_unsafe = true;
                    let window = &lines[i.saturating_sub(8)..=i];
                    if !window.iter().any(|l| l.contains("SAFETY:")) {
                        problems.push(format!(
                            "{}:{}: `unsafe` without a `// SAFETY:` comment just above",
                            f.display(),
                            i + 1
                        ));
                    }
                } else if code.contains(&func) || code.contains(&ext) {
                    has_unsafe = true;
                }
            }
        }
        let roots = ["lib.rs", "main.rs"].map(|r| src.join(r));
        let forbids = roots.iter().any(|r| {
            std::fs::read_to_string(r).is_ok_and(|t| t.contains("#![forbid(unsafe_code)]"))
        });
        let excepted = FORBID_EXCEPTIONS.contains(&c.name.as_str());
        if !has_unsafe && !forbids && !excepted {
            problems.push(format!(
                "crate `{}` has no unsafe code: its root must say `#![forbid(unsafe_code)]`",
                c.name
            ));
        } else if forbids && excepted {
            stale.push(format!(
                "`{}` forbids unsafe code now: remove it from FORBID_EXCEPTIONS",
                c.name
            ));
        }
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_dir() {
            collect_rs(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn check_readmes(crates: &[Crate], problems: &mut Vec<String>) {
    for c in crates {
        if !c.dir.join("README.md").is_file() {
            problems.push(format!(
                "crate `{}` has no README.md: say what it is for and how to use it",
                c.name
            ));
        }
    }
}

/// The tracked files, from `git ls-files`; `None` outside a git checkout.
fn tracked_files() -> Option<Vec<String>> {
    let out = std::process::Command::new("git")
        .arg("ls-files")
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

fn check_root_entries(tracked: &[String], problems: &mut Vec<String>) {
    let top: BTreeSet<&str> = tracked.iter().filter_map(|f| f.split('/').next()).collect();
    for entry in top {
        if !ROOT_ENTRIES.contains(&entry) {
            problems.push(format!(
                "`{entry}` is tracked at the repository's root: move it into the layout \
                 (crates/, docs/, …) or delete it; new root entries go in ROOT_ENTRIES"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_citations_are_recognised() {
        assert!(cites_seed_document(
            &["as in Seed ", "002's formula"].concat()
        ));
        assert!(cites_seed_document(&["(", "seed 0", "00", ")"].concat()));
        assert!(!cites_seed_document("the seed 42 of the generator"));
        assert!(!cites_seed_document("seed 00 is not a document"));
        assert!(!cites_seed_document("seed vertices, seeded perturbation"));
    }

    #[test]
    fn every_crate_in_the_rules_is_a_workspace_crate_or_planned() {
        let meta = metadata().unwrap();
        let crates = workspace_crates(&meta).unwrap();
        let mut problems = Vec::new();
        check_dependencies(&crates, &mut problems);
        assert!(problems.is_empty(), "{problems:#?}");
        // quadedge uses no other workspace crate outside its tests.
        let quadedge = crates.iter().find(|c| c.name == "quadedge").unwrap();
        assert!(
            quadedge.deps.iter().all(|&(_, dev)| dev),
            "{:?}",
            quadedge.deps
        );
    }

    #[test]
    fn a_stray_root_file_is_reported() {
        let tracked: Vec<String> = ["Cargo.toml", "crates/quadedge/src/lib.rs", "U11.txt"]
            .map(String::from)
            .to_vec();
        let mut problems = Vec::new();
        check_root_entries(&tracked, &mut problems);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("`U11.txt`"), "{problems:?}");
    }

    #[test]
    fn a_forbidden_dependency_is_reported() {
        let crates = vec![Crate {
            name: "export".into(),
            dir: PathBuf::new(),
            deps: vec![
                ("world".into(), false),
                ("testkit".into(), true),
                ("sphere".into(), true),
                ("xtask".into(), true),
            ],
        }];
        let mut problems = Vec::new();
        check_dependencies(&crates, &mut problems);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("`export` must not depend on `world` (dependency)"));
        assert!(problems[1].contains("`export` must not depend on `xtask` (dev-dependency)"));
    }
}
