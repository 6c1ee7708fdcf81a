//! The logical type of a vector and its wire form: Velox's type JSON (`Type::serialize()`),
//! written with a fixed key order and read from any key order.

use std::fmt;

use serde::de::IgnoredAny;
use serde::Deserialize;

use crate::display::write_separated;
use crate::error::{Error, ErrorKind, Position, Result};
use crate::limits::{self, Nesting};

/// The deepest a type may nest (`ARRAY<ARRAY<...>>`, counting the outermost type as 1).
///
/// Velox parses type JSON with folly, which stops at 100 levels of JSON (each type level takes
/// two: its object and its `cTypes` array); 32 keeps everything this crate writes readable by
/// Velox, and the JSON parser's own stack small.
pub const TYPE_DEPTH_LIMIT: usize = 32;

/// Largest precision of a `DECIMAL`; up to 18 digits it is stored in an `i64`, above in an `i128`.
pub const MAX_DECIMAL_PRECISION: u8 = 38;

/// The logical type of a [`Vector`](super::Vector): a Velox type with its parameters and, for
/// the complex kinds, the types of the children.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `BOOLEAN`: one bit per row in a flat vector.
    Boolean,
    /// `TINYINT`: `i8`.
    TinyInt,
    /// `SMALLINT`: `i16`.
    SmallInt,
    /// `INTEGER`: `i32`.
    Integer,
    /// `BIGINT`: `i64`.
    BigInt,
    /// `REAL`: `f32`.
    Real,
    /// `DOUBLE`: `f64`.
    Double,
    /// `VARCHAR`: UTF-8 text.
    Varchar,
    /// `VARBINARY`: bytes.
    Varbinary,
    /// `TIMESTAMP`: `i64` seconds and `u64` nanoseconds.
    Timestamp,
    /// `HUGEINT`: `i128`.
    HugeInt,
    /// `DATE`: `i32` days since 1970-01-01 (Velox's `DateType`, physically `INTEGER`).
    Date,
    /// `DECIMAL(precision, scale)`: an unscaled integer, `i64` up to precision 18, `i128` above.
    Decimal {
        /// Digits in all, 1 to 38.
        precision: u8,
        /// Digits after the point, at most `precision`.
        scale: u8,
    },
    /// `INTERVAL DAY TO SECOND`: `i64` milliseconds (physically `BIGINT`).
    IntervalDayTime,
    /// `INTERVAL YEAR TO MONTH`: `i32` months (physically `INTEGER`).
    IntervalYearMonth,
    /// `JSON`: JSON text (Velox's custom type over `VARCHAR`).
    Json,
    /// `UNKNOWN`: the type of a `NULL` literal; every row is null.
    Unknown,
    /// `ARRAY<T>`.
    Array(Box<Type>),
    /// `MAP<K, V>`.
    Map(Box<Type>, Box<Type>),
    /// `ROW<name: T, ...>`: named children in order.
    Row(Vec<(String, Type)>),
}

impl Type {
    /// A `ROW` type from `(name, type)` pairs.
    pub fn row<N: Into<String>>(children: impl IntoIterator<Item = (N, Type)>) -> Type {
        Type::Row(
            children
                .into_iter()
                .map(|(name, ty)| (name.into(), ty))
                .collect(),
        )
    }

    /// An `ARRAY` type of `element`.
    pub fn array(element: Type) -> Type {
        Type::Array(Box::new(element))
    }

    /// A `MAP` type from `key` to `value`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// A `DECIMAL(precision, scale)` type.
    ///
    /// # Errors
    /// [`ErrorKind::BadType`] unless `1 <= precision <= 38` and `scale <= precision`.
    pub fn decimal(precision: u8, scale: u8) -> Result<Type> {
        if precision == 0 || precision > MAX_DECIMAL_PRECISION || scale > precision {
            return Err(Error::with_message(
                ErrorKind::BadType,
                format_args!("DECIMAL({precision}, {scale}): precision must be 1 to 38 and scale at most precision"),
            ));
        }
        Ok(Type::Decimal { precision, scale })
    }

    /// Checks the parameters of every `DECIMAL` in the type (the enum's fields are public, so a
    /// type can be built without [`Type::decimal`]) and the nesting depth.
    ///
    /// # Errors
    /// [`ErrorKind::BadType`] for a `DECIMAL` whose precision is not 1 to 38 or whose scale is
    /// over its precision; [`ErrorKind::DepthLimitExceeded`] when the type nests more than
    /// [`TYPE_DEPTH_LIMIT`] levels.
    pub fn validate(&self) -> Result<()> {
        if self.depth() > TYPE_DEPTH_LIMIT {
            return Err(limits::too_deep(Nesting::Type, TYPE_DEPTH_LIMIT));
        }
        self.validate_decimals()
    }

    fn validate_decimals(&self) -> Result<()> {
        match self {
            &Type::Decimal { precision, scale } => Type::decimal(precision, scale).map(drop),
            Type::Array(element) => element.validate_decimals(),
            Type::Map(key, value) => {
                key.validate_decimals()?;
                value.validate_decimals()
            }
            Type::Row(fields) => fields.iter().try_for_each(|(_, t)| t.validate_decimals()),
            _ => Ok(()),
        }
    }

    /// True for every type but `ARRAY`, `MAP` and `ROW`.
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Type::Array(_) | Type::Map(..) | Type::Row(_))
    }

    /// True for `VARCHAR`, `VARBINARY` and `JSON`, whose flat values are 16-byte string views.
    pub fn is_string(&self) -> bool {
        matches!(self, Type::Varchar | Type::Varbinary | Type::Json)
    }

    /// True when values must be valid UTF-8 (`VARCHAR`, `JSON`).
    pub(crate) fn is_text(&self) -> bool {
        matches!(self, Type::Varchar | Type::Json)
    }

    /// Bytes per value of a fixed-width scalar (`BOOLEAN` counts 1, its flat form packs bits;
    /// `UNKNOWN` 0, it has no values); `None` for strings and complex types.
    pub(crate) fn fixed_width(&self) -> Option<usize> {
        Some(match self {
            Type::Unknown => 0,
            Type::Boolean | Type::TinyInt => 1,
            Type::SmallInt => 2,
            Type::Integer | Type::Real | Type::Date | Type::IntervalYearMonth => 4,
            Type::BigInt | Type::Double | Type::IntervalDayTime => 8,
            Type::Decimal { precision, .. } if *precision <= 18 => 8,
            Type::Timestamp | Type::HugeInt | Type::Decimal { .. } => 16,
            _ => return None,
        })
    }

    /// Levels of nesting: 1 for a scalar, 1 + the deepest child otherwise.
    pub fn depth(&self) -> usize {
        match self {
            Type::Array(element) => 1 + element.depth(),
            Type::Map(key, value) => 1 + key.depth().max(value.depth()),
            Type::Row(children) => 1 + children.iter().map(|(_, t)| t.depth()).max().unwrap_or(0),
            _ => 1,
        }
    }

    /// Velox's `type` field: `BIGINT`, `DECIMAL`, `INTERVAL DAY TO SECOND`, `ARRAY`, ...
    fn json_name(&self) -> &'static str {
        match self {
            Type::Boolean => "BOOLEAN",
            Type::TinyInt => "TINYINT",
            Type::SmallInt => "SMALLINT",
            Type::Integer => "INTEGER",
            Type::BigInt => "BIGINT",
            Type::Real => "REAL",
            Type::Double => "DOUBLE",
            Type::Varchar => "VARCHAR",
            Type::Varbinary => "VARBINARY",
            Type::Timestamp => "TIMESTAMP",
            Type::HugeInt => "HUGEINT",
            Type::Date => "DATE",
            Type::Decimal { .. } => "DECIMAL",
            Type::IntervalDayTime => "INTERVAL DAY TO SECOND",
            Type::IntervalYearMonth => "INTERVAL YEAR TO MONTH",
            Type::Json => "JSON",
            Type::Unknown => "UNKNOWN",
            Type::Array(_) => "ARRAY",
            Type::Map(..) => "MAP",
            Type::Row(_) => "ROW",
        }
    }

    /// Velox's `name` field: the class that deserializes the type.
    fn json_class(&self) -> &'static str {
        match self {
            Type::Date => "DateType",
            Type::IntervalDayTime => "IntervalDayTimeType",
            Type::IntervalYearMonth => "IntervalYearMonthType",
            _ => "Type",
        }
    }

    /// The type's JSON as Velox's `Type::serialize()` shapes it, keys always in the order
    /// `name`, `type`, `precision`, `scale`, `names`, `cTypes`, no spaces.
    ///
    /// ```
    /// use serde_formats::vector::Type;
    /// let ty = Type::row([("a", Type::decimal(10, 2)?)]);
    /// assert_eq!(
    ///     ty.to_json(),
    ///     r#"{"name":"Type","type":"ROW","names":["a"],"cTypes":[{"name":"Type","type":"DECIMAL","precision":10,"scale":2}]}"#
    /// );
    /// # Ok::<(), serde_formats::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        out.push_str("{\"name\":\"");
        out.push_str(self.json_class());
        out.push_str("\",\"type\":\"");
        out.push_str(self.json_name());
        out.push('"');
        let children: Vec<&Type> = match self {
            Type::Decimal { precision, scale } => {
                out.push_str(&format!(",\"precision\":{precision},\"scale\":{scale}"));
                Vec::new()
            }
            Type::Array(element) => vec![element],
            Type::Map(key, value) => vec![key, value],
            Type::Row(fields) => {
                out.push_str(",\"names\":[");
                for (i, (name, _)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    // A `String` always serializes.
                    out.push_str(&serde_json::to_string(name).unwrap_or_default());
                }
                out.push(']');
                fields.iter().map(|(_, ty)| ty).collect()
            }
            _ => Vec::new(),
        };
        if matches!(self, Type::Array(_) | Type::Map(..) | Type::Row(_)) {
            out.push_str(",\"cTypes\":[");
            for (i, child) in children.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                child.write_json(out);
            }
            out.push(']');
        }
        out.push('}');
    }

    /// Parses Velox's type JSON (any key order; `name` is not checked, Velox goes by `type`;
    /// other keys are ignored).
    ///
    /// # Errors
    /// [`ErrorKind::BadType`] for text that is not JSON, a type name this crate does not know
    /// (the message names it), missing or malformed fields, or nesting deeper than
    /// [`TYPE_DEPTH_LIMIT`] (then [`ErrorKind::DepthLimitExceeded`]). Errors have no position;
    /// the reader adds the byte offset of the JSON text.
    pub fn from_json(text: &str) -> Result<Type> {
        let json: TypeJson = serde_json::from_str(text).map_err(|err| {
            Error::with_message(ErrorKind::BadType, format_args!("type JSON: {err}"))
        })?;
        json.into_type(1)
    }

    /// As [`Type::from_json`] for JSON text that starts at byte `start` of the input: a syntax
    /// error points at its byte, any other error at `start`.
    pub(crate) fn from_json_at(text: &str, start: u64) -> Result<Type> {
        match serde_json::from_str::<TypeJson>(text) {
            Ok(json) => json
                .into_type(1)
                .map_err(|err| err.or_position(Position::Byte(start))),
            Err(err) => {
                // serde_json counts lines from 1 and columns from 1 (in bytes, 0 at a newline).
                let line_start = text
                    .split_inclusive('\n')
                    .take(err.line().saturating_sub(1))
                    .map(str::len)
                    .sum::<usize>();
                let at = line_start + err.column().saturating_sub(1);
                Err(
                    Error::with_message(ErrorKind::BadType, format_args!("type JSON: {err}"))
                        .with_position(Position::Byte(start + at as u64)),
                )
            }
        }
    }
}

/// The fields of Velox's type JSON that this crate reads. Parsed straight into this shape (not
/// into a JSON tree), so memory stays within a small multiple of the text's length; serde_json
/// stops nesting at 128 levels, before the stack runs out.
#[derive(Deserialize)]
struct TypeJson {
    #[serde(rename = "type")]
    name: Option<String>,
    precision: Option<u64>,
    scale: Option<u64>,
    names: Option<Vec<String>>,
    #[serde(rename = "cTypes")]
    children: Option<Vec<TypeJson>>,
    /// Velox's type cache reference, not supported.
    #[serde(rename = "ref")]
    reference: Option<IgnoredAny>,
}

impl TypeJson {
    fn into_type(self, depth: usize) -> Result<Type> {
        if depth > TYPE_DEPTH_LIMIT {
            return Err(Error::with_message(
                ErrorKind::DepthLimitExceeded,
                format_args!("type nested more than {TYPE_DEPTH_LIMIT} levels"),
            ));
        }
        let bad = |what: &dyn fmt::Display| {
            Error::with_message(ErrorKind::BadType, format_args!("type JSON: {what}"))
        };
        if self.reference.is_some() {
            return Err(bad(
                &"references to Velox's type cache (\"ref\") are not supported",
            ));
        }
        let Some(name) = self.name else {
            return Err(bad(&"no string \"type\""));
        };
        let children = |wanted: usize, children: Option<Vec<TypeJson>>| -> Result<Vec<Type>> {
            let Some(children) = children else {
                return Err(bad(&format_args!("{name} without a \"cTypes\" array")));
            };
            if children.len() != wanted {
                return Err(bad(&format_args!(
                    "{name} with {} child types instead of {wanted}",
                    children.len()
                )));
            }
            children
                .into_iter()
                .map(|child| child.into_type(depth + 1))
                .collect()
        };
        Ok(match name.as_str() {
            "BOOLEAN" => Type::Boolean,
            "TINYINT" => Type::TinyInt,
            "SMALLINT" => Type::SmallInt,
            "INTEGER" => Type::Integer,
            "BIGINT" => Type::BigInt,
            "REAL" => Type::Real,
            "DOUBLE" => Type::Double,
            "VARCHAR" => Type::Varchar,
            "VARBINARY" => Type::Varbinary,
            "TIMESTAMP" => Type::Timestamp,
            "HUGEINT" => Type::HugeInt,
            "DATE" => Type::Date,
            "INTERVAL DAY TO SECOND" => Type::IntervalDayTime,
            "INTERVAL YEAR TO MONTH" => Type::IntervalYearMonth,
            "JSON" => Type::Json,
            "UNKNOWN" => Type::Unknown,
            "DECIMAL" => {
                let small = |value: Option<u64>, key: &str| -> Result<u8> {
                    value
                        .and_then(|n| u8::try_from(n).ok())
                        .ok_or_else(|| bad(&format_args!("DECIMAL without a small \"{key}\"")))
                };
                Type::decimal(
                    small(self.precision, "precision")?,
                    small(self.scale, "scale")?,
                )?
            }
            "ARRAY" => {
                let mut children = children(1, self.children)?;
                Type::Array(Box::new(children.remove(0)))
            }
            "MAP" => {
                let mut children = children(2, self.children)?.into_iter();
                match (children.next(), children.next()) {
                    (Some(key), Some(value)) => Type::map(key, value),
                    _ => return Err(bad(&"MAP without two child types")),
                }
            }
            "ROW" => {
                let Some(names) = self.names else {
                    return Err(bad(&"ROW without a \"names\" array"));
                };
                let children = children(names.len(), self.children)?;
                Type::Row(names.into_iter().zip(children).collect())
            }
            other => {
                return Err(Error::with_message(
                    ErrorKind::UnknownTypeKind,
                    format_args!("type {other:?} is not supported"),
                ))
            }
        })
    }
}

/// A ROW field name as Velox prints it: as is when it is an identifier (`[a-zA-Z_][a-zA-Z0-9_]*`),
/// else in double quotes with each double quote doubled.
fn write_field_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    let mut chars = name.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier {
        f.write_str(name)
    } else {
        write!(f, "\"{}\"", name.replace('"', "\"\""))
    }
}

impl fmt::Display for Type {
    /// Velox's spelling: `BIGINT`, `DECIMAL(10, 2)`, `ARRAY<BIGINT>`, `MAP<VARCHAR,BIGINT>`,
    /// `ROW<a:BIGINT,"b c":VARCHAR>` (names that are not identifiers quoted, as Velox does).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Decimal { precision, scale } => write!(f, "DECIMAL({precision}, {scale})"),
            Type::Array(element) => write!(f, "ARRAY<{element}>"),
            Type::Map(key, value) => write!(f, "MAP<{key},{value}>"),
            Type::Row(children) => {
                write_separated(f, ["ROW<", ",", ">"], children, |f, (name, ty)| {
                    write_field_name(f, name)?;
                    write!(f, ":{ty}")
                })
            }
            scalar => f.write_str(scalar.json_name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scalar type (the list the round-trip tests use), then scale-0 and nested types.
    fn all() -> Vec<Type> {
        let mut types = crate::vector::tests::scalar_types();
        types.extend([
            Type::decimal(38, 0).unwrap(),
            Type::array(Type::map(Type::Varchar, Type::Date)),
            Type::row([("a \"q\"", Type::BigInt), ("", Type::row::<&str>([]))]),
        ]);
        types
    }

    #[test]
    fn json_round_trips_and_has_a_fixed_key_order() {
        for ty in all() {
            let json = ty.to_json();
            assert_eq!(Type::from_json(&json).unwrap(), ty, "{json}");
            assert!(json.starts_with("{\"name\":\""), "{json}");
        }
        assert_eq!(Type::Date.to_json(), r#"{"name":"DateType","type":"DATE"}"#);
        assert_eq!(
            Type::map(Type::BigInt, Type::IntervalDayTime).to_json(),
            r#"{"name":"Type","type":"MAP","cTypes":[{"name":"Type","type":"BIGINT"},{"name":"IntervalDayTimeType","type":"INTERVAL DAY TO SECOND"}]}"#
        );
    }

    #[test]
    fn reads_veloxs_key_orders() {
        // Key orders seen in files written by pyvelox 0.2.0.
        let ty = Type::from_json(
            r#"{"cTypes":[{"name":"Type","type":"BIGINT"},{"name":"Type","type":"VARCHAR"}],"names":["a","b"],"name":"Type","type":"ROW"}"#,
        )
        .unwrap();
        assert_eq!(ty, Type::row([("a", Type::BigInt), ("b", Type::Varchar)]));
        let ty = Type::from_json(r#"{"scale":2,"precision":10,"name":"Type","type":"DECIMAL"}"#);
        assert_eq!(ty.unwrap(), Type::decimal(10, 2).unwrap());
    }

    #[test]
    fn rejects_bad_type_json() {
        let cases = [
            ("", ErrorKind::BadType),
            ("[]", ErrorKind::BadType),
            (r#"{"name":"Type"}"#, ErrorKind::BadType),
            (r#"{"type":"UUID"}"#, ErrorKind::UnknownTypeKind),
            (r#"{"type":"ARRAY","cTypes":[]}"#, ErrorKind::BadType),
            (
                r#"{"type":"ROW","names":["a"],"cTypes":[]}"#,
                ErrorKind::BadType,
            ),
            (
                r#"{"type":"DECIMAL","precision":39,"scale":0}"#,
                ErrorKind::BadType,
            ),
            (
                r#"{"type":"DECIMAL","precision":5,"scale":6}"#,
                ErrorKind::BadType,
            ),
            (r#"{"type":"DECIMAL","precision":5}"#, ErrorKind::BadType),
            (r#"{"ref":1}"#, ErrorKind::BadType),
        ];
        for (json, kind) in cases {
            assert_eq!(Type::from_json(json).unwrap_err().kind(), kind, "{json}");
        }
    }

    #[test]
    fn nesting_is_limited() {
        let mut ty = Type::BigInt;
        for _ in 1..TYPE_DEPTH_LIMIT {
            ty = Type::array(ty);
        }
        assert_eq!(ty.depth(), TYPE_DEPTH_LIMIT);
        assert_eq!(Type::from_json(&ty.to_json()).unwrap(), ty);
        let deeper = Type::array(ty).to_json();
        let err = Type::from_json(&deeper).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimitExceeded);
        // Far deeper than the limit: serde_json's own recursion limit answers first.
        let hostile = "{\"type\":\"ARRAY\",\"cTypes\":[".repeat(10_000);
        assert!(Type::from_json(&hostile).is_err());
    }

    #[test]
    fn displays_like_velox() {
        let ty = Type::row([
            ("a", Type::array(Type::BigInt)),
            ("b", Type::map(Type::Varchar, Type::decimal(20, 4).unwrap())),
            ("c", Type::IntervalYearMonth),
        ]);
        assert_eq!(
            ty.to_string(),
            "ROW<a:ARRAY<BIGINT>,b:MAP<VARCHAR,DECIMAL(20, 4)>,c:INTERVAL YEAR TO MONTH>"
        );
        let ty = Type::row([
            ("_x1", Type::Date),
            ("a \"b\"", Type::Json),
            ("", Type::Unknown),
        ]);
        assert_eq!(ty.to_string(), r#"ROW<_x1:DATE,"a ""b""":JSON,"":UNKNOWN>"#);
    }
}
