//! [`Value`]: any MessagePack value this format reads or writes, for data without a Rust type
//! (maps with keys of any type, heterogeneous arrays, files written by msglc).
//!
//! serde has no extension type and no way to ask for a float32, so [`Value`] speaks two
//! conventions that the toc serializer and deserializer and rmp-serde share:
//!
//! - an extension is the newtype struct [`EXT_STRUCT_NAME`] (`"_ExtStruct"`, rmp-serde's name)
//!   around the tuple `(type: i8, data: bytes)`;
//! - a float32 is the newtype struct [`F32_STRUCT_NAME`] around an `f32`: the toc writer writes
//!   it as float32 `ca` (a plain `f32` it widens to float64, as msglc does), other serializers
//!   see a transparent newtype and write their `f32`.

use std::fmt;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeTuple, Serializer};

/// The newtype struct name of a MessagePack extension `(type: i8, data: bytes)` in the serde
/// data model (rmp-serde's `MSGPACK_EXT_STRUCT_NAME`).
pub const EXT_STRUCT_NAME: &str = "_ExtStruct";

/// The newtype struct name around an `f32` that the toc writer writes as float32.
pub const F32_STRUCT_NAME: &str = "_TocFloat32";

/// Any MessagePack value.
///
/// Non-negative integers are always [`Value::UInt`] and negative ones [`Value::Int`], whatever
/// marker they were read from. Floats compare by their bits, so `NaN == NaN` (with the same
/// payload) and `0.0 != -0.0`, and a float32 never equals a float64: equality means "reads back
/// identically". Maps keep their entry order and may hold keys of any type, equal keys too.
///
/// New kinds of MessagePack value may be added in minor versions, so matches need a `_` arm.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Value {
    /// `nil` (also unit and `None`).
    Nil,
    /// `true` / `false`.
    Bool(bool),
    /// A non-negative integer.
    UInt(u64),
    /// A negative integer.
    Int(i64),
    /// A float32 (written as float32 `ca`).
    F32(f32),
    /// A float64.
    F64(f64),
    /// A UTF-8 string.
    Str(String),
    /// A byte string.
    Bin(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map, entries in file order.
    Map(Vec<(Value, Value)>),
    /// An extension: its type (`-1` is the MessagePack timestamp) and its data.
    Ext(i8, Vec<u8>),
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Nil, Value::Nil) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::UInt(a), Value::UInt(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::F32(a), Value::F32(b)) => a.to_bits() == b.to_bits(),
            (Value::F64(a), Value::F64(b)) => a.to_bits() == b.to_bits(),
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bin(a), Value::Bin(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Map(a), Value::Map(b)) => a == b,
            (Value::Ext(ta, a), Value::Ext(tb, b)) => ta == tb && a == b,
            _ => false,
        }
    }
}

impl Value {
    /// The entry of a map whose key is the string `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The element `index` of an array.
    pub fn at(&self, index: usize) -> Option<&Value> {
        match self {
            Value::Array(items) => items.get(index),
            _ => None,
        }
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.to_owned())
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        if v < 0 {
            Value::Int(v)
        } else {
            Value::UInt(v as u64)
        }
    }
}

/// `From` for the types a variant holds as they are.
macro_rules! from_held {
    ($($ty:ty => $variant:ident),* $(,)?) => {
        $(impl From<$ty> for Value {
            fn from(v: $ty) -> Self {
                Value::$variant(v)
            }
        })*
    };
}

from_held!(String => Str, u64 => UInt, f64 => F64, f32 => F32, bool => Bool);

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Nil => serializer.serialize_unit(),
            Value::Bool(v) => serializer.serialize_bool(*v),
            Value::UInt(v) => serializer.serialize_u64(*v),
            Value::Int(v) => serializer.serialize_i64(*v),
            Value::F32(v) => serializer.serialize_newtype_struct(F32_STRUCT_NAME, v),
            Value::F64(v) => serializer.serialize_f64(*v),
            Value::Str(v) => serializer.serialize_str(v),
            Value::Bin(v) => serializer.serialize_bytes(v),
            // Of known lengths: `collect_*` pass the exact length of a slice's iterator.
            Value::Array(items) => serializer.collect_seq(items),
            Value::Map(entries) => serializer.collect_map(entries.iter().map(|(k, v)| (k, v))),
            Value::Ext(tag, data) => {
                serializer.serialize_newtype_struct(EXT_STRUCT_NAME, &ExtPayload(*tag, data))
            }
        }
    }
}

/// The `(type, data)` tuple inside [`EXT_STRUCT_NAME`].
struct ExtPayload<'a>(i8, &'a [u8]);

impl Serialize for ExtPayload<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&self.0)?;
        tuple.serialize_element(&Bytes(self.1))?;
        tuple.end()
    }
}

/// Bytes as serde bytes, not as a sequence of integers.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// Reads the `(type, data)` of an extension.
struct ExtVisitor;

impl<'de> Visitor<'de> for ExtVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a MessagePack extension (type, data)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let tag: i8 = seq
            .next_element()?
            .ok_or_else(|| A::Error::invalid_length(0, &self))?;
        let data: ByteBuf = seq
            .next_element()?
            .ok_or_else(|| A::Error::invalid_length(1, &self))?;
        Ok(Value::Ext(tag, data.0))
    }
}

/// Owned bytes read through `deserialize_bytes`.
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ByteBuf, D::Error> {
        struct BytesVisitor;
        impl<'de> Visitor<'de> for BytesVisitor {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
        }
        deserializer.deserialize_bytes(BytesVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any MessagePack value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::UInt(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f32<E>(self, v: f32) -> Result<Value, E> {
        Ok(Value::F32(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bin(v.to_vec()))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Bin(v))
    }
    /// Extensions, from this crate's deserializer and rmp-serde's.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_tuple(2, ExtVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Value::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::Value;
    use crate::toc;

    /// The data bytes of a toc file of one small value (the TOC is `{"p": [0, n]}`).
    fn data(value: &Value) -> Vec<u8> {
        let bytes = toc::to_bytes(value).unwrap();
        let len = bytes[toc::MAGIC_LEN + 9] as usize; // the last byte of `toc_start`
        bytes[toc::DATA_START..toc::DATA_START + len].to_vec()
    }

    #[test]
    fn float32_and_extensions_are_written_as_the_spec_says_and_read_back() {
        // Bytes from the MessagePack specification: float32 0.1 is ca 3dcccccd; a timestamp 32
        // is fixext 4 of type -1 (d6 ff) with the seconds; 3 bytes of data make an ext 8.
        let cases: Vec<(Value, Vec<u8>)> = vec![
            (Value::F32(0.1), vec![0xca, 0x3d, 0xcc, 0xcc, 0xcd]),
            (Value::F32(f32::NAN), vec![0xca, 0x7f, 0xc0, 0x00, 0x00]),
            (
                Value::Ext(-1, vec![0, 0, 0, 1]),
                vec![0xd6, 0xff, 0, 0, 0, 1],
            ),
            (
                Value::Ext(5, vec![7, 8, 9]),
                vec![0xc7, 0x03, 0x05, 7, 8, 9],
            ),
            (Value::Ext(1, vec![]), vec![0xc7, 0x00, 0x01]),
            (
                Value::Ext(2, vec![4; 16]),
                [vec![0xd8, 0x02], vec![4; 16]].concat(),
            ),
        ];
        for (value, expected) in cases {
            assert_eq!(data(&value), expected, "{value:?}");
            let file = toc::to_bytes(&value).unwrap();
            assert_eq!(toc::from_bytes::<Value>(&file).unwrap(), value);
            // rmp-serde shares both conventions.
            assert_eq!(rmp_serde::to_vec(&value).unwrap(), expected, "{value:?}");
            let back: Value = rmp_serde::from_slice(&expected).unwrap();
            assert_eq!(back, value);
        }
    }

    #[test]
    fn a_plain_f32_is_still_widened_and_a_float32_differs_from_a_float64() {
        assert_eq!(data(&Value::F64(0.5)), data(&toc::Value::from(0.5f64)));
        let plain = toc::to_bytes(&0.5f32).unwrap();
        assert_eq!(plain[toc::DATA_START], 0xcb);
        assert_ne!(Value::F32(0.5), Value::F64(0.5));
        assert_ne!(Value::Ext(1, vec![2]), Value::Ext(2, vec![2]));
    }

    #[test]
    fn an_extension_is_refused_by_types_that_do_not_take_it_and_truncation_is_an_error() {
        let file = toc::to_bytes(&Value::Ext(3, vec![1])).unwrap();
        let err = toc::from_bytes::<u8>(&file).unwrap_err();
        assert_eq!(err.offset(), Some(toc::DATA_START as u64), "{err}");
        let mut cut = file.clone();
        // fixext 1 claiming its byte, with the data cut: the header's lengths then lie.
        cut.truncate(toc::DATA_START + 2);
        assert!(toc::from_bytes::<Value>(&cut).is_err());
        // A struct that is not an extension payload is refused, not written.
        #[derive(serde::Serialize)]
        #[serde(rename = "_ExtStruct")]
        struct NotExt(u8);
        assert!(toc::to_bytes(&NotExt(1)).is_err());
    }
}
