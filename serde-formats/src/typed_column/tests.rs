//! Unit tests. Every expected array here was worked out by hand from the rules of
//! `docs/spec/typed-column.md` and the module docs (layout algorithm in `ser.rs`), never captured
//! from this code's output.

use std::collections::BTreeMap;

use serde::de::IgnoredAny;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::*;
use crate::error::{Error, ErrorKind, Position};

const C: u64 = 1 << 63;

fn uncompressed<T: Serialize + ?Sized>(value: &T) -> TypedColumns {
    let mut serializer = Serializer::new().with_compression(false);
    value.serialize(&mut serializer).unwrap();
    serializer.into_columns().unwrap()
}

fn le(words: &[i64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `types` and `data` framed by hand, as `from_bytes` reads them.
pub(super) fn frame(types: &[u64], data: &[u8]) -> Vec<u8> {
    let mut bytes = (types.len() as u64).to_le_bytes().to_vec();
    for word in types {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(data);
    bytes
}

// ---- the worked examples of docs/spec/typed-column.md §5 ----

/// docs/spec/typed-column.md §5.1.
#[test]
fn seed_true() {
    let columns = to_columns(&true).unwrap();
    assert_eq!(columns.types, [0, 0, 1]);
    assert_eq!(columns.data, [1]);
    assert!(from_columns::<bool>(&[0, 0, 1], &[1]).unwrap());
    assert_eq!(
        View::from_columns(&[0, 0, 1], &[1]).unwrap().as_bool(),
        Some(true)
    );
}

/// docs/spec/typed-column.md §5.2.
#[test]
fn seed_hello() {
    let columns = to_columns("Hello").unwrap();
    assert_eq!(columns.types, [3, 0, 5]);
    assert_eq!(columns.data, b"Hello");
    let bytes = frame(&[3, 0, 5], b"Hello");
    assert_eq!(to_bytes("Hello").unwrap(), bytes);
    assert_eq!(from_bytes::<&str>(&bytes).unwrap(), "Hello");
}

/// docs/spec/typed-column.md §5.3.
#[test]
fn seed_hi_bye() {
    let types = [4, 1, 2, 3, 0, 2, 3, 2, 3];
    assert_eq!(to_columns(&["hi", "bye"]).unwrap().types, types);
    assert_eq!(to_columns(&["hi", "bye"]).unwrap().data, b"hibye");
    assert_eq!(
        from_columns::<Vec<&str>>(&types, b"hibye").unwrap(),
        ["hi", "bye"]
    );
}

/// docs/spec/typed-column.md §5.4.
#[test]
fn seed_nested_with_the_typo_fixed() {
    // The engine's description says `[4][4][2]` for the second inner column; `[4][5][2]` is
    // right (docs/spec/typed-column.md §8).
    let types = [
        4, 1, 2, 4, 3, 2, 4, 5, 2, 3, 0, 1, 3, 1, 1, 3, 2, 1, 3, 3, 1,
    ];
    let value = vec![vec!["a", "b"], vec!["c", "d"]];
    assert_eq!(to_columns(&value).unwrap().types, types);
    assert_eq!(
        from_columns::<Vec<Vec<&str>>>(&types, b"abcd").unwrap(),
        value
    );
    let typo = [
        4, 1, 2, 4, 3, 2, 4, 4, 2, 3, 0, 1, 3, 1, 1, 3, 2, 1, 3, 3, 1,
    ];
    let err = from_columns::<Vec<Vec<&str>>>(&typo, b"abcd").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotATree);
}

/// docs/spec/typed-column.md §5.5 and §5.6.
#[test]
fn seed_compressed_booleans() {
    let types = [4, 0, 3, C, 3, 1];
    assert_eq!(
        from_columns::<Vec<bool>>(&types, &[1, 0, 1]).unwrap(),
        [true, false, true]
    );
    let columns = to_columns(&[true, false, true]).unwrap();
    assert_eq!(columns.types, types);
    assert_eq!(columns.data, [1, 0, 1]);
    let plain = uncompressed(&[true, false, true]);
    assert_eq!(plain.types, [4, 1, 3, 0, 0, 1, 0, 1, 1, 0, 2, 1]);
    let view = View::from_columns(&types, &[1, 0, 1]).unwrap();
    let bools: Vec<_> = view.iter().map(|v| v.as_bool().unwrap()).collect();
    assert_eq!(bools, [true, false, true]);
}

// ---- the serde mapping ----

#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum Shape {
    Empty,
    Flag(bool),
    Pair(bool, String),
    Point { x: f64 },
}

#[test]
fn enum_variants() {
    let a = to_columns(&Shape::Empty).unwrap();
    assert_eq!((a.types, a.data), (vec![3, 0, 5], b"Empty".to_vec()));

    let b = to_columns(&Shape::Flag(true)).unwrap();
    assert_eq!(b.types, [4, 1, 2, 3, 0, 4, 0, 4, 1]);
    assert_eq!(b.data, b"Flag\x01");

    let c = to_columns(&Shape::Pair(true, "hi".into())).unwrap();
    assert_eq!(c.types, [4, 1, 2, 3, 0, 4, 4, 3, 2, 0, 4, 1, 3, 5, 2]);
    assert_eq!(c.data, b"Pair\x01hi");

    let d = to_columns(&Shape::Point { x: 1.5 }).unwrap();
    assert_eq!(d.types, [4, 1, 2, 3, 0, 5, 4, 5, 1, C | 2, 1, 8]);
    let mut data = b"Point".to_vec();
    data.extend_from_slice(&1.5f64.to_le_bytes());
    assert_eq!(d.data, data);
    assert_eq!(
        uncompressed(&Shape::Point { x: 1.5 }).types,
        [4, 1, 2, 3, 0, 5, 4, 3, 1, 2, 5, 8]
    );

    for value in [
        Shape::Empty,
        Shape::Flag(false),
        Shape::Pair(false, "x".into()),
        Shape::Point { x: -2.0 },
    ] {
        let columns = to_columns(&value).unwrap();
        assert_eq!(
            from_columns::<Shape>(&columns.types, &columns.data).unwrap(),
            value
        );
    }
}

#[test]
fn option_unit_and_struct() {
    assert_eq!(to_columns(&None::<bool>).unwrap().types, [4, 0, 0]);
    assert_eq!(to_columns(&()).unwrap().types, [4, 0, 0]);
    assert_eq!(to_columns(&Some(true)).unwrap().types, [4, 0, 1, C, 1, 1]);
    assert_eq!(uncompressed(&Some(true)).types, [4, 1, 1, 0, 0, 1]);
    assert_eq!(from_columns::<Option<bool>>(&[4, 0, 0], &[]).unwrap(), None);
    assert_eq!(
        from_columns::<Option<bool>>(&[4, 1, 1, 0, 0, 1], &[1]).unwrap(),
        Some(true)
    );

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Point {
        x: i32,
        y: i32,
    }
    let columns = to_columns(&Point { x: 3, y: -4 }).unwrap();
    assert_eq!(columns.types, [4, 0, 2, C | 1, 2, 16]);
    assert_eq!(columns.data, le(&[3, 1, -4, 1]));
    let point: Point = from_columns(&[4, 1, 2, 1, 0, 16, 1, 16, 16], &le(&[3, 1, -4, 1])).unwrap();
    assert_eq!(point, Point { x: 3, y: -4 });
}

#[test]
fn map_is_a_column_of_pairs() {
    let map = BTreeMap::from([("a", 1u8)]);
    let columns = to_columns(&map).unwrap();
    assert_eq!(columns.types, [4, 1, 1, 4, 2, 2, 3, 0, 1, 1, 1, 16]);
    let mut data = b"a".to_vec();
    data.extend_from_slice(&le(&[1, 1]));
    assert_eq!(columns.data, data);
    assert_eq!(
        from_columns::<BTreeMap<&str, u8>>(&columns.types, &data).unwrap(),
        map
    );
}

#[test]
fn ragged_columns_are_not_dense() {
    let columns = to_columns(&vec![vec![1.0], vec![2.0, 3.0]]).unwrap();
    assert_eq!(
        columns.types,
        [4, 1, 2, 4, 3, 1, 4, 4, 2, 2, 0, 8, 2, 8, 8, 2, 16, 8]
    );
}

#[test]
fn dense_tail_is_expanded_when_something_follows() {
    let value = vec![(true, vec![false]), (false, vec![true, true])];
    let columns = to_columns(&value).unwrap();
    assert_eq!(
        columns.types,
        [4, 1, 2, 4, 3, 2, 4, 6, 2, 0, 0, 1, 4, 5, 1, 0, 1, 1, 0, 2, 1, 4, 3, 2, C, 2, 1]
    );
    assert_eq!(columns.data, [1, 0, 0, 1, 1]);
    let back: Vec<(bool, Vec<bool>)> = from_columns(&columns.types, &columns.data).unwrap();
    assert_eq!(back, value);
}

#[test]
fn multi_level_chain_decodes() {
    // A 2 × 3 matrix: [4][0][2] [4'][2][3] [2'][6][8].
    let types = [4, 0, 2, C | 4, 2, 3, C | 2, 6, 8];
    let data: Vec<u8> = (1..=6).flat_map(|i| f64::from(i).to_le_bytes()).collect();
    let matrix: Vec<Vec<f64>> = from_columns(&types, &data).unwrap();
    assert_eq!(matrix, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let view = View::from_columns(&types, &data).unwrap();
    assert_eq!(
        view.get(1)
            .and_then(|row| row.get(2))
            .and_then(|v| v.as_f64()),
        Some(6.0)
    );
    assert_eq!(view.get(1).map(|row| row.len()), Some(3));
    assert!(view.get(2).is_none());
}

fn floats(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|f| f.to_le_bytes()).collect()
}

#[test]
fn matrix_is_written_dense_with_a_two_level_chain() {
    let matrix = vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]];
    let columns = to_columns(&matrix).unwrap();
    assert_eq!(columns.types, [4, 0, 2, C | 4, 2, 3, C | 2, 6, 8]);
    assert_eq!(columns.data, floats(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
    let plain = uncompressed(&vec![vec![1.0, 2.0], vec![3.0, 4.0]]);
    assert_eq!(
        plain.types,
        [4, 1, 2, 4, 3, 2, 4, 5, 2, 2, 0, 8, 2, 8, 8, 2, 16, 8, 2, 24, 8]
    );
}

#[test]
fn uniformity_broken_by_a_later_shape_writes_plain_descriptions() {
    let value = vec![vec![vec![true]], vec![vec![false, true]]];
    let columns = to_columns(&value).unwrap();
    assert_eq!(
        columns.types,
        [4, 1, 2, 4, 3, 1, 4, 5, 1, 4, 4, 1, 0, 0, 1, 4, 6, 2, 0, 1, 1, 0, 2, 1]
    );
    assert_eq!(columns.data, [1, 0, 1]);
    assert_eq!(
        from_columns::<Vec<Vec<Vec<bool>>>>(&columns.types, &columns.data).unwrap(),
        value
    );
}

#[test]
fn uniformity_broken_inside_an_open_column_writes_plain_descriptions() {
    let value = json!([[1.0, 2.0], [3.0, "x"]]);
    let columns = to_columns(&value).unwrap();
    assert_eq!(
        columns.types,
        [4, 1, 2, 4, 3, 2, 4, 5, 2, 2, 0, 8, 2, 8, 8, 2, 16, 8, 3, 24, 1]
    );
    let mut data = floats(&[1.0, 2.0, 3.0]);
    data.push(b'x');
    assert_eq!(columns.data, data);
    assert_eq!(
        from_columns::<serde_json::Value>(&columns.types, &data).unwrap(),
        value
    );
}

/// Serializes its elements with no length hint.
struct Unsized<T>(T);

impl Serialize for Unsized<Vec<Vec<bool>>> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for element in &self.0 {
            seq.serialize_element(element)?;
        }
        seq.end()
    }
}

impl Serialize for Unsized<Vec<(&str, bool)>> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[test]
fn collections_without_length_hint_are_spliced() {
    let columns = to_columns(&Unsized(vec![vec![true], vec![]])).unwrap();
    assert_eq!(columns.types, [4, 1, 2, 4, 3, 1, 4, 0, 0, 0, 0, 1]);
    assert_eq!(columns.data, [1]);
    let columns = to_columns(&Unsized(vec![("k", true)])).unwrap();
    assert_eq!(columns.types, [4, 1, 1, 4, 2, 2, 3, 0, 1, 0, 1, 1]);
    assert_eq!(columns.data, b"k\x01");
}

#[test]
fn integers_outside_i64_and_skipped_fields_are_errors() {
    assert_eq!(
        to_columns(&u64::MAX).unwrap_err().kind(),
        ErrorKind::IntegerOverflow
    );
    assert_eq!(
        to_columns(&(i128::from(i64::MIN) - 1)).unwrap_err().kind(),
        ErrorKind::IntegerOverflow
    );
    assert_eq!(
        to_columns(&(i64::MAX as u64)).unwrap().data,
        le(&[i64::MAX, 1])
    );

    #[derive(Serialize)]
    struct Skips {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<bool>,
    }
    let err = to_columns(&Skips { a: None }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
}

/// A struct whose `Serialize` announces `claim` fields and writes `fields`.
struct Lying {
    claim: usize,
    fields: usize,
}

impl Serialize for Lying {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = serializer.serialize_struct("Lying", self.claim)?;
        for i in 0..self.fields {
            // Mixed kinds, so that the struct is not a uniform column.
            if i % 2 == 0 {
                st.serialize_field("n", &(i as f64))?;
            } else {
                st.serialize_field("s", "x")?;
            }
        }
        st.end()
    }
}

#[test]
fn a_wrong_length_hint_is_an_error_framed_or_not() {
    let honest = Lying {
        claim: 3,
        fields: 3,
    };
    for (claim, fields) in [(3, 2), (3, 4), (2, 3)] {
        let lying = Lying { claim, fields };
        // Alone, the struct is a framed column; after a non-uniform sibling it opens with its
        // slots reserved and no frame.
        for err in [
            to_columns(&lying).unwrap_err(),
            to_columns(&[&honest, &lying]).unwrap_err(),
            to_bytes(&[&honest, &lying]).unwrap_err(),
        ] {
            assert_eq!(err.kind(), ErrorKind::Unsupported);
            assert!(
                err.to_string()
                    .contains(&format!("length hint {claim} does not match")),
                "{err}"
            );
        }
    }
    assert!(to_columns(&[&honest, &honest]).is_ok());
}

// ---- conversions ----

#[test]
fn fraction_round_trips_and_converts() {
    let third = Fraction::new(-1, 3);
    let columns = to_columns(&third).unwrap();
    assert_eq!(columns.types, [1, 0, 16]);
    assert_eq!(columns.data, le(&[-1, 3]));
    assert_eq!(
        from_columns::<Fraction>(&columns.types, &columns.data).unwrap(),
        third
    );
    assert_eq!(serde_json::to_string(&third).unwrap(), "[-1,3]");

    let six_thirds = le(&[6, 3]);
    assert_eq!(from_columns::<u8>(&[1, 0, 16], &six_thirds).unwrap(), 2);
    assert_eq!(from_columns::<f32>(&[1, 0, 16], &six_thirds).unwrap(), 2.0);
    let err = from_columns::<u8>(&[1, 0, 16], &le(&[3, 2])).unwrap_err();
    assert_eq!(
        err.message(),
        Some("fraction 3/2 is not an integer, cannot read it as u8")
    );
    assert_eq!(err.position(), Position::TypeWord(0));
    let err = from_columns::<i8>(&[1, 0, 16], &le(&[300, 1])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
    assert_eq!(err.message(), Some("fraction 300/1 does not fit i8"));
    assert_eq!(
        from_columns::<f32>(&[2, 0, 8], &0.5f64.to_le_bytes()).unwrap(),
        0.5
    );
    assert_eq!(
        from_columns::<f64>(&[1, 0, 16], &le(&[1, 0])).unwrap(),
        f64::INFINITY
    );
    let err = from_columns::<u8>(&[2, 0, 8], &1f64.to_le_bytes()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
}

#[test]
fn deserialize_any_into_json() {
    let types = [4, 1, 5, 0, 0, 1, 1, 1, 16, 3, 17, 2, 2, 19, 8, 1, 27, 16];
    let mut data = vec![1];
    data.extend_from_slice(&le(&[5, 1]));
    data.extend_from_slice(b"hi");
    data.extend_from_slice(&2.5f64.to_le_bytes());
    data.extend_from_slice(&le(&[1, 2]));
    let value: serde_json::Value = from_columns(&types, &data).unwrap();
    assert_eq!(value, json!([true, 5, "hi", 2.5, 0.5]));
}

#[test]
fn type_mismatch_names_both_kinds() {
    let err = from_columns::<bool>(&[3, 0, 1], b"x").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert_eq!(err.message(), Some("expected a Boolean, found a String"));
    assert_eq!(err.position(), Position::TypeWord(0));
    let err = from_columns::<(bool,)>(&[4, 1, 2, 0, 0, 1, 0, 1, 1], &[1, 1]).unwrap_err();
    assert_eq!(err.message(), Some("column of 2 elements, 1 read"));
}

// ---- hostile inputs ----

/// (name, types, data, expected kind, expected position)
type Case = (&'static str, Vec<u64>, Vec<u8>, ErrorKind, Position);

fn hostile_cases() -> Vec<Case> {
    use ErrorKind::*;
    use Position::{Byte, TypeWord};
    let max = u64::MAX;
    vec![
        (
            "not whole descriptions",
            vec![0, 0, 1, 0],
            vec![1],
            TypeArrayLength,
            TypeWord(1),
        ),
        (
            "empty type array",
            vec![],
            vec![],
            UnexpectedEnd,
            TypeWord(0),
        ),
        (
            "unknown kind",
            vec![5, 0, 0],
            vec![],
            UnknownKind,
            TypeWord(0),
        ),
        (
            "string past data",
            vec![3, 0, 6],
            b"Hello".to_vec(),
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "string offset huge",
            vec![3, max, 1],
            b"H".to_vec(),
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "string length huge",
            vec![3, 1, max],
            b"H".to_vec(),
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "boolean past data",
            vec![0, 1, 1],
            vec![1],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "boolean of two bytes",
            vec![0, 0, 2],
            vec![1, 1],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "float past data",
            vec![2, 1, 8],
            vec![0; 8],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "fraction offset huge",
            vec![1, max - 3, 16],
            vec![0; 16],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "children at parent",
            vec![4, 0, 1, 0, 0, 1],
            vec![1],
            ChildOrder,
            TypeWord(0),
        ),
        (
            "children before parent",
            vec![4, 1, 1, 4, 0, 1],
            vec![],
            ChildOrder,
            TypeWord(1),
        ),
        (
            "children past end",
            vec![4, 1, 2, 0, 0, 1],
            vec![1],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "column length huge",
            vec![4, 1, max, 0, 0, 1],
            vec![1],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "column offset huge",
            vec![4, max, 2, 0, 0, 1],
            vec![1],
            OutOfBounds,
            TypeWord(0),
        ),
        (
            "shared children",
            vec![4, 1, 2, 4, 3, 1, 4, 3, 1, 0, 0, 1],
            vec![1],
            NotATree,
            TypeWord(2),
        ),
        (
            "orphan description",
            vec![0, 0, 1, 0, 0, 1],
            vec![1],
            NotATree,
            TypeWord(1),
        ),
        (
            "compressed root",
            vec![C, 3, 1],
            vec![1, 0, 1],
            MisplacedCompressed,
            TypeWord(0),
        ),
        (
            "compressed after a string",
            vec![4, 1, 1, 3, 0, 1, C, 1, 1],
            b"ab".to_vec(),
            MisplacedCompressed,
            TypeWord(2),
        ),
        (
            "uncompressed after compressed",
            vec![4, 0, 3, C, 3, 1, 0, 0, 1],
            vec![1, 0, 1],
            MisplacedCompressed,
            TypeWord(1),
        ),
        (
            "compressed inside the tree",
            vec![4, 1, 2, C, 3, 1, 0, 0, 1],
            vec![1, 0, 1],
            MisplacedCompressed,
            TypeWord(1),
        ),
        (
            "compressed column inside the tree",
            vec![4, 1, 2, 0, 0, 1, C | 4, 3, 1, 0, 1, 1],
            vec![1, 0, 1],
            MisplacedCompressed,
            TypeWord(2),
        ),
        (
            "columns × size overflow",
            vec![4, 0, 2, C | 4, 2, max, C | 2, 0, 8],
            vec![],
            OutOfBounds,
            TypeWord(1),
        ),
        (
            "atoms count × size overflow",
            vec![4, 0, 1 << 62, C | 2, 1 << 62, 8],
            vec![0; 8],
            OutOfBounds,
            TypeWord(1),
        ),
        (
            "chain count disagrees",
            vec![4, 0, 3, C, 2, 1],
            vec![1, 0, 1],
            OutOfBounds,
            TypeWord(1),
        ),
        (
            "chain ends in a column",
            vec![4, 0, 1, C | 4, 1, 1],
            vec![],
            MisplacedCompressed,
            TypeWord(1),
        ),
        (
            "compressed string",
            vec![4, 0, 1, C | 3, 1, 1],
            b"a".to_vec(),
            MisplacedCompressed,
            TypeWord(1),
        ),
        (
            "compressed unknown kind",
            vec![4, 0, 1, C | 7, 1, 1],
            vec![1],
            UnknownKind,
            TypeWord(1),
        ),
        (
            "chain atoms past data",
            vec![4, 0, 3, C, 3, 1],
            vec![1, 0],
            OutOfBounds,
            TypeWord(1),
        ),
        (
            "chain atom of wrong size",
            vec![4, 0, 1, C | 2, 1, 4],
            vec![0; 4],
            OutOfBounds,
            TypeWord(1),
        ),
        (
            "dense base past data",
            vec![4, 9, 1, C, 1, 1],
            vec![1],
            OutOfBounds,
            TypeWord(1),
        ),
        (
            "descriptions after the chain's atoms",
            vec![4, 0, 1, C, 1, 1, C, 1, 1],
            vec![1],
            MisplacedCompressed,
            TypeWord(2),
        ),
        (
            "invalid UTF-8",
            vec![3, 0, 2],
            vec![b'a', 0xff],
            InvalidUtf8,
            Byte(1),
        ),
        (
            "trailing data",
            vec![0, 0, 1],
            vec![1, 7],
            TrailingBytes,
            Byte(1),
        ),
    ]
}

fn check(name: &str, entry: &str, result: Result<(), Error>, kind: ErrorKind, position: Position) {
    let err = result.expect_err(&format!("{name}: {entry} accepted hostile input"));
    assert_eq!(
        (err.kind(), err.position()),
        (kind, position),
        "{name}: {entry}: {err}"
    );
}

#[test]
fn hostile_inputs_are_errors_at_every_entry_point() {
    for (name, types, data, kind, position) in hostile_cases() {
        let ignored = from_columns::<IgnoredAny>(&types, &data).map(drop);
        check(name, "from_columns::<IgnoredAny>", ignored, kind, position);
        let json = from_columns::<serde_json::Value>(&types, &data).map(drop);
        check(name, "from_columns::<Value>", json, kind, position);
        let framed = frame(&types, &data);
        let bytes = from_bytes::<IgnoredAny>(&framed).map(drop);
        check(name, "from_bytes", bytes, kind, position);
        check(
            name,
            "View::from_columns",
            View::from_columns(&types, &data).map(drop),
            kind,
            position,
        );
        check(
            name,
            "View::from_bytes",
            View::from_bytes(&framed).map(drop),
            kind,
            position,
        );
    }
}

#[test]
fn every_truncated_frame_is_an_error() {
    let full = frame(&[4, 1, 2, 3, 0, 2, 3, 2, 3], b"hibye");
    assert!(from_bytes::<Vec<&str>>(&full).is_ok());
    for len in 0..full.len() {
        let prefix = &full[..len];
        assert!(
            from_bytes::<IgnoredAny>(prefix).is_err(),
            "prefix of {len} bytes accepted"
        );
        assert!(
            View::from_bytes(prefix).is_err(),
            "prefix of {len} bytes accepted by View"
        );
    }
    let err = from_bytes::<IgnoredAny>(&full[..20]).unwrap_err();
    assert_eq!(
        (err.kind(), err.position()),
        (ErrorKind::LengthPastEnd, Position::Byte(0))
    );
}

#[test]
fn depth_limit_guards_deep_nesting() {
    // 200 columns, each the only child of the one before, then an empty column.
    let mut types: Vec<u64> = (1..=200).flat_map(|i| [4, i, 1]).collect();
    types.extend_from_slice(&[4, 0, 0]);
    let err = from_columns::<IgnoredAny>(&types, &[]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
    assert_eq!(err.position(), Position::TypeWord(128));
    let mut de = Deserializer::from_columns(&types, &[])
        .unwrap()
        .with_depth_limit(256);
    IgnoredAny::deserialize(&mut de).unwrap();
    de.end().unwrap();
    let mut view = View::from_columns(&types, &[]).unwrap();
    for _ in 0..200 {
        view = view.get(0).unwrap();
    }
    assert!(view.is_empty());
    assert_eq!(format!("{:?}", view), "[]");
}

#[test]
fn view_debug_prints_values() {
    let types = [4, 1, 3, 0, 0, 1, 3, 1, 2, 1, 3, 16];
    let mut data = vec![1, b'h', b'i'];
    data.extend_from_slice(&le(&[1, 2]));
    let view = View::from_columns(&types, &data).unwrap();
    assert_eq!(format!("{view:?}"), "[true, \"hi\", 1/2]");
}

#[test]
fn writer_and_reader_use_the_frame() {
    let mut out = Vec::new();
    to_writer(&mut out, &("a", 2u8)).unwrap();
    assert_eq!(
        out,
        frame(
            &[4, 1, 2, 3, 0, 1, 1, 1, 16],
            &[b"a".as_slice(), &le(&[2, 1])].concat()
        )
    );
    let back: (String, u8) = from_reader(out.as_slice()).unwrap();
    assert_eq!(back, ("a".to_owned(), 2));
    let err = from_reader::<_, (String, u8)>(&out[..10]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LengthPastEnd);
}

#[test]
fn variant_index_is_accepted_for_its_name() {
    // Column [index 1, payload true]: `Flag(true)` named by its index.
    let types = [4, 1, 2, 1, 0, 16, 0, 16, 1];
    let mut data = le(&[1, 1]);
    data.push(1);
    assert_eq!(
        from_columns::<Shape>(&types, &data).unwrap(),
        Shape::Flag(true)
    );
}
