//! serde glue: a [`Serializer`] that writes postcard bytes into a `Vec<u8>` it owns.

use serde::ser::{self, Serialize};

use super::{
    write_bytes, write_varint_u128, write_varint_u64, write_zigzag_i128, write_zigzag_i64,
};
use crate::{Error, ErrorKind, Result};

/// A serde serializer producing postcard 1.x bytes, appending to the `Vec<u8>` it owns.
///
/// Owning the output (and taking a caller's buffer with [`Serializer::from_vec`]) lets a
/// codec stream many values into one buffer without an intermediate allocation per value,
/// and lets [`ColumnarEncoder`](crate::ColumnarEncoder) hand it out by `DerefMut`.
///
/// ```
/// use serde::Serialize;
/// let mut serializer = columnar::wire::Serializer::from_vec(vec![0xaa]);
/// (1u16, "hi").serialize(&mut serializer)?;
/// assert_eq!(serializer.into_inner(), [0xaa, 0x01, 0x02, b'h', b'i']);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Serializer {
    out: Vec<u8>,
}

impl Serializer {
    /// A serializer writing into a new buffer.
    pub fn new() -> Self {
        Serializer::default()
    }

    /// A serializer appending to `out`.
    pub fn from_vec(out: Vec<u8>) -> Self {
        Serializer { out }
    }

    /// The output written so far.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    /// The output buffer.
    pub fn into_inner(self) -> Vec<u8> {
        self.out
    }
}

/// Serializes `value` into a new `Vec<u8>`; the bytes are `postcard::to_allocvec`'s.
///
/// # Errors
/// [`ErrorKind::Unsupported`] for a sequence or map of unknown length, and any error the
/// value's `Serialize` implementation raises ([`ErrorKind::Message`], keeping its text).
///
/// ```
/// assert_eq!(columnar::wire::to_vec(&Some(-2i32))?, [0x01, 0x03]);
/// # Ok::<(), columnar::Error>(())
/// ```
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    append(value, &mut out)?;
    Ok(out)
}

/// Serializes `value` onto the end of `out`. On error, `out` may hold a partial value.
///
/// # Errors
/// As [`to_vec`].
#[inline]
pub fn append<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<()> {
    let mut serializer = Serializer::from_vec(std::mem::take(out));
    let result = value.serialize(&mut serializer);
    *out = serializer.out;
    result
}

/// `serialize_*` methods that append one scalar to the output: `$write` appends `$v` to
/// `$out` (the output vector).
macro_rules! scalar_methods {
    ($($method:ident($ty:ty)),+ => |$out:ident, $v:ident| $write:expr) => {
        $(
            #[inline]
            // A group's conversion widens every type of it but the widest.
            #[allow(clippy::useless_conversion)]
            fn $method(self, $v: $ty) -> Result<()> {
                let $out = &mut self.out;
                $write;
                Ok(())
            }
        )+
    };
}

/// `serialize_tuple_variant` and `serialize_struct_variant`: the variant index, then the
/// fields (written by the compound serializer this returns).
macro_rules! variant_methods {
    ($($method:ident),+) => {
        $(
            #[inline]
            fn $method(self, _: &'static str, index: u32, _: &'static str, _: usize) -> Result<Self> {
                write_varint_u64(&mut self.out, u64::from(index));
                Ok(self)
            }
        )+
    };
}

impl ser::Serializer for &mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn is_human_readable(&self) -> bool {
        false
    }

    // Scalars: one byte, a varint (zigzag for signed), or the little-endian IEEE bits.
    scalar_methods!(serialize_bool(bool) => |out, v| out.push(u8::from(v)));
    scalar_methods!(serialize_i8(i8), serialize_u8(u8) => |out, v| out.push(v as u8));
    scalar_methods!(serialize_i16(i16), serialize_i32(i32), serialize_i64(i64)
        => |out, v| write_zigzag_i64(out, i64::from(v)));
    scalar_methods!(serialize_u16(u16), serialize_u32(u32), serialize_u64(u64)
        => |out, v| write_varint_u64(out, u64::from(v)));
    scalar_methods!(serialize_i128(i128) => |out, v| write_zigzag_i128(out, v));
    scalar_methods!(serialize_u128(u128) => |out, v| write_varint_u128(out, v));
    scalar_methods!(serialize_f32(f32), serialize_f64(f64)
        => |out, v| out.extend_from_slice(&v.to_bits().to_le_bytes()));

    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        write_bytes(&mut self.out, v.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        write_bytes(&mut self.out, v.as_bytes());
        Ok(())
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        write_bytes(&mut self.out, v);
        Ok(())
    }

    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.out.push(0);
        Ok(())
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.out.push(1);
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        variant_index: u32,
        _variant: &'static str,
    ) -> Result<()> {
        write_varint_u64(&mut self.out, u64::from(variant_index));
        Ok(())
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        variant_index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<()> {
        write_varint_u64(&mut self.out, u64::from(variant_index));
        value.serialize(self)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self> {
        // The length comes first on the wire, so it must be known up front (as in postcard).
        let len = len.ok_or_else(|| {
            Error::with_message(ErrorKind::Unsupported, "sequence of unknown length")
        })?;
        write_varint_u64(&mut self.out, len as u64);
        Ok(self)
    }

    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<Self> {
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self> {
        Ok(self)
    }

    // A tuple or struct variant: its index, then its fields one after the other.
    variant_methods!(serialize_tuple_variant, serialize_struct_variant);

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self> {
        let len = len
            .ok_or_else(|| Error::with_message(ErrorKind::Unsupported, "map of unknown length"))?;
        write_varint_u64(&mut self.out, len as u64);
        Ok(self)
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self> {
        Ok(self)
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<()> {
        // The length precedes the text, so format once into a scratch string.
        let text = value.to_string();
        write_bytes(&mut self.out, text.as_bytes());
        Ok(())
    }
}

/// Implements a compound serializer trait whose elements are written one after the other with
/// nothing between them: `compound!(Trait, ...: (method, ...))`; a method followed by `_key`
/// also takes the field name, which is not stored.
macro_rules! compound {
    ($($trait:ident),+: $methods:tt) => {
        $(compound!(@impl $trait $methods);)+
    };
    (@impl $trait:ident ($($method:ident $($keyed:ident)?),+)) => {
        impl ser::$trait for &mut Serializer {
            type Ok = ();
            type Error = Error;
            $(
                #[inline]
                fn $method<T: Serialize + ?Sized>(
                    &mut self,
                    $($keyed: &'static str,)?
                    value: &T,
                ) -> Result<()> {
                    value.serialize(&mut **self)
                }
            )+

            #[inline]
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    };
}

compound!(SerializeSeq, SerializeTuple: (serialize_element));
compound!(SerializeTupleStruct, SerializeTupleVariant: (serialize_field));
compound!(SerializeMap: (serialize_key, serialize_value));
compound!(SerializeStruct, SerializeStructVariant: (serialize_field _key));
