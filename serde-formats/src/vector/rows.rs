//! The serde bridge: rows of any serde type to a FLAT vector and back through any encoding.
//!
//! Serialization goes through [`Value`]: each row becomes a value, the type is inferred from all
//! rows, then [`Vector::from_values`] builds the flat vector. Deserialization reads each row's
//! [`Value`] through the encodings and hands it to `T::deserialize`.

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{DeserializeOwned, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

use super::types::Type;
use super::value::{Timestamp, Value};
use super::vector::{type_mismatch, Vector};
use crate::error::{Error, ErrorKind, Result};

/// A FLAT vector holding `rows`: a `ROW` vector when `T` is a struct.
///
/// | serde | vector type |
/// | --- | --- |
/// | `bool` | `BOOLEAN` |
/// | `i8`, `i16`, `i32`, `i64`, `i128` | `TINYINT`, `SMALLINT`, `INTEGER`, `BIGINT`, `HUGEINT` |
/// | `u8`, `u16`, `u32`, `u64` | widened: `SMALLINT`, `INTEGER`, `BIGINT`, `HUGEINT` |
/// | `u128` | `HUGEINT` (values over `i128::MAX` are an error) |
/// | `f32`, `f64` | `REAL`, `DOUBLE` |
/// | `char`, `str` | `VARCHAR` |
/// | bytes (`serde_bytes`) | `VARBINARY` |
/// | `None` / `Some(v)` | null / `v` |
/// | sequences | `ARRAY` |
/// | maps | `MAP` |
/// | structs | `ROW` with the field names |
/// | tuples, tuple structs | `ROW` with fields `c0`, `c1`, ... |
/// | unit, unit structs | `ROW` without fields |
/// | newtype structs | the inner value |
/// | unit enum variants | `VARCHAR` of the variant name |
///
/// The type comes from all rows together: a field that is `None` in every row (or a sequence
/// that is empty in every row) has no type to find and becomes `BOOLEAN`, all null (or
/// empty); it reads back as `None` (or empty) for any `T`.
///
/// # Errors
/// [`ErrorKind::Unsupported`] for enum variants with data; [`ErrorKind::TypeMismatch`] when rows
/// disagree on a type (e.g. a field skipped in some rows); [`ErrorKind::IntegerOverflow`] for a
/// `u128` over `i128::MAX`; errors of `T::serialize`.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use serde_formats::vector::{from_rows, to_rows, Type};
/// #[derive(Serialize, Deserialize, PartialEq, Debug)]
/// struct Trade { id: i64, note: Option<String> }
/// let rows = vec![Trade { id: 1, note: None }, Trade { id: 2, note: Some("x".into()) }];
/// let v = from_rows(&rows)?;
/// assert_eq!(v.ty(), &Type::row([("id", Type::BigInt), ("note", Type::Varchar)]));
/// assert_eq!(to_rows::<Trade>(&v)?, rows);
/// # Ok::<(), serde_formats::Error>(())
/// ```
pub fn from_rows<T: Serialize>(rows: &[T]) -> Result<Vector> {
    let values = rows
        .iter()
        .map(|row| row.serialize(ValueSerializer))
        .collect::<Result<Vec<_>>>()?;
    let mut shape = Shape::Unknown;
    for value in &values {
        shape.merge(value)?;
    }
    Vector::from_values(shape.into_type(), &values)
}

/// The rows of `vector`, read through any encoding, as `T`s.
///
/// Integers convert to any integer type they fit; a `ROW` deserializes as a struct (by field
/// name), a tuple or a map; a null row or field as `None` or unit. `DATE` is its `i32` days,
/// `INTERVAL DAY TO SECOND` its `i64` milliseconds, `INTERVAL YEAR TO MONTH` its `i32` months,
/// `JSON` its text, and `DECIMAL` the exact decimal text (`"-1.23"`; parse it with a decimal
/// crate); `TIMESTAMP` is `(seconds, nanos)`.
///
/// # Errors
/// [`ErrorKind::NotLoaded`] through an unloaded lazy vector; [`ErrorKind::Message`] when a value
/// does not fit `T` (the message says why).
pub fn to_rows<T: DeserializeOwned>(vector: &Vector) -> Result<Vec<T>> {
    (0..vector.len())
        .map(|row| T::deserialize(ValueDeserializer(vector.value(row)?)))
        .collect()
}

/// A type inferred from values, with holes where only nulls or empty collections were seen.
enum Shape {
    Unknown,
    Scalar(Type),
    Array(Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    Row(Vec<(String, Shape)>),
}

fn scalar_type(value: &Value) -> Option<Type> {
    Some(match value {
        Value::Boolean(_) => Type::Boolean,
        Value::TinyInt(_) => Type::TinyInt,
        Value::SmallInt(_) => Type::SmallInt,
        Value::Integer(_) => Type::Integer,
        Value::BigInt(_) => Type::BigInt,
        Value::Real(_) => Type::Real,
        Value::Double(_) => Type::Double,
        Value::Varchar(_) => Type::Varchar,
        Value::Varbinary(_) => Type::Varbinary,
        Value::Timestamp(_) => Type::Timestamp,
        Value::HugeInt(_) => Type::HugeInt,
        Value::Date(_) => Type::Date,
        Value::IntervalDayTime(_) => Type::IntervalDayTime,
        Value::IntervalYearMonth(_) => Type::IntervalYearMonth,
        Value::Json(_) => Type::Json,
        Value::Decimal { scale, .. } => Type::Decimal {
            precision: super::MAX_DECIMAL_PRECISION,
            scale: *scale,
        },
        _ => return None,
    })
}

impl Shape {
    fn merge(&mut self, value: &Value) -> Result<()> {
        if value.is_null() {
            return Ok(());
        }
        if let Shape::Unknown = self {
            *self = match value {
                Value::Array(_) => Shape::Array(Box::new(Shape::Unknown)),
                Value::Map(_) => Shape::Map(Box::new(Shape::Unknown), Box::new(Shape::Unknown)),
                Value::Row(fields) => Shape::Row(
                    fields
                        .iter()
                        .map(|(name, _)| (name.clone(), Shape::Unknown))
                        .collect(),
                ),
                scalar => Shape::Scalar(scalar_type(scalar).unwrap_or(Type::Boolean)),
            };
        }
        match (self, value) {
            (Shape::Array(element), Value::Array(items)) => {
                items.iter().try_for_each(|item| element.merge(item))
            }
            (Shape::Map(key, entry), Value::Map(pairs)) => pairs.iter().try_for_each(|(k, v)| {
                key.merge(k)?;
                entry.merge(v)
            }),
            (Shape::Row(fields), Value::Row(values))
                if fields.len() == values.len()
                    && fields.iter().zip(values).all(|((a, _), (b, _))| a == b) =>
            {
                fields
                    .iter_mut()
                    .zip(values)
                    .try_for_each(|((_, shape), (_, value))| shape.merge(value))
            }
            (Shape::Scalar(ty), value) if scalar_type(value).as_ref() == Some(ty) => Ok(()),
            (shape, value) => {
                let ty = std::mem::replace(shape, Shape::Unknown).into_type();
                Err(type_mismatch(&ty, value))
            }
        }
    }

    fn into_type(self) -> Type {
        match self {
            Shape::Unknown => Type::Boolean,
            Shape::Scalar(ty) => ty,
            Shape::Array(element) => Type::Array(Box::new(element.into_type())),
            Shape::Map(key, value) => {
                Type::Map(Box::new(key.into_type()), Box::new(value.into_type()))
            }
            Shape::Row(fields) => Type::Row(
                fields
                    .into_iter()
                    .map(|(name, shape)| (name, shape.into_type()))
                    .collect(),
            ),
        }
    }
}

#[cold]
fn unsupported(what: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format_args!("{what} has no vector type"),
    )
}

/// Turns one serde value into a [`Value`].
struct ValueSerializer;

/// Collects the elements of a sequence, tuple or struct.
struct Compound {
    /// `None` for a sequence (→ ARRAY); field names for tuples (`c0`, ...) and structs (→ ROW).
    names: Option<Vec<String>>,
    values: Vec<Value>,
}

impl Compound {
    fn finish(self) -> Value {
        match self.names {
            None => Value::Array(self.values),
            Some(names) => Value::Row(names.into_iter().zip(self.values).collect()),
        }
    }

    fn push_positional<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if let Some(names) = &mut self.names {
            names.push(format!("c{}", names.len()));
        }
        self.values.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
}

struct MapBuilder {
    entries: Vec<(Value, Value)>,
    key: Option<Value>,
}

// A scalar is the Velox value that holds it: `Type(wider)` widens an unsigned integer to the
// next signed type.
macro_rules! serialize_into {
    ($($method:ident($ty:ty) => $variant:ident $(($wider:ty))?;)*) => {
        $(fn $method(self, v: $ty) -> Result<Value> {
            Ok(Value::$variant($(<$wider>::from)?(v)))
        })*
    };
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Compound;
    type SerializeTuple = Compound;
    type SerializeTupleStruct = Compound;
    type SerializeTupleVariant = ser::Impossible<Value, Error>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = Compound;
    type SerializeStructVariant = ser::Impossible<Value, Error>;

    serialize_into! {
        serialize_bool(bool) => Boolean;
        serialize_i8(i8) => TinyInt;
        serialize_i16(i16) => SmallInt;
        serialize_i32(i32) => Integer;
        serialize_i64(i64) => BigInt;
        serialize_i128(i128) => HugeInt;
        serialize_u8(u8) => SmallInt(i16);
        serialize_u16(u16) => Integer(i32);
        serialize_u32(u32) => BigInt(i64);
        serialize_u64(u64) => HugeInt(i128);
    }
    fn serialize_u128(self, v: u128) -> Result<Value> {
        i128::try_from(v).map(Value::HugeInt).map_err(|_| {
            Error::with_message(ErrorKind::IntegerOverflow, format_args!("{v} over HUGEINT"))
        })
    }
    serialize_into! {
        serialize_f32(f32) => Real;
        serialize_f64(f64) => Double;
    }
    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(Value::Varchar(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::Varchar(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        Ok(Value::Varbinary(v.to_vec()))
    }
    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Row(Vec::new()))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Row(Vec::new()))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value> {
        Ok(Value::Varchar(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Value> {
        Err(unsupported("an enum variant with data"))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound> {
        Ok(Compound {
            names: None,
            values: Vec::with_capacity(len.unwrap_or(0).min(1024)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound> {
        Ok(Compound {
            names: Some(Vec::with_capacity(len.min(1024))),
            values: Vec::with_capacity(len.min(1024)),
        })
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(unsupported("an enum variant with data"))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder> {
        Ok(MapBuilder {
            entries: Vec::with_capacity(len.unwrap_or(0).min(1024)),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound> {
        self.serialize_tuple(len)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(unsupported("an enum variant with data"))
    }
}

/// Sequences, tuples and tuple structs all become positional values of one [`Compound`];
/// the three serde traits differ only in the name of the method that adds an element.
macro_rules! positional_compound {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound {
            type Ok = Value;
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.push_positional(value)
            }
            fn end(self) -> Result<Value> {
                Ok(self.finish())
            }
        }
    )*};
}

positional_compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl ser::SerializeStruct for Compound {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        if let Some(names) = &mut self.names {
            names.push(key.to_owned());
        }
        self.values.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(self.finish())
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key.serialize(ValueSerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::with_message(ErrorKind::Message, "map value without key"))?;
        self.entries.push((key, value.serialize(ValueSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Map(self.entries))
    }
}

/// Hands one owned [`Value`] to a `Deserialize` implementation.
struct ValueDeserializer(Value);

impl<'de> IntoDeserializer<'de, Error> for ValueDeserializer {
    type Deserializer = ValueDeserializer;
    fn into_deserializer(self) -> ValueDeserializer {
        self
    }
}

fn visit_row<'de, V: Visitor<'de>>(fields: Vec<(String, Value)>, visitor: V) -> Result<V::Value> {
    let mut map = MapDeserializer::new(
        fields
            .into_iter()
            .map(|(name, v)| (name, ValueDeserializer(v))),
    );
    let value = visitor.visit_map(&mut map)?;
    map.end()?;
    Ok(value)
}

fn visit_values<'de, V: Visitor<'de>>(values: Vec<Value>, visitor: V) -> Result<V::Value> {
    let mut seq = SeqDeserializer::new(values.into_iter().map(ValueDeserializer));
    let value = visitor.visit_seq(&mut seq)?;
    seq.end()?;
    Ok(value)
}

fn visit_timestamp<'de, V: Visitor<'de>>(ts: Timestamp, visitor: V) -> Result<V::Value> {
    visit_values(
        vec![
            Value::BigInt(ts.seconds),
            Value::HugeInt(i128::from(ts.nanos)),
        ],
        visitor,
    )
}

impl<'de> serde::Deserializer<'de> for ValueDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Boolean(v) => visitor.visit_bool(v),
            Value::TinyInt(v) => visitor.visit_i8(v),
            Value::SmallInt(v) => visitor.visit_i16(v),
            Value::Integer(v) => visitor.visit_i32(v),
            Value::BigInt(v) => visitor.visit_i64(v),
            Value::HugeInt(v) => visitor.visit_i128(v),
            Value::Real(v) => visitor.visit_f32(v),
            Value::Double(v) => visitor.visit_f64(v),
            Value::Varchar(v) => visitor.visit_string(v),
            Value::Varbinary(v) => visitor.visit_byte_buf(v),
            Value::Timestamp(v) => visit_timestamp(v, visitor),
            Value::Date(days) => visitor.visit_i32(days),
            Value::IntervalDayTime(millis) => visitor.visit_i64(millis),
            Value::IntervalYearMonth(months) => visitor.visit_i32(months),
            Value::Json(text) => visitor.visit_string(text),
            decimal @ Value::Decimal { .. } => visitor.visit_string(decimal.to_string()),
            Value::Array(values) => visit_values(values, visitor),
            Value::Map(entries) => {
                let mut map = MapDeserializer::new(
                    entries
                        .into_iter()
                        .map(|(k, v)| (ValueDeserializer(k), ValueDeserializer(v))),
                );
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
            Value::Row(fields) => visit_row(fields, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            value => visitor.visit_some(ValueDeserializer(value)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Row(fields) if fields.is_empty() => visitor.visit_unit(),
            other => ValueDeserializer(other).deserialize_any(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        match self.0 {
            Value::Row(fields) => {
                visit_values(fields.into_iter().map(|(_, v)| v).collect(), visitor)
            }
            other => ValueDeserializer(other).deserialize_any(visitor),
        }
    }

    deserializer_methods! {
        fn deserialize_unit_struct(self, _name, visitor) => self.deserialize_unit(visitor);
        fn deserialize_newtype_struct(self, _name, visitor) => visitor.visit_newtype_struct(self);
        fn deserialize_tuple_struct(self, _name, len, visitor) =>
            self.deserialize_tuple(len, visitor);
        fn deserialize_enum(self, _name, _variants, visitor) => match self.0 {
            Value::Varchar(variant) => {
                visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(variant))
            }
            _ => Err(unsupported("an enum other than a VARCHAR variant name")),
        };
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        seq map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Side {
        Buy,
        Sell,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Order {
        id: u32,
        side: Side,
        price: f64,
        tags: Vec<String>,
        attrs: BTreeMap<String, i16>,
        note: Option<String>,
        pair: (i8, bool),
        raw: Option<Vec<u8>>,
    }

    fn orders() -> Vec<Order> {
        vec![
            Order {
                id: 1,
                side: Side::Buy,
                price: 1.5,
                tags: vec!["a".into(), "a long tag over twelve bytes".into()],
                attrs: BTreeMap::from([("k".to_owned(), -3)]),
                note: None,
                pair: (-1, true),
                raw: Some(vec![1, 2]),
            },
            Order {
                id: u32::MAX,
                side: Side::Sell,
                price: -0.0,
                tags: vec![],
                attrs: BTreeMap::new(),
                note: Some("n".into()),
                pair: (127, false),
                raw: None,
            },
        ]
    }

    #[test]
    fn struct_fields_become_row_children_with_widened_integers() {
        let v = from_rows(&orders()).unwrap();
        assert_eq!(
            v.ty(),
            &Type::row([
                ("id", Type::BigInt),
                ("side", Type::Varchar),
                ("price", Type::Double),
                ("tags", Type::array(Type::Varchar)),
                ("attrs", Type::map(Type::Varchar, Type::SmallInt)),
                ("note", Type::Varchar),
                (
                    "pair",
                    Type::row([("c0", Type::TinyInt), ("c1", Type::Boolean)])
                ),
                ("raw", Type::array(Type::SmallInt)),
            ])
        );
        assert_eq!(v.len(), 2);
        assert_eq!(to_rows::<Order>(&v).unwrap(), orders());
    }

    #[test]
    fn dictionary_wrapped_rows_convert_back() {
        let flat = from_rows(&orders()).unwrap();
        let dict = Vector::dictionary(flat, vec![1, 0, 1], Some(vec![false, false, true])).unwrap();
        let rows: Vec<Option<Order>> = to_rows(&dict).unwrap();
        assert_eq!(
            rows,
            vec![Some(orders()[1].clone()), Some(orders()[0].clone()), None]
        );
    }

    #[test]
    fn all_none_field_gets_boolean_type_and_reads_back_as_none() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Sparse {
            x: Option<String>,
        }
        let rows = vec![Sparse { x: None }, Sparse { x: None }];
        let v = from_rows(&rows).unwrap();
        assert_eq!(v.ty(), &Type::row([("x", Type::Boolean)]));
        assert_eq!(to_rows::<Sparse>(&v).unwrap(), rows);
    }

    #[test]
    fn rejects_data_enums_and_disagreeing_rows() {
        #[derive(Serialize)]
        enum Shape {
            Circle(f64),
        }
        let err = from_rows(&[Shape::Circle(1.0)]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported);
        let rows = [serde_json::json!({"a": 1}), serde_json::json!({"a": "x"})];
        assert_eq!(
            from_rows(&rows).unwrap_err().kind(),
            ErrorKind::TypeMismatch
        );
    }

    #[test]
    fn out_of_range_integer_is_an_error_not_a_wrap() {
        let v = from_rows(&[300i64]).unwrap();
        let err = to_rows::<u8>(&v).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Message);
    }
}
