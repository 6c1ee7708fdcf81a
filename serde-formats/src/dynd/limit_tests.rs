//! The limits of the DyND encoder and decoder (zero-sized elements, depth) agree: what one writes the other reads, and one
//! element past a limit is refused by both with the same error naming it.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{
    from_array_bytes, from_bytes, to_array_bytes, to_bytes, Deserializer, IoWriter, Serializer,
    DEFAULT_DEPTH_LIMIT, DEFAULT_ZERO_SIZED_LIMIT,
};
use crate::limits::assert_names_the_limit;
use crate::ErrorKind;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Row {
    id: u32,
    never: Option<String>,
    nothing: (),
}

#[test]
fn many_records_with_zero_sized_fields_round_trip() {
    let rows: Vec<Row> = (0..100_000)
        .map(|id| Row {
            id,
            never: None,
            nothing: (),
        })
        .collect();
    let bytes = to_bytes(&rows).unwrap();
    assert_eq!(from_bytes::<Vec<Row>>(&bytes).unwrap(), rows);
    let array = from_array_bytes(&to_array_bytes(&rows).unwrap()).unwrap();
    assert_eq!(
        array.ty.to_string(),
        "var * {id: uint32, never: ?string, nothing: void}"
    );
}

#[test]
fn long_runs_of_units_round_trip() {
    for value in [vec![(); 200_000], vec![(); DEFAULT_ZERO_SIZED_LIMIT]] {
        let bytes = to_bytes(&value).unwrap();
        assert_eq!(from_bytes::<Vec<()>>(&bytes).unwrap(), value);
        let array = from_array_bytes(&to_array_bytes(&value).unwrap()).unwrap();
        assert_eq!(array.ty.to_string(), "var * void");
    }
}

#[test]
fn one_unit_past_the_budget_is_refused_by_both_sides() {
    let value = vec![(); DEFAULT_ZERO_SIZED_LIMIT + 1];
    let err = to_bytes(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    assert!(err.to_string().contains("1048576"), "{err}");
    assert!(to_array_bytes(&value).is_err());

    // The bytes the encoder would have written: the count alone.
    let mut count = Vec::new();
    let mut n = value.len();
    while n >= 0x80 {
        count.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    count.push(n as u8);
    let err = from_bytes::<Vec<()>>(&count).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    assert_eq!(err.offset(), Some(0));
    assert!(err.to_string().contains("1048576"), "{err}");
    let mut typed = b"\x0avar * void".to_vec();
    typed.extend_from_slice(&count);
    let err = from_array_bytes(&typed).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
}

#[test]
fn the_zero_sized_error_points_at_the_innermost_sequence() {
    // [(7, [()]), (9, [(); 100])]: the second inner sequence (its count at byte 4) runs past
    // a budget of 10; the outer sequence (byte 0) is within it.
    let bytes = [2, 7, 1, 9, 100];
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(10);
    let err = Vec::<(u8, Vec<()>)>::deserialize(&mut de).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ZeroSizedLimitExceeded, Some(4))
    );
    // Within the budget, the same shape reads.
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(101);
    let value = Vec::<(u8, Vec<()>)>::deserialize(&mut de).unwrap();
    assert_eq!(value, [(7, vec![()]), (9, vec![(); 100])]);
}

#[test]
fn a_configured_budget_binds_writer_and_reader_alike() {
    // 10 units in one byte: allowed with a limit of 10, not 9.
    let value = vec![(); 10];
    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(10);
    ser.serialize_value(&value).unwrap();
    let bytes = ser.into_inner();
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(10);
    assert_eq!(Vec::<()>::deserialize(&mut de).unwrap(), value);

    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(9);
    let err = ser.serialize_value(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    assert!(err.to_string().contains("limit 9"), "{err}");
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(9);
    let err = Vec::<()>::deserialize(&mut de).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    assert!(err.to_string().contains("limit 9"), "{err}");

    // A longer input may hold one zero-sized element per byte whatever the limit: 20 lists
    // of one unit are 21 bytes (the outer count, then a count each) with 20 units.
    let lists = vec![vec![()]; 20];
    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(0);
    ser.serialize_value(&lists).unwrap();
    let bytes = ser.into_inner();
    assert_eq!(bytes.len(), 21);
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(0);
    assert_eq!(Vec::<Vec<()>>::deserialize(&mut de).unwrap(), lists);
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Units((), ());

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Nothing {
    a: (),
    b: ((), [(); 3]),
    c: Units,
}

#[test]
fn only_a_sequences_elements_count_not_fields_or_tuple_members() {
    // Ten records that take no bytes, with seven units inside each: the ten elements count
    // (their number came from the input), the fields and tuple members do not (the type
    // fixes how many there are). Writer and reader agree at the edge.
    let nothing = Nothing {
        a: (),
        b: ((), [(); 3]),
        c: Units((), ()),
    };
    let value = vec![nothing; 10];
    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(10);
    ser.serialize_value(&value).unwrap();
    let bytes = ser.into_inner();
    assert_eq!(bytes, [10]);
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(10);
    assert_eq!(Vec::<Nothing>::deserialize(&mut de).unwrap(), value);

    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(9);
    let err = ser.serialize_value(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(9);
    let err = Vec::<Nothing>::deserialize(&mut de).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ZeroSizedLimitExceeded, Some(0))
    );

    // A record that is only fields takes no budget at all, however many units it holds.
    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(0);
    ser.serialize_value(&value[0]).unwrap();
    assert!(ser.into_inner().is_empty());
    let mut de = Deserializer::from_bytes(&[]).with_zero_sized_limit(0);
    assert_eq!(Nothing::deserialize(&mut de).unwrap(), value[0]);
}

#[test]
fn the_dimensions_of_an_array_value_count_their_elements() {
    // A fixed dimension's length is read from the input's type string, so its elements count
    // as a sequence's do: `1000 * void` (12 bytes) needs a budget of 1000 on both sides.
    let bytes = b"\x0b1000 * void".to_vec();
    let array = from_array_bytes(&bytes).unwrap();
    assert_eq!(to_bytes(&array).unwrap(), bytes);
    for (limit, ok) in [(1000, true), (999, false)] {
        let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(limit);
        let read = super::array::read_array(&mut de);
        let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(limit);
        let written = ser.serialize_value(&array);
        if ok {
            assert_eq!(read.unwrap(), array);
            written.unwrap();
        } else {
            assert_eq!(read.unwrap_err().kind(), ErrorKind::ZeroSizedLimitExceeded);
            assert_eq!(
                written.unwrap_err().kind(),
                ErrorKind::ZeroSizedLimitExceeded
            );
        }
    }
}

#[test]
fn bytes_already_in_the_sink_do_not_widen_the_budget() {
    // 10 units in one byte need a limit of 10, also behind 100 bytes the sink held before:
    // the budget counts only this value's bytes, as the reader sees only them.
    let value = vec![(); 10];
    let mut ser = Serializer::new(vec![0xaa; 100]).with_zero_sized_limit(9);
    let err = ser.serialize_value(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    // A sink without a position (a writer) is counted by the serializer: the same rule.
    let mut ser = Serializer::new(IoWriter(Vec::new())).with_zero_sized_limit(9);
    let err = ser.serialize_value(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    let mut ser = Serializer::new(IoWriter(Vec::new())).with_zero_sized_limit(10);
    ser.serialize_value(&value).unwrap();
    assert_eq!(ser.into_inner().0, [10]);
    let mut ser = Serializer::new(vec![0xaa; 100]).with_zero_sized_limit(10);
    ser.serialize_value(&value).unwrap();
    assert_eq!(ser.into_inner()[100..], [10]);
}

#[test]
fn units_inside_maps_and_unsized_sequences_are_counted_alike() {
    // An unsized sequence and map values are encoded aside; their units still count.
    struct Unsized(usize);
    impl Serialize for Unsized {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq((0..self.0).map(|_| ()).filter(|()| true))
        }
    }
    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(5);
    let err = ser.serialize_value(&Unsized(6)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    let map = std::collections::BTreeMap::from([(1u8, vec![(); 3]), (2u8, vec![(); 3])]);
    let mut ser = Serializer::new(Vec::new()).with_zero_sized_limit(5);
    // 6 units in 5 bytes: refused; the reader with the same limit refuses the bytes too.
    let err = ser.serialize_value(&map).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    let bytes = to_bytes(&map).unwrap();
    assert_eq!(bytes.len(), 5);
    let mut de = Deserializer::from_bytes(&bytes).with_zero_sized_limit(5);
    let err = std::collections::BTreeMap::<u8, Vec<()>>::deserialize(&mut de).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
}

#[test]
fn a_tiny_input_claiming_2_pow_60_units_is_refused_quickly() {
    // LEB128 of 2^60: 8 bytes of 0x80 then 0x10.
    let mut claim = vec![0x80; 8];
    claim.push(0x10);
    let start = Instant::now();
    let err = from_bytes::<Vec<()>>(&claim).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ZeroSizedLimitExceeded, Some(0))
    );
    let mut typed = b"\x0avar * void".to_vec();
    typed.extend_from_slice(&claim);
    let err = from_array_bytes(&typed).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ZeroSizedLimitExceeded, Some(11))
    );
    let err = from_array_bytes(b"\x1a1152921504606846976 * void").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

/// A list nested `depth` deep, the innermost empty.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Node(Vec<Node>);

fn nested(depth: usize) -> Node {
    (1..depth).fold(Node(Vec::new()), |inner, _| Node(vec![inner]))
}

#[test]
fn nesting_exactly_at_the_depth_limit_round_trips() {
    let value = nested(DEFAULT_DEPTH_LIMIT);
    let bytes = to_bytes(&value).unwrap();
    let mut expected = vec![0x01; DEFAULT_DEPTH_LIMIT - 1];
    expected.push(0x00);
    assert_eq!(bytes, expected);
    assert_eq!(from_bytes::<Node>(&bytes).unwrap(), value);

    // Through a type: 128 `var *` and a scalar.
    let array = from_array_bytes(&to_array_bytes(&value).unwrap()).unwrap();
    assert_eq!(array.ty.nesting(), DEFAULT_DEPTH_LIMIT);
    let mut expected = super::Value::List(Vec::new());
    for _ in 1..DEFAULT_DEPTH_LIMIT {
        expected = super::Value::List(vec![expected]);
    }
    assert_eq!(array.value, expected);
}

#[test]
fn one_level_deeper_is_refused_by_writer_and_reader() {
    let value = nested(DEFAULT_DEPTH_LIMIT + 1);
    assert_names_the_limit(&to_bytes(&value).unwrap_err(), DEFAULT_DEPTH_LIMIT);
    assert_names_the_limit(&to_array_bytes(&value).unwrap_err(), DEFAULT_DEPTH_LIMIT);

    let mut bytes = vec![0x01; DEFAULT_DEPTH_LIMIT];
    bytes.push(0x00);
    let err = from_bytes::<Node>(&bytes).unwrap_err();
    assert_names_the_limit(&err, DEFAULT_DEPTH_LIMIT);
    assert_eq!(err.offset(), Some(DEFAULT_DEPTH_LIMIT as u64));

    // A type string one deeper than the limit does not parse.
    let ty = "var * ".repeat(DEFAULT_DEPTH_LIMIT + 1) + "void";
    let mut typed = vec![ty.len() as u8 & 0x7f | 0x80, (ty.len() >> 7) as u8];
    typed.extend_from_slice(ty.as_bytes());
    typed.extend_from_slice(&bytes);
    assert_names_the_limit(&from_array_bytes(&typed).unwrap_err(), DEFAULT_DEPTH_LIMIT);
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Tree {
    Leaf,
    Wrap(Box<Tree>),
    Pair(Box<Tree>, Option<Box<Tree>>),
    Named {
        map: std::collections::BTreeMap<u8, Tree>,
    },
}

#[test]
fn writer_and_reader_count_every_kind_of_level_alike() {
    let leaf = Tree::Leaf;
    let wrap = Tree::Wrap(Box::new(Tree::Leaf));
    let pair = Tree::Pair(Box::new(wrap.clone()), Some(Box::new(Tree::Leaf)));
    let named = Tree::Named {
        map: [(1, pair.clone()), (2, Tree::Leaf)].into(),
    };
    let values = [leaf, wrap, pair, named];
    for value in &values {
        let bytes = to_bytes(value).unwrap();
        for limit in 0..12 {
            let mut ser = Serializer::new(Vec::new()).with_depth_limit(limit);
            let written = ser.serialize_value(value);
            let mut de = Deserializer::from_bytes(&bytes).with_depth_limit(limit);
            let read = Tree::deserialize(&mut de);
            assert_eq!(written.is_ok(), read.is_ok(), "{value:?} at limit {limit}");
            if let (Err(w), Err(r)) = (written, read) {
                assert_names_the_limit(&w, limit);
                assert_names_the_limit(&r, limit);
            }
        }
    }
}

/// An iterator of primitives whose exact size hint is wrong (two announced, `given` yielded).
struct Lying(usize);

impl Serialize for Lying {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Hint<I>(I);
        impl<I: Iterator> Iterator for Hint<I> {
            type Item = I::Item;
            fn next(&mut self) -> Option<I::Item> {
                self.0.next()
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                (2, Some(2))
            }
        }
        s.collect_seq(Hint(0..self.0 as u32))
    }
}

#[test]
fn a_sequence_of_primitives_must_give_what_its_size_hint_announced() {
    assert_eq!(to_bytes(&Lying(2)).unwrap(), [0x02, 0, 0, 0, 0, 1, 0, 0, 0]);
    for given in [0, 1, 3] {
        let err = to_bytes(&Lying(given)).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("announced 2 elements but gave {given}")),
            "{err}"
        );
    }
}

#[test]
fn a_sequence_of_primitives_counts_one_level() {
    let value = vec![vec![1.0f64]];
    for limit in 0..3 {
        let mut ser = Serializer::new(Vec::new()).with_depth_limit(limit);
        let written = ser.serialize_value(&value);
        assert_eq!(written.is_ok(), limit >= 2, "limit {limit}");
        if let Err(err) = written {
            assert_names_the_limit(&err, limit);
        }
    }
}

#[test]
fn to_array_bytes_refuses_what_from_array_bytes_would_refuse() {
    // Read back through the type (`var * 2 * void`), both members of a pair count too:
    // 300 000 pairs are 900 000 zero-sized elements, 400 000 are 1 200 000, past the budget
    // of 2^20; the serializer of Rust values counts only the pairs.
    let fits = vec![((), ()); 300_000];
    let bytes = to_array_bytes(&fits).unwrap();
    let array = from_array_bytes(&bytes).unwrap();
    assert_eq!(array.ty.to_string(), "var * 2 * void");
    let past = vec![((), ()); 400_000];
    let err = to_array_bytes(&past).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZeroSizedLimitExceeded);
    assert!(err.to_string().contains("1048576"), "{err}");
}
