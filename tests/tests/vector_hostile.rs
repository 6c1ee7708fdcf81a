//! Hostile inputs: every one is an error with the expected kind and byte offset, through both the
//! slice reader (`from_bytes`) and the stream reader (`restore`), never a panic or a huge
//! allocation. Inputs and offsets are written by hand from the layout.

use serde_formats::vector::{from_bytes, restore};
use serde_formats::ErrorKind;

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

/// FLAT BIGINT of `values`, no nulls: 12 header + 1 + 1 + 4 + 8n + 4 bytes.
fn flat_bigint(values: &[i64]) -> Bytes {
    let mut out = b()
        .i32(0)
        .i32(4)
        .i32(values.len() as i32)
        .u8(0)
        .u8(1)
        .i32(8 * values.len() as i32);
    for &v in values {
        out = out.i64(v);
    }
    out.i32(0)
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
fn unknown_encoding_and_type_kinds() {
    expect(
        "encoding 4",
        &b().i32(4).i32(4).i32(0).0,
        ErrorKind::UnknownEncoding,
        0,
    );
    expect("encoding -1", &b().i32(-1).0, ErrorKind::UnknownEncoding, 0);
    expect(
        "kind 11",
        &b().i32(0).i32(11).i32(0).0,
        ErrorKind::UnknownTypeKind,
        4,
    );
    expect(
        "kind -5",
        &b().i32(0).i32(-5).i32(0).0,
        ErrorKind::UnknownTypeKind,
        4,
    );
    // ARRAY (30) of kind 99: the element's kind is at byte 8.
    expect(
        "array of 99",
        &b().i32(0).i32(30).i32(99).0,
        ErrorKind::UnknownTypeKind,
        8,
    );
    // ROW with one child named "a" (4 + 1 bytes at 12) of kind 29, at byte 17.
    let row = b().i32(0).i32(32).i32(1).i32(1).raw(b"a").i32(29);
    expect("row child of 29", &row.0, ErrorKind::UnknownTypeKind, 17);
}

#[test]
fn negative_sizes_lengths_and_counts() {
    expect(
        "size -1",
        &b().i32(0).i32(4).i32(-1).0,
        ErrorKind::BadIndex,
        8,
    );
    // Values buffer length at 14 (header 12, nulls flag, values flag).
    let negative_values = b().i32(0).i32(4).i32(1).u8(0).u8(1).i32(-8);
    expect(
        "values length -8",
        &negative_values.0,
        ErrorKind::BadIndex,
        14,
    );
    let negative_nulls = b().i32(0).i32(4).i32(1).u8(1).i32(i32::MIN);
    expect(
        "nulls length MIN",
        &negative_nulls.0,
        ErrorKind::BadIndex,
        13,
    );
    expect(
        "row child count -1",
        &b().i32(0).i32(32).i32(-1).0,
        ErrorKind::BadIndex,
        8,
    );
    expect(
        "row name length -1",
        &b().i32(0).i32(32).i32(1).i32(-1).0,
        ErrorKind::BadIndex,
        12,
    );
    // ARRAY<BIGINT> size 1 whose row has size -1: sizes buffer at 17, offsets at 25,
    // elements at 33.
    let array = b()
        .i32(0)
        .i32(30)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(-1)
        .i32(4)
        .i32(0)
        .raw(&flat_bigint(&[1]).0);
    expect("array row size -1", &array.0, ErrorKind::BadIndex, 0);
}

#[test]
fn lengths_past_the_input_do_not_allocate() {
    // i32::MAX bytes of values claimed, 8 present: the buffer's first byte is at 18.
    let values = b().i32(0).i32(4).i32(1).u8(0).u8(1).i32(i32::MAX).i64(1);
    expect("values length MAX", &values.0, ErrorKind::UnexpectedEnd, 18);
    // i32::MAX children claimed with none present: the first child flag would be at 12.
    let type_children = b().i32(0).i32(32).i32(i32::MAX);
    expect(
        "row type of MAX children",
        &type_children.0,
        ErrorKind::UnexpectedEnd,
        12,
    );
    // A ROW<a:BIGINT> vector of size MAX: the child must have as many rows, which it cannot.
    let row_size = b()
        .i32(0)
        .i32(32)
        .i32(1)
        .i32(1)
        .raw(b"a")
        .i32(4)
        .i32(i32::MAX)
        .u8(0);
    expect(
        "row size MAX, child count missing",
        &row_size.0,
        ErrorKind::UnexpectedEnd,
        26,
    );
    // A DICTIONARY of size MAX needs MAX * 4 bytes of indices; the buffer claims fewer.
    let dict = b()
        .i32(2)
        .i32(4)
        .i32(i32::MAX)
        .u8(0)
        .i32(8)
        .i64(0)
        .raw(&flat_bigint(&[1]).0);
    expect("dictionary size MAX", &dict.0, ErrorKind::BadIndex, 13);
}

#[test]
fn buffers_shorter_than_the_size() {
    // FLAT BIGINT size 2 with one value: checked against the whole vector, at byte 0.
    let short = b().i32(0).i32(4).i32(2).u8(0).u8(1).i32(8).i64(1).i32(0);
    expect("values for 1 of 2 rows", &short.0, ErrorKind::BadIndex, 0);
    // Nulls buffer of 1 byte for 9 rows.
    let nulls = b()
        .i32(0)
        .i32(1)
        .i32(9)
        .u8(1)
        .i32(1)
        .u8(0)
        .u8(1)
        .i32(9)
        .raw(&[0; 9])
        .i32(0);
    expect("nulls for 8 of 9 rows", &nulls.0, ErrorKind::BadIndex, 0);
    // VARCHAR size 2 with one view: the values buffer starts at 18.
    let views = b()
        .i32(0)
        .i32(7)
        .i32(2)
        .u8(0)
        .u8(1)
        .i32(16)
        .raw(&[0; 16])
        .i32(0);
    expect("one view for 2 rows", &views.0, ErrorKind::BadIndex, 18);
    // Dictionary of 2 rows with one index: the indices buffer length is at 13.
    let dict = b()
        .i32(2)
        .i32(4)
        .i32(2)
        .u8(0)
        .i32(4)
        .i32(0)
        .raw(&flat_bigint(&[1]).0);
    expect("one index for 2 rows", &dict.0, ErrorKind::BadIndex, 13);
    // A flat vector without its values buffer.
    let missing = b().i32(0).i32(4).i32(1).u8(0).u8(0).i32(0);
    expect("no values buffer", &missing.0, ErrorKind::Unsupported, 13);
}

#[test]
fn indices_out_of_range() {
    // DICTIONARY BIGINT of 1 row pointing at row 2 of a 2-row base.
    let dict = b()
        .i32(2)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(2)
        .raw(&flat_bigint(&[1, 2]).0);
    expect("index 2 of 2", &dict.0, ErrorKind::BadIndex, 0);
    let dict = b()
        .i32(2)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(-1)
        .raw(&flat_bigint(&[1, 2]).0);
    expect("index -1", &dict.0, ErrorKind::BadIndex, 0);
    // ... but an index at a null row is not looked at.
    let null_row = b()
        .i32(2)
        .i32(4)
        .i32(1)
        .u8(1)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(99)
        .raw(&flat_bigint(&[1]).0);
    assert!(from_bytes(&null_row.0).unwrap().value(0).unwrap().is_null());
    // CONSTANT ARRAY<BIGINT> of row 1 of a 1-row base: header 0..16 (the type is two kinds),
    // flags 16 and 17, base at 18, index after it.
    let base = b()
        .i32(0)
        .i32(30)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(1)
        .i32(4)
        .i32(0)
        .raw(&flat_bigint(&[5]).0);
    let constant = b()
        .i32(1)
        .i32(30)
        .i32(4)
        .i32(3)
        .u8(0)
        .u8(0)
        .raw(&base.0)
        .i32(1);
    expect("constant index 1 of 1", &constant.0, ErrorKind::BadIndex, 0);
    let constant = b()
        .i32(1)
        .i32(30)
        .i32(4)
        .i32(3)
        .u8(0)
        .u8(0)
        .raw(&base.0)
        .i32(-1);
    let index_at = 18 + base.0.len() as u64;
    expect(
        "constant index -1",
        &constant.0,
        ErrorKind::BadIndex,
        index_at,
    );
}

#[test]
fn ranges_past_the_elements() {
    // ARRAY<BIGINT> of 1 row: offset 1 + size 2 over 2 elements.
    let array = b()
        .i32(0)
        .i32(30)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(2)
        .i32(4)
        .i32(1)
        .raw(&flat_bigint(&[1, 2]).0);
    expect("array 1 + 2 > 2", &array.0, ErrorKind::BadIndex, 0);
    // MAP<BIGINT,BIGINT> of 1 row: 2 keys but 1 value, size 2.
    let map = b()
        .i32(0)
        .i32(31)
        .i32(4)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(2)
        .i32(4)
        .i32(0)
        .raw(&flat_bigint(&[1, 2]).0)
        .raw(&flat_bigint(&[3]).0);
    expect("map past its values", &map.0, ErrorKind::BadIndex, 0);
    // A negative offset.
    let array = b()
        .i32(0)
        .i32(30)
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(0)
        .i32(4)
        .i32(-3)
        .raw(&flat_bigint(&[1]).0);
    expect("array offset -3", &array.0, ErrorKind::BadIndex, 0);
}

#[test]
fn string_views_past_the_buffers() {
    // VARCHAR of 1 row: a 13-byte view at offset 5 over one 13-byte buffer. The view is at 18.
    let past = b()
        .i32(0)
        .i32(7)
        .i32(1)
        .u8(0)
        .u8(1)
        .i32(16)
        .long_view(13, 5)
        .i32(1)
        .i32(13)
        .raw(b"thirteen byte");
    expect("offset 5 + 13 > 13", &past.0, ErrorKind::BadIndex, 18);
    // Second row's view (at 34) points past: no string buffers at all.
    let none = b()
        .i32(0)
        .i32(8)
        .i32(2)
        .u8(0)
        .u8(1)
        .i32(32)
        .raw(&[0; 16])
        .long_view(20, 0)
        .i32(0);
    expect(
        "long view without buffers",
        &none.0,
        ErrorKind::BadIndex,
        34,
    );
    // Offset + length overflowing u64.
    let wrap = b()
        .i32(0)
        .i32(8)
        .i32(1)
        .u8(0)
        .u8(1)
        .i32(16)
        .long_view(13, u64::MAX - 3)
        .i32(1)
        .i32(13)
        .raw(&[0; 13]);
    expect("offset wraps", &wrap.0, ErrorKind::BadIndex, 18);
    // Constant long string whose buffer is shorter than its view says: buffer length at 30.
    let constant = b()
        .i32(1)
        .i32(7)
        .i32(1)
        .u8(0)
        .u8(1)
        .long_view(20, 0)
        .i32(3)
        .raw(b"abc");
    expect(
        "constant length differs",
        &constant.0,
        ErrorKind::BadIndex,
        30,
    );
    // Invalid UTF-8 inline in a VARCHAR: found when checking the vector, at 0.
    let bad_utf8 = b()
        .i32(0)
        .i32(7)
        .i32(1)
        .u8(0)
        .u8(1)
        .i32(16)
        .i32(2)
        .raw(&[0xc3, 0x28])
        .raw(&[0; 10])
        .i32(0);
    expect("invalid UTF-8", &bad_utf8.0, ErrorKind::InvalidUtf8, 0);
    // ... the same bytes are a fine VARBINARY.
    let mut varbinary = bad_utf8.0.clone();
    varbinary[4] = 8;
    assert!(from_bytes(&varbinary).is_ok());
}

#[test]
fn bad_flags_counts_and_types() {
    expect(
        "nulls flag 2",
        &b().i32(0).i32(4).i32(1).u8(2).0,
        ErrorKind::BadTag,
        12,
    );
    expect(
        "lazy flag 7",
        &b().i32(3).i32(4).i32(1).u8(7).0,
        ErrorKind::BadTag,
        12,
    );
    // BOOLEAN constant byte 2: found when checking the vector.
    let boolean = b().i32(1).i32(0).i32(1).u8(0).u8(1).u8(2);
    expect("boolean constant 2", &boolean.0, ErrorKind::BadTag, 0);
    // Scalar constant marked not scalar: the is-scalar byte is at 13.
    let constant = b().i32(1).i32(4).i32(1).u8(0).u8(0).i64(1);
    expect(
        "is-scalar 0 for BIGINT",
        &constant.0,
        ErrorKind::TypeMismatch,
        13,
    );
    // ROW<a:BIGINT> with 2 children: type 4..21, size 21..25, nulls flag 25, count at 26.
    let row = b()
        .i32(0)
        .i32(32)
        .i32(1)
        .i32(1)
        .raw(b"a")
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(2);
    expect("2 children for 1 field", &row.0, ErrorKind::BadIndex, 26);
    // ROW<a:BIGINT> whose child is an INTEGER vector.
    let child = b().i32(0).i32(3).i32(1).u8(0).u8(1).i32(4).i32(7).i32(0);
    let row = b()
        .i32(0)
        .i32(32)
        .i32(1)
        .i32(1)
        .raw(b"a")
        .i32(4)
        .i32(1)
        .u8(0)
        .i32(1)
        .u8(0)
        .raw(&child.0);
    expect(
        "child of the wrong type",
        &row.0,
        ErrorKind::TypeMismatch,
        0,
    );
    // A DICTIONARY DOUBLE over a BIGINT base.
    let dict = b()
        .i32(2)
        .i32(6)
        .i32(1)
        .u8(0)
        .i32(4)
        .i32(0)
        .raw(&flat_bigint(&[1]).0);
    expect(
        "base of the wrong type",
        &dict.0,
        ErrorKind::TypeMismatch,
        0,
    );
    // A lazy vector of 3 rows loaded with 1.
    let lazy = b().i32(3).i32(4).i32(3).u8(1).raw(&flat_bigint(&[1]).0);
    expect("loaded vector too short", &lazy.0, ErrorKind::BadIndex, 0);
    // String buffers in a BIGINT vector: the count is at 26.
    let strings = b()
        .i32(0)
        .i32(4)
        .i32(1)
        .u8(0)
        .u8(1)
        .i32(8)
        .i64(1)
        .i32(1)
        .i32(0);
    expect(
        "string buffers in BIGINT",
        &strings.0,
        ErrorKind::Unsupported,
        26,
    );
    // ROW child name that is not UTF-8: the name's length is at 12.
    let name = b().i32(0).i32(32).i32(1).i32(1).u8(0xff).i32(4).i32(0);
    expect("name not UTF-8", &name.0, ErrorKind::InvalidUtf8, 12);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // 100 000 nested ARRAY type kinds: level 129 (the vector is level 1) starts at byte 4 + 127*4.
    let mut deep_type = b().i32(0);
    for _ in 0..100_000 {
        deep_type = deep_type.i32(30);
    }
    expect(
        "deep type",
        &deep_type.0,
        ErrorKind::DepthLimitExceeded,
        4 + 127 * 4,
    );
    // 100 000 nested loaded LAZY BIGINT vectors, 13 bytes each: vector 128 starts at 127 * 13
    // and its type, 4 bytes in, is level 129.
    let mut deep_lazy = b();
    for _ in 0..100_000 {
        deep_lazy = deep_lazy.i32(3).i32(4).i32(1).u8(1);
    }
    expect(
        "deep lazy",
        &deep_lazy.0,
        ErrorKind::DepthLimitExceeded,
        127 * 13 + 4,
    );
}

#[test]
fn every_truncation_of_every_golden_file_is_an_error() {
    let files = [
        include_str!("../golden/vector/flat_bigint_with_null.hex"),
        include_str!("../golden/vector/flat_varchar_inline_and_long.hex"),
        include_str!("../golden/vector/constant_integer.hex"),
        include_str!("../golden/vector/constant_long_varchar.hex"),
        include_str!("../golden/vector/dictionary_over_varchar.hex"),
        include_str!("../golden/vector/row_of_two_named_children.hex"),
        include_str!("../golden/vector/array_of_integer.hex"),
        include_str!("../golden/vector/lazy_unloaded.hex"),
    ];
    for file in files {
        let digits: String = file
            .lines()
            .map(|line| line.split('#').next().unwrap_or(""))
            .flat_map(|line| line.chars().filter(|c| !c.is_whitespace()))
            .collect();
        let bytes: Vec<u8> = (0..digits.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap())
            .collect();
        assert!(from_bytes(&bytes).is_ok());
        for len in 0..bytes.len() {
            for result in [from_bytes(&bytes[..len]), restore(&bytes[..len])] {
                let err = result.expect_err("a truncated vector restored");
                assert_eq!(err.kind(), ErrorKind::UnexpectedEnd, "prefix of {len}");
            }
        }
    }
}
