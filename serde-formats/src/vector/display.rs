//! `Display` for vectors: a summary line, then the first rows, bounded in size.

use std::fmt;

use super::scalar::decode_scalar;
use super::value::write_hex;
use super::vector::{Body, FlatData, Leaf, Vector};
use super::Value;
use crate::display::write_separated;

/// Rows listed after the summary line.
const SHOWN_ROWS: usize = 10;
/// Elements listed per array or map; the rest is `...`.
const SHOWN_ELEMENTS: usize = 10;
/// Nesting shown before `...`.
const SHOWN_DEPTH: usize = 8;
/// Values printed in all: arrays sharing ranges can nest into an exponential number of values,
/// and a hostile vector must not print forever.
const SHOWN_VALUES: usize = 1000;

impl fmt::Display for Vector {
    /// `[DICTIONARY VARCHAR: 5 elements, 1 nulls]`, then one line `row: value` for each of the
    /// first 10 rows and `... N more rows`. An unloaded lazy vector prints
    /// `[LAZY BIGINT: 5 elements, not loaded]`. Arrays and maps show their first 10 entries.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{} {}: {} elements, ",
            self.encoding().name(),
            self.ty(),
            self.len()
        )?;
        match self.null_count() {
            Ok(nulls) => write!(f, "{nulls} nulls]")?,
            Err(_) => return f.write_str("not loaded]"),
        }
        let mut budget = SHOWN_VALUES;
        for row in 0..self.len().min(SHOWN_ROWS) {
            write!(f, "\n{row}: ")?;
            write_row(f, self, row, 0, &mut budget)?;
        }
        if self.len() > SHOWN_ROWS {
            write!(f, "\n... {} more rows", self.len() - SHOWN_ROWS)?;
        }
        Ok(())
    }
}

fn write_row(
    f: &mut fmt::Formatter<'_>,
    vector: &Vector,
    row: usize,
    depth: usize,
    budget: &mut usize,
) -> fmt::Result {
    if depth > SHOWN_DEPTH || *budget == 0 {
        return f.write_str("...");
    }
    *budget -= 1;
    let (flat, row) = match vector.resolve(row) {
        Err(_) => return f.write_str("<not loaded>"),
        Ok(Leaf::Null) => return f.write_str("null"),
        Ok(Leaf::Scalar(ty, bytes)) => return write_scalar(f, decode_scalar(ty, bytes)),
        Ok(Leaf::Flat(flat, row)) => (flat, row),
    };
    let Body::Flat { data, .. } = &flat.body else {
        return f.write_str("?");
    };
    match data {
        FlatData::Fixed(_) | FlatData::Strings(_) => write_scalar(f, flat.value(row)),
        FlatData::Row(children) => {
            write_separated(f, ["{", ", ", "}"], children, |f, child| match child {
                Some(child) => write_row(f, child, row, depth + 1, budget),
                None => f.write_str("null"),
            })
        }
        FlatData::Array { elements, .. } => {
            write_entries(f, data.range(row), ["[", "]"], |f, i| {
                write_row(f, elements, i, depth + 1, budget)
            })
        }
        FlatData::Map { keys, values, .. } => {
            write_entries(f, data.range(row), ["{", "}"], |f, i| {
                write_row(f, keys, i, depth + 1, budget)?;
                f.write_str(" => ")?;
                write_row(f, values, i, depth + 1, budget)
            })
        }
    }
}

/// The entries `(start, len)` of an array or map row between `brackets`, at most
/// [`SHOWN_ELEMENTS`] of them and then `...`, each written by `entry`.
fn write_entries(
    f: &mut fmt::Formatter<'_>,
    (start, len): (usize, usize),
    [open, close]: [&str; 2],
    entry: impl FnMut(&mut fmt::Formatter<'_>, usize) -> fmt::Result,
) -> fmt::Result {
    write_separated(
        f,
        [open, ", ", ""],
        start..start + len.min(SHOWN_ELEMENTS),
        entry,
    )?;
    if len > SHOWN_ELEMENTS {
        f.write_str(", ...")?;
    }
    f.write_str(close)
}

fn write_scalar(f: &mut fmt::Formatter<'_>, value: crate::Result<Value>) -> fmt::Result {
    match value {
        Ok(Value::Varbinary(bytes)) => write_hex(f, &bytes),
        Ok(value) => write!(f, "{value}"),
        Err(_) => f.write_str("?"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Type, Value, Vector};

    fn text(s: &str) -> Value {
        Value::Varchar(s.to_owned())
    }

    #[test]
    fn dictionary_summary_and_rows() {
        let base = Vector::from_values(Type::Varchar, &[text("apple"), text("pear")]).unwrap();
        let dict = Vector::dictionary(
            base,
            vec![0, 1, 1, 0, 0],
            Some(vec![false, false, true, false, false]),
        )
        .unwrap();
        assert_eq!(
            dict.to_string(),
            "[DICTIONARY VARCHAR: 5 elements, 1 nulls]\n0: apple\n1: pear\n2: null\n3: apple\n4: apple"
        );
    }

    #[test]
    fn lists_ten_rows_and_counts_the_rest() {
        let values: Vec<Value> = (0..12).map(Value::Integer).collect();
        let v = Vector::from_values(Type::Integer, &values).unwrap();
        let text = v.to_string();
        assert!(text.starts_with("[FLAT INTEGER: 12 elements, 0 nulls]\n0: 0\n"));
        assert!(text.ends_with("\n9: 9\n... 2 more rows"));
    }

    #[test]
    fn huge_vectors_print_quickly_and_briefly() {
        use super::super::MAX_SIZE;
        let constant = Vector::constant_value(Type::BigInt, &Value::BigInt(1), MAX_SIZE).unwrap();
        let lazy = Vector::lazy(constant.clone());
        assert!(lazy
            .to_string()
            .starts_with("[LAZY BIGINT: 2147483647 elements, 0 nulls]\n0: 1\n"));
        // Arrays of arrays sharing the same huge range: 10 elements per level, 1000 values in all.
        let mut v = constant;
        for _ in 0..4 {
            let size = i32::try_from(v.len()).unwrap();
            v = Vector::flat_array(vec![0; 10], vec![size; 10], v, None).unwrap();
        }
        let text = v.to_string();
        assert!(text.len() < 40_000, "{} bytes", text.len());
        assert!(text.contains("[[[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ...], "));
        assert!(text.ends_with("..."));
    }

    #[test]
    fn unloaded_lazy_and_nested_rows() {
        let lazy = Vector::unloaded_lazy(Type::BigInt, 5).unwrap();
        assert_eq!(lazy.to_string(), "[LAZY BIGINT: 5 elements, not loaded]");
        let ty = Type::row([("a", Type::array(Type::Integer)), ("b", Type::Varbinary)]);
        let row = Value::Row(vec![
            (
                "a".into(),
                Value::Array(vec![Value::Integer(1), Value::Null]),
            ),
            ("b".into(), Value::Varbinary(vec![0xab, 0x01])),
        ]);
        let v = Vector::from_values(ty, &[row]).unwrap();
        let constant = Vector::constant(v, 0, 2).unwrap();
        assert_eq!(
            constant.to_string(),
            "[CONSTANT ROW<a:ARRAY<INTEGER>,b:VARBINARY>: 2 elements, 0 nulls]\n0: {[1, null], 0xab01}\n1: {[1, null], 0xab01}"
        );
    }
}
