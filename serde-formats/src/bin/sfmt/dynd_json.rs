//! sfmt values as self-describing DyND arrays (`array[Any]`) and back, without losing anything.
//!
//! `dynd::infer_type` needs every element of a sequence (and every value of a map) to have one
//! type, which JSON does not promise. Here the datashape is inferred from the value itself:
//! `null` is `void`, booleans `bool`, integers `int64` (`uint64` above `i64::MAX`, `int128` /
//! `uint128` past 64 bits), float32 `float32`, float64 `float64`, strings `string`, bins
//! `bytes`, maps structs `{key: T, ...}` (string keys, all distinct). An array whose elements
//! unify is `var * T`; elements unify when their types are equal, when one is `null` (`?T`),
//! or when they are arrays, structs with the same keys, or tuples of the same length whose
//! parts unify. Any other array is a tuple `(T0, T1, ...)`, so mixed arrays convert too. Read
//! back, every value is the same (integers stay integers, `1.0` stays a float).
//!
//! Reading any DyND file: fixed-width integers become integers, `char` a string, `bytes[N]` a
//! bin, a nested `array[T]` its value, missing values and `void` null. Complex numbers, `type`
//! values and a present-but-missing `??T` have no sfmt value and are refused with their path.

use anyhow::{anyhow, bail, Result};
use serde_formats::dynd::{Array, Type, Value as Dynd};

use crate::value::{Path, Value};

/// The `array[Any]` of a value (which [`crate::value::check`] has passed for dynd).
pub fn to_array(value: &Value) -> Result<Array> {
    let ty = settle(infer(value));
    let value = convert(value, &ty)?;
    Ok(Array { ty, value })
}

/// The value of a DyND value.
pub fn from_dynd(value: Dynd) -> Result<Value> {
    read(value, &Path::default())
}

fn read(value: Dynd, path: &Path) -> Result<Value> {
    Ok(match value {
        Dynd::Missing | Dynd::Void => Value::Null,
        Dynd::Present(inner) => match *inner {
            Dynd::Missing => bail!(
                "a present optional holding a missing one (`??T`) at {path} has no sfmt value"
            ),
            inner => read(inner, path)?,
        },
        Dynd::Bool(v) => Value::Bool(v),
        Dynd::Int8(v) => Value::int(i128::from(v)),
        Dynd::Int16(v) => Value::int(i128::from(v)),
        Dynd::Int32(v) => Value::int(i128::from(v)),
        Dynd::Int64(v) => Value::int(i128::from(v)),
        Dynd::Int128(v) => Value::int(v),
        Dynd::UInt8(v) => Value::UInt(u128::from(v)),
        Dynd::UInt16(v) => Value::UInt(u128::from(v)),
        Dynd::UInt32(v) => Value::UInt(u128::from(v)),
        Dynd::UInt64(v) => Value::UInt(u128::from(v)),
        Dynd::UInt128(v) => Value::UInt(v),
        Dynd::Float32(v) => Value::F32(v),
        Dynd::Float64(v) => Value::F64(v),
        Dynd::Char(v) => Value::Str(v.to_string()),
        Dynd::String(v) => Value::Str(v),
        Dynd::Bytes(v) => Value::Bin(v),
        Dynd::List(items) | Dynd::Tuple(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| read(item, &path.index(i)))
                .collect::<Result<_>>()?,
        ),
        Dynd::Struct(fields) => Value::Map(
            fields
                .into_iter()
                .map(|(name, field)| {
                    let key = Value::Str(name);
                    let field = read(field, &path.key(&key))?;
                    Ok((key, field))
                })
                .collect::<Result<_>>()?,
        ),
        Dynd::Array(array) => read(array.value, path)?,
        other @ (Dynd::ComplexFloat32(..) | Dynd::ComplexFloat64(..) | Dynd::Type(_)) => {
            bail!("the DyND value {other:?} at {path} has no sfmt value")
        }
    })
}

fn infer(value: &Value) -> Type {
    match value {
        Value::Null => Type::Void,
        Value::Bool(_) => Type::Bool,
        Value::UInt(v) if *v <= i64::MAX as u128 => Type::Int64,
        Value::UInt(v) if *v <= u128::from(u64::MAX) => Type::UInt64,
        Value::UInt(_) => Type::UInt128,
        Value::Int(v) if *v >= i128::from(i64::MIN) => Type::Int64,
        Value::Int(_) => Type::Int128,
        Value::F32(_) => Type::Float32,
        Value::F64(_) => Type::Float64,
        Value::Str(_) => Type::String,
        Value::Bin(_) => Type::Bytes,
        // Refused before: `check` finds extensions and maps that are not structs.
        Value::Ext(..) => Type::Void,
        Value::Array(items) => {
            let types: Vec<Type> = items.iter().map(infer).collect();
            let mut rest = types.iter();
            let unified = match rest.next() {
                // Unknown until another array shows an element; `void` if none does.
                None => Some(Type::Any),
                Some(first) => rest.try_fold(first.clone(), |unified, ty| unify(&unified, ty)),
            };
            match unified {
                Some(element) => Type::Var(Box::new(element)),
                None => Type::Tuple(types),
            }
        }
        Value::Map(fields) => Type::Struct(
            fields
                .iter()
                .map(|(name, value)| (key_name(name), infer(value)))
                .collect(),
        ),
    }
}

fn key_name(key: &Value) -> String {
    match key {
        Value::Str(name) => name.clone(),
        other => other.describe(),
    }
}

/// The one type that holds values of `a` and of `b`, if there is one.
fn unify(a: &Type, b: &Type) -> Option<Type> {
    let optional = |inner: Type| match inner {
        Type::Option(_) | Type::Void => inner,
        inner => Type::Option(Box::new(inner)),
    };
    Some(match (a, b) {
        _ if a == b => a.clone(),
        (Type::Any, other) | (other, Type::Any) => other.clone(),
        (Type::Void, other) | (other, Type::Void) => optional(other.clone()),
        (Type::Option(a), Type::Option(b)) => optional(unify(a, b)?),
        (Type::Option(a), other) | (other, Type::Option(a)) => optional(unify(a, other)?),
        (Type::Var(a), Type::Var(b)) => Type::Var(Box::new(unify(a, b)?)),
        (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => Type::Tuple(
            a.iter()
                .zip(b)
                .map(|(a, b)| unify(a, b))
                .collect::<Option<_>>()?,
        ),
        (Type::Struct(a), Type::Struct(b))
            if a.len() == b.len() && a.iter().zip(b).all(|((x, _), (y, _))| x == y) =>
        {
            Type::Struct(
                a.iter()
                    .zip(b)
                    .map(|((name, a), (_, b))| Some((name.clone(), unify(a, b)?)))
                    .collect::<Option<_>>()?,
            )
        }
        // A tuple and a var array hold the same JSON arrays when the tuple's parts unify with
        // the element type.
        (Type::Var(element), Type::Tuple(parts)) | (Type::Tuple(parts), Type::Var(element)) => {
            let mut unified = (**element).clone();
            for part in parts {
                unified = unify(&unified, part)?;
            }
            Type::Var(Box::new(unified))
        }
        _ => return None,
    })
}

/// `ty` with the element type of arrays that were all empty (`Any`) made `void`.
fn settle(ty: Type) -> Type {
    match ty {
        Type::Any => Type::Void,
        Type::Var(element) => Type::Var(Box::new(settle(*element))),
        Type::Option(inner) => Type::Option(Box::new(settle(*inner))),
        Type::Tuple(parts) => Type::Tuple(parts.into_iter().map(settle).collect()),
        Type::Struct(fields) => Type::Struct(
            fields
                .into_iter()
                .map(|(name, field)| (name, settle(field)))
                .collect(),
        ),
        other => other,
    }
}

/// `value` laid out as `ty` (a type [`infer`] and [`unify`] gave for it).
fn convert(value: &Value, ty: &Type) -> Result<Dynd> {
    let mismatch = || {
        anyhow!(
            "internal error: {} does not fit the datashape {ty}",
            value.describe()
        )
    };
    Ok(match (ty, value) {
        (Type::Void, Value::Null) => Dynd::Void,
        (Type::Option(_), Value::Null) => Dynd::Missing,
        (Type::Option(inner), value) => convert(value, inner)?,
        (Type::Bool, Value::Bool(v)) => Dynd::Bool(*v),
        (Type::Int64, Value::UInt(v)) => Dynd::Int64(i64::try_from(*v).map_err(|_| mismatch())?),
        (Type::Int64, Value::Int(v)) => Dynd::Int64(i64::try_from(*v).map_err(|_| mismatch())?),
        (Type::UInt64, Value::UInt(v)) => Dynd::UInt64(u64::try_from(*v).map_err(|_| mismatch())?),
        (Type::Int128, Value::Int(v)) => Dynd::Int128(*v),
        (Type::UInt128, Value::UInt(v)) => Dynd::UInt128(*v),
        (Type::Float32, Value::F32(v)) => Dynd::Float32(*v),
        (Type::Float64, Value::F64(v)) => Dynd::Float64(*v),
        (Type::String, Value::Str(v)) => Dynd::String(v.clone()),
        (Type::Bytes, Value::Bin(v)) => Dynd::Bytes(v.clone()),
        (Type::Var(element), Value::Array(items)) => Dynd::List(
            items
                .iter()
                .map(|item| convert(item, element))
                .collect::<Result<_>>()?,
        ),
        (Type::Tuple(parts), Value::Array(items)) if parts.len() == items.len() => Dynd::Tuple(
            items
                .iter()
                .zip(parts)
                .map(|(item, part)| convert(item, part))
                .collect::<Result<_>>()?,
        ),
        (Type::Struct(fields), Value::Map(entries)) if fields.len() == entries.len() => {
            Dynd::Struct(
                fields
                    .iter()
                    .zip(entries)
                    .map(|((name, field), (key, value))| {
                        if key_name(key) != *name {
                            return Err(mismatch());
                        }
                        Ok((name.clone(), convert(value, field)?))
                    })
                    .collect::<Result<_>>()?,
            )
        }
        _ => return Err(mismatch()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_formats::dynd;

    fn round_trip(json: &str) -> String {
        let value = crate::json::read(json.as_bytes()).unwrap();
        let array = to_array(&value).unwrap();
        let bytes = dynd::to_bytes(&array).unwrap();
        let back = dynd::from_array_bytes(&bytes).unwrap();
        assert_eq!(from_dynd(back.value).unwrap(), value, "{json}");
        back.ty.to_string()
    }

    #[test]
    fn records_become_a_var_array_of_structs() {
        let ty = round_trip(r#"[{"id": 1, "name": "a"}, {"id": 2, "name": null}]"#);
        assert_eq!(ty, "var * {id: int64, name: ?string}");
    }

    #[test]
    fn mixed_arrays_become_tuples_and_keep_integers_apart_from_floats() {
        assert_eq!(round_trip("[1, 2.5, \"x\"]"), "(int64, float64, string)");
        assert_eq!(round_trip("[[], [1], [null, 2]]"), "var * var * ?int64");
        assert_eq!(round_trip(r#"[[], ["a"]]"#), "var * var * string");
        assert_eq!(round_trip("[[], []]"), "var * var * void");
        assert_eq!(round_trip("[]"), "var * void");
        assert_eq!(
            round_trip(r#"[[1, "a"], [2, "b"]]"#),
            "var * (int64, string)"
        );
        assert_eq!(
            round_trip(r#"[[1, 2], [3, "b"]]"#),
            "(var * int64, (int64, string))"
        );
    }

    #[test]
    fn scalars_nulls_big_integers_and_tagged_values_round_trip() {
        assert_eq!(round_trip("null"), "void");
        assert_eq!(round_trip("[null, null]"), "var * void");
        assert_eq!(round_trip("18446744073709551615"), "uint64");
        assert_eq!(
            round_trip("340282366920938463463374607431768211455"),
            "uint128"
        );
        assert_eq!(
            round_trip("-170141183460469231731687303715884105728"),
            "int128"
        );
        assert_eq!(
            round_trip(r#"{"a b": [true], "": 1.0}"#),
            "{'a b': var * bool, '': float64}"
        );
        assert_eq!(
            round_trip(r#"[{"$f32": 0.1}, {"$bin": "AAE="}, {"$f64": "NaN"}, {}]"#),
            "(float32, bytes, float64, {})"
        );
    }
}
