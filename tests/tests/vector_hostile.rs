//! Hostile inputs: every one is an error with the expected kind and byte offset, through both the
//! slice reader (`from_bytes`) and the stream reader (`restore`), never a panic or a huge
//! allocation. Inputs and offsets are written by hand from Velox's layout (types are short JSON
//! texts; `hdr(T)` is the length of a header with type `T`: encoding, type length, type, size).

use serde_formats::vector::{from_bytes, restore};
use serde_formats::ErrorKind::{self, BadIndex};

const BIGINT: &str = r#"{"type":"BIGINT"}"#;
const INTEGER: &str = r#"{"type":"INTEGER"}"#;
const DOUBLE: &str = r#"{"type":"DOUBLE"}"#;
const BOOLEAN: &str = r#"{"type":"BOOLEAN"}"#;
const VARCHAR: &str = r#"{"type":"VARCHAR"}"#;
const VARBINARY: &str = r#"{"type":"VARBINARY"}"#;
const UNKNOWN: &str = r#"{"type":"UNKNOWN"}"#;
const ARRAY_BIGINT: &str = r#"{"type":"ARRAY","cTypes":[{"type":"BIGINT"}]}"#;
const MAP_BIGINT: &str = r#"{"type":"MAP","cTypes":[{"type":"BIGINT"},{"type":"BIGINT"}]}"#;
const ROW_A_BIGINT: &str = r#"{"type":"ROW","names":["a"],"cTypes":[{"type":"BIGINT"}]}"#;

/// Bytes of a header with type `json`.
fn hdr(json: &str) -> u64 {
    4 + 4 + json.len() as u64 + 4
}

/// Little-endian building blocks of the layout.
#[derive(Default, Clone)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn i32(mut self, v: i32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    fn raw(mut self, v: &[u8]) -> Self {
        self.0.extend_from_slice(v);
        self
    }
    fn i64(self, v: i64) -> Self {
        self.raw(&v.to_le_bytes())
    }
    /// A type: `i32` length and the JSON text.
    fn ty(self, json: &str) -> Self {
        self.i32(json.len() as i32).raw(json.as_bytes())
    }
    /// A header: encoding, type, size.
    fn header(self, encoding: i32, json: &str, size: i32) -> Self {
        self.i32(encoding).ty(json).i32(size)
    }
    /// A buffer: its `i32` byte length, then the bytes.
    fn buffer(self, v: &[u8]) -> Self {
        self.i32(v.len() as i32).raw(v)
    }
    /// A buffer of `i32`s (indices, offsets or sizes).
    fn i32s(self, values: &[i32]) -> Self {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.buffer(&bytes)
    }
    /// String buffers: their `i32` count, then each as a buffer.
    fn string_buffers(self, buffers: &[&[u8]]) -> Self {
        buffers
            .iter()
            .fold(self.i32(buffers.len() as i32), |out, buffer| {
                out.buffer(buffer)
            })
    }
    /// A 16-byte long-string view.
    fn long_view(self, len: u32, offset: u64) -> Self {
        self.raw(&len.to_le_bytes())
            .raw(&[0; 4])
            .raw(&offset.to_le_bytes())
    }
}

fn b() -> Bytes {
    Bytes::default()
}

/// FLAT BIGINT of `values`, no nulls: header, nulls flag, values flag, buffer.
fn flat_bigint(values: &[i64]) -> Bytes {
    let mut out = b()
        .header(0, BIGINT, values.len() as i32)
        .u8(0)
        .u8(1)
        .i32(8 * values.len() as i32);
    for &v in values {
        out = out.i64(v);
    }
    out
}

/// DICTIONARY of `size` rows, no nulls: the indices buffer, then the base vector.
fn dictionary(json: &str, size: i32, indices: &[i32], base: &Bytes) -> Bytes {
    b().header(2, json, size).u8(0).i32s(indices).raw(&base.0)
}

/// CONSTANT of `size` rows over a base (is-scalar 0): the base vector, then the index.
fn constant(json: &str, size: i32, base: &Bytes, index: i32) -> Bytes {
    b().header(1, json, size)
        .u8(0)
        .u8(0)
        .raw(&base.0)
        .i32(index)
}

/// FLAT ARRAY or MAP, a row per offset, no nulls: offsets, sizes, then the child vectors.
fn ranges(json: &str, offsets: &[i32], sizes: &[i32], children: &[Bytes]) -> Bytes {
    let head = b().header(0, json, offsets.len() as i32).u8(0);
    let head = head.i32s(offsets).i32s(sizes);
    children.iter().fold(head, |out, child| out.raw(&child.0))
}

/// FLAT VARCHAR or VARBINARY, no nulls: the values flag and views buffer, then string buffers.
fn strings(json: &str, size: i32, views: &Bytes, buffers: &[&[u8]]) -> Bytes {
    let head = b().header(0, json, size).u8(0).u8(1).buffer(&views.0);
    head.string_buffers(buffers)
}

fn expect(name: &str, input: &[u8], kind: ErrorKind, offset: u64) {
    for (reader, result) in [
        ("from_bytes", from_bytes(input)),
        ("restore", restore(input)),
    ] {
        let err = match result {
            Ok(v) => panic!("{name} via {reader}: restored {v:?}"),
            Err(err) => err,
        };
        assert_eq!(
            (err.kind(), err.offset()),
            (kind, Some(offset)),
            "{name} via {reader}: {err}"
        );
    }
}

#[test]
fn unknown_encodings_and_bad_type_json() {
    let ok = flat_bigint(&[1]).0;
    assert!(from_bytes(&ok).is_ok());
    expect(
        "encoding 4",
        &b().header(4, BIGINT, 0).0,
        ErrorKind::UnknownEncoding,
        0,
    );
    expect("encoding -1", &b().i32(-1).0, ErrorKind::UnknownEncoding, 0);
    // The layout of Velox's prose description (docs/spec/vector-saver.md §8.2): kind 4 (BIGINT)
    // where Velox has a JSON length; 4 bytes of "JSON" follow, the size and the nulls flag,
    // which are not JSON: error at the first byte, 8.
    let seed = b().i32(0).i32(4).i32(1).u8(0).u8(1).i32(8).i64(1).i32(0);
    expect("seed layout", &seed.0, ErrorKind::BadType, 8);
    // A syntax error points at its byte: `{"type":BIGINT}` fails at the `B`, 8 bytes in.
    let syntax = b().header(0, r#"{"type":BIGINT}"#, 0);
    expect("JSON syntax", &syntax.0, ErrorKind::BadType, 8 + 8);
    // A type this crate does not know: the JSON's first byte, 8.
    let uuid = b().header(0, r#"{"name":"Type","type":"UUID"}"#, 0);
    expect("UUID", &uuid.0, ErrorKind::UnknownTypeKind, 8);
    let no_type = b().header(0, r#"{"name":"Type"}"#, 0);
    expect("no type field", &no_type.0, ErrorKind::BadType, 8);
    let array = b().header(0, r#"{"type":"ARRAY","cTypes":[]}"#, 0);
    expect("ARRAY of nothing", &array.0, ErrorKind::BadType, 8);
    let decimal = b().header(0, r#"{"type":"DECIMAL","precision":40,"scale":1}"#, 0);
    expect("DECIMAL(40, 1)", &decimal.0, ErrorKind::BadType, 8);
    // Not UTF-8: at the bad byte, 3 into the JSON.
    let bytes = b().i32(0).i32(4).raw(b"{\"\xff}").i32(0);
    expect("type not UTF-8", &bytes.0, ErrorKind::InvalidUtf8, 8 + 2);
}

#[test]
fn negative_sizes_lengths_and_counts() {
    let h = hdr(BIGINT);
    expect("size -1", &b().header(0, BIGINT, -1).0, BadIndex, h - 4);
    expect("type length -1", &b().i32(0).i32(-1).0, BadIndex, 4);
    // Values buffer length after the header, nulls flag and values flag.
    let negative_values = b().header(0, BIGINT, 1).u8(0).u8(1).i32(-8);
    expect("values length -8", &negative_values.0, BadIndex, h + 2);
    let negative_nulls = b().header(0, BIGINT, 1).u8(1).i32(i32::MIN);
    expect("nulls length MIN", &negative_nulls.0, BadIndex, h + 1);
    let row = b().header(0, ROW_A_BIGINT, 1).u8(0).i32(-1);
    expect(
        "row child count -1",
        &row.0,
        BadIndex,
        hdr(ROW_A_BIGINT) + 1,
    );
    // ARRAY<BIGINT> of 1 row whose size is -1: checked against the whole vector, at 0.
    let array = ranges(ARRAY_BIGINT, &[0], &[-1], &[flat_bigint(&[1])]);
    expect("array row size -1", &array.0, BadIndex, 0);
}

#[test]
fn lengths_past_the_input_do_not_allocate() {
    let h = hdr(BIGINT);
    // i32::MAX bytes of values claimed, 8 present: the buffer's first byte is after its length.
    let values = b().header(0, BIGINT, 1).u8(0).u8(1).i32(i32::MAX).i64(1);
    expect(
        "values length MAX",
        &values.0,
        ErrorKind::UnexpectedEnd,
        h + 6,
    );
    // A type JSON of i32::MAX bytes: the text would start at 8.
    let ty = b().i32(0).i32(i32::MAX).raw(b"{\"type\"");
    expect("type length MAX", &ty.0, ErrorKind::UnexpectedEnd, 8);
    // A ROW<a:BIGINT> vector of size MAX with its child count missing.
    let row_size = b().header(0, ROW_A_BIGINT, i32::MAX).u8(0);
    expect(
        "row size MAX, child count missing",
        &row_size.0,
        ErrorKind::UnexpectedEnd,
        hdr(ROW_A_BIGINT) + 1,
    );
    // i32::MAX children claimed with none present: the count does not match the type's 1.
    let children = b().header(0, ROW_A_BIGINT, 1).u8(0).i32(i32::MAX);
    expect("MAX children", &children.0, BadIndex, hdr(ROW_A_BIGINT) + 1);
    // A DICTIONARY of size MAX needs MAX * 4 bytes of indices; the buffer claims fewer.
    let dict = dictionary(BIGINT, i32::MAX, &[0, 0], &flat_bigint(&[1]));
    expect("dictionary size MAX", &dict.0, BadIndex, h + 1);
    // A FLAT UNKNOWN of size MAX is fine too: it has no values, and no bitmap is kept.
    let unknown = b().header(0, UNKNOWN, i32::MAX).u8(0).u8(0);
    let v = from_bytes(&unknown.0).unwrap();
    assert_eq!(v.null_count().unwrap(), i32::MAX as usize);
    assert!(v.to_string().ends_with("... 2147483637 more rows"));
    // A CONSTANT BIGINT of size MAX is fine: 8 bytes say it all.
    let constant = b().header(1, BIGINT, i32::MAX).u8(0).u8(1).i64(7);
    assert_eq!(from_bytes(&constant.0).unwrap().len(), i32::MAX as usize);
}

#[test]
fn buffers_shorter_than_the_size() {
    // FLAT BIGINT size 2 with one value: checked against the whole vector, at byte 0.
    let short = b().header(0, BIGINT, 2).u8(0).u8(1).i32(8).i64(1);
    expect("values for 1 of 2 rows", &short.0, BadIndex, 0);
    // Nulls buffer of 1 byte for 9 rows.
    let nulls = b()
        .header(0, r#"{"type":"TINYINT"}"#, 9)
        .u8(1)
        .i32(1)
        .u8(0)
        .u8(1)
        .i32(9)
        .raw(&[0; 9]);
    expect("nulls for 8 of 9 rows", &nulls.0, BadIndex, 0);
    // VARCHAR size 2 with one view: the values buffer's length is after the two flags.
    let views = strings(VARCHAR, 2, &b().raw(&[0; 16]), &[]);
    expect("one view for 2 rows", &views.0, BadIndex, hdr(VARCHAR) + 6);
    // Dictionary of 2 rows with one index: the indices buffer length after the nulls flag.
    let dict = dictionary(BIGINT, 2, &[0], &flat_bigint(&[1]));
    expect("one index for 2 rows", &dict.0, BadIndex, hdr(BIGINT) + 1);
    // A flat vector of rows without its values buffer: at the values flag.
    let missing = b().header(0, BIGINT, 1).u8(0).u8(0);
    expect(
        "no values buffer",
        &missing.0,
        ErrorKind::Unsupported,
        hdr(BIGINT) + 1,
    );
    // ... which UNKNOWN never has, and every row of which is null.
    let unknown = b().header(0, UNKNOWN, 3).u8(0).u8(0);
    let v = from_bytes(&unknown.0).unwrap();
    assert_eq!(v.null_count().unwrap(), 3);
}

#[test]
fn indices_out_of_range() {
    // DICTIONARY BIGINT of 1 row pointing at row 2 of a 2-row base, at -1, at MAX into nothing.
    let two = flat_bigint(&[1, 2]);
    expect(
        "index 2 of 2",
        &dictionary(BIGINT, 1, &[2], &two).0,
        BadIndex,
        0,
    );
    expect(
        "index -1",
        &dictionary(BIGINT, 1, &[-1], &two).0,
        BadIndex,
        0,
    );
    let nothing = dictionary(BIGINT, 1, &[i32::MAX], &flat_bigint(&[]));
    expect("index MAX into nothing", &nothing.0, BadIndex, 0);
    // ... but an index at a null row is not looked at.
    let null_row = b()
        .header(2, BIGINT, 1)
        .u8(1)
        .i32(1)
        .u8(0)
        .i32s(&[99])
        .raw(&flat_bigint(&[1]).0);
    assert!(from_bytes(&null_row.0).unwrap().value(0).unwrap().is_null());
    // CONSTANT ARRAY<BIGINT> of row 1 of a 1-row base: flags after the header, then the base
    // and the index.
    let base = ranges(ARRAY_BIGINT, &[0], &[1], &[flat_bigint(&[5])]);
    let one = constant(ARRAY_BIGINT, 3, &base, 1);
    expect("constant index 1 of 1", &one.0, BadIndex, 0);
    let minus_one = constant(ARRAY_BIGINT, 3, &base, -1);
    let index_at = hdr(ARRAY_BIGINT) + 2 + base.0.len() as u64;
    expect("constant index -1", &minus_one.0, BadIndex, index_at);
    // A scalar constant over a base (is-scalar 0), index past the base.
    let scalar = constant(BIGINT, 3, &flat_bigint(&[5]), 3);
    expect("scalar over base, index 3", &scalar.0, BadIndex, 0);
}

#[test]
fn ranges_past_the_elements() {
    // ARRAY<BIGINT> of 1 row: offset 1 + size 2 over 2 elements (offsets first, then sizes).
    let two = || flat_bigint(&[1, 2]);
    let array = ranges(ARRAY_BIGINT, &[1], &[2], &[two()]);
    expect("array 1 + 2 > 2", &array.0, BadIndex, 0);
    // MAP<BIGINT,BIGINT> of 1 row: 2 keys but 1 value, size 2.
    let map = ranges(MAP_BIGINT, &[0], &[2], &[two(), flat_bigint(&[3])]);
    expect("map past its values", &map.0, BadIndex, 0);
    // A negative offset.
    let array = ranges(ARRAY_BIGINT, &[-3], &[0], &[flat_bigint(&[1])]);
    expect("array offset -3", &array.0, BadIndex, 0);
    // Offset and size near i32::MAX: no overflow.
    let array = ranges(ARRAY_BIGINT, &[i32::MAX], &[i32::MAX], &[flat_bigint(&[1])]);
    expect("array MAX + MAX", &array.0, BadIndex, 0);
}

#[test]
fn string_views_past_the_buffers() {
    let views_at = hdr(VARCHAR) + 6;
    // VARCHAR of 1 row: a 13-byte view at offset 5 over one 13-byte buffer.
    let past = strings(VARCHAR, 1, &b().long_view(13, 5), &[b"thirteen byte"]);
    expect("offset 5 + 13 > 13", &past.0, BadIndex, views_at);
    // Second row's view points past: no string buffers at all.
    let views = b().raw(&[0; 16]).long_view(20, 0);
    let none = strings(VARBINARY, 2, &views, &[]);
    let second_view = hdr(VARBINARY) + 6 + 16;
    expect("long view without buffers", &none.0, BadIndex, second_view);
    // Offset + length overflowing u64.
    let wrap = strings(VARBINARY, 1, &b().long_view(13, u64::MAX - 3), &[&[0; 13]]);
    expect("offset wraps", &wrap.0, BadIndex, hdr(VARBINARY) + 6);
    // A string-buffer count of -1.
    let count = b().header(0, VARCHAR, 0).u8(0).u8(1).i32(0).i32(-1);
    expect(
        "string buffer count -1",
        &count.0,
        BadIndex,
        hdr(VARCHAR) + 6,
    );
    // Constant long string whose buffer is shorter than its view says: at the buffer's length.
    let constant = b()
        .header(1, VARCHAR, 1)
        .u8(0)
        .u8(1)
        .long_view(20, 0)
        .i32(3)
        .raw(b"abc");
    expect(
        "constant length differs",
        &constant.0,
        BadIndex,
        hdr(VARCHAR) + 2 + 16,
    );
    // Invalid UTF-8 inline in a VARCHAR: found when checking the vector, at 0.
    let inline = b().i32(2).raw(&[0xc3, 0x28]).raw(&[0; 10]);
    let bad_utf8 = strings(VARCHAR, 1, &inline, &[]);
    expect("invalid UTF-8", &bad_utf8.0, ErrorKind::InvalidUtf8, 0);
    // ... the same views are a fine VARBINARY.
    assert!(from_bytes(&strings(VARBINARY, 1, &inline, &[]).0).is_ok());
}

#[test]
fn bad_flags_counts_and_types() {
    let h = hdr(BIGINT);
    expect(
        "nulls flag 2",
        &b().header(0, BIGINT, 1).u8(2).0,
        ErrorKind::BadTag,
        h,
    );
    expect(
        "lazy flag 7",
        &b().header(3, BIGINT, 1).u8(7).0,
        ErrorKind::BadTag,
        h,
    );
    // BOOLEAN constant byte 2: found when checking the vector.
    let boolean = b().header(1, BOOLEAN, 1).u8(0).u8(1).u8(2);
    expect("boolean constant 2", &boolean.0, ErrorKind::BadTag, 0);
    // A complex constant marked scalar: at the is-scalar byte.
    let constant = b().header(1, ARRAY_BIGINT, 1).u8(0).u8(1);
    expect(
        "is-scalar 1 for ARRAY",
        &constant.0,
        ErrorKind::TypeMismatch,
        hdr(ARRAY_BIGINT) + 1,
    );
    // A non-null UNKNOWN constant: Velox only has the null one.
    let unknown = b().header(1, UNKNOWN, 1).u8(0).u8(1);
    expect("non-null UNKNOWN", &unknown.0, ErrorKind::TypeMismatch, 0);
    // ROW<a:BIGINT> with 2 children: the count follows the nulls flag.
    let row = b().header(0, ROW_A_BIGINT, 1).u8(0).i32(2);
    expect(
        "2 children for 1 field",
        &row.0,
        BadIndex,
        hdr(ROW_A_BIGINT) + 1,
    );
    // ROW<a:BIGINT> whose child (present: flag 1) is an INTEGER vector.
    let child = b().header(0, INTEGER, 1).u8(0).u8(1).i32(4).i32(7);
    let row = b()
        .header(0, ROW_A_BIGINT, 1)
        .u8(0)
        .i32(1)
        .u8(1)
        .raw(&child.0);
    expect(
        "child of the wrong type",
        &row.0,
        ErrorKind::TypeMismatch,
        0,
    );
    // Child flag 0: no child follows, the field reads null.
    let absent = b().header(0, ROW_A_BIGINT, 1).u8(0).i32(1).u8(0);
    let v = from_bytes(&absent.0).unwrap();
    assert_eq!(v.children().len(), 1);
    assert!(v.children()[0].is_none());
    // A DICTIONARY DOUBLE over a BIGINT base.
    let dict = dictionary(DOUBLE, 1, &[0], &flat_bigint(&[1]));
    expect(
        "base of the wrong type",
        &dict.0,
        ErrorKind::TypeMismatch,
        0,
    );
    // A lazy vector of 3 rows loaded with 1.
    let lazy = b().header(3, BIGINT, 3).u8(1).raw(&flat_bigint(&[1]).0);
    expect("loaded vector too short", &lazy.0, BadIndex, 0);
    // A fixed-width vector has no string-buffer count: an `i32 0` after it is a trailing byte.
    // (`restore` reads one vector and leaves the rest of the stream.)
    let trailing = flat_bigint(&[1]).i32(0);
    let err = from_bytes(&trailing.0).unwrap_err();
    let at = flat_bigint(&[1]).0.len() as u64;
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::TrailingBytes, Some(at))
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // 100 000 nested ARRAY types: serde_json's recursion limit answers, at a byte inside.
    let deep = format!(
        "{}{{\"type\":\"BIGINT\"}}{}",
        r#"{"type":"ARRAY","cTypes":["#.repeat(100_000),
        "]}".repeat(100_000)
    );
    let deep_type = b().header(0, &deep, 0);
    for result in [from_bytes(&deep_type.0), restore(&deep_type.0[..])] {
        let err = result.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadType, "{err}");
        assert!(err.offset().is_some_and(|at| at > 8 && at < 8 + 10_000));
    }
    // 33 nested ARRAY types, one past the limit: the JSON's first byte.
    let deep = format!(
        "{}{{\"type\":\"BIGINT\"}}{}",
        r#"{"type":"ARRAY","cTypes":["#.repeat(32),
        "]}".repeat(32)
    );
    let too_deep = b().header(0, &deep, 0);
    expect(
        "33 type levels",
        &too_deep.0,
        ErrorKind::DepthLimitExceeded,
        8,
    );
    // 100 000 nested loaded LAZY BIGINT vectors: vector 129 starts at 128 headers + flags.
    let mut deep_lazy = b();
    for _ in 0..100_000 {
        deep_lazy = deep_lazy.header(3, BIGINT, 1).u8(1);
    }
    expect(
        "deep lazy",
        &deep_lazy.0,
        ErrorKind::DepthLimitExceeded,
        128 * (hdr(BIGINT) + 1),
    );
}

#[test]
fn every_truncation_of_every_golden_file_is_an_error() {
    let files = [
        include_str!("../golden/vector/flat_bigint_nulls.hex"),
        include_str!("../golden/vector/flat_varchar_inline_and_long.hex"),
        include_str!("../golden/vector/flat_decimal_long.hex"),
        include_str!("../golden/vector/constant_integer.hex"),
        include_str!("../golden/vector/constant_long_varchar.hex"),
        include_str!("../golden/vector/constant_array.hex"),
        include_str!("../golden/vector/constant_null_unknown.hex"),
        include_str!("../golden/vector/dictionary_over_varchar.hex"),
        include_str!("../golden/vector/row_of_two_named_children.hex"),
        include_str!("../golden/vector/row_with_unknown_child.hex"),
        include_str!("../golden/vector/array_bigint.hex"),
        include_str!("../golden/vector/map_bigint_varchar.hex"),
        include_str!("../golden/vector/lazy_loaded.hex"),
    ];
    for file in files {
        let bytes = integration_tests::hex::parse(file);
        assert!(from_bytes(&bytes).is_ok());
        for len in 0..bytes.len() {
            for result in [from_bytes(&bytes[..len]), restore(&bytes[..len])] {
                let err = result.expect_err("a truncated vector restored");
                assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "prefix of {len}");
                assert!(err.offset().is_some_and(|at| at <= len as u64));
            }
        }
    }
}
