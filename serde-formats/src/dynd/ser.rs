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

    /// [`Self::put`] of a string's or byte string's contents (see [`Output::put_short`]).
    #[inline(always)]
    fn put_short(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.put_short(bytes)?;
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
    /// either). Its type is remembered for `serialize_none` unless it is a scalar (never a
    /// missing value) or a tuple or array (whose members remember their own).
    #[inline(always)]
    pub(super) fn field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if is_scalar::<T>() || is_tuple_or_array::<T>() {
            value.serialize(self)
        } else {
            self.serialize_value(value)
        }
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
        self.field(value)?;
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
        self.put_long_varint(value)
    }

    /// [`Self::put_varint`] of 2 bytes or more, out of line: the unrolled encoder kept the
    /// callers that write a length (strings, sequences) from being inlined.
    #[inline(never)]
    fn put_long_varint(&mut self, value: u64) -> Result<()> {
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
        self.put_short(v)
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

/// Whether `T` is a tuple or an array (or slice), whose serde impls never call
/// `serialize_none` themselves: written as a field or element, it needs no type remembered
/// for options (its members remember their own), nor does a scalar ([`is_scalar`]). A
/// constant for each `T`.
#[inline(always)]
fn is_tuple_or_array<T: ?Sized>() -> bool {
    matches!(
        crate::hint::element_type_name::<T>().as_bytes().first(),
        Some(b'(' | b'[')
    )
}
