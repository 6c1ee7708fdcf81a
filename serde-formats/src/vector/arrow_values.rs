//! The row-by-row half of the Arrow bridge (`arrow.rs`): Arrow scalars read as [`Value`]s, and
//! Arrow arrays built from [`Value`]s for the types and encodings whose bytes differ between
//! the two (TIMESTAMP, short DECIMAL, strings, nested types, constants and expanded
//! dictionaries).

use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, BooleanBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, DurationMillisecondType, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, IntervalYearMonthType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{Array, ArrayRef, ListArray, MapArray, NullArray, PrimitiveArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, IntervalUnit, TimeUnit};

use super::arrow::{
    arrow_err, entries_field, fit_i32, list_field, struct_array, unsupported, unsupported_type,
};
use super::types::Type;
use super::value::{row_columns, Timestamp, Value};
use crate::error::{Error, ErrorKind, Result};

/// Row `row` of a scalar Arrow array as a [`Value`].
pub(super) fn scalar_value(array: &dyn Array, row: usize) -> Result<Value> {
    if array.is_null(row) || *array.data_type() == DataType::Null {
        return Ok(Value::Null);
    }
    Ok(match array.data_type() {
        DataType::Boolean => Value::Boolean(array.as_boolean().value(row)),
        DataType::Int8 => Value::TinyInt(array.as_primitive::<Int8Type>().value(row)),
        DataType::Int16 => Value::SmallInt(array.as_primitive::<Int16Type>().value(row)),
        DataType::Int32 => Value::Integer(array.as_primitive::<Int32Type>().value(row)),
        DataType::Int64 => Value::BigInt(array.as_primitive::<Int64Type>().value(row)),
        DataType::Float32 => Value::Real(array.as_primitive::<Float32Type>().value(row)),
        DataType::Float64 => Value::Double(array.as_primitive::<Float64Type>().value(row)),
        DataType::Utf8 => Value::Varchar(array.as_string::<i32>().value(row).to_owned()),
        DataType::LargeUtf8 => Value::Varchar(array.as_string::<i64>().value(row).to_owned()),
        DataType::Utf8View => Value::Varchar(array.as_string_view().value(row).to_owned()),
        DataType::Binary => Value::Varbinary(array.as_binary::<i32>().value(row).to_vec()),
        DataType::LargeBinary => Value::Varbinary(array.as_binary::<i64>().value(row).to_vec()),
        DataType::BinaryView => Value::Varbinary(array.as_binary_view().value(row).to_vec()),
        DataType::Date32 => Value::Date(array.as_primitive::<Date32Type>().value(row)),
        DataType::Decimal128(_, scale) => Value::Decimal {
            unscaled: array.as_primitive::<Decimal128Type>().value(row),
            scale: *scale as u8,
        },
        DataType::Duration(TimeUnit::Millisecond) => {
            Value::IntervalDayTime(array.as_primitive::<DurationMillisecondType>().value(row))
        }
        DataType::Interval(IntervalUnit::YearMonth) => {
            Value::IntervalYearMonth(array.as_primitive::<IntervalYearMonthType>().value(row))
        }
        DataType::Timestamp(unit, None) => {
            let (value, per_second) = match unit {
                TimeUnit::Second => (array.as_primitive::<TimestampSecondType>().value(row), 1),
                TimeUnit::Millisecond => (
                    array.as_primitive::<TimestampMillisecondType>().value(row),
                    1_000,
                ),
                TimeUnit::Microsecond => (
                    array.as_primitive::<TimestampMicrosecondType>().value(row),
                    1_000_000,
                ),
                TimeUnit::Nanosecond => (
                    array.as_primitive::<TimestampNanosecondType>().value(row),
                    1_000_000_000,
                ),
            };
            Value::Timestamp(Timestamp {
                seconds: value.div_euclid(per_second),
                nanos: (value.rem_euclid(per_second) * (1_000_000_000 / per_second)) as u64,
            })
        }
        other => return Err(unsupported_type(other)),
    })
}

/// Builds the Arrow array of type [`arrow_type`](super::arrow::arrow_type)`(ty)` holding `values`.
pub(super) fn values_to_arrow(ty: &Type, values: &[Value]) -> Result<ArrayRef> {
    macro_rules! primitive {
        ($arrow:ty, $variant:ident) => {{
            let items = values
                .iter()
                .map(|value| match value {
                    Value::Null => Ok(None),
                    Value::$variant(v) => Ok(Some(*v)),
                    other => Err(mismatch(ty, other)),
                })
                .collect::<Result<Vec<_>>>()?;
            Arc::new(PrimitiveArray::<$arrow>::from(items)) as ArrayRef
        }};
    }
    Ok(match ty {
        Type::Boolean => {
            let mut builder = BooleanBuilder::with_capacity(values.len());
            for value in values {
                match value {
                    Value::Null => builder.append_null(),
                    Value::Boolean(v) => builder.append_value(*v),
                    other => return Err(mismatch(ty, other)),
                }
            }
            Arc::new(builder.finish())
        }
        Type::TinyInt => primitive!(Int8Type, TinyInt),
        Type::SmallInt => primitive!(Int16Type, SmallInt),
        Type::Integer => primitive!(Int32Type, Integer),
        Type::BigInt => primitive!(Int64Type, BigInt),
        Type::Real => primitive!(Float32Type, Real),
        Type::Double => primitive!(Float64Type, Double),
        Type::Date => primitive!(Date32Type, Date),
        Type::IntervalDayTime => primitive!(DurationMillisecondType, IntervalDayTime),
        Type::IntervalYearMonth => primitive!(IntervalYearMonthType, IntervalYearMonth),
        Type::Varchar | Type::Json => {
            let mut builder = StringBuilder::new();
            for value in values {
                match value {
                    Value::Null => builder.append_null(),
                    Value::Varchar(text) | Value::Json(text) => builder.append_value(text),
                    other => return Err(mismatch(ty, other)),
                }
            }
            Arc::new(builder.finish())
        }
        Type::Varbinary => {
            let mut builder = BinaryBuilder::new();
            for value in values {
                match value {
                    Value::Null => builder.append_null(),
                    Value::Varbinary(bytes) => builder.append_value(bytes),
                    other => return Err(mismatch(ty, other)),
                }
            }
            Arc::new(builder.finish())
        }
        Type::Timestamp => {
            let items = values
                .iter()
                .map(|value| match value {
                    Value::Null => Ok(None),
                    Value::Timestamp(ts) => timestamp_nanos(ts).map(Some),
                    other => Err(mismatch(ty, other)),
                })
                .collect::<Result<Vec<_>>>()?;
            Arc::new(PrimitiveArray::<TimestampNanosecondType>::from(items))
        }
        &Type::Decimal { precision, scale } => {
            let items = values
                .iter()
                .map(|value| match value {
                    Value::Null => Ok(None),
                    Value::Decimal { unscaled, .. } => Ok(Some(*unscaled)),
                    other => Err(mismatch(ty, other)),
                })
                .collect::<Result<Vec<_>>>()?;
            Arc::new(
                PrimitiveArray::<Decimal128Type>::from(items)
                    .with_precision_and_scale(precision, scale as i8)
                    .map_err(arrow_err)?,
            )
        }
        Type::Unknown => Arc::new(NullArray::new(values.len())),
        Type::HugeInt => return Err(unsupported("HUGEINT has no Arrow type")),
        Type::Row(fields) => {
            let columns = row_columns(values, fields.len()).map_err(|other| mismatch(ty, other))?;
            let arrays = fields
                .iter()
                .zip(&columns)
                .map(|((_, ty), column)| values_to_arrow(ty, column))
                .collect::<Result<Vec<_>>>()?;
            struct_array(fields, arrays, value_nulls(values), values.len())?
        }
        Type::Array(element) => {
            let mut offsets = vec![0i32];
            let mut items = Vec::new();
            for value in values {
                match value {
                    Value::Null => {}
                    Value::Array(list) => items.extend(list.iter().cloned()),
                    other => return Err(mismatch(ty, other)),
                }
                offsets.push(fit_i32(items.len() as i64)?);
            }
            let child = values_to_arrow(element, &items)?;
            Arc::new(
                ListArray::try_new(
                    Arc::new(list_field(element)?),
                    OffsetBuffer::new(ScalarBuffer::from(offsets)),
                    child,
                    value_nulls(values),
                )
                .map_err(arrow_err)?,
            )
        }
        Type::Map(key_ty, value_ty) => {
            let mut offsets = vec![0i32];
            let (mut keys, mut items) = (Vec::new(), Vec::new());
            for value in values {
                match value {
                    Value::Null => {}
                    Value::Map(entries) => {
                        for (key, item) in entries {
                            if key.is_null() {
                                return Err(unsupported(
                                    "a null MAP key (Arrow map keys cannot be null)",
                                ));
                            }
                            keys.push(key.clone());
                            items.push(item.clone());
                        }
                    }
                    other => return Err(mismatch(ty, other)),
                }
                offsets.push(fit_i32(keys.len() as i64)?);
            }
            let entries_field = entries_field(key_ty, value_ty)?;
            let DataType::Struct(entry_fields) = entries_field.data_type().clone() else {
                return Err(unsupported("a MAP entries type that is not a struct"));
            };
            let entries = StructArray::try_new(
                entry_fields,
                vec![
                    values_to_arrow(key_ty, &keys)?,
                    values_to_arrow(value_ty, &items)?,
                ],
                None,
            )
            .map_err(arrow_err)?;
            Arc::new(
                MapArray::try_new(
                    Arc::new(entries_field),
                    OffsetBuffer::new(ScalarBuffer::from(offsets)),
                    entries,
                    value_nulls(values),
                    false,
                )
                .map_err(arrow_err)?,
            )
        }
    })
}

/// Nanoseconds since the epoch, or a one-line refusal naming the value.
fn timestamp_nanos(ts: &Timestamp) -> Result<i64> {
    i128::from(ts.seconds)
        .checked_mul(1_000_000_000)
        .and_then(|n| n.checked_add(i128::from(ts.nanos)))
        .and_then(|n| i64::try_from(n).ok())
        .ok_or_else(|| {
            unsupported(format_args!(
                "TIMESTAMP {ts} does not fit Arrow's Timestamp(Nanosecond) (years 1677 to 2262)"
            ))
        })
}

fn value_nulls(values: &[Value]) -> Option<NullBuffer> {
    values
        .iter()
        .any(Value::is_null)
        .then(|| NullBuffer::from(values.iter().map(|v| !v.is_null()).collect::<Vec<bool>>()))
}

fn mismatch(ty: &Type, value: &Value) -> Error {
    Error::with_message(
        ErrorKind::TypeMismatch,
        format_args!("a {ty} vector holds {value:?}"),
    )
}
