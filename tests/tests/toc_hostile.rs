//! Hostile files for `serde_formats::toc`: every one is an error with the expected kind (and,
//! where it is fixed by the layout, offset), never a panic. The files are built by hand from
//! the layout of `docs/spec/toc-msgpack.md` §4; the expected kinds follow its §7.

use serde_formats::toc::{self, Reader, Value};
use serde_formats::ErrorKind::{
    self, BadMagic, BadMsgpack, BadToc, DepthLimitExceeded, InvalidUtf8, LengthPastEnd,
    TrailingBytes, UnexpectedEnd,
};

const MAGIC: &[u8; 30] = b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msglc-2024";

/// The smallest MessagePack unsigned integer, per the specification.
fn uint(v: u64) -> Vec<u8> {
    match v {
        0..=0x7f => vec![v as u8],
        0x80..=0xff => vec![0xcc, v as u8],
        0x100..=0xffff => [vec![0xcd], (v as u16).to_be_bytes().to_vec()].concat(),
        0x1_0000..=0xffff_ffff => [vec![0xce], (v as u32).to_be_bytes().to_vec()].concat(),
        _ => [vec![0xcf], v.to_be_bytes().to_vec()].concat(),
    }
}

fn field(v: u64) -> Vec<u8> {
    let encoded = uint(v);
    [vec![0u8; 10 - encoded.len()], encoded].concat()
}

/// magic | toc_start | toc_len | data | toc, with the header fields given explicitly.
fn raw(toc_start: Vec<u8>, toc_len: Vec<u8>, data: &[u8], toc: &[u8]) -> Vec<u8> {
    [
        MAGIC.to_vec(),
        toc_start,
        toc_len,
        data.to_vec(),
        toc.to_vec(),
    ]
    .concat()
}

fn file(data: &[u8], toc: &[u8]) -> Vec<u8> {
    raw(field(data.len() as u64), field(toc.len() as u64), data, toc)
}

/// `{"p": [start, end]}`
fn p(start: u64, end: u64) -> Vec<u8> {
    [vec![0x81, 0xa1, b'p', 0x92], uint(start), uint(end)].concat()
}

struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    /// `None`: decode the whole file through every entry point; `Some`: read this path.
    path: Option<&'static str>,
    kind: ErrorKind,
    offset: Option<u64>,
}

fn case(
    name: &'static str,
    bytes: Vec<u8>,
    path: Option<&'static str>,
    kind: ErrorKind,
    offset: Option<u64>,
) -> Case {
    Case {
        name,
        bytes,
        path,
        kind,
        offset,
    }
}

fn cases() -> Vec<Case> {
    let data3 = [0x93, 0x01, 0x02, 0x03]; // [1, 2, 3]
    let wrong_magic = {
        let mut f = file(&[0x01], &p(0, 1));
        f[25] = b'X';
        f
    };
    let header_cut_inside = file(&[0x01], &p(0, 1))[..45].to_vec();
    let toc_start_not_an = raw(
        [vec![0; 9], vec![0xa1]].concat(),
        field(6),
        &[0x01],
        &p(0, 1),
    );
    let toc_start_with = raw(
        [vec![0; 8], vec![0x01, 0x01]].concat(),
        field(6),
        &[0x01],
        &p(0, 1),
    );
    let toc_start_past_the = raw(field(1_000_000), field(6), &[0x01], &p(0, 1));
    let toc_len_past_the = raw(field(1), field(u64::MAX), &[0x01], &p(0, 1));
    // A first header byte that is not zero means CBOR (toc_cbor_hostile.rs has more).
    let cbor_header_with = raw(
        [vec![0x01], vec![0; 8], vec![0x01]].concat(),
        [vec![0x06], vec![0; 9]].concat(),
        &[0x01],
        &p(0, 1),
    );
    let position_of_three = file(&data3, &[0x81, 0xa1, b'p', 0x93, 0x00, 0x01, 0x02]);
    let position_is_not_an = file(&data3, &[0x81, 0xa1, b'p', 0x04]);
    let t_is_a_number = file(
        &data3,
        &[[0x82].as_slice(), &p(0, 4)[1..], &[0xa1, b't', 0x05]].concat(),
    );
    let entry_key_not_a = file(&data3, &[0x81, 0x01, 0x92, 0x00, 0x04]);
    let entry_with_neither = file(&data3, &[0x81, 0xa1, b'x', 0x01]);
    // [1, 2, 3] indexed as a block list `{"p": [[count, start, end], [count, start, end]]}`.
    let two_blocks = |a: [u8; 3], b: [u8; 3]| {
        let toc = [[0x81, 0xa1, b'p', 0x92, 0x93].as_slice(), &a, &[0x93], &b].concat();
        file(&data3, &toc)
    };
    // Blocks claiming 5 values in all over 3: element 4 asked.
    let block_count_larger = two_blocks([1, 1, 2], [4, 2, 4]);
    let block_count = two_blocks([1, 1, 3], [1, 3, 4]);
    let inverted_block = two_blocks([1, 3, 1], [1, 3, 4]);
    let block_counts = file(
        &data3,
        &[
            [0x81, 0xa1, b'p', 0x92, 0x93].as_slice(),
            &uint(u64::MAX),
            &[0x01, 0x02, 0x93],
            &uint(u64::MAX),
            &[0x02, 0x04],
        ]
        .concat(),
    );
    let nested_file = file(&data3, &[0x81, 0xa1, b't', 0x91, 0x10]);
    let nested_file_with_a = file(&[0x07; 60], &[0x81, 0xa1, b't', 0x91, 0x00]);
    let nested_file_cut = file(
        &file(&[0x01], &p(0, 1))[..40],
        &[0x81, 0xa1, b't', 0x91, 0x00],
    );
    let string_longer_than = file(&[0xa5, b'a'], &p(0, 2));
    let value_shorter_than = file(&[0x01, 0x02], &p(0, 2));
    let array_claiming_2 = file(&[0xdd, 0xff, 0xff, 0xff, 0xff, 0x01], &p(0, 6));
    let map_in_toc = file(
        &data3,
        &[
            [0x82].as_slice(),
            &p(0, 4)[1..],
            &[0xa1, b't', 0xdf, 0xff, 0xff, 0xff, 0xff],
        ]
        .concat(),
    );
    // fixext 4 with two of its four bytes: the data ends inside the extension.
    let truncated = file(&[0xd6, 0x01, 0x00, 0x00], &p(0, 4));
    let deeply_nested_data = {
        let mut data = vec![0x91; 200];
        data.push(0xc0);
        let toc = p(0, data.len() as u64);
        file(&data, &toc)
    };

    // One case a line: name, file, path read (`None`: the whole value), kind, offset.
    #[rustfmt::skip]
    let mut cases = vec![
        case("wrong magic", wrong_magic, None, BadMagic, Some(0)),
        case("empty input", vec![], None, UnexpectedEnd, Some(0)),
        case("short garbage", b"hello".to_vec(), None, BadMagic, Some(0)),
        case("header cut inside", header_cut_inside, None, UnexpectedEnd, Some(45)),
        case("toc_start not an integer", toc_start_not_an, None, BadToc, Some(39)),
        case("toc_start with bytes after its integer", toc_start_with, None, BadToc, Some(39)),
        case("toc_start past the end", toc_start_past_the, None, BadToc, Some(30)),
        case("toc_len past the end", toc_len_past_the, None, BadToc, Some(40)),
        case("CBOR header with bytes after its integer", cbor_header_with, None, BadToc, Some(39)),
        case("toc is an array", file(&[0x01], &[0x92, 0x00, 0x01]), None, BadToc, Some(51)),
        case("toc is a string", file(&[0x01], &[0xa1, b'p']), None, BadToc, Some(51)),
        case("toc cut short", file(&[0x01], &p(0, 1)[..5]), None, UnexpectedEnd, None),
        case("inverted position", file(&data3, &p(3, 1)), None, BadToc, None),
        case("position past the data", file(&data3, &p(0, 5)), None, BadToc, None),
        case("position of three numbers", position_of_three, None, BadToc, None),
        case("position is not an array", position_is_not_an, None, BadToc, None),
        case("t is a number", t_is_a_number, None, BadToc, None),
        case("entry key not a string", entry_key_not_a, None, BadToc, Some(55)),
        case("entry with neither p nor t", entry_with_neither, None, BadToc, Some(54)),
        case("block count larger than the block", block_count_larger.clone(), Some("4"), BadToc, None),
        case("block count smaller than the block", block_count, None, BadToc, None),
        case("block count larger than the block, whole decode", block_count_larger, None, BadToc, None),
        case("inverted block", inverted_block, Some("0"), BadToc, None),
        case("block counts overflow", block_counts, Some("0"), BadToc, None),
        case("nested file outside the data", nested_file, Some("0"), BadToc, None),
        case("nested file with a bad magic", nested_file_with_a, Some("0"), BadMagic, Some(50)),
        case("nested file cut short", nested_file_cut, Some("0"), UnexpectedEnd, None),
        case("reserved marker in the data", file(&[0xc1], &p(0, 1)), None, BadMsgpack, Some(50)),
        case("string longer than its value", string_longer_than, None, LengthPastEnd, Some(51)),
        case("invalid UTF-8", file(&[0xa2, 0xc3, 0x28], &p(0, 3)), None, InvalidUtf8, Some(51)),
        case("value shorter than its span", value_shorter_than, None, TrailingBytes, Some(51)),
        case("array claiming 2^32-1 elements", array_claiming_2, None, UnexpectedEnd, Some(56)),
        case("map in toc claiming 2^32-1 entries", map_in_toc, Some("a"), UnexpectedEnd, None),
        case("truncated extension", truncated, None, LengthPastEnd, Some(52)),
        case("deeply nested data", deeply_nested_data, None, DepthLimitExceeded, None),
    ];
    // A chain of 200 TOC maps without "p": {"t": {"a": {"t": {"a": ... {"p": [0, 1]}}}}}.
    let mut toc = p(0, 1);
    for _ in 0..200 {
        toc = [vec![0x81, 0xa1, b't', 0x81, 0xa1, b'a'], toc].concat();
    }
    let deep_path = Box::leak(vec!["a"; 200].join("/").into_boxed_str());
    let deep = file(&[0x01], &toc);
    cases.push(case(
        "deeply nested toc, whole decode",
        deep.clone(),
        None,
        DepthLimitExceeded,
        None,
    ));
    cases.push(case(
        "deeply nested toc, path",
        deep,
        Some(deep_path),
        DepthLimitExceeded,
        None,
    ));
    cases
}

#[test]
fn hostile_files_are_errors_of_the_expected_kind() {
    for case in cases() {
        let name = case.name;
        let errors = match case.path {
            None => vec![
                toc::from_bytes::<Value>(&case.bytes).unwrap_err(),
                Reader::from_slice(&case.bytes)
                    .and_then(|r| r.decode::<Value>())
                    .unwrap_err(),
                Reader::new(std::io::Cursor::new(&case.bytes))
                    .and_then(|r| r.decode::<Value>())
                    .unwrap_err(),
            ],
            Some(path) => vec![
                Reader::from_slice(&case.bytes)
                    .and_then(|r| r.get::<Value>(path))
                    .unwrap_err(),
                Reader::new(std::io::Cursor::new(&case.bytes))
                    .and_then(|r| r.get::<Value>(path))
                    .unwrap_err(),
            ],
        };
        for err in errors {
            assert_eq!(err.kind(), case.kind, "{name}: {err}");
            if let Some(offset) = case.offset {
                assert_eq!(err.offset(), Some(offset), "{name}: {err}");
            }
        }
    }
}

#[test]
fn every_truncation_and_byte_flip_of_a_real_file_is_handled() {
    let value: Vec<(u32, String, Vec<f64>)> = (0..30)
        .map(|i| (i, format!("n{i}"), vec![f64::from(i); (i % 5) as usize]))
        .collect();
    let bytes = toc::to_bytes_with(&value, &toc::Config::new().block_size(32)).unwrap();
    for len in 0..bytes.len() {
        assert!(
            toc::from_bytes::<Value>(&bytes[..len]).is_err(),
            "prefix {len}"
        );
    }
    for i in 0..bytes.len() {
        for flip in [0xff, 0x01] {
            let mut corrupt = bytes.clone();
            corrupt[i] ^= flip;
            // Any result but a panic (most are errors), each error inside the input.
            let within = |err: &serde_formats::Error| {
                let ok = err.offset().is_none_or(|at| at <= corrupt.len() as u64);
                assert!(ok, "flip {flip:#x} at {i}: {err}");
            };
            if let Err(err) = toc::from_bytes::<Value>(&corrupt) {
                within(&err);
            }
            match Reader::from_slice(&corrupt) {
                Ok(reader) => {
                    for err in [
                        reader.get::<Value>("29/2/0").err(),
                        reader.get::<Value>("0").err(),
                        reader.root().and_then(|r| r.len()).err(),
                    ]
                    .iter()
                    .flatten()
                    {
                        within(err);
                    }
                }
                Err(err) => within(&err),
            }
        }
    }
}

#[test]
fn aliased_nested_files_cannot_blow_up_the_reassembled_value() {
    // Level 0 is a tiny file; each next level is a combined file whose TOC lists the previous
    // level 40 times at the same start. Reassembling naively would produce 40^6 copies.
    let mut level = file(&[0x01], &p(0, 1));
    for _ in 0..6 {
        let mut toc = vec![0x81, 0xa1, b't', 0xdc, 0x00, 40];
        toc.extend(std::iter::repeat_n(0x00, 40));
        level = file(&level, &toc);
    }
    let err = toc::from_bytes::<Value>(&level).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadToc, "{err}");
    // A path through the aliases is still fine: it reads one copy.
    let reader = Reader::from_slice(&level).unwrap();
    assert_eq!(reader.get::<u8>("39/0/7/1/2/3").unwrap(), 1);
}
