//! `cargo xtask bench`: runs the criterion benchmarks and regenerates `docs/benchmarks.md`
//! from criterion's own result files (under cargo's target directory), so the document always
//! shows one run on one machine.

use crate::cli::BenchArgs;
use crate::tasks::root;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One measured benchmark.
struct Row {
    function: String,
    param: String,
    /// Mean time per iteration in nanoseconds.
    ns: f64,
    /// Elements per iteration, when the bench declared a throughput.
    elements: Option<f64>,
    /// Bytes per iteration, when the bench declared a byte throughput.
    bytes: Option<f64>,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let groups: Vec<&str> = args.groups.iter().map(String::as_str).collect();
    // The bench binaries and their peers sit behind the `bench` feature, so that
    // `cargo test --workspace` never builds them.
    let mut cargo_args = vec!["bench", "-p", "benches", "--features", "bench"];
    if groups.is_empty() {
        // Only the bench targets: the lib's test harness does not know criterion's flags.
        cargo_args.push("--benches");
    }
    for g in &groups {
        cargo_args.push("--bench");
        cargo_args.push(g);
    }
    cargo_args.push("--");
    if args.quick {
        cargo_args.push("--quick");
    }
    cargo_args.push("--noplot");
    // Criterion writes under cargo's target directory, wherever CARGO_TARGET_DIR or a config
    // file puts it: ask cargo rather than assume `target/`.
    let criterion = target_dir()?.join("criterion");
    // Side files (memory, one-off facts) are appended by the benches: start them afresh.
    if groups.is_empty() {
        for f in ["memory.tsv", "facts.tsv"] {
            let _ = std::fs::remove_file(criterion.join(f));
        }
    }
    crate::tasks::run(env!("CARGO"), &cargo_args, &[])?;
    let doc = render(&criterion)?;
    let path = root().join("docs/benchmarks.md");
    std::fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    println!(
        "criterion's HTML report: {}",
        criterion.join("report/index.html").display()
    );
    Ok(())
}

/// Cargo's target directory for this workspace, as `cargo metadata` reports it.
pub fn target_dir() -> Result<PathBuf, String> {
    crate::tasks::metadata()?["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata has no target_directory".into())
}

fn read_json(p: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
}

fn collect(dir: &Path, out: &mut BTreeMap<String, Vec<Row>>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        if !p.is_dir() {
            continue;
        }
        let bench = p.join("new/benchmark.json");
        let est = p.join("new/estimates.json");
        if let (Some(b), Some(e)) = (read_json(&bench), read_json(&est)) {
            let group = b["group_id"].as_str().unwrap_or("?").to_string();
            let row = Row {
                function: b["function_id"].as_str().unwrap_or("").to_string(),
                param: b["value_str"].as_str().unwrap_or("").to_string(),
                ns: e["mean"]["point_estimate"].as_f64().unwrap_or(f64::NAN),
                elements: b["throughput"]["Elements"].as_f64(),
                bytes: b["throughput"]["Bytes"].as_f64(),
            };
            out.entry(group).or_default().push(row);
        } else {
            collect(&p, out);
        }
    }
}

fn time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{cpu}, {cores} cores")
}

fn today() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// Renders every group as a table: per size, each implementation with its time, throughput
/// and ratio to the fastest in that group and size.
pub fn render(criterion: &Path) -> Result<String, String> {
    let mut groups = BTreeMap::new();
    collect(criterion, &mut groups);
    if groups.is_empty() {
        return Err(format!(
            "no criterion results under {}",
            criterion.display()
        ));
    }
    let mut s = String::new();
    let _ = writeln!(s, "# Benchmarks\n");
    let _ = writeln!(
        s,
        "Generated by `cargo xtask bench` on {} ({}), single-threaded, release build. \
         Times are criterion means; \"× fastest\" compares the implementations measured in the \
         same run for the same size and operation (1.00 = fastest), and \"against ours\" gives \
         each peer's ratio to this workspace's fastest entry, in bold where the peer wins. Hand-written notes live in \
         `docs/benchmark-notes.md`; regenerate this file rather than editing it.\n",
        today(),
        machine()
    );
    for (group, mut rows) in groups {
        rows.sort_by(|a, b| {
            size_key(&a.param)
                .cmp(&size_key(&b.param))
                .then(a.ns.total_cmp(&b.ns))
        });
        let _ = writeln!(s, "## {group}\n");
        let _ = writeln!(
            s,
            "| n | implementation | time | throughput (elem/s or MB/s) | × fastest | against ours |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|");
        // Rows compete within one size and one operation ("flip/quadedge" vs "flip/tri_mesh").
        let mut best: BTreeMap<(String, String), f64> = BTreeMap::new();
        let mut ours: BTreeMap<(String, String), f64> = BTreeMap::new();
        for r in &rows {
            let b = best.entry(cell(r)).or_insert(f64::INFINITY);
            *b = b.min(r.ns);
            if !is_peer(&r.function) {
                let o = ours.entry(cell(r)).or_insert(f64::INFINITY);
                *o = o.min(r.ns);
            }
        }
        for r in &rows {
            let thr = match (r.elements, r.bytes) {
                (Some(e), _) => format!("{:.3e}", e / (r.ns * 1e-9)),
                (None, Some(b)) => format!("{:.0} MB/s", b / 1e6 / (r.ns * 1e-9)),
                (None, None) => "–".into(),
            };
            let against = match ours.get(&cell(r)) {
                Some(&o) if is_peer(&r.function) => {
                    if r.ns >= o {
                        format!("ours {:.2}× faster", r.ns / o)
                    } else {
                        format!("**peer {:.2}× faster**", o / r.ns)
                    }
                }
                _ => "–".into(),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.2} | {} |",
                r.param,
                r.function,
                time(r.ns),
                thr,
                r.ns / best[&cell(r)],
                against
            );
        }
        s.push('\n');
    }
    if let Ok(mem) = std::fs::read_to_string(criterion.join("memory.tsv")) {
        let mut lines: Vec<&str> = mem.lines().filter(|l| !l.trim().is_empty()).collect();
        lines.sort();
        lines.dedup();
        let _ = writeln!(s, "## Memory per vertex\n");
        let _ = writeln!(
            s,
            "Heap bytes held by each structure after construction, divided by the vertex count (measured by the benchmarks: capacity of every owned buffer).\n"
        );
        let _ = writeln!(s, "| structure | n | bytes per vertex |");
        let _ = writeln!(s, "|---|---|---|");
        for l in lines {
            let f: Vec<&str> = l.split('\t').collect();
            if f.len() == 3 {
                let _ = writeln!(s, "| {} | {} | {} |", f[0], f[1], f[2]);
            }
        }
    }
    if let Ok(facts) = std::fs::read_to_string(criterion.join("facts.tsv")) {
        let mut lines: Vec<&str> = facts.lines().filter(|l| !l.trim().is_empty()).collect();
        lines.sort();
        lines.dedup();
        let _ = writeln!(s, "\n## Other measurements\n");
        let _ = writeln!(
            s,
            "One-off figures the benchmarks record besides timings (counting allocator, file sizes).\n"
        );
        let _ = writeln!(s, "| what | value |");
        let _ = writeln!(s, "|---|---|");
        for l in lines {
            let (what, value) = l.split_once('\t').unwrap_or((l, ""));
            let _ = writeln!(s, "| {what} | {value} |");
        }
    }
    Ok(s)
}

/// The size and operation a row competes in: `("1M", "flip")` for `flip/tri_mesh` at 1M.
fn cell(r: &Row) -> (String, String) {
    let op = r.function.rsplit_once('/').map_or("", |(op, _)| op);
    (r.param.clone(), op.to_string())
}

/// Rows measuring another project's code (or the CSR floor) rather than this workspace's.
fn is_peer(function: &str) -> bool {
    let name = function.rsplit('/').next().unwrap_or(function);
    [
        "csr",
        "delaunator",
        "spade",
        "tri_mesh",
        "chull",
        "vec",
        "baby_shark",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Sorts "10k" < "100k" < "1M" numerically.
fn size_key(p: &str) -> u64 {
    let (num, mult) = match p.chars().last() {
        Some('k') => (&p[..p.len() - 1], 1_000),
        Some('M') => (&p[..p.len() - 1], 1_000_000),
        _ => (p, 1),
    };
    num.parse::<f64>()
        .map(|x| (x * mult as f64) as u64)
        .unwrap_or(u64::MAX)
}
