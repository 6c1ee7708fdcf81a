//! sfmt on files and streams as users have them: outputs that are devices, links, private or
//! read-only files and FIFOs; inputs from standard input, FIFOs and process substitution; the
//! input size limit; argument errors.

use std::io::Read;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Command as Process;
use std::time::Duration;

use serde_formats::toc;
use serde_json::{json, Value as Json};

use super::{dir, fails, ok, path, read_json, rich_json, sfmt, write_json};

/// Long enough for any of these commands; a command that waits on a FIFO forever fails.
const TIMEOUT: Duration = Duration::from_secs(60);

fn mode(path: &str) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn set_mode(path: &str, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn mkfifo(path: &str) {
    assert!(Process::new("mkfifo").arg(path).status().unwrap().success());
}

fn names(dir: &tempfile::TempDir) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// The toc file of `value`, written by sfmt to a regular file.
fn toc_bytes(dir: &tempfile::TempDir, value: &Json) -> Vec<u8> {
    let input = write_json(dir, "reference.json", value);
    let output = path(dir, "reference.toc");
    ok(&["convert", &input, &output]);
    std::fs::read(output).unwrap()
}

/// Runs sfmt with `args` and `stdin`, expecting success; returns stdout.
fn ok_with_stdin(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let output = sfmt()
        .args(args)
        .write_stdin(stdin)
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "sfmt {args:?}: {stderr}");
    output.stdout
}

/// Writes `bytes` into the FIFO at `path` once sfmt opens it, from another thread.
fn feed_fifo(path: &str, bytes: Vec<u8>) {
    let path = path.to_owned();
    // Not joined: if sfmt never opens the FIFO, the test fails on sfmt's result, not here.
    std::thread::spawn(move || std::fs::write(path, bytes));
}

#[test]
fn convert_writes_into_dev_null_which_stays_a_device() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    let toc_len = toc_bytes(&dir, &rich_json()).len();
    let (stdout, _) = ok(&["convert", &input, "/dev/null", "--to", "toc"]);
    // The byte count is what was written, not the device's size.
    assert!(
        stdout.ends_with(&format!("-> /dev/null (toc, {toc_len} bytes)\n")),
        "{stdout}"
    );
    ok(&["convert", &input, "/dev/null", "--to", "json"]);
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(meta.file_type().is_char_device());
    assert_eq!(mode("/dev/null"), 0o666);
}

#[test]
fn convert_through_a_symlink_replaces_the_target_and_keeps_the_link() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!({"a": [1, 2]}));
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let target = path(&dir, "real/data.json");
    std::fs::write(&target, b"old").unwrap();
    set_mode(&target, 0o640);
    let link = path(&dir, "link.json");
    symlink("real/data.json", &link).unwrap();
    ok(&["convert", &input, &link]);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read_json(&target), json!({"a": [1, 2]}));
    assert_eq!(mode(&target), 0o640);
    assert_eq!(names(&dir), ["in.json", "link.json", "real"]);
}

#[test]
fn convert_keeps_a_private_output_private() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!([1, 2, 3]));
    let output = path(&dir, "secret.toc");
    std::fs::write(&output, b"old").unwrap();
    set_mode(&output, 0o600);
    ok(&["convert", &input, &output]);
    assert_eq!(mode(&output), 0o600);
    let bytes = std::fs::read(&output).unwrap();
    assert_eq!(toc::from_bytes::<Vec<u8>>(&bytes).unwrap(), [1, 2, 3]);
}

#[test]
fn convert_refuses_a_read_only_output_and_leaves_it() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!([1]));
    let output = path(&dir, "locked.toc");
    std::fs::write(&output, b"old").unwrap();
    set_mode(&output, 0o444);
    // Refused even for root, who could write it: the mode bits decide.
    let line = fails(&["convert", &input, &output]);
    assert!(
        line.starts_with(&format!("error: cannot write {output}: permission denied")),
        "{line}"
    );
    assert_eq!(std::fs::read(&output).unwrap(), b"old");
    assert_eq!(mode(&output), 0o444);
    assert_eq!(names(&dir), ["in.json", "locked.toc"]);
}

#[test]
fn convert_to_a_directory_is_one_line() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!([1]));
    let line = fails(&[
        "convert",
        &input,
        dir.path().to_str().unwrap(),
        "--to",
        "toc",
    ]);
    assert!(line.contains("is a directory"), "{line}");
}

#[test]
fn convert_writes_into_a_fifo_for_its_reader() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    let fifo = path(&dir, "out.fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            bytes
        })
    };
    let output = sfmt()
        .args(["convert", &input, &fifo, "--to", "toc"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let bytes = reader.join().unwrap();
    assert_eq!(bytes, toc_bytes(&dir, &rich_json()));
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo());
}

#[test]
fn dash_reads_standard_input_and_writes_standard_output() {
    let dir = dir();
    let json = serde_json::to_vec(&rich_json()).unwrap();
    // Standard output holds the file alone, no summary line.
    let toc_file = ok_with_stdin(&["convert", "-", "-", "--to", "toc"], &json);
    assert_eq!(toc_file, toc_bytes(&dir, &rich_json()));
    let back = ok_with_stdin(&["convert", "-", "-", "--to", "json"], &toc_file);
    assert_eq!(serde_json::from_slice::<Json>(&back).unwrap(), rich_json());
    let output = path(&dir, "out.dynd");
    let summary = ok_with_stdin(&["convert", "-", &output], &json);
    let summary = String::from_utf8(summary).unwrap();
    assert!(summary.starts_with("- (json, "), "{summary}");
    let inspected = String::from_utf8(ok_with_stdin(&["inspect", "-"], &toc_file)).unwrap();
    assert!(inspected.starts_with("format: toc"), "{inspected}");
    let got = ok_with_stdin(&["get", "-", "records/3/label"], &toc_file);
    assert_eq!(got, b"\"item 3\"\n");
    let small = br#"{"a": [1, 2.5, "three"]}"#;
    let compared = String::from_utf8(ok_with_stdin(&["compare", "-", "--runs", "1"], small));
    assert!(compared.unwrap().contains("toc"));
}

#[test]
fn dev_stdout_is_standard_output() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    // Standard output a pipe.
    let piped = sfmt()
        .args(["convert", &input, "/dev/stdout", "--to", "json"])
        .output()
        .unwrap();
    assert!(piped.status.success(), "{piped:?}");
    assert_eq!(
        serde_json::from_slice::<Json>(&piped.stdout).unwrap(),
        rich_json()
    );
    // Standard output redirected to a file, as `sfmt convert in.json /dev/stdout > out.json`:
    // the file holds the data alone, and stays the file the shell opened.
    let out = path(&dir, "out.json");
    let file = std::fs::File::create(&out).unwrap();
    let status = Process::new(env!("CARGO_BIN_EXE_sfmt"))
        .args(["convert", &input, "/dev/stdout", "--to", "json"])
        .stdout(file)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(read_json(&out), rich_json());
    assert_eq!(names(&dir), ["in.json", "out.json"]);
}

#[test]
fn a_dash_output_needs_a_format() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!(1));
    let line = fails(&["convert", &input, "-"]);
    assert!(line.contains("--to"), "{line}");
}

#[test]
fn a_fifo_input_is_opened_once() {
    let dir = dir();
    let toc_file = toc_bytes(&dir, &rich_json());
    // inspect sniffs the format and get checks the magic from the one open of the FIFO.
    for (args, expected) in [
        (vec!["inspect"], "format: toc"),
        (vec!["get"], "\"item 3\""),
        (vec!["convert"], "(toc, "),
    ] {
        let fifo = path(&dir, "in.fifo");
        mkfifo(&fifo);
        feed_fifo(&fifo, toc_file.clone());
        let mut args: Vec<String> = args.into_iter().map(str::to_owned).collect();
        args.push(fifo.clone());
        match args[0].as_str() {
            "get" => args.push("records/3/label".into()),
            "convert" => args.push(path(&dir, "out.json")),
            _ => {}
        }
        let output = sfmt().args(&args).timeout(TIMEOUT).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{args:?}: {output:?}");
        assert!(stdout.contains(expected), "{args:?}: {stdout}");
        std::fs::remove_file(&fifo).unwrap();
    }
    assert_eq!(read_json(&path(&dir, "out.json")), rich_json());
}

#[test]
fn process_substitution_reads_without_seeking() {
    let dir = dir();
    let toc_file = path(&dir, "data.toc");
    std::fs::write(&toc_file, toc_bytes(&dir, &rich_json())).unwrap();
    let json_file = write_json(&dir, "data.json", &rich_json());
    let sfmt = env!("CARGO_BIN_EXE_sfmt");
    for script in [
        format!("'{sfmt}' inspect <(cat '{toc_file}')"),
        format!("'{sfmt}' inspect <(cat '{json_file}')"),
        format!("'{sfmt}' get <(cat '{toc_file}') records/3/label --stats"),
    ] {
        let output = Process::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{script}: {stderr}");
        assert!(!stderr.contains("Illegal seek"), "{stderr}");
    }
}

#[test]
fn an_endless_input_stops_at_the_size_limit() {
    let line = {
        let output = sfmt()
            .args(["inspect", "/dev/zero", "--max-input-size", "1M"])
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        String::from_utf8(output.stderr).unwrap()
    };
    assert_eq!(
        line,
        "error: cannot read /dev/zero: it is larger than the input size limit of 1 MiB \
         (--max-input-size)\n"
    );
}

#[test]
fn the_size_limit_applies_to_files_and_standard_input() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    let size = std::fs::metadata(&input).unwrap().len();
    let out = path(&dir, "out.toc");
    let line = fails(&["convert", &input, &out, "--max-input-size", "1K"]);
    assert!(line.contains("input size limit of 1 KiB"), "{line}");
    assert!(!Path::new(&out).exists());
    // Exactly the size is allowed, one byte less is not.
    let exact = size.to_string();
    ok(&["convert", &input, &out, "--max-input-size", &exact]);
    let less = (size - 1).to_string();
    let line = fails(&["inspect", &input, "--max-input-size", &less]);
    assert!(line.contains(&format!("limit of {less} bytes")), "{line}");
    let output = sfmt()
        .args(["inspect", "-", "--max-input-size", "10"])
        .write_stdin(vec![b' '; 11])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "error: cannot read standard input: it is larger than the input size limit of 10 \
         bytes (--max-input-size)\n"
    );
    // A regular toc file is read lazily, so get and inspect take one larger than the limit.
    ok(&["get", &out, "records/0/id", "--max-input-size", "100"]);
    ok(&["inspect", &out, "--max-input-size", "100"]);
}

#[test]
fn a_directory_input_is_one_line() {
    let dir = dir();
    let name = dir.path().to_str().unwrap();
    for args in [vec!["inspect", name], vec!["get", name, "a"]] {
        let line = fails(&args);
        assert!(line.contains("is a directory"), "{args:?}: {line}");
    }
}

#[test]
fn argument_errors_are_one_line_with_status_1() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!(1));
    for (args, expected) in [
        (
            vec![],
            "error: no command given (commands: convert, inspect, get, compare",
        ),
        (vec!["bogus"], "error: unrecognized subcommand 'bogus'"),
        (
            vec!["convert"],
            "error: the following required arguments were not provided: <INPUT> <OUTPUT> \
             (usage: sfmt convert <INPUT> <OUTPUT>)",
        ),
        (
            vec!["convert", &input, "x.toc", "--frm", "json"],
            "error: unexpected argument '--frm' found; a similar argument exists: '--from'",
        ),
        (
            vec!["inspect", &input, "--depth", "65"],
            "error: invalid value '65' for '--depth",
        ),
        (
            vec!["inspect", &input, "--max-input-size", "4X"],
            "unknown unit in `4X`",
        ),
        (
            vec!["get", &input, "a", "extra"],
            "error: unexpected argument 'extra' found",
        ),
    ] {
        let line = fails(&args);
        assert!(line.contains(expected), "{args:?}: {line}");
    }
}

#[test]
fn help_and_version_print_to_stdout_with_status_0() {
    for args in [
        vec!["--help"],
        vec!["-h"],
        vec!["help"],
        vec!["convert", "--help"],
        vec!["help", "get"],
        vec!["--version"],
    ] {
        let output = sfmt().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(output.stderr.is_empty(), "{args:?}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(stdout.contains("sfmt"), "{args:?}: {stdout}");
    }
    let (help, _) = ok(&["convert", "--help"]);
    assert!(help.contains("--max-input-size"), "{help}");
}
