//! Writing the two values serde has no word for, extensions and float32, through their newtype
//! struct conventions ([`EXT_STRUCT_NAME`], [`F32_STRUCT_NAME`]): the payload of an extension is
//! captured here and written whole by the toc writer.

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, ErrorKind, Result};

#[cfg(doc)]
use super::value::{EXT_STRUCT_NAME, F32_STRUCT_NAME};

/// The `(type, data)` of an extension payload, or an error naming what the payload was instead.
pub(crate) fn capture<T: ?Sized + Serialize>(payload: &T) -> Result<(i8, Vec<u8>)> {
    let mut capture = Capture::default();
    payload.serialize(&mut capture)?;
    match capture {
        Capture {
            tag: Some(tag),
            data: Some(data),
        } => Ok((tag, data)),
        _ => Err(not_ext()),
    }
}

#[cold]
fn not_ext() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "an extension must serialize as the tuple (type: i8, data: bytes)",
    )
}

#[derive(Default)]
struct Capture {
    tag: Option<i8>,
    data: Option<Vec<u8>>,
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<()> {
            Err(not_ext())
        })*
    };
}

impl ser::Serializer for &mut Capture {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_i8(self, v: i8) -> Result<()> {
        match self.tag {
            None => {
                self.tag = Some(v);
                Ok(())
            }
            Some(_) => Err(not_ext()),
        }
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        match (self.tag, &self.data) {
            (Some(_), None) => {
                self.data = Some(v.to_vec());
                Ok(())
            }
            _ => Err(not_ext()),
        }
    }
    fn serialize_tuple(self, len: usize) -> Result<Self> {
        if len == 2 && self.tag.is_none() {
            Ok(self)
        } else {
            Err(not_ext())
        }
    }

    refuse! {
        serialize_bool(bool);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(not_ext())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<()> {
        Err(not_ext())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(not_ext())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_ext())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_ext())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_ext())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_ext())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(not_ext())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_ext())
    }
}

impl ser::SerializeTuple for &mut Capture {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}
