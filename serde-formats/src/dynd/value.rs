//! Dynamic values: [`Value`] holds any DyND value without its type, in its natural serde shape,
//! and converts to and from [`serde_json::Value`]. [`Array`] pairs one with its type.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeTuple};
use serde::{Deserialize, Deserializer};

use super::array::Array;
use super::datashape::Type;
use crate::Result;

/// Any DyND value, without its type.
///
/// Values read from `array[Any]` ([`from_array_bytes`](super::from_array_bytes)) come with
/// their [`Type`] in an [`Array`]; the type says how a `Value` is laid out in bytes. On its own,
/// a `Value` serializes in its natural serde shape (a `List` as a sequence, a `Struct` as a map
/// of names to values, `Missing` as `None`), which suits self-describing formats and
/// [`serde_json::Value`] conversions; `dynd::to_bytes` of a `Value` holding `Missing` is an
/// error because the sentinel depends on a type the value does not carry: write an [`Array`].
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A missing value of some `?T`.
    Missing,
    /// A present value of `?T` whose payload is itself missing or present: `Some(None)` of
    /// `??T` is `Present(Missing)`, `Some(Some(None))` of `???T` is `Present(Present(Missing))`.
    /// The decoder wraps a payload in `Present` only then; other present values stand as they
    /// are.
    Present(Box<Value>),
    /// The value of `void`.
    Void,
    /// `bool`
    Bool(bool),
    /// `int8`
    Int8(i8),
    /// `int16`
    Int16(i16),
    /// `int32`
    Int32(i32),
    /// `int64`
    Int64(i64),
    /// `int128`
    Int128(i128),
    /// `uint8`
    UInt8(u8),
    /// `uint16`
    UInt16(u16),
    /// `uint32`
    UInt32(u32),
    /// `uint64`
    UInt64(u64),
    /// `uint128`
    UInt128(u128),
    /// `float32`
    Float32(f32),
    /// `float64`
    Float64(f64),
    /// `complex[float32]`: real and imaginary part.
    ComplexFloat32(f32, f32),
    /// `complex[float64]`: real and imaginary part.
    ComplexFloat64(f64, f64),
    /// `char`
    Char(char),
    /// `string`
    String(String),
    /// `bytes` and `bytes[N]`
    Bytes(Vec<u8>),
    /// `type`
    Type(Type),
    /// The elements of `N * T` or `var * T`.
    List(Vec<Value>),
    /// The fields of `(T0, T1, ...)`.
    Tuple(Vec<Value>),
    /// The named fields of `{name: T, ...}`, in order.
    Struct(Vec<(String, Value)>),
    /// A value with its own type: `array[T]`.
    Array(Box<Array>),
}

impl Serialize for Value {
    /// The natural serde shape; see the type docs.
    fn serialize<S: ser::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Missing => ser.serialize_none(),
            Value::Present(value) => ser.serialize_some(value),
            Value::Void => ser.serialize_unit(),
            Value::ComplexFloat32(re, im) => (re, im).serialize(ser),
            Value::ComplexFloat64(re, im) => (re, im).serialize(ser),
            Value::Char(v) => ser.serialize_char(*v),
            Value::String(v) => ser.serialize_str(v),
            Value::Bytes(v) => ser.serialize_bytes(v),
            Value::Type(v) => ser.serialize_str(&v.to_string()),
            Value::List(items) => items.serialize(ser),
            Value::Tuple(items) => {
                let mut tuple = ser.serialize_tuple(items.len())?;
                for item in items {
                    tuple.serialize_element(item)?;
                }
                tuple.end()
            }
            Value::Struct(fields) => {
                ser.collect_map(fields.iter().map(|(name, value)| (name, value)))
            }
            Value::Array(array) => array.serialize(ser),
            primitive => primitive.serialize_primitive(ser, false),
        }
    }
}

/// The methods over the sentinel primitives, one arm each from `sentinel_primitives!`.
macro_rules! primitive_methods {
    ($($variant:ident: $ty:ty),*) => {
        impl Value {
            /// The type of a primitive with a missing-value sentinel; `None` for any other value.
            #[inline]
            pub(super) fn primitive_type(&self) -> Option<Type> {
                match self {
                    $(Value::$variant(_) => Some(Type::$variant),)*
                    _ => None,
                }
            }

            /// Serializes a primitive as its Rust type (`serialize_i8`, ...), or through
            /// `serialize_some::<P>` when `some` (a present value of `?P`, which the dynd
            /// serializer checks is not the sentinel). Any other value is an error.
            pub(super) fn serialize_primitive<S: ser::Serializer>(
                &self,
                ser: S,
                some: bool,
            ) -> Result<S::Ok, S::Error> {
                match self {
                    $(Value::$variant(v) if some => ser.serialize_some(v),
                    Value::$variant(v) => v.serialize(ser),)*
                    _ => Err(ser::Error::custom(format_args!("{self:?} is not a primitive"))),
                }
            }
        }
    };
}
sentinel_primitives!(primitive_methods);

struct ValueVisitor;

macro_rules! visit_exact {
    ($($method:ident $ty:ty => $variant:ident),*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Value, E> {
            Ok(Value::$variant(v))
        }
    )*};
}

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    visit_exact!(
        visit_bool bool => Bool, visit_i8 i8 => Int8, visit_i16 i16 => Int16,
        visit_i32 i32 => Int32, visit_i64 i64 => Int64, visit_i128 i128 => Int128,
        visit_u8 u8 => UInt8, visit_u16 u16 => UInt16, visit_u32 u32 => UInt32,
        visit_u64 u64 => UInt64, visit_u128 u128 => UInt128, visit_f32 f32 => Float32,
        visit_f64 f64 => Float64, visit_char char => Char, visit_string String => String,
        visit_byte_buf Vec<u8> => Bytes
    );

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bytes(v.to_vec()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Missing)
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        Value::deserialize(de)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Void)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Vec::new();
        while let Some((name, value)) = map.next_entry::<String, Value>()? {
            fields.push((name, value));
        }
        Ok(Value::Struct(fields))
    }
}

impl<'de> Deserialize<'de> for Value {
    /// Reads any value of a self-describing format (`deserialize_any`): numbers, strings,
    /// sequences as `List`, maps with string keys as `Struct`, null as `Missing`. DyND bytes are
    /// not self-describing: read them as an [`Array`].
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Value, D::Error> {
        de.deserialize_any(ValueVisitor)
    }
}

/// A 128-bit integer as a JSON number when the 64-bit `N` (`i64` or `u64`) holds it, else as
/// its decimal string.
fn big_to_json<N, T>(v: T) -> serde_json::Value
where
    N: TryFrom<T> + Into<serde_json::Value>,
    T: Copy + ToString,
{
    N::try_from(v).map_or_else(|_| serde_json::Value::String(v.to_string()), Into::into)
}

impl From<&Value> for serde_json::Value {
    /// JSON for people and tools: `Missing` and `Void` become `null`, NaN and infinities
    /// `null` (JSON has no such numbers), 128-bit integers outside the 64-bit range decimal
    /// strings, complex numbers `[re, im]`, bytes arrays of numbers, types their spelling,
    /// structs objects and nested arrays `{"type": ..., "value": ...}`.
    fn from(value: &Value) -> serde_json::Value {
        use serde_json::Value as Json;
        let float = |v: f64| serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number);
        match value {
            Value::Missing | Value::Void => Json::Null,
            Value::Present(value) => Json::from(&**value),
            Value::Bool(v) => Json::Bool(*v),
            Value::Int8(v) => Json::from(*v),
            Value::Int16(v) => Json::from(*v),
            Value::Int32(v) => Json::from(*v),
            Value::Int64(v) => Json::from(*v),
            Value::Int128(v) => big_to_json::<i64, _>(*v),
            Value::UInt8(v) => Json::from(*v),
            Value::UInt16(v) => Json::from(*v),
            Value::UInt32(v) => Json::from(*v),
            Value::UInt64(v) => Json::from(*v),
            Value::UInt128(v) => big_to_json::<u64, _>(*v),
            Value::Float32(v) => float(f64::from(*v)),
            Value::Float64(v) => float(*v),
            Value::ComplexFloat32(re, im) => {
                Json::Array(vec![float(f64::from(*re)), float(f64::from(*im))])
            }
            Value::ComplexFloat64(re, im) => Json::Array(vec![float(*re), float(*im)]),
            Value::Char(v) => Json::String(v.to_string()),
            Value::String(v) => Json::String(v.clone()),
            Value::Bytes(v) => Json::Array(v.iter().map(|b| Json::from(*b)).collect()),
            Value::Type(v) => Json::String(v.to_string()),
            Value::List(items) | Value::Tuple(items) => {
                Json::Array(items.iter().map(Json::from).collect())
            }
            Value::Struct(fields) => Json::Object(
                fields
                    .iter()
                    .map(|(name, value)| (name.clone(), Json::from(value)))
                    .collect(),
            ),
            Value::Array(array) => {
                let mut object = serde_json::Map::new();
                object.insert("type".into(), Json::String(array.ty.to_string()));
                object.insert("value".into(), Json::from(&array.value));
                Json::Object(object)
            }
        }
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> serde_json::Value {
        serde_json::Value::from(&value)
    }
}

impl From<serde_json::Value> for Value {
    /// `null` becomes `Missing`, integers `Int64` (or `UInt64` above `i64::MAX`), other numbers
    /// `Float64`, arrays `List` and objects `Struct` (in the object's key order).
    fn from(json: serde_json::Value) -> Value {
        use serde_json::Value as Json;
        match json {
            Json::Null => Value::Missing,
            Json::Bool(v) => Value::Bool(v),
            Json::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(v), _, _) => Value::Int64(v),
                (None, Some(v), _) => Value::UInt64(v),
                (None, None, Some(v)) => Value::Float64(v),
                (None, None, None) => Value::Missing,
            },
            Json::String(v) => Value::String(v),
            Json::Array(items) => Value::List(items.into_iter().map(Value::from).collect()),
            Json::Object(fields) => Value::Struct(
                fields
                    .into_iter()
                    .map(|(name, value)| (name, Value::from(value)))
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_no_nan_and_no_128_bit_numbers() {
        let value = Value::Tuple(vec![
            Value::Float64(f64::NAN),
            Value::Int128(i128::MIN),
            Value::UInt128(7),
            // An int128 past i64 is a string even where a u64 would hold it.
            Value::Int128(i128::from(u64::MAX)),
            Value::Int128(-5),
            Value::UInt128(u128::MAX),
            Value::Bytes(vec![1]),
            Value::Type(Type::Bool),
        ]);
        assert_eq!(
            serde_json::Value::from(&value),
            serde_json::json!([
                null,
                "-170141183460469231731687303715884105728",
                7,
                "18446744073709551615",
                -5,
                "340282366920938463463374607431768211455",
                [1],
                "bool"
            ])
        );
    }
}
