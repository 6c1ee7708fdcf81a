//! JSON values as self-describing DyND arrays (`array[Any]`), without losing anything.
//!
//! `dynd::infer_type` needs every element of a sequence (and every value of a map) to have one
//! type, which JSON does not promise. Here the datashape is inferred from the JSON itself:
//! `null` is `void`, booleans `bool`, integers `int64` (`uint64` above `i64::MAX`), other
//! numbers `float64`, strings `string`, objects structs `{key: T, ...}`. An array whose elements
//! unify is `var * T`; elements unify when their types are equal, when one is `null` (`?T`),
//! or when they are arrays, structs with the same keys, or tuples of the same length whose
//! parts unify. Any other array is a tuple `(T0, T1, ...)`, so mixed arrays convert too. Read
//! back, every value gives the same JSON (integers stay integers, `1.0` stays a float).

use anyhow::{anyhow, Result};
use serde_formats::dynd::{Array, Type, Value};
use serde_json::Value as Json;

/// The `array[Any]` of a JSON value.
pub fn to_array(json: &Json) -> Result<Array> {
    let ty = settle(infer(json));
    let value = convert(json, &ty)?;
    Ok(Array { ty, value })
}

fn infer(json: &Json) -> Type {
    match json {
        Json::Null => Type::Void,
        Json::Bool(_) => Type::Bool,
        Json::Number(n) if n.is_i64() => Type::Int64,
        Json::Number(n) if n.is_u64() => Type::UInt64,
        Json::Number(_) => Type::Float64,
        Json::String(_) => Type::String,
        Json::Array(items) => {
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
        Json::Object(fields) => Type::Struct(
            fields
                .iter()
                .map(|(name, value)| (name.clone(), infer(value)))
                .collect(),
        ),
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

/// The value of `json` laid out as `ty` (a type [`infer`] and [`unify`] gave for it).
fn convert(json: &Json, ty: &Type) -> Result<Value> {
    let mismatch = || anyhow!("internal error: JSON {json} does not fit the datashape {ty}");
    Ok(match (ty, json) {
        (Type::Void, Json::Null) => Value::Void,
        (Type::Option(_), Json::Null) => Value::Missing,
        (Type::Option(inner), json) => convert(json, inner)?,
        (Type::Bool, Json::Bool(v)) => Value::Bool(*v),
        (Type::Int64, Json::Number(n)) => Value::Int64(n.as_i64().ok_or_else(mismatch)?),
        (Type::UInt64, Json::Number(n)) => Value::UInt64(n.as_u64().ok_or_else(mismatch)?),
        (Type::Float64, Json::Number(n)) => Value::Float64(n.as_f64().ok_or_else(mismatch)?),
        (Type::String, Json::String(v)) => Value::String(v.clone()),
        (Type::Var(element), Json::Array(items)) => Value::List(
            items
                .iter()
                .map(|item| convert(item, element))
                .collect::<Result<_>>()?,
        ),
        (Type::Tuple(parts), Json::Array(items)) if parts.len() == items.len() => Value::Tuple(
            items
                .iter()
                .zip(parts)
                .map(|(item, part)| convert(item, part))
                .collect::<Result<_>>()?,
        ),
        (Type::Struct(fields), Json::Object(object)) if fields.len() == object.len() => {
            Value::Struct(
                fields
                    .iter()
                    .map(|(name, field)| {
                        let value = object.get(name).ok_or_else(mismatch)?;
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
    use serde_json::json;

    fn round_trip(json: Json) -> String {
        let array = to_array(&json).unwrap();
        let bytes = dynd::to_bytes(&array).unwrap();
        let back = dynd::from_array_bytes(&bytes).unwrap();
        assert_eq!(Json::from(back.value), json);
        back.ty.to_string()
    }

    #[test]
    fn records_become_a_var_array_of_structs() {
        let ty = round_trip(json!([{"id": 1, "name": "a"}, {"id": 2, "name": null}]));
        assert_eq!(ty, "var * {id: int64, name: ?string}");
    }

    #[test]
    fn mixed_arrays_become_tuples_and_keep_integers_apart_from_floats() {
        assert_eq!(round_trip(json!([1, 2.5, "x"])), "(int64, float64, string)");
        assert_eq!(
            round_trip(json!([[], [1], [null, 2]])),
            "var * var * ?int64"
        );
        assert_eq!(round_trip(json!([[], ["a"]])), "var * var * string");
        assert_eq!(round_trip(json!([[], []])), "var * var * void");
        assert_eq!(round_trip(json!([])), "var * void");
        assert_eq!(
            round_trip(json!([[1, "a"], [2, "b"]])),
            "var * (int64, string)"
        );
        assert_eq!(
            round_trip(json!([[1, 2], [3, "b"]])),
            "(var * int64, (int64, string))"
        );
    }

    #[test]
    fn scalars_nulls_and_big_integers_round_trip() {
        assert_eq!(round_trip(json!(null)), "void");
        assert_eq!(round_trip(json!([null, null])), "var * void");
        assert_eq!(round_trip(json!(u64::MAX)), "uint64");
        assert_eq!(
            round_trip(json!({"a b": [true], "": 1.0})),
            "{'': float64, 'a b': var * bool}"
        );
    }
}
