//! One row's value, read out of a vector through any encoding.

use std::fmt;

/// A `TIMESTAMP` value: seconds since the Unix epoch and nanoseconds, Velox's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Timestamp {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    pub seconds: i64,
    /// Nanoseconds within the second. Kept as written; Velox keeps it below 10⁹.
    pub nanos: u64,
}

/// The value of one row of a [`Vector`](super::Vector), owned and self-describing.
///
/// A `ROW` value carries its field names, so a `Value` alone is enough to build a serde value
/// from it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A null row, of any type.
    Null,
    /// `BOOLEAN`.
    Boolean(bool),
    /// `TINYINT`.
    TinyInt(i8),
    /// `SMALLINT`.
    SmallInt(i16),
    /// `INTEGER`.
    Integer(i32),
    /// `BIGINT`.
    BigInt(i64),
    /// `REAL`.
    Real(f32),
    /// `DOUBLE`.
    Double(f64),
    /// `VARCHAR`.
    Varchar(String),
    /// `VARBINARY`.
    Varbinary(Vec<u8>),
    /// `TIMESTAMP`.
    Timestamp(Timestamp),
    /// `HUGEINT`.
    HugeInt(i128),
    /// `ARRAY`: the elements in order.
    Array(Vec<Value>),
    /// `MAP`: the entries in their stored order.
    Map(Vec<(Value, Value)>),
    /// `ROW`: `(field name, value)` in the type's order.
    Row(Vec<(String, Value)>),
}

impl Value {
    /// True for [`Value::Null`].
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:09}", self.seconds, self.nanos)
    }
}

/// Writes `bytes` as `0x` and lowercase hex digits.
pub(crate) fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    f.write_str("0x")?;
    for byte in bytes {
        write!(f, "{byte:02x}")?;
    }
    Ok(())
}

impl fmt::Display for Value {
    /// `null`, numbers as Rust prints them, text as is, bytes as `0x..`, arrays `[a, b]`, maps
    /// `{k => v}`, rows `{name: v, ...}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Boolean(v) => write!(f, "{v}"),
            Value::TinyInt(v) => write!(f, "{v}"),
            Value::SmallInt(v) => write!(f, "{v}"),
            Value::Integer(v) => write!(f, "{v}"),
            Value::BigInt(v) => write!(f, "{v}"),
            Value::Real(v) => write!(f, "{v}"),
            Value::Double(v) => write!(f, "{v}"),
            Value::Varchar(v) => f.write_str(v),
            Value::Varbinary(v) => write_hex(f, v),
            Value::Timestamp(v) => write!(f, "{v}"),
            Value::HugeInt(v) => write!(f, "{v}"),
            Value::Array(elements) => {
                f.write_str("[")?;
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{element}")?;
                }
                f.write_str("]")
            }
            Value::Map(entries) => {
                f.write_str("{")?;
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{key} => {value}")?;
                }
                f.write_str("}")
            }
            Value::Row(fields) => {
                f.write_str("{")?;
                for (i, (name, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {value}")?;
                }
                f.write_str("}")
            }
        }
    }
}
