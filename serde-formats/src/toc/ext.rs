//! Writing the two values serde has no word for, extensions and float32, through their newtype
//! struct conventions ([`EXT_STRUCT_NAME`], [`F32_STRUCT_NAME`]): the payload of an extension is
//! captured here and written whole by the toc writer.

use serde::ser::{self, Serialize};

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

impl ser::Serializer for &mut Capture {
    compound_types!(tuple only);

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

    refuse!(not_ext();
        serialize_bool serialize_i16 serialize_i32 serialize_i64
        serialize_u8 serialize_u16 serialize_u32 serialize_u64
        serialize_f32 serialize_f64 serialize_char serialize_str
        serialize_none serialize_some serialize_unit serialize_unit_struct
        serialize_unit_variant serialize_newtype_struct serialize_newtype_variant
        serialize_seq serialize_tuple_struct serialize_tuple_variant
        serialize_map serialize_struct serialize_struct_variant
    );
}

tuple_into_self!(&mut Capture);
