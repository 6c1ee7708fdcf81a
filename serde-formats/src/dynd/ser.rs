//! serde glue for writing: a [`Serializer`] over any [`Output`].

use std::any::type_name;

use serde::ser::{self, Serialize};

use super::array::DIMENSION;
use super::option::{is_scalar, no_type_name, OptionKind, Sentinel, TypeName};
use super::ser_compound::{Compound, MapCompound, SeqCompound};
use super::{zero_sized_exceeded, DEFAULT_DEPTH_LIMIT, DEFAULT_ZERO_SIZED_LIMIT};
use crate::dense::{BlockSink, BlockWriter, ElementKind};
use crate::limits::{Depth, Nesting};
use crate::output::Output;
use crate::varint;
use crate::{Error, ErrorKind, Result};

/// A serde serializer producing canonical DyND bytes into an [`Output`].
///
/// Use [`to_bytes`](super::to_bytes) or [`to_writer`](super::to_writer) unless you need a
/// non-default depth limit:
///
/// ```
/// use serde::Serialize;
/// use serde_formats::dynd::Serializer;
///
/// let mut ser = Serializer::new(Vec::new()).with_depth_limit(2);
/// vec![vec![1u8]].serialize(&mut ser).unwrap();
/// assert_eq!(ser.into_inner(), [0x01, 0x01, 0x01]);
/// let mut ser = Serializer::new(Vec::new()).with_depth_limit(1);
/// assert!(vec![vec![1u8]].serialize(&mut ser).is_err());
/// ```
pub struct Serializer<O> {
    pub(super) out: O,
    pub(super) depth: Depth,
    /// `type_name` of the value being serialized, for `serialize_none` (see `option.rs`). A
    /// function pointer rather than the `&str` itself: one word to store per element.
    pub(super) hint: TypeName,
    /// Bytes written so far, less the sink's [`position`](Output::position) when it has one
    /// (a `Vec`): then [`Self::written`] adds the two and `put` leaves this alone. For a scratch
    /// serializer it includes the bytes its parent had written when it was made.
    pub(super) written: usize,
    /// Elements written so far that took no bytes, counted as the deserializer counts them.
    pub(super) zero_sized: usize,
    /// The zero-sized element allowance (see the module docs, "Limits").
    pub(super) zero_sized_limit: usize,
}

impl<O: Output> Serializer<O> {
    /// A serializer appending to `out`, with the default depth limit of 128.
    pub fn new(out: O) -> Self {
        // Bytes already in the sink are not this serializer's.
        let written = 0usize.wrapping_sub(out.position().unwrap_or(0));
        Serializer {
            out,
            depth: Depth::new(DEFAULT_DEPTH_LIMIT),
            hint: no_type_name,
            written,
            zero_sized: 0,
            zero_sized_limit: DEFAULT_ZERO_SIZED_LIMIT,
        }
    }

    /// Sets how deeply sequences, maps, structs, tuples, enums and options may nest.
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.depth = Depth::new(limit);
        self
    }

    /// Sets how many elements that take no bytes (of `Vec<()>`, `()` fields, ...) the output
    /// may hold beyond one per byte written: the budget is the larger of `limit` and the
    /// output length, the same as [`Deserializer::with_zero_sized_limit`](super::Deserializer::with_zero_sized_limit)
    /// allows, so the serializer refuses exactly what a deserializer with the same limit could
    /// not read.
    #[must_use]
    pub fn with_zero_sized_limit(mut self, limit: usize) -> Self {
        self.zero_sized_limit = limit;
        self
    }

    /// Gives back the output.
    pub fn into_inner(self) -> O {
        self.out
    }

    /// Serializes `value`, remembering its static type for options (prefer this over
    /// `value.serialize(&mut ser)` when `value` may be an `Option` itself).
    ///
    /// # Errors
    /// As [`to_bytes`](super::to_bytes).
    #[inline(always)]
    pub fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.hint = type_name::<T>;
        value.serialize(self)
    }

    #[inline(always)]
    pub(super) fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.put(bytes)?;
        if self.out.position().is_none() {
            self.written += bytes.len();
        }
        Ok(())
    }

    /// A figure that grows exactly when bytes are written: the sink's position, or the count.
    #[inline]
    fn mark(&self) -> usize {
        self.out.position().unwrap_or(self.written)
    }

    /// Bytes this serializer (and, for a scratch one, its parent) has written.
    #[inline]
    pub(super) fn written(&self) -> usize {
        self.written.wrapping_add(self.out.position().unwrap_or(0))
    }

    /// Serializes one field of a struct or variant, or element of a tuple: as many as the type
    /// has, so not counted against the zero-sized budget (the deserializer does not count them
    /// either).
    #[inline(always)]
    pub(super) fn field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        // A scalar always takes bytes and never writes a missing value: no type to remember
        // (`serialize_none` is reached only through a value that is not a scalar, which records
        // its own).
        if is_scalar::<T>() {
            return value.serialize(self);
        }
        // Tuples and arrays never call `serialize_none` themselves (their members record their
        // own type): no type to remember.
        if matches!(
            crate::hint::element_type_name::<T>().as_bytes().first(),
            Some(b'(' | b'[')
        ) {
            return value.serialize(self);
        }
        self.serialize_value(value)
    }

    /// Serializes one element of a sequence, counting it against the zero-sized budget when
    /// it took no bytes. The budget is checked against the bytes written so far, never more
    /// than the final length the deserializer sees, so whatever passes here passes there.
    #[inline(always)]
    pub(super) fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        // A scalar: as in `field`, and it is never zero-sized, so nothing to count. For a
        // `Vec` sink the mark is its length, which stays in a register: other values of fixed
        // size make the check below fold away.
        if is_scalar::<T>() {
            return value.serialize(self);
        }
        let before = self.mark();
        self.serialize_value(value)?;
        if self.mark() == before {
            self.zero_sized += 1;
            if self.zero_sized > self.zero_sized_limit.max(self.written()) {
                return Err(zero_sized_exceeded(self.zero_sized_limit));
            }
        }
        Ok(())
    }

    #[inline(always)]
    pub(super) fn put_varint(&mut self, value: u64) -> Result<()> {
        if value < 0x80 {
            // Most lengths and counts fit one byte.
            return self.put(&[value as u8]);
        }
        let mut buf = [0; varint::MAX_U64_LEN];
        let len = varint::encode_u64(value, &mut buf);
        self.put(&buf[..len])
    }

    #[inline(always)]
    pub(super) fn put_len(&mut self, len: usize) -> Result<()> {
        self.put_varint(len as u64)
    }

    #[inline]
    pub(super) fn enter(&mut self) -> Result<()> {
        self.depth.enter(Nesting::Value)
    }

    #[inline]
    pub(super) fn leave(&mut self) {
        self.depth.leave();
    }

    /// A serializer into a scratch buffer sharing this one's depth and zero-sized budgets;
    /// [`Self::absorb`] takes it back.
    pub(super) fn scratch(&self) -> Serializer<Vec<u8>> {
        Serializer {
            out: Vec::new(),
            depth: self.depth,
            hint: no_type_name,
            written: self.written(),
            zero_sized: self.zero_sized,
            zero_sized_limit: self.zero_sized_limit,
        }
    }

    /// Writes the bytes a [`Self::scratch`] serializer encoded and takes over its count of
    /// zero-sized elements.
    pub(super) fn absorb(&mut self, scratch: &Serializer<Vec<u8>>) -> Result<()> {
        self.zero_sized = scratch.zero_sized;
        self.put(&scratch.out)
    }
}

impl<O: Output> BlockSink for Serializer<O> {
    #[inline]
    fn begin(&mut self, len: usize, size: usize) -> Result<()> {
        self.put_len(len)?;
        self.out.reserve(len.saturating_mul(size));
        Ok(())
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        Serializer::put(self, bytes)
    }
}

/// Writes the payload of a sentinel-typed `Some` after checking it is not the sentinel.
fn put_sentinel_payload<O: Output, T: ?Sized + Serialize>(
    ser: &mut Serializer<O>,
    sentinel: Sentinel,
    value: &T,
) -> Result<()> {
    // The payload is a primitive: at most 16 bytes. Encode it aside to look at its bits.
    let mut probe = Serializer {
        out: FixedBuf::default(),
        depth: ser.depth,
        hint: type_name::<T>,
        written: 0,
        zero_sized: 0,
        zero_sized_limit: usize::MAX,
    };
    value.serialize(&mut probe)?;
    let bytes = probe.out.as_slice();
    if bytes == sentinel_bytes(sentinel).as_slice() || is_nan(sentinel, bytes) {
        return Err(Error::with_message(
            ErrorKind::BadSentinel,
            match sentinel {
                Sentinel::F32 | Sentinel::F64 => format!(
                    "Some(NaN) cannot be written as ?{}: NaN is its missing-value sentinel",
                    sentinel.datashape()
                ),
                _ => format!(
                    "Some({}) cannot be written as ?{}: it is the missing-value sentinel",
                    sentinel_display(sentinel),
                    sentinel.datashape()
                ),
            },
        ));
    }
    ser.put(bytes)
}

/// Writes `sentinel_bytes` and `sentinel_display` from one list of the integer sentinels,
/// `Variant: value`: a signed type's minimum, an unsigned type's maximum.
macro_rules! sentinel_fns {
    ($($variant:ident: $value:expr),*) => {
        /// The bytes of the missing value of a sentinel-typed option.
        pub(crate) fn sentinel_bytes(sentinel: Sentinel) -> FixedBuf {
            let mut buf = FixedBuf::default();
            let bytes: &[u8] = match sentinel {
                Sentinel::Bool => &[2],
                $(Sentinel::$variant => &$value.to_le_bytes(),)*
                Sentinel::F32 => &super::NA_FLOAT32_BITS.to_le_bytes(),
                Sentinel::F64 => &super::NA_FLOAT64_BITS.to_le_bytes(),
            };
            buf.bytes[..bytes.len()].copy_from_slice(bytes);
            buf.len = bytes.len();
            buf
        }

        fn sentinel_display(sentinel: Sentinel) -> String {
            match sentinel {
                Sentinel::Bool => "2".into(),
                $(Sentinel::$variant => $value.to_string(),)*
                Sentinel::F32 | Sentinel::F64 => "NaN".into(),
            }
        }
    };
}

sentinel_fns!(
    I8: i8::MIN, I16: i16::MIN, I32: i32::MIN, I64: i64::MIN, I128: i128::MIN,
    U8: u8::MAX, U16: u16::MAX, U32: u32::MAX, U64: u64::MAX, U128: u128::MAX
);

pub(crate) fn is_nan(sentinel: Sentinel, bytes: &[u8]) -> bool {
    match (sentinel, bytes) {
        (Sentinel::F32, &[a, b, c, d]) => f32::from_le_bytes([a, b, c, d]).is_nan(),
        (Sentinel::F64, bytes) => match bytes.first_chunk::<8>() {
            Some(&chunk) if bytes.len() == 8 => f64::from_le_bytes(chunk).is_nan(),
            _ => false,
        },
        _ => false,
    }
}

/// A 16-byte stack buffer: room for any primitive.
#[derive(Default)]
pub(crate) struct FixedBuf {
    bytes: [u8; 16],
    len: usize,
}

impl FixedBuf {
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Output for FixedBuf {
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        let end = self.len + bytes.len();
        match self.bytes.get_mut(self.len..end) {
            Some(slot) => {
                slot.copy_from_slice(bytes);
                self.len = end;
                Ok(())
            }
            None => Err(Error::with_message(
                ErrorKind::Unsupported,
                "an option payload typed as a primitive wrote more than 16 bytes",
            )),
        }
    }
}

/// Serializer methods writing an integer's little-endian bytes.
macro_rules! put_le_bytes {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        #[inline]
        fn $method(self, v: $ty) -> Result<()> {
            self.put(&v.to_le_bytes())
        }
    )*};
}

impl<O: Output> Serializer<O> {
    /// A dense sequence ([`crate::dense`]): `var * T` as the ordinary path writes it, the count
    /// and then each element's bytes, without the per-element bookkeeping of a sequence.
    fn dense<T: ?Sized + Serialize>(&mut self, kind: ElementKind, value: &T) -> Result<()> {
        self.enter()?;
        let result = value.serialize(BlockWriter { sink: self, kind });
        self.leave();
        result
    }

    /// Opens the fields of a tuple struct or struct: one level.
    #[inline]
    fn fields(&mut self) -> Result<Compound<'_, O>> {
        self.enter()?;
        Ok(Compound {
            ser: self,
            levels: 1,
            counted: false,
        })
    }

    /// Writes a variant's index and opens its fields: the enum, then its fields, two levels,
    /// as the deserializer counts them.
    fn variant_fields(&mut self, variant_index: u32) -> Result<Compound<'_, O>> {
        self.enter()?;
        if let Err(err) = self.enter() {
            self.leave();
            return Err(err);
        }
        self.put_varint(u64::from(variant_index))?;
        Ok(Compound {
            ser: self,
            levels: 2,
            counted: false,
        })
    }
}

impl<'a, O: Output> ser::Serializer for &'a mut Serializer<O> {
    compound_types! {
        SeqCompound<'a, O> => SerializeSeq;
        MapCompound<'a, O> => SerializeMap;
        Compound<'a, O> => SerializeTuple SerializeTupleStruct SerializeTupleVariant
            SerializeStruct SerializeStructVariant;
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.put(&[u8::from(v)])
    }
    put_le_bytes!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
    );
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.put(&[v])
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        // to_bits keeps NaN payloads and the sign of zero: the bytes are the value's bits.
        self.put(&v.to_bits().to_le_bytes())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.put(&v.to_bits().to_le_bytes())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0; 4];
        self.put(v.encode_utf8(&mut buf).as_bytes())
    }
    #[inline(always)]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.serialize_bytes(v.as_bytes())
    }
    #[inline(always)]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.put_len(v.len())?;
        self.put(v)
    }

    #[inline]
    fn serialize_none(self) -> Result<()> {
        match OptionKind::of_option((self.hint)()) {
            Some(OptionKind::Sentinel(sentinel)) => self.put(sentinel_bytes(sentinel).as_slice()),
            Some(OptionKind::Tagged) => self.put(&[0]),
            None => Err(Error::with_message(
                ErrorKind::Unsupported,
                format!(
                    "a missing value written by `{}`, which is not a std Option: its sentinel \
                     cannot be chosen (serialize the Option as a field, element or newtype)",
                    (self.hint)()
                ),
            )),
        }
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        self.enter()?;
        let result = match OptionKind::of_payload(type_name::<T>()) {
            OptionKind::Sentinel(sentinel) => put_sentinel_payload(self, sentinel, value),
            OptionKind::Tagged => match self.put(&[1]) {
                Ok(()) => self.serialize_value(value),
                Err(err) => Err(err),
            },
        };
        self.leave();
        result
    }

    #[inline]
    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }
    // The methods with serde's longer signatures. An enum is its variant index, then the
    // payload; the deserializer enters every enum before it knows the variant, so even a unit
    // variant counts against the depth.
    serializer_methods! {
        #[inline]
        fn serialize_unit_struct(self, _name) => self.serialize_unit();
        fn serialize_unit_variant(self, _name, variant_index, _variant) => {
            self.enter()?;
            self.leave();
            self.put_varint(u64::from(variant_index))
        };
        #[inline]
        fn serialize_newtype_struct(self, name, value) => match ElementKind::of_name(name) {
            Some(kind) => self.dense(kind, value),
            None => self.serialize_value(value),
        };
        fn serialize_newtype_variant(self, _name, variant_index, _variant, value) => {
            self.enter()?;
            self.put_varint(u64::from(variant_index))?;
            self.serialize_value(value)?;
            self.leave();
            Ok(())
        };
        fn serialize_tuple_variant(self, _name, variant_index, _variant, _len) =>
            self.variant_fields(variant_index);
        fn serialize_struct_variant(self, _name, variant_index, _variant, _len) =>
            self.variant_fields(variant_index);
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqCompound<'a, O>> {
        self.enter()?;
        match len {
            Some(len) => {
                // The output is reserved for the elements after the first (see SeqCompound).
                self.put_len(len)?;
                Ok(SeqCompound {
                    scratch: None,
                    ser: self,
                    announced: Some(len),
                    count: 0,
                    steady: false,
                })
            }
            // The count comes first, so an unsized sequence is encoded aside.
            None => Ok(SeqCompound {
                scratch: Some(self.scratch()),
                ser: self,
                announced: None,
                count: 0,
                steady: false,
            }),
        }
    }
    /// serde's `collect_seq`, with a fast path for primitives (see `SeqCompound::collect`).
    #[inline]
    fn collect_seq<I>(self, iter: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        SeqCompound::collect(self, iter.into_iter())
    }
    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a, O>> {
        // Plain tuples and arrays do not count against the depth (see the deserializer); the
        // matching `end` gives nothing back.
        Ok(Compound {
            ser: self,
            levels: 0,
            counted: false,
        })
    }
    #[inline]
    fn serialize_tuple_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a, O>> {
        let mut compound = self.fields()?;
        // A dimension of an `Array` value: its length comes from the type, which the reader
        // takes from the input, so its elements count as a sequence's do.
        compound.counted = name == DIMENSION;
        Ok(compound)
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<MapCompound<'a, O>> {
        self.enter()?;
        Ok(MapCompound {
            scratch: self.scratch(),
            ser: self,
            entries: Vec::new(),
            key_end: 0,
        })
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a, O>> {
        self.fields()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynd::{to_bytes, to_writer};
    use std::collections::BTreeMap;

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
        expected.extend_from_slice(&super::super::NA_FLOAT64_BITS.to_le_bytes());
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
}
