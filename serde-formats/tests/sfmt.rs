//! Integration tests of the `sfmt` binary: every subcommand on small files, round trips through
//! every format, and one clear line on stderr for every kind of bad input.

use std::path::Path;

use assert_cmd::Command;
use serde_formats::{dynd, toc, typed_column, vector};
use serde_json::{json, Value as Json};

// Outputs that are devices, links or FIFOs, standard input and output, limits, argument errors.
#[cfg(unix)]
#[path = "sfmt/files.rs"]
mod files;
// `get` and `inspect` on `s3://` URLs, against a moto server the test starts.
#[path = "sfmt/s3.rs"]
mod s3;

fn sfmt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sfmt"))
}

/// Runs `sfmt args`, expecting success; returns stdout and stderr.
fn ok(args: &[&str]) -> (String, String) {
    ok_with(sfmt(), args)
}

/// Runs `command args` (an `sfmt` command), expecting success; returns stdout and stderr.
fn ok_with(mut command: Command, args: &[&str]) -> (String, String) {
    let output = command.args(args).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        output.status.success(),
        "sfmt {args:?} failed: {stderr}{stdout}"
    );
    (stdout, stderr)
}

/// What `sfmt inspect ARGS` prints, which must start with `format`.
fn inspect(args: &[&str], format: &str) -> String {
    let (stdout, _) = ok(&[&["inspect"], args].concat());
    assert!(stdout.starts_with(format), "{stdout}");
    stdout
}

/// Runs `sfmt args`, expecting failure with exactly one line on stderr; returns that line.
fn fails(args: &[&str]) -> String {
    fails_with(sfmt(), args)
}

/// Runs `command args` (an `sfmt` command), expecting failure with exactly one line on stderr;
/// returns that line.
fn fails_with(mut command: Command, args: &[&str]) -> String {
    let output = command.args(args).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "sfmt {args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "sfmt {args:?}: {stderr:?}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr.trim_end().to_owned()
}

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).to_str().unwrap().to_owned()
}

/// `sfmt convert INPUT DIR/NAME`, which must succeed; the path of the output.
fn convert(dir: &tempfile::TempDir, input: &str, name: &str) -> String {
    let output = path(dir, name);
    ok(&["convert", input, &output]);
    output
}

fn write_json(dir: &tempfile::TempDir, name: &str, value: &Json) -> String {
    let file = path(dir, name);
    std::fs::write(&file, serde_json::to_vec(value).unwrap()).unwrap();
    file
}

fn read_json(file: &str) -> Json {
    serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap()
}

/// JSON with everything JSON has: nested objects and arrays, nulls, negative and large integers,
/// floats, unicode and awkward keys, mixed arrays.
fn rich_json() -> Json {
    json!({
        "name": "sfmt ✓",
        "count": -42,
        "big": u64::MAX,
        "ratio": 0.125,
        "whole_float": 2.0,
        "flags": [true, false],
        "nothing": null,
        "records": (0..40).map(|i| json!({
            "id": i,
            "label": format!("item {i}"),
            "score": if i % 3 == 0 { Json::Null } else { json!(i as f64 / 4.0) },
            "tags": (0..i % 4).map(|t| format!("t{t}")).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "mixed": [1, "two", 3.5, null, [4], {"five": 5}],
        "": {"a/b": {"~": []}},
    })
}

#[test]
fn json_round_trips_through_toc_dynd_and_msgpack_unchanged() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    for ext in ["toc", "dynd", "msgpack"] {
        let encoded = path(&dir, &format!("data.{ext}"));
        let back = path(&dir, &format!("back-{ext}.json"));
        let (stdout, _) = ok(&["convert", &input, &encoded]);
        assert!(stdout.contains("(json, "), "{stdout}");
        assert!(stdout.contains(&format!("({ext}, ")), "{stdout}");
        ok(&["convert", &encoded, &back]);
        assert_eq!(read_json(&back), rich_json(), "through {ext}");
    }
}

#[test]
fn json_round_trips_through_typed_column_where_it_has_the_kinds() {
    // typed-column has no map or null kinds: arrays, strings, numbers and booleans come back.
    let value = json!([
        [1, -2, 3],
        ["a", "bé", ""],
        [0.5, 2.0, -1e300],
        [true, false],
        [[[]], [[1]]],
        i64::MIN
    ]);
    let dir = dir();
    let input = write_json(&dir, "in.json", &value);
    let encoded = convert(&dir, &input, "data.tc");
    let back = convert(&dir, &encoded, "back.json");
    assert_eq!(read_json(&back), value);
    // The file is the library's encoding of the same value.
    let bytes = std::fs::read(&encoded).unwrap();
    assert_eq!(bytes, typed_column::to_bytes(&value).unwrap());
}

#[test]
fn converted_files_read_with_the_library() {
    let dir = dir();
    let value = rich_json();
    let input = write_json(&dir, "in.json", &value);
    let toc_file = convert(&dir, &input, "data.toc");
    let dynd_file = convert(&dir, &input, "data.dynd");
    let reader = toc::Reader::open(&toc_file).unwrap();
    assert_eq!(reader.get::<String>("records/3/label").unwrap(), "item 3");
    let array = dynd::from_array_bytes(&std::fs::read(&dynd_file).unwrap()).unwrap();
    assert_eq!(Json::from(array.value), value);
    assert!(array.ty.to_string().contains(
        "records: var * {id: int64, label: string, score: ?float64, tags: var * string}"
    ));
}

#[test]
fn formats_come_from_flags_then_extension_then_magic() {
    let dir = dir();
    let value = json!([["k", 1.5], [1, 2, 3]]);
    let input = write_json(&dir, "in.json", &value);
    // No extension: --to names the format, and reading finds it by its contents.
    for format in ["toc", "dynd", "typed-column", "msgpack"] {
        let encoded = path(&dir, &format!("blob-{format}"));
        ok(&["convert", &input, &encoded, "--to", format]);
        let (stdout, _) = ok(&["inspect", &encoded]);
        assert!(
            stdout.starts_with(&format!("format: {format}")),
            "{format}: {stdout}"
        );
        let back = path(&dir, &format!("back-{format}.json"));
        let (stdout, _) = ok(&["convert", &encoded, &back]);
        assert!(stdout.contains(&format!("({format}, ")), "{stdout}");
    }
    // --from wins over the extension.
    let misnamed = path(&dir, "really-json.msgpack");
    std::fs::copy(&input, &misnamed).unwrap();
    let back = path(&dir, "back.json");
    ok(&["convert", &misnamed, &back, "--from", "json"]);
    assert_eq!(read_json(&back), value);
}

#[test]
fn block_size_shapes_the_toc() {
    let dir = dir();
    let value = json!({"values": (0..2000).collect::<Vec<u32>>(), "name": "n"});
    let input = write_json(&dir, "in.json", &value);
    let small = path(&dir, "small.toc");
    let default = path(&dir, "default.toc");
    ok(&["convert", &input, &small, "--block-size", "64"]);
    ok(&["convert", &input, &default]);
    let blocks = |file: &str| {
        let reader = toc::Reader::open(file).unwrap();
        reader.toc_stats().unwrap().blocks
    };
    // About 5 000 bytes of integers: one span with T = 8192, many blocks with T = 64.
    assert_eq!(blocks(&default), 0);
    assert!(blocks(&small) > 50, "{}", blocks(&small));
    let back = convert(&dir, &small, "back.json");
    assert_eq!(read_json(&back), value);
}

#[test]
fn convert_replaces_the_output_atomically_and_leaves_it_on_error() {
    let dir = dir();
    let output = path(&dir, "out.toc");
    std::fs::write(&output, b"old").unwrap();
    let bad = path(&dir, "bad.json");
    std::fs::write(&bad, b"{\"a\": [1, 2,").unwrap();
    fails(&["convert", &bad, &output]);
    assert_eq!(std::fs::read(&output).unwrap(), b"old");
    let good = write_json(&dir, "good.json", &json!([1]));
    ok(&["convert", &good, &output]);
    assert_eq!(
        toc::from_bytes::<Vec<u8>>(&std::fs::read(&output).unwrap()).unwrap(),
        [1]
    );
    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.json", "good.json", "out.toc"]);
}

#[test]
fn inspect_toc_shows_header_statistics_and_tree() {
    let dir = dir();
    let value = json!({
        "series": (0..3000).map(|i| i as f64 * 0.5).collect::<Vec<_>>(),
        "records": (0..30).map(|i| json!({"id": i, "text": "x".repeat(300)})).collect::<Vec<_>>(),
        "small": {"a": 1},
    });
    let input = write_json(&dir, "in.json", &value);
    let file = convert(&dir, &input, "data.toc");
    let reader = toc::Reader::open(&file).unwrap();
    let stats = reader.toc_stats().unwrap();
    let (stdout, _) = ok(&["inspect", &file]);
    let size = std::fs::metadata(&file).unwrap().len();
    assert!(stdout.starts_with("format: toc"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "header: magic \"msglc-2024\", toc_start {} (= data bytes), toc_len {}",
            reader.data_len(),
            reader.toc_len()
        )),
        "{stdout}"
    );
    assert!(stdout.contains(&format!(
        "toc: {} nodes, depth {}, {} indexed maps/arrays, {} block lists with {} blocks, 0 nested files",
        stats.nodes, stats.depth, stats.indexed, stats.block_lists, stats.blocks
    )), "{stdout}");
    assert_eq!((stats.depth, stats.block_lists), (2, 1));
    assert!(size > 30_000);
    assert_contains(
        &stdout,
        &[
            "  /  map, 3 entries, indexed [0, ",
            "    records  array, 30 elements, indexed [",
            "    series  array, 3000 elements in ",
            "      block: ",
            "      0  map of 2 = {\"id\":0,\"text\":\"xxx",
            "      ... 22 more",
            "    small  map of 1 = {\"a\":1} [",
        ],
    );
}

#[test]
fn inspect_typed_column_marks_dense_columns_and_compressed_runs() {
    let dir = dir();
    let file = path(&dir, "m.tc");
    // ("label", [[1.5, 2.5], [3.5, 4.5]]): the trailing matrix is dense.
    let value = ("label", vec![vec![1.5f64, 2.5], vec![3.5, 4.5]]);
    std::fs::write(&file, typed_column::to_bytes(&value).unwrap()).unwrap();
    let stdout = inspect(&[&file], "format: typed-column\n");
    assert_contains(
        &stdout,
        &[
            "type array of 15 words (5 descriptions), data array of 37 bytes",
            "  #0 Column [1][2] 2 children from #1\n",
            "    #1 String [0][5] = \"label\"\n",
            "    #2 Column [5][2] dense: 2 elements stored from data byte 5\n",
            "      #3 Column' [2][2] compressed run: 2 columns of 2 elements each\n",
            "      #4 Float' [4][8] compressed run: 4 atoms of 8 bytes\n",
        ],
    );
}

#[test]
fn inspect_dynd_shows_the_datashape_and_a_summary() {
    let dir = dir();
    let input = write_json(
        &dir,
        "in.json",
        &json!([{"x": 1, "y": null}, {"x": 2, "y": "b"}]),
    );
    let file = convert(&dir, &input, "d.dynd");
    let stdout = inspect(&[&file], "format: dynd");
    assert_contains(
        &stdout,
        &[
            "datashape: var * {x: int64, y: ?string}\n",
            "value: list of 2 elements; 7 values in all (1 missing), depth 2\n",
        ],
    );
    assert!(
        stdout.contains(r#"preview: [{"x":1,"y":null},{"x":2,"y":"b"}]"#),
        "{stdout}"
    );
}

fn sample_vector() -> vector::Vector {
    let base = vector::Vector::from_values(
        vector::Type::Varchar,
        &[vector::Value::Varchar("hello".into()), vector::Value::Null],
    )
    .unwrap();
    vector::Vector::dictionary(base, vec![0, 1, 0], None).unwrap()
}

#[test]
fn inspect_vector_prints_its_display() {
    let dir = dir();
    let vector = sample_vector();
    for name in ["v.vec", "v-no-extension"] {
        let file = path(&dir, name);
        std::fs::write(&file, vector::to_bytes(&vector).unwrap()).unwrap();
        let stdout = inspect(&[&file], "format: VectorSaver, ");
        assert!(stdout.ends_with(&format!("\n{vector}\n")), "{stdout}");
        assert!(stdout.contains("[DICTIONARY VARCHAR: 3 elements, 1 nulls]"));
    }
}

/// The bytes of a golden file of `tests/golden/vector` (annotated hex).
fn velox_golden(name: &str) -> Vec<u8> {
    integration_tests::hex::read(Path::new("golden/vector").join(name))
}

#[test]
fn inspect_vector_shows_files_written_by_velox_in_velox_types() {
    let dir = dir();
    let cases = [
        (
            "flat_decimal_short.hex",
            "[FLAT DECIMAL(10, 2): 3 elements, 1 nulls]\n0: 1.23\n1: null\n2: -99999999.99\n",
        ),
        (
            "row_with_unknown_child.hex",
            "[FLAT ROW<c1:BIGINT,c2:UNKNOWN>: 3 elements, 0 nulls]\n0: {1, null}\n1: {2, null}\n2: {null, null}\n",
        ),
        (
            "constant_interval_day_time.hex",
            "[CONSTANT INTERVAL DAY TO SECOND: 2 elements, 0 nulls]\n0: 0 00:00:01.500\n1: 0 00:00:01.500\n",
        ),
    ];
    for (golden, expected) in cases {
        let file = path(&dir, golden);
        std::fs::write(&file, velox_golden(golden)).unwrap();
        let stdout = inspect(&[&file, "--from", "vector"], "format: VectorSaver, ");
        assert!(stdout.ends_with(expected), "{stdout}");
    }
}

#[test]
fn inspect_json_and_msgpack_summarise_the_value() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!({"a": [1, null]}));
    let stdout = inspect(&[&input], "format: json, 14 bytes\n");
    assert!(stdout.contains("value: map of 1; 4 values in all (1 null), depth 2\n"));
    let packed = convert(&dir, &input, "in.mpk");
    inspect(&[&packed], "format: msgpack, ");
}

#[test]
fn get_prints_one_path_as_json() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    let file = convert(&dir, &input, "data.toc");
    let get = |p: &str| -> Json { serde_json::from_str(&ok(&["get", &file, p]).0).unwrap() };
    assert_eq!(get("records/7"), rich_json()["records"][7]);
    assert_eq!(get("records/-1/id"), json!(39));
    assert_eq!(get("big"), json!(u64::MAX));
    assert_eq!(get("//a~1b/~0"), json!([]));
    assert_eq!(get("/"), json!({"a/b": {"~": []}}));
    assert_eq!(get(""), rich_json());
    let (stdout, stderr) = ok(&["get", &file, "mixed/5", "--pretty"]);
    assert_eq!(stdout, "{\n  \"five\": 5\n}\n");
    assert_eq!(stderr, "");
}

/// `read N of M bytes (P%; D distinct) in R reads, T ms` as (N, M, D).
fn parse_stats(line: &str) -> (u64, u64, u64) {
    let number = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        (words[0], words[2], words[4], words[7]),
        ("read", "of", "bytes", "distinct)"),
        "{line}"
    );
    assert!(line.ends_with(" ms"), "{line}");
    (number(words[1]), number(words[3]), number(words[6]))
}

#[test]
fn get_stats_show_a_leaf_read_from_a_small_fraction_of_the_file() {
    let dir = dir();
    let file = path(&dir, "big.toc");
    // About 5.4 MB of floats in 20 series: block lists, one 8 KB block read for a leaf.
    let series: std::collections::BTreeMap<String, Vec<f64>> = (0..20)
        .map(|s| {
            let values = (0..30_000).map(|i| (s * 30_000 + i) as f64 + 0.5).collect();
            (format!("s{s:02}"), values)
        })
        .collect();
    toc::write_file(&file, &series).unwrap();
    let size = std::fs::metadata(&file).unwrap().len();
    let (stdout, stderr) = ok(&["get", &file, "s13/29999", "--stats"]);
    assert_eq!(stdout, "419999.5\n");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let (read, total, distinct) = parse_stats(stderr.trim_end());
    assert_eq!(total, size);
    assert!(read * 100 < total, "read {read} of {total}");
    // At least the header and the TOC were read.
    let reader = toc::Reader::open(&file).unwrap();
    assert!(distinct >= 50 + reader.toc_len(), "{distinct}");
    assert!(distinct <= read);
}

#[test]
fn compare_prints_a_row_per_format_for_the_bundled_sample() {
    let (stdout, _) = ok(&["compare", "--runs", "1"]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout}");
    assert!(lines[0].starts_with("the bundled sample"), "{stdout}");
    let formats: Vec<&str> = lines[2..]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(formats, ["json", "msgpack", "toc", "dynd", "typed-column"]);
    assert!(lines[2].contains(" 1.000 "), "{stdout}");
    for line in &lines[2..6] {
        assert!(line.ends_with("  exact"), "{line}");
    }
    assert!(
        lines[6].ends_with("  cannot hold it: map of 3 entries at / has no typed-column form"),
        "{stdout}"
    );
}

#[test]
fn compare_reads_a_given_file() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!([[1, 2], [3, 4]]));
    let (stdout, _) = ok(&["compare", &input, "--runs", "2"]);
    assert!(stdout.starts_with(&format!("{input}; median of 2 runs")));
    let json_row = stdout.lines().nth(2).unwrap();
    // `[[1,2],[3,4]]` is 13 bytes of JSON.
    assert_eq!(json_row.split_whitespace().nth(1), Some("13"), "{stdout}");
    // Arrays of integers round-trip exactly through every format, typed-column included.
    assert_eq!(stdout.matches("  exact").count(), 5, "{stdout}");
}

// ---- bad input: non-zero exit and one clear line on stderr ----

#[test]
fn a_missing_file_is_one_line() {
    let dir = dir();
    let missing = path(&dir, "missing.json");
    let out = path(&dir, "out.toc");
    for args in [
        vec!["convert", missing.as_str(), out.as_str()],
        vec!["inspect", missing.as_str()],
        vec!["get", missing.as_str(), "a"],
        vec!["compare", missing.as_str()],
    ] {
        let line = fails(&args);
        assert!(
            line.starts_with(&format!("error: cannot open {missing}: ")),
            "{line}"
        );
    }
    assert!(!Path::new(&out).exists());
}

#[test]
fn an_unknown_format_is_one_line() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &json!(1));
    let out = path(&dir, "out.yaml");
    let line = fails(&["convert", &input, &out]);
    assert!(
        line.contains("cannot tell the output format from"),
        "{line}"
    );
    for args in [
        vec!["convert", input.as_str(), "x.toc", "--from", "yaml"],
        vec!["convert", input.as_str(), "x", "--to", "yaml"],
        vec!["inspect", input.as_str(), "--from", "yaml"],
    ] {
        let line = fails(&args);
        assert_eq!(
            line,
            "error: unknown format `yaml` (known: json, msgpack, toc, dynd, typed-column, vector)"
        );
    }
    // Contents of no format, without an extension.
    let noise = path(&dir, "noise");
    std::fs::write(&noise, [0xc1, 0xff, 0x00, 0x13]).unwrap();
    let line = fails(&["inspect", &noise]);
    assert!(
        line.starts_with("error: cannot detect the format of "),
        "{line}"
    );
    // Vectors are inspected, not converted.
    let vec_file = path(&dir, "v.vec");
    std::fs::write(&vec_file, vector::to_bytes(&sample_vector()).unwrap()).unwrap();
    fails(&["convert", &vec_file, &path(&dir, "v.json")]);
    fails(&["convert", &input, &path(&dir, "x.vec")]);
}

#[test]
fn invalid_json_is_one_line_with_its_position() {
    let dir = dir();
    let bad = path(&dir, "bad.json");
    std::fs::write(&bad, "{\"a\": [1, 2,\n  oops]}").unwrap();
    let line = fails(&["convert", &bad, &path(&dir, "x.toc")]);
    assert!(
        line.starts_with(&format!("error: cannot read {bad} as json: ")),
        "{line}"
    );
    assert!(line.contains("line 2 column 3"), "{line}");
    fails(&["inspect", &bad]);
    fails(&["compare", &bad]);
}

/// A byte of a file changed: the changed file's name stem, the byte's index (negative: counted
/// from the end) and its new value.
type Change = (&'static str, isize, u8);

/// A valid file of each format, cut short or with a byte changed.
fn corrupted_files(dir: &tempfile::TempDir) -> Vec<(String, &'static str)> {
    let value = json!({"list": (0..50).collect::<Vec<u32>>(), "name": "corrupt me"});
    let mut files = Vec::new();
    let mut add = |name: &str, bytes: &[u8], format| {
        let file = path(dir, name);
        std::fs::write(&file, bytes).unwrap();
        files.push((file, format));
    };
    // Each format's file, its last `cut` bytes cut off, and a change `(at, byte)` of it, at
    // a negative `at` counted from the end (`None`: a byte appended).
    let toc_bytes = toc::to_bytes(&value).unwrap();
    let dynd_bytes = dynd::to_array_bytes(&vec![1u32, 2, 3]).unwrap();
    let tc_bytes = typed_column::to_bytes(&value).unwrap();
    let msgpack_bytes = rmp_serde::to_vec(&value).unwrap();
    let vector_bytes = vector::to_bytes(&sample_vector()).unwrap();
    let cases: [(&str, &[u8], usize, Option<Change>); 5] = [
        // The reserved MessagePack marker, inside the TOC.
        ("toc", &toc_bytes, 3, Some(("marker", -1, 0xc1))),
        ("dynd", &dynd_bytes, 1, Some(("type", 3, b'#'))),
        // Kind 9 does not exist.
        ("typed-column", &tc_bytes, 2, Some(("kind", 8, 9))),
        ("msgpack", &msgpack_bytes, 2, None),
        ("vector", &vector_bytes, 1, None),
    ];
    for (format, bytes, cut, change) in cases {
        let extension = match format {
            "typed-column" => "tc",
            "vector" => "vec",
            other => other,
        };
        add(
            &format!("cut.{extension}"),
            &bytes[..bytes.len() - cut],
            format,
        );
        let mut changed = bytes.to_vec();
        let name = match change {
            Some((name, at, byte)) => {
                let at = if at < 0 {
                    changed.len() - at.unsigned_abs()
                } else {
                    at as usize
                };
                changed[at] = byte;
                name
            }
            None if format == "msgpack" => {
                changed.push(0x01);
                "trailing"
            }
            None => continue,
        };
        add(&format!("{name}.{extension}"), &changed, format);
    }
    files
}

#[test]
fn a_corrupted_file_of_each_format_is_one_line() {
    let dir = dir();
    let out = path(&dir, "out.json");
    for (file, format) in corrupted_files(&dir) {
        let expected = format!("error: cannot read {file} as {format}: ");
        let line = fails(&["inspect", &file]);
        assert!(line.starts_with(&expected), "{line}");
        assert!(
            line.contains(" at byte ") || line.contains("type word"),
            "{line}"
        );
        if format != "vector" {
            let line = fails(&["convert", &file, &out]);
            assert!(line.starts_with(&expected), "{line}");
        }
        if format == "toc" {
            let line = fails(&["get", &file, "list/3"]);
            assert!(
                line.starts_with(&expected) || line.contains("path `list/3`"),
                "{line}"
            );
        }
    }
    assert!(!Path::new(&out).exists());
}

#[test]
fn a_path_missing_from_a_toc_file_is_one_line() {
    let dir = dir();
    let input = write_json(&dir, "in.json", &rich_json());
    let file = convert(&dir, &input, "data.toc");
    for (path, missing) in [
        ("nope", "no child `/nope`"),
        ("records/40", "no child `/40`"),
        ("records/x", "no child `/x`"),
        ("name/0", "no child `/0`"),
    ] {
        let line = fails(&["get", &file, path]);
        assert_eq!(
            line,
            format!("error: cannot read path `{path}` of {file}: path not found: {missing}")
        );
    }
    let line = fails(&["get", &file, "a~2"]);
    assert!(line.contains("`~` must be followed by 0 or 1"), "{line}");
    // get reads toc files only.
    let line = fails(&["get", &input, "name"]);
    assert!(line.contains("get reads toc files"), "{line}");
}

#[test]
fn combined_toc_files_show_their_nested_files_and_read_through_them() {
    let dir = dir();
    let a = toc::to_bytes(&json!({"x": [1, 2, 3]})).unwrap();
    let b = toc::to_bytes(&json!("hello")).unwrap();
    let file = path(&dir, "combined.toc");
    std::fs::write(&file, toc::combine_map(&[("a", &a), ("b", &b)]).unwrap()).unwrap();
    let (stdout, _) = ok(&["inspect", &file]);
    let nested_tocs = [&a, &b].map(|f| toc::Reader::from_slice(f).unwrap().toc_len());
    assert!(
        stdout.contains(&format!(
            ", 2 nested files (their TOCs: {} bytes, inside the data)\n",
            nested_tocs[0] + nested_tocs[1]
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("  /  map, 2 entries, indexed (no span)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "    b  string = \"hello\" [0, 6), nested MessagePack file with data at byte {}\n",
            50 + a.len() + 50
        )),
        "{stdout}"
    );
    assert_eq!(ok(&["get", &file, "a/x/2"]).0, "3\n");
    let back = convert(&dir, &file, "back.json");
    assert_eq!(
        read_json(&back),
        json!({"a": {"x": [1, 2, 3]}, "b": "hello"})
    );
}

#[test]
fn inspect_depth_and_limit_bound_the_tree() {
    let dir = dir();
    let value = json!((0..20)
        .map(|i| json!({"id": i, "pad": "p".repeat(500)}))
        .collect::<Vec<_>>());
    let input = write_json(&dir, "in.json", &value);
    let file = convert(&dir, &input, "data.toc");
    let (stdout, _) = ok(&["inspect", &file, "--depth", "0"]);
    let tree = stdout.split_once("tree (").unwrap().1;
    assert_eq!(tree.lines().count(), 2, "{stdout}");
    let (stdout, _) = ok(&["inspect", &file, "--limit", "2"]);
    let tree = stdout.split_once("tree (").unwrap().1;
    assert_eq!(tree.lines().count(), 5, "{stdout}");
    assert!(tree.ends_with("    ... 18 more\n"), "{stdout}");
}

#[test]
fn nesting_past_the_limits_is_one_line() {
    let dir = dir();
    let deep = path(&dir, "deep.json");
    std::fs::write(&deep, format!("{}{}", "[".repeat(300), "]".repeat(300))).unwrap();
    let line = fails(&["convert", &deep, &path(&dir, "x.toc")]);
    assert!(line.contains("depth limit"), "{line}");
    // JSON itself nests at most 1024 deep (tagged maps take three levels each).
    std::fs::write(&deep, format!("{}{}", "[".repeat(1025), "]".repeat(1025))).unwrap();
    let line = fails(&["convert", &deep, &path(&dir, "x.msgpack")]);
    assert!(
        line.ends_with("JSON nested deeper than 1024 levels at /0/0/0/0/0/0/0/0/...1008 more.../0/0/0/0/0/0/0/0"),
        "{line}"
    );
    // MessagePack nests deeper than JSON allows; the toc writer stops at 128 levels.
    let packed = path(&dir, "deep.msgpack");
    let mut bytes = vec![0x91; 500];
    bytes.push(0x01);
    std::fs::write(&packed, bytes).unwrap();
    let line = fails(&["convert", &packed, &path(&dir, "x.toc")]);
    assert!(line.contains("depth limit"), "{line}");
    let line = fails(&["convert", &packed, &path(&dir, "x.dynd")]);
    assert!(line.starts_with("error: cannot write "), "{line}");
}

#[test]
fn cbor_toc_files_from_msglc_are_inspected_and_read_by_path() {
    // msglc (provisioned by integration-tests) writes a CBOR file with integer, string-number
    // and empty keys.
    let dir = dir();
    let file = path(&dir, "cbor.toc");
    let script = "import sys, msglc\n\
        from msglc.codec import CBORCodec\n\
        obj = {1: 'int one', '1': 'string one', '': [1.5, float('nan'), b'\\x00'], 'big': list(range(3000))}\n\
        msglc.dump(sys.argv[1], obj, packer=CBORCodec())\n";
    let status = std::process::Command::new(integration_tests::python_peers::python())
        .args(["-c", script, &file])
        .status()
        .unwrap();
    assert!(status.success(), "msglc could not write the CBOR file");
    let (stdout, _) = ok(&["inspect", &file]);
    assert!(
        stdout.starts_with("format: toc (CBOR with a table of contents, msglc)\n"),
        "{stdout}"
    );
    let get = |p: &str| ok(&["get", &file, p]).0;
    assert_eq!(get("/1"), "\"int one\"\n");
    assert_eq!(get("/'1'"), "\"string one\"\n");
    assert_eq!(get("/big/-1"), "2999\n");
    assert_eq!(get("/big/1234"), "1234\n");
    // NaN has no JSON form: sfmt prints it as it prints NaN from MessagePack files.
    let empty_key = get("/");
    assert!(empty_key.starts_with("[1.5,"), "{empty_key}");
}

/// Asserts that `stdout` contains every one of `parts`, showing it all when one is missing.
fn assert_contains(stdout: &str, parts: &[&str]) {
    for part in parts {
        assert!(stdout.contains(part), "{part:?} missing from:\n{stdout}");
    }
}
