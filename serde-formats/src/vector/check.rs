//! Checking a vector's parts, read from input or given by a user, and bringing them to the
//! canonical form: every index, offset, size and length against the data it points into.

use super::types::Type;
use super::vector::{
    bad_index, is_valid, same_type, type_mismatch, Body, ConstantValue, FlatData, Leaf, Vector,
    MAX_SIZE,
};
use crate::error::{Error, ErrorKind, Result};

/// Checks a bitmap read from input or given by a user and brings it to the canonical form:
/// exactly `ceil(size / 8)` bytes, unused high bits 0, `None` when no row is null.
fn canonical_nulls(nulls: Option<Vec<u8>>, size: usize) -> Result<Option<Vec<u8>>> {
    let Some(mut bits) = nulls else {
        return Ok(None);
    };
    fit_bits(&mut bits, size, "nulls", "rows")?;
    let full_bytes = size / 8;
    let all_valid = bits[..full_bytes].iter().all(|&byte| byte == 0xff)
        && (size.is_multiple_of(8) || bits.last().copied() == Some((1u8 << (size % 8)) - 1));
    Ok(if all_valid { None } else { Some(bits) })
}

/// Cuts a bitmap of `size` rows to exactly `ceil(size / 8)` bytes and clears the unused high
/// bits of the last one; shorter is an error naming the `what` buffer and its `rows`.
fn fit_bits(bits: &mut Vec<u8>, size: usize, what: &str, rows: &str) -> Result<()> {
    let need = size.div_ceil(8);
    if bits.len() < need {
        return Err(bad_index(format_args!(
            "{what} buffer of {} bytes for {size} {rows}",
            bits.len()
        )));
    }
    bits.truncate(need);
    if !size.is_multiple_of(8) {
        if let Some(last) = bits.last_mut() {
            *last &= (1u8 << (size % 8)) - 1;
        }
    }
    Ok(())
}

/// A bitmap from per-row null flags (`true` = null).
pub(crate) fn nulls_from_flags(flags: Option<Vec<bool>>, size: usize) -> Result<Option<Vec<u8>>> {
    let Some(flags) = flags else {
        return Ok(None);
    };
    if flags.len() != size {
        return Err(bad_index(format_args!(
            "{} null flags for {size} rows",
            flags.len()
        )));
    }
    let mut bits = vec![0u8; size.div_ceil(8)];
    for (row, &null) in flags.iter().enumerate() {
        if !null {
            bits[row / 8] |= 1 << (row % 8);
        }
    }
    canonical_nulls(Some(bits), size)
}

/// Cuts a per-row `i32` buffer to `size` entries; shorter is an error.
fn fit_rows(buffer: &mut Vec<i32>, size: usize, what: &str) -> Result<()> {
    if buffer.len() < size {
        return Err(bad_index(format_args!(
            "{what} buffer of {} entries for {size} rows",
            buffer.len()
        )));
    }
    buffer.truncate(size);
    Ok(())
}

/// Checks the offsets and sizes of the non-null rows of an ARRAY or MAP against `limit`
/// elements and zeroes them at null rows.
fn check_ranges(
    nulls: Option<&[u8]>,
    offsets: &mut [i32],
    sizes: &mut [i32],
    limit: usize,
) -> Result<()> {
    for (row, (offset, size)) in offsets.iter_mut().zip(sizes.iter_mut()).enumerate() {
        if !is_valid(nulls, row) {
            *offset = 0;
            *size = 0;
            continue;
        }
        if *size < 0 || *offset < 0 {
            return Err(bad_index(format_args!(
                "row {row}: negative offset {offset} or size {size}"
            )));
        }
        let end = *offset as usize + *size as usize;
        if end > limit {
            return Err(bad_index(format_args!(
                "row {row}: offset {offset} + size {size} past {limit} elements"
            )));
        }
    }
    Ok(())
}

fn check_flat(ty: &Type, size: usize, nulls: Option<&[u8]>, data: FlatData) -> Result<FlatData> {
    Ok(match (ty, data) {
        (Type::Boolean, FlatData::Fixed(mut bits)) => {
            fit_bits(&mut bits, size, "values", "BOOLEAN rows")?;
            if let Some(nulls) = nulls {
                for (value, valid) in bits.iter_mut().zip(nulls) {
                    *value &= valid;
                }
            }
            FlatData::Fixed(bits)
        }
        (ty, FlatData::Fixed(mut bytes)) if ty.fixed_width().is_some() => {
            let width = ty.fixed_width().unwrap_or(1);
            let need = size * width;
            if bytes.len() < need {
                return Err(bad_index(format_args!(
                    "values buffer of {} bytes for {size} {ty} rows",
                    bytes.len()
                )));
            }
            bytes.truncate(need);
            // UNKNOWN has width 0 and nothing to clear.
            if nulls.is_some() && width > 0 {
                for (row, value) in bytes.chunks_exact_mut(width).enumerate() {
                    if !is_valid(nulls, row) {
                        value.fill(0);
                    }
                }
            }
            FlatData::Fixed(bytes)
        }
        (ty, FlatData::Strings(strings)) if ty.is_string() => {
            // Views were checked when they were made (`Strings::push`, `Strings::from_saved`).
            if strings.len() != size {
                return Err(bad_index(format_args!(
                    "{} strings for {size} rows",
                    strings.len()
                )));
            }
            FlatData::Strings(strings)
        }
        (Type::Row(fields), FlatData::Row(children)) => {
            if children.len() != fields.len() {
                return Err(bad_index(format_args!(
                    "{} children for {ty}",
                    children.len()
                )));
            }
            for ((_, field_ty), child) in fields.iter().zip(&children) {
                if let Some(child) = child {
                    same_type(field_ty, &child.ty)?;
                    if child.size < size {
                        return Err(bad_index(format_args!(
                            "child of {} rows in a ROW of {size} rows",
                            child.size
                        )));
                    }
                }
            }
            FlatData::Row(children)
        }
        (
            Type::Array(element_ty),
            FlatData::Array {
                mut offsets,
                mut sizes,
                elements,
            },
        ) => {
            same_type(element_ty, &elements.ty)?;
            fit_rows(&mut offsets, size, "offsets")?;
            fit_rows(&mut sizes, size, "sizes")?;
            check_ranges(nulls, &mut offsets, &mut sizes, elements.size)?;
            FlatData::Array {
                offsets,
                sizes,
                elements,
            }
        }
        (
            Type::Map(key_ty, value_ty),
            FlatData::Map {
                mut offsets,
                mut sizes,
                keys,
                values,
            },
        ) => {
            same_type(key_ty, &keys.ty)?;
            same_type(value_ty, &values.ty)?;
            fit_rows(&mut offsets, size, "offsets")?;
            fit_rows(&mut sizes, size, "sizes")?;
            check_ranges(nulls, &mut offsets, &mut sizes, keys.size.min(values.size))?;
            FlatData::Map {
                offsets,
                sizes,
                keys,
                values,
            }
        }
        (ty, _) => return Err(type_mismatch(ty, "flat data of another type")),
    })
}

fn check_constant(ty: &Type, value: ConstantValue) -> Result<ConstantValue> {
    Ok(match value {
        ConstantValue::Null => ConstantValue::Null,
        ConstantValue::Scalar(bytes) => {
            match ty {
                Type::Boolean => {
                    if bytes.len() != 1 || bytes[0] > 1 {
                        return Err(Error::with_message(
                            ErrorKind::BadTag,
                            "BOOLEAN constant is not one byte 0 or 1",
                        ));
                    }
                }
                Type::Varchar | Type::Json => {
                    if std::str::from_utf8(&bytes).is_err() {
                        return Err(Error::with_message(
                            ErrorKind::InvalidUtf8,
                            format_args!("{ty} constant"),
                        ));
                    }
                }
                Type::Varbinary => {}
                Type::Unknown => return Err(type_mismatch(ty, "a value that is not null")),
                ty => match ty.fixed_width() {
                    Some(width) if width == bytes.len() => {}
                    Some(width) => {
                        return Err(bad_index(format_args!(
                            "{ty} constant of {} bytes instead of {width}",
                            bytes.len()
                        )))
                    }
                    None => return Err(type_mismatch(ty, "a scalar constant")),
                },
            }
            ConstantValue::Scalar(bytes)
        }
        ConstantValue::Complex { base, index } => {
            same_type(ty, &base.ty)?;
            if index >= base.size {
                return Err(bad_index(format_args!(
                    "constant index {index} in a base of {} rows",
                    base.size
                )));
            }
            if ty.is_scalar() {
                // Velox writes a scalar constant whose value sits in a base vector (one wrapped
                // around a lazy vector) as a base and an index; the value is copied out, unless
                // the base was never loaded.
                return match base.resolve(index) {
                    Ok(Leaf::Null) => Ok(ConstantValue::Null),
                    Ok(Leaf::Scalar(_, bytes)) => {
                        check_constant(ty, ConstantValue::Scalar(bytes.to_vec()))
                    }
                    Ok(Leaf::Flat(flat, row)) => {
                        check_constant(ty, ConstantValue::Scalar(flat.scalar_bytes(row)))
                    }
                    Err(err) if err.kind() == ErrorKind::NotLoaded => {
                        Ok(ConstantValue::Complex { base, index })
                    }
                    Err(err) => Err(err),
                };
            }
            // A constant whose base row is null is the null constant (Velox saves it as one).
            if base.is_null(index).unwrap_or(false) {
                ConstantValue::Null
            } else {
                ConstantValue::Complex { base, index }
            }
        }
    })
}

impl Vector {
    /// Builds a vector from its parts, bringing them to the canonical form and checking every
    /// invariant. Used by the public constructors and by `restore`.
    pub(crate) fn checked(ty: Type, size: usize, body: Body) -> Result<Vector> {
        if size > MAX_SIZE {
            return Err(bad_index(format_args!("size {size} over {MAX_SIZE}")));
        }
        let body = match body {
            Body::Flat { nulls, data } => {
                let nulls = if ty == Type::Unknown {
                    // UNKNOWN has no values: every row is null, whatever the bitmap says. No
                    // bitmap is kept, so a huge size read from a few bytes costs no memory.
                    None
                } else {
                    canonical_nulls(nulls, size)?
                };
                let data = check_flat(&ty, size, nulls.as_deref(), data)?;
                Body::Flat { nulls, data }
            }
            Body::Constant(value) => Body::Constant(check_constant(&ty, value)?),
            Body::Dictionary {
                nulls,
                mut indices,
                base,
            } => {
                same_type(&ty, &base.ty)?;
                let nulls = canonical_nulls(nulls, size)?;
                fit_rows(&mut indices, size, "indices")?;
                for (row, index) in indices.iter_mut().enumerate() {
                    if !is_valid(nulls.as_deref(), row) {
                        *index = 0;
                    } else if *index < 0 || *index as usize >= base.size {
                        return Err(bad_index(format_args!(
                            "row {row}: index {index} in a base of {} rows",
                            base.size
                        )));
                    }
                }
                Body::Dictionary {
                    nulls,
                    indices,
                    base,
                }
            }
            Body::Lazy(Some(loaded)) => {
                same_type(&ty, &loaded.ty)?;
                if loaded.size < size {
                    return Err(bad_index(format_args!(
                        "loaded vector of {} rows in a lazy vector of {size}",
                        loaded.size
                    )));
                }
                Body::Lazy(Some(loaded))
            }
            Body::Lazy(None) => Body::Lazy(None),
        };
        Ok(Vector { ty, size, body })
    }
}
