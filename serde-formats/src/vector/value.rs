//! One row's value, read out of a vector through any encoding.

use std::fmt;

use crate::display::write_separated;

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
    /// `DATE`: days since 1970-01-01.
    Date(i32),
    /// `DECIMAL(p, s)`: the unscaled integer and the scale (the value is `unscaled / 10^scale`).
    Decimal {
        /// The digits as an integer.
        unscaled: i128,
        /// Digits after the point.
        scale: u8,
    },
    /// `INTERVAL DAY TO SECOND`: milliseconds.
    IntervalDayTime(i64),
    /// `INTERVAL YEAR TO MONTH`: months.
    IntervalYearMonth(i32),
    /// `JSON`: the JSON text as stored.
    Json(String),
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

/// `DATE` as Velox prints it: `YYYY-MM-DD` of the proleptic Gregorian calendar.
/// Splits ROW values into one column per field (a null row gives a null in every column), for
/// building children from values. The error is the first value that is not a ROW of `width` fields.
pub(crate) fn row_columns(values: &[Value], width: usize) -> Result<Vec<Vec<Value>>, &Value> {
    let mut columns: Vec<Vec<Value>> = vec![Vec::with_capacity(values.len()); width];
    for value in values {
        match value {
            Value::Null => columns.iter_mut().for_each(|c| c.push(Value::Null)),
            Value::Row(row) if row.len() == width => {
                for (column, (_, field)) in columns.iter_mut().zip(row) {
                    column.push(field.clone());
                }
            }
            other => return Err(other),
        }
    }
    Ok(columns)
}

fn write_date(f: &mut fmt::Formatter<'_>, days: i32) -> fmt::Result {
    // Civil date from days since the epoch (the era-based algorithm of H. Hinnant).
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    write!(f, "{year:04}-{month:02}-{day:02}")
}

/// A decimal from its unscaled integer: `-1.23` for `(-123, 2)`.
fn write_decimal(f: &mut fmt::Formatter<'_>, unscaled: i128, scale: u8) -> fmt::Result {
    let digits = unscaled.unsigned_abs().to_string();
    let sign = if unscaled < 0 { "-" } else { "" };
    let scale = usize::from(scale);
    if scale == 0 {
        return write!(f, "{sign}{digits}");
    }
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (whole, fraction) = padded.split_at(padded.len() - scale);
    write!(f, "{sign}{whole}.{fraction}")
}

/// `INTERVAL DAY TO SECOND` as Velox prints it: `D HH:MM:SS.mmm`.
fn write_day_time(f: &mut fmt::Formatter<'_>, millis: i64) -> fmt::Result {
    let sign = if millis < 0 { "-" } else { "" };
    let millis = millis.unsigned_abs();
    let seconds = millis / 1000;
    write!(
        f,
        "{sign}{} {:02}:{:02}:{:02}.{:03}",
        seconds / 86_400,
        seconds / 3600 % 24,
        seconds / 60 % 60,
        seconds % 60,
        millis % 1000
    )
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
            Value::Date(days) => write_date(f, *days),
            Value::Decimal { unscaled, scale } => write_decimal(f, *unscaled, *scale),
            Value::IntervalDayTime(millis) => write_day_time(f, *millis),
            Value::IntervalYearMonth(months) => {
                let sign = if *months < 0 { "-" } else { "" };
                let months = months.unsigned_abs();
                write!(f, "{sign}{}-{}", months / 12, months % 12)
            }
            Value::Json(text) => f.write_str(text),
            Value::Array(elements) => {
                write_separated(f, ["[", ", ", "]"], elements, |f, element| {
                    write!(f, "{element}")
                })
            }
            Value::Map(entries) => {
                write_separated(f, ["{", ", ", "}"], entries, |f, (key, value)| {
                    write!(f, "{key} => {value}")
                })
            }
            Value::Row(fields) => {
                write_separated(f, ["{", ", ", "}"], fields, |f, (name, value)| {
                    write!(f, "{name}: {value}")
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_dates_decimals_and_intervals_as_velox_does() {
        let cases = [
            (Value::Date(0), "1970-01-01"),
            (Value::Date(18_262), "2020-01-01"),
            (Value::Date(-1), "1969-12-31"),
            (Value::Date(-719_528), "0000-01-01"),
            (
                Value::Decimal {
                    unscaled: -123,
                    scale: 2,
                },
                "-1.23",
            ),
            (
                Value::Decimal {
                    unscaled: 5,
                    scale: 3,
                },
                "0.005",
            ),
            (
                Value::Decimal {
                    unscaled: 42,
                    scale: 0,
                },
                "42",
            ),
            (Value::IntervalDayTime(1_500), "0 00:00:01.500"),
            (Value::IntervalDayTime(-90_061_001), "-1 01:01:01.001"),
            (Value::IntervalYearMonth(14), "1-2"),
            (Value::IntervalYearMonth(-1), "-0-1"),
        ];
        for (value, text) in cases {
            assert_eq!(value.to_string(), text);
        }
    }
}
