//! Behaviour of the `#[columnar]` derive on its own: skip, borrow, generics, the container types,
//! wide map rows, `iter_from_bytes`, and strict decoding of hand-made malformed input
//! (`docs/spec/columnar.md` §8.2: unequal column lengths, trailing bytes and duplicate optional
//! indexes are errors; unknown optional indexes are skipped; a missing optional column is `Default`
//! to the row count).
//!
//! Inputs are written by hand here from the wire rules (see tests/golden/columnar/PROVENANCE.md,
//! rules R1-R10); no expected bytes come from our encoder.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};

use columnar::{columnar, ErrorKind};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

fn assert_error<T: std::fmt::Debug>(
    result: columnar::Result<T>,
    kind: ErrorKind,
) -> columnar::Error {
    match result {
        Ok(v) => panic!("expected {kind:?}, decoded {v:?}"),
        Err(e) => {
            assert_eq!(e.kind(), kind, "{e}");
            e
        }
    }
}

/// [`assert_error`] of `columnar::from_bytes::<T>(bytes)`.
fn assert_decode_error<'de, T>(bytes: &'de [u8], kind: ErrorKind) -> columnar::Error
where
    T: Deserialize<'de> + std::fmt::Debug,
{
    assert_error(columnar::from_bytes::<T>(bytes), kind)
}

// ------------------------------------------------------------------ skip

#[columnar(vec, map, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct SkipRow {
    #[columnar(strategy = "DeltaRle")]
    id: u32,
    #[columnar(skip)]
    cache: String,
    #[columnar(skip)]
    hits: Vec<u64>,
    #[columnar(optional, index = 0)]
    note: String,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct SkipTable {
    #[columnar(class = "vec")]
    rows: Vec<SkipRow>,
    #[columnar(skip)]
    scratch: HashMap<String, u8>,
    #[columnar(class = "map")]
    map: BTreeMap<u8, SkipRow>,
}

#[test]
fn skipped_fields_are_not_written_and_decode_to_default() {
    let row = |id: u32| SkipRow {
        id,
        cache: "cached".into(),
        hits: vec![1, 2, 3],
        note: format!("n{id}"),
    };
    let table = SkipTable {
        rows: vec![row(1), row(2)],
        scratch: [("k".to_owned(), 1)].into_iter().collect(),
        map: [(9, row(3))].into_iter().collect(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    // R10: 2 table fields; the rows container holds 2 fields (id, note)
    assert_eq!(bytes[..2], [0x02, 0x02]);
    assert!(
        !bytes.windows(6).any(|w| w == b"cached"),
        "a skipped value was written"
    );
    let back: SkipTable = columnar::from_bytes(&bytes).unwrap();
    let bare = |id: u32| SkipRow {
        id,
        note: format!("n{id}"),
        ..SkipRow::default()
    };
    assert_eq!(
        back,
        SkipTable {
            rows: vec![bare(1), bare(2)],
            scratch: HashMap::new(),
            map: [(9, bare(3))].into_iter().collect(),
        }
    );
}

// ------------------------------------------------------------------ borrow

/// A plain serde struct holding two borrowed strings of different lifetimes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Both<'a, 'b> {
    #[serde(borrow)]
    x: Cow<'a, str>,
    #[serde(borrow)]
    y: Cow<'b, str>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct BorrowTable<'a, 'b> {
    #[columnar(borrow)]
    s: Cow<'a, str>,
    #[columnar(borrow = "'a")]
    bytes: Cow<'a, [u8]>,
    #[columnar(borrow = "'a + 'b")]
    both: Both<'a, 'b>,
    plain: &'b str,
    owned: Cow<'a, str>,
    #[columnar(borrow, optional, index = 0)]
    opt: Cow<'b, str>,
}

#[test]
fn borrow_fields_decode_to_cow_borrowed_from_the_input() {
    let table = BorrowTable {
        s: "stra\u{df}e".into(),
        bytes: Cow::Owned(vec![0, 1, 2]),
        both: Both {
            x: "x".into(),
            y: "y".into(),
        },
        plain: "plain",
        owned: "not borrowed".into(),
        opt: "optional".into(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    let back: BorrowTable = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, table);
    let inside = |p: *const u8| bytes.as_ptr_range().contains(&p);
    match (&back.s, &back.bytes, &back.opt) {
        (Cow::Borrowed(s), Cow::Borrowed(b), Cow::Borrowed(o)) => {
            assert!(inside(s.as_ptr()) && inside(b.as_ptr()) && inside(o.as_ptr()));
        }
        other => panic!("not all borrowed: {other:?}"),
    }
    assert!(matches!(back.both.x, Cow::Borrowed(_)), "'a + 'b: x owned");
    assert!(matches!(back.both.y, Cow::Borrowed(_)), "'a + 'b: y owned");
    assert!(inside(back.plain.as_ptr()));
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct BorrowRow<'a> {
    #[columnar(borrow)]
    s: Cow<'a, str>,
    n: u8,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct BorrowRows<'a> {
    #[columnar(class = "vec")]
    rows: Vec<BorrowRow<'a>>,
}

#[test]
fn borrow_row_fields_round_trip() {
    let table = BorrowRows {
        rows: vec![
            BorrowRow {
                s: "a".into(),
                n: 1,
            },
            BorrowRow {
                s: "日本".into(),
                n: 2,
            },
        ],
    };
    let bytes = columnar::to_vec(&table).unwrap();
    let back: BorrowRows = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, table);
}

// ------------------------------------------------------------------ generics

#[columnar(vec, map, ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct GRow<'a, T, U>
where
    T: columnar::Rleable,
    U: columnar::DeltaRleable,
{
    #[columnar(strategy = "Rle")]
    t: T,
    #[columnar(strategy = "DeltaRle")]
    u: U,
    #[columnar(borrow)]
    s: Cow<'a, str>,
    list: Vec<T>,
    #[columnar(optional, index = 4)]
    o: Option<T>,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct GTable<'a, T: columnar::Rleable, U: columnar::DeltaRleable> {
    #[columnar(class = "vec")]
    rows: Vec<GRow<'a, T, U>>,
    #[columnar(class = "map")]
    map: BTreeMap<String, GRow<'a, T, U>>,
    extra: T,
    #[columnar(optional, index = 1)]
    more: Vec<U>,
}

fn g_row<'a, T: columnar::Rleable, U: columnar::DeltaRleable>(
    t: T,
    u: U,
    s: &'a str,
) -> GRow<'a, T, U> {
    GRow {
        t: t.clone(),
        u,
        s: s.into(),
        list: vec![t.clone(), t.clone()],
        o: Some(t),
    }
}

#[test]
fn generic_rows_and_tables_round_trip_for_two_instantiations() {
    let a: GTable<String, i16> = GTable {
        rows: vec![g_row("x".into(), -3, "s"), g_row("x".into(), i16::MIN, "")],
        map: [("k".to_owned(), g_row("y".into(), i16::MAX, "t"))]
            .into_iter()
            .collect(),
        extra: "e".into(),
        more: vec![1, 2],
    };
    let bytes = columnar::to_vec(&a).unwrap();
    assert_eq!(
        columnar::from_bytes::<GTable<String, i16>>(&bytes).unwrap(),
        a
    );

    let b: GTable<(u8, bool), u128> = GTable {
        rows: vec![
            g_row((1, true), i128::MAX as u128, "a"),
            g_row((1, true), 0, "a"),
        ],
        map: BTreeMap::new(),
        extra: (0, false),
        more: vec![],
    };
    let bytes = columnar::to_vec(&b).unwrap();
    assert_eq!(
        columnar::from_bytes::<GTable<(u8, bool), u128>>(&bytes).unwrap(),
        b
    );
}

// ------------------------------------------------------------------ containers

#[columnar(vec, map, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Item {
    #[columnar(strategy = "DeltaRle")]
    id: u64,
    #[columnar(strategy = "Rle")]
    tag: String,
    #[columnar(strategy = "BoolRle")]
    on: bool,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Containers {
    #[columnar(class = "vec")]
    vec: Vec<Item>,
    #[columnar(class = "vec")]
    deque: VecDeque<Item>,
    #[columnar(class = "map")]
    hash: HashMap<String, Item>,
    #[columnar(class = "map")]
    btree: BTreeMap<(i8, u8), Item>,
}

fn item() -> impl Strategy<Value = Item> {
    (
        prop_oneof![0..3u64, Just(u64::MAX), any::<u64>()],
        prop_oneof![Just(String::new()), Just("é".to_owned()), "\\PC{0,5}"],
        any::<bool>(),
    )
        .prop_map(|(id, tag, on)| Item { id, tag, on })
}

proptest! {
    #[test]
    fn vec_vecdeque_hashmap_and_btreemap_containers_round_trip(
        vec in prop::collection::vec(item(), 0..20),
        deque in prop::collection::vec_deque(item(), 0..20),
        hash in prop::collection::hash_map("\\PC{0,4}", item(), 0..20),
        btree in prop::collection::btree_map(any::<(i8, u8)>(), item(), 0..20),
    ) {
        let table = Containers { vec, deque, hash, btree };
        let bytes = columnar::to_vec(&table).unwrap();
        prop_assert_eq!(columnar::from_bytes::<Containers>(&bytes).unwrap(), table);
    }
}

#[test]
fn btreemap_container_writes_keys_first_in_key_order() {
    let table = Containers {
        vec: vec![],
        deque: VecDeque::new(),
        hash: HashMap::new(),
        btree: [((2, 0), Item::default()), ((-1, 7), Item::default())]
            .into_iter()
            .collect(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    // 4 table fields; vec and deque: 3 empty columns each (03 00 00 00); hash: 3 + 1 fields,
    // no keys (00), 3 empty columns; btree: 04, keys Vec<(i8, u8)> [(-1, 7), (2, 0)], where
    // postcard writes i8 and u8 as one raw byte (-1 = ff), not as varints.
    assert_eq!(
        bytes[..20],
        [
            0x04, 0x03, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
            0x04, 0x02, 0xff, 0x07, 0x02, 0x00
        ]
    );
}

// ------------------------------------------------------------------ a map row of 12 fields

#[columnar(map, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Twelve {
    a: u8,
    #[columnar(strategy = "Rle")]
    b: u8,
    #[columnar(strategy = "DeltaRle")]
    c: u8,
    #[columnar(strategy = "BoolRle")]
    d: bool,
    #[columnar(strategy = "DeltaOfDelta")]
    e: i64,
    f: u8,
    g: u8,
    h: u8,
    i: u8,
    j: u8,
    k: u8,
    #[columnar(optional, index = 0)]
    l: u8,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct TwelveTable {
    #[columnar(class = "map")]
    map: BTreeMap<u8, Twelve>,
}

#[test]
fn map_container_with_12_fields_gives_the_spec_bytes_and_round_trips() {
    let row = Twelve {
        a: 1,
        b: 2,
        c: 3,
        d: true,
        e: 4,
        f: 5,
        g: 6,
        h: 7,
        i: 8,
        j: 9,
        k: 10,
        l: 11,
    };
    let table = TwelveTable {
        map: [(42, row)].into_iter().collect(),
    };
    #[rustfmt::skip]
    let expected = [
        0x01,                   // table: 1 field
        0x0d,                   // map container: 12 fields + keys
        0x01, 0x2a,             // keys Vec<u8> [42]
        0x02, 0x01, 0x01,       // a: Generic [1]
        0x02, 0x01, 0x02,       // b: Rle literal of 1, 2
        0x02, 0x01, 0x06,       // c: DeltaRle literal of 1, delta 3 (zigzag 06)
        0x02, 0x00, 0x01,       // d: BoolRle counts 0, 1
        0x03, 0x01, 0x08, 0x00, // e: DeltaOfDelta head Some(4), no bits
        0x02, 0x01, 0x05,
        0x02, 0x01, 0x06,
        0x02, 0x01, 0x07,
        0x02, 0x01, 0x08,
        0x02, 0x01, 0x09,
        0x02, 0x01, 0x0a,       // f..k: Generic
        0x00, 0x03, 0x02, 0x01, 0x0b, // l: optional index 0, len 3, Generic [11]
    ];
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(bytes, expected);
    assert_eq!(
        columnar::from_bytes::<TwelveTable>(&expected).unwrap(),
        table
    );
}

// ------------------------------------------------------------------ iter_from_bytes

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Event {
    #[columnar(strategy = "Rle")]
    name: String,
    #[columnar(strategy = "DeltaRle")]
    id: u64,
    #[columnar(strategy = "BoolRle")]
    ok: bool,
    #[columnar(strategy = "DeltaOfDelta")]
    at: i64,
    payload: Option<Vec<u8>>,
}

/// Named `Table`: serde_columnar cannot iterate a table of this name (its `TableIter` trait import
/// shadows the generated `TableIter` struct); columnar must.
#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Table {
    head: String,
    #[columnar(class = "vec", iter = "Event")]
    events: Vec<Event>,
    #[columnar(class = "vec", iter = "Event")]
    more: Vec<Event>,
    version: u32,
}

fn event() -> impl Strategy<Value = Event> {
    (
        prop_oneof![Just("x".to_owned()), "\\PC{0,4}"],
        0..5u64,
        any::<bool>(),
        -1000i64..1000,
        proptest::option::of(prop::collection::vec(any::<u8>(), 0..3)),
    )
        .prop_map(|(name, id, ok, at, payload)| Event {
            name,
            id,
            ok,
            at,
            payload,
        })
}

proptest! {
    #[test]
    fn iter_from_bytes_rows_equal_from_bytes_rows(
        head in "\\PC{0,4}",
        events in prop::collection::vec(event(), 0..30),
        more in prop::collection::vec(event(), 0..3),
        version in any::<u32>(),
    ) {
        let table = Table { head, events, more, version };
        let bytes = columnar::to_vec(&table).unwrap();
        let eager: Table = columnar::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&eager, &table);
        let lazy = columnar::iter_from_bytes::<Table>(&bytes).unwrap();
        prop_assert_eq!(&lazy.head, &table.head);
        prop_assert_eq!(lazy.version, table.version);
        let events: Vec<Event> = lazy.events.collect::<columnar::Result<_>>().unwrap();
        let more: Vec<Event> = lazy.more.collect::<columnar::Result<_>>().unwrap();
        prop_assert_eq!(events, eager.events);
        prop_assert_eq!(more, eager.more);
    }
}

// ------------------------------------------------------------------ strict decoding

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Strict {
    a: u8,
    #[columnar(strategy = "DeltaRle")]
    b: u32,
    #[columnar(optional, index = 2)]
    c: String,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct StrictTable {
    #[columnar(class = "vec")]
    rows: Vec<Strict>,
    n: u8,
}

/// rows (1, 10, "x"), (2, 11, ""), n = 5, written by hand (R2, R3, R5, R7).
#[rustfmt::skip]
const STRICT: [u8; 16] = [
    0x02,                         // table: 2 fields
    0x03,                         // rows container: 3 fields
    0x03, 0x02, 0x01, 0x02,       // a: Generic Vec<u8> [1, 2]
    0x03, 0x03, 0x14, 0x02,       // b: DeltaRle deltas 10, 1: literal of 2 (03), zigzag 14, 02
    0x02, 0x05, 0x04, 0x02, 0x01, // c: optional index 2, len 5, column of 4: Vec<String> of 2: "x",
    0x78,                         //    (continued)
];

fn strict_bytes() -> Vec<u8> {
    let mut bytes = STRICT.to_vec();
    bytes.extend([0x00, 0x05]); // the second string "" of c; then n = 5
    bytes
}

/// [`strict_bytes`] with one more optional column `pair` (index, len, body) in the rows
/// container, after c's pair (bytes 10..17).
fn strict_bytes_with_pair(pair: &[u8]) -> Vec<u8> {
    let mut bytes = strict_bytes();
    bytes[1] = 0x04; // one more field in the container
    bytes.splice(17..17, pair.iter().copied());
    bytes
}

fn strict_value(c: [&str; 2]) -> StrictTable {
    StrictTable {
        rows: vec![
            Strict {
                a: 1,
                b: 10,
                c: c[0].into(),
            },
            Strict {
                a: 2,
                b: 11,
                c: c[1].into(),
            },
        ],
        n: 5,
    }
}

#[test]
fn hand_written_strict_table_decodes() {
    let back: StrictTable = columnar::from_bytes(&strict_bytes()).unwrap();
    assert_eq!(back, strict_value(["x", ""]));
}

#[test]
fn unequal_required_column_lengths_are_column_length_mismatch_with_an_offset() {
    #[rustfmt::skip]
    let bytes = [
        0x02, 0x02,
        0x04, 0x03, 0x01, 0x02, 0x03, // a: 3 values
        0x03, 0x03, 0x14, 0x02,       // b: 2 values
        0x05,
    ];
    let e = assert_decode_error::<StrictTable>(&bytes, ErrorKind::ColumnLengthMismatch);
    let offset = e.offset().expect("an offset");
    assert!(
        offset < bytes.len() as u64,
        "offset {offset} past the input"
    );
}

#[test]
fn optional_column_of_another_length_is_column_length_mismatch() {
    #[rustfmt::skip]
    let bytes = [
        0x02, 0x03,
        0x03, 0x02, 0x01, 0x02,
        0x03, 0x03, 0x14, 0x02,
        0x02, 0x04, 0x03, 0x01, 0x01, 0x78, // c: Vec<String> of 1: "x"
        0x05,
    ];
    let e = assert_decode_error::<StrictTable>(&bytes, ErrorKind::ColumnLengthMismatch);
    assert!(e.offset().is_some());
}

#[test]
fn trailing_bytes_are_trailing_bytes_at_their_offset() {
    let mut bytes = strict_bytes();
    let end = bytes.len();
    bytes.push(0x00);
    let e = assert_decode_error::<StrictTable>(&bytes, ErrorKind::TrailingBytes);
    assert_eq!(e.offset(), Some(end as u64));
    // take_from_bytes hands them back instead
    let (value, rest) = columnar::take_from_bytes::<StrictTable>(&bytes).unwrap();
    assert_eq!(value, strict_value(["x", ""]));
    assert_eq!(rest, [0x00]);
}

#[test]
fn unknown_optional_index_in_a_container_is_skipped() {
    // An optional column of index 9 this schema does not know: index, len 4, column byte
    // string of 3 bytes (any content).
    let bytes = strict_bytes_with_pair(&[0x09, 0x04, 0x03, 0xaa, 0xbb, 0xcc]);
    let back: StrictTable = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, strict_value(["x", ""]));
}

#[test]
fn unknown_optional_column_is_skipped_without_reading_its_body() {
    // An unknown index's body is not looked into (as serde_columnar).
    let expected: StrictTable = columnar::from_bytes(&strict_bytes()).unwrap();
    for (case, pair) in [
        (
            "the inner length varint aa bb cc runs past the body's 3 bytes",
            &[0x09, 0x03, 0xaa, 0xbb, 0xcc][..],
        ),
        (
            "the body is longer than its inner byte string",
            &[0x09, 0x03, 0x01, 0xaa, 0xbb],
        ),
    ] {
        let bytes = strict_bytes_with_pair(pair);
        assert_eq!(
            columnar::from_bytes::<StrictTable>(&bytes).unwrap(),
            expected,
            "{case}"
        );
    }
}

#[test]
fn missing_optional_column_defaults_to_the_row_count() {
    #[rustfmt::skip]
    let bytes = [
        0x02, 0x02,                   // no c
        0x03, 0x02, 0x01, 0x02,
        0x03, 0x03, 0x14, 0x02,
        0x05,
    ];
    let back: StrictTable = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, strict_value(["", ""]));
}

#[test]
fn duplicate_optional_index_in_a_container_is_bad_header() {
    // c's pair (bytes 10..17) once more
    let bytes = strict_bytes_with_pair(&strict_bytes()[10..17]);
    assert_decode_error::<StrictTable>(&bytes, ErrorKind::BadHeader);
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct OnlyOptional {
    #[columnar(optional, index = 0)]
    a: u32,
    #[columnar(strategy = "Rle", optional, index = 1)]
    b: String,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct OnlyOptionalTable {
    #[columnar(class = "vec")]
    rows: Vec<OnlyOptional>,
}

#[test]
fn missing_optional_column_of_an_all_optional_row_defaults_to_the_present_columns_row_count() {
    // Written by a schema with only `a`: rows a = 1, 2. serde_columnar decodes no rows here.
    let bytes = [0x01, 0x01, 0x00, 0x04, 0x03, 0x02, 0x01, 0x02];
    let back: OnlyOptionalTable = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(
        back.rows,
        [
            OnlyOptional {
                a: 1,
                b: String::new()
            },
            OnlyOptional {
                a: 2,
                b: String::new()
            }
        ]
    );
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct OptTable {
    n: u8,
    #[columnar(optional, index = 0)]
    o: u32,
    #[columnar(optional, index = 3)]
    s: String,
}

#[test]
fn table_optionals_unknown_skipped_missing_default_duplicate_bad_header() {
    // n 5, (index 3 "hi"), (index 0, 7): optionals in any order
    let full = [0x03, 0x05, 0x03, 0x03, 0x02, 0x68, 0x69, 0x00, 0x01, 0x07];
    let want = OptTable {
        n: 5,
        o: 7,
        s: "hi".into(),
    };
    assert_eq!(columnar::from_bytes::<OptTable>(&full).unwrap(), want);
    // an unknown index 4 between them
    let unknown = [
        0x04, 0x05, 0x03, 0x03, 0x02, 0x68, 0x69, 0x04, 0x02, 0xaa, 0xbb, 0x00, 0x01, 0x07,
    ];
    assert_eq!(columnar::from_bytes::<OptTable>(&unknown).unwrap(), want);
    // none of them
    let missing = [0x01, 0x05];
    assert_eq!(
        columnar::from_bytes::<OptTable>(&missing).unwrap(),
        OptTable {
            n: 5,
            o: 0,
            s: String::new()
        }
    );
    // index 0 twice
    let twice = [0x03, 0x05, 0x00, 0x01, 0x07, 0x00, 0x01, 0x08];
    assert_decode_error::<OptTable>(&twice, ErrorKind::BadHeader);
}

#[test]
fn zero_rle_run_count_in_a_container_is_zero_run_count_at_the_count() {
    // Containers: the vec of Items holds a tag column whose run count is 0
    #[rustfmt::skip]
    let bytes = [
        0x04,
        0x03,             // vec: 3 columns
        0x02, 0x01, 0x02, //   id: DeltaRle literal of 1: 1
        0x02, 0x00, 0x00, //   tag: Rle run count 0 (byte 6)
        0x01, 0x01,       //   on: BoolRle [false]
        0x03, 0x00, 0x00, 0x00,
        0x04, 0x00, 0x00, 0x00, 0x00,
        0x04, 0x00, 0x00, 0x00, 0x00,
    ];
    let e = assert_decode_error::<Containers>(&bytes, ErrorKind::ZeroRunCount);
    assert_eq!(e.offset(), Some(6));
}

/// Table { head "", events (name, id, ok, at, payload), more: no events, version 0 }, by hand;
/// `ids` is the id column's byte string.
fn events_bytes(ids: &[u8]) -> Vec<u8> {
    let mut bytes = vec![
        0x04, // table: 4 fields
        0x00, // head ""
        0x05, // events: 5 columns
        0x03, 0x04, 0x01, 0x61, // name: Rle run of 2 x "a"
    ];
    bytes.extend(ids);
    bytes.extend([
        0x03, 0x00, 0x01, 0x01, // ok: BoolRle counts 0, 1, 1: true, false
        0x04, 0x01, 0x00, 0x01, 0x00, // at: DoD Some(0), 1 bit used, bit 0: 0, 0
        0x03, 0x02, 0x00, 0x00, // payload: Vec<Option<Vec<u8>>> [None, None]
        0x05, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00, // more: 5 empty columns
        0x00, // version 0
    ]);
    bytes
}

#[test]
fn hand_written_events_decode_eagerly_and_lazily() {
    // id: DeltaRle deltas 1, 0: literal of 2 (03), 02, 00
    let bytes = events_bytes(&[0x03, 0x03, 0x02, 0x00]);
    let event = |ok| Event {
        name: "a".into(),
        id: 1,
        ok,
        at: 0,
        payload: None,
    };
    let eager: Table = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(eager.events, [event(true), event(false)]);
    let lazy = columnar::iter_from_bytes::<Table>(&bytes).unwrap();
    let events: Vec<Event> = lazy.events.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(events, eager.events);
}

#[test]
fn unequal_column_lengths_are_column_length_mismatch_eagerly_and_lazily() {
    // id: DeltaRle literal of 1: one value where the other columns hold two
    let bytes = events_bytes(&[0x02, 0x01, 0x02]);
    assert_decode_error::<Table>(&bytes, ErrorKind::ColumnLengthMismatch);
    let result = columnar::iter_from_bytes::<Table>(&bytes)
        .and_then(|t| t.events.collect::<columnar::Result<Vec<Event>>>());
    assert_error(result, ErrorKind::ColumnLengthMismatch);
}

// ------------------------------------------------------------------ hygiene and partial arguments

/// Names a user may well have in scope, which the generated code must not pick up.
#[allow(dead_code, non_camel_case_types)]
mod hygiene {
    use columnar::columnar;

    pub struct Error;
    pub type Result<T> = core::result::Result<T, Error>;
    pub struct Vec;
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct Ok;
    pub struct Err;
    pub struct String;
    pub struct Default;
    pub struct PhantomData;
    pub trait Iterator {}
    pub trait Serialize {}
    pub trait Deserialize {}
    pub mod serde {}
    pub mod postcard {}
    pub mod serde_columnar {}

    /// Field names that a generated body might use for its own locals.
    #[columnar(vec, map, ser, de, iterable)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Row {
        #[columnar(strategy = "Rle")]
        pub rows: u8,
        #[columnar(strategy = "DeltaRle")]
        pub seq: u32,
        #[columnar(strategy = "BoolRle")]
        pub de: bool,
        #[columnar(strategy = "DeltaOfDelta")]
        pub ser: i64,
        pub len: u8,
        pub bytes: std::vec::Vec<u8>,
        pub value: std::string::String,
        pub index: u64,
        pub column: u8,
        pub row: u8,
        #[columnar(optional, index = 0)]
        pub found: u8,
        #[columnar(optional, index = 1)]
        pub slot: std::option::Option<u8>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec", iter = "Row")]
        pub seq: std::vec::Vec<Row>,
        #[columnar(class = "map")]
        pub map: std::collections::BTreeMap<u8, Row>,
        pub len: u32,
        #[columnar(optional, index = 0)]
        pub value: std::string::String,
    }
}

#[test]
fn generated_code_ignores_user_names_in_scope_and_field_names() {
    let row = |n: u8| hygiene::Row {
        rows: n,
        seq: u32::from(n) * 3,
        de: n.is_multiple_of(2),
        ser: -i64::from(n),
        len: n,
        bytes: vec![n; usize::from(n)],
        value: format!("v{n}"),
        index: u64::from(n),
        column: n,
        row: n,
        found: n,
        slot: Some(n),
    };
    let table = hygiene::Table {
        seq: (0..5).map(row).collect(),
        map: (7..9).map(|n| (n, row(n))).collect(),
        len: 3,
        value: "x".into(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(
        columnar::from_bytes::<hygiene::Table>(&bytes).unwrap(),
        table
    );
    let lazy = columnar::iter_from_bytes::<hygiene::Table>(&bytes).unwrap();
    let rows: Vec<hygiene::Row> = lazy.seq.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(rows, table.seq);
    assert_eq!(lazy.len, 3);
}

/// A row with only `vec` (no `ser`/`de`), a table with only `ser`, one with only `de`.
mod partial {
    use columnar::columnar;

    #[columnar(vec)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Row {
        #[columnar(strategy = "DeltaRle")]
        pub id: u16,
    }

    #[columnar(ser)]
    pub struct Writer {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        pub tag: String,
    }

    #[columnar(de)]
    #[derive(Debug, PartialEq)]
    pub struct Reader {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        pub tag: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, PartialEq)]
    pub struct Empty {}
}

#[test]
fn ser_only_table_is_read_by_de_only_table_and_rows_need_only_vec() {
    let rows: Vec<partial::Row> = [3u16, 4, 5].map(|id| partial::Row { id }).into();
    let bytes = columnar::to_vec(&partial::Writer {
        rows: rows.clone(),
        tag: "t".into(),
    })
    .unwrap();
    // 2 fields; 1 column: DeltaRle deltas 3, 1, 1: literal 1 of 3 (01 06), run of 2 of 1 (04 02)
    assert_eq!(
        bytes,
        [0x02, 0x01, 0x04, 0x01, 0x06, 0x04, 0x02, 0x01, 0x74]
    );
    let back: partial::Reader = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(
        back,
        partial::Reader {
            rows,
            tag: "t".into()
        }
    );
}

#[test]
fn empty_table_is_the_single_byte_00() {
    assert_eq!(columnar::to_vec(&partial::Empty {}).unwrap(), [0x00]);
    assert_eq!(
        columnar::from_bytes::<partial::Empty>(&[0x00]).unwrap(),
        partial::Empty {}
    );
}

// ------------------------------------------------------------------ iterable rows with more

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct RichEvent<'a> {
    #[columnar(strategy = "DeltaRle")]
    id: u32,
    #[columnar(borrow)]
    text: Cow<'a, str>,
    #[columnar(skip)]
    cache: u64,
    #[columnar(class = "vec")]
    children: Vec<Item>,
    #[columnar(strategy = "Rle", optional, index = 3)]
    kind: String,
    #[columnar(optional, index = 0)]
    extra: Option<i8>,
}

/// `name` uses `'a` outside the `iter` field too (the table with `'a` only in its `iter` field is
/// `table_whose_lifetime_is_used_only_by_an_iter_field_compiles`).
#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct RichLog<'a> {
    #[columnar(class = "vec", iter = "RichEvent<'a>")]
    events: Vec<RichEvent<'a>>,
    #[columnar(borrow)]
    name: Cow<'a, str>,
    #[columnar(optional, index = 2)]
    tail: u8,
}

#[test]
fn table_whose_lifetime_is_used_only_by_an_iter_field_compiles() {
    trybuild::TestCases::new().pass("ui/regressions/iter_field_lifetime.rs");
}

#[test]
fn iterable_rows_with_borrow_skip_nested_and_optional_fields_iterate_like_from_bytes() {
    let event = |id: u32| RichEvent {
        id,
        text: format!("t{id}").into(),
        cache: 99,
        children: (0..id % 3)
            .map(|n| Item {
                id: u64::from(n),
                tag: "c".into(),
                on: n == 1,
            })
            .collect(),
        kind: if id < 2 { "a".into() } else { "b".into() },
        extra: Some(id as i8 - 2),
    };
    let log = RichLog {
        events: (0..6).map(event).collect(),
        name: "log".into(),
        tail: 4,
    };
    let bytes = columnar::to_vec(&log).unwrap();
    let eager: RichLog = columnar::from_bytes(&bytes).unwrap();
    let expected: Vec<RichEvent> = log
        .events
        .iter()
        .map(|e| RichEvent {
            cache: 0,
            ..e.clone()
        })
        .collect();
    assert_eq!(eager.events, expected);
    assert_eq!(eager.tail, 4);
    let lazy = columnar::iter_from_bytes::<RichLog>(&bytes).unwrap();
    assert_eq!(lazy.tail, 4);
    let rows: Vec<RichEvent> = lazy.events.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(rows, expected);
}

#[test]
fn borrow_row_fields_decode_to_cow_borrowed() {
    let table = BorrowRows {
        rows: vec![BorrowRow {
            s: "borrowed".into(),
            n: 1,
        }],
    };
    let bytes = columnar::to_vec(&table).unwrap();
    let back: BorrowRows = columnar::from_bytes(&bytes).unwrap();
    assert!(
        matches!(back.rows[0].s, Cow::Borrowed(_)),
        "row column not borrowed: {:?}",
        back.rows[0].s
    );
}

// ------------------------------------------------------------------ generic iterable rows

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
/// `T: Default` because `o: T` is optional: a missing column is filled with `T::default()`.
struct GEvent<T: columnar::Rleable + Default, U: columnar::DeltaRleable> {
    #[columnar(strategy = "Rle")]
    t: T,
    #[columnar(strategy = "DeltaRle")]
    u: U,
    list: Vec<T>,
    #[columnar(strategy = "Rle", optional, index = 5)]
    o: T,
    #[columnar(strategy = "BoolRle", optional, index = 6)]
    flag: bool,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct GLog<T: columnar::Rleable + Default, U: columnar::DeltaRleable> {
    #[columnar(class = "vec", iter = "GEvent<T, U>")]
    events: Vec<GEvent<T, U>>,
    /// `iter` and `optional` together are refused, by serde_columnar too.
    #[columnar(class = "vec", optional, index = 0)]
    more: Vec<GEvent<T, U>>,
}

#[test]
fn generic_iterable_rows_with_optional_columns_iterate_like_from_bytes() {
    let event = |n: u8| GEvent {
        t: format!("t{}", n / 2),
        u: -i64::from(n),
        list: vec!["l".to_owned(); usize::from(n % 2)],
        o: "o".to_owned(),
        flag: n.is_multiple_of(3),
    };
    let log = GLog {
        events: (0..7).map(event).collect(),
        more: (7..9).map(event).collect(),
    };
    let bytes = columnar::to_vec(&log).unwrap();
    assert_eq!(
        columnar::from_bytes::<GLog<String, i64>>(&bytes).unwrap(),
        log
    );
    let lazy = columnar::iter_from_bytes::<GLog<String, i64>>(&bytes).unwrap();
    let events: Vec<_> = lazy.events.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(events, log.events);
    assert_eq!(lazy.more, log.more);
}

// ------------------------------------------------------------------ hostile input

#[columnar(vec, map, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Any4 {
    #[columnar(strategy = "Rle")]
    s: String,
    #[columnar(strategy = "DeltaRle")]
    d: i16,
    #[columnar(strategy = "BoolRle")]
    b: bool,
    #[columnar(strategy = "DeltaOfDelta")]
    t: u32,
    g: Vec<u8>,
    #[columnar(strategy = "DeltaRle", optional, index = 1)]
    o: u8,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct AnyTable {
    #[columnar(class = "vec", iter = "Any4")]
    rows: Vec<Any4>,
    #[columnar(class = "map")]
    map: BTreeMap<u16, Any4>,
    #[columnar(optional, index = 3)]
    tail: String,
}

fn any4() -> impl Strategy<Value = Any4> {
    (
        prop_oneof![Just(String::new()), "\\PC{0,3}"],
        any::<i16>(),
        any::<bool>(),
        any::<u32>(),
        prop::collection::vec(any::<u8>(), 0..3),
        0..3u8,
    )
        .prop_map(|(s, d, b, t, g, o)| Any4 { s, d, b, t, g, o })
}

/// One edit of a valid input: overwrite a byte, delete one, insert one, or cut the tail.
#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Delete(usize),
    Insert(usize, u8),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

proptest! {
    /// Decoding edited bytes returns `Ok` or `Err`, eagerly and lazily, and never panics; an
    /// error always carries an offset inside the input (or at its end).
    #[test]
    fn edited_input_decodes_or_errors_without_panicking(
        rows in prop::collection::vec(any4(), 0..8),
        map in prop::collection::btree_map(any::<u16>(), any4(), 0..4),
        tail in "\\PC{0,3}",
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let mut bytes = columnar::to_vec(&AnyTable { rows, map, tail }).unwrap();
        for e in edits {
            let n = bytes.len();
            match e {
                Edit::Set(i, b) if n > 0 => bytes[i % n] = b,
                Edit::Delete(i) if n > 0 => {
                    bytes.remove(i % n);
                }
                Edit::Insert(i, b) => bytes.insert(i % (n + 1), b),
                Edit::Truncate(i) => bytes.truncate(i % (n + 1)),
                _ => {}
            }
        }
        if let Err(e) = columnar::from_bytes::<AnyTable>(&bytes) {
            if let Some(offset) = e.offset() {
                prop_assert!(offset <= bytes.len() as u64, "{e} past {} bytes", bytes.len());
            }
        }
        if let Ok(lazy) = columnar::iter_from_bytes::<AnyTable>(&bytes) {
            for row in lazy.rows.take(10_000) {
                if row.is_err() {
                    break;
                }
            }
        }
    }
}

#[test]
fn huge_declared_lengths_are_errors_not_allocations() {
    // rows: a Generic Vec<u8> column g claiming 2^62 elements inside its 10 bytes
    #[rustfmt::skip]
    let bytes = [
        0x02,                                     // table: rows, map (tail absent)
        0x05,                                     // rows: 5 required columns, no optional
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00,       //   s, d, b empty; t: DoD empty (00 00)
        0x0a,                                     //   g: byte string of 10 (bytes 9..19)
        0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, // Vec len 2^62
        0x00,                                     //   one element
        0x06, 0x00,                               // map: keys + 5 columns; no keys
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00, //   empty columns
    ];
    let e = columnar::from_bytes::<AnyTable>(&bytes).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::UnexpectedEnd | ErrorKind::LengthPastEnd | ErrorKind::ColumnLengthMismatch
        ),
        "{e}"
    );
    assert!(
        e.offset().is_some_and(|o| o <= 19),
        "{e}: past the rows container"
    );
    // rows: an Rle run of 10^9 + 1 copies, over MAX_RLE_COUNT
    #[rustfmt::skip]
    let run = [
        0x02,
        0x05,
        0x07, 0x82, 0xa8, 0xd6, 0xb9, 0x07, 0x01, 0x61, // s: run count 1_000_000_001 of "a"
        0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00,
        0x06, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00,
    ];
    let e = assert_decode_error::<AnyTable>(&run, ErrorKind::RunCountTooLarge);
    assert_eq!(e.offset(), Some(3), "at the run count");
}

// ------------------------------------------------------------------ map containers, strictly

#[columnar(map, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct Cell {
    #[columnar(strategy = "DeltaRle")]
    v: u8,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct Sheet {
    #[columnar(class = "map")]
    cells: BTreeMap<u8, Cell>,
}

#[test]
fn hand_written_map_container_decodes() {
    // 1 field; map of 1 field + keys; keys [1, 2]; v: DeltaRle deltas 5, 1: literal of 2
    let bytes = [0x01, 0x02, 0x02, 0x01, 0x02, 0x03, 0x03, 0x0a, 0x02];
    let sheet: Sheet = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(
        sheet.cells,
        [(1, Cell { v: 5 }), (2, Cell { v: 6 })]
            .into_iter()
            .collect()
    );
}

#[test]
fn map_keys_and_columns_of_unequal_length_are_column_length_mismatch() {
    // keys [1, 2, 3], but v holds 2 values (docs/spec/columnar.md §4.3: the keys'
    // count is the expected column length)
    let bytes = [0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x03, 0x03, 0x0a, 0x02];
    assert_decode_error::<Sheet>(&bytes, ErrorKind::ColumnLengthMismatch);
    // keys [1], v holds 2 values
    let bytes = [0x01, 0x02, 0x01, 0x01, 0x03, 0x03, 0x0a, 0x02];
    assert_decode_error::<Sheet>(&bytes, ErrorKind::ColumnLengthMismatch);
}

#[test]
fn table_with_fewer_fields_than_required_is_an_error() {
    // StrictTable needs rows and n; the count says 1 and n is absent
    let bytes = [0x01, 0x02, 0x01, 0x00, 0x00];
    let e = columnar::from_bytes::<StrictTable>(&bytes).unwrap_err();
    assert!(e.offset().is_some(), "{e}");
    // the count says 2 but the input ends after rows
    let bytes = [0x02, 0x02, 0x01, 0x00, 0x00];
    let e = columnar::from_bytes::<StrictTable>(&bytes).unwrap_err();
    assert!(e.offset().is_some(), "{e}");
}

// ------------------------------------------------------------------ more source compatibility

/// Raw identifiers, non-ASCII identifiers, restricted visibility, doc comments on everything,
/// a `where` clause with serde bounds as serde_columnar's own tests write them.
pub(crate) mod shapes {
    use columnar::columnar;
    use serde::{Deserialize, Serialize};

    /// A row.
    #[columnar(vec, map, ser, de, iterable)]
    #[derive(Debug, Clone, PartialEq, Default)]
    pub(crate) struct Keyword {
        /// raw
        #[columnar(strategy = "Rle")]
        pub(crate) r#type: u8,
        pub(crate) r#match: String,
        #[columnar(strategy = "DeltaRle")]
        pub(crate) café: u16,
        #[columnar(optional, index = 0)]
        pub(crate) r#loop: bool,
    }

    /// A table.
    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub(crate) struct Doc<'s, P, Q>
    where
        P: Serialize + for<'a> Deserialize<'a>,
        Q: Serialize + for<'a> Deserialize<'a>,
    {
        pub(crate) p: P,
        pub(crate) q: Q,
        #[columnar(borrow)]
        pub(crate) s: &'s str,
        #[columnar(class = "vec", iter = "Keyword")]
        pub(crate) r#fn: Vec<Keyword>,
    }
}

#[test]
fn raw_and_unicode_identifiers_where_clauses_and_borrowed_str_work() {
    let keyword = |n: u8| shapes::Keyword {
        r#type: n,
        r#match: format!("m{n}"),
        café: u16::from(n) + 1,
        r#loop: n > 0,
    };
    let doc = shapes::Doc {
        p: 1u64,
        q: Some(-2i8),
        s: "borrowed",
        r#fn: (0..3).map(keyword).collect(),
    };
    let bytes = columnar::to_vec(&doc).unwrap();
    let back: shapes::Doc<u64, Option<i8>> = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, doc);
    assert!(bytes.as_ptr_range().contains(&back.s.as_ptr()));
    let lazy = columnar::iter_from_bytes::<shapes::Doc<u64, Option<i8>>>(&bytes).unwrap();
    let rows: Vec<_> = lazy.r#fn.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(rows, doc.r#fn);
}

// ------------------------------------------------------------------ errors as text, lazy framing

#[test]
fn error_display_is_kind_at_byte_offset() {
    let mut bytes = strict_bytes();
    let end = bytes.len();
    bytes.push(0x00);
    let e = columnar::from_bytes::<StrictTable>(&bytes).unwrap_err();
    let text = e.to_string();
    assert!(text.ends_with(&format!(" at byte {end}")), "{text}");
    assert!(text.starts_with(&e.kind().to_string()), "{text}");
}

#[test]
fn iter_from_bytes_rejects_trailing_bytes_like_from_bytes() {
    let mut bytes = events_bytes(&[0x03, 0x03, 0x02, 0x00]);
    let end = bytes.len();
    bytes.push(0x07);
    assert_decode_error::<Table>(&bytes, ErrorKind::TrailingBytes);
    let e = match columnar::iter_from_bytes::<Table>(&bytes) {
        Ok(_) => panic!("iter_from_bytes accepted a trailing byte"),
        Err(e) => e,
    };
    assert_eq!(e.kind(), ErrorKind::TrailingBytes);
    assert_eq!(e.offset(), Some(end as u64));
}

// ------------------------------------------------------------------ generic parameter names

/// Type and lifetime parameters with the short names a macro's output likes to use for itself.
#[allow(clippy::type_complexity)]
mod generic_names {
    use std::borrow::Cow;

    use columnar::{columnar, DeltaRleable, Rleable};

    /// `Row` and the `Table` holding it take the same parameters with the same bounds: one
    /// `where` list for both.
    macro_rules! row_and_table {
        (where $($bounds:tt)*) => {
            #[columnar(vec, map, ser, de, iterable)]
            #[derive(Debug, Clone, PartialEq, Default)]
            pub struct Row<'i, 's, A, C, D, E, I, K, R, S, T, V, W>
            where
                $($bounds)*
            {
                #[columnar(borrow)]
                pub i: Cow<'i, str>,
                #[columnar(borrow)]
                pub s_: Cow<'s, str>,
                #[columnar(strategy = "Rle")]
                pub a: A,
                pub c: C,
                #[columnar(strategy = "DeltaRle")]
                pub d: D,
                pub e: E,
                pub ii: I,
                pub k: K,
                pub r: R,
                pub s: S,
                pub t: T,
                pub v: V,
                #[columnar(optional, index = 0)]
                pub w: W,
            }

            #[columnar(ser, de)]
            #[derive(Debug, Clone, PartialEq)]
            pub struct Table<'i, 's, A, C, D, E, I, K, R, S, T, V, W>
            where
                $($bounds)*
            {
                #[columnar(class = "vec", iter = "Row<'i, 's, A, C, D, E, I, K, R, S, T, V, W>")]
                pub rows: Vec<Row<'i, 's, A, C, D, E, I, K, R, S, T, V, W>>,
                // A concrete key: a key parameter bounded by `Rleable` does not compile, see
                // `map_key_type_parameter_bounded_by_deserialize_owned_or_a_trait_implying_it_compiles`.
                #[columnar(class = "map")]
                pub map: std::collections::BTreeMap<i16, Row<'i, 's, A, C, D, E, I, K, R, S, T, V, W>>,
                pub k: K,
                #[columnar(borrow)]
                pub i: Cow<'i, str>,
                #[columnar(borrow)]
                pub s: Cow<'s, str>,
            }
        };
    }

    row_and_table! {
        where
            A: Rleable,
            C: Rleable,
            D: DeltaRleable + Default,
            E: Rleable,
            I: Rleable,
            K: Rleable,
            R: Rleable,
            S: Rleable,
            T: Rleable,
            V: Rleable,
            W: Rleable + Default,
    }

    pub type Concrete<'i, 's> =
        Table<'i, 's, u8, u16, u32, u64, i8, i16, i32, i64, String, bool, char>;
}

#[test]
fn generic_parameters_named_like_macro_internals_work() {
    let row = |n: u8| generic_names::Row {
        i: format!("i{n}").into(),
        s_: "s".into(),
        a: n,
        c: u16::from(n),
        d: u32::from(n) * 5,
        e: u64::from(n),
        ii: n as i8,
        k: -i16::from(n),
        r: i32::from(n),
        s: i64::from(n),
        t: format!("t{n}"),
        v: n % 2 == 1,
        w: char::from(b'a' + n),
    };
    let table: generic_names::Concrete = generic_names::Table {
        rows: (0..4).map(row).collect(),
        map: (0..3).map(|n| (-i16::from(n), row(n))).collect(),
        k: 7,
        i: "table i".into(),
        s: "table s".into(),
    };
    let bytes = columnar::to_vec(&table).unwrap();
    let back: generic_names::Concrete = columnar::from_bytes(&bytes).unwrap();
    assert_eq!(back, table);
    let lazy = columnar::iter_from_bytes::<generic_names::Concrete>(&bytes).unwrap();
    let rows: Vec<_> = lazy.rows.collect::<columnar::Result<_>>().unwrap();
    assert_eq!(rows, table.rows);
}

#[test]
fn map_key_type_parameter_bounded_by_deserialize_owned_or_a_trait_implying_it_compiles() {
    trybuild::TestCases::new().pass("ui/regressions/map_key_deserialize_owned.rs");
}

// ------------------------------------------------------------------ nesting depth

#[path = "../../columnar/tests/common/nested_tree.rs"]
mod nested_tree;

use nested_tree::{chain, chain_bytes, varint, Tree};

#[test]
fn hand_built_tree_of_depth_40_decodes() {
    let tree: Tree = columnar::from_bytes(&chain_bytes(40)).unwrap();
    assert_eq!(tree.roots, [chain(40)]);
    assert_eq!(columnar::to_vec(&tree).unwrap(), chain_bytes(40));
}

/// A recursive serde value, for a Generic column and a table field.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
enum Deep {
    #[default]
    Leaf,
    Node(Box<Deep>),
}

#[columnar(vec, ser, de)]
#[derive(Debug, Clone, PartialEq, Default)]
struct DeepRow {
    d: Deep,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct DeepTable {
    #[columnar(class = "vec")]
    rows: Vec<DeepRow>,
    top: Deep,
}

/// `depth` x `Node` (variant 1) then `Leaf` (variant 0), R1.
fn deep_value(depth: usize) -> Vec<u8> {
    let mut v = vec![0x01; depth];
    v.push(0x00);
    v
}

#[test]
fn deep_serde_values_in_table_fields_and_generic_columns_hit_the_depth_limit() {
    // a table field: rows empty (1 field, Generic column of 0: 01 00), then top
    let table = |depth| [&[0x02, 0x01, 0x01, 0x00][..], &deep_value(depth)].concat();
    // a Generic column: Vec<Deep> of 1, then top = Leaf
    let column = |depth| {
        let mut col = vec![0x01];
        col.extend(deep_value(depth));
        let mut bytes = vec![0x02, 0x01];
        varint(col.len(), &mut bytes);
        bytes.extend(col);
        bytes.push(0x00);
        bytes
    };
    for bytes in [table(10), column(10)] {
        columnar::from_bytes::<DeepTable>(&bytes).unwrap();
    }
    for bytes in [table(5000), column(5000)] {
        assert_decode_error::<DeepTable>(&bytes, ErrorKind::DepthLimitExceeded);
    }
}

#[test]
fn nested_rows_deeper_than_the_depth_limit_are_depth_limit_exceeded() {
    assert_decode_error::<Tree>(&chain_bytes(200), ErrorKind::DepthLimitExceeded);
}

#[test]
fn hostile_deep_nesting_is_an_error_not_a_stack_overflow() {
    assert_decode_error::<Tree>(&chain_bytes(20_000), ErrorKind::DepthLimitExceeded);
}

// ------------------------------------------------------------------ strictness of the lazy path

#[columnar(vec, ser, de, iterable)]
#[derive(Debug, Clone, PartialEq, Default)]
struct IOpt {
    #[columnar(strategy = "DeltaRle")]
    a: u8,
    #[columnar(optional, index = 2)]
    c: String,
}

#[columnar(ser, de)]
#[derive(Debug, Clone, PartialEq)]
struct ITab {
    #[columnar(class = "vec", iter = "IOpt")]
    rows: Vec<IOpt>,
}

/// `ITab` with rows a = 1, 2 and the given optional pairs after the a column, by hand.
fn itab(pairs: &[&[u8]]) -> Vec<u8> {
    // table of 1; container of 1 + pairs; a: DeltaRle deltas 1, 1: run of 2 (04 02)
    let mut bytes = vec![0x01, 1 + pairs.len() as u8, 0x02, 0x04, 0x02];
    for pair in pairs {
        bytes.extend(*pair);
    }
    bytes
}

/// (index 2, len 5, column of 4: Vec<String> ["x", ""])
const C2: &[u8] = &[0x02, 0x05, 0x04, 0x02, 0x01, 0x78, 0x00];

fn eager_and_lazy(bytes: &[u8]) -> [columnar::Result<Vec<IOpt>>; 2] {
    let eager = columnar::from_bytes::<ITab>(bytes).map(|t| t.rows);
    let lazy = columnar::iter_from_bytes::<ITab>(bytes).and_then(|t| t.rows.collect());
    [eager, lazy]
}

fn rows_a12(c: [&str; 2]) -> Vec<IOpt> {
    vec![
        IOpt {
            a: 1,
            c: c[0].into(),
        },
        IOpt {
            a: 2,
            c: c[1].into(),
        },
    ]
}

#[test]
fn lazy_decoding_is_as_strict_as_eager_decoding() {
    for result in eager_and_lazy(&itab(&[C2])) {
        assert_eq!(result.unwrap(), rows_a12(["x", ""]));
    }
    // missing optional column: defaults to the row count
    for result in eager_and_lazy(&itab(&[])) {
        assert_eq!(result.unwrap(), rows_a12(["", ""]));
    }
    // unknown index 7 skipped
    for result in eager_and_lazy(&itab(&[&[0x07, 0x02, 0x01, 0xee], C2])) {
        assert_eq!(result.unwrap(), rows_a12(["x", ""]));
    }
    // index 2 twice
    for result in eager_and_lazy(&itab(&[C2, C2])) {
        assert_error(result, ErrorKind::BadHeader);
    }
    // optional column of 3 values where a has 2
    let c3: &[u8] = &[0x02, 0x05, 0x04, 0x03, 0x00, 0x00, 0x00];
    for result in eager_and_lazy(&itab(&[c3])) {
        assert_error(result, ErrorKind::ColumnLengthMismatch);
    }
    // optional column of 1 value where a has 2
    let c1: &[u8] = &[0x02, 0x03, 0x02, 0x01, 0x00];
    for result in eager_and_lazy(&itab(&[c1])) {
        assert_error(result, ErrorKind::ColumnLengthMismatch);
    }
}

// ------------------------------------------------------------------ iter rows by path, by parameter

mod iter_paths {
    use columnar::columnar;

    pub mod inner {
        use columnar::columnar;

        #[columnar(vec, ser, de, iterable)]
        #[derive(Debug, Clone, PartialEq)]
        pub struct Ev {
            #[columnar(strategy = "DeltaRle")]
            pub id: u32,
        }
    }

    #[columnar(vec, ser, de, iterable)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct GEv<T: Clone + PartialEq + serde::Serialize + serde::de::DeserializeOwned> {
        pub t: T,
    }

    /// `T` appears only in an `iter` field.
    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Log<T: Clone + PartialEq + serde::Serialize + serde::de::DeserializeOwned> {
        #[columnar(class = "vec", iter = "inner::Ev")]
        pub events: Vec<inner::Ev>,
        #[columnar(class = "vec", iter = "GEv<T>")]
        pub g: Vec<GEv<T>>,
    }
}

#[test]
fn iter_rows_named_by_a_path_or_by_a_type_parameter_only_used_there_iterate() {
    use iter_paths::{inner::Ev, GEv, Log};
    let log = Log {
        events: vec![Ev { id: 3 }, Ev { id: 4 }],
        g: vec![GEv { t: "x".to_owned() }],
    };
    let bytes = columnar::to_vec(&log).unwrap();
    let lazy = columnar::iter_from_bytes::<Log<String>>(&bytes).unwrap();
    let events: Vec<Ev> = lazy.events.collect::<columnar::Result<_>>().unwrap();
    let g: Vec<GEv<String>> = lazy.g.collect::<columnar::Result<_>>().unwrap();
    assert_eq!((events, g), (log.events, log.g));
}

#[test]
fn to_bytes_and_to_writer_write_what_to_vec_writes() {
    let table = strict_value(["x", ""]);
    let bytes = columnar::to_vec(&table).unwrap();
    assert_eq!(bytes, strict_bytes());
    assert_eq!(columnar::to_bytes(&table).unwrap(), bytes);
    let mut out = Vec::new();
    columnar::to_writer(&mut out, &table).unwrap();
    assert_eq!(out, bytes);
}
