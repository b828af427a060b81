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
        "Generated by `cargo xtask bench` on {} ({}), release build, single-threaded except \
         the rows named `threads_k` (k rayon threads; see \"Scaling\" at the end). \
         Times are criterion means; \"× fastest\" compares the implementations measured in the \
         same run for the same size and operation (1.00 = fastest), and \"against ours\" gives \
         each peer's ratio to this workspace's fastest entry, in bold where the peer wins. Hand-written notes live in \
         `docs/benchmark-notes.md`; regenerate this file rather than editing it.\n",
        today(),
        machine()
    );
    for (group, rows) in &groups {
        s.push_str(&group_table(group, rows));
    }
    s.push_str(&scaling_section(&groups));
    s.push_str(&memory_section(criterion));
    s.push_str(&facts_section(criterion));
    Ok(s)
}

/// One group's table, rows by size then time: each row's ratio to the fastest in its cell and,
/// for a peer, to this workspace's fastest there.
fn group_table(group: &str, rows: &[Row]) -> String {
    let mut rows: Vec<&Row> = rows.iter().collect();
    rows.sort_by(|a, b| {
        size_key(&a.param)
            .cmp(&size_key(&b.param))
            .then(a.ns.total_cmp(&b.ns))
    });
    let mut s = String::new();
    let _ = writeln!(s, "## {group}\n");
    let _ = writeln!(
        s,
        "| n | implementation | time | throughput (elem/s or MB/s) | × fastest | against ours |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    // Rows compete within one size and one operation ("flip/quadedge" vs "flip/tri_mesh").
    let mut best: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut ours: BTreeMap<(String, String), f64> = BTreeMap::new();
    for &r in &rows {
        let b = best.entry(cell(r)).or_insert(f64::INFINITY);
        *b = b.min(r.ns);
        if !is_peer(&r.function) {
            let o = ours.entry(cell(r)).or_insert(f64::INFINITY);
            *o = o.min(r.ns);
        }
    }
    for &r in &rows {
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
            throughput(r),
            r.ns / best[&cell(r)],
            against
        );
    }
    s.push('\n');
    s
}

/// A row's throughput cell: elements per second, MB/s, or a dash when none was declared.
fn throughput(r: &Row) -> String {
    match (r.elements, r.bytes) {
        (Some(e), _) => format!("{:.3e}", e / (r.ns * 1e-9)),
        (None, Some(b)) => format!("{:.0} MB/s", b / 1e6 / (r.ns * 1e-9)),
        (None, None) => "–".into(),
    }
}

/// The "Memory per vertex" section from `memory.tsv`; empty without that file.
fn memory_section(criterion: &Path) -> String {
    side_section(
        criterion,
        "memory.tsv",
        "## Memory per vertex\n\nHeap bytes held by each structure after construction, divided \
         by the vertex count (measured by the benchmarks: capacity of every owned buffer).\n\n\
         | structure | n | bytes per vertex |\n|---|---|---|\n",
        |l| match l.split('\t').collect::<Vec<_>>()[..] {
            [what, n, bytes] => Some(format!("| {what} | {n} | {bytes} |")),
            _ => None,
        },
    )
}

/// The "Other measurements" section from `facts.tsv`; empty without that file.
fn facts_section(criterion: &Path) -> String {
    side_section(
        criterion,
        "facts.tsv",
        "\n## Other measurements\n\nOne-off figures the benchmarks record besides timings \
         (counting allocator, file sizes).\n\n| what | value |\n|---|---|\n",
        |l| {
            let (what, value) = l.split_once('\t').unwrap_or((l, ""));
            Some(format!("| {what} | {value} |"))
        },
    )
}

/// A section from a side file the benches append to: `head` (title, text, table header),
/// then one table row per distinct non-empty line, sorted, that `row` accepts. Empty when the
/// file is not there.
fn side_section(
    criterion: &Path,
    file: &str,
    head: &str,
    row: impl Fn(&str) -> Option<String>,
) -> String {
    let Ok(text) = std::fs::read_to_string(criterion.join(file)) else {
        return String::new();
    };
    let mut lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.sort();
    lines.dedup();
    let mut s = head.to_string();
    for r in lines.into_iter().filter_map(row) {
        let _ = writeln!(s, "{r}");
    }
    s
}

/// The "Scaling" section: every operation measured as `…/threads_1` and `…/threads_2` in the
/// same run, side by side with the speedup (one thread's time over two threads'). Empty when
/// no bench measured thread counts.
fn scaling_section(groups: &BTreeMap<String, Vec<Row>>) -> String {
    // (operation, size) → (time with 1 thread, time with 2 threads).
    let mut pairs: BTreeMap<(String, String), [Option<f64>; 2]> = BTreeMap::new();
    for (group, rows) in groups {
        for r in rows {
            let full = format!("{group}/{}", r.function);
            let Some((op, threads)) = full.rsplit_once("/threads_") else {
                continue;
            };
            let slot = match threads {
                "1" => 0,
                "2" => 1,
                _ => continue,
            };
            pairs.entry((op.to_string(), r.param.clone())).or_default()[slot] = Some(r.ns);
        }
    }
    let mut s = String::new();
    let rows: Vec<_> = pairs
        .iter()
        .filter_map(|(k, v)| Some((k, v[0]?, v[1]?)))
        .collect();
    if rows.is_empty() {
        return s;
    }
    let _ = writeln!(s, "## Scaling (1 and 2 threads)\n");
    let _ = writeln!(
        s,
        "The same operation on a rayon pool of 1 and of 2 threads, measured in the same run; \
         speedup = time with 1 thread / time with 2 threads (2.00 is perfect on two cores). \
         On a shared machine the second thread only helps when a core is free: the load \
         average at the start of the run is under \"Other measurements\".\n"
    );
    let _ = writeln!(s, "| operation | n | 1 thread | 2 threads | speedup |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for ((op, param), one, two) in rows {
        let _ = writeln!(
            s,
            "| {op} | {param} | {} | {} | {:.2}× |",
            time(one),
            time(two),
            one / two
        );
    }
    s.push('\n');
    s
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes one fake criterion result (the two files `collect` reads).
    fn fake(root: &Path, dir: &str, group: &str, function: &str, param: &str, ns: f64) {
        let d = root.join(dir).join("new");
        std::fs::create_dir_all(&d).unwrap();
        let bench = serde_json::json!({
            "group_id": group, "function_id": function, "value_str": param,
            "throughput": {"Elements": 1000000.0}
        });
        let est = serde_json::json!({"mean": {"point_estimate": ns}});
        std::fs::write(d.join("benchmark.json"), bench.to_string()).unwrap();
        std::fs::write(d.join("estimates.json"), est.to_string()).unwrap();
    }

    /// An empty directory of this process for one test's fake results.
    fn scratch(name: &str) -> PathBuf {
        let root = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        root
    }

    #[test]
    fn scaling_section_pairs_thread_counts_of_one_run() {
        let root = scratch("scaling");
        fake(&root, "a", "scaling", "neighbour_sum/threads_1", "1M", 20e6);
        fake(&root, "b", "scaling", "neighbour_sum/threads_2", "1M", 11e6);
        fake(
            &root,
            "c",
            "scaling",
            "fibonacci_sphere/threads_1",
            "1M",
            1.2e9,
        );
        fake(
            &root,
            "d",
            "scaling",
            "fibonacci_sphere/threads_2",
            "1M",
            0.7e9,
        );
        // A lone thread count has no pair; other groups' `threads_k` pair up too.
        fake(&root, "e", "scaling", "stream/threads_2", "1M", 2e6);
        fake(&root, "f", "par/neighbour_sum", "threads_1", "", 30e6);
        fake(&root, "g", "par/neighbour_sum", "threads_2", "", 16e6);
        fake(&root, "h", "sphere", "triangulate", "1M", 3e8);
        let doc = render(&root).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
        let section = &doc[doc.find("## Scaling (1 and 2 threads)").unwrap()..];
        let table: Vec<&str> = section.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(
            table,
            [
                "| operation | n | 1 thread | 2 threads | speedup |",
                "| par/neighbour_sum |  | 30.00 ms | 16.00 ms | 1.88× |",
                "| scaling/fibonacci_sphere | 1M | 1.200 s | 700.00 ms | 1.71× |",
                "| scaling/neighbour_sum | 1M | 20.00 ms | 11.00 ms | 1.82× |",
            ]
        );
        // The per-group tables are still there.
        assert!(doc.contains("## sphere"));
        assert!(doc.contains("| 1M | stream/threads_2 |"));
    }

    #[test]
    fn side_files_become_sorted_deduplicated_tables() {
        let root = scratch("side");
        fake(&root, "a", "build", "from_triangles", "1M", 2e8);
        fake(&root, "b", "build", "csr_build", "1M", 1e8);
        std::fs::write(
            root.join("memory.tsv"),
            "mesh\t1M\t96.0\n\ncsr\t1M\t28.0\nmesh\t1M\t96.0\nbad line\n",
        )
        .unwrap();
        std::fs::write(root.join("facts.tsv"), "load\t0.5\nalone\n").unwrap();
        let doc = render(&root).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
        let table = |title: &str| -> Vec<String> {
            let section = &doc[doc.find(title).unwrap()..];
            let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
            let rows = section[..end].lines().filter(|l| l.starts_with("| "));
            rows.map(str::to_string).collect()
        };
        assert_eq!(
            table("## build"),
            [
                "| n | implementation | time | throughput (elem/s or MB/s) | × fastest | against ours |",
                "| 1M | csr_build | 100.00 ms | 1.000e7 | 1.00 | **peer 2.00× faster** |",
                "| 1M | from_triangles | 200.00 ms | 5.000e6 | 2.00 | – |",
            ]
        );
        assert_eq!(
            table("## Memory per vertex"),
            [
                "| structure | n | bytes per vertex |",
                "| csr | 1M | 28.0 |",
                "| mesh | 1M | 96.0 |",
            ]
        );
        assert_eq!(
            table("## Other measurements"),
            ["| what | value |", "| alone |  |", "| load | 0.5 |"]
        );
    }

    #[test]
    fn no_thread_rows_no_section() {
        let mut groups = BTreeMap::new();
        groups.insert(
            "sphere".to_string(),
            vec![Row {
                function: "triangulate".into(),
                param: "1M".into(),
                ns: 1.0,
                elements: None,
                bytes: None,
            }],
        );
        assert_eq!(scaling_section(&groups), "");
    }
}
