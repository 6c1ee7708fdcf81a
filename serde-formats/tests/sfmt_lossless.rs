//! Acceptance tests of "nothing lost silently" for `sfmt convert`.
//!
//! 1. msglc writes files at test time (`tests/interop/sfmt_lossless.py`): keys of every kind,
//!    colliding keys `{1: "a", "1": "b"}`, bins, NaN and infinities, empty containers, combined
//!    files; and the `msgpack` package writes MessagePack with float32, extensions and
//!    timestamps. Each goes `toc -> msgpack -> toc` and `toc -> json -> toc` through sfmt, and
//!    msglc must read every result type-strictly equal to the original, key order included. A
//!    plain file comes back byte for byte (our writer is msglc's); raw MessagePack goes through
//!    toc and JSON back to the same bytes; and sfmt's toc of a JSON file is the file msglc writes
//!    from `json.load` of it.
//! 2. A JSON corpus goes `json -> each format -> json`: the same JSON text back, or exit status
//!    1 with one line naming the value and its path.

use std::path::Path;
use std::process::Command;

use integration_tests::python_peers;
use serde_json::{json, Value as Json};

/// The toc codecs msglc writes the originals with.
const CODECS: &[&str] = &["msgpack", "cbor"];

fn peer(args: &[&str]) {
    python_peers::run_script("sfmt_lossless.py", args);
}

/// `sfmt convert IN OUT --to FORMAT`: success, or the single stderr line of a refusal.
fn convert(input: &Path, output: &Path, to: &str) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_sfmt"))
        .arg("convert")
        .arg(input)
        .arg(output)
        .args(["--to", to])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    match out.status.code() {
        Some(0) => Ok(()),
        Some(1) => {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.starts_with("error: "), "{stderr}");
            assert!(
                !output.exists(),
                "a refused conversion left {}",
                output.display()
            );
            Err(stderr.trim_end().to_owned())
        }
        other => panic!("sfmt convert exited with {other:?}: {stderr}"),
    }
}

fn converted(input: &Path, output: &Path, to: &str) {
    if let Err(line) = convert(input, output, to) {
        panic!("{} -> {to}: {line}", input.display());
    }
}

#[test]
fn msglc_files_survive_toc_msgpack_toc_and_toc_json_toc() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut results = Vec::new();
    let mut raw = 0;
    for codec in CODECS {
        peer(&["write", d.to_str().unwrap(), codec]);
        let manifest: Vec<Json> =
            serde_json::from_slice(&std::fs::read(d.join("manifest.json")).unwrap()).unwrap();
        for case in manifest {
            let name = format!("{}-{codec}", case["name"].as_str().unwrap());
            let original = d.join(case["file"].as_str().unwrap());
            let original_bytes = std::fs::read(&original).unwrap();
            if case["codec"] == "raw" {
                // Another writer's MessagePack: through toc and through JSON to the same bytes.
                raw += 1;
                for via in ["toc", "json"] {
                    let middle = d.join(format!("{name}.via.{via}"));
                    let back = d.join(format!("{name}.via-{via}.msgpack"));
                    converted(&original, &middle, via);
                    converted(&middle, &back, "msgpack");
                    assert!(
                        std::fs::read(&back).unwrap() == original_bytes,
                        "{name}: msgpack -> {via} -> msgpack changed the bytes"
                    );
                }
                continue;
            }
            let mut case_results = Vec::new();
            if let Some(json_file) = case["json"].as_str() {
                // sfmt's toc of a JSON file is msglc's, key order and floats included.
                let ours = d.join(format!("{name}.from-json.toc"));
                converted(&d.join(json_file), &ours, "toc");
                assert!(
                    std::fs::read(&ours).unwrap() == original_bytes,
                    "{name}: json -> toc is not msglc's file of the same document"
                );
                case_results.push(ours.file_name().unwrap().to_str().unwrap().to_owned());
            }
            for via in ["msgpack", "json"] {
                let middle = d.join(format!("{name}.{via}"));
                let back = d.join(format!("{name}.via-{via}.toc"));
                converted(&original, &middle, via);
                converted(&middle, &back, "toc");
                if *codec == "msgpack" && case["plain"] == true {
                    assert!(
                        std::fs::read(&back).unwrap() == original_bytes,
                        "{name}: toc -> {via} -> toc is not msglc's file byte for byte"
                    );
                }
                case_results.push(back.file_name().unwrap().to_str().unwrap().to_owned());
            }
            results.push(json!({
                "file": case["file"],
                "codec": case["codec"],
                "results": case_results,
            }));
        }
    }
    assert!(results.len() >= 10 * CODECS.len(), "{results:?}");
    assert_eq!(raw, 2);
    std::fs::write(
        d.join("results.json"),
        serde_json::to_vec(&Json::Array(results)).unwrap(),
    )
    .unwrap();
    peer(&["check", d.to_str().unwrap()]);
}

/// The corpus: maps, nulls, nested empties, unicode, 128-bit integers, floats.
const CORPUS: &[(&str, &str)] = &[
    (
        "records",
        r#"[{"id":1,"name":"a","tags":["x"],"score":0.5},{"id":2,"name":"b","tags":[],"score":null}]"#,
    ),
    (
        "key_order",
        r#"{"zebra":1,"apple":{"y":[],"x":{}},"mango":null}"#,
    ),
    (
        "nested_empties",
        r#"[[],{},[[]],[{}],{"a":[]},{"b":{}},[[],[[]]]]"#,
    ),
    ("nulls", r#"[null,[null],{"a":null},[1,null,3]]"#),
    (
        "unicode",
        r#"{"é":"☃","😀":"\u0000\u001f\"\\","日本":["ü","\ud83d\ude00"]}"#,
    ),
    (
        "int128",
        r#"[340282366920938463463374607431768211455,-170141183460469231731687303715884105728,18446744073709551616,-9223372036854775809]"#,
    ),
    (
        "int64",
        r#"[18446744073709551615,-9223372036854775808,0,-1]"#,
    ),
    ("floats", r#"[0.1,1.0,-0.0,1e300,5e-324,2.5]"#),
    ("mixed_array", r#"[1,"two",3.0,[4],{"five":5},true,null]"#),
    ("strings", r#"["a",["b","c"],[["d"]]]"#),
    (
        "tagged",
        r#"{"bin":{"$bin":"AAEC"},"f32":{"$f32":0.1},"nan":{"$f64":"NaN"},"ext":{"$ext":[-1,"AAAAAQ=="]},"map":{"$map":[[1,"a"],["1","b"]]}}"#,
    ),
    ("escaped_tag", r#"{"$map":[["$bin","not a bin"]]}"#),
];

/// What each format cannot hold in the corpus: the refusal after `cannot write FILE as
/// FORMAT: `. Everything else must come back identical.
fn expected_refusal(case: &str, format: &str) -> Option<&'static str> {
    Some(match (case, format) {
        ("records", "typed-column") => "map of 4 entries at /0 has no typed-column form",
        ("key_order" | "unicode", "typed-column") => {
            "map of 3 entries at / has no typed-column form"
        }
        ("nested_empties", "typed-column") => "map of 0 entries at /1 has no typed-column form",
        ("nulls", "typed-column") => "null at /0 has no typed-column form",
        ("int128", "msgpack") => {
            "integer 340282366920938463463374607431768211455 at /0 has no msgpack form"
        }
        ("int128", "toc") => {
            "integer 340282366920938463463374607431768211455 at /0 has no toc form"
        }
        ("int128", "typed-column") => {
            "integer 340282366920938463463374607431768211455 at /0 has no typed-column form"
        }
        ("int64", "typed-column") => "integer 18446744073709551615 at /0 has no typed-column form",
        ("mixed_array", "typed-column") => "map of 1 entry at /4 has no typed-column form",
        ("tagged", "typed-column") => "map of 5 entries at / has no typed-column form",
        ("tagged", "dynd") => "ext of type -1 (4 bytes) at /ext has no dynd form",
        ("escaped_tag", "typed-column") => "map of 1 entry at / has no typed-column form",
        _ => return None,
    })
}

#[test]
fn json_round_trips_through_every_format_or_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut counts = (0, 0);
    for (case, text) in CORPUS {
        let input = dir.path().join(format!("{case}.json"));
        std::fs::write(&input, text).unwrap();
        // The JSON writer's own text of the case: compact, shortest floats.
        let canonical = dir.path().join(format!("{case}.canonical.json"));
        converted(&input, &canonical, "json");
        let canonical_text = std::fs::read_to_string(&canonical).unwrap();
        for format in ["msgpack", "toc", "dynd", "typed-column"] {
            let encoded = dir.path().join(format!("{case}.{format}"));
            let back = dir.path().join(format!("{case}.{format}.json"));
            match convert(&input, &encoded, format) {
                Ok(()) => {
                    counts.0 += 1;
                    assert_eq!(expected_refusal(case, format), None, "{case} -> {format}");
                    converted(&encoded, &back, "json");
                    assert_eq!(
                        std::fs::read_to_string(&back).unwrap(),
                        canonical_text,
                        "{case}: json -> {format} -> json"
                    );
                }
                Err(line) => {
                    counts.1 += 1;
                    let expected = expected_refusal(case, format)
                        .unwrap_or_else(|| panic!("{case} -> {format} refused: {line}"));
                    assert_eq!(
                        line,
                        format!(
                            "error: cannot write {} as {format}: {expected}",
                            encoded.display()
                        )
                    );
                }
            }
        }
    }
    // Every case converts somewhere, and the refusals are the documented ones.
    assert_eq!(counts, (35, 13), "(converted, refused)");
}

#[test]
fn typed_column_refuses_maps_and_nulls_instead_of_writing_lists() {
    let dir = tempfile::tempdir().unwrap();
    let encoded = dir.path().join("data.typed");
    for (value, line) in [
        (
            json!({"a": 1}),
            "map of 1 entry at / has no typed-column form",
        ),
        (
            json!([1, [2, null]]),
            "null at /1/1 has no typed-column form",
        ),
        (
            json!([1, 9223372036854775808u64]),
            "integer 9223372036854775808 at /1 has no typed-column form",
        ),
    ] {
        let input = dir.path().join("in.json");
        std::fs::write(&input, value.to_string()).unwrap();
        let error = convert(&input, &encoded, "typed-column").unwrap_err();
        assert_eq!(
            error,
            format!(
                "error: cannot write {} as typed-column: {line}",
                encoded.display()
            )
        );
    }
}

#[test]
fn compare_and_get_keep_what_json_has_no_word_for() {
    let dir = tempfile::tempdir().unwrap();
    // Hand-encoded from the MessagePack specification: {1: "a", "1": "b", "v": [float32 0.1,
    // bin 00 01]}.
    let packed = [
        0x83, 0x01, 0xa1, b'a', 0xa1, b'1', 0xa1, b'b', 0xa1, b'v', 0x92, 0xca, 0x3d, 0xcc, 0xcc,
        0xcd, 0xc4, 0x02, 0x00, 0x01,
    ];
    let input = dir.path().join("in.msgpack");
    std::fs::write(&input, packed).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sfmt"))
        .args(["compare", "--runs", "1"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<(&str, &str)> = stdout
        .lines()
        .skip(2)
        .map(|line| {
            let format = line.split_whitespace().next().unwrap();
            (
                format,
                line.split_once("  ")
                    .map_or("", |(_, rest)| rest.trim_start()),
            )
        })
        .collect();
    assert_eq!(rows.len(), 5, "{stdout}");
    for (format, line) in &rows[..3] {
        assert!(line.ends_with("  exact"), "{format}: {stdout}");
    }
    assert!(
        rows[3].1.ends_with(
            "cannot hold it: map of 3 entries at / has a key that is not a string: dynd struct \
             fields are names"
        ),
        "{stdout}"
    );
    assert!(
        rows[4]
            .1
            .ends_with("cannot hold it: map of 3 entries at / has no typed-column form"),
        "{stdout}"
    );
    // msgpack -> toc, then `get` prints the path in file order with the tagged forms.
    let file = dir.path().join("data.toc");
    converted(&input, &file, "toc");
    let get = |path: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_sfmt"))
            .arg("get")
            .arg(&file)
            .arg(path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(get("v"), "[{\"$f32\":0.1},{\"$bin\":\"AAE=\"}]\n");
    assert_eq!(
        get(""),
        format!(
            "{}\n",
            r#"{"$map":[[1,"a"],["1","b"],["v",[{"$f32":0.1},{"$bin":"AAE="}]]]}"#
        )
    );
    // And the JSON file reads back to the same MessagePack bytes.
    let json_file = dir.path().join("data.json");
    let back = dir.path().join("back.msgpack");
    converted(&file, &json_file, "json");
    converted(&json_file, &back, "msgpack");
    assert_eq!(std::fs::read(&back).unwrap(), packed);
}
