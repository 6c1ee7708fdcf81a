//! The serde side of the TOC writer: `serde::Serializer` for [`Writer`], and [`Compound`], the
//! state of an open array, map or struct. Each method maps one serde data model item to the
//! writer's scalar, string and container operations in the parent module.

use serde::ser::{self, Serialize};

use crate::error::{Error, ErrorKind, Result};

use super::super::data::Sink;
use super::super::{self as toc, encode};
use super::{length, Writer};

/// State of an open array or map, and for enum variants the `{variant: ...}` map around it.
pub(in crate::toc) struct Compound<'a, O> {
    ser: &'a mut Writer<O>,
    declared: Option<usize>,
    count: usize,
    /// Inside `{variant: ...}`, a map the writer has open too.
    variant: bool,
}

impl<'a, O: Sink> Compound<'a, O> {
    #[inline]
    fn end(self) -> Result<()> {
        if self.variant {
            return self.end_variant();
        }
        self.ser.end(self.declared, self.count)
    }

    /// Closes the container of a variant, then the `{variant: ...}` map around it.
    #[inline(never)]
    fn end_variant(self) -> Result<()> {
        self.ser.end(self.declared, self.count)?;
        self.ser.value_written();
        self.ser.end(Some(1), 1)
    }

    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.count += 1;
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.count += 1;
        self.ser.str_key(key)?;
        value.serialize(&mut *self.ser)?;
        self.ser.value_written();
        Ok(())
    }
}

impl<'a, O: Sink> Writer<O> {
    #[inline]
    fn compound(&'a mut self, len: Option<usize>, is_map: bool) -> Result<Compound<'a, O>> {
        self.begin(len, is_map)?;
        Ok(Compound {
            ser: self,
            declared: len,
            count: 0,
            variant: false,
        })
    }

    /// Opens `{variant: <container>}`.
    fn variant_compound(
        &'a mut self,
        variant: &'static str,
        len: usize,
        is_map: bool,
    ) -> Result<Compound<'a, O>> {
        self.begin(Some(1), true)?;
        self.str_key(variant)?;
        self.begin(Some(len), is_map)?;
        Ok(Compound {
            ser: self,
            declared: Some(len),
            count: 0,
            variant: true,
        })
    }
}

/// Serializer methods for narrow integers: MessagePack picks the smallest encoding of the
/// value, so each is written as its 64-bit widening.
macro_rules! widen {
    ($($method:ident($ty:ty) => $wide:ident),* $(,)?) => {$(
        #[inline]
        fn $method(self, v: $ty) -> Result<()> {
            self.$wide(v.into())
        }
    )*};
}

/// Serializer methods for `{variant: [...]}` (`false`) and `{variant: {...}}` (`true`).
macro_rules! variants {
    ($lt:lifetime; $($method:ident => $is_map:expr),* $(,)?) => {$(
        fn $method(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<Compound<$lt, O>> {
            self.variant_compound(variant, len, $is_map)
        }
    )*};
}

impl<'a, O: Sink> ser::Serializer for &'a mut Writer<O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, O>;
    type SerializeTuple = Compound<'a, O>;
    type SerializeTupleStruct = Compound<'a, O>;
    type SerializeTupleVariant = Compound<'a, O>;
    type SerializeMap = Compound<'a, O>;
    type SerializeStruct = Compound<'a, O>;
    type SerializeStructVariant = Compound<'a, O>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.scalar(encode::bool(v))
    }

    widen!(
        serialize_i8(i8) => serialize_i64,
        serialize_i16(i16) => serialize_i64,
        serialize_i32(i32) => serialize_i64,
        serialize_u8(u8) => serialize_u64,
        serialize_u16(u16) => serialize_u64,
        serialize_u32(u32) => serialize_u64,
    );
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        // Smallest encoding; non-negative values use the unsigned markers, as msglc's codec does.
        self.scalar(encode::sint(v))
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        if let Ok(v) = i64::try_from(v) {
            self.serialize_i64(v)
        } else if let Ok(v) = u64::try_from(v) {
            self.serialize_u64(v)
        } else {
            Err(Error::with_message(
                ErrorKind::IntegerOverflow,
                "i128 outside the MessagePack integer range",
            ))
        }
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.scalar(encode::uint(v))
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        match u64::try_from(v) {
            Ok(v) => self.serialize_u64(v),
            Err(_) => Err(Error::with_message(
                ErrorKind::IntegerOverflow,
                "u128 outside the MessagePack integer range",
            )),
        }
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if std::mem::take(&mut self.float32) {
            return self.scalar(encode::f32(v));
        }
        // msglc writes every float as float64.
        self.serialize_f64(f64::from(v))
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.scalar(encode::f64(v))
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        self.serialize_str(v.encode_utf8(&mut buf))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        let head = encode::str_len(length(v.len(), "string")?);
        self.with_body(head, v.as_bytes())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let head = encode::bin_len(length(v.len(), "byte string")?);
        self.with_body(head, v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.scalar(encode::nil())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name == toc::EXT_STRUCT_NAME {
            let (tag, data) = toc::ext::capture(value)?;
            let head = encode::ext_head(length(data.len(), "extension")?, tag);
            return self.with_body(head, &data);
        }
        if name == toc::F32_STRUCT_NAME {
            self.float32 = true;
            let result = value.serialize(&mut *self);
            self.float32 = false;
            return result;
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.begin(Some(1), true)?;
        self.str_key(variant)?;
        value.serialize(&mut *self)?;
        self.value_written();
        self.end(Some(1), 1)
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, O>> {
        self.compound(len, false)
    }
    #[inline]
    fn collect_seq<I>(self, iter: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        self.collect_floats_or_any(iter.into_iter())
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Some(len), false)
    }
    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Some(len), false)
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, O>> {
        self.compound(len, true)
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, O>> {
        self.compound(Some(len), true)
    }
    variants!('a; serialize_tuple_variant => false, serialize_struct_variant => true);
}

forward_compound!([O: Sink] Compound<'_, O>;
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field => element, end;
);
forward_compound!([O: Sink] Compound<'_, O>;
    named => field(key, value), end;
);

impl<O: Sink> ser::SerializeMap for Compound<'_, O> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.ser.any_key(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.count += 1;
        value.serialize(&mut *self.ser)?;
        self.ser.value_written();
        Ok(())
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}
