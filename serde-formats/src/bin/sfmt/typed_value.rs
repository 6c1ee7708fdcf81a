//! sfmt values <-> typed-column files, exactly or not at all.
//!
//! typed-column has five kinds: Boolean, Fraction (`i64 / i64`), Float (float64), String and
//! Column. Values are written as Boolean, Fraction `n/1` for integers in `i64`, Float, String,
//! and Column for arrays. Everything else (null, maps, bins, float32, extensions, integers past
//! `i64`) has no form that reads back as itself: the crate's serde mapping would write a map as
//! a Column of pairs and null as the empty Column, which read back as arrays. So writing such a
//! value is refused, naming it and its path ([`crate::value::check`]).
//!
//! Reading: a Fraction that is an integer (`6/3`) is that integer, one whose quotient a float64
//! holds exactly (`1/4`; `±1/0` and `0/0` are ±∞ and NaN as the format defines) is that float64,
//! any other (`1/3`) is refused rather than rounded.

use anyhow::{bail, Result};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_formats::typed_column::{Fraction, Kind, View, DEFAULT_DEPTH_LIMIT};

use crate::value::{Path, Value};

/// The value of a typed-column file.
pub fn read(bytes: &[u8]) -> Result<Value> {
    let view = View::from_bytes(bytes)?;
    from_view(&view, &Path::default(), 0)
}

fn from_view(view: &View<'_>, path: &Path, depth: usize) -> Result<Value> {
    Ok(match view.kind() {
        Kind::Boolean => Value::Bool(view.as_bool().unwrap_or_default()),
        Kind::Fraction => fraction(view.as_fraction().unwrap_or_default(), path)?,
        Kind::Float => Value::F64(view.as_f64().unwrap_or_default()),
        Kind::String => Value::Str(view.as_str().unwrap_or_default().to_owned()),
        Kind::Column => {
            if depth >= DEFAULT_DEPTH_LIMIT {
                bail!("columns nested deeper than {DEFAULT_DEPTH_LIMIT} at {path}");
            }
            Value::Array(
                view.iter()
                    .enumerate()
                    .map(|(i, child)| from_view(&child, &path.index(i), depth + 1))
                    .collect::<Result<_>>()?,
            )
        }
    })
}

fn fraction(f: Fraction, path: &Path) -> Result<Value> {
    if let Some(integer) = f.to_integer() {
        return Ok(Value::int(integer));
    }
    // Exact when both parts are exact float64s and the denominator a power of two (or 0).
    const EXACT: u64 = 1 << 53;
    let den = f.den.unsigned_abs();
    if f.num.unsigned_abs() <= EXACT && den <= EXACT && (den == 0 || den.is_power_of_two()) {
        return Ok(Value::F64(f.to_f64()));
    }
    bail!(
        "the typed-column fraction {}/{} at {path} has no exact integer or float64 value",
        f.num,
        f.den
    )
}

/// A value [`crate::value::check`] has passed for typed-column, in the crate's serde mapping.
pub struct Typed<'a>(pub &'a Value);

impl Serialize for Typed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        match self.0 {
            Value::Bool(v) => s.serialize_bool(*v),
            Value::UInt(v) => s.serialize_i64(i64::try_from(*v).map_err(S::Error::custom)?),
            Value::Int(v) => s.serialize_i64(i64::try_from(*v).map_err(S::Error::custom)?),
            Value::F64(v) => s.serialize_f64(*v),
            Value::Str(v) => s.serialize_str(v),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Typed(item))?;
                }
                seq.end()
            }
            other => Err(S::Error::custom(format!(
                "{} has no typed-column form",
                other.describe()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_formats::typed_column;

    fn fraction_file(num: i64, den: i64) -> Vec<u8> {
        typed_column::to_bytes(&vec![Fraction { num, den }]).unwrap()
    }

    #[test]
    fn fractions_read_exactly_or_not_at_all() {
        let one = |num, den| read(&fraction_file(num, den));
        assert_eq!(one(6, 3).unwrap(), Value::Array(vec![Value::UInt(2)]));
        assert_eq!(one(-1, 4).unwrap(), Value::Array(vec![Value::F64(-0.25)]));
        assert_eq!(
            one(1, 0).unwrap(),
            Value::Array(vec![Value::F64(f64::INFINITY)])
        );
        let err = format!("{:#}", one(1, 3).unwrap_err());
        assert_eq!(
            err,
            "the typed-column fraction 1/3 at /0 has no exact integer or float64 value"
        );
        assert!(one((1 << 53) + 1, 2).is_err());
    }

    #[test]
    fn what_typed_column_holds_round_trips() {
        let value = Value::Array(vec![
            Value::Bool(true),
            Value::Int(i128::from(i64::MIN)),
            Value::UInt(i64::MAX as u128),
            Value::F64(f64::NAN),
            Value::Str("é".into()),
            Value::Array(vec![]),
        ]);
        let bytes = typed_column::to_bytes(&Typed(&value)).unwrap();
        assert_eq!(read(&bytes).unwrap(), value);
    }
}
