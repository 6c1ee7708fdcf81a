//! Tests of the dense path: the same bytes as the ordinary path in every format and position,
//! round trips through this crate's formats and through serde_json / postcard / bincode, and
//! hostile blocks (truncated, counts past the input) rejected with their offsets.

use serde::{Deserialize, Serialize};

use super::{DenseVec, Element, ElementKind};
#[cfg(feature = "dynd")]
use crate::dynd;
#[cfg(feature = "typed-column")]
use crate::typed_column;
// Only the tests of this crate's own formats name these.
#[cfg(any(feature = "dynd", feature = "typed-column"))]
use {super::DenseSlice, crate::ErrorKind};

/// Runs `check` on an empty, a one-element and a whole vector of `values`.
fn each_sample<T: Element>(values: &[T], check: fn(Vec<T>)) {
    for sample in [Vec::new(), values[..1].to_vec(), values.to_vec()] {
        check(sample);
    }
}

/// Runs `check` on the samples of all ten element types: edge values, NaN payloads and -0.0
/// among the floats.
macro_rules! for_each_element {
    ($check:ident) => {
        each_sample(&[0u8, 1, 0x7f, u8::MAX], $check);
        each_sample(&[0u16, 1, 0x1234, u16::MAX], $check);
        each_sample(&[0u32, 7, 0xdead_beef, u32::MAX], $check);
        each_sample(&[0u64, 9, i64::MAX as u64], $check);
        each_sample(&[0i8, -1, i8::MIN, i8::MAX], $check);
        each_sample(&[0i16, -2, i16::MIN, i16::MAX], $check);
        each_sample(&[0i32, -3, i32::MIN, i32::MAX], $check);
        each_sample(&[0i64, -4, i64::MIN, i64::MAX], $check);
        each_sample(
            &[
                1.5f32,
                -0.0,
                f32::INFINITY,
                f32::from_bits(0x7fc0_0001),
                f32::MIN_POSITIVE,
            ],
            $check,
        );
        each_sample(
            &[
                1.5f64,
                -0.0,
                f64::NEG_INFINITY,
                f64::from_bits(0x7ff8_0000_0000_0001),
                f64::MAX,
            ],
            $check,
        );
    };
}

fn bits<T: Element>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for value in values {
        value
            .serialize(super::BlockWriter {
                sink: &mut out,
                kind: T::KIND,
            })
            .unwrap();
    }
    out
}

impl super::BlockSink for Vec<u8> {
    fn begin(&mut self, _: usize, _: usize) -> crate::Result<()> {
        Ok(())
    }
    fn put(&mut self, bytes: &[u8]) -> crate::Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// A sink that records what it is told: the `begin` calls and the size of each `put`.
#[derive(Default)]
struct Recorder {
    begins: Vec<(usize, usize)>,
    puts: Vec<usize>,
    bytes: Vec<u8>,
}

impl super::BlockSink for Recorder {
    fn begin(&mut self, len: usize, size: usize) -> crate::Result<()> {
        self.begins.push((len, size));
        Ok(())
    }
    fn put(&mut self, bytes: &[u8]) -> crate::Result<()> {
        self.puts.push(bytes.len());
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }
}

#[test]
fn a_dense_slice_reaches_the_block_writer_as_one_block() {
    let values = [1.5f64, -0.0, f64::from_bits(0x7ff8_0000_0000_0001)];
    let mut sink = Recorder::default();
    super::Elements(&values[..])
        .serialize(super::BlockWriter {
            sink: &mut sink,
            kind: f64::KIND,
        })
        .unwrap();
    assert_eq!(sink.begins, [(3, 8)]);
    assert_eq!(sink.bytes, bits(&values));
    // One copy on little-endian machines; element by element elsewhere.
    let expected_puts: &[usize] = if cfg!(target_endian = "little") {
        &[24]
    } else {
        &[8, 8, 8]
    };
    assert_eq!(sink.puts, expected_puts);
}

#[test]
fn only_the_block_writer_is_taken_for_one() {
    assert!(super::is_block_writer::<super::BlockWriter<'_, Recorder>>());
    assert!(!super::is_block_writer::<
        &mut serde_json::Serializer<Vec<u8>>,
    >());
    assert!(!super::is_block_writer::<super::BlockSeq<'_, Recorder>>());
}

#[test]
fn a_block_of_a_size_that_is_no_multiple_of_the_element_is_refused() {
    let mut sink = Recorder::default();
    let writer = super::BlockWriter {
        sink: &mut sink,
        kind: f64::KIND,
    };
    assert!(serde::Serializer::serialize_bytes(writer, &[0; 12]).is_err());
    assert!(sink.puts.is_empty());
}

#[test]
fn names_map_back_to_their_kinds() {
    for (name, kind) in super::NAMES {
        assert_eq!(ElementKind::of_name(name), Some(kind));
        assert_eq!(kind.name(), name);
    }
    assert_eq!(f64::KIND.size(), 8);
    assert_eq!(i16::KIND.size(), 2);
    assert_eq!(ElementKind::of_name("Vec"), None);
    assert_eq!(ElementKind::of_name("\0serde_formats::dense::bool"), None);
}

#[test]
fn elements_are_their_little_endian_bits() {
    assert_eq!(bits(&[0x1234u16, 1]), [0x34, 0x12, 1, 0]);
    assert_eq!(bits(&[-0.0f64]), [0, 0, 0, 0, 0, 0, 0, 0x80]);
    let nan = f32::from_bits(0x7fc0_0001);
    assert_eq!(bits(&[nan]), [1, 0, 0xc0, 0x7f]);
}

#[cfg(feature = "dynd")]
#[test]
fn dynd_bytes_equal_the_ordinary_path_and_round_trip() {
    fn check<T: Element + PartialEq + std::fmt::Debug>(values: Vec<T>) {
        let plain = dynd::to_bytes(&values).unwrap();
        assert_eq!(dynd::to_bytes(&DenseSlice(&values[..])).unwrap(), plain);
        assert_eq!(dynd::to_bytes(&DenseVec(values.clone())).unwrap(), plain);
        let mut expected = vec![values.len() as u8];
        expected.extend(bits(&values));
        assert_eq!(plain, expected);
        let back: DenseVec<T> = dynd::from_bytes(&plain).unwrap();
        // Compare bits: NaN payloads must survive.
        assert_eq!(bits(&back), bits(&values));
    }
    for_each_element!(check);
}

#[cfg(feature = "typed-column")]
#[test]
fn typed_column_bytes_equal_the_ordinary_path_and_round_trip() {
    fn check<T: Element + PartialEq + std::fmt::Debug>(values: Vec<T>) {
        let plain = typed_column::to_bytes(&values).unwrap();
        assert_eq!(
            typed_column::to_bytes(&DenseSlice(&values[..])).unwrap(),
            plain
        );
        let back: DenseVec<T> = typed_column::from_bytes(&plain).unwrap();
        assert_eq!(bits(&back), bits(&values));
    }
    for_each_element!(check);
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Trace {
    id: u32,
    #[serde(with = "crate::dense")]
    values: Vec<f64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct PlainTrace {
    id: u32,
    values: Vec<f64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Tagged {
    #[serde(with = "crate::dense")]
    values: Vec<f64>,
    label: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct PlainTagged {
    values: Vec<f64>,
    label: String,
}

fn traces() -> (Vec<Trace>, Vec<PlainTrace>) {
    let dense: Vec<Trace> = (0..4)
        .map(|id| Trace {
            id,
            values: (0..3).map(|i| f64::from(id * 10 + i) / 4.0).collect(),
        })
        .collect();
    let plain = dense
        .iter()
        .map(|t| PlainTrace {
            id: t.id,
            values: t.values.clone(),
        })
        .collect();
    (dense, plain)
}

#[cfg(feature = "typed-column")]
#[test]
fn typed_column_layouts_are_those_of_the_ordinary_path_in_every_position() {
    use typed_column::{from_bytes, to_bytes, Serializer};

    let (dense, plain) = traces();
    // Trailing field (the column ends the type array: written dense) and nested in uniform
    // and non-uniform parents.
    assert_eq!(to_bytes(&dense[0]).unwrap(), to_bytes(&plain[0]).unwrap());
    assert_eq!(to_bytes(&dense).unwrap(), to_bytes(&plain).unwrap());
    let bytes = to_bytes(&dense).unwrap();
    assert_eq!(from_bytes::<Vec<Trace>>(&bytes).unwrap(), dense);
    // Ragged rows break uniformity after dense columns were laid.
    let mut ragged = dense.clone();
    ragged[2].values.push(1.0);
    ragged[3].values.clear();
    let ragged_plain: Vec<PlainTrace> = ragged
        .iter()
        .map(|t| PlainTrace {
            id: t.id,
            values: t.values.clone(),
        })
        .collect();
    let bytes = to_bytes(&ragged).unwrap();
    assert_eq!(bytes, to_bytes(&ragged_plain).unwrap());
    assert_eq!(from_bytes::<Vec<Trace>>(&bytes).unwrap(), ragged);
    // A field that is not last: its column is followed by others, so it is never dense.
    let tagged = Tagged {
        values: vec![1.0, 2.0],
        label: "x".into(),
    };
    let plain_tagged = PlainTagged {
        values: tagged.values.clone(),
        label: tagged.label.clone(),
    };
    let bytes = to_bytes(&tagged).unwrap();
    assert_eq!(bytes, to_bytes(&plain_tagged).unwrap());
    assert_eq!(from_bytes::<Tagged>(&bytes).unwrap(), tagged);
    // Compression off: one description per Float; the dense reader falls back.
    let mut ser = Serializer::new().with_compression(false);
    dense[1].serialize(&mut ser).unwrap();
    let uncompressed = ser.into_bytes().unwrap();
    let mut ser = Serializer::new().with_compression(false);
    plain[1].serialize(&mut ser).unwrap();
    assert_eq!(uncompressed, ser.into_bytes().unwrap());
    assert_eq!(from_bytes::<Trace>(&uncompressed).unwrap(), dense[1]);
}

#[cfg(feature = "typed-column")]
#[test]
fn typed_column_dense_field_after_a_ragged_sibling_is_laid_out_like_the_ordinary_path() {
    // The ragged `rows` column breaks uniformity, so the struct's next column, `values`,
    // reserves its slots as it opens; the dense path must fill them as the ordinary path does.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Dense {
        rows: Vec<Vec<u8>>,
        #[serde(with = "crate::dense")]
        values: Vec<f64>,
        label: String,
    }
    #[derive(Serialize)]
    struct Plain<'a> {
        rows: &'a [Vec<u8>],
        values: &'a [f64],
        label: &'a str,
    }
    let long: Vec<f64> = (0..100).map(|i| f64::from(i) / 4.0).collect();
    for values in [vec![], vec![0.5], vec![0.5, -1.5, 2.0], long] {
        let dense = Dense {
            rows: vec![vec![1], vec![2, 3]],
            values,
            label: "x".into(),
        };
        let plain = Plain {
            rows: &dense.rows,
            values: &dense.values,
            label: &dense.label,
        };
        let bytes = typed_column::to_bytes(&dense).unwrap();
        assert_eq!(bytes, typed_column::to_bytes(&plain).unwrap());
        assert_eq!(typed_column::from_bytes::<Dense>(&bytes).unwrap(), dense);
    }
}

#[cfg(feature = "typed-column")]
#[test]
fn typed_column_dense_column_is_the_seed_layout() {
    let columns = typed_column::to_columns(&DenseSlice(&[1.0f64, -2.0][..])).unwrap();
    // [4][0][2] [2'][2][8]
    assert_eq!(columns.types, [4, 0, 2, 2 | (1 << 63), 2, 8]);
    assert_eq!(columns.data, bits(&[1.0f64, -2.0]));
}

/// Asserts that `$write` writes `$dense` as it writes `$plain`, and that `$read` reads it back
/// as `$dense`. A macro, not a fn: `$write` is applied to two types.
macro_rules! assert_written_as_plain {
    ($dense:expr, $plain:expr, $write:expr, $read:expr) => {{
        let written = ($write)(&$dense);
        assert_eq!(written, ($write)(&$plain));
        assert_eq!(($read)(&written), $dense);
        written
    }};
}

#[cfg(feature = "dynd")]
#[test]
fn dynd_structs_with_dense_fields_match_plain_structs() {
    let (dense, plain) = traces();
    let bytes =
        assert_written_as_plain!(dense, plain, |v| dynd::to_bytes(v).unwrap(), |b: &Vec<
            u8,
        >| {
            dynd::from_bytes::<Vec<Trace>>(b).unwrap()
        });
    let mut digest_input = Vec::new();
    dynd::to_writer(&mut digest_input, &dense).unwrap();
    assert_eq!(digest_input, bytes);
    assert_eq!(dynd::digest(&dense).unwrap(), dynd::digest(&plain).unwrap());
}

#[test]
fn other_formats_see_an_ordinary_sequence() {
    let (dense, plain) = traces();
    assert_written_as_plain!(
        dense,
        plain,
        |v| serde_json::to_string(v).unwrap(),
        |s: &String| serde_json::from_str::<Vec<Trace>>(s).unwrap()
    );
    assert_written_as_plain!(
        dense,
        plain,
        |v| postcard::to_allocvec(v).unwrap(),
        |b: &Vec<u8>| postcard::from_bytes::<Vec<Trace>>(b).unwrap()
    );
    let config = bincode::config::standard();
    assert_written_as_plain!(
        dense,
        plain,
        |v| bincode::serde::encode_to_vec(v, config).unwrap(),
        |b: &Vec<u8>| bincode::serde::decode_from_slice::<Vec<Trace>, _>(b, config)
            .unwrap()
            .0
    );

    let ints = DenseVec(vec![-1i16, 300]);
    let json = serde_json::to_string(&ints).unwrap();
    assert_eq!(json, "[-1,300]");
    assert_eq!(serde_json::from_str::<DenseVec<i16>>(&json).unwrap(), ints);
    let bytes = postcard::to_allocvec(&ints).unwrap();
    assert_eq!(bytes, postcard::to_allocvec(&ints.0).unwrap());
    assert_eq!(postcard::from_bytes::<DenseVec<i16>>(&bytes).unwrap(), ints);
}

#[cfg(feature = "dynd")]
#[test]
fn dynd_hostile_blocks_are_errors_at_the_count() {
    // (input, expected kind, expected offset) for a DenseVec<f64> after a u8 field.
    let mut truncated = vec![0x07, 0x02];
    truncated.extend(bits(&[1.0f64]));
    truncated.extend([0, 0, 0]);
    let huge = [
        0x07, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    ];
    let past = [0x07, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0, 0, 0, 0, 0, 0];
    let cases: [(&[u8], ErrorKind, u64); 5] = [
        (&truncated, ErrorKind::LengthPastEnd, 1),
        (&huge, ErrorKind::LengthPastEnd, 1),
        (&past, ErrorKind::LengthPastEnd, 1),
        (&[0x07], ErrorKind::UnexpectedEnd, 1),
        (&[0x07, 0x81], ErrorKind::UnexpectedEnd, 1),
    ];
    for (input, kind, offset) in cases {
        let err = dynd::from_bytes::<(u8, DenseVec<f64>)>(input).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (kind, Some(offset)),
            "{input:x?}"
        );
    }
    // An overlong count is refused as the ordinary path refuses it.
    let err = dynd::from_bytes::<DenseVec<u8>>(&[0x80, 0x00]).unwrap_err();
    let plain = dynd::from_bytes::<Vec<u8>>(&[0x80, 0x00]).unwrap_err();
    assert_eq!(err.kind(), plain.kind());
    // Every truncated prefix of a valid encoding is an error.
    let bytes = dynd::to_bytes(&DenseVec(vec![1u32, 2, 3])).unwrap();
    for end in 0..bytes.len() {
        assert!(dynd::from_bytes::<DenseVec<u32>>(&bytes[..end]).is_err());
    }
    // Trailing bytes after the block stay an error.
    let mut long = bytes.clone();
    long.push(0);
    let err = dynd::from_bytes::<DenseVec<u32>>(&long).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::TrailingBytes, Some(13))
    );
}

#[cfg(feature = "typed-column")]
#[test]
fn typed_column_hostile_dense_columns_are_errors() {
    let bytes = typed_column::to_bytes(&DenseSlice(&[1.0f64, 2.0, 3.0][..])).unwrap();
    // Every truncated prefix of the frame is an error, never a panic.
    for end in 0..bytes.len() {
        assert!(typed_column::from_bytes::<DenseVec<f64>>(&bytes[..end]).is_err());
    }
    // A chain claiming more Floats than the data holds: out of bounds, at the chain.
    let types: [u64; 6] = [4, 0, 4, 2 | (1 << 63), 4, 8];
    let err = typed_column::from_columns::<DenseVec<f64>>(&types, &bits(&[1.0f64, 2.0, 3.0]))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfBounds);
    assert_ne!(err.position(), crate::Position::Unknown);
    // A dense column of Booleans read as f64: the ordinary path's error.
    let types: [u64; 6] = [4, 0, 1, 1 << 63, 1, 1];
    let err = typed_column::from_columns::<DenseVec<f64>>(&types, &[1]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
}

#[test]
fn a_block_of_the_wrong_length_is_refused() {
    use serde::de::{value::Error as ValueError, Visitor};
    let visitor = super::DenseVisitor::<u32>(std::marker::PhantomData);
    let err: ValueError = visitor.visit_bytes(&[1, 2, 3]).unwrap_err();
    assert!(err.to_string().contains("invalid length 3"), "{err}");
}

#[cfg(feature = "dynd")]
#[test]
fn miscounted_dense_sequences_are_refused_when_writing() {
    /// Announces two elements, gives one, under the dense name.
    struct Liar;
    impl Serialize for Liar {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            struct Inner;
            impl Serialize for Inner {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    use serde::ser::SerializeSeq;
                    let mut seq = s.serialize_seq(Some(2))?;
                    seq.serialize_element(&1.0f64)?;
                    seq.end()
                }
            }
            s.serialize_newtype_struct(ElementKind::F64.name(), &Inner)
        }
    }
    assert_eq!(
        dynd::to_bytes(&Liar).unwrap_err().kind(),
        ErrorKind::Unsupported
    );
    /// Elements of another type than the name says.
    struct Mislabelled;
    impl Serialize for Mislabelled {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(ElementKind::F64.name(), &[1u8, 2][..])
        }
    }
    assert_eq!(
        dynd::to_bytes(&Mislabelled).unwrap_err().kind(),
        ErrorKind::Unsupported
    );
    #[cfg(feature = "typed-column")]
    assert_eq!(
        typed_column::to_bytes(&Mislabelled).unwrap_err().kind(),
        ErrorKind::Unsupported
    );
}
