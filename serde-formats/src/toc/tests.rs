//! Tests of the whole module: exact bytes from the MessagePack specification and
//! `docs/spec/toc-msgpack.md`, the
//! serde mapping, the reader's navigation, and proptest round trips.

use std::collections::BTreeMap;
use std::io::Cursor as IoCursor;

use proptest::prelude::*;
use serde::{Deserialize, Serialize};

use super::*;
use crate::ErrorKind;

/// The data and TOC sections of a file, split by its header (docs/spec/toc-msgpack.md §4.2).
pub(super) fn sections(file: &[u8]) -> (&[u8], &[u8]) {
    let header = Header::parse(file, &DEFAULT_MAGIC, 0).unwrap();
    let data_end = DATA_START + header.toc_start as usize;
    assert_eq!(file.len(), data_end + header.toc_len as usize);
    (&file[DATA_START..data_end], &file[data_end..])
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Dot,
    Circle(f64),
    Line(i8, i8),
    Rect { w: u8, h: u8 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Item {
    id: u32,
    tag: Option<String>,
    shape: Shape,
    #[serde(with = "bytes_as_bin")]
    raw: Vec<u8>,
    unit: (),
}

mod bytes_as_bin {
    pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let v: super::Value = serde::Deserialize::deserialize(d)?;
        match v {
            super::Value::Bin(b) => Ok(b),
            _ => Err(serde::de::Error::custom("expected bytes")),
        }
    }
}

/// The worked examples of docs/spec/toc-msgpack.md §5.6.
#[test]
fn serde_mapping_bytes_follow_the_msgpack_spec() {
    // Hand-encoded from the MessagePack specification.
    let cases: Vec<(Vec<u8>, Vec<u8>)> = vec![
        (data_of(&Shape::Dot), b"\xa3Dot".to_vec()),
        (
            data_of(&Shape::Circle(0.5)),
            b"\x81\xa6Circle\xcb\x3f\xe0\x00\x00\x00\x00\x00\x00".to_vec(),
        ),
        (
            data_of(&Shape::Line(-1, 2)),
            b"\x81\xa4Line\x92\xff\x02".to_vec(),
        ),
        (
            data_of(&Shape::Rect { w: 200, h: 1 }),
            b"\x81\xa4Rect\x82\xa1w\xcc\xc8\xa1h\x01".to_vec(),
        ),
        (
            data_of(&1.5f32),
            b"\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00".to_vec(),
        ),
        (data_of(&Some(-33i64)), b"\xd0\xdf".to_vec()),
        (data_of(&Option::<u8>::None), b"\xc0".to_vec()),
        (data_of(&()), b"\xc0".to_vec()),
        (data_of(&'é'), b"\xa2\xc3\xa9".to_vec()),
        (
            data_of(&u64::MAX),
            b"\xcf\xff\xff\xff\xff\xff\xff\xff\xff".to_vec(),
        ),
        (
            data_of(&i64::MIN),
            b"\xd3\x80\x00\x00\x00\x00\x00\x00\x00".to_vec(),
        ),
        (data_of(&300i32), b"\xcd\x01\x2c".to_vec()),
        (
            data_of(&"x".repeat(32)),
            [b"\xd9\x20".as_slice(), &[b'x'; 32]].concat(),
        ),
        (data_of(&(1u8, true)), b"\x92\x01\xc3".to_vec()),
        (
            data_of(&BTreeMap::from([(-1i32, "a"), (5, "b")])),
            b"\x82\xff\xa1a\x05\xa1b".to_vec(),
        ),
    ];
    for (got, expected) in cases {
        assert_eq!(got, expected);
    }
}

fn data_of<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let file = to_bytes(value).unwrap();
    sections(&file).0.to_vec()
}

#[test]
fn struct_is_a_map_keyed_by_field_name_and_round_trips() {
    let item = Item {
        id: 7,
        tag: None,
        shape: Shape::Rect { w: 1, h: 2 },
        raw: vec![1, 2],
        unit: (),
    };
    let data = data_of(&item);
    let expected = [
        b"\x85\xa2id\x07\xa3tag\xc0\xa5shape\x81\xa4Rect\x82\xa1w\x01\xa1h\x02".as_slice(),
        b"\xa3raw\xc4\x02\x01\x02\xa4unit\xc0",
    ]
    .concat();
    assert_eq!(data, expected);
    assert_eq!(from_bytes::<Item>(&to_bytes(&item).unwrap()).unwrap(), item);
}

#[test]
fn struct_also_reads_from_an_array() {
    // [7, nil, "Dot", bin [9], nil] under a hand-written header and TOC.
    let data = b"\x95\x07\xc0\xa3Dot\xc4\x01\x09\xc0";
    let file = hand_file(data, &[0x81, 0xa1, b'p', 0x92, 0x00, data.len() as u8]);
    let item: Item = from_bytes(&file).unwrap();
    assert_eq!(item.shape, Shape::Dot);
    assert_eq!(item.raw, [9]);
}

/// A file built by hand from the layout of docs/spec/toc-msgpack.md §4.5 (single-byte header
/// integers only).
fn hand_file(data: &[u8], toc: &[u8]) -> Vec<u8> {
    assert!(data.len() < 128 && toc.len() < 128);
    let mut file = DEFAULT_MAGIC.to_vec();
    file.extend_from_slice(&[0; 9]);
    file.push(data.len() as u8);
    file.extend_from_slice(&[0; 9]);
    file.push(toc.len() as u8);
    file.extend_from_slice(data);
    file.extend_from_slice(toc);
    file
}

#[test]
fn unknown_length_sequences_give_the_same_file() {
    struct Unsized(Vec<Vec<u32>>);
    impl Serialize for Unsized {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            // filter() hides the exact length, so the serializer sees `None`.
            s.collect_seq(self.0.iter().filter(|_| true))
        }
    }
    let value: Vec<Vec<u32>> = (0..40).map(|i| (0..i * 3).collect()).collect();
    for block_size in [1, 10, 100, 8192] {
        let config = Config::new().block_size(block_size);
        assert_eq!(
            to_bytes_with(&Unsized(value.clone()), &config).unwrap(),
            to_bytes_with(&value, &config).unwrap(),
            "block size {block_size}"
        );
    }
}

#[test]
fn to_writer_seeks_back_from_any_start_and_ends_after_the_file() {
    let mut cursor = IoCursor::new(b"prefix".to_vec());
    cursor.set_position(6);
    to_writer(&mut cursor, &vec![1.5f64; 3000]).unwrap();
    assert_eq!(cursor.position() as usize, cursor.get_ref().len());
    let bytes = cursor.into_inner();
    assert_eq!(&bytes[..6], b"prefix");
    assert_eq!(bytes[6..], to_bytes(&vec![1.5f64; 3000]).unwrap()[..]);
    let mut at = IoCursor::new(&bytes);
    at.set_position(6);
    let reader = Reader::new(at).unwrap();
    assert_eq!(reader.get::<f64>("2999").unwrap(), 1.5);
}

#[test]
fn write_file_replaces_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.msglc");
    std::fs::write(&path, b"old").unwrap();
    write_file(&path, &("new", 1u8)).unwrap();
    assert_eq!(
        Reader::open(&path).unwrap().get::<String>("0").unwrap(),
        "new"
    );
    // Only the target is left in the directory: the temporary file was renamed.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn config_magic_is_right_aligned_and_checked() {
    let config = Config::new().magic(b"my-format").unwrap();
    let file = to_bytes_with(&1u8, &config).unwrap();
    assert_eq!(&file[..21], &[0u8; 21]);
    assert_eq!(&file[21..30], b"my-format");
    assert_eq!(from_bytes_with::<u8>(&file, &config).unwrap(), 1);
    assert_eq!(
        from_bytes::<u8>(&file).unwrap_err().kind(),
        ErrorKind::BadMagic
    );
    assert!(Config::new().magic(&[1; 31]).is_err());
}

#[test]
fn depth_limit_stops_the_writer() {
    let mut value = Value::Nil;
    for _ in 0..10 {
        value = Value::Array(vec![value]);
    }
    let config = Config::new().depth_limit(5);
    assert_eq!(
        to_bytes_with(&value, &config).unwrap_err().kind(),
        ErrorKind::DepthLimitExceeded
    );
    let file = to_bytes(&value).unwrap();
    assert_eq!(
        from_bytes_with::<Value>(&file, &config).unwrap_err().kind(),
        ErrorKind::DepthLimitExceeded
    );
}

fn records(n: u32) -> Vec<Item> {
    (0..n)
        .map(|id| Item {
            id,
            tag: (id % 3 == 0).then(|| format!("t{id}")),
            shape: match id % 4 {
                0 => Shape::Dot,
                1 => Shape::Circle(f64::from(id)),
                2 => Shape::Line(1, -1),
                _ => Shape::Rect { w: 3, h: 4 },
            },
            raw: vec![id as u8; (id % 7) as usize],
            unit: (),
        })
        .collect()
}

/// A map of 50 records at `items`, 100 floats at `floats` and a 1 at `one`, and its file with
/// block size 64.
fn records_floats_and_one(one: &str) -> (BTreeMap<String, Value>, Vec<u8>) {
    let map = BTreeMap::from([
        (
            "items".to_owned(),
            Value::Array(records(50).iter().map(to_value).collect()),
        ),
        ("floats".to_owned(), to_value(&vec![0.25f64; 100])),
        (one.to_owned(), Value::UInt(1)),
    ]);
    let file = to_bytes_with(&map, &Config::new().block_size(64)).unwrap();
    (map, file)
}

#[test]
fn reader_walks_maps_arrays_blocks_and_small_values() {
    let (_, file) = records_floats_and_one("a/b~c");
    let reader = Reader::from_slice(&file).unwrap();
    let root = reader.root().unwrap();
    assert_eq!(root.len().unwrap(), 3);
    assert_eq!(root.keys::<String>().unwrap(), ["a/b~c", "floats", "items"]);
    assert_eq!(reader.get::<u8>("a~1b~0c").unwrap(), 1);
    assert_eq!(reader.get::<u8>(crate::toc_path!["a/b~c"]).unwrap(), 1);
    // 100 floats of 9 bytes with T = 64: a block list of 8-float blocks.
    let floats = root.child("floats").unwrap();
    assert!(matches!(floats.kind, node::Kind::Blocks { .. }));
    assert_eq!(floats.len().unwrap(), 100);
    assert_eq!(floats.child(99).unwrap().decode::<f64>().unwrap(), 0.25);
    assert_eq!(floats.child(-100).unwrap().decode::<f64>().unwrap(), 0.25);
    assert_eq!(floats.decode::<Vec<f64>>().unwrap(), vec![0.25; 100]);
    assert_eq!(
        floats.child(100).unwrap_err().kind(),
        ErrorKind::PathNotFound
    );
    assert_eq!(
        floats.child(-101).unwrap_err().kind(),
        ErrorKind::PathNotFound
    );
    // Items are indexed, each one small: paths continue inside its bytes.
    let item = reader.node("items/49").unwrap();
    assert_eq!(
        item.keys::<String>().unwrap(),
        ["id", "tag", "shape", "raw", "unit"]
    );
    assert_eq!(item.len().unwrap(), 5);
    assert_eq!(reader.get::<Item>("items/49").unwrap(), records(50)[49]);
    assert_eq!(reader.get::<u8>("items/-1/shape/Circle").unwrap_or(0), 0);
    assert_eq!(reader.get::<i8>("items/2/shape/Line/1").unwrap(), -1);
    assert_eq!(
        reader
            .get::<u8>(
                Path::root()
                    .key("items")
                    .index(7)
                    .key("shape")
                    .key("Rect")
                    .key("h")
            )
            .unwrap(),
        4
    );
    for path in ["items/0/nope", "items/x", "items/0/id/0", "nope"] {
        assert_eq!(
            reader.get::<Value>(path).unwrap_err().kind(),
            ErrorKind::PathNotFound,
            "{path}"
        );
    }
    assert_eq!(
        reader
            .root()
            .unwrap()
            .child("items")
            .unwrap()
            .child(0)
            .unwrap()
            .child("id")
            .unwrap()
            .len()
            .unwrap_err()
            .kind(),
        ErrorKind::Unsupported
    );
}

fn to_value<T: Serialize>(value: &T) -> Value {
    from_bytes(&to_bytes(value).unwrap()).unwrap()
}

#[test]
fn integer_keys_are_reached_by_index_or_decimal_text() {
    let map: BTreeMap<i64, &str> = (-20..20).map(|i| (i, "v")).collect();
    let file = to_bytes_with(&map, &Config::new().block_size(1)).unwrap();
    let reader = Reader::from_slice(&file).unwrap();
    assert_eq!(reader.get::<String>("-20").unwrap(), "v");
    assert_eq!(reader.get::<String>(Path::root().index(19)).unwrap(), "v");
    assert_eq!(
        reader.get::<String>("20").unwrap_err().kind(),
        ErrorKind::PathNotFound
    );
    assert_eq!(
        reader.root().unwrap().keys::<i64>().unwrap(),
        (-20..20).collect::<Vec<_>>()
    );
    // An integer segment finds the integer key first; a quoted one only the string key.
    let mixed = Value::Map(vec![
        (Value::from("1"), Value::from("str")),
        (Value::UInt(1), Value::from("int")),
    ]);
    let file = to_bytes(&mixed).unwrap();
    let reader = Reader::from_slice(&file).unwrap();
    assert_eq!(reader.get::<String>("1").unwrap(), "int");
    assert_eq!(reader.get::<String>("/'1'").unwrap(), "str");
    assert_eq!(reader.get::<String>(Path::root().index(1)).unwrap(), "int");
    assert_eq!(reader.get::<String>(Path::root().key("1")).unwrap(), "str");
}

#[test]
fn every_ambiguous_key_is_reached_by_its_own_path() {
    let entries: Vec<(Value, &str)> = vec![
        (Value::from(""), "empty"),
        (Value::from("1"), "string 1"),
        (Value::UInt(1), "int 1"),
        (Value::from("-1"), "string -1"),
        (Value::Int(-1), "int -1"),
        (Value::from("'x'"), "quoted x"),
        (Value::from("x"), "x"),
        (Value::from("a/b"), "a/b"),
        (Value::from("~"), "tilde"),
        (Value::from("01"), "string 01"),
        (Value::from("7"), "string 7 alone"),
        (Value::UInt(8), "int 8 alone"),
    ];
    let map = Value::Map(
        entries
            .iter()
            .map(|(k, v)| (k.clone(), Value::from(*v)))
            .collect(),
    );
    let cases = [
        ("/", "empty"),
        ("/''", "empty"),
        ("''", "empty"),
        ("/1", "int 1"),
        ("1", "int 1"),
        ("/'1'", "string 1"),
        ("/-1", "int -1"),
        ("/'-1'", "string -1"),
        ("/''x''", "quoted x"),
        ("/'x'", "x"),
        ("/x", "x"),
        ("/a~1b", "a/b"),
        ("/~0", "tilde"),
        ("/01", "string 01"),
        ("/'01'", "string 01"),
        // An integer falls back to the string key of the same text; a string never to an int.
        ("/7", "string 7 alone"),
        ("/'7'", "string 7 alone"),
        ("/8", "int 8 alone"),
    ];
    // Indexed by the TOC (block size 1) and found by scanning the value's bytes (default).
    for config in [Config::new().block_size(1), Config::new()] {
        let file = to_bytes_with(&map, &config).unwrap();
        let reader = Reader::from_slice(&file).unwrap();
        for (path, expected) in cases {
            assert_eq!(reader.get::<String>(path).unwrap(), expected, "{path}");
        }
        for path in ["/'8'", "//", "/'a/b'", "/2"] {
            let err = reader.get::<String>(path).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::PathNotFound, "{path}");
        }
        // The root is the empty path, not `/`.
        assert_eq!(reader.get::<Value>("").unwrap(), map);
        // Every key's displayed path reads it back.
        for (key, expected) in &entries {
            let segment = match key {
                Value::Str(text) => Segment::Key(text.clone()),
                Value::UInt(v) => Segment::Index(*v as i64),
                Value::Int(v) => Segment::Index(*v),
                _ => unreachable!(),
            };
            let path = Path::from_segments(vec![segment]);
            let shown = path.to_string();
            assert_eq!(reader.get::<String>(&shown).unwrap(), *expected, "{shown}");
        }
    }
    // On arrays, quoted or other string segments are never indices.
    let file = to_bytes(&vec![10u8, 20, 30]).unwrap();
    let reader = Reader::from_slice(&file).unwrap();
    assert_eq!(reader.get::<u8>("/-1").unwrap(), 30);
    assert_eq!(reader.get::<u8>("1").unwrap(), 20);
    for path in ["/'1'", "/01", "/", "/3", "/-4"] {
        let err = reader.get::<u8>(path).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PathNotFound, "{path}");
    }
}

#[test]
fn combined_files_nest_and_decode_whole() {
    let a = to_bytes(&BTreeMap::from([("x", vec![1u8, 2, 3])])).unwrap();
    let b = to_bytes(&"hello").unwrap();
    let dict = combine_map(&[("a", &a), ("b", &b)]).unwrap();
    let list = combine_list(&[&dict, &b, &a]).unwrap();
    let reader = Reader::from_slice(&list).unwrap();
    assert_eq!(reader.root().unwrap().len().unwrap(), 3);
    assert_eq!(reader.get::<u8>("0/a/x/2").unwrap(), 3);
    assert_eq!(reader.get::<String>("0/b").unwrap(), "hello");
    assert_eq!(reader.get::<String>("1").unwrap(), "hello");
    assert_eq!(
        reader.node("0").unwrap().keys::<String>().unwrap(),
        ["a", "b"]
    );
    let whole: Value = from_bytes(&list).unwrap();
    let expected_a = Value::Map(vec![(
        Value::from("x"),
        Value::Array(vec![Value::UInt(1), Value::UInt(2), Value::UInt(3)]),
    )]);
    assert_eq!(
        whole,
        Value::Array(vec![
            Value::Map(vec![
                (Value::from("a"), expected_a.clone()),
                (Value::from("b"), Value::from("hello"))
            ]),
            Value::from("hello"),
            expected_a,
        ])
    );
    // The combined TOC, by hand from docs/spec/toc-msgpack.md §4.6: {"t": [0, start of b, start of
    // a]}.
    let (_, toc) = sections(&list);
    // Positive fixint below 128, else uint8 (`cc`) below 256: both starts are under 256.
    let uint = |v: usize| -> Vec<u8> {
        assert!(v < 256);
        if v < 128 {
            vec![v as u8]
        } else {
            vec![0xcc, v as u8]
        }
    };
    let expected = [
        vec![0x81, 0xa1, b't', 0x93, 0x00],
        uint(dict.len()),
        uint(dict.len() + b.len()),
    ]
    .concat();
    assert_eq!(toc, expected);
    let mut combiner = Combiner::new(IoCursor::new(Vec::new())).unwrap();
    combiner.add(&a).unwrap();
    assert_eq!(
        combiner.add_named("n", &a).unwrap_err().kind(),
        ErrorKind::Message
    );
    assert_eq!(
        combine_map(&[("a", &a), ("a", &b)]).unwrap_err().kind(),
        ErrorKind::Message
    );
    assert_eq!(
        combine_list(&[&a[..a.len() - 1]]).unwrap_err().kind(),
        ErrorKind::UnexpectedEnd
    );
}

#[test]
fn io_reader_matches_slice_reader() {
    let value = records(300);
    let file = to_bytes_with(&value, &Config::new().block_size(256)).unwrap();
    let slice = Reader::from_slice(&file).unwrap();
    let io = Reader::new(IoCursor::new(file.clone())).unwrap();
    for i in [0, 1, 150, 299] {
        let path = format!("{i}/shape");
        assert_eq!(slice.get::<Shape>(&path).unwrap(), value[i].shape);
        assert_eq!(io.get::<Shape>(&path).unwrap(), value[i].shape);
    }
    assert_eq!(io.decode::<Vec<Item>>().unwrap(), value);
}

#[test]
fn take_from_bytes_returns_the_rest() {
    let mut bytes = to_bytes(&42u16).unwrap();
    bytes.extend_from_slice(b"tail");
    let (value, rest): (u16, _) = take_from_bytes(&bytes).unwrap();
    assert_eq!((value, rest), (42, &b"tail"[..]));
    assert_eq!(
        from_bytes::<u16>(&bytes).unwrap_err().kind(),
        ErrorKind::TrailingBytes
    );
}

pub(super) fn value_strategy() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::UInt),
        (i64::MIN..0).prop_map(Value::Int),
        (0u64..300).prop_map(Value::UInt),
        any::<f64>().prop_map(Value::F64),
        any::<f32>().prop_map(Value::F32),
        (any::<i8>(), proptest::collection::vec(any::<u8>(), 0..20))
            .prop_map(|(tag, data)| Value::Ext(tag, data)),
        ".{0,40}".prop_map(Value::Str),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::Bin),
    ];
    leaf.prop_recursive(4, 96, 12, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..14).prop_map(Value::Array),
            proptest::collection::vec((inner.clone(), inner), 0..8).prop_map(Value::Map),
        ]
    })
}

/// Every path to a node reachable by string or integer keys, with the node (first match wins,
/// as documented).
fn paths(value: &Value, prefix: &mut Vec<Segment>, out: &mut Vec<(Vec<Segment>, Value)>) {
    out.push((prefix.clone(), value.clone()));
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                prefix.push(Segment::Index(i as i64));
                paths(item, prefix, out);
                prefix.pop();
            }
        }
        Value::Map(entries) => {
            for (i, (key, item)) in entries.iter().enumerate() {
                let first = |k: &Value| entries.iter().position(|(other, _)| other == k) == Some(i);
                let segment = match key {
                    Value::Str(text) if first(key) => Segment::Key(text.clone()),
                    Value::Int(v) if first(key) => Segment::Index(*v),
                    Value::UInt(v) if first(key) && *v <= i64::MAX as u64 => {
                        Segment::Index(*v as i64)
                    }
                    _ => continue,
                };
                prefix.push(segment);
                paths(item, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn round_trips_and_every_path_reads_its_node(
        value in value_strategy(),
        block_size in 1u64..160,
        trivial_size in 1u64..30,
    ) {
        let config = Config::new().block_size(block_size).trivial_size(trivial_size);
        let file = to_bytes_with(&value, &config).unwrap();
        prop_assert_eq!(&from_bytes::<Value>(&file).unwrap(), &value);
        let reader = Reader::from_slice(&file).unwrap();
        let mut all = Vec::new();
        paths(&value, &mut Vec::new(), &mut all);
        for (path, node) in all.iter().take(60) {
            let got: Value = reader.get(Path::from_segments(path.clone())).unwrap();
            prop_assert_eq!(&got, node);
        }
    }

    #[test]
    fn typed_round_trip(ids in proptest::collection::vec(any::<u32>(), 0..60), block_size in 1u64..300) {
        let items: Vec<Item> = ids.iter().map(|&id| records(id % 16 + 1).pop().unwrap()).collect();
        let file = to_bytes_with(&items, &Config::new().block_size(block_size)).unwrap();
        prop_assert_eq!(from_bytes::<Vec<Item>>(&file).unwrap(), items);
    }

    #[test]
    fn reader_never_panics_on_corrupted_files(
        value in value_strategy(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut file = to_bytes_with(&value, &Config::new().block_size(8)).unwrap();
        for (at, byte) in flips {
            let i = at.index(file.len());
            file[i] = byte;
        }
        exercise(&file);
        let len = cut.index(file.len());
        exercise(&file[..len]);
    }
}

/// Runs every reader entry point; the only requirement is no panic.
pub(crate) fn exercise(file: &[u8]) {
    let _ = from_bytes::<Value>(file);
    if let Ok(reader) = Reader::from_slice(file) {
        if let Ok(root) = reader.root() {
            let _ = root.len();
            let _ = root.keys::<Value>();
            let _ = root.decode::<Value>();
            let _ = reader.toc_stats();
            let _ = root.span();
            if let Ok(children) = root.indexed_children(4) {
                for (_, child) in children {
                    let _ = (child.span(), child.block_list(), child.indexed_children(4));
                }
            }
            for i in [0, 1, -1] {
                if let Ok(child) = root.child(i) {
                    let _ = child.decode::<Value>();
                    let _ = child.len();
                    let _ = child.child(0).and_then(|c| c.decode::<Value>());
                }
            }
        }
    }
}

#[test]
fn every_truncation_of_a_file_is_an_error() {
    let value = records(20);
    let file = to_bytes_with(&value, &Config::new().block_size(40)).unwrap();
    for len in 0..file.len() {
        assert!(
            from_bytes::<Vec<Item>>(&file[..len]).is_err(),
            "prefix {len}"
        );
        assert!(Reader::from_slice(&file[..len]).is_err(), "prefix {len}");
    }
}

#[test]
fn inspection_reports_shapes_spans_blocks_and_indexed_children() {
    let (map, file) = records_floats_and_one("a");
    let (data, toc) = sections(&file);
    let reader = Reader::from_slice(&file).unwrap();
    assert_eq!(reader.data_len(), data.len() as u64);
    assert_eq!(reader.toc_len(), toc.len() as u64);
    let root = reader.root().unwrap();
    assert_eq!(root.shape(), NodeShape::Map);
    assert_eq!(root.data_start(), DATA_START as u64);
    assert_eq!(root.span().unwrap(), Some((0, data.len() as u64)));
    let children = root.indexed_children(usize::MAX).unwrap();
    let keys: Vec<Value> = children.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys, ["a", "floats", "items"].map(Value::from));
    // Every child's span holds exactly the msgpack of its value.
    // A block list's span starts at its first block, after the array header (3 bytes here).
    for ((key, child), header) in children.iter().zip([0, 3, 0]) {
        let Value::Str(key) = key else {
            panic!("{key:?}")
        };
        let (s, e) = child.span().unwrap().unwrap();
        assert_eq!(
            &data[s as usize..e as usize],
            &data_of(&map[key.as_str()])[header..]
        );
    }
    assert_eq!(children[0].1.shape(), NodeShape::Value);
    assert_eq!(children[0].1.block_list().unwrap(), []);
    // 100 floats of 9 bytes with T = 64: blocks of 8 floats (72 bytes), the last of 4.
    let floats = &children[1].1;
    assert_eq!(floats.shape(), NodeShape::Blocks);
    let blocks = floats.block_list().unwrap();
    assert_eq!(blocks.len(), 13);
    assert!(blocks[..12]
        .iter()
        .all(|b| b.count == 8 && b.end - b.start == 72));
    assert_eq!(
        (blocks[12].count, blocks[12].end - blocks[12].start),
        (4, 36)
    );
    assert_eq!(floats.indexed_children(5).unwrap().len(), 0);
    let items = &children[2].1;
    assert_eq!(items.shape(), NodeShape::Array);
    let first = items.indexed_children(3).unwrap();
    assert_eq!(first.len(), 3);
    assert_eq!(first[2].0, Value::UInt(2));
    assert_eq!(first[2].1.decode::<Item>().unwrap(), records(50)[2]);

    let stats = reader.toc_stats().unwrap();
    assert_eq!(
        stats,
        TocStats {
            // root, 3 children, 50 items
            nodes: 54,
            indexed: 2,
            depth: 2,
            block_lists: 1,
            blocks: 13,
            nested_files: 0,
            toc_bytes: toc.len() as u64,
            data_bytes: data.len() as u64,
        }
    );
}

#[test]
fn toc_stats_count_nested_files_and_their_tocs() {
    let a = to_bytes(&BTreeMap::from([("x", vec![1u8, 2, 3])])).unwrap();
    let b = to_bytes(&"hello").unwrap();
    let list = combine_list(&[&a, &b]).unwrap();
    let reader = Reader::from_slice(&list).unwrap();
    let toc_of = |file: &[u8]| sections(file).1.len() as u64;
    let stats = reader.toc_stats().unwrap();
    assert_eq!(stats.nested_files, 2);
    assert_eq!(stats.nodes, 3);
    assert_eq!(stats.toc_bytes, toc_of(&list) + toc_of(&a) + toc_of(&b));
    assert_eq!(stats.data_bytes, (a.len() + b.len()) as u64);
    let root = reader.root().unwrap();
    assert_eq!(root.span().unwrap(), None);
    let children = root.indexed_children(9).unwrap();
    assert_eq!(
        children[1].1.data_start(),
        (DATA_START + a.len() + DATA_START) as u64
    );
    assert_eq!(children[1].1.decode::<String>().unwrap(), "hello");
}

#[test]
fn toc_stats_of_a_corrupted_toc_is_an_error() {
    let rows: Vec<Vec<u32>> = (0..4).map(|i| vec![i; 300]).collect();
    let mut file = to_bytes_with(&rows, &Config::new().block_size(100)).unwrap();
    // The TOC ends with the end of the last block, a uint16 (`cd`): point it past the data.
    let at = file.len() - 3;
    assert_eq!(file[at], 0xcd);
    file[at..].copy_from_slice(&[0xcd, 0xff, 0xff]);
    let reader = Reader::from_slice(&file).unwrap();
    let err = reader.toc_stats().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadToc);
    assert_eq!(err.message(), Some("block outside the data or inverted"));
    // The walk stops there; the rows before it are still readable.
    assert_eq!(reader.get::<Vec<u32>>("2").unwrap(), vec![2; 300]);
}
