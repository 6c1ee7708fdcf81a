//! [`Array`]: a value with its [`Type`], serialized as `array[Any]` = (type string, data), and
//! the typed walk that lays a [`Value`] out in the bytes its type gives (and reads it back).

use std::fmt;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeSeq, SerializeTupleStruct};
use serde::{Deserialize, Deserializer};

use super::datashape::{Type, TYPE_DEPTH_LIMIT};
use super::value::Value;
use crate::limits::{self, Nesting};
use crate::{Error, ErrorKind, Position, Result};

/// A value with its datashape type; serialized as DyND's `array[Any]`: the type as a `string`
/// in its canonical spelling, then the data laid out by that type.
///
/// ```
/// use serde_formats::dynd::{self, Array, Type, Value};
///
/// let array = Array {
///     ty: "2 * ?int8".parse().unwrap(),
///     value: Value::List(vec![Value::Int8(7), Value::Missing]),
/// };
/// let bytes = dynd::to_bytes(&array).unwrap();
/// assert_eq!(bytes, b"\x092 * ?int8\x07\x80");
/// assert_eq!(dynd::from_array_bytes(&bytes).unwrap(), array);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// The datashape of `value`.
    pub ty: Type,
    /// The data.
    pub value: Value,
}

/// The data of an [`Array`] in the layout its type gives.
struct Typed<'a> {
    ty: &'a Type,
    value: &'a Value,
}

/// The name under which a missing sentinel-typed value passes through `serialize_newtype_struct`:
/// the newtype carries the static type `Option<P>` the dynd serializer needs (see option.rs)
/// and is transparent to every other format.
const MISSING: &str = "dynd::Missing";

fn mismatch<E: ser::Error>(ty: &Type, value: &Value) -> E {
    E::custom(format_args!("value {value:?} does not fit type {ty}"))
}

/// Serializes a present value of a sentinel type through `serialize_some::<P>`, which refuses
/// the sentinel itself.
fn some_primitive<S: ser::Serializer>(ser: S, ty: &Type, value: &Value) -> Result<S::Ok, S::Error> {
    if value.primitive_type().as_ref() != Some(ty) {
        return Err(mismatch(ty, value));
    }
    value.serialize_primitive(ser, true)
}

/// The functions over the sentinel primitives, one arm each from `sentinel_primitives!`.
macro_rules! primitive_fns {
    ($($variant:ident: $ty:ty),*) => {
        /// Serializes a missing value of `?ty`, under a name that carries the static type
        /// `Option<P>` (see [`MISSING`]).
        fn missing<S: ser::Serializer>(ser: S, ty: &Type) -> Result<S::Ok, S::Error> {
            match ty {
                $(Type::$variant => ser.serialize_newtype_struct(MISSING, &None::<$ty>),)*
                // Any other payload uses the tag; `()` is such a payload.
                _ => ser.serialize_newtype_struct(MISSING, &None::<()>),
            }
        }

        /// Reads a primitive of type `ty`; any other type is an error.
        fn read_primitive<'de, D: Deserializer<'de>>(de: D, ty: &Type) -> Result<Value, D::Error> {
            match ty {
                $(Type::$variant => <$ty>::deserialize(de).map(Value::$variant),)*
                _ => Err(de::Error::custom(format_args!("{ty} is not a primitive"))),
            }
        }

        /// Reads an option `?ty` of a primitive `ty`, whose sentinel reads as missing; any other
        /// type is an error.
        fn read_primitive_option<'de, D: Deserializer<'de>>(
            de: D,
            ty: &Type,
        ) -> Result<Value, D::Error> {
            match ty {
                $(Type::$variant => Option::<$ty>::deserialize(de)
                    .map(|v| v.map_or(Value::Missing, Value::$variant)),)*
                _ => Err(de::Error::custom(format_args!("{ty} is not a primitive"))),
            }
        }
    };
}
sentinel_primitives!(primitive_fns);

fn fixed_len<E: ser::Error>(len: u64, actual: usize) -> Result<usize, E> {
    match usize::try_from(len) {
        Ok(len) if len == actual => Ok(len),
        _ => Err(E::custom(format_args!(
            "{actual} elements for a dimension of {len}"
        ))),
    }
}

impl Serialize for Typed<'_> {
    fn serialize<S: ser::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (ty, value) = (self.ty, self.value);
        match (ty, value) {
            (Type::Option(inner), Value::Missing) => missing(ser, inner),
            (Type::Option(inner), Value::Present(value)) if inner.has_sentinel() => {
                some_primitive(ser, inner, value)
            }
            (Type::Option(inner), Value::Present(value)) => {
                ser.serialize_some(&Typed { ty: inner, value })
            }
            (Type::Option(inner), _) if inner.has_sentinel() => some_primitive(ser, inner, value),
            (Type::Option(inner), _) => ser.serialize_some(&Typed { ty: inner, value }),
            (Type::Pointer(inner), _) => Typed { ty: inner, value }.serialize(ser),
            (ty, value) if value.primitive_type().as_ref() == Some(ty) => {
                value.serialize_primitive(ser, false)
            }
            (Type::ComplexFloat32, Value::ComplexFloat32(re, im)) => (re, im).serialize(ser),
            (Type::ComplexFloat64, Value::ComplexFloat64(re, im)) => (re, im).serialize(ser),
            (Type::Char, Value::Char(v)) => ser.serialize_char(*v),
            (Type::String, Value::String(v)) => ser.serialize_str(v),
            (Type::Bytes, Value::Bytes(v)) => ser.serialize_bytes(v),
            (Type::FixedBytes(len), Value::Bytes(v)) => {
                let mut tuple = ser.serialize_tuple_struct(DIMENSION, fixed_len(*len, v.len())?)?;
                for byte in v {
                    tuple.serialize_field(byte)?;
                }
                tuple.end()
            }
            (Type::Void, Value::Void) => ser.serialize_unit(),
            (Type::Type, Value::Type(v)) => ser.serialize_str(&v.to_string()),
            (Type::Fixed(len, element), Value::List(items)) => {
                // A counted level, as `TypedSeed` reads it.
                let mut tuple =
                    ser.serialize_tuple_struct(DIMENSION, fixed_len(*len, items.len())?)?;
                for item in items {
                    tuple.serialize_field(&Typed {
                        ty: element,
                        value: item,
                    })?;
                }
                tuple.end()
            }
            (Type::Var(element), Value::List(items)) => {
                let mut seq = ser.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Typed {
                        ty: element,
                        value: item,
                    })?;
                }
                seq.end()
            }
            (Type::Tuple(types), Value::Tuple(items)) if types.len() == items.len() => {
                let mut tuple = ser.serialize_tuple_struct(DIMENSION, items.len())?;
                for (ty, item) in types.iter().zip(items) {
                    tuple.serialize_field(&Typed { ty, value: item })?;
                }
                tuple.end()
            }
            (Type::Struct(fields), Value::Struct(items))
                if fields.len() == items.len()
                    && fields.iter().zip(items).all(|((a, _), (b, _))| a == b) =>
            {
                let mut tuple = ser.serialize_tuple_struct(DIMENSION, items.len())?;
                for ((_, ty), (_, item)) in fields.iter().zip(items) {
                    tuple.serialize_field(&Typed { ty, value: item })?;
                }
                tuple.end()
            }
            (Type::Array(_), Value::Array(array)) => array.serialize(ser),
            _ => Err(mismatch(ty, value)),
        }
    }
}

impl Serialize for Array {
    fn serialize<S: ser::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        check_type_nesting(&self.ty).map_err(ser::Error::custom)?;
        let mut tuple = ser.serialize_tuple_struct("dynd::Array", 2)?;
        tuple.serialize_field(&self.ty.to_string())?;
        tuple.serialize_field(&Typed {
            ty: &self.ty,
            value: &self.value,
        })?;
        tuple.end()
    }
}

/// The name under which typed data asks for packed fields: a tuple struct, so that the
/// deserializer counts every level of a type (and of nested `array[Any]`) against its depth
/// limit, and, by this name, every element that takes no bytes against the zero-sized budget
/// (writer and reader alike; the datashape comes from the input); the bytes are those of a
/// tuple.
pub(super) const DIMENSION: &str = "dynd::Fields";

/// Refuses a type whose string would not parse back: nested deeper than the depth limit.
pub(crate) fn check_type_nesting(ty: &Type) -> Result<()> {
    if ty.nesting() > TYPE_DEPTH_LIMIT {
        return Err(limits::too_deep(Nesting::Type, TYPE_DEPTH_LIMIT));
    }
    Ok(())
}

/// Whether data of type `ty` may hold elements that take no bytes, which [`TypedSeed`]
/// counts against the zero-sized budget: `void`, empty tuples and structs, `bytes[0]`, `0 * T`,
/// anything containing one, and a nested `array[Any]` (its type is known only from its data).
pub(crate) fn may_hold_zero_sized(ty: &Type) -> bool {
    match ty {
        Type::Void | Type::Array(_) | Type::Any => true,
        Type::FixedBytes(len) => *len == 0,
        Type::Fixed(len, inner) => *len == 0 || may_hold_zero_sized(inner),
        Type::Var(inner) | Type::Option(inner) | Type::Pointer(inner) => may_hold_zero_sized(inner),
        Type::Tuple(types) => types.is_empty() || types.iter().any(may_hold_zero_sized),
        Type::Struct(fields) => {
            fields.is_empty() || fields.iter().any(|(_, ty)| may_hold_zero_sized(ty))
        }
        _ => false,
    }
}

/// How many levels the deserializer counts against its depth limit reading data of `ty` as
/// [`TypedSeed`] does (a nested `array[Any]` counts one here; its own type adds more).
pub(crate) fn data_depth(ty: &Type) -> usize {
    match ty {
        Type::FixedBytes(_) => 1,
        Type::Fixed(_, inner) | Type::Var(inner) | Type::Option(inner) => 1 + data_depth(inner),
        Type::Pointer(inner) => data_depth(inner),
        Type::Tuple(types) => 1 + types.iter().map(data_depth).max().unwrap_or(0),
        Type::Struct(fields) => {
            1 + fields
                .iter()
                .map(|(_, ty)| data_depth(ty))
                .max()
                .unwrap_or(0)
        }
        Type::Array(_) => 1,
        _ => 0,
    }
}

/// Reads data laid out by a type.
struct TypedSeed<'a>(&'a Type);

fn parse_canonical(text: &str) -> Result<Type> {
    let ty: Type = text.parse()?;
    if ty.to_string() != text {
        return Err(Error::with_message(
            ErrorKind::BadType,
            format!("`{text}` is not the canonical spelling `{ty}`"),
        ));
    }
    Ok(ty)
}

impl<'de> DeserializeSeed<'de> for TypedSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        Ok(match self.0 {
            Type::ComplexFloat32 => {
                let (re, im) = <(f32, f32)>::deserialize(de)?;
                Value::ComplexFloat32(re, im)
            }
            Type::ComplexFloat64 => {
                let (re, im) = <(f64, f64)>::deserialize(de)?;
                Value::ComplexFloat64(re, im)
            }
            Type::Char => Value::Char(char::deserialize(de)?),
            Type::String => Value::String(String::deserialize(de)?),
            Type::Bytes => Value::Bytes(de.deserialize_byte_buf(BytesVisitor)?),
            Type::FixedBytes(len) => {
                let len = usize::try_from(*len).map_err(de::Error::custom)?;
                Value::Bytes(de.deserialize_tuple_struct(DIMENSION, len, BytesVisitor)?)
            }
            Type::Void => {
                <()>::deserialize(de)?;
                Value::Void
            }
            Type::Type => {
                let text = String::deserialize(de)?;
                Value::Type(parse_canonical(&text).map_err(de::Error::custom)?)
            }
            Type::Fixed(len, element) => {
                let len = usize::try_from(*len).map_err(de::Error::custom)?;
                Value::List(de.deserialize_tuple_struct(DIMENSION, len, ListVisitor(element))?)
            }
            Type::Var(element) => Value::List(de.deserialize_seq(ListVisitor(element))?),
            Type::Tuple(types) => Value::Tuple(de.deserialize_tuple_struct(
                DIMENSION,
                types.len(),
                FieldsVisitor(types.iter()),
            )?),
            Type::Struct(fields) => {
                let values = de.deserialize_tuple_struct(
                    DIMENSION,
                    fields.len(),
                    FieldsVisitor(fields.iter().map(|(_, ty)| ty)),
                )?;
                Value::Struct(
                    fields
                        .iter()
                        .map(|(name, _)| name.clone())
                        .zip(values)
                        .collect(),
                )
            }
            Type::Option(inner) if inner.has_sentinel() => read_primitive_option(de, inner)?,
            Type::Option(inner) => de.deserialize_option(TaggedOptionVisitor(inner))?,
            Type::Pointer(inner) => TypedSeed(inner).deserialize(de)?,
            Type::Array(_) => Value::Array(Box::new(Array::deserialize(de)?)),
            Type::Any => {
                return Err(de::Error::custom(
                    "`Any` has no data layout of its own; only `array[Any]` can be read",
                ))
            }
            primitive => read_primitive(de, primitive)?,
        })
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytes")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(byte) = seq.next_element::<u8>()? {
            bytes.push(byte);
        }
        Ok(bytes)
    }
}

struct ListVisitor<'a>(&'a Type);

impl<'de> Visitor<'de> for ListVisitor<'_> {
    type Value = Vec<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elements of {}", self.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Value>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(TypedSeed(self.0))? {
            items.push(item);
        }
        Ok(items)
    }
}

struct FieldsVisitor<I>(I);

impl<'de, 'a, I: Iterator<Item = &'a Type>> Visitor<'de> for FieldsVisitor<I> {
    type Value = Vec<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the fields of a tuple or struct")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Value>, A::Error> {
        let mut items = Vec::new();
        for (i, ty) in self.0.enumerate() {
            match seq.next_element_seed(TypedSeed(ty))? {
                Some(item) => items.push(item),
                None => return Err(de::Error::invalid_length(i, &"more fields")),
            }
        }
        Ok(items)
    }
}

struct TaggedOptionVisitor<'a>(&'a Type);

impl<'de> Visitor<'de> for TaggedOptionVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "?{}", self.0)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Missing)
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        match TypedSeed(self.0).deserialize(de)? {
            // Some(None), Some(Some(None)), ...: keep each level apart from the one below.
            value @ (Value::Missing | Value::Present(_)) => Ok(Value::Present(Box::new(value))),
            value => Ok(value),
        }
    }
}

struct ArrayVisitor;

impl<'de> Visitor<'de> for ArrayVisitor {
    type Value = Array;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("array[Any]: a type string and data")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Array, A::Error> {
        let text: std::borrow::Cow<'de, str> = match seq.next_element::<CowStr<'de>>()? {
            Some(text) => text.0,
            None => return Err(de::Error::invalid_length(0, &self)),
        };
        let ty = parse_canonical(&text).map_err(de::Error::custom)?;
        match seq.next_element_seed(TypedSeed(&ty))? {
            Some(value) => Ok(Array { ty, value }),
            None => Err(de::Error::invalid_length(1, &self)),
        }
    }
}

/// A string borrowed where the format allows it.
struct CowStr<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct CowVisitor;
        impl<'de> Visitor<'de> for CowVisitor {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<CowStr<'de>, E> {
                Ok(CowStr(v.into()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CowStr<'de>, E> {
                Ok(CowStr(v.to_owned().into()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<CowStr<'de>, E> {
                Ok(CowStr(v.into()))
            }
        }
        de.deserialize_str(CowVisitor)
    }
}

impl<'de> Deserialize<'de> for Array {
    /// Reads the type string, then the data it describes. A type string that is not in its
    /// canonical spelling is an error: the bytes of an `Array` are unique too.
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Array, D::Error> {
        de.deserialize_tuple_struct("dynd::Array", 2, ArrayVisitor)
    }
}

/// Reads an `array[Any]` with the dynd deserializer, so that type errors keep their kind and
/// point into the type string.
pub(crate) fn read_array(de: &mut super::Deserializer<'_>) -> Result<Array> {
    let text: &str = Deserialize::deserialize(&mut *de)?;
    let text_start = de.offset() - text.len();
    let ty = parse_canonical(text).map_err(|err| match err.offset() {
        Some(column) => err.with_position(Position::Byte(text_start as u64 + column)),
        None => err.with_position(Position::Byte(text_start as u64)),
    })?;
    let value = TypedSeed(&ty)
        .deserialize(&mut *de)
        .map_err(|err| de.locate(err))?;
    Ok(Array { ty, value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynd::{from_array_bytes, to_bytes};

    fn array(ty: &str, value: Value) -> Array {
        Array {
            ty: ty.parse().unwrap(),
            value,
        }
    }

    #[test]
    fn values_that_do_not_fit_their_type_are_refused() {
        for bad in [
            array("int8", Value::Int16(1)),
            array("2 * int8", Value::List(vec![Value::Int8(1)])),
            array("bytes[2]", Value::Bytes(vec![1, 2, 3])),
            array(
                "{a: int8}",
                Value::Struct(vec![("b".into(), Value::Int8(1))]),
            ),
            array("(int8, int8)", Value::Tuple(vec![Value::Int8(1)])),
            array("Any", Value::Void),
        ] {
            assert_eq!(
                to_bytes(&bad).unwrap_err().kind(),
                ErrorKind::Message,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn missing_values_use_the_sentinel_of_their_type() {
        let bytes = to_bytes(&array("?uint16", Value::Missing)).unwrap();
        assert_eq!(bytes, b"\x07?uint16\xff\xff");
        let bytes = to_bytes(&array("?(int8)", Value::Missing)).unwrap();
        assert_eq!(bytes, b"\x07?(int8)\x00");
        let err = to_bytes(&array("?int8", Value::Int8(i8::MIN))).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadSentinel);
    }

    #[test]
    fn some_of_none_stays_apart_from_none() {
        let none = array("??int8", Value::Missing);
        let some_none = array("??int8", Value::Present(Box::new(Value::Missing)));
        let some = array("??int8", Value::Int8(3));
        assert_eq!(to_bytes(&none).unwrap(), b"\x06??int8\x00");
        assert_eq!(to_bytes(&some_none).unwrap(), b"\x06??int8\x01\x80");
        assert_eq!(to_bytes(&some).unwrap(), b"\x06??int8\x01\x03");
        for a in [none, some_none, some] {
            assert_eq!(from_array_bytes(&to_bytes(&a).unwrap()).unwrap(), a);
        }
    }

    #[test]
    fn every_level_of_nested_options_stays_apart() {
        // Found by the dynd_array fuzz target: Some(Some(None)) of ???T read back as Some(None).
        let present = |v| Value::Present(Box::new(v));
        let cases = [
            (Value::Missing, &b"\x00"[..]),
            (present(Value::Missing), b"\x01\x00"),
            (present(present(Value::Missing)), b"\x01\x01\x80"),
            (Value::Int8(3), b"\x01\x01\x03"),
        ];
        for (value, data) in cases {
            let a = array("???int8", value);
            let bytes = to_bytes(&a).unwrap();
            assert_eq!(&bytes[8..], data, "{a:?}");
            assert_eq!(from_array_bytes(&bytes).unwrap(), a);
        }
        // The fuzzer's input: ???(???()) holding Some(Some(None)).
        let bytes = b"\x0a???(???())\x01\x01\x00";
        let a = from_array_bytes(bytes).unwrap();
        assert_eq!(a.value, present(present(Value::Missing)));
        assert_eq!(to_bytes(&a).unwrap(), bytes);
    }
}
