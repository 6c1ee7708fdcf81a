//! The public constructors of [`Vector`]: from values (FLAT all the way down) and from parts
//! (ROW, ARRAY, MAP, CONSTANT, DICTIONARY, LAZY), each checked like a restored vector.

use super::check::nulls_from_flags;
use super::scalar::encode_scalar;
use super::types::Type;
use super::value::{row_columns, Value};
#[cfg(doc)]
use super::vector::MAX_SIZE;
use super::vector::{
    bad_index, to_i32, type_mismatch, Body, ConstantValue, FlatData, Leaf, Strings, Vector,
};
#[cfg(doc)]
use crate::error::ErrorKind;
use crate::error::Result;

impl Vector {
    /// A FLAT vector of `ty` holding `values`, with FLAT children all the way down.
    ///
    /// [`Value::Null`] is allowed anywhere; a `ROW` value must have as many fields as the type
    /// (names are not compared).
    ///
    /// # Errors
    /// [`ErrorKind::TypeMismatch`] when a value does not have type `ty`, [`ErrorKind::BadIndex`]
    /// when there are more than [`MAX_SIZE`] values.
    ///
    /// ```
    /// use serde_formats::vector::{Type, Value, Vector};
    /// let v = Vector::from_values(Type::BigInt, &[Value::BigInt(1), Value::Null])?;
    /// assert_eq!(v.value(1)?, Value::Null);
    /// assert_eq!(v.to_string(), "[FLAT BIGINT: 2 elements, 1 nulls]\n0: 1\n1: null");
    /// # Ok::<(), serde_formats::Error>(())
    /// ```
    pub fn from_values(ty: Type, values: &[Value]) -> Result<Vector> {
        let size = values.len();
        let flags: Vec<bool> = values.iter().map(Value::is_null).collect();
        let nulls = nulls_from_flags(Some(flags), size)?;
        let data = match &ty {
            Type::Boolean => {
                let mut bits = vec![0u8; size.div_ceil(8)];
                for (row, value) in values.iter().enumerate() {
                    match value {
                        Value::Null | Value::Boolean(false) => {}
                        Value::Boolean(true) => bits[row / 8] |= 1 << (row % 8),
                        other => return Err(type_mismatch(&ty, other)),
                    }
                }
                FlatData::Fixed(bits)
            }
            Type::Varchar | Type::Varbinary | Type::Json => {
                let mut strings = Strings::default();
                for value in values {
                    match (value, &ty) {
                        (Value::Null, _) => strings.push(&[]),
                        (Value::Varchar(text), Type::Varchar) | (Value::Json(text), Type::Json) => {
                            strings.push(text.as_bytes())
                        }
                        (Value::Varbinary(bytes), Type::Varbinary) => strings.push(bytes),
                        (other, _) => return Err(type_mismatch(&ty, other)),
                    }
                }
                FlatData::Strings(strings)
            }
            Type::Row(fields) => {
                let columns =
                    row_columns(values, fields.len()).map_err(|other| type_mismatch(&ty, other))?;
                let children = fields
                    .iter()
                    .zip(&columns)
                    .map(|((_, field_ty), column)| {
                        Vector::from_values(field_ty.clone(), column).map(Some)
                    })
                    .collect::<Result<Vec<_>>>()?;
                FlatData::Row(children)
            }
            Type::Array(element_ty) => {
                let mut elements = Vec::new();
                let (offsets, sizes) = list_ranges(&ty, values, |value| match value {
                    Value::Array(items) => {
                        elements.extend(items.iter().cloned());
                        Some(items.len())
                    }
                    _ => None,
                })?;
                FlatData::Array {
                    offsets,
                    sizes,
                    elements: Box::new(Vector::from_values((**element_ty).clone(), &elements)?),
                }
            }
            Type::Map(key_ty, value_ty) => {
                let (mut keys, mut entries) = (Vec::new(), Vec::new());
                let (offsets, sizes) = list_ranges(&ty, values, |value| match value {
                    Value::Map(pairs) => {
                        for (key, entry) in pairs {
                            keys.push(key.clone());
                            entries.push(entry.clone());
                        }
                        Some(pairs.len())
                    }
                    _ => None,
                })?;
                FlatData::Map {
                    offsets,
                    sizes,
                    keys: Box::new(Vector::from_values((**key_ty).clone(), &keys)?),
                    values: Box::new(Vector::from_values((**value_ty).clone(), &entries)?),
                }
            }
            fixed => {
                let width = fixed.fixed_width().unwrap_or(1);
                let mut bytes = Vec::with_capacity(size * width);
                for value in values {
                    encode_scalar(fixed, value, &mut bytes)?;
                }
                FlatData::Fixed(bytes)
            }
        };
        Vector::checked(ty, size, Body::Flat { nulls, data })
    }

    /// A FLAT `ROW` vector of `size` rows over `children` (one per field of `ty`, `None` for a
    /// child that is itself null, which reads as null in every row).
    ///
    /// `nulls[row] == true` marks a null row; `None` means no row is null.
    ///
    /// # Errors
    /// [`ErrorKind::TypeMismatch`] when `ty` is not a `ROW` or a child's type differs from its
    /// field's; [`ErrorKind::BadIndex`] when the child count differs, a child has fewer than
    /// `size` rows, or `nulls` has not `size` flags.
    pub fn flat_row(
        ty: Type,
        size: usize,
        children: Vec<Option<Vector>>,
        nulls: Option<Vec<bool>>,
    ) -> Result<Vector> {
        let nulls = nulls_from_flags(nulls, size)?;
        Vector::checked(
            ty,
            size,
            Body::Flat {
                nulls,
                data: FlatData::Row(children),
            },
        )
    }

    /// A FLAT `ARRAY` vector: row `i` holds `elements[offsets[i] .. offsets[i] + sizes[i]]`.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] when `offsets` and `sizes` differ in length, or a non-null row has
    /// a negative offset or size or reaches past the elements.
    pub fn flat_array(
        offsets: Vec<i32>,
        sizes: Vec<i32>,
        elements: Vector,
        nulls: Option<Vec<bool>>,
    ) -> Result<Vector> {
        let ty = Type::Array(Box::new(elements.ty.clone()));
        let elements = Box::new(elements);
        Vector::flat_list(ty, offsets, sizes, nulls, |offsets, sizes| {
            FlatData::Array {
                offsets,
                sizes,
                elements,
            }
        })
    }

    /// A FLAT `MAP` vector: row `i` holds the entries `offsets[i] .. offsets[i] + sizes[i]` of
    /// `keys` and `values`.
    ///
    /// # Errors
    /// As [`Vector::flat_array`], against the smaller of `keys` and `values`.
    pub fn flat_map(
        offsets: Vec<i32>,
        sizes: Vec<i32>,
        keys: Vector,
        values: Vector,
        nulls: Option<Vec<bool>>,
    ) -> Result<Vector> {
        let ty = Type::Map(Box::new(keys.ty.clone()), Box::new(values.ty.clone()));
        let (keys, values) = (Box::new(keys), Box::new(values));
        Vector::flat_list(ty, offsets, sizes, nulls, |offsets, sizes| FlatData::Map {
            offsets,
            sizes,
            keys,
            values,
        })
    }

    /// A FLAT `ARRAY` or `MAP` vector of `ty` with rows `offsets[i] .. offsets[i] + sizes[i]`
    /// of the children `data` holds.
    fn flat_list(
        ty: Type,
        offsets: Vec<i32>,
        sizes: Vec<i32>,
        nulls: Option<Vec<bool>>,
        data: impl FnOnce(Vec<i32>, Vec<i32>) -> FlatData,
    ) -> Result<Vector> {
        let size = offsets.len();
        if sizes.len() != size {
            return Err(bad_index("offsets and sizes differ in length"));
        }
        let nulls = nulls_from_flags(nulls, size)?;
        let data = data(offsets, sizes);
        Vector::checked(ty, size, Body::Flat { nulls, data })
    }

    /// A CONSTANT vector of `size` rows, each the value of row `index` of `base`.
    ///
    /// For a scalar type the value is copied out of `base` (read through its encoding); for
    /// `ARRAY`, `MAP` and `ROW` the constant keeps `base` and `index`, as Velox does. A null
    /// base row gives the null constant.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] when `index` is not below `base.len()`; [`ErrorKind::NotLoaded`]
    /// when a scalar is read from an unloaded lazy vector.
    pub fn constant(base: Vector, index: usize, size: usize) -> Result<Vector> {
        if index >= base.size {
            return Err(bad_index(format_args!(
                "constant index {index} in a base of {} rows",
                base.size
            )));
        }
        let ty = base.ty.clone();
        let value = if ty.is_scalar() {
            match base.resolve(index)? {
                Leaf::Null => ConstantValue::Null,
                Leaf::Scalar(_, bytes) => ConstantValue::Scalar(bytes.to_vec()),
                Leaf::Flat(flat, row) => ConstantValue::Scalar(flat.scalar_bytes(row)),
            }
        } else {
            ConstantValue::Complex {
                base: Box::new(base),
                index,
            }
        };
        Vector::checked(ty, size, Body::Constant(value))
    }

    /// A CONSTANT vector of `size` rows of `value` ([`Value::Null`] gives the null constant).
    /// A complex value is stored as row 0 of a one-row FLAT base.
    ///
    /// # Errors
    /// [`ErrorKind::TypeMismatch`] when `value` does not have type `ty`.
    pub fn constant_value(ty: Type, value: &Value, size: usize) -> Result<Vector> {
        let constant = if value.is_null() {
            ConstantValue::Null
        } else if ty.is_scalar() {
            let mut bytes = Vec::new();
            match (&ty, value) {
                (Type::Varchar, Value::Varchar(text)) | (Type::Json, Value::Json(text)) => {
                    bytes.extend_from_slice(text.as_bytes())
                }
                (Type::Varbinary, Value::Varbinary(data)) => bytes.extend_from_slice(data),
                (Type::Boolean, Value::Boolean(flag)) => bytes.push(u8::from(*flag)),
                (ty, value) => encode_scalar(ty, value, &mut bytes)?,
            }
            ConstantValue::Scalar(bytes)
        } else {
            ConstantValue::Complex {
                base: Box::new(Vector::from_values(
                    ty.clone(),
                    std::slice::from_ref(value),
                )?),
                index: 0,
            }
        };
        Vector::checked(ty, size, Body::Constant(constant))
    }

    /// A DICTIONARY vector: row `i` is row `indices[i]` of `base`, or null where
    /// `nulls[i] == true`.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] when an index of a non-null row is negative or not below
    /// `base.len()`, or `nulls` has not one flag per index.
    pub fn dictionary(base: Vector, indices: Vec<i32>, nulls: Option<Vec<bool>>) -> Result<Vector> {
        let size = indices.len();
        let nulls = nulls_from_flags(nulls, size)?;
        Vector::checked(
            base.ty.clone(),
            size,
            Body::Dictionary {
                nulls,
                indices,
                base: Box::new(base),
            },
        )
    }

    /// A LAZY vector that was loaded: it reads as `loaded`.
    pub fn lazy(loaded: Vector) -> Vector {
        Vector {
            ty: loaded.ty.clone(),
            size: loaded.size,
            body: Body::Lazy(Some(Box::new(loaded))),
        }
    }

    /// A LAZY vector of `ty` and `size` that was never loaded: reading a value is an
    /// [`ErrorKind::NotLoaded`] error.
    ///
    /// # Errors
    /// [`ErrorKind::BadIndex`] when `size` is over [`MAX_SIZE`].
    pub fn unloaded_lazy(ty: Type, size: usize) -> Result<Vector> {
        Vector::checked(ty, size, Body::Lazy(None))
    }
}

/// The offsets and sizes of ARRAY or MAP rows built from values: `push` appends one value's
/// items to the child columns and says how many, or `None` when the value is not of `ty`.
/// A null row gets offset 0 and size 0.
fn list_ranges(
    ty: &Type,
    values: &[Value],
    mut push: impl FnMut(&Value) -> Option<usize>,
) -> Result<(Vec<i32>, Vec<i32>)> {
    let mut offsets = Vec::with_capacity(values.len());
    let mut sizes = Vec::with_capacity(values.len());
    let mut total = 0;
    for value in values {
        if value.is_null() {
            offsets.push(0);
            sizes.push(0);
            continue;
        }
        let len = push(value).ok_or_else(|| type_mismatch(ty, value))?;
        offsets.push(to_i32(total)?);
        sizes.push(to_i32(len)?);
        total += len;
    }
    Ok((offsets, sizes))
}
