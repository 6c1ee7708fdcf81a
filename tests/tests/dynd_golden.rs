//! Golden vectors for `serde_formats::dynd`: the worked examples of `docs/spec/dynd.md` §5,
//! written by hand from the DyND proposal's type-to-bytes table and the rules that specification
//! fixes (sentinels, map order, enums). None of the expected bytes were produced by running this
//! crate: each was derived by hand (little-endian bytes of the value, LEB128 by the protobuf
//! rules, UTF-8 by RFC 3629). The SHA-256 values are the FIPS 180-2 test vectors for "" and
//! "abc".

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize, Serializer};
use serde_formats::dynd::{self, Array, Type, Value};
use serde_formats::ErrorKind;

/// Checks the exact bytes, the round trip, and that every strict prefix is rejected.
fn golden<T>(value: T, expected: &[u8])
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    assert_eq!(dynd::to_bytes(&value).unwrap(), expected, "{value:?}");
    assert_eq!(dynd::from_bytes::<T>(expected).unwrap(), value);
    for cut in 0..expected.len() {
        let err = dynd::from_bytes::<T>(&expected[..cut]).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::UnexpectedEnd | ErrorKind::LengthPastEnd
            ),
            "{value:?} cut at {cut}: {err}"
        );
    }
}

/// docs/spec/dynd.md §5.1 (rules §3.2).
#[test]
fn bool_is_one_byte() {
    golden(false, &[0x00]);
    golden(true, &[0x01]);
}

/// docs/spec/dynd.md §5.1 (rules §3.2).
#[test]
fn integers_are_little_endian_full_width() {
    golden(-2i8, &[0xfe]);
    golden(0x1234i16, &[0x34, 0x12]);
    golden(-1i32, &[0xff; 4]);
    golden(
        0x0102_0304_0506_0708i64,
        &[0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01],
    );
    golden(i64::MIN, &[0, 0, 0, 0, 0, 0, 0, 0x80]);
    golden(1i128, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    golden(200u8, &[0xc8]);
    golden(0xbeefu16, &[0xef, 0xbe]);
    golden(0xdead_beefu32, &[0xef, 0xbe, 0xad, 0xde]);
    golden(u64::MAX, &[0xff; 8]);
    golden(
        u128::MAX - 1,
        &[
            0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xff,
        ],
    );
}

/// docs/spec/dynd.md §5.1 (rules §3.2).
#[test]
fn floats_are_their_ieee_bits_little_endian() {
    golden(1.0f32, &[0x00, 0x00, 0x80, 0x3f]);
    golden(-2.5f32, &[0x00, 0x00, 0x20, 0xc0]);
    golden(1.0f64, &[0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
    golden(-0.0f64, &[0, 0, 0, 0, 0, 0, 0, 0x80]);
    golden(f64::INFINITY, &[0, 0, 0, 0, 0, 0, 0xf0, 0x7f]);
    // A NaN outside an option is data: its bits are kept as they are.
    let nan = f64::from_bits(0x7ff8_0000_0000_0001);
    assert_eq!(
        dynd::to_bytes(&nan).unwrap(),
        [1, 0, 0, 0, 0, 0, 0xf8, 0x7f]
    );
    let back: f64 = dynd::from_bytes(&[1, 0, 0, 0, 0, 0, 0xf8, 0x7f]).unwrap();
    assert_eq!(back.to_bits(), 0x7ff8_0000_0000_0001);
}

/// docs/spec/dynd.md §5.1 (rules §3.3).
#[test]
fn char_is_its_utf8_bytes() {
    golden('A', &[0x41]);
    golden('é', &[0xc3, 0xa9]);
    golden('€', &[0xe2, 0x82, 0xac]);
    golden('😀', &[0xf0, 0x9f, 0x98, 0x80]);
    // An array of char is the UTF-8 of the text (docs/spec/dynd.md §3.3).
    golden(['h', 'é'], &[0x68, 0xc3, 0xa9]);
}

/// docs/spec/dynd.md §5.1 (rules §3.3).
#[test]
fn strings_and_bytes_are_varint_length_then_bytes() {
    golden(String::new(), &[0x00]);
    golden("hi".to_owned(), &[0x02, b'h', b'i']);
    let long = "x".repeat(300);
    let mut expected = vec![0xac, 0x02];
    expected.extend_from_slice(long.as_bytes());
    golden(long, &expected);

    struct Raw<'a>(&'a [u8]);
    impl Serialize for Raw<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    assert_eq!(
        dynd::to_bytes(&Raw(&[0xde, 0xad])).unwrap(),
        [0x02, 0xde, 0xad]
    );
    let borrowed: &[u8] = dynd::from_bytes(&[0x02, 0xde, 0xad]).unwrap();
    assert_eq!(borrowed, [0xde, 0xad]);
    // Vec<u8> is a sequence of u8, which has the same bytes as `bytes`.
    golden(vec![0xdeu8, 0xad], &[0x02, 0xde, 0xad]);
}

/// docs/spec/dynd.md §5.2 (rules §4.1).
#[test]
fn void_adds_no_bytes() {
    golden((), &[]);
    golden(((), 7u8, ()), &[0x07]);
}

/// docs/spec/dynd.md §5.2 (rules §4.3).
#[test]
fn fixed_dimension_is_packed_without_count() {
    // 3 * bool
    golden([true, false, true], &[0x01, 0x00, 0x01]);
    // 2 * 2 * uint8, C order
    golden([[1u8, 2], [3, 4]], &[1, 2, 3, 4]);
}

/// docs/spec/dynd.md §5.2 (rules §4.4).
#[test]
fn var_dimension_is_count_then_elements() {
    // var * int16
    golden(
        vec![1i16, -1, 256],
        &[0x03, 0x01, 0x00, 0xff, 0xff, 0x00, 0x01],
    );
    golden(Vec::<i16>::new(), &[0x00]);
    // var * var * uint8
    golden(vec![vec![], vec![9u8]], &[0x02, 0x00, 0x01, 0x09]);
    let mut expected = vec![0x80, 0x01];
    expected.extend(std::iter::repeat_n(0x05, 128));
    golden(vec![5u8; 128], &expected);
}

/// docs/spec/dynd.md §5.1 and §5.2: a sequence of each fixed width (the writer's one-loop path
/// for sequences of primitives) has the same layout as any other `var * T`.
#[test]
fn var_dimension_of_each_fixed_width() {
    golden(vec![true, false], &[0x02, 0x01, 0x00]);
    golden(vec![-2i8], &[0x01, 0xfe]);
    golden(vec![0xbeefu16], &[0x01, 0xef, 0xbe]);
    golden(vec![1.5f32], &[0x01, 0x00, 0x00, 0xc0, 0x3f]);
    golden(
        vec![1.5f64, -2.0],
        &[
            0x02, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0,
        ],
    );
    golden(vec![7usize], &[0x01, 7, 0, 0, 0, 0, 0, 0, 0]);
    let mut expected = vec![0x01, 0xfe];
    expected.extend([0xff; 15]);
    golden(vec![u128::MAX - 1], &expected);
    // A fixed-size array of them is packed without a count, as before.
    golden([[1u16, 2]], &[0x01, 0x00, 0x02, 0x00]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct XY {
    x: i32,
    y: Option<String>,
}

/// docs/spec/dynd.md §5.2 (rules §4.3).
#[test]
fn struct_fields_are_packed_in_order() {
    // {x: int32, y: ?string}
    golden(
        XY {
            x: 1,
            y: Some("ab".into()),
        },
        &[0x01, 0, 0, 0, 0x01, 0x02, b'a', b'b'],
    );
    golden(XY { x: -2, y: None }, &[0xfe, 0xff, 0xff, 0xff, 0x00]);
    golden((7u8, 'é'), &[0x07, 0xc3, 0xa9]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Inner {
    a: u8,
    b: Option<i8>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Outer {
    inner: Inner,
    list: Vec<Inner>,
    tag: Option<Inner>,
}

/// docs/spec/dynd.md §5.6.
#[test]
fn nested_structs_are_packed_depth_first() {
    golden(
        Outer {
            inner: Inner { a: 1, b: None },
            list: vec![Inner { a: 2, b: Some(-1) }],
            tag: Some(Inner { a: 3, b: Some(0) }),
        },
        &[0x01, 0x80, 0x01, 0x02, 0xff, 0x01, 0x03, 0x00],
    );
    golden(
        Outer {
            inner: Inner { a: 0, b: Some(5) },
            list: vec![],
            tag: None,
        },
        &[0x00, 0x05, 0x00, 0x00],
    );
}

/// docs/spec/dynd.md §5.3 (rules §4.6).
#[test]
fn options_use_dynd_sentinels() {
    golden(None::<i8>, &[0x80]);
    golden(Some(5i8), &[0x05]);
    golden(None::<i16>, &[0x00, 0x80]);
    golden(None::<i32>, &[0x00, 0x00, 0x00, 0x80]);
    golden(None::<i64>, &[0, 0, 0, 0, 0, 0, 0, 0x80]);
    golden(
        None::<i128>,
        &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80],
    );
    golden(None::<u8>, &[0xff]);
    golden(None::<u16>, &[0xff, 0xff]);
    golden(None::<u32>, &[0xff; 4]);
    golden(None::<u64>, &[0xff; 8]);
    golden(None::<u128>, &[0xff; 16]);
    golden(Some(0u64), &[0; 8]);
    golden(None::<bool>, &[0x02]);
    golden(Some(false), &[0x00]);
    golden(Some(true), &[0x01]);
    golden(None::<f32>, &[0xa2, 0x07, 0x80, 0x7f]);
    golden(
        None::<f64>,
        &[0xa2, 0x07, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f],
    );
    golden(Some(1.0f64), &[0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);
    golden(Some(f64::INFINITY), &[0, 0, 0, 0, 0, 0, 0xf0, 0x7f]);
    // Behind a Box the payload is still a primitive.
    golden(None::<Box<u8>>, &[0xff]);
    golden(vec![Some(1i8), None], &[0x02, 0x01, 0x80]);
}

/// docs/spec/dynd.md §5.3 (rules §4.6).
#[test]
fn other_options_use_a_tag_byte() {
    golden(None::<String>, &[0x00]);
    golden(Some("x".to_owned()), &[0x01, 0x01, b'x']);
    golden(None::<char>, &[0x00]);
    golden(Some('x'), &[0x01, b'x']);
    golden(None::<(u8, u8)>, &[0x00]);
    golden(Some(()), &[0x01]);
    golden(None::<Option<i8>>, &[0x00]);
    golden(Some(None::<i8>), &[0x01, 0x80]);
    golden(Some(Some(3i8)), &[0x01, 0x03]);
    golden(None::<Vec<u8>>, &[0x00]);
}

/// docs/spec/dynd.md §5.4 (rules §4.5).
#[test]
fn map_entries_are_sorted_by_encoded_key_bytes() {
    // Keys given out of order. Encoded keys: "b" = 01 62, "a" = 01 61, "ab" = 02 61 62, so
    // the length prefix puts "ab" last.
    let expected = [
        0x03, 0x01, b'a', 0x02, 0x01, b'b', 0x01, 0x02, b'a', b'b', 0x03,
    ];
    let mut hash = HashMap::new();
    hash.insert("b".to_owned(), 1u8);
    hash.insert("ab".to_owned(), 3);
    hash.insert("a".to_owned(), 2);
    assert_eq!(dynd::to_bytes(&hash).unwrap(), expected);
    let tree: BTreeMap<String, u8> = hash.clone().into_iter().collect();
    golden(tree, &expected);
    assert_eq!(
        dynd::from_bytes::<HashMap<String, u8>>(&expected).unwrap(),
        hash
    );
    // Little-endian integer keys sort by their bytes: 256 (00 01) before 1 (01 00).
    let numbers: BTreeMap<u16, bool> = [(1, true), (256, false)].into_iter().collect();
    golden(numbers, &[0x02, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01]);
    golden(BTreeMap::<u8, u8>::new(), &[0x00]);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum Shape {
    Empty,
    Circle(f32),
    Line(u8, u8),
    Named { name: String },
}

/// docs/spec/dynd.md §5.5 (rules §4.7).
#[test]
fn enums_are_varint_index_then_payload() {
    golden(Shape::Empty, &[0x00]);
    golden(Shape::Circle(1.0), &[0x01, 0x00, 0x00, 0x80, 0x3f]);
    golden(Shape::Line(1, 2), &[0x02, 0x01, 0x02]);
    golden(Shape::Named { name: "n".into() }, &[0x03, 0x01, b'n']);
}

/// docs/spec/dynd.md §5.3 (rules §4.2, §4.6).
#[test]
fn newtypes_and_unit_structs_are_transparent() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Meters(u16);
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Marker;
    golden(Meters(0x0102), &[0x02, 0x01]);
    golden(Marker, &[]);
    // A newtype is not a primitive: its option uses the tag.
    golden(Some(Meters(1)), &[0x01, 0x01, 0x00]);
    golden(None::<Meters>, &[0x00]);
}

/// docs/spec/dynd.md §5.7 (rules §4.11, §4.12).
#[test]
fn array_any_is_type_string_then_data() {
    let array = Array {
        ty: "3 * bool".parse().unwrap(),
        value: Value::List(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(true),
        ]),
    };
    let expected = b"\x083 * bool\x01\x00\x01";
    assert_eq!(dynd::to_bytes(&array).unwrap(), expected);
    assert_eq!(dynd::from_array_bytes(expected).unwrap(), array);
    assert_eq!(
        dynd::to_array_bytes(&[true, false, true]).unwrap(),
        expected
    );

    // {x: int32, y: ?string}
    let expected = b"\x16{x: int32, y: ?string}\x01\x00\x00\x00\x00";
    assert_eq!(
        dynd::to_array_bytes(&XY { x: 1, y: None }).unwrap(),
        expected
    );
    let array = dynd::from_array_bytes(expected).unwrap();
    assert_eq!(
        array.value,
        Value::Struct(vec![
            ("x".into(), Value::Int32(1)),
            ("y".into(), Value::Missing)
        ])
    );
    assert_eq!(array.ty.to_string(), "{x: int32, y: ?string}");

    // The other scalar types of the proposal's table, through Value.
    let array = Array {
        ty: "(complex[float32], bytes[2], bytes, type, pointer[uint8], void, ?float32)"
            .parse()
            .unwrap(),
        value: Value::Tuple(vec![
            Value::ComplexFloat32(1.0, -2.5),
            Value::Bytes(vec![0xaa, 0xbb]),
            Value::Bytes(vec![0xcc]),
            Value::Type(Type::Int8),
            Value::UInt8(9),
            Value::Void,
            Value::Missing,
        ]),
    };
    let mut expected = vec![0x49]; // 73 bytes of type string
    expected.extend_from_slice(
        b"(complex[float32], bytes[2], bytes, type, pointer[uint8], void, ?float32)",
    );
    expected.extend_from_slice(&[0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0]);
    expected.extend_from_slice(&[0xaa, 0xbb, 0x01, 0xcc, 0x04, b'i', b'n', b't', b'8', 0x09]);
    expected.extend_from_slice(&[0xa2, 0x07, 0x80, 0x7f]);
    assert_eq!(dynd::to_bytes(&array).unwrap(), expected);
    assert_eq!(dynd::from_array_bytes(&expected).unwrap(), array);
}

/// docs/spec/dynd.md §5.8 (rules §4.9).
#[test]
fn digest_is_sha256_of_the_canonical_bytes() {
    // FIPS 180-2 examples: SHA-256("") and SHA-256("abc").
    assert_eq!(
        dynd::digest(&()).unwrap(),
        [
            0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f,
            0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b,
            0x78, 0x52, 0xb8, 0x55
        ]
    );
    let abc = [
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22,
        0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00,
        0x15, 0xad,
    ];
    assert_eq!(dynd::digest(&(b'a', b'b', b'c')).unwrap(), abc);
    assert_eq!(dynd::digest(&['a', 'b', 'c']).unwrap(), abc);
    // Same entries, same address, whatever the map type.
    let hash: HashMap<u32, &str> = [(3, "c"), (1, "a"), (2, "b")].into_iter().collect();
    let tree: BTreeMap<u32, &str> = hash.clone().into_iter().collect();
    assert_eq!(dynd::digest(&hash).unwrap(), dynd::digest(&tree).unwrap());
}

#[test]
fn entry_points_agree() {
    let value = XY {
        x: 5,
        y: Some("q".into()),
    };
    let bytes = dynd::to_bytes(&value).unwrap();
    let mut written = Vec::new();
    dynd::to_writer(&mut written, &value).unwrap();
    assert_eq!(written, bytes);
    assert_eq!(dynd::from_reader::<_, XY>(&bytes[..]).unwrap(), value);
    let mut with_rest = bytes.clone();
    with_rest.push(0xee);
    let (taken, rest) = dynd::take_from_bytes::<XY>(&with_rest).unwrap();
    assert_eq!((taken, rest), (value, &[0xee][..]));
}
