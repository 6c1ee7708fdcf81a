//! The worked example of `docs/spec/toc-msgpack.md` §5.5: the nested example document of msglc's
//! format description ("Small Objects"), written at block sizes 10, 100 and 1000, gives exactly
//! the tables of contents that description prints (and msglc writes). The expected TOCs are
//! read from that text (its Python literals, `"p"` before `"t"` as msglc writes them, §4.3).
//! The expected bytes are encoded by rmp-serde, an independent MessagePack implementation.

use serde_formats::toc::{self, Config, Reader, Value};

/// The Python literals of docs/spec/toc-msgpack.md §5.5, in order: the document, its TOC at
/// T = 100 and its TOC at T = 10 (JSON but for `True` and `False`).
fn spec_literals() -> Vec<Value> {
    let spec = include_str!("../../docs/spec/toc-msgpack.md");
    let section = &spec[spec.find("### 5.5").unwrap()..spec.find("### 5.6").unwrap()];
    let literals: Vec<Value> = section
        .split("```python\n")
        .skip(1)
        .map(|block| {
            let text = &block[..block.find("```").unwrap()];
            let json = text.replace("True", "true").replace("False", "false");
            serde_json::from_str(&json).unwrap_or_else(|err| panic!("{err}: {text}"))
        })
        .collect();
    assert_eq!(literals.len(), 3, "§5.5 has three Python blocks");
    literals
}

fn seed_document() -> Value {
    spec_literals().swap_remove(0)
}

/// The TOC at T = 1000, `{"p": [0, 326]}`, from its bytes as §5.5 prints them.
fn toc_block_size_1000() -> Value {
    rmp_serde::from_slice(&[0x81, 0xa1, 0x70, 0x92, 0x00, 0xcd, 0x01, 0x46]).unwrap()
}

/// Splits a file into (data, toc) using the header layout of docs/spec/toc-msgpack.md §4.2.
fn sections(file: &[u8]) -> (&[u8], &[u8]) {
    let field = |bytes: &[u8]| -> usize {
        let v: u64 =
            rmp_serde::from_slice(&bytes[bytes.iter().position(|&b| b != 0).unwrap()..]).unwrap();
        v as usize
    };
    let toc_start = field(&file[30..40]);
    let toc_len = field(&file[40..50]);
    assert_eq!(
        file.len(),
        50 + toc_start + toc_len,
        "nothing follows the TOC"
    );
    (&file[50..50 + toc_start], &file[50 + toc_start..])
}

fn check(block_size: u64, expected: Value) {
    let config = Config::new().block_size(block_size);
    let file = toc::to_bytes_with(&seed_document(), &config).unwrap();
    assert_eq!(
        &file[..30],
        b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msglc-2024"
    );
    let (data, toc_bytes) = sections(&file);
    assert_eq!(data.len(), 326, "the example's positions end at 326");
    assert_eq!(
        data,
        rmp_serde::to_vec(&seed_document()).unwrap(),
        "data is plain msgpack"
    );
    let toc: Value = rmp_serde::from_slice(toc_bytes).unwrap();
    assert_eq!(toc, expected, "block size {block_size}");
    assert_eq!(
        toc_bytes,
        rmp_serde::to_vec(&expected).unwrap(),
        "block size {block_size}"
    );

    // And the reader finds every part of the document through that TOC.
    let reader = Reader::from_slice(&file).unwrap();
    assert_eq!(reader.decode::<Value>().unwrap(), seed_document());
    assert_eq!(
        reader
            .get::<i64>("id/1/vRpNA5/0HNVOgUVHs/SacDVqMG")
            .unwrap(),
        -764697401
    );
    assert_eq!(
        reader.get::<Vec<bool>>("id/0/BlYFs/KNzFKfIR2").unwrap(),
        [true, false]
    );
    assert!(!reader.get::<bool>("id/0/BlYFs/KNzFKfIR2/1").unwrap());
    assert_eq!(
        reader.get::<String>("id/1/3uyABlBlY/zuP2wLok").unwrap(),
        "G9k2y"
    );
    // The document's numbers as §5.5 writes them (its text is read as JSON here).
    let number = |path: &str| reader.get::<Value>(path).unwrap();
    let path = "id/1/3uyABlBlY/7umSPsl7/gFa9yuPyQ";
    assert_eq!(number(path), Value::F64(0.24175848344688433));
    let path = "id/0/BlYFs/DZFf0InHcO/t32qEJJPII";
    assert_eq!(number(path), Value::UInt(820701623));
    let path = "id/1/vRpNA5/0HNVOgUVHs/EsvObl4Q3";
    assert_eq!(number(path), Value::Int(-1008950541));
}

/// docs/spec/toc-msgpack.md §5.5, T = 10.
#[test]
fn seed_example_at_block_size_10() {
    check(10, spec_literals().swap_remove(2));
}

/// docs/spec/toc-msgpack.md §5.5, T = 100.
#[test]
fn seed_example_at_block_size_100() {
    check(100, spec_literals().swap_remove(1));
}

/// docs/spec/toc-msgpack.md §5.5, T = 1000.
#[test]
fn seed_example_at_block_size_1000() {
    check(1000, toc_block_size_1000());
}
