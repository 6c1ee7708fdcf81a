//! One scalar value to and from its bytes: the little-endian width Velox stores per type.

use super::types::Type;
use super::value::{Timestamp, Value};
use super::vector::type_mismatch;
use crate::error::{Error, ErrorKind, Result};

/// Appends the little-endian bytes of a fixed-width scalar `value` of type `ty` (zeros for null).
///
/// A `DECIMAL` value must have the type's scale and fewer digits than its precision: Velox
/// would store more, but could not print or compute with them.
pub(crate) fn encode_scalar(ty: &Type, value: &Value, out: &mut Vec<u8>) -> Result<()> {
    match (ty, value) {
        (ty, Value::Null) => out.resize(out.len() + ty.fixed_width().unwrap_or(0), 0),
        (Type::Boolean, Value::Boolean(v)) => out.push(u8::from(*v)),
        (Type::TinyInt, Value::TinyInt(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Type::SmallInt, Value::SmallInt(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Type::Integer, Value::Integer(v)) | (Type::Date, Value::Date(v)) => {
            out.extend_from_slice(&v.to_le_bytes())
        }
        (Type::IntervalYearMonth, Value::IntervalYearMonth(v)) => {
            out.extend_from_slice(&v.to_le_bytes())
        }
        (Type::BigInt, Value::BigInt(v)) | (Type::IntervalDayTime, Value::IntervalDayTime(v)) => {
            out.extend_from_slice(&v.to_le_bytes())
        }
        (Type::Real, Value::Real(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Type::Double, Value::Double(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Type::HugeInt, Value::HugeInt(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Type::Timestamp, Value::Timestamp(v)) => {
            out.extend_from_slice(&v.seconds.to_le_bytes());
            out.extend_from_slice(&v.nanos.to_le_bytes());
        }
        (
            Type::Decimal { precision, scale },
            Value::Decimal {
                unscaled,
                scale: value_scale,
            },
        ) => {
            // A precision over 38 (a type built without `Type::decimal`) has no limit to check.
            let limit = 10u128
                .checked_pow(u32::from(*precision))
                .unwrap_or(u128::MAX);
            if value_scale != scale || unscaled.unsigned_abs() >= limit {
                return Err(type_mismatch(ty, value));
            }
            if *precision <= 18 {
                // Fits: |unscaled| < 10^18.
                out.extend_from_slice(&(*unscaled as i64).to_le_bytes());
            } else {
                out.extend_from_slice(&unscaled.to_le_bytes());
            }
        }
        (ty, other) => return Err(type_mismatch(ty, other)),
    }
    Ok(())
}

/// The first `N` bytes of `bytes`, zero-padded (callers pass exactly `N`).
fn le<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    for (dst, src) in out.iter_mut().zip(bytes) {
        *dst = *src;
    }
    out
}

/// The value of a scalar of type `ty` from its constant-form bytes.
pub(crate) fn decode_scalar(ty: &Type, bytes: &[u8]) -> Result<Value> {
    Ok(match ty {
        Type::Boolean => Value::Boolean(bytes.first().is_some_and(|&b| b != 0)),
        Type::TinyInt => Value::TinyInt(i8::from_le_bytes(le(bytes))),
        Type::SmallInt => Value::SmallInt(i16::from_le_bytes(le(bytes))),
        Type::Integer => Value::Integer(i32::from_le_bytes(le(bytes))),
        Type::Date => Value::Date(i32::from_le_bytes(le(bytes))),
        Type::IntervalYearMonth => Value::IntervalYearMonth(i32::from_le_bytes(le(bytes))),
        Type::BigInt => Value::BigInt(i64::from_le_bytes(le(bytes))),
        Type::IntervalDayTime => Value::IntervalDayTime(i64::from_le_bytes(le(bytes))),
        Type::Real => Value::Real(f32::from_le_bytes(le(bytes))),
        Type::Double => Value::Double(f64::from_le_bytes(le(bytes))),
        Type::HugeInt => Value::HugeInt(i128::from_le_bytes(le(bytes))),
        Type::Decimal { precision, scale } => Value::Decimal {
            unscaled: if *precision <= 18 {
                i128::from(i64::from_le_bytes(le(bytes)))
            } else {
                i128::from_le_bytes(le(bytes))
            },
            scale: *scale,
        },
        Type::Timestamp => Value::Timestamp(Timestamp {
            seconds: i64::from_le_bytes(le(bytes)),
            nanos: u64::from_le_bytes(le(bytes.get(8..).unwrap_or(&[]))),
        }),
        Type::Varchar | Type::Json => {
            let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
                Error::with_message(ErrorKind::InvalidUtf8, format_args!("{ty} value"))
            })?;
            if *ty == Type::Json {
                Value::Json(text)
            } else {
                Value::Varchar(text)
            }
        }
        Type::Varbinary => Value::Varbinary(bytes.to_vec()),
        Type::Unknown => Value::Null,
        complex => return Err(type_mismatch(complex, "a scalar")),
    })
}
