//! Files that msglc's peer scripts write with a manifest (`tests/interop/msglc_common.py`,
//! `add_expectations`): each case names its file, its whole value and sample paths, each
//! expected value as MessagePack that msgspec wrote. Shared by `toc_interop` and
//! `toc_cbor_interop` through `#[path]`.

use std::path::Path as FsPath;

use serde_formats::toc::{self, Path, Reader, Segment, Value};

/// The cases of `dir/manifest.json`.
pub fn manifest(dir: &FsPath) -> Vec<serde_json::Value> {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The value of the MessagePack file `dir/<name>`.
pub fn msgpack_file(dir: &FsPath, name: &serde_json::Value) -> Value {
    rmp_serde::from_slice(&std::fs::read(dir.join(name.as_str().unwrap())).unwrap()).unwrap()
}

/// A manifest path, a JSON list of keys (strings) and indexes (numbers), as segments.
pub fn segments(json: &serde_json::Value) -> Vec<Segment> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|s| match s {
            serde_json::Value::String(k) => Segment::Key(k.clone()),
            serde_json::Value::Number(n) => Segment::Index(n.as_i64().unwrap()),
            _ => panic!("bad path segment {s}"),
        })
        .collect()
}

/// Reads `case`'s file with `Reader::open`, `Reader::from_slice` and `toc::from_bytes`: each
/// gives the whole value msgspec wrote, and both readers give every sample path's expected
/// value. Returns the file's reader and its whole value for the caller's own checks.
pub fn check_case(
    dir: &FsPath,
    case: &serde_json::Value,
) -> (Reader<toc::IoSource<std::fs::File>>, Value) {
    let name = case["name"].as_str().unwrap();
    let file = dir.join(case["file"].as_str().unwrap());
    let whole = msgpack_file(dir, &case["plain"]);
    let bytes = std::fs::read(&file).unwrap();
    let reader = Reader::open(&file).unwrap();
    let slice_reader = Reader::from_slice(&bytes).unwrap();
    assert_eq!(reader.decode::<Value>().unwrap(), whole, "{name}");
    assert_eq!(
        slice_reader.decode::<Value>().unwrap(),
        whole,
        "{name}: from_slice"
    );
    assert_eq!(
        toc::from_bytes::<Value>(&bytes).unwrap(),
        whole,
        "{name}: from_bytes"
    );
    let paths = case["paths"].as_array().unwrap();
    for (path, expected) in paths.iter().zip(case["expected"].as_array().unwrap()) {
        let expected = msgpack_file(dir, expected);
        let path = Path::from_segments(segments(path));
        assert_eq!(
            reader.get::<Value>(&path).unwrap(),
            expected,
            "{name} {path}"
        );
        assert_eq!(
            slice_reader.get::<Value>(&path).unwrap(),
            expected,
            "{name} {path}"
        );
    }
    (reader, whole)
}
