//! Sequences of floats from serde's `collect_seq`: every `Vec` and slice of `f64` or `f32`.
//! msglc writes each float as a 9-byte float64, so a streamed list of them (see the parent
//! module) needs no counting a float: its blocks follow from the number of floats, worked out
//! a block at a time once they are written ([`Index::stream_run`]). Same bytes and TOC as
//! writing them one by one.

use serde::ser::{self, Serialize, SerializeSeq};

use crate::error::{Error, ErrorKind, Result};
use crate::hint::{element_type_name, exact_len};
use crate::output::MAX_HINT_RESERVE;

use super::super::data::Sink;
use super::super::encode;
use super::Writer;

#[cfg(doc)]
use super::super::index::Index;

/// The size of a MessagePack float64.
const FLOAT64_SIZE: u64 = 9;

impl<O: Sink> Writer<O> {
    /// serde's own `collect_seq`, but for a sequence of `f64` or `f32` of exact length, which
    /// goes to [`Writer::floats`].
    #[inline]
    pub(super) fn collect_floats_or_any<I>(&mut self, iter: I) -> Result<()>
    where
        I: Iterator,
        I::Item: Serialize,
    {
        let len = exact_len(iter.size_hint());
        // (Not under a float32 newtype, whose flag the first `f32` would take.)
        if let (Some(len), "f64" | "f32", false) =
            (len, element_type_name::<I::Item>(), self.float32)
        {
            return self.floats(len, iter);
        }
        let mut seq = ser::Serializer::serialize_seq(&mut *self, len)?;
        for item in iter {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }

    /// An array of `len` floats. Each float's value is taken with a serializer that does only
    /// that ([`FloatValue`], which inlines where the writer's own path may not), then written
    /// as float64. Streamed (and a float64 trivial), the floats are written with nothing
    /// recorded and counted into blocks after; otherwise each is recorded as any scalar is.
    fn floats<I>(&mut self, len: usize, iter: I) -> Result<()>
    where
        I: Iterator,
        I::Item: Serialize,
    {
        self.begin(Some(len), false)?;
        let mut count = 0;
        if self.streaming && FLOAT64_SIZE <= self.index.trivial_size() {
            let content = self.data.pos;
            let room = len.saturating_mul(FLOAT64_SIZE as usize);
            self.data.reserve(room.min(MAX_HINT_RESERVE));
            for item in iter {
                count += 1;
                self.data.put_head(encode::f64(FloatValue::of(&item)?))?;
            }
            debug_assert_eq!(self.data.pos - content, count as u64 * FLOAT64_SIZE);
            self.index.stream_run(content, FLOAT64_SIZE, count as u64);
        } else {
            for item in iter {
                count += 1;
                self.scalar(encode::f64(FloatValue::of(&item)?))?;
            }
        }
        self.end(Some(len), count)
    }
}

/// The value of an `f64` or `f32` (widened), taken through serde.
struct FloatValue(f64);

impl FloatValue {
    #[inline(always)]
    fn of<T: ?Sized + Serialize>(value: &T) -> Result<f64> {
        let mut float = FloatValue(0.0);
        value.serialize(&mut float)?;
        Ok(float.0)
    }
}

/// An element of a float sequence that did not serialize as a float: only a type whose name is
/// `f64` or `f32` gets here, so this is a bug.
#[cold]
fn not_a_float() -> Error {
    Error::with_message(
        ErrorKind::Message,
        "internal error: an element of a float sequence did not serialize as a float",
    )
}

impl ser::Serializer for &mut FloatValue {
    compound_types! {
        ser::Impossible<(), Error> => SerializeSeq SerializeTuple SerializeTupleStruct
            SerializeTupleVariant SerializeMap SerializeStruct SerializeStructVariant;
    }

    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.0 = v;
        Ok(())
    }
    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.0 = f64::from(v);
        Ok(())
    }

    refuse!(not_a_float();
        serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64
        serialize_u8 serialize_u16 serialize_u32 serialize_u64
        serialize_char serialize_str serialize_bytes
        serialize_none serialize_some serialize_unit serialize_unit_struct
        serialize_unit_variant serialize_newtype_struct serialize_newtype_variant
        serialize_seq serialize_tuple serialize_tuple_struct serialize_tuple_variant
        serialize_map serialize_struct serialize_struct_variant
    );
}
