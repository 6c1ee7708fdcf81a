//! The worked examples of `docs/spec/columnar.md` §6.3–§6.10: golden bytes written by hand from
//! the rules of that specification (see `tests/golden/columnar/PROVENANCE.md`).
//!
//! For every golden file: `columnar::to_vec` of the described value gives exactly those bytes,
//! `columnar::from_bytes` of them gives the value back, and serde_columnar 0.3.14 writes them too
//! (a check of the hand derivation, not of our crate). The informal example's three schema versions
//! (without `note`, with `note`, with `note` and `nick`) read each other's bytes.

use std::collections::BTreeMap;

use proptest::prelude::*;

use integration_tests::hex::{parse as golden, Hex};

/// The worked examples' schemas, stamped for `columnar` (`ours`) and for serde_columnar (`peer`).
macro_rules! schemas {
    ($($body:tt)*) => {
        #[allow(dead_code)]
        mod ours {
            use super::*;
            use columnar::columnar;
            $($body)*
        }
        #[allow(dead_code)]
        mod peer {
            use super::*;
            use serde_columnar::columnar;
            $($body)*
        }
    };
}

schemas! {
    // docs/spec/columnar.md §6.3: one BoolRle column.
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct BoolRow {
        #[columnar(strategy = "BoolRle")]
        pub b: bool,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct BoolTable {
        #[columnar(class = "vec")]
        pub rows: Vec<BoolRow>,
    }

    // docs/spec/columnar.md §6.4: required and optional columns.
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Row {
        #[columnar(strategy = "Rle")]
        pub name: String,
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(optional, index = 0)]
        pub note: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Table {
        #[columnar(class = "vec")]
        pub rows: Vec<Row>,
        pub version: u32,
    }

    // The older schema, without `note`.
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct OldRow {
        #[columnar(strategy = "Rle")]
        pub name: String,
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct OldTable {
        #[columnar(class = "vec")]
        pub rows: Vec<OldRow>,
        pub version: u32,
    }

    // The newer schema, adding `nick`.
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct NickRow {
        #[columnar(strategy = "Rle")]
        pub name: String,
        #[columnar(strategy = "DeltaRle")]
        pub id: u64,
        #[columnar(optional, index = 0)]
        pub note: String,
        #[columnar(optional, index = 1)]
        pub nick: Option<String>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct NickTable {
        #[columnar(class = "vec")]
        pub rows: Vec<NickRow>,
        pub version: u32,
    }

    // map_optional.hex
    #[columnar(map, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct MapRow {
        #[columnar(strategy = "DeltaRle")]
        pub x: i32,
        #[columnar(strategy = "BoolRle")]
        pub f: bool,
        #[columnar(strategy = "Rle", optional, index = 1)]
        pub s: String,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct MapTable {
        #[columnar(class = "map")]
        pub map: BTreeMap<u64, MapRow>,
        #[columnar(optional, index = 7)]
        pub tag: String,
    }

    // dod_rle_skip.hex
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct DodRow {
        #[columnar(strategy = "DeltaOfDelta")]
        pub t: i64,
        #[columnar(strategy = "Rle")]
        pub k: u8,
        #[columnar(skip)]
        pub s: u32,
        pub g: Option<u32>,
    }

    // nested_class.hex
    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Leaf {
        #[columnar(strategy = "DeltaRle")]
        pub a: u8,
    }

    #[columnar(vec, ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct Outer {
        #[columnar(class = "vec")]
        pub inner: Vec<Leaf>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct NestedTable {
        #[columnar(class = "vec")]
        pub rows: Vec<Outer>,
    }

    #[columnar(ser, de)]
    #[derive(Debug, Clone, PartialEq)]
    pub struct DodTable {
        #[columnar(class = "vec")]
        pub rows: Vec<DodRow>,
        #[columnar(skip)]
        pub cache: u64,
    }
}

// ------------------------------------------------------------------ the values of the golden files

macro_rules! bool_table {
    ($m:ident) => {
        $m::BoolTable {
            rows: [true, true, false, false, false]
                .into_iter()
                .map(|b| $m::BoolRow { b })
                .collect(),
        }
    };
}

/// rows ("a", 1, ""), ("a", 2, "x"), version 3
macro_rules! informal {
    ($m:ident) => {
        $m::Table {
            rows: vec![
                $m::Row {
                    name: "a".into(),
                    id: 1,
                    note: "".into(),
                },
                $m::Row {
                    name: "a".into(),
                    id: 2,
                    note: "x".into(),
                },
            ],
            version: 3,
        }
    };
}

macro_rules! informal_old {
    ($m:ident) => {
        $m::OldTable {
            rows: vec![
                $m::OldRow {
                    name: "a".into(),
                    id: 1,
                },
                $m::OldRow {
                    name: "a".into(),
                    id: 2,
                },
            ],
            version: 3,
        }
    };
}

/// `nick` values Some("n"), None
macro_rules! informal_nick {
    ($m:ident, $note0:expr, $note1:expr, $nick0:expr) => {
        $m::NickTable {
            rows: vec![
                $m::NickRow {
                    name: "a".into(),
                    id: 1,
                    note: $note0.into(),
                    nick: $nick0,
                },
                $m::NickRow {
                    name: "a".into(),
                    id: 2,
                    note: $note1.into(),
                    nick: None,
                },
            ],
            version: 3,
        }
    };
}

macro_rules! map_table {
    ($m:ident) => {
        $m::MapTable {
            map: [(5u64, true), (300, false)]
                .into_iter()
                .map(|(k, f)| {
                    (
                        k,
                        $m::MapRow {
                            x: -1,
                            f,
                            s: "hi".into(),
                        },
                    )
                })
                .collect(),
            tag: "t".into(),
        }
    };
}

/// `s` and `cache` given non-default values: they are skipped, so they come back as 0.
macro_rules! dod_table {
    ($m:ident, $skipped:expr) => {
        $m::DodTable {
            rows: [
                (1, 7, None),
                (2, 8, Some(1)),
                (3, 8, None),
                (4, 7, Some(300)),
            ]
            .into_iter()
            .map(|(t, k, g)| $m::DodRow {
                t,
                k,
                s: $skipped,
                g,
            })
            .collect(),
            cache: u64::from($skipped),
        }
    };
}

macro_rules! nested_table {
    ($m:ident) => {
        $m::NestedTable {
            rows: vec![
                $m::Outer {
                    inner: vec![$m::Leaf { a: 1 }, $m::Leaf { a: 2 }],
                },
                $m::Outer { inner: vec![] },
            ],
        }
    };
}

/// The three golden checks: our bytes, our decoding, and the peer's bytes (hand derivation check).
macro_rules! check_golden {
    ($file:literal, $ours:expr, $decoded:expr, $peer:expr, $T:ty) => {{
        let expected = golden(include_str!(concat!("../golden/columnar/", $file)));
        let bytes = columnar::to_vec(&$ours).expect("columnar encodes");
        assert_eq!(Hex(&bytes), Hex(&expected), "columnar::to_vec vs {}", $file);
        let back: $T = columnar::from_bytes(&expected).expect("columnar decodes the golden bytes");
        assert_eq!(back, $decoded, "columnar::from_bytes of {}", $file);
        let peer = serde_columnar::to_vec(&$peer).expect("serde_columnar encodes");
        assert_eq!(
            Hex(&peer),
            Hex(&expected),
            "serde_columnar disagrees with {}",
            $file
        );
        expected
    }};
}

// ------------------------------------------------------------------ (a) the BoolRle worked example

/// docs/spec/columnar.md §6.3.
#[test]
fn seed_bool_rle_container_is_01_03_00_02_03_after_the_table_count() {
    let bytes = check_golden!(
        "seed_bool_rle.hex",
        bool_table!(ours),
        bool_table!(ours),
        bool_table!(peer),
        ours::BoolTable
    );
    // The container `01 03 00 02 03` (one BoolRle column), after the table's field count 01.
    assert_eq!(bytes, [0x01, 0x01, 0x03, 0x00, 0x02, 0x03]);
}

// ------------------------------------------------------------------ (b) the informal example

/// docs/spec/columnar.md §6.4.
#[test]
fn seed_informal_table_gives_the_hand_derived_bytes() {
    check_golden!(
        "seed_informal.hex",
        informal!(ours),
        informal!(ours),
        informal!(peer),
        ours::Table
    );
}

/// docs/spec/columnar.md §6.7.
#[test]
fn seed_informal_table_without_rows_gives_the_hand_derived_bytes() {
    let empty = ours::Table {
        rows: vec![],
        version: 0,
    };
    let peer = peer::Table {
        rows: vec![],
        version: 0,
    };
    check_golden!(
        "seed_informal_empty.hex",
        empty.clone(),
        empty,
        peer,
        ours::Table
    );
}

/// docs/spec/columnar.md §6.5.
#[test]
fn seed_older_schema_gives_the_hand_derived_bytes() {
    check_golden!(
        "seed_informal_old.hex",
        informal_old!(ours),
        informal_old!(ours),
        informal_old!(peer),
        ours::OldTable
    );
}

/// docs/spec/columnar.md §6.6.
#[test]
fn seed_newer_schema_with_nick_gives_the_hand_derived_bytes() {
    check_golden!(
        "seed_informal_nick.hex",
        informal_nick!(ours, "", "x", Some("n".to_owned())),
        informal_nick!(ours, "", "x", Some("n".to_owned())),
        informal_nick!(peer, "", "x", Some("n".to_owned())),
        ours::NickTable
    );
}

/// docs/spec/columnar.md §6.5 and §4.4: unknown optional indexes are skipped.
#[test]
fn older_schema_reads_the_newer_bytes_ignoring_note() {
    let newer = golden(include_str!("../golden/columnar/seed_informal.hex"));
    let old: ours::OldTable = columnar::from_bytes(&newer).unwrap();
    assert_eq!(old, informal_old!(ours));
}

/// docs/spec/columnar.md §6.5 and §4.4: missing optional columns read as defaults.
#[test]
fn newer_schema_reads_the_older_bytes_with_note_defaulted() {
    let older = golden(include_str!("../golden/columnar/seed_informal_old.hex"));
    let table: ours::Table = columnar::from_bytes(&older).unwrap();
    let mut expected = informal!(ours);
    expected.rows[1].note = String::new();
    assert_eq!(table, expected);
}

/// docs/spec/columnar.md §6.4–§6.6.
#[test]
fn schema_with_nick_reads_the_older_and_the_newer_bytes() {
    let newer = golden(include_str!("../golden/columnar/seed_informal.hex"));
    let older = golden(include_str!("../golden/columnar/seed_informal_old.hex"));
    let from_newer: ours::NickTable = columnar::from_bytes(&newer).unwrap();
    assert_eq!(from_newer, informal_nick!(ours, "", "x", None));
    let from_older: ours::NickTable = columnar::from_bytes(&older).unwrap();
    assert_eq!(from_older, informal_nick!(ours, "", "", None));
}

/// docs/spec/columnar.md §6.6.
#[test]
fn older_and_current_schemas_read_the_bytes_with_nick() {
    let nick = golden(include_str!("../golden/columnar/seed_informal_nick.hex"));
    let current: ours::Table = columnar::from_bytes(&nick).unwrap();
    assert_eq!(current, informal!(ours));
    let old: ours::OldTable = columnar::from_bytes(&nick).unwrap();
    assert_eq!(old, informal_old!(ours));
}

fn informal_rows() -> impl Strategy<Value = Vec<(String, u64, String, Option<String>)>> {
    let text = prop_oneof![
        Just(String::new()),
        Just("a".to_owned()),
        Just("ünï".to_owned()),
        "\\PC{0,6}"
    ];
    prop::collection::vec(
        (
            text.clone(),
            prop_oneof![0..4u64, Just(u64::MAX), any::<u64>()],
            text.clone(),
            proptest::option::of(text),
        ),
        0..12,
    )
}

proptest! {
    /// Each of the three schema versions round-trips, and reads the other two's bytes: fields it
    /// does not know are ignored, fields it knows and the bytes lack are `Default`.
    #[test]
    fn informal_schemas_round_trip_and_read_each_other(
        rows in informal_rows(),
        version in any::<u32>(),
    ) {
        let old = ours::OldTable {
            rows: rows.iter().map(|(name, id, _, _)| ours::OldRow { name: name.clone(), id: *id }).collect(),
            version,
        };
        let cur = ours::Table {
            rows: rows
                .iter()
                .map(|(name, id, note, _)| ours::Row { name: name.clone(), id: *id, note: note.clone() })
                .collect(),
            version,
        };
        let nick = ours::NickTable {
            rows: rows
                .iter()
                .map(|(name, id, note, nick)| ours::NickRow {
                    name: name.clone(),
                    id: *id,
                    note: note.clone(),
                    nick: nick.clone(),
                })
                .collect(),
            version,
        };
        let cur_without_note = ours::Table {
            rows: cur.rows.iter().map(|r| ours::Row { note: String::new(), ..r.clone() }).collect(),
            version,
        };
        let nick_without_nick = ours::NickTable {
            rows: nick.rows.iter().map(|r| ours::NickRow { nick: None, ..r.clone() }).collect(),
            version,
        };
        let nick_without_note_or_nick = ours::NickTable {
            rows: nick_without_nick.rows.iter().map(|r| ours::NickRow { note: String::new(), ..r.clone() }).collect(),
            version,
        };

        let old_bytes = columnar::to_vec(&old).unwrap();
        let cur_bytes = columnar::to_vec(&cur).unwrap();
        let nick_bytes = columnar::to_vec(&nick).unwrap();

        prop_assert_eq!(&columnar::from_bytes::<ours::OldTable>(&old_bytes).unwrap(), &old);
        prop_assert_eq!(&columnar::from_bytes::<ours::OldTable>(&cur_bytes).unwrap(), &old);
        prop_assert_eq!(&columnar::from_bytes::<ours::OldTable>(&nick_bytes).unwrap(), &old);

        prop_assert_eq!(&columnar::from_bytes::<ours::Table>(&old_bytes).unwrap(), &cur_without_note);
        prop_assert_eq!(&columnar::from_bytes::<ours::Table>(&cur_bytes).unwrap(), &cur);
        prop_assert_eq!(&columnar::from_bytes::<ours::Table>(&nick_bytes).unwrap(), &cur);

        prop_assert_eq!(&columnar::from_bytes::<ours::NickTable>(&old_bytes).unwrap(), &nick_without_note_or_nick);
        prop_assert_eq!(&columnar::from_bytes::<ours::NickTable>(&cur_bytes).unwrap(), &nick_without_nick);
        prop_assert_eq!(&columnar::from_bytes::<ours::NickTable>(&nick_bytes).unwrap(), &nick);
    }
}

// ------------------------------------------------------------------ further layouts

/// docs/spec/columnar.md §6.8.
#[test]
fn map_container_with_optional_row_and_table_fields_gives_the_hand_derived_bytes() {
    check_golden!(
        "map_optional.hex",
        map_table!(ours),
        map_table!(ours),
        map_table!(peer),
        ours::MapTable
    );
}

/// docs/spec/columnar.md §6.9.
#[test]
fn delta_of_delta_rle_generic_and_skip_give_the_hand_derived_bytes() {
    check_golden!(
        "dod_rle_skip.hex",
        dod_table!(ours, 9u32),
        dod_table!(ours, 0u32),
        dod_table!(peer, 9u32),
        ours::DodTable
    );
}

/// docs/spec/columnar.md §6.10.
#[test]
fn nested_class_field_in_a_row_gives_the_hand_derived_bytes() {
    check_golden!(
        "nested_class.hex",
        nested_table!(ours),
        nested_table!(ours),
        nested_table!(peer),
        ours::NestedTable
    );
}
