//! The serializer: any `Serialize` value into a type array and a data array, in one pass.
//!
//! [`ValueSerializer`] puts one value in its place through the [`Output`] of `layout.rs`, which
//! holds the layout algorithm; sequences, structs and maps go through `ser_compound.rs`.

use serde::ser::{self, Serialize};

use super::fraction::{self, Fraction, FRACTION_TOKEN};
use super::layout::{integer_too_wide, Mode, Opened, Output, Shape, Target, HEAD_SLACK};
use super::ser_compound::{MapMode, MapSerializer, Phase, SeqSerializer};
use super::wire::{Kind, COLUMN};
use super::words::Words;
use super::TypedColumns;
use crate::dense::{BlockSink, BlockWriter, ElementKind};
use crate::error::{Error, ErrorKind, Result};
use crate::hint::{element_type_name, exact_len};
use crate::output::MAX_HINT_RESERVE;

/// Serializes one value into its place; the serde glue behind [`Serializer`].
pub struct ValueSerializer<'a> {
    pub(super) out: &'a mut Output,
    pub(super) target: Target,
    /// How many Columns enclose this value's place.
    pub(super) depth: usize,
}

impl<'a> ValueSerializer<'a> {
    /// Writes a fixed-size atom: only its data while its column is a uniform run of this kind,
    /// or its data and description in the next reserved slot.
    #[inline(always)]
    pub(super) fn atom<const N: usize>(self, kind: Kind, bytes: [u8; N]) -> Result<()> {
        let index = match self.target {
            // A struct's field (see `Opened::Slots`), a map's key or value.
            Target::Slot(slot) => return self.out.put_atom(slot, kind, bytes),
            Target::Element(index) => index,
        };
        if let Some(frame) = self.out.frames.get_mut(index) {
            match &mut frame.mode {
                Mode::Uniform {
                    shape: Some(shape),
                    count,
                    ..
                } if shape.kind == kind && shape.dims.is_empty() && *count < frame.len => {
                    *count += 1;
                    self.out.data.extend_from_slice(&bytes);
                    return Ok(());
                }
                Mode::Slots { next, end } if *next < *end => {
                    let slot = *next;
                    *next += 1;
                    return self.out.put_atom(slot, kind, bytes);
                }
                _ => {}
            }
        }
        Self::atom_slow(self.out, self.target, kind, bytes)
    }

    /// The first atom of a column, or an atom that does not continue a uniform run. Takes the
    /// parts it needs rather than `self`, so that they go in registers: the caller then builds
    /// no serializer in memory for every atom.
    #[inline(never)]
    fn atom_slow<const N: usize>(
        out: &mut Output,
        target: Target,
        kind: Kind,
        bytes: [u8; N],
    ) -> Result<()> {
        if let Target::Element(index) = target {
            let frame = &mut out.frames[index];
            if let Mode::Uniform {
                shape: shape @ None,
                count,
                ..
            } = &mut frame.mode
            {
                if *count < frame.len {
                    *shape = Some(Shape::atom(kind));
                    *count += 1;
                    let rest = (frame.len - 1).saturating_mul(bytes.len());
                    out.data.reserve(rest.min(MAX_HINT_RESERVE) + HEAD_SLACK);
                    out.data.extend_from_slice(&bytes);
                    return Ok(());
                }
            }
        }
        let slot = out.place(target)?;
        out.put_atom(slot, kind, bytes)
    }

    /// The slot this value takes, reserving its column's children if needed.
    #[inline]
    pub(super) fn into_slot(self) -> Result<(&'a mut Output, usize)> {
        let slot = self.out.place(self.target)?;
        Ok((self.out, slot))
    }

    #[inline]
    pub(super) fn integer(self, value: i64) -> Result<()> {
        self.atom(Kind::Fraction, Fraction::from(value).to_le_bytes())
    }

    /// A sequence: always framed, so that its element loop has one path.
    #[inline]
    pub(super) fn seq(self, len: Option<usize>) -> Result<SeqSerializer<'a>> {
        self.column(len, false)
    }

    /// A struct, tuple, tuple struct or variant payload: unframed when it reserves its fields
    /// as it opens.
    #[inline]
    pub(super) fn fields(self, len: usize) -> Result<SeqSerializer<'a>> {
        self.column(Some(len), true)
    }

    #[inline]
    fn column(self, len: Option<usize>, unframed: bool) -> Result<SeqSerializer<'a>> {
        let depth = self.depth + 1;
        self.out.column_at(depth)?;
        let phase = Phase::start(len);
        // A long column stays framed: its second element sizes the arrays for the rest.
        let unframed = unframed && phase == Phase::Steady;
        let (frame, phase, next, end) = match self.out.open(self.target, len, unframed)? {
            Opened::Frame(frame) => (frame, phase, 0, 0),
            Opened::Slots { next, end } => (next, Phase::Unframed, next, end),
        };
        Ok(SeqSerializer {
            out: self.out,
            frame,
            phase,
            depth,
            next,
            end,
        })
    }

    /// A dense `f64` sequence ([`crate::dense`]): the data in one pass, then the column laid
    /// out exactly as a sequence of that many Float atoms would have been (dense or not).
    fn dense_floats<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        self.floats_from(|sink| value.serialize(sink))
    }

    /// A sequence of exactly `len` `f64` values (serde's `collect_seq` of a `Vec<f64>` or a
    /// slice): the dense path, fed element by element. Same bytes as the ordinary path.
    fn collect_floats<I>(self, len: usize, iter: I) -> Result<()>
    where
        I: Iterator,
        I::Item: Serialize,
    {
        self.floats_from(|sink| {
            let mut seq = ser::Serializer::serialize_seq(sink, Some(len))?;
            for item in iter {
                ser::SerializeSeq::serialize_element(&mut seq, &item)?;
            }
            ser::SerializeSeq::end(seq)
        })
    }

    /// Lays out the `f64` values `write` gives a block writer as a column.
    #[inline]
    fn floats_from(
        self,
        write: impl FnOnce(BlockWriter<'_, DataSink<'_>>) -> Result<()>,
    ) -> Result<()> {
        let start = self.out.data.len();
        write(BlockWriter {
            sink: &mut DataSink(&mut self.out.data),
            kind: ElementKind::F64,
        })?;
        let len = (self.out.data.len() - start) / 8;
        let seq = self.seq(Some(len))?;
        if len > 0 {
            match &mut seq.out.frames[seq.frame].mode {
                Mode::Uniform {
                    shape,
                    data_start,
                    count,
                } => {
                    *shape = Some(Shape::atom(Kind::Float));
                    *data_start = start;
                    *count = len;
                }
                // Reserved as it opened (after a sibling that was not uniform): one Float
                // description per element, as element by element.
                Mode::Slots { next, end } => {
                    let (first, end) = (*next, *end);
                    *next = end;
                    for (i, slot) in (first..end).enumerate() {
                        seq.out
                            .set(slot, Kind::Float.number(), (start + 8 * i) as u64, 8);
                    }
                }
                Mode::Unknown { .. } => {}
            }
        }
        seq.finish()
    }

    /// `Column[name, payload]`: writes the name and returns the payload's serializer.
    #[inline]
    fn variant_payload(self, name: &str) -> Result<ValueSerializer<'a>> {
        let depth = self.depth + 1;
        self.out.column_at(depth)?;
        let (out, slot) = self.into_slot()?;
        let first = out.reserve(2)?;
        out.set(slot, COLUMN, first as u64, 2);
        out.push_str(first, name);
        Ok(ValueSerializer {
            out,
            target: Target::Slot(first + 1),
            depth,
        })
    }
}

// Integers are Fractions of an `i64`: the narrower types widen, the wider ones must fit.
macro_rules! serialize_integer {
    ($($method:ident($ty:ty))+ => widen; $($wide:ident($wide_ty:ty))+ => narrow;) => {
        $(#[inline]
        fn $method(self, v: $ty) -> Result<()> {
            self.integer(v.into())
        })+
        $(#[inline]
        fn $wide(self, v: $wide_ty) -> Result<()> {
            self.integer(i64::try_from(v).map_err(|_| integer_too_wide(v))?)
        })+
    };
}

// The types of both serializers: the root `&mut Serializer` forwards to a `ValueSerializer`.
macro_rules! value_serializer_types {
    () => {
        compound_types! {
            MapSerializer<'a> => SerializeMap;
            SeqSerializer<'a> => SerializeSeq SerializeTuple SerializeTupleStruct
                SerializeTupleVariant SerializeStruct SerializeStructVariant;
        }

        fn is_human_readable(&self) -> bool {
            false
        }
    };
}

impl<'a> ser::Serializer for ValueSerializer<'a> {
    value_serializer_types!();

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.atom(Kind::Boolean, [u8::from(v)])
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.integer(v)
    }
    serialize_integer! {
        serialize_i8(i8) serialize_i16(i16) serialize_i32(i32)
        serialize_u8(u8) serialize_u16(u16) serialize_u32(u32) => widen;
        serialize_i128(i128) serialize_u64(u64) serialize_u128(u128) => narrow;
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.atom(Kind::Float, f64::from(v).to_le_bytes())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.atom(Kind::Float, v.to_le_bytes())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        let (out, slot) = self.into_slot()?;
        out.push_str(slot, v);
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let mut seq = self.seq(Some(v.len()))?;
        for byte in v {
            seq.element(byte)?;
        }
        seq.finish()
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        let mut seq = self.seq(Some(1))?;
        seq.element(value)?;
        seq.finish()
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        // An empty Column is a Column: it counts like any other.
        self.out.column_at(self.depth + 1)?;
        let (out, slot) = self.into_slot()?;
        out.set(slot, COLUMN, 0, 0);
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    /// serde's own `collect_seq`, except that a sequence of `f64` of exact length (a
    /// `Vec<f64>`, a slice) takes the dense path: one loop appending the floats.
    #[inline]
    fn collect_seq<I>(self, iter: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        let iter = iter.into_iter();
        let len = exact_len(iter.size_hint());
        if let (Some(len), "f64") = (len, element_type_name::<I::Item>()) {
            return self.collect_floats(len, iter);
        }
        let mut seq = self.seq(len)?;
        for item in iter {
            seq.element(&item)?;
        }
        seq.finish()
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == FRACTION_TOKEN {
            let fraction = fraction::extract(value)?;
            return self.atom(Kind::Fraction, fraction.to_le_bytes());
        }
        if ElementKind::of_name(name) == Some(ElementKind::F64) {
            return self.dense_floats(value);
        }
        value.serialize(self)
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer<'a>> {
        self.seq(len)
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer<'a>> {
        self.fields(len)
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSerializer<'a>> {
        self.fields(len)
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<MapSerializer<'a>> {
        let depth = self.depth + 1;
        self.out.column_at(depth)?;
        let (out, slot) = self.into_slot()?;
        let mode = match len {
            Some(len) => {
                let first = out.reserve(len)?;
                out.set(slot, COLUMN, first as u64, len as u64);
                MapMode::Slots {
                    next: first,
                    end: first + len,
                    value: None,
                }
            }
            None => MapMode::Unknown {
                trees: Vec::new(),
                pending: None,
            },
        };
        Ok(MapSerializer {
            out,
            depth: depth + 1,
            slot,
            len: len.unwrap_or(0),
            mode,
        })
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<SeqSerializer<'a>> {
        self.fields(len)
    }
    // A variant is `Column[name, payload]`; its payload is written like any value.
    serializer_methods! {
        #[inline]
        fn serialize_newtype_variant(self, _name, _index, variant, value) =>
            value.serialize(self.variant_payload(variant)?);
        #[inline]
        fn serialize_tuple_variant(self, _name, _index, variant, len) =>
            self.variant_payload(variant)?.fields(len);
        #[inline]
        fn serialize_struct_variant(self, _name, _index, variant, len) =>
            self.variant_payload(variant)?.fields(len);
    }
}

/// The data array as the sink of a dense block.
struct DataSink<'a>(&'a mut Vec<u8>);

impl BlockSink for DataSink<'_> {
    #[inline]
    fn begin(&mut self, len: usize, size: usize) -> Result<()> {
        self.0
            .reserve(len.saturating_mul(size).min(MAX_HINT_RESERVE) + HEAD_SLACK);
        Ok(())
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

/// The typed-column serializer: holds the two arrays of one value.
///
/// `&mut Serializer` implements [`serde::Serializer`]; serialize one value into it, then take
/// the result with [`Serializer::into_columns`] or [`Serializer::into_bytes`].
///
/// ```
/// use serde::Serialize;
/// use serde_formats::typed_column::Serializer;
///
/// let mut serializer = Serializer::new().with_compression(false);
/// [true, false, true].serialize(&mut serializer)?;
/// let columns = serializer.into_columns()?;
/// assert_eq!(columns.types, [4, 1, 3, 0, 0, 1, 0, 1, 1, 0, 2, 1]);
/// assert_eq!(columns.data, [1, 0, 1]);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Debug)]
pub struct Serializer {
    pub(super) out: Output,
}

impl Default for Serializer {
    fn default() -> Self {
        Serializer::new()
    }
}

impl Serializer {
    /// A serializer that writes compressed (dense) descriptions where the format allows them.
    pub fn new() -> Self {
        Serializer {
            out: Output::new(true),
        }
    }

    /// Turns compressed descriptions on (the default) or off. With them off every value gets
    /// its own description, as the original format's serializer wrote it.
    #[must_use]
    pub fn with_compression(mut self, compress: bool) -> Self {
        self.out.compress = compress;
        self
    }

    /// Builds the type words as the head of a frame, with room kept for the data after them.
    pub(super) fn framed(mut self) -> Self {
        self.out.types = Words::framed();
        self
    }

    /// Sets how deeply Columns may nest, as [`Deserializer::with_depth_limit`](super::Deserializer::with_depth_limit)
    /// does for reading (default [`DEFAULT_DEPTH_LIMIT`](super::DEFAULT_DEPTH_LIMIT)): a value nested deeper is refused
    /// with [`ErrorKind::DepthLimitExceeded`] naming the limit.
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.out.depth_limit = limit;
        self
    }

    /// The two arrays of the value serialized.
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] if no value was serialized, or a column of it was not ended.
    pub fn into_columns(self) -> Result<TypedColumns> {
        let out = self.complete()?;
        Ok(TypedColumns {
            types: out.types.into_vec(),
            data: out.data,
        })
    }

    /// The output of a complete value.
    fn complete(self) -> Result<Output> {
        if self.out.types.is_empty() || !self.out.frames.is_empty() {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "no complete value was serialized",
            ));
        }
        Ok(self.out)
    }

    /// Writes the framed bytes of the value serialized to `writer`: the head, then the data.
    pub(super) fn write_frame<W: std::io::Write>(self, mut writer: W) -> Result<()> {
        let mut out = self.complete()?;
        out.types.write_head(&mut writer)?;
        writer.write_all(&out.data)?;
        Ok(())
    }

    /// The framed bytes of the value serialized: see [`TypedColumns::to_bytes`].
    ///
    /// # Errors
    /// [`ErrorKind::Unsupported`] if no value was serialized.
    pub fn into_bytes(self) -> Result<Vec<u8>> {
        let out = self.complete()?;
        Ok(out.types.into_frame(out.data))
    }

    pub(super) fn root(&mut self) -> Result<ValueSerializer<'_>> {
        if !self.out.types.is_empty() {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                "a Serializer holds one value",
            ));
        }
        self.out.types.extend(&[0; 3]);
        Ok(ValueSerializer {
            out: &mut self.out,
            target: Target::Slot(0),
            depth: 0,
        })
    }
}

macro_rules! forward_to_root {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<$ret> {
            self.root()?.$method($($arg),*)
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Serializer {
    value_serializer_types!();

    forward_to_root! {
        serialize_bool(v: bool) -> ();
        serialize_i8(v: i8) -> ();
        serialize_i16(v: i16) -> ();
        serialize_i32(v: i32) -> ();
        serialize_i64(v: i64) -> ();
        serialize_i128(v: i128) -> ();
        serialize_u8(v: u8) -> ();
        serialize_u16(v: u16) -> ();
        serialize_u32(v: u32) -> ();
        serialize_u64(v: u64) -> ();
        serialize_u128(v: u128) -> ();
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(name: &'static str) -> ();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> SeqSerializer<'a>;
        serialize_tuple(len: usize) -> SeqSerializer<'a>;
        serialize_tuple_struct(name: &'static str, len: usize) -> SeqSerializer<'a>;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SeqSerializer<'a>;
        serialize_map(len: Option<usize>) -> MapSerializer<'a>;
        serialize_struct(name: &'static str, len: usize) -> SeqSerializer<'a>;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SeqSerializer<'a>;
    }

    #[inline]
    fn collect_seq<I>(self, iter: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        self.root()?.collect_seq(iter)
    }

    serializer_methods! {
        #[inline]
        fn serialize_some(self, value) => self.root()?.serialize_some(value);
        #[inline]
        fn serialize_newtype_struct(self, name, value) =>
            self.root()?.serialize_newtype_struct(name, value);
        #[inline]
        fn serialize_newtype_variant(self, name, index, variant, value) =>
            self.root()?.serialize_newtype_variant(name, index, variant, value);
    }
}
