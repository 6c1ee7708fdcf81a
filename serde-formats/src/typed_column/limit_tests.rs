//! The typed-column depth limit binds the serializer and the deserializer alike: a value with
//! Columns exactly [`DEFAULT_DEPTH_LIMIT`] deep round-trips, one deeper is refused by both,
//! naming the same limit.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{from_columns, to_columns, Deserializer, Serializer, DEFAULT_DEPTH_LIMIT};
use crate::limits::assert_names_the_limit;
use crate::Position;

/// `depth` arrays, one inside the other, the innermost empty.
fn nested_arrays(depth: usize) -> Value {
    (1..depth).fold(json!([]), |inner, _| json!([inner]))
}

/// `Some` `somes` times, then `None`: `somes + 1` Columns, the last one empty.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Chain(Option<Box<Chain>>);

fn chain(somes: usize) -> Chain {
    (0..somes).fold(Chain(None), |inner, _| Chain(Some(Box::new(inner))))
}

/// Type words of `depth` Columns, each the only child of the one before, the last empty.
fn hand_built(depth: usize) -> Vec<u64> {
    let mut types: Vec<u64> = (1..depth as u64).flat_map(|i| [4, i, 1]).collect();
    types.extend_from_slice(&[4, 0, 0]);
    types
}

#[test]
fn columns_exactly_at_the_limit_round_trip() {
    let value = nested_arrays(DEFAULT_DEPTH_LIMIT);
    let columns = to_columns(&value).unwrap();
    assert_eq!(
        from_columns::<Value>(&columns.types, &columns.data).unwrap(),
        value
    );
    assert_eq!(columns.types, hand_built(DEFAULT_DEPTH_LIMIT));

    // The empty Column of `None` counts too: 127 `Some`s and a `None` are 128 Columns.
    let value = chain(DEFAULT_DEPTH_LIMIT - 1);
    let columns = to_columns(&value).unwrap();
    assert_eq!(columns.types, hand_built(DEFAULT_DEPTH_LIMIT));
    assert_eq!(
        from_columns::<Chain>(&columns.types, &columns.data).unwrap(),
        value
    );
}

#[test]
fn one_column_deeper_is_refused_by_writer_and_reader() {
    let types = hand_built(DEFAULT_DEPTH_LIMIT + 1);
    for err in [
        to_columns(&nested_arrays(DEFAULT_DEPTH_LIMIT + 1)).unwrap_err(),
        to_columns(&chain(DEFAULT_DEPTH_LIMIT)).unwrap_err(),
    ] {
        assert_names_the_limit(&err, DEFAULT_DEPTH_LIMIT);
    }
    // Read as arrays (entering the last Column) and as a `None` (not entering it).
    for err in [
        from_columns::<Value>(&types, &[]).unwrap_err(),
        from_columns::<Chain>(&types, &[]).unwrap_err(),
        from_columns::<serde::de::IgnoredAny>(&types, &[]).unwrap_err(),
    ] {
        assert_names_the_limit(&err, DEFAULT_DEPTH_LIMIT);
        assert_eq!(
            err.position(),
            Position::TypeWord(DEFAULT_DEPTH_LIMIT as u64)
        );
    }
}

#[test]
fn maps_variants_and_unsized_sequences_count_every_column() {
    // A map is one Column, each entry another: {k: v} at depth 2 holds its key and value.
    let map = std::collections::BTreeMap::from([(1u8, ())]);
    let mut ser = Serializer::new().with_depth_limit(2);
    assert_names_the_limit(&map.serialize(&mut ser).unwrap_err(), 2);
    let mut ser = Serializer::new().with_depth_limit(3);
    map.serialize(&mut ser).unwrap();
    let columns = ser.into_columns().unwrap();
    let mut de = Deserializer::from_columns(&columns.types, &columns.data)
        .unwrap()
        .with_depth_limit(2);
    let err = std::collections::BTreeMap::<u8, ()>::deserialize(&mut de).unwrap_err();
    assert_names_the_limit(&err, 2);

    #[derive(Serialize)]
    enum E {
        Tuple(u8, u8),
    }
    // Column [name, payload] and the payload's Column: depth 2.
    let mut ser = Serializer::new().with_depth_limit(1);
    assert_names_the_limit(&E::Tuple(1, 2).serialize(&mut ser).unwrap_err(), 1);
    let mut ser = Serializer::new().with_depth_limit(2);
    E::Tuple(1, 2).serialize(&mut ser).unwrap();

    // Without a length hint elements go through scratch arrays, at the same depth.
    struct Unsized;
    impl Serialize for Unsized {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(std::iter::once(vec![()]).filter(|_| true))
        }
    }
    let mut ser = Serializer::new().with_depth_limit(2);
    assert_names_the_limit(&Unsized.serialize(&mut ser).unwrap_err(), 2);
    let mut ser = Serializer::new().with_depth_limit(3);
    Unsized.serialize(&mut ser).unwrap();
}
