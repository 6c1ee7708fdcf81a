//! The DyND serializer's own tests: sequences of unknown length, maps, options, limits and
//! sinks, byte for byte.

use serde::ser::{self, Serialize};

use std::collections::BTreeMap;

use super::option::Sentinel;
use super::ser::*;
use crate::dynd::{to_bytes, to_writer};
use crate::ErrorKind;

/// A sequence whose length serde does not know up front.
struct Unsized(Vec<u16>);

impl Serialize for Unsized {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter(|_| true))
    }
}

/// A field that writes a missing value through `serialize_with`: not a std `Option`.
fn missing<S: ser::Serializer>(_: &u8, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_none()
}

#[derive(serde::Serialize)]
struct ScalarsBetweenOptions {
    tagged: Option<String>,
    count: u64,
    small: Option<u8>,
    name: &'static str,
    ratio: Option<f64>,
    flag: bool,
}

#[derive(serde::Serialize)]
struct MissingAfterScalar {
    present: Option<u64>,
    count: u64,
    #[serde(serialize_with = "missing")]
    custom: u8,
}

#[test]
fn options_after_scalar_fields_keep_their_own_kind() {
    // Scalars do not record their type, so each option must still be classified by its
    // own: tag 00 for the string, u8::MAX for the u8, the NA float64 bits for the f64.
    let value = ScalarsBetweenOptions {
        tagged: None,
        count: 7,
        small: None,
        name: "",
        ratio: None,
        flag: true,
    };
    let mut expected = vec![0x00];
    expected.extend_from_slice(&7u64.to_le_bytes());
    expected.push(0xff);
    expected.push(0x00);
    expected.extend_from_slice(&super::NA_FLOAT64_BITS.to_le_bytes());
    expected.push(0x01);
    assert_eq!(to_bytes(&value).unwrap(), expected);
}

#[test]
fn a_missing_value_after_a_scalar_field_is_still_refused() {
    // `count` comes between the std option and the custom field: the type the custom
    // field's `serialize_none` sees must be its own, not `Option<u64>`'s.
    let value = MissingAfterScalar {
        present: Some(1),
        count: 2,
        custom: 3,
    };
    let err = to_bytes(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("not a std Option"), "{err}");
}

#[test]
fn unsized_sequences_get_their_count_first() {
    let bytes = to_bytes(&Unsized(vec![1, 0x0203])).unwrap();
    assert_eq!(bytes, [0x02, 0x01, 0x00, 0x03, 0x02]);
    assert_eq!(to_bytes(&Unsized(vec![])).unwrap(), [0x00]);
}

#[test]
fn a_sequence_that_lies_about_its_length_is_an_error() {
    struct Liar;
    impl Serialize for Liar {
        fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(Some(3))?;
            seq.serialize_element(&1u8)?;
            seq.end()
        }
    }
    assert_eq!(to_bytes(&Liar).unwrap_err().kind(), ErrorKind::Message);

    // More elements than announced: the ones past the first are counted too.
    struct Boaster;
    impl Serialize for Boaster {
        fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(Some(2))?;
            for value in [1u8, 2, 3] {
                seq.serialize_element(&value)?;
            }
            seq.end()
        }
    }
    let err = to_bytes(&Boaster).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Message);
    assert!(
        err.to_string().contains("announced 2 elements but gave 3"),
        "{err}"
    );
}

#[test]
fn nested_maps_are_sorted_at_every_level() {
    let mut inner = BTreeMap::new();
    inner.insert(2u8, ());
    inner.insert(1u8, ());
    let mut outer = BTreeMap::new();
    outer.insert("z".to_owned(), inner.clone());
    outer.insert("a".to_owned(), BTreeMap::new());
    // "a" (01 61) -> {} ; "z" (01 7a) -> {1, 2}
    assert_eq!(
        to_bytes(&outer).unwrap(),
        [0x02, 0x01, b'a', 0x00, 0x01, b'z', 0x02, 0x01, 0x02]
    );
}

#[test]
fn depth_limit_applies_when_writing() {
    let nested = vec![vec![vec![1u8]]];
    let mut ser = Serializer::new(Vec::new()).with_depth_limit(2);
    let err = ser.serialize_value(&nested).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
    let mut ser = Serializer::new(Vec::new()).with_depth_limit(3);
    ser.serialize_value(&nested).unwrap();
    assert_eq!(ser.into_inner(), [0x01, 0x01, 0x01, 0x01]);
}

#[test]
fn writer_errors_are_io_errors() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let err = to_writer(Full, &1u32).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(err.message().unwrap().contains("disk full"));
}

#[test]
fn sentinel_bytes_match_the_dynd_constants() {
    assert_eq!(
        sentinel_bytes(Sentinel::F32).as_slice(),
        [0xa2, 0x07, 0x80, 0x7f]
    );
    assert_eq!(
        sentinel_bytes(Sentinel::F64).as_slice(),
        [0xa2, 0x07, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f]
    );
    assert_eq!(sentinel_bytes(Sentinel::I16).as_slice(), [0x00, 0x80]);
    assert_eq!(sentinel_bytes(Sentinel::U32).as_slice(), [0xff; 4]);
    assert_eq!(sentinel_bytes(Sentinel::Bool).as_slice(), [0x02]);
    // The float sentinels are NaNs: that is why every NaN is refused in Some.
    assert!(is_nan(
        Sentinel::F32,
        sentinel_bytes(Sentinel::F32).as_slice()
    ));
    assert!(is_nan(
        Sentinel::F64,
        sentinel_bytes(Sentinel::F64).as_slice()
    ));
}
