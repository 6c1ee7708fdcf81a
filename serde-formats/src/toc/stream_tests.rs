//! The writer to memory streams arrays of trivial values into blocks and promotes containers
//! late; the writer to a file records every container from its start. Both must write the
//! same bytes, and a streamed list must get the block list msglc's rule gives.

use std::io::Cursor as IoCursor;

use proptest::prelude::*;

use super::tests::{sections, value_strategy};
use super::{from_bytes, to_bytes_with, to_writer_with, Config, Value};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The writer to memory (which streams arrays and promotes containers late) and the
    /// writer to a file (which records every container from its start) write the same bytes.
    #[test]
    fn memory_and_file_writers_agree(
        value in value_strategy(),
        block_size in 1u64..160,
        trivial_size in 1u64..30,
    ) {
        let config = Config::new().block_size(block_size).trivial_size(trivial_size);
        let in_memory = to_bytes_with(&value, &config).unwrap();
        let mut file = IoCursor::new(Vec::new());
        to_writer_with(&mut file, &value, &config).unwrap();
        prop_assert_eq!(in_memory, file.into_inner());
    }
}

#[test]
fn streamed_arrays_match_recorded_ones() {
    // Each case against the file writer, which records every value as an entry; a block
    // size of 64 makes a few dozen numbers a block list.
    let long = "x".repeat(40);
    let numbers = |n: u64| (0..n).map(Value::UInt).collect::<Vec<_>>();
    let mut cases = vec![
        Value::Array(numbers(3)),
        Value::Array(numbers(200)),
        Value::Array(vec![Value::F64(0.5); 50]),
    ];
    // A value that is not trivial, or a container, before, inside and after the first block.
    for at in [0, 5, 40, 199] {
        let mut items = numbers(200);
        items[at] = Value::Str(long.clone());
        cases.push(Value::Array(items.clone()));
        items[at] = Value::Array(numbers(2));
        cases.push(Value::Array(items.clone()));
        items[at] = Value::Array(numbers(100));
        cases.push(Value::Array(items));
    }
    // Streamed arrays inside a map and inside an array, and one of unknown length.
    cases.push(Value::Map(vec![
        (Value::Str("a".into()), Value::Array(numbers(100))),
        (Value::Str("b".into()), Value::Array(numbers(7))),
    ]));
    cases.push(Value::Array(vec![
        Value::Array(numbers(100)),
        Value::Array(numbers(100)),
    ]));
    let config = Config::new().block_size(64);
    for value in &cases {
        let in_memory = to_bytes_with(value, &config).unwrap();
        let mut file = IoCursor::new(Vec::new());
        to_writer_with(&mut file, value, &config).unwrap();
        assert_eq!(in_memory, file.into_inner(), "{value:?}");
        assert_eq!(&from_bytes::<Value>(&in_memory).unwrap(), value);
    }
    // The long list is a block list, `{"p": [[count, start, end], ...]}`, worked out by hand:
    // its 3-byte head, then 128 one-byte and 72 two-byte numbers, a block closing at the first
    // number that reaches 64 bytes past the block's start.
    let file = to_bytes_with(&numbers(200), &config).unwrap();
    let (_, toc) = sections(&file);
    #[rustfmt::skip]
    let expected = [
        0x81, 0xa1, b'p', 0x95,
        0x93, 64, 3, 67,
        0x93, 64, 67, 0xcc, 131,
        0x93, 32, 0xcc, 131, 0xcc, 195,
        0x93, 32, 0xcc, 195, 0xcd, 0x01, 0x03,
        0x93, 8, 0xcd, 0x01, 0x03, 0xcd, 0x01, 0x13,
    ];
    assert_eq!(toc, &expected[..]);
}

/// A map key that is a container opens a container inside a small map that has no level on
/// the writer's stack yet; the map then grows past the block size through its last value.
#[test]
fn a_container_key_inside_a_small_map() {
    let value = Value::Map(vec![
        (Value::Str("𐀀¡ࠀ    𐀀𐀀0".into()), Value::Nil),
        (
            Value::Array(vec![
                Value::Ext(0, vec![0, 0, 0, 0, 1, 89, 39, 129, 130, 135]),
                Value::UInt(72),
                Value::Nil,
                Value::Bin(vec![39u8; 22]),
                Value::Bool(true),
                Value::UInt(62),
                Value::Bin(vec![193u8; 13]),
                Value::F32(-1.8705972e32),
                Value::F64(-3.302789445698263e234),
                Value::Bin(vec![92u8; 5]),
            ]),
            Value::Bin(vec![164u8; 37]),
        ),
    ]);
    let config = Config::new().block_size(103).trivial_size(29);
    let in_memory = to_bytes_with(&value, &config).unwrap();
    let mut file = IoCursor::new(Vec::new());
    to_writer_with(&mut file, &value, &config).unwrap();
    assert_eq!(in_memory, file.into_inner());
}

/// A record whose field names take each path of the key writer: short names (a fixstr copied
/// in fixed-size pieces) of several lengths, and one of 32 bytes (a `d9` string).
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
struct Named {
    a: u8,
    abcd: u16,
    fifteen_letters: String,
    sixteen_letters_: f64,
    thirty_one_letters_in_this_name: bool,
    a_field_name_of_thirty_two_bytes: i64,
}

/// `items` as a sequence that does not tell its length, so the writer buffers it.
struct Unsized<'a>(&'a [Named]);

impl serde::Serialize for Unsized<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        for item in self.0 {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

#[test]
fn field_names_are_written_alike_in_every_container() {
    let items: Vec<Named> = (0..300)
        .map(|i| Named {
            a: i as u8,
            abcd: i as u16 * 7,
            fifteen_letters: "x".repeat(i % 40),
            sixteen_letters_: f64::from(i as u32) / 3.0,
            thirty_one_letters_in_this_name: i % 2 == 0,
            a_field_name_of_thirty_two_bytes: -(i as i64),
        })
        .collect();
    // Small blocks: the records before the list reaches them are replayed, the rest recorded.
    for block_size in [16, 4096, 1 << 20] {
        let config = Config::new().block_size(block_size);
        let known = to_bytes_with(&items, &config).unwrap();
        assert_eq!(to_bytes_with(&Unsized(&items), &config).unwrap(), known);
        let mut file = IoCursor::new(Vec::new());
        to_writer_with(&mut file, &items, &config).unwrap();
        assert_eq!(file.into_inner(), known, "block size {block_size}");
        assert_eq!(from_bytes::<Vec<Named>>(&known).unwrap(), items);
        // The data section is what rmp-serde writes for the same records, names and all.
        let rmp = rmp_serde::to_vec_named(&items).unwrap();
        assert!(
            known.windows(rmp.len()).any(|w| w == rmp),
            "block size {block_size}"
        );
    }
}

/// `n` floats for list `i`, all distinct.
fn floats(i: usize, n: usize) -> Vec<f64> {
    (0..n).map(|j| (i * 1000 + j) as f64 / 3.0).collect()
}

/// The same lists as `Value`s, which the writer records a float at a time.
fn float_values(lists: &[Vec<f64>]) -> Vec<Value> {
    lists
        .iter()
        .map(|list| Value::Array(list.iter().copied().map(Value::F64).collect()))
        .collect()
}

/// `(heads, lists)` to memory, the lists as a map keyed `k0`, `k1`, ... to memory, and
/// `(heads, lists)` to a file.
fn written_three_ways<T: serde::Serialize>(
    heads: &[String],
    lists: &[Vec<T>],
    config: &Config,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let map: std::collections::BTreeMap<String, &Vec<T>> = lists
        .iter()
        .enumerate()
        .map(|(i, list)| (format!("k{i}"), list))
        .collect();
    let mut file = IoCursor::new(Vec::new());
    to_writer_with(&mut file, &(heads, lists), config).unwrap();
    (
        to_bytes_with(&(heads, lists), config).unwrap(),
        to_bytes_with(&map, config).unwrap(),
        file.into_inner(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A `Vec<f64>` or `Vec<f32>` (the float-run path, whose blocks are worked out from the
    /// count) writes the bytes of the same floats as `Value`s, which are recorded one by one,
    /// to memory and to a file, in a recorded array (streamed lists) and in a map (promoted
    /// late), behind a list of `lead` strings, so that they start at every offset.
    #[test]
    fn float_runs_match_floats_one_by_one(
        lens in prop::collection::vec(0usize..400, 1..5),
        lead in 0usize..3,
        block_size in 1u64..300,
        trivial_size in 1u64..30,
        narrow in any::<bool>(),
    ) {
        let config = Config::new().block_size(block_size).trivial_size(trivial_size);
        let mut lists: Vec<Vec<f64>> = lens.iter().enumerate().map(|(i, &n)| floats(i, n)).collect();
        let heads: Vec<String> = (0..lead).map(|i| "h".repeat(i * 7 + 1)).collect();
        let narrow_lists: Vec<Vec<f32>> = lists
            .iter()
            .map(|list| list.iter().map(|&x| x as f32).collect())
            .collect();
        if narrow {
            // msglc writes every float as float64, and so does the writer.
            lists = narrow_lists
                .iter()
                .map(|list| list.iter().copied().map(f64::from).collect())
                .collect();
        }
        let as_values = Value::Array(vec![
            Value::Array(heads.iter().cloned().map(Value::Str).collect()),
            Value::Array(float_values(&lists)),
        ]);
        let map_values = Value::Map(
            float_values(&lists)
                .into_iter()
                .enumerate()
                .map(|(i, list)| (Value::Str(format!("k{i}")), list))
                .collect(),
        );

        let expected = to_bytes_with(&as_values, &config).unwrap();
        let expected_map = to_bytes_with(&map_values, &config).unwrap();
        let (native, native_map, file) = if narrow {
            written_three_ways(&heads, &narrow_lists, &config)
        } else {
            written_three_ways(&heads, &lists, &config)
        };
        prop_assert_eq!(&native, &expected);
        prop_assert_eq!(&file, &expected);
        prop_assert_eq!(&native_map, &expected_map);
    }
}

/// Floats from an iterator that announces `announced` as its exact length and yields `given`.
struct Lying {
    announced: usize,
    given: usize,
}

impl serde::Serialize for Lying {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Items(std::ops::Range<usize>, usize);
        impl Iterator for Items {
            type Item = f64;
            fn next(&mut self) -> Option<f64> {
                self.0.next().map(|i| i as f64)
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.1, Some(self.1))
            }
        }
        serializer.collect_seq(Items(0..self.given, self.announced))
    }
}

#[test]
fn a_float_sequence_of_another_length_than_announced_is_refused() {
    // 2^31 floats would be 18 GiB: the writer reserves at most `MAX_HINT_RESERVE` from it.
    for (announced, given) in [(3, 2), (2, 3), (0, 1), (5000, 4999), (1 << 31, 2)] {
        let lying = Lying { announced, given };
        for value in [Value::Array(vec![]), Value::Str("k".into())] {
            // Inside a recorded array the float run is taken; the file writer records each.
            let err = to_bytes_with(&(&value, &lying), &Config::new().block_size(64)).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("declared length {announced} but {given} elements were serialized"),
            );
            let mut file = IoCursor::new(Vec::new());
            let err = to_writer_with(&mut file, &(&value, &lying), &Config::new()).unwrap_err();
            assert!(err.to_string().contains("declared length"), "{err}");
        }
    }
}
