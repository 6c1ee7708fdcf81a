//! The TOC reader on arbitrary bytes: every entry point must return, never panic, and a value
//! it reads must write back and read back equal.
#![no_main]

use common::walk_nodes;
use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Reader, Value};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    // A value read is written back exactly: float32, extensions, any keys in order.
    if let Ok(value) = toc::from_bytes::<Value>(data) {
        let bytes = toc::to_bytes(&value).expect("a value read can be written");
        let back = toc::from_bytes::<Value>(&bytes).expect("what we write reads back");
        assert_eq!(back, value);
    }
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
