//! The worked example of `docs/spec/toc-msgpack.md` §5.5: the nested example document of msglc's
//! format description ("Small Objects"), written at block sizes 10, 100 and 1000, gives exactly
//! the tables of contents that description prints (and msglc writes). The expected TOCs are
//! transcribed by hand from that text; the text prints `"t"` before `"p"`, msglc writes `"p"`
//! first (§4.3), so they are written here in that order. The expected bytes are encoded by
//! rmp-serde, an independent MessagePack implementation.

use serde_formats::toc::{self, Config, Reader, Value};

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn m(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(entries.into_iter().map(|(k, v)| (s(k), v)).collect())
}

fn a(items: Vec<Value>) -> Value {
    Value::Array(items)
}

fn seed_document() -> Value {
    m(vec![(
        "id",
        a(vec![
            m(vec![
                (
                    "BlYFs",
                    m(vec![
                        ("KNzFKfIR2", a(vec![Value::Bool(true), Value::Bool(false)])),
                        (
                            "DZFf0InHcO",
                            m(vec![
                                ("t32qEJJPII", Value::UInt(820701623)),
                                ("RuUbcdXGT", Value::F64(0.07535274189499452)),
                            ]),
                        ),
                    ]),
                ),
                (
                    "SWCWj",
                    m(vec![
                        (
                            "T5Jm7j1p99",
                            m(vec![
                                ("yEsYr8Ww", s("1lgCDlDR")),
                                ("1041dt7DYk", s("XQUFG")),
                            ]),
                        ),
                        (
                            "ZJejJRP",
                            m(vec![
                                ("SCIVA7Lb", Value::F64(0.5045895502672991)),
                                ("p5I3XN3", Value::Bool(true)),
                            ]),
                        ),
                    ]),
                ),
            ]),
            m(vec![
                (
                    "vRpNA5",
                    m(vec![
                        (
                            "0HNVOgUVHs",
                            m(vec![
                                ("EsvObl4Q3", Value::Int(-1008950541)),
                                ("SacDVqMG", Value::Int(-764697401)),
                            ]),
                        ),
                        (
                            "XLK694",
                            m(vec![
                                ("UdRKNQBrku", s("64jiA4nTf")),
                                ("dTPdzp7Cd", s("bC6R6Q")),
                            ]),
                        ),
                    ]),
                ),
                (
                    "3uyABlBlY",
                    m(vec![
                        (
                            "7umSPsl7",
                            m(vec![
                                ("gFa9yuPyQ", Value::F64(0.24175848344688433)),
                                ("UYa6UiMDZ7", Value::Bool(true)),
                            ]),
                        ),
                        ("zuP2wLok", s("G9k2y")),
                    ]),
                ),
            ]),
        ]),
    )])
}

fn p(start: u64, end: u64) -> Value {
    m(vec![("p", a(vec![Value::UInt(start), Value::UInt(end)]))])
}

fn pt(start: u64, end: u64, t: Value) -> Value {
    m(vec![
        ("p", a(vec![Value::UInt(start), Value::UInt(end)])),
        ("t", t),
    ])
}

fn toc_block_size_10() -> Value {
    pt(
        0,
        326,
        m(vec![(
            "id",
            pt(
                4,
                326,
                a(vec![
                    pt(
                        5,
                        163,
                        m(vec![
                            (
                                "BlYFs",
                                pt(
                                    12,
                                    73,
                                    m(vec![("KNzFKfIR2", p(23, 26)), ("DZFf0InHcO", p(37, 73))]),
                                ),
                            ),
                            (
                                "SWCWj",
                                pt(
                                    79,
                                    163,
                                    m(vec![("T5Jm7j1p99", p(91, 127)), ("ZJejJRP", p(135, 163))]),
                                ),
                            ),
                        ]),
                    ),
                    pt(
                        163,
                        326,
                        m(vec![
                            (
                                "vRpNA5",
                                pt(
                                    171,
                                    259,
                                    m(vec![("0HNVOgUVHs", p(183, 213)), ("XLK694", p(220, 259))]),
                                ),
                            ),
                            (
                                "3uyABlBlY",
                                pt(
                                    269,
                                    326,
                                    m(vec![("7umSPsl7", p(279, 311)), ("zuP2wLok", p(320, 326))]),
                                ),
                            ),
                        ]),
                    ),
                ]),
            ),
        )]),
    )
}

fn toc_block_size_100() -> Value {
    pt(
        0,
        326,
        m(vec![(
            "id",
            pt(
                4,
                326,
                a(vec![
                    pt(5, 163, m(vec![("BlYFs", p(12, 73)), ("SWCWj", p(79, 163))])),
                    pt(
                        163,
                        326,
                        m(vec![("vRpNA5", p(171, 259)), ("3uyABlBlY", p(269, 326))]),
                    ),
                ]),
            ),
        )]),
    )
}

fn toc_block_size_1000() -> Value {
    p(0, 326)
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
}

/// docs/spec/toc-msgpack.md §5.5, T = 10.
#[test]
fn seed_example_at_block_size_10() {
    check(10, toc_block_size_10());
}

/// docs/spec/toc-msgpack.md §5.5, T = 100.
#[test]
fn seed_example_at_block_size_100() {
    check(100, toc_block_size_100());
}

/// docs/spec/toc-msgpack.md §5.5, T = 1000.
#[test]
fn seed_example_at_block_size_1000() {
    check(1000, toc_block_size_1000());
}
