//! `bench-table`: runs the side-by-side benchmark suite and prints one table of speed ratios.
//!
//! ```sh
//! cargo run --release -p integration-tests --bin bench-table            # run the suite, then print
//! cargo run --release -p integration-tests --bin bench-table -- --no-run # print the last results
//! cargo run --release -p integration-tests --bin bench-table -- --quick  # short criterion settings
//! cargo run --release -p integration-tests --bin bench-table -- toc_write # only matching benchmarks
//! ```
//!
//! Each row is one of our functions in one criterion group (and operation, and input); each
//! column is a peer measured in the same group of the same run. A cell is the peer's median time
//! over ours: above 1 we are faster. Ratios rather than times, because the machines are shared.
//! The table is also written to `target/criterion/ratios.md`; criterion's HTML report with the
//! plots is `target/criterion/report/index.html`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::SystemTime;

/// Peers, by the function name their benchmarks use, and the column each one fills.
const PEERS: &[(&str, &str)] = &[
    ("memcpy", "memcpy"),
    ("borsh", "borsh"),
    ("borsh_shifted", "borsh, DyND's alignment"),
    ("bincode", "bincode 2"),
    ("postcard", "postcard"),
    ("rmp-serde", "rmp-serde"),
    ("serde_json", "serde_json"),
    ("serde_columnar", "serde_columnar"),
    ("arrow_ipc::StreamWriter", "arrow-ipc"),
    ("arrow_ipc::StreamReader", "arrow-ipc"),
    ("floor_clone", "clone floor"),
];

/// The crates whose `benches/` make up the suite.
const PACKAGES: &[&str] = &["columnar-codec", "serde-formats"];

/// One measured function: where it sits and its median time in nanoseconds.
struct Measurement {
    group: String,
    function: String,
    input: String,
    median_ns: f64,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = !args.iter().any(|a| a == "--no-run");
    let quick = args.iter().any(|a| a == "--quick");
    let target = target_dir();
    let started = SystemTime::now();
    if run {
        let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        // `--bench '*'`: the criterion targets only, not the libraries' libtest harnesses
        // (`--benches` includes those), which reject criterion's options.
        cargo.args(["bench", "--bench", "*"]);
        for package in PACKAGES {
            cargo.args(["-p", package]);
        }
        cargo.arg("--");
        if quick {
            cargo.args(["--warm-up-time", "1", "--measurement-time", "3"]);
        }
        // Anything else is criterion's: a filter such as `toc_write`, or its own options.
        cargo.args(args.iter().filter(|a| *a != "--no-run" && *a != "--quick"));
        match cargo.status() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                eprintln!("bench-table: cargo bench failed ({status})");
                return ExitCode::FAILURE;
            }
            Err(err) => {
                eprintln!("bench-table: cannot start cargo: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    let criterion = target.join("criterion");
    let since = run.then_some(started);
    let measurements = match collect(&criterion, since) {
        Ok(found) if !found.is_empty() => found,
        Ok(_) => {
            eprintln!(
                "bench-table: no results under {} (run without --no-run)",
                criterion.display()
            );
            return ExitCode::FAILURE;
        }
        Err(err) => {
            eprintln!("bench-table: reading {}: {err}", criterion.display());
            return ExitCode::FAILURE;
        }
    };
    let table = render(&measurements);
    print!("{table}");
    let out = criterion.join("ratios.md");
    if let Err(err) = std::fs::write(&out, &table) {
        eprintln!("bench-table: cannot write {}: {err}", out.display());
    } else {
        eprintln!("written to {}", out.display());
    }
    ExitCode::SUCCESS
}

/// The workspace's target directory: `CARGO_TARGET_DIR`, else `target/` beside this crate.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map_or_else(|| PathBuf::from("target"), |root| root.join("target")),
    }
}

/// Every `new/benchmark.json` below `root` with its median, keeping only results written at or
/// after `since` when given (a run's own results, not those of benchmarks removed since).
fn collect(root: &Path, since: Option<SystemTime>) -> std::io::Result<Vec<Measurement>> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let in_new = path.parent().and_then(Path::file_name) == Some("new".as_ref());
            if !in_new || path.file_name() != Some("benchmark.json".as_ref()) {
                continue;
            }
            let estimates = path.with_file_name("estimates.json");
            if let Some(since) = since {
                let written = std::fs::metadata(&estimates)?.modified()?;
                if written < since {
                    continue;
                }
            }
            if let Some(measurement) = read_measurement(&path, &estimates)? {
                found.push(measurement);
            }
        }
    }
    Ok(found)
}

/// One result, or `None` when criterion's files do not have the fields this tool reads.
fn read_measurement(benchmark: &Path, estimates: &Path) -> std::io::Result<Option<Measurement>> {
    let parse = |path: &Path| -> std::io::Result<serde_json::Value> {
        let text = std::fs::read_to_string(path)?;
        serde_json::from_str(&text).map_err(std::io::Error::other)
    };
    let id = parse(benchmark)?;
    let times = parse(estimates)?;
    let text = |key: &str| id.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let (Some(group), Some(function)) = (text("group_id"), text("function_id")) else {
        return Ok(None);
    };
    let Some(median_ns) = times["median"]["point_estimate"].as_f64() else {
        return Ok(None);
    };
    let input = text("value_str").unwrap_or_default();
    Ok(Some(Measurement {
        group,
        function,
        input,
        median_ns,
    }))
}

/// One line of the table: one of our functions and the peers measured beside it.
struct Row<'a> {
    workload: String,
    ours: &'a Measurement,
    beside: Vec<&'a Measurement>,
}

impl Row<'_> {
    /// The measurement of the peer of column `col` in this row's group, if it has one.
    fn peer(&self, col: &str) -> Option<&Measurement> {
        let reused = into_reused_buffer(&self.ours.function);
        self.beside.iter().copied().find(|p| {
            peer_column(&p.function) == Some(col) && into_reused_buffer(&p.function) == reused
        })
    }
}

/// Whether a function writes into a buffer kept across iterations (`toc-reused`,
/// `rmp-serde-reused`): it is compared only with peers measured the same way.
fn into_reused_buffer(function: &str) -> bool {
    function.ends_with("-reused")
}

/// The peer column of a function name, if it is a peer's (in a fresh or a reused buffer).
fn peer_column(function: &str) -> Option<&'static str> {
    let name = function.rsplit('/').next().unwrap_or(function);
    let name = name.strip_suffix("-reused").unwrap_or(name);
    PEERS
        .iter()
        .find(|(id, _)| *id == name)
        .map(|(_, col)| *col)
}

/// The operation part of a function name (`encode` of `encode/serde_json`), or "".
fn operation(function: &str) -> &str {
    function.rsplit_once('/').map_or("", |(op, _)| op)
}

/// The Markdown table: one row per (group, operation, input, our function).
fn render(measurements: &[Measurement]) -> String {
    type RowKey<'a> = (&'a str, &'a str, &'a str);
    let mut ours: BTreeMap<RowKey, Vec<&Measurement>> = BTreeMap::new();
    let mut peers: BTreeMap<RowKey, Vec<&Measurement>> = BTreeMap::new();
    for m in measurements {
        let key = (m.group.as_str(), operation(&m.function), m.input.as_str());
        let side = if peer_column(&m.function).is_some() {
            &mut peers
        } else {
            &mut ours
        };
        side.entry(key).or_default().push(m);
    }
    let mut rows: Vec<Row> = Vec::new();
    for ((group, op, input), ours_here) in &ours {
        // A peer without an operation prefix (a group's one `memcpy`) stands beside every one.
        let mut beside: Vec<&Measurement> = Vec::new();
        for key in [(*group, *op, *input), (*group, "", *input)] {
            beside.extend(peers.get(&key).into_iter().flatten());
        }
        let workload = [*group, *op, *input]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        for m in ours_here {
            rows.push(Row {
                workload: workload.clone(),
                ours: m,
                beside: beside.clone(),
            });
        }
    }
    // Only the peers that appear in this run get a column.
    let mut columns: Vec<&str> = Vec::new();
    for (_, col) in PEERS {
        let used = rows.iter().any(|row| row.peer(col).is_some());
        if used && !columns.contains(col) {
            columns.push(col);
        }
    }
    let mut out = String::from("| workload | ours |");
    for col in &columns {
        let _ = write!(out, " × {col} |");
    }
    out.push_str("\n| --- | --- |");
    out.push_str(&" ---: |".repeat(columns.len()));
    out.push('\n');
    for row in &rows {
        let name = row
            .ours
            .function
            .rsplit('/')
            .next()
            .unwrap_or(&row.ours.function);
        let _ = write!(out, "| {} | {name} |", row.workload);
        for col in &columns {
            match row.peer(col) {
                Some(p) => {
                    let _ = write!(out, " {:.2} |", p.median_ns / row.ours.median_ns);
                }
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(group: &str, function: &str, input: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: group.into(),
            function: function.into(),
            input: input.into(),
            median_ns,
        }
    }

    #[test]
    fn a_peer_pairs_with_our_function_of_the_same_operation_and_input() {
        let table = render(&[
            m("log/serialize", "dynd", "", 100.0),
            m("log/serialize", "borsh", "", 250.0),
            m("g", "encode/ours", "", 40.0),
            m("g", "encode/serde_json", "", 100.0),
            m("g", "decode/ours", "", 50.0),
            m("g", "decode/serde_json", "", 75.0),
            m("g", "memcpy", "", 20.0),
            m("toc_write", "toc", "B", 300.0),
            m("toc_write", "rmp-serde", "B", 100.0),
            m("toc_write", "rmp-serde", "A", 1.0),
            m("toc_write", "toc-reused", "B", 50.0),
            m("toc_write", "rmp-serde-reused", "B", 25.0),
        ]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "| workload | ours | × memcpy | × borsh | × rmp-serde | × serde_json |"
        );
        assert_eq!(lines[2], "| g / decode | ours | 0.40 | | | 1.50 |");
        assert_eq!(lines[3], "| g / encode | ours | 0.50 | | | 2.50 |");
        assert_eq!(lines[4], "| log/serialize | dynd | | 2.50 | | |");
        assert_eq!(lines[5], "| toc_write / B | toc | | | 0.33 | |");
        // Into a reused buffer, beside the peer's reused-buffer time.
        assert_eq!(lines[6], "| toc_write / B | toc-reused | | | 0.50 | |");
        assert_eq!(lines.len(), 7);
    }
}
