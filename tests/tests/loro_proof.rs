//! The proof on serde_columnar's largest real user: Loro 1.17.1 from the registry, unmodified,
//! built once as published and once with `serde_columnar` replaced by `columnar`'s
//! compatibility package (`columnar/compat`) through `[patch.crates-io]`.
//!
//! The program (`tests/loro/src/main.rs`) builds one deterministic document of 10k+ operations
//! (text with marks, map, list, movable list, tree; three peers), exports it in all of Loro's
//! export modes and imports each blob back. This test asserts that the two builds write
//! byte-identical blobs, that each build imports the other's, and that the Python `loro`
//! package (a third build, with the real serde_columnar) reads ours and we read its blobs.
//! A second test runs loro-internal's own test suite (shipped in its package) on the patched
//! build.
//!
//! Both builds share `target/loro` (only loro-internal, loro and the program are built twice);
//! the first run takes several minutes, later runs reuse it.

use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::python_peers;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn target() -> PathBuf {
    workspace().join("target").join("loro")
}

/// Runs `cmd`, panicking with its output when it fails; returns its stdout.
fn run(mut cmd: Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Builds the program of `tests/loro/<variant>` and returns its binary.
fn build(variant: &str) -> PathBuf {
    let manifest = workspace()
        .join("tests/loro")
        .join(variant)
        .join("Cargo.toml");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "--release", "--locked", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", target());
    run(cmd, &format!("building the Loro program ({variant})"));
    target().join("release").join(format!(
        "loro-proof-{variant}{}",
        std::env::consts::EXE_SUFFIX
    ))
}

fn proof(binary: &Path, command: &str, dir: &Path) -> String {
    let mut cmd = Command::new(binary);
    cmd.arg(command).arg(dir);
    let out = run(
        cmd,
        &format!("{} {command} {}", binary.display(), dir.display()),
    );
    print!("{out}");
    out
}

fn blobs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("blob directory")
        .map(|entry| {
            let path = entry.expect("entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("blob"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn loro_exports_are_byte_identical_and_import_across_builds_and_python() {
    let real = build("real");
    let ours = build("columnar");
    let out = target().join("out");
    let _ = std::fs::remove_dir_all(&out);
    let (real_dir, ours_dir, python_dir) =
        (out.join("real"), out.join("columnar"), out.join("python"));

    proof(&real, "export", &real_dir);
    let report = proof(&ours, "export", &ours_dir);
    let (real_blobs, our_blobs) = (blobs(&real_dir), blobs(&ours_dir));
    let names: Vec<&str> = real_blobs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 9, "8 export modes and deep.json: {names:?}");
    assert_eq!(
        names,
        our_blobs
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
    );
    for ((name, a), (_, b)) in real_blobs.iter().zip(&our_blobs) {
        assert!(
            a == b,
            "{name}: the builds' blobs differ ({} vs {} bytes)",
            a.len(),
            b.len()
        );
    }
    assert!(report.contains("operations"), "{report}");

    // Each build reads the other's blobs.
    assert!(proof(&real, "import", &ours_dir).contains("checked 8 blobs"));
    assert!(proof(&ours, "import", &real_dir).contains("checked 8 blobs"));

    // Python's loro (real serde_columnar) reads ours, and we read what it writes.
    let said = python_peers::run_script("loro_peer.py", [&ours_dir, &python_dir]);
    let said = String::from_utf8_lossy(&said);
    assert!(said.contains("checked 8 blobs, wrote 4"), "{said}");
    assert!(proof(&ours, "import", &python_dir).contains("checked 4 blobs"));
}

/// Copies the directory `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// Tests of the published packages that read a file of Loro's repository at run time (not in
/// the package), so they fail with or without serde_columnar replaced.
const NEEDS_LORO_REPOSITORY: &[&str] = &["wasm_fixture_is_up_to_date"];

/// The `[[test]]` targets of a published (normalized) manifest, as (name, path).
fn test_targets(manifest: &str) -> Vec<(String, String)> {
    let value = |line: &str, key: &str| {
        let rest = line
            .strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?
            .trim();
        Some(rest.trim_matches('"').to_string())
    };
    let mut targets = Vec::new();
    let mut lines = manifest.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "[[test]]" {
            let (mut name, mut path) = (None, None);
            for line in lines.by_ref().take_while(|l| !l.trim().is_empty()) {
                name = name.or_else(|| value(line, "name"));
                path = path.or_else(|| value(line, "path"));
            }
            targets.push((name.expect("test name"), path.expect("test path")));
        }
    }
    targets
}

/// Runs the test suite that `package` ships (its `tests/` targets) with serde_columnar replaced
/// by `columnar`'s compatibility package; returns (tests passed, targets left out).
///
/// Targets that cannot build from the package are left out (named in the output): those that
/// use `dev_utils`, a crate of Loro's repository that is not published, and those that include
/// fixture files from elsewhere in Loro's repository (`"../../…"`). The library's unit tests
/// need `dev_utils` too, so they are not run. Tests that read such a fixture at run time are
/// skipped by name ([`NEEDS_LORO_REPOSITORY`]).
fn package_tests_on_columnar(package: &str) -> (usize, Vec<String>) {
    // Where cargo unpacked the package for the patched build of the program.
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args([
        "metadata",
        "--format-version",
        "1",
        "--locked",
        "--manifest-path",
    ])
    .arg(workspace().join("tests/loro/columnar/Cargo.toml"))
    .env("CARGO_TARGET_DIR", target());
    let metadata: serde_json::Value =
        serde_json::from_str(&run(cmd, "cargo metadata")).expect("cargo metadata is JSON");
    let found = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == package)
        .unwrap_or_else(|| panic!("{package} in the graph"));
    let version = found["version"].as_str().expect("version");
    let source = Path::new(found["manifest_path"].as_str().expect("manifest path"))
        .parent()
        .expect("package directory")
        .to_path_buf();

    // A copy of the package, as its own workspace, with the same patch as the program.
    let copy = target()
        .join("packages")
        .join(format!("{package}-{version}"));
    let _ = std::fs::remove_dir_all(&copy);
    copy_dir(&source, &copy);
    let manifest = copy.join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).expect("manifest");
    let targets = test_targets(&text);
    let compat = workspace().join("columnar/compat");
    text.push_str(&format!(
        "\n[workspace]\n\n[patch.crates-io]\nserde_columnar = {{ path = {:?} }}\n",
        compat.to_str().expect("UTF-8 path")
    ));
    std::fs::write(&manifest, text).expect("write manifest");

    let (mut run_these, mut left_out) = (Vec::new(), Vec::new());
    for (name, path) in targets {
        let source = std::fs::read_to_string(copy.join(&path)).expect("test source");
        if source.contains("dev_utils") || source.contains("\"../../") {
            left_out.push(name);
        } else {
            run_these.push(name);
        }
    }
    assert!(!run_these.is_empty(), "{package} ships no test that builds");
    let mut cmd = Command::new(env!("CARGO"));
    // Without debug info, symbols and incremental state the ~90 test binaries take ~1.5 GB, not
    // 20 (symbols alone are 30% of each): CI's disk is not large.
    cmd.args(["test", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", target())
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .env("CARGO_PROFILE_DEV_STRIP", "symbols")
        .env("CARGO_INCREMENTAL", "0");
    for name in &run_these {
        cmd.args(["--test", name]);
    }
    cmd.args(["--", "--exact"]);
    for name in NEEDS_LORO_REPOSITORY {
        cmd.args(["--skip", name]);
    }
    let out = run(cmd, &format!("{package} {version}'s tests on columnar"));
    let passed: usize = out
        .lines()
        .filter_map(|line| line.strip_prefix("test result: ok. "))
        .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
        .sum();
    println!(
        "{package} {version}: {passed} tests in {} targets passed on columnar; left out (need files or crates of Loro's repository): {left_out:?}",
        run_these.len()
    );
    (passed, left_out)
}

#[test]
fn loro_internal_test_suite_passes_on_columnar() {
    let (passed, left_out) = package_tests_on_columnar("loro-internal");
    assert!(passed >= 80, "loro-internal: only {passed} tests ran");
    assert!(left_out.len() <= 3, "{left_out:?}");
}

#[test]
fn loro_test_suite_passes_on_columnar() {
    let (passed, left_out) = package_tests_on_columnar("loro");
    assert!(passed >= 500, "loro: only {passed} tests ran");
    assert!(left_out.len() <= 5, "{left_out:?}");
}
