//! Hostile files for `serde_formats::toc`: every one is an error with the expected kind (and,
//! where it is fixed by the layout, offset), never a panic. The files are built by hand from
//! the layout of `docs/spec/toc-msgpack.md` §4; the expected kinds follow its §7.

use serde_formats::toc::{self, Reader, Value};
use serde_formats::ErrorKind;

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

fn cases() -> Vec<Case> {
    let data3 = [0x93, 0x01, 0x02, 0x03]; // [1, 2, 3]
    let mut cases = vec![
        Case {
            name: "wrong magic",
            bytes: {
                let mut f = file(&[0x01], &p(0, 1));
                f[25] = b'X';
                f
            },
            path: None,
            kind: ErrorKind::BadMagic,
            offset: Some(0),
        },
        Case {
            name: "empty input",
            bytes: vec![],
            path: None,
            kind: ErrorKind::UnexpectedEnd,
            offset: Some(0),
        },
        Case {
            name: "short garbage",
            bytes: b"hello".to_vec(),
            path: None,
            kind: ErrorKind::BadMagic,
            offset: Some(0),
        },
        Case {
            name: "header cut inside",
            bytes: file(&[0x01], &p(0, 1))[..45].to_vec(),
            path: None,
            kind: ErrorKind::UnexpectedEnd,
            offset: Some(45),
        },
        Case {
            name: "toc_start not an integer",
            bytes: raw(
                [vec![0; 9], vec![0xa1]].concat(),
                field(6),
                &[0x01],
                &p(0, 1),
            ),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(39),
        },
        Case {
            name: "toc_start with bytes after its integer",
            bytes: raw(
                [vec![0; 8], vec![0x01, 0x01]].concat(),
                field(6),
                &[0x01],
                &p(0, 1),
            ),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(39),
        },
        Case {
            name: "toc_start past the end",
            bytes: raw(field(1_000_000), field(6), &[0x01], &p(0, 1)),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(30),
        },
        Case {
            name: "toc_len past the end",
            bytes: raw(field(1), field(u64::MAX), &[0x01], &p(0, 1)),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(40),
        },
        Case {
            // A first header byte that is not zero means CBOR (toc_cbor_hostile.rs has more).
            name: "CBOR header with bytes after its integer",
            bytes: raw(
                [vec![0x01], vec![0; 8], vec![0x01]].concat(),
                [vec![0x06], vec![0; 9]].concat(),
                &[0x01],
                &p(0, 1),
            ),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(39),
        },
        Case {
            name: "toc is an array",
            bytes: file(&[0x01], &[0x92, 0x00, 0x01]),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(51),
        },
        Case {
            name: "toc is a string",
            bytes: file(&[0x01], &[0xa1, b'p']),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(51),
        },
        Case {
            name: "toc cut short",
            bytes: file(&[0x01], &p(0, 1)[..5]),
            path: None,
            kind: ErrorKind::UnexpectedEnd,
            offset: None,
        },
        Case {
            name: "inverted position",
            bytes: file(&data3, &p(3, 1)),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "position past the data",
            bytes: file(&data3, &p(0, 5)),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "position of three numbers",
            bytes: file(&data3, &[0x81, 0xa1, b'p', 0x93, 0x00, 0x01, 0x02]),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "position is not an array",
            bytes: file(&data3, &[0x81, 0xa1, b'p', 0x04]),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "t is a number",
            bytes: file(
                &data3,
                &[[0x82].as_slice(), &p(0, 4)[1..], &[0xa1, b't', 0x05]].concat(),
            ),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "entry key not a string",
            bytes: file(&data3, &[0x81, 0x01, 0x92, 0x00, 0x04]),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(55),
        },
        Case {
            name: "entry with neither p nor t",
            bytes: file(&data3, &[0x81, 0xa1, b'x', 0x01]),
            path: None,
            kind: ErrorKind::BadToc,
            offset: Some(54),
        },
        Case {
            name: "block count larger than the block",
            // [1, 2, 3] indexed as one block claiming 5 values, element 4 asked.
            bytes: file(
                &data3,
                &[
                    0x81, 0xa1, b'p', 0x92, 0x93, 0x01, 0x01, 0x02, 0x93, 0x04, 0x02, 0x04,
                ],
            ),
            path: Some("4"),
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "block count smaller than the block",
            bytes: file(
                &data3,
                &[
                    0x81, 0xa1, b'p', 0x92, 0x93, 0x01, 0x01, 0x03, 0x93, 0x01, 0x03, 0x04,
                ],
            ),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "block count larger than the block, whole decode",
            bytes: file(
                &data3,
                &[
                    0x81, 0xa1, b'p', 0x92, 0x93, 0x01, 0x01, 0x02, 0x93, 0x04, 0x02, 0x04,
                ],
            ),
            path: None,
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "inverted block",
            bytes: file(
                &data3,
                &[
                    0x81, 0xa1, b'p', 0x92, 0x93, 0x01, 0x03, 0x01, 0x93, 0x01, 0x03, 0x04,
                ],
            ),
            path: Some("0"),
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "block counts overflow",
            bytes: file(
                &data3,
                &[
                    [0x81, 0xa1, b'p', 0x92, 0x93].as_slice(),
                    &uint(u64::MAX),
                    &[0x01, 0x02, 0x93],
                    &uint(u64::MAX),
                    &[0x02, 0x04],
                ]
                .concat(),
            ),
            path: Some("0"),
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "nested file outside the data",
            bytes: file(&data3, &[0x81, 0xa1, b't', 0x91, 0x10]),
            path: Some("0"),
            kind: ErrorKind::BadToc,
            offset: None,
        },
        Case {
            name: "nested file with a bad magic",
            bytes: file(&[0x07; 60], &[0x81, 0xa1, b't', 0x91, 0x00]),
            path: Some("0"),
            kind: ErrorKind::BadMagic,
            offset: Some(50),
        },
        Case {
            name: "nested file cut short",
            bytes: file(
                &file(&[0x01], &p(0, 1))[..40],
                &[0x81, 0xa1, b't', 0x91, 0x00],
            ),
            path: Some("0"),
            kind: ErrorKind::UnexpectedEnd,
            offset: None,
        },
        Case {
            name: "reserved marker in the data",
            bytes: file(&[0xc1], &p(0, 1)),
            path: None,
            kind: ErrorKind::BadMsgpack,
            offset: Some(50),
        },
        Case {
            name: "string longer than its value",
            bytes: file(&[0xa5, b'a'], &p(0, 2)),
            path: None,
            kind: ErrorKind::LengthPastEnd,
            offset: Some(51),
        },
        Case {
            name: "invalid UTF-8",
            bytes: file(&[0xa2, 0xc3, 0x28], &p(0, 3)),
            path: None,
            kind: ErrorKind::InvalidUtf8,
            offset: Some(51),
        },
        Case {
            name: "value shorter than its span",
            bytes: file(&[0x01, 0x02], &p(0, 2)),
            path: None,
            kind: ErrorKind::TrailingBytes,
            offset: Some(51),
        },
        Case {
            name: "array claiming 2^32-1 elements",
            bytes: file(&[0xdd, 0xff, 0xff, 0xff, 0xff, 0x01], &p(0, 6)),
            path: None,
            kind: ErrorKind::UnexpectedEnd,
            offset: Some(56),
        },
        Case {
            name: "map in toc claiming 2^32-1 entries",
            bytes: file(
                &data3,
                &[
                    [0x82].as_slice(),
                    &p(0, 4)[1..],
                    &[0xa1, b't', 0xdf, 0xff, 0xff, 0xff, 0xff],
                ]
                .concat(),
            ),
            path: Some("a"),
            kind: ErrorKind::UnexpectedEnd,
            offset: None,
        },
        Case {
            // fixext 4 with two of its four bytes: the data ends inside the extension.
            name: "truncated extension",
            bytes: file(&[0xd6, 0x01, 0x00, 0x00], &p(0, 4)),
            path: None,
            kind: ErrorKind::LengthPastEnd,
            offset: Some(52),
        },
        Case {
            name: "deeply nested data",
            bytes: {
                let mut data = vec![0x91; 200];
                data.push(0xc0);
                let toc = p(0, data.len() as u64);
                file(&data, &toc)
            },
            path: None,
            kind: ErrorKind::DepthLimitExceeded,
            offset: None,
        },
    ];
    // A chain of 200 TOC maps without "p": {"t": {"a": {"t": {"a": ... {"p": [0, 1]}}}}}.
    let mut toc = p(0, 1);
    for _ in 0..200 {
        toc = [vec![0x81, 0xa1, b't', 0x81, 0xa1, b'a'], toc].concat();
    }
    cases.push(Case {
        name: "deeply nested toc, whole decode",
        bytes: file(&[0x01], &toc),
        path: None,
        kind: ErrorKind::DepthLimitExceeded,
        offset: None,
    });
    cases.push(Case {
        name: "deeply nested toc, path",
        bytes: file(&[0x01], &toc),
        path: Some(Box::leak(vec!["a"; 200].join("/").into_boxed_str())),
        kind: ErrorKind::DepthLimitExceeded,
        offset: None,
    });
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
