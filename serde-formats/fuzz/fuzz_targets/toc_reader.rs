//! The TOC reader on arbitrary bytes: every entry point must return, never panic, and a value
//! it reads must write back and read back equal. `Vec<f64>`, `Vec<u64>`, `Vec<i64>` and
//! `Vec<String>` (the deserializer's shortcuts for them) read what `Value` reads.
#![no_main]

use common::walk_nodes;
use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Reader, Value};

#[path = "common.rs"]
mod common;

/// The bits of the `f64` serde's `f64` visitor makes of a `Value`, or `None` if it refuses it.
fn as_f64(value: &Value) -> Option<String> {
    let float = match *value {
        Value::UInt(v) => v as f64,
        Value::Int(v) => v as f64,
        Value::F32(v) => f64::from(v),
        Value::F64(v) => v,
        _ => return None,
    };
    Some(float.to_bits().to_string())
}

/// The `u64` serde's `u64` visitor makes of a `Value`, or `None`.
fn as_u64(value: &Value) -> Option<String> {
    match *value {
        Value::UInt(v) => Some(v.to_string()),
        Value::Int(v) => u64::try_from(v).ok().map(|v| v.to_string()),
        _ => None,
    }
}

/// The `i64` serde's `i64` visitor makes of a `Value`, or `None`.
fn as_i64(value: &Value) -> Option<String> {
    match *value {
        Value::UInt(v) => i64::try_from(v).ok().map(|v| v.to_string()),
        Value::Int(v) => Some(v.to_string()),
        _ => None,
    }
}

/// The `String` serde's `String` visitor makes of a `Value` (bytes if they are UTF-8), or `None`.
fn as_string(value: &Value) -> Option<String> {
    match value {
        Value::Str(s) => Some(s.clone()),
        Value::Bin(bytes) => String::from_utf8(bytes.clone()).ok(),
        _ => None,
    }
}

fuzz_target!(|data: &[u8]| {
    // A value read is written back exactly: float32, extensions, any keys in order.
    if let Ok(value) = toc::from_bytes::<Value>(data) {
        let bytes = toc::to_bytes(&value).expect("a value read can be written");
        let back = toc::from_bytes::<Value>(&bytes).expect("what we write reads back");
        assert_eq!(back, value);
    }
    // `f64`, `u64` and `String` read their common heads directly and anything else as a
    // `Value` would: the same values (floats to the bit), and the same inputs refused.
    let items = match toc::from_bytes::<Value>(data) {
        Ok(Value::Array(items)) => Some(items),
        _ => None,
    };
    let general = |convert: fn(&Value) -> Option<String>| {
        items
            .as_ref()
            .and_then(|items| items.iter().map(convert).collect::<Option<Vec<String>>>())
    };
    let floats = toc::from_bytes::<Vec<f64>>(data)
        .map(|v| v.iter().map(|x| x.to_bits().to_string()).collect::<Vec<_>>());
    assert_eq!(floats.ok(), general(as_f64), "Vec<f64> and Value disagree");
    let uints = toc::from_bytes::<Vec<u64>>(data)
        .map(|v| v.iter().map(u64::to_string).collect::<Vec<_>>());
    assert_eq!(uints.ok(), general(as_u64), "Vec<u64> and Value disagree");
    let ints = toc::from_bytes::<Vec<i64>>(data)
        .map(|v| v.iter().map(i64::to_string).collect::<Vec<_>>());
    assert_eq!(ints.ok(), general(as_i64), "Vec<i64> and Value disagree");
    let strings = toc::from_bytes::<Vec<String>>(data);
    assert_eq!(strings.ok(), general(as_string), "Vec<String> and Value disagree");
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
