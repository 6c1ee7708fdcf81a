//! The TOC reader on files of msglc's CBOR variant: every entry point must return, never panic.
//!
//! The first input byte picks the shape: odd, the rest is a whole file after its magic (seed the
//! corpus with msglc CBOR files minus their first 30 bytes); even, the rest is one CBOR value,
//! put in a file whose TOC is `{"p": [0, len]}`, to reach the value decoder directly.
#![no_main]

use common::walk_nodes;
use libfuzzer_sys::fuzz_target;
use serde_formats::toc::{self, Reader, Value, DEFAULT_MAGIC};

#[path = "common.rs"]
mod common;

/// A CBOR unsigned integer, shortest form (RFC 8949 §3): below 24 the value itself, else the
/// additional information 24, 25, 26 or 27 and the value in 1, 2, 4 or 8 big-endian bytes.
fn uint(v: u64) -> Vec<u8> {
    if v < 24 {
        return vec![v as u8];
    }
    let (info, width) = [(0x18, 1), (0x19, 2), (0x1a, 4), (0x1b, 8)]
        .into_iter()
        .find(|&(_, width)| width == 8 || v >> (8 * width) == 0)
        .expect("8 bytes hold any u64");
    [vec![info], v.to_be_bytes()[8 - width..].to_vec()].concat()
}

fn field(v: u64) -> Vec<u8> {
    let mut f = uint(v);
    f.resize(10, 0);
    f
}

fn exercise(bytes: &[u8]) {
    let _ = toc::from_bytes::<Value>(bytes);
    let Ok(reader) = Reader::from_slice(bytes) else {
        return;
    };
    let _ = reader.codec();
    let _ = reader.toc_stats();
    let Ok(root) = reader.root() else {
        return;
    };
    let _ = root.len();
    let _ = root.keys::<Value>();
    let _ = root.decode::<Value>();
    let _ = root.to_msgpack();
    let _ = root.block_list();
    let _ = root.indexed_children(4);
    walk_nodes(
        &reader,
        &["0", "-1", "1/0", "a", "0/a/1", "p/t", "/", "'0'", "0/0/0/0"],
    );
    // The same file through a seeking reader.
    if let Ok(reader) = Reader::new(std::io::Cursor::new(bytes)) {
        let _ = reader.decode::<Value>();
        let _ = reader.get::<Value>("0/1");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let file = if mode & 1 == 1 {
        [&DEFAULT_MAGIC[..], rest].concat()
    } else {
        let len = rest.len() as u64;
        let toc = [vec![0xa1, 0x61, b'p', 0x82, 0x00], uint(len)].concat();
        [
            DEFAULT_MAGIC.to_vec(),
            field(len),
            field(toc.len() as u64),
            rest.to_vec(),
            toc,
        ]
        .concat()
    };
    exercise(&file);
});
