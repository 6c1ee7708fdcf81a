//! `sfmt append` (toc::Appender behind it): the command itself, and crash safety. A writer
//! appending a large value and a large file is stopped at each step of the append
//! (`SFMT_APPEND_PAUSE`) and killed there, and killed at spread-out moments of an append
//! running freely; after each kill the file must read, with our reader and with msglc
//! (`tests/interop/toc_append_msglc.py`), as exactly the old contents or exactly the new ones,
//! never an error. A later append then works on a file left by a killed one.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use integration_tests::python_peers;
use serde_formats::toc::{self, Reader, Value};

fn sfmt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sfmt"))
}

/// Runs sfmt; returns (exit code, stdout, stderr).
fn run(args: &[&Path]) -> (i32, String, String) {
    let out = sfmt().args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn p(text: &str) -> &Path {
    Path::new(text)
}

/// The whole value of a combined file, by our reader.
fn read(path: &Path) -> Value {
    Reader::open(path)
        .and_then(|reader| reader.get::<Value>(""))
        .unwrap_or_else(|err| panic!("{} does not read: {err}", path.display()))
}

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn uints(values: impl IntoIterator<Item = u64>) -> Value {
    Value::Array(values.into_iter().map(Value::UInt).collect())
}

fn with(base: &Value, entries: Vec<(&str, Value)>) -> Value {
    let Value::Map(mut map) = base.clone() else {
        panic!("not a dict")
    };
    map.extend(entries.into_iter().map(|(k, v)| (s(k), v)));
    Value::Map(map)
}

#[test]
fn append_creates_adds_files_and_values_and_refuses_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let combined = dir.path().join("c.toc");
    let part = dir.path().join("part.toc");
    toc::write_file(&part, &vec![1u64, 2, 3]).unwrap();
    let json = dir.path().join("v.json");
    std::fs::write(&json, r#"{"k": ["x", 2.5]}"#).unwrap();

    let (code, out, err) = run(&[
        p("append"),
        &combined,
        &part,
        &json,
        p("--name"),
        p("part"),
        p("--name"),
        p("v"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("appended 2 member(s), now 2"), "{out}");
    let expected = Value::Map(vec![
        (s("part"), uints([1, 2, 3])),
        (
            s("v"),
            Value::Map(vec![(s("k"), Value::Array(vec![s("x"), Value::F64(2.5)]))]),
        ),
    ]);
    assert_eq!(read(&combined), expected);
    let before = std::fs::read(&combined).unwrap();

    // Refusals: one line, exit 1, the file unchanged.
    let garbage = dir.path().join("garbage.bin");
    std::fs::write(&garbage, b"\xc1\xc1").unwrap();
    let refusals: Vec<Vec<&Path>> = vec![
        vec![p("append"), &combined, &part],
        vec![p("append"), &combined, &part, p("--name"), p("part")],
        vec![p("append"), &combined, &part, &json, p("--name"), p("w")],
        vec![
            p("append"),
            &combined,
            &json,
            &garbage,
            p("--name"),
            p("w"),
            p("--name"),
            p("g"),
        ],
        vec![p("append"), &part, &json],
    ];
    for args in refusals {
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: "), "{err}");
    }
    assert_eq!(std::fs::read(&combined).unwrap(), before);

    // A list-form file from standard-input-free inputs, appended twice.
    let list = dir.path().join("list.toc");
    assert_eq!(run(&[p("append"), &list, &part]).0, 0);
    assert_eq!(run(&[p("append"), &list, &json, &part]).0, 0);
    assert_eq!(
        read(&list),
        Value::Array(vec![uints([1, 2, 3]), expected_v(), uints([1, 2, 3])])
    );
}

fn expected_v() -> Value {
    Value::Map(vec![(s("k"), Value::Array(vec![s("x"), Value::F64(2.5)]))])
}

/// The files of the crash tests: an old combined file, and the inputs of a large append.
struct Fixture {
    dir: tempfile::TempDir,
    old: Vec<u8>,
    old_value: Value,
    new_value: Value,
    big_json: PathBuf,
    big_toc: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let a = toc::to_bytes(&(0..100u64).collect::<Vec<_>>()).unwrap();
    let b = toc::to_bytes("bee").unwrap();
    let old = toc::combine_map(&[("a", &a), ("b", &b)]).unwrap();
    let old_value = Value::Map(vec![(s("a"), uints(0..100)), (s("b"), s("bee"))]);
    // A value of about 2 MB of JSON, and a toc file of about 2 MB.
    let json: Vec<u64> = (0..300_000u64).map(|i| i * 7919).collect();
    let big_json = dir.path().join("big.json");
    std::fs::write(&big_json, serde_json::to_vec(&json).unwrap()).unwrap();
    let copied: Vec<u64> = (0..250_000u64).map(|i| u64::MAX - i).collect();
    let big_toc = dir.path().join("big.toc");
    toc::write_file(&big_toc, &copied).unwrap();
    let new_value = with(
        &old_value,
        vec![("big", uints(json)), ("copy", uints(copied))],
    );
    Fixture {
        dir,
        old,
        old_value,
        new_value,
        big_json,
        big_toc,
    }
}

impl Fixture {
    /// A fresh copy of the old file.
    fn copy(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, &self.old).unwrap();
        path
    }

    fn append(&self, target: &Path) -> Command {
        let mut command = sfmt();
        command
            .arg("append")
            .arg(target)
            .arg(&self.big_json)
            .arg(&self.big_toc)
            .args(["--name", "big", "--name", "copy"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        command
    }

    /// Whether the file reads as the new contents (else it must read as the old ones).
    fn is_new(&self, path: &Path) -> bool {
        let value = read(path);
        if value == self.new_value {
            return true;
        }
        assert!(
            value == self.old_value,
            "{} reads as neither the old nor the new contents",
            path.display()
        );
        // The old file exactly, with at most unreferenced bytes after it.
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(bytes[..self.old.len()], self.old[..]);
        false
    }
}

/// A child killed (SIGKILL) and reaped when dropped, also when a test fails first.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Checks that msglc reads each file as `expected_new` says: the new contents or the old.
fn msglc_reads(fixture: &Fixture, files: &[(PathBuf, bool)]) {
    let args: Vec<&Path> = files.iter().map(|(path, _)| path.as_path()).collect();
    let mut script_args = vec![Path::new("read")];
    script_args.extend(args);
    python_peers::run_script("toc_append_msglc.py", script_args);
    for (path, is_new) in files {
        let out = std::fs::read(format!("{}.msglc.msgpack", path.display())).unwrap();
        let value: Value = rmp_serde::from_slice(&out).unwrap();
        let expected = if *is_new {
            &fixture.new_value
        } else {
            &fixture.old_value
        };
        assert!(
            value == *expected,
            "msglc reads {} otherwise",
            path.display()
        );
    }
}

#[test]
fn a_writer_killed_at_any_step_leaves_the_old_file_or_the_new_one() {
    let fixture = fixture();
    let mut results = Vec::new();
    for (step, new) in [
        ("opened", false),
        ("member", false),
        ("toc", false),
        ("synced", false),
        ("header", true),
        ("done", true),
    ] {
        let path = fixture.copy(&format!("paused-{step}.toc"));
        let mut child = Killed(
            fixture
                .append(&path)
                .env("SFMT_APPEND_PAUSE", step)
                .spawn()
                .unwrap(),
        );
        let mut line = String::new();
        BufReader::new(child.0.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim_end(), format!("sfmt append: paused at {step}"));
        drop(child);
        assert_eq!(fixture.is_new(&path), new, "killed at {step}");
        results.push((path, new));
    }

    // A later append works on what a killed one left (the bytes after the old TOC go).
    let (leftover, _) = &results[3];
    assert!(std::fs::metadata(leftover).unwrap().len() > fixture.old.len() as u64);
    let small = fixture.dir.path().join("small.json");
    std::fs::write(&small, "[1]").unwrap();
    let (code, _, err) = run(&[p("append"), leftover, &small, p("--name"), p("small")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        read(leftover),
        with(&fixture.old_value, vec![("small", uints([1]))])
    );
    results.remove(3);

    msglc_reads(&fixture, &results);
}

#[test]
fn a_writer_killed_at_random_moments_leaves_the_old_file_or_the_new_one() {
    let fixture = fixture();
    // How long a whole append takes here, to spread the kills over it (no time is asserted).
    let path = fixture.copy("whole.toc");
    let start = Instant::now();
    let status = fixture.append(&path).status().unwrap();
    let whole = start.elapsed();
    assert!(status.success());
    assert!(fixture.is_new(&path));

    let mut results = vec![(path, true)];
    const KILLS: u32 = 8;
    // Pseudo-random moments (xorshift, fixed seed) from 30% to 105% of that time: the start
    // only reads the inputs, and past 100% some kills may find the append done.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for k in 1..=KILLS {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let permille = 300 + state % 751;
        let path = fixture.copy(&format!("killed-{k}.toc"));
        let child = Killed(fixture.append(&path).spawn().unwrap());
        std::thread::sleep(whole * permille as u32 / 1000);
        drop(child);
        let new = fixture.is_new(&path);
        results.push((path, new));
    }
    let new = results.iter().filter(|(_, new)| *new).count() - 1;
    eprintln!(
        "{KILLS} kills over an append of {whole:?}: {new} left the new file, {} the old one",
        KILLS as usize - new
    );
    msglc_reads(&fixture, &results);
}
