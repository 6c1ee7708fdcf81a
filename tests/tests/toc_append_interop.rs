//! Appending to combined files, against the reference implementation msglc 261017
//! (`tests/interop/toc_append_msglc.py`), in both directions:
//!
//! - we append (files, values, a combined file; several times, so the file carries dead TOCs)
//!   -> msglc's `LazyReader` reads the whole value and every member alone as expected, and
//!   msglc's own `append` then works on our file;
//! - msglc combines and appends (files and values) -> our reader reads every member, and our
//!   [`toc::Appender`] appends to msglc's file, which msglc then reads;
//! - msglc's empty combined file (`{"t": nil}`) takes our appends.
//!
//! The crash tests (a writer killed midway, read by both) are in
//! `serde-formats/tests/sfmt_append.rs`, next to the `sfmt` binary they kill.

use std::path::{Path, PathBuf};

use integration_tests::python_peers;
use serde_formats::toc::{self, Appender, Reader, Value};

fn peer(args: &[&Path]) {
    python_peers::run_script("toc_append_msglc.py", args);
}

fn p(text: &str) -> &Path {
    Path::new(text)
}

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn uints(values: impl IntoIterator<Item = u64>) -> Value {
    Value::Array(values.into_iter().map(Value::UInt).collect())
}

fn dict(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(entries.into_iter().map(|(k, v)| (s(k), v)).collect())
}

/// A value with a TOC of its own (over the 8192-byte block size): a dict of lists and floats.
fn record(seed: u64) -> Value {
    dict(vec![
        ("id", Value::UInt(seed)),
        ("xs", uints((0..3000).map(|i| i * seed))),
        ("f", Value::F64(seed as f64 / 3.0)),
        ("name", s(&format!("record {seed}"))),
    ])
}

/// The whole value and every member, read by our reader, each checked against `expected`.
fn we_read(path: &Path, expected: &Value) {
    let reader = Reader::open(path).unwrap();
    assert_eq!(&reader.get::<Value>("").unwrap(), expected);
    match expected {
        Value::Map(entries) => {
            for (key, value) in entries {
                let Value::Str(key) = key else { panic!() };
                assert_eq!(&reader.get::<Value>(key.as_str()).unwrap(), value, "{key}");
            }
        }
        Value::Array(items) => {
            for (i, value) in items.iter().enumerate() {
                assert_eq!(&reader.get::<Value>(i.to_string().as_str()).unwrap(), value);
            }
        }
        _ => panic!("not a combined value"),
    }
}

/// msglc reads the whole value and every member alone; the whole value must be `expected`.
fn msglc_reads(path: &Path, expected: &Value) {
    peer(&[p("read"), path]);
    let out = std::fs::read(format!("{}.msglc.msgpack", path.display())).unwrap();
    let value: Value = rmp_serde::from_slice(&out).unwrap();
    assert_eq!(&value, expected, "msglc reads {}", path.display());
}

fn write_toc(dir: &Path, name: &str, value: &Value) -> PathBuf {
    let path = dir.join(name);
    toc::write_file(&path, value).unwrap();
    path
}

#[test]
fn msglc_reads_what_we_append_and_appends_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Dict form: combined by us, then three appends of files and values.
    let a = toc::to_bytes(&record(1)).unwrap();
    let b = toc::to_bytes(&s("bee")).unwrap();
    let path = d.join("ours_dict.toc");
    std::fs::write(&path, toc::combine_map(&[("a", &a), ("b", &b)]).unwrap()).unwrap();
    toc::append_map(&path, &[("c", &toc::to_bytes(&record(2)).unwrap())]).unwrap();
    toc::append_value(&path, Some("d"), &record(3)).unwrap();
    let inner = toc::combine_list(&[&a, &b]).unwrap();
    let mut appender = Appender::open(&path).unwrap();
    appender.add_file_from(Some("nested"), &inner[..]).unwrap();
    appender.add_value(Some("e"), &uints(0..10)).unwrap();
    appender.commit().unwrap();
    let mut expected = dict(vec![
        ("a", record(1)),
        ("b", s("bee")),
        ("c", record(2)),
        ("d", record(3)),
        ("nested", Value::Array(vec![record(1), s("bee")])),
        ("e", uints(0..10)),
    ]);
    we_read(&path, &expected);
    msglc_reads(&path, &expected);

    // msglc appends to our file (its dead TOCs included); both read the result.
    let f = write_toc(d, "f.toc", &record(4));
    peer(&[p("append"), &path, Path::new(&format!("f={}", f.display()))]);
    let Value::Map(entries) = &mut expected else {
        unreachable!()
    };
    entries.push((s("f"), record(4)));
    we_read(&path, &expected);
    msglc_reads(&path, &expected);

    // List form.
    let path = d.join("ours_list.toc");
    std::fs::write(&path, toc::combine_list(&[&a]).unwrap()).unwrap();
    toc::append_list(&path, &[&b, &a]).unwrap();
    toc::append_value(&path, None, &record(5)).unwrap();
    let expected = Value::Array(vec![record(1), s("bee"), record(1), record(5)]);
    we_read(&path, &expected);
    msglc_reads(&path, &expected);
}

#[test]
fn we_read_what_msglc_appends_and_append_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = write_toc(d, "a.toc", &record(1));
    let b = write_toc(d, "b.toc", &uints([7, 8]));
    let value = d.join("value.msgpack");
    std::fs::write(&value, rmp_serde::to_vec(&record(9)).unwrap()).unwrap();
    let named = |name: &str, path: &Path| PathBuf::from(format!("{name}={}", path.display()));

    // Dict form, all by msglc: combine, append a file, append a value.
    let path = d.join("msglc_dict.toc");
    peer(&[p("combine"), &path, &named("a", &a)]);
    peer(&[p("append"), &path, &named("b", &b)]);
    peer(&[p("append-value"), &path, p("v"), &value]);
    let mut expected = dict(vec![
        ("a", record(1)),
        ("b", uints([7, 8])),
        ("v", record(9)),
    ]);
    we_read(&path, &expected);
    // Our append to msglc's file; msglc reads it.
    toc::append_value(&path, Some("ours"), &record(10)).unwrap();
    let Value::Map(entries) = &mut expected else {
        unreachable!()
    };
    entries.push((s("ours"), record(10)));
    we_read(&path, &expected);
    msglc_reads(&path, &expected);
    // Names must stay unique across both writers.
    assert!(toc::append_value(&path, Some("v"), &1u8).is_err());

    // List form.
    let path = d.join("msglc_list.toc");
    peer(&[p("combine"), &path, &a]);
    peer(&[p("append"), &path, &b, &a]);
    peer(&[p("append-value"), &path, p("-"), &value]);
    toc::append_list(&path, &[&toc::to_bytes(&s("tail")).unwrap()]).unwrap();
    let expected = Value::Array(vec![
        record(1),
        uints([7, 8]),
        record(1),
        record(9),
        s("tail"),
    ]);
    we_read(&path, &expected);
    msglc_reads(&path, &expected);
}

#[test]
fn msglcs_empty_combined_file_takes_our_appends() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.toc");
    peer(&[p("combine"), &path]);
    toc::append_value(&path, None, &record(1)).unwrap();
    toc::append_value(&path, None, &s("two")).unwrap();
    let expected = Value::Array(vec![record(1), s("two")]);
    we_read(&path, &expected);
    msglc_reads(&path, &expected);
}
