//! The TOC reader on arbitrary bytes: every entry point must return, never panic, and a value
//! it reads must write back and read back equal. `Vec<f64>` (the `f64` shortcut) reads what
//! `Value` reads.
#![no_main]

use common::walk_nodes;
use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Reader, Value};

#[path = "common.rs"]
mod common;

/// The bits of the `f64` serde makes of a number `Value` (as its `f64` visitor does), or `None`.
fn as_f64(value: &Value) -> Option<u64> {
    let float = match *value {
        Value::UInt(v) => v as f64,
        Value::Int(v) => v as f64,
        Value::F32(v) => f64::from(v),
        Value::F64(v) => v,
        _ => return None,
    };
    Some(float.to_bits())
}

fuzz_target!(|data: &[u8]| {
    // A value read is written back exactly: float32, extensions, any keys in order.
    if let Ok(value) = toc::from_bytes::<Value>(data) {
        let bytes = toc::to_bytes(&value).expect("a value read can be written");
        let back = toc::from_bytes::<Value>(&bytes).expect("what we write reads back");
        assert_eq!(back, value);
    }
    // `f64` reads a float64 directly and anything else as a `Value` would: the same numbers,
    // to the bit, and the same inputs refused.
    let general = match toc::from_bytes::<Value>(data) {
        Ok(Value::Array(items)) => items.iter().map(as_f64).collect::<Option<Vec<u64>>>(),
        _ => None,
    };
    let typed = toc::from_bytes::<Vec<f64>>(data).map(|v| v.iter().map(|x| x.to_bits()).collect());
    assert_eq!(typed.ok(), general, "Vec<f64> and Value disagree");
    let Ok(reader) = Reader::from_slice(data) else {
        return;
    };
    let Ok(root) = reader.root() else {
        return;
    };
    let _ = root.len();
    let _ = root.keys::<Value>();
    let _ = root.decode::<Value>();
    let _ = root.indexed_children(4);
    let _ = reader.toc_stats();
    walk_nodes(
        &reader,
        &["0", "-1", "1/0", "a", "0/a/1", "p/t", "/", "'0'"],
    );
});
