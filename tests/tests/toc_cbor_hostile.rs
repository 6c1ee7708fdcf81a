//! Hostile and unusual files of msglc's CBOR variant for `serde_formats::toc`: every hostile
//! one is an error of the expected kind at the expected offset, never a panic; an unusual one
//! (indefinite-length nodes) reads. The files are built by hand from the
//! layout of `docs/spec/toc-msgpack.md` §4.8 (header integers left-aligned) and CBOR items from
//! RFC 8949.

use serde_formats::toc::{self, Reader, Value};
use serde_formats::ErrorKind::{
    self, BadCbor, BadToc, DepthLimitExceeded, InvalidUtf8, LengthPastEnd, PathNotFound,
    Unsupported,
};

const MAGIC: &[u8; 30] = b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msglc-2024";

/// A CBOR head of major type `major` with argument `v`, the shortest form (RFC 8949 §3).
fn head(major: u8, v: u64) -> Vec<u8> {
    let m = major << 5;
    match v {
        0..=23 => vec![m | v as u8],
        24..=0xff => vec![m | 24, v as u8],
        0x100..=0xffff => [vec![m | 25], (v as u16).to_be_bytes().to_vec()].concat(),
        0x1_0000..=0xffff_ffff => [vec![m | 26], (v as u32).to_be_bytes().to_vec()].concat(),
        _ => [vec![m | 27], v.to_be_bytes().to_vec()].concat(),
    }
}

fn uint(v: u64) -> Vec<u8> {
    head(0, v)
}

/// A header field: the CBOR integer, then zero bytes.
fn field(v: u64) -> Vec<u8> {
    let mut f = uint(v);
    f.resize(10, 0);
    f
}

fn file(data: &[u8], toc: &[u8]) -> Vec<u8> {
    [
        MAGIC.to_vec(),
        field(data.len() as u64),
        field(toc.len() as u64),
        data.to_vec(),
        toc.to_vec(),
    ]
    .concat()
}

/// `{"p": [start, end]}`
fn p(start: u64, end: u64) -> Vec<u8> {
    [vec![0xa1, 0x61, b'p', 0x82], uint(start), uint(end)].concat()
}

/// `{"p": [[count, start, end], ...]}`
fn blocks(list: &[[u64; 3]]) -> Vec<u8> {
    let mut out = vec![0xa1, 0x61, b'p'];
    out.extend(head(4, list.len() as u64));
    for [count, start, end] in list {
        out.push(0x83);
        out.extend(uint(*count));
        out.extend(uint(*start));
        out.extend(uint(*end));
    }
    out
}

/// Reads the whole value (or a path) through every entry point; all must fail alike.
fn errors(bytes: &[u8], path: Option<&str>) -> Vec<serde_formats::Error> {
    let read = |reader: Result<Reader<_>, _>| match path {
        None => reader.and_then(|r: Reader<_>| r.decode::<Value>()),
        Some(path) => reader.and_then(|r: Reader<_>| r.get::<Value>(path)),
    };
    let mut out = vec![read(Reader::from_slice(bytes)).unwrap_err()];
    let io = Reader::new(std::io::Cursor::new(bytes));
    out.push(match path {
        None => io.and_then(|r| r.decode::<Value>()).unwrap_err(),
        Some(path) => io.and_then(|r| r.get::<Value>(path)).unwrap_err(),
    });
    if path.is_none() {
        out.push(toc::from_bytes::<Value>(bytes).unwrap_err());
    }
    out
}

/// A name, the file, the path read (`None`: the whole value), the error kind and offset.
type Case = (
    &'static str,
    Vec<u8>,
    Option<&'static str>,
    ErrorKind,
    Option<u64>,
);

#[test]
fn hostile_cbor_files_are_errors_at_their_offset() {
    let tagged_time = [0x82, 0x01, 0xc1, 0x1a, 0x51, 0x4b, 0x67, 0xb0]; // [1, 1(1363896240)]
    let deep = [vec![0x9f; 300], vec![0xff; 300]].concat();
    let huge_array = [vec![0x9b], vec![0xff; 8], vec![0x01]].concat();
    let huge = || file(&huge_array, &p(0, huge_array.len() as u64));
    let short_block = || file(&[0x84, 1, 2, 3, 4], &blocks(&[[3, 1, 3], [2, 3, 5]]));
    let toc_len_with_more = [
        MAGIC.to_vec(),
        field(1),
        [vec![0x06], vec![0; 8], vec![0x02]].concat(),
        vec![0x01],
        p(0, 1),
    ];
    let toc_start_text = [
        MAGIC.to_vec(),
        [vec![0x61, b'x'], vec![0; 8]].concat(),
        field(6),
        vec![0x01],
        p(0, 1),
    ];
    let outside = [vec![0xa1, 0x61, b't', 0x81], uint(7)].concat();
    // One case a line: name, file, path read, kind, offset.
    #[rustfmt::skip]
    let cases: Vec<Case> = vec![
        ("a valid file, as a control", file(&[0x83, 1, 2, 3], &p(0, 4)), Some("7"), PathNotFound, None),
        ("toc_len field with bytes after its integer", toc_len_with_more.concat(), None, BadToc, Some(49)),
        ("toc_start field holding a text string", toc_start_text.concat(), None, BadToc, Some(30)),
        ("toc is an array", file(&[0x01], &[0x82, 0x00, 0x01]), None, BadToc, Some(51)),
        ("position past the data", file(&[0x01], &p(0, 9)), None, BadToc, Some(54)),
        ("a tag without a MessagePack equivalent", file(&tagged_time, &p(0, 8)), None, Unsupported, Some(52)),
        ("undefined", file(&[0xf7], &p(0, 1)), None, Unsupported, Some(50)),
        ("indefinite nesting past the depth limit", file(&deep, &p(0, 600)), None, DepthLimitExceeded, None),
        ("array count of 2^64 - 1", huge(), None, LengthPastEnd, Some(50)),
        ("array count of 2^64 - 1, through a path", huge(), Some("0"), LengthPastEnd, Some(50)),
        ("stray break in the data", file(&[0x81, 0xff], &p(0, 2)), None, BadCbor, Some(51)),
        ("block count larger than the block", short_block(), None, BadToc, None),
        ("block count larger than the block, through a path", short_block(), Some("2"), BadToc, Some(51)),
        ("nested file start outside the data", file(&[0x01], &outside), None, BadToc, Some(55)),
        ("invalid UTF-8 in a text string", file(&[0x62, 0xc3, 0x28], &p(0, 3)), None, InvalidUtf8, Some(50)),
    ];
    for (name, bytes, path, kind, offset) in cases {
        for err in errors(&bytes, path) {
            assert_eq!(err.kind(), kind, "{name}: {err}");
            if offset.is_some() {
                assert_eq!(err.offset(), offset, "{name}: {err}");
            }
        }
    }
}

#[test]
fn a_hand_built_cbor_file_reads_lazily() {
    // {"a": [_ 1, 2.5], "": h'00ff', 3: -4}, a TOC that indexes the map.
    let data = [
        0xa3, 0x61, b'a', 0x9f, 0x01, 0xf9, 0x41, 0x00, 0xff, 0x60, 0x42, 0x00, 0xff, 0x03, 0x23,
    ];
    let toc = [
        vec![
            0xa2, 0x61, b'p', 0x82, 0x00, 0x0f, 0x61, b't', 0xa3, 0x61, b'a',
        ],
        p(3, 9),
        vec![0x60],
        p(10, 13),
        vec![0x03],
        p(14, 15),
    ]
    .concat();
    let bytes = file(&data, &toc);
    let reader = Reader::from_slice(&bytes).unwrap();
    assert_eq!(reader.codec(), toc::Codec::Cbor);
    assert_eq!(
        reader.get::<Vec<Value>>("a").unwrap(),
        vec![Value::UInt(1), Value::F64(2.5)]
    );
    assert_eq!(reader.get::<f64>("a/-1").unwrap(), 2.5);
    assert_eq!(reader.root().unwrap().child("a").unwrap().len().unwrap(), 2);
    assert_eq!(reader.get::<Value>("3").unwrap(), Value::Int(-4));
    assert_eq!(
        reader.get::<Value>(serde_formats::toc_path![""]).unwrap(),
        Value::Bin(vec![0, 0xff])
    );
    let whole = reader.decode::<Value>().unwrap();
    assert_eq!(
        whole.get("a"),
        Some(&Value::Array(vec![Value::UInt(1), Value::F64(2.5)]))
    );
    // A type error names the CBOR byte behind it: as for MessagePack, the one after the head
    // of the array that is not a u8.
    let err = reader.get::<u8>("a").unwrap_err();
    assert_eq!(err.offset(), Some(54), "{err}");
}

#[test]
fn toc_stats_walks_indefinite_length_nodes() {
    // [[1, 2], 3], indexed through nodes and tables of indefinite length: each of those ends
    // with a break byte after its last element, which the walk must step over too.
    let data = [0x82, 0x82, 0x01, 0x02, 0x03];
    let inner = [
        vec![0xbf, 0x61, b'p'],
        [vec![0x82], uint(1), uint(4)].concat(),
        vec![0x61, b't', 0x9f],
        p(2, 3),
        p(3, 4),
        vec![0xff, 0xff],
    ]
    .concat();
    let toc = [
        vec![0xbf, 0x61, b'p'],
        [vec![0x82], uint(0), uint(5)].concat(),
        vec![0x61, b't', 0x9f],
        inner,
        p(4, 5),
        vec![0xff, 0xff],
    ]
    .concat();
    let bytes = file(&data, &toc);
    let reader = Reader::from_slice(&bytes).unwrap();
    let stats = reader.toc_stats().unwrap();
    // The root, [1, 2] and its two elements, 3.
    assert_eq!(
        (stats.nodes, stats.indexed, stats.depth, stats.block_lists),
        (5, 2, 2, 0)
    );
    assert_eq!(reader.get::<u8>("0/1").unwrap(), 2);
    assert_eq!(reader.get::<u8>("1").unwrap(), 3);
}
