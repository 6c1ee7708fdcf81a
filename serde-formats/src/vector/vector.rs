//! The in-memory vector model: a type, a size and an encoding (constructors in `build.rs`, checks
//! in `check.rs`), and reading one row's value through any encoding.

use super::scalar::decode_scalar;
pub(crate) use super::strings::Strings;
use super::types::Type;
use super::value::Value;
use crate::error::{Error, ErrorKind, Result};

/// The largest size of a vector: sizes, offsets and indices are `i32` on the wire.
pub const MAX_SIZE: usize = i32::MAX as usize;

/// How a vector stores its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Values stored row by row (code 0).
    Flat,
    /// One value repeated `size` times (code 1).
    Constant,
    /// Rows are indices into a base vector (code 2).
    Dictionary,
    /// A vector loaded on first use; saved with its loaded vector, if any (code 3).
    Lazy,
}

impl Encoding {
    /// The `i32` written first in a vector's header.
    pub fn code(self) -> i32 {
        match self {
            Encoding::Flat => 0,
            Encoding::Constant => 1,
            Encoding::Dictionary => 2,
            Encoding::Lazy => 3,
        }
    }

    pub(crate) fn from_code(code: i32) -> Option<Encoding> {
        Some(match code {
            0 => Encoding::Flat,
            1 => Encoding::Constant,
            2 => Encoding::Dictionary,
            3 => Encoding::Lazy,
            _ => return None,
        })
    }

    /// The upper-case name used by `Display`: `FLAT`, `CONSTANT`, `DICTIONARY`, `LAZY`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Flat => "FLAT",
            Encoding::Constant => "CONSTANT",
            Encoding::Dictionary => "DICTIONARY",
            Encoding::Lazy => "LAZY",
        }
    }
}

/// A columnar vector: a [`Type`], a size and an [`Encoding`], nested to any depth.
///
/// Build one with [`Vector::from_values`] (flat all the way down), [`Vector::flat_row`],
/// [`Vector::flat_array`], [`Vector::flat_map`], [`Vector::constant`],
/// [`Vector::constant_value`], [`Vector::dictionary`], [`Vector::lazy`] or
/// [`Vector::unloaded_lazy`]; every constructor checks what [`restore()`](super::restore()) checks,
/// so a `Vector` always satisfies the invariants in the [module docs](super).
///
/// Equality is structural: two vectors are equal when they have the same type, size and encoding
/// tree and the same values (floats compared bit for bit). The layout of string bytes in memory
/// is not part of the structure.
#[derive(Debug, Clone, PartialEq)]
pub struct Vector {
    pub(crate) ty: Type,
    pub(crate) size: usize,
    pub(crate) body: Body,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Body {
    Flat {
        /// Canonical: `None` when no row is null, else `ceil(size / 8)` bytes, bit 1 = not null.
        nulls: Option<Vec<u8>>,
        data: FlatData,
    },
    Constant(ConstantValue),
    Dictionary {
        nulls: Option<Vec<u8>>,
        /// Exactly `size` indices; 0 at null rows.
        indices: Vec<i32>,
        base: Box<Vector>,
    },
    Lazy(Option<Box<Vector>>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FlatData {
    /// Little-endian values, `size * width` bytes, zero at null rows; `BOOLEAN` packs bits.
    Fixed(Vec<u8>),
    Strings(Strings),
    Row(Vec<Option<Vector>>),
    Array {
        offsets: Vec<i32>,
        sizes: Vec<i32>,
        elements: Box<Vector>,
    },
    Map {
        offsets: Vec<i32>,
        sizes: Vec<i32>,
        keys: Box<Vector>,
        values: Box<Vector>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ConstantValue {
    Null,
    /// A scalar's bytes: the little-endian value (`BOOLEAN` one byte 0/1) or the string's bytes.
    Scalar(Vec<u8>),
    /// A complex constant: row `index` of `base`, which is not null there.
    Complex {
        base: Box<Vector>,
        index: usize,
    },
}

#[cold]
pub(crate) fn bad_index(message: impl std::fmt::Display) -> Error {
    Error::with_message(ErrorKind::BadIndex, message)
}

#[cold]
pub(crate) fn type_mismatch(expected: &Type, found: impl std::fmt::Display) -> Error {
    Error::with_message(
        ErrorKind::TypeMismatch,
        format_args!("expected {expected}, found {found}"),
    )
}

pub(crate) fn same_type(expected: &Type, found: &Type) -> Result<()> {
    if expected == found {
        Ok(())
    } else {
        Err(type_mismatch(expected, found))
    }
}

/// True when row `row` is not null in a bitmap (`None` = no nulls).
pub(crate) fn is_valid(nulls: Option<&[u8]>, row: usize) -> bool {
    match nulls {
        None => true,
        Some(bits) => bits
            .get(row / 8)
            .is_some_and(|byte| byte >> (row % 8) & 1 == 1),
    }
}

impl Vector {
    /// The vector's type.
    pub fn ty(&self) -> &Type {
        &self.ty
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.size
    }

    /// True when the vector has no rows.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The outermost encoding.
    pub fn encoding(&self) -> Encoding {
        match self.body {
            Body::Flat { .. } => Encoding::Flat,
            Body::Constant(_) => Encoding::Constant,
            Body::Dictionary { .. } => Encoding::Dictionary,
            Body::Lazy(_) => Encoding::Lazy,
        }
    }

    /// The vector this one wraps: a dictionary's base, a complex constant's base, a lazy
    /// vector's loaded vector; `None` otherwise.
    pub fn base(&self) -> Option<&Vector> {
        match &self.body {
            Body::Dictionary { base, .. } => Some(base),
            Body::Constant(ConstantValue::Complex { base, .. }) => Some(base),
            Body::Lazy(Some(loaded)) => Some(loaded),
            _ => None,
        }
    }

    /// The children of a FLAT `ROW` vector (`None` for a null child); empty otherwise.
    pub fn children(&self) -> &[Option<Vector>] {
        match &self.body {
            Body::Flat {
                data: FlatData::Row(children),
                ..
            } => children,
            _ => &[],
        }
    }

    /// True when a LAZY vector was not loaded.
    pub fn is_unloaded(&self) -> bool {
        matches!(self.body, Body::Lazy(None))
    }

    /// Follows the encodings down to where row `row` is stored.
    pub(crate) fn resolve(&self, mut row: usize) -> Result<Leaf<'_>> {
        let mut vector = self;
        loop {
            if row >= vector.size {
                return Err(bad_index(format_args!(
                    "row {row} of a vector of {} rows",
                    vector.size
                )));
            }
            match &vector.body {
                Body::Flat { .. } if vector.ty == Type::Unknown => return Ok(Leaf::Null),
                Body::Flat { nulls, .. } => {
                    return Ok(if is_valid(nulls.as_deref(), row) {
                        Leaf::Flat(vector, row)
                    } else {
                        Leaf::Null
                    })
                }
                Body::Constant(ConstantValue::Null) => return Ok(Leaf::Null),
                Body::Constant(ConstantValue::Scalar(bytes)) => {
                    return Ok(Leaf::Scalar(&vector.ty, bytes))
                }
                Body::Constant(ConstantValue::Complex { base, index }) => {
                    vector = base;
                    row = *index;
                }
                Body::Dictionary {
                    nulls,
                    indices,
                    base,
                } => {
                    if !is_valid(nulls.as_deref(), row) {
                        return Ok(Leaf::Null);
                    }
                    row = indices.get(row).map_or(usize::MAX, |&index| index as usize);
                    vector = base;
                }
                Body::Lazy(Some(loaded)) => vector = loaded,
                Body::Lazy(None) => return Err(Error::new(ErrorKind::NotLoaded)),
            }
        }
    }

    /// True when row `row` is null, looking through every encoding.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] when `row` is not below `len()`; [`ErrorKind::NotLoaded`] through
    /// an unloaded lazy vector.
    pub fn is_null(&self, row: usize) -> Result<bool> {
        Ok(matches!(self.resolve(row)?, Leaf::Null))
    }

    /// The number of null rows, looking through every encoding.
    ///
    /// # Errors
    /// [`ErrorKind::NotLoaded`] through an unloaded lazy vector.
    pub fn null_count(&self) -> Result<usize> {
        self.null_count_of_first(self.size)
    }

    /// Null rows among the first `rows` rows (`rows <= size`). Runs in time linear in the bytes
    /// the vector holds, not in its size: a constant or a lazy vector over one can be huge.
    fn null_count_of_first(&self, rows: usize) -> Result<usize> {
        match &self.body {
            Body::Flat { .. } if self.ty == Type::Unknown => Ok(rows),
            Body::Flat { nulls: None, .. } => Ok(0),
            Body::Flat {
                nulls: Some(bits), ..
            } => Ok((0..rows).filter(|&row| !is_valid(Some(bits), row)).count()),
            Body::Constant(ConstantValue::Null) => Ok(rows),
            // Over an unloaded lazy base this is `NotLoaded`.
            Body::Constant(ConstantValue::Complex { base, index }) => {
                Ok(if base.is_null(*index)? { rows } else { 0 })
            }
            Body::Constant(ConstantValue::Scalar(_)) => Ok(0),
            Body::Lazy(Some(loaded)) => loaded.null_count_of_first(rows),
            Body::Lazy(None) => Err(Error::new(ErrorKind::NotLoaded)),
            // One `i32` index per row is stored, so this is linear in the input too.
            Body::Dictionary { .. } => {
                let mut count = 0;
                for row in 0..rows {
                    count += usize::from(self.is_null(row)?);
                }
                Ok(count)
            }
        }
    }

    /// The value of row `row`, read through any encoding.
    ///
    /// The value is materialized: an `ARRAY` row can hold as many elements as its elements
    /// vector has rows, and a CONSTANT elements vector can claim `i32::MAX` of them in a few
    /// bytes. Check [`Vector::len`] of the parts before reading values of a vector from an
    /// untrusted file; `Display` is bounded.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] when `row` is not below `len()`; [`ErrorKind::NotLoaded`] when the
    /// row lies in an unloaded lazy vector.
    ///
    /// ```
    /// use serde_formats::vector::{Type, Value, Vector};
    /// let base = Vector::from_values(Type::Varchar, &[Value::Varchar("a".into()), Value::Varchar("b".into())])?;
    /// let dict = Vector::dictionary(base, vec![1, 1, 0], Some(vec![false, true, false]))?;
    /// assert_eq!(dict.value(0)?, Value::Varchar("b".into()));
    /// assert_eq!(dict.value(1)?, Value::Null);
    /// # Ok::<(), serde_formats::Error>(())
    /// ```
    pub fn value(&self, row: usize) -> Result<Value> {
        match self.resolve(row)? {
            Leaf::Null => Ok(Value::Null),
            Leaf::Scalar(ty, bytes) => decode_scalar(ty, bytes),
            Leaf::Flat(flat, row) => flat.flat_value(row),
        }
    }

    /// The bytes of a scalar row of this FLAT vector, in the constant's form.
    pub(crate) fn scalar_bytes(&self, row: usize) -> Vec<u8> {
        match &self.body {
            Body::Flat {
                data: FlatData::Fixed(bytes),
                ..
            } => match self.ty {
                Type::Boolean => vec![u8::from(is_valid(Some(bytes), row))],
                _ => {
                    let width = self.ty.fixed_width().unwrap_or(0);
                    bytes
                        .get(row * width..(row + 1) * width)
                        .unwrap_or(&[])
                        .to_vec()
                }
            },
            Body::Flat {
                data: FlatData::Strings(strings),
                ..
            } => strings.get(row).to_vec(),
            _ => Vec::new(),
        }
    }

    /// The value of non-null row `row` of this FLAT vector.
    fn flat_value(&self, row: usize) -> Result<Value> {
        let Body::Flat { data, .. } = &self.body else {
            return Err(bad_index("not a flat vector"));
        };
        match data {
            FlatData::Fixed(_) | FlatData::Strings(_) => {
                decode_scalar(&self.ty, &self.scalar_bytes(row))
            }
            FlatData::Row(children) => {
                let Type::Row(fields) = &self.ty else {
                    return Err(type_mismatch(&self.ty, "ROW children"));
                };
                let mut values = Vec::with_capacity(fields.len());
                for ((name, _), child) in fields.iter().zip(children) {
                    let value = match child {
                        Some(child) => child.value(row)?,
                        None => Value::Null,
                    };
                    values.push((name.clone(), value));
                }
                Ok(Value::Row(values))
            }
            FlatData::Array { elements, .. } => {
                let (start, len) = data.range(row);
                let items = (start..start + len)
                    .map(|element| elements.value(element))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Value::Array(items))
            }
            FlatData::Map { keys, values, .. } => {
                let (start, len) = data.range(row);
                let entries = (start..start + len)
                    .map(|entry| Ok((keys.value(entry)?, values.value(entry)?)))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Value::Map(entries))
            }
        }
    }
}

/// Where a vector's row is stored once the encodings are peeled off.
pub(crate) enum Leaf<'a> {
    Null,
    /// A scalar constant's bytes.
    Scalar(&'a Type, &'a [u8]),
    /// A non-null row of a FLAT vector.
    Flat(&'a Vector, usize),
}

impl FlatData {
    /// The offsets and sizes of an ARRAY or MAP, one per row (empty for other data).
    pub(crate) fn ranges(&self) -> (&[i32], &[i32]) {
        match self {
            FlatData::Array { offsets, sizes, .. } | FlatData::Map { offsets, sizes, .. } => {
                (offsets, sizes)
            }
            _ => (&[], &[]),
        }
    }

    /// `(offset, size)` of row `row` of an ARRAY or MAP (both checked non-negative on
    /// construction; `(0, 0)` for other data).
    pub(crate) fn range(&self, row: usize) -> (usize, usize) {
        let (offsets, sizes) = self.ranges();
        let offset = offsets.get(row).copied().unwrap_or(0).max(0) as usize;
        let size = sizes.get(row).copied().unwrap_or(0).max(0) as usize;
        (offset, size)
    }
}

pub(crate) fn to_i32(n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| bad_index(format_args!("{n} does not fit an i32")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bigints(values: &[Option<i64>]) -> Vector {
        let values: Vec<Value> = values
            .iter()
            .map(|v| v.map_or(Value::Null, Value::BigInt))
            .collect();
        Vector::from_values(Type::BigInt, &values).unwrap()
    }

    fn text(s: &str) -> Value {
        Value::Varchar(s.to_owned())
    }

    #[test]
    fn flat_bigint_stores_zero_at_null_rows_and_no_bitmap_without_nulls() {
        let v = bigints(&[Some(1), None, Some(3)]);
        let Body::Flat {
            nulls,
            data: FlatData::Fixed(bytes),
        } = &v.body
        else {
            panic!("not flat: {v:?}");
        };
        assert_eq!(nulls.as_deref(), Some(&[0b101u8][..]));
        assert_eq!(&bytes[8..16], &[0; 8]);
        assert!(matches!(
            bigints(&[Some(1)]).body,
            Body::Flat { nulls: None, .. }
        ));
    }

    #[test]
    fn reads_values_through_every_encoding() {
        let base =
            Vector::from_values(Type::Varchar, &[text("x"), Value::Null, text("z")]).unwrap();
        let dict = Vector::dictionary(
            base.clone(),
            vec![2, 0, 1, 0],
            Some(vec![false, false, false, true]),
        )
        .unwrap();
        assert_eq!(dict.value(0).unwrap(), text("z"));
        assert_eq!(dict.value(2).unwrap(), Value::Null);
        assert_eq!(dict.value(3).unwrap(), Value::Null);
        assert_eq!(dict.null_count().unwrap(), 2);
        let lazy = Vector::lazy(dict);
        assert_eq!(lazy.value(1).unwrap(), text("x"));
        let constant = Vector::constant(base.clone(), 2, 5).unwrap();
        assert_eq!(constant.value(4).unwrap(), text("z"));
        let null_constant = Vector::constant(base, 1, 5).unwrap();
        assert_eq!(null_constant.null_count().unwrap(), 5);
    }

    #[test]
    fn complex_constant_keeps_base_and_index() {
        let base = Vector::from_values(
            Type::array(Type::Integer),
            &[Value::Array(vec![Value::Integer(1)]), Value::Array(vec![])],
        )
        .unwrap();
        let constant = Vector::constant(base.clone(), 0, 3).unwrap();
        assert_eq!(constant.base(), Some(&base));
        assert_eq!(
            constant.value(2).unwrap(),
            Value::Array(vec![Value::Integer(1)])
        );
    }

    #[test]
    fn rejects_out_of_range_rows_indices_and_ranges() {
        let base = bigints(&[Some(1), Some(2)]);
        let err = Vector::dictionary(base.clone(), vec![0, 2], None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        let err = Vector::dictionary(base.clone(), vec![-1], None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        // An index at a null row is not looked at.
        assert!(Vector::dictionary(base.clone(), vec![9], Some(vec![true])).is_ok());
        assert_eq!(
            Vector::constant(base.clone(), 2, 1).unwrap_err().kind(),
            ErrorKind::BadIndex
        );
        assert_eq!(base.value(2).unwrap_err().kind(), ErrorKind::BadIndex);
        let err = Vector::flat_array(vec![1], vec![2], base.clone(), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        let err = Vector::flat_array(vec![0], vec![-1], base, None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
    }

    #[test]
    fn rejects_children_of_the_wrong_type_or_too_short() {
        let ty = Type::row([("a", Type::BigInt)]);
        let err = Vector::flat_row(
            ty.clone(),
            1,
            vec![Some(
                Vector::from_values(Type::Integer, &[Value::Integer(1)]).unwrap(),
            )],
            None,
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TypeMismatch);
        let err =
            Vector::flat_row(ty.clone(), 2, vec![Some(bigints(&[Some(1)]))], None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadIndex);
        let row = Vector::flat_row(ty, 1, vec![None], None).unwrap();
        assert_eq!(
            row.value(0).unwrap(),
            Value::Row(vec![("a".into(), Value::Null)])
        );
    }

    #[test]
    fn unloaded_lazy_reads_are_errors() {
        let lazy = Vector::unloaded_lazy(Type::Double, 3).unwrap();
        assert_eq!(lazy.value(0).unwrap_err().kind(), ErrorKind::NotLoaded);
        assert_eq!(lazy.null_count().unwrap_err().kind(), ErrorKind::NotLoaded);
        let dict = Vector::dictionary(lazy, vec![0, 1], None).unwrap();
        assert_eq!(dict.value(1).unwrap_err().kind(), ErrorKind::NotLoaded);
    }

    #[test]
    fn string_equality_ignores_layout() {
        use super::super::strings::string_view;
        let mut a = Strings::default();
        a.push(b"hello, world!");
        a.push(b"hi");
        a.push(b"hello, world!");
        // The same rows as Velox may write them: both long rows share one string, after junk.
        let mut views = Vec::new();
        views.extend_from_slice(&string_view(b"hello, world!", 3));
        views.extend_from_slice(&string_view(b"hi", 0));
        views.extend_from_slice(&string_view(b"hello, world!", 3));
        let b = Strings::from_saved(views, b"xyzhello, world!".to_vec(), 3, None, true, 0).unwrap();
        assert!(a.is_packed() && !b.is_packed());
        assert_eq!(a, b);
        let mut c = Strings::default();
        c.push(b"hello, world?");
        c.push(b"hi");
        c.push(b"hello, world!");
        assert_ne!(a, c);
    }
}
