//! The TOC reader on arbitrary bytes: every entry point must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Reader, Value};

fuzz_target!(|data: &[u8]| {
    let _ = toc::from_bytes::<Value>(data);
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
    for path in ["0", "-1", "1/0", "a", "0/a/1", "p/t", "/", "'0'"] {
        if let Ok(node) = reader.node(path) {
            let _ = node.codec();
            let _ = node.len();
            let _ = node.keys::<String>();
            let _ = node.decode::<Value>();
            let _ = node.to_msgpack();
        }
    }
});
