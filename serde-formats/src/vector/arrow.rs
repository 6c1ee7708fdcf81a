//! The Arrow bridge (feature `arrow`): [`Vector`] ↔ arrow-rs arrays, and [`Type`] ↔ Arrow
//! [`DataType`].
//!
//! # Types
//!
//! | Velox | Arrow |
//! | --- | --- |
//! | BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT | Boolean, Int8, Int16, Int32, Int64 |
//! | REAL, DOUBLE | Float32, Float64 (bit for bit) |
//! | VARCHAR, JSON | Utf8 (JSON comes back as VARCHAR: Arrow has no JSON type without an extension) |
//! | VARBINARY | Binary |
//! | DATE | Date32 |
//! | TIMESTAMP | Timestamp(Nanosecond, no zone), as Velox's own export; a value outside years 1677–2262 is refused |
//! | DECIMAL(p, s) | Decimal128(p, s) |
//! | HUGEINT | refused: Arrow has no 128-bit integer, and Decimal128(38, 0) holds only 38 digits and reads back as DECIMAL |
//! | INTERVAL DAY TO SECOND | Duration(Millisecond) (exact: both are `i64` milliseconds) |
//! | INTERVAL YEAR TO MONTH | Interval(YearMonth) (exact: both are `i32` months) |
//! | UNKNOWN | Null |
//! | ARRAY, MAP, ROW | List (field `item`), Map (fields `entries`, `key`, `value`, unsorted), Struct |
//!
//! From Arrow, also: LargeUtf8 and Utf8View → VARCHAR, LargeBinary and BinaryView → VARBINARY,
//! LargeList → ARRAY, Timestamp of any unit without a zone → TIMESTAMP (a zone is refused: Velox's
//! TIMESTAMP has none, dropping it would change what the values mean), Duration(Millisecond) →
//! INTERVAL DAY TO SECOND. Every other Arrow type is [`ErrorKind::Unsupported`] naming it.
//!
//! # Encodings
//!
//! - FLAT scalar, ROW, ARRAY and MAP become the plain arrays above; nulls are kept at every level.
//! - DICTIONARY over a FLAT scalar base becomes `DictionaryArray<Int32Type>` (keys are the
//!   indices, the dictionary's own nulls are the keys' nulls); any other dictionary is expanded.
//! - CONSTANT becomes a run-end encoded array of one run (`RunArray<Int32Type>`, the run end
//!   being the size; no runs for size 0), as Velox's own `export_to_arrow` does; a null
//!   constant is one run of a null value.
//! - LAZY becomes its loaded vector; an unloaded one is [`ErrorKind::NotLoaded`].
//! - From Arrow, `DictionaryArray` (any integer key type whose indices fit `i32`) becomes a
//!   DICTIONARY; a `RunArray` of one run becomes a CONSTANT (so a constant round-trips), of several
//!   runs an expanded FLAT vector.
//!
//! MAP keys cannot be null in Arrow: a vector with a null MAP key is refused. Sizes over
//! `i32::MAX` (Arrow's `i32` offsets and the vector's limit) are refused.
//!
//! Fixed-width values whose bytes are the same in both (the integers, floats, DATE, the INTERVAL
//! types, BOOLEAN bits, every validity bitmap; long DECIMAL towards Arrow) are not converted row
//! by row through [`Value`]s. [`into_arrow`] consumes the vector and moves such value buffers
//! into the Arrow array without a copy when their allocation is aligned for the value type
//! (else one copy); [`to_arrow`] borrows the vector and copies them once into an aligned
//! buffer. Towards a vector they are copied once, because a vector holds zeros at null rows
//! where Arrow may hold anything. TIMESTAMP (16 bytes against 8), short DECIMAL (`i64` against
//! `i128`), strings and nested types are converted value by value.
//!
//! ```
//! use serde_formats::vector::{from_arrow, to_arrow, Type, Value, Vector};
//! let base = Vector::from_values(Type::Varchar, &[Value::Varchar("a".into()), Value::Null])?;
//! let dict = Vector::dictionary(base, vec![0, 1, 0], None)?;
//! let array = to_arrow(&dict)?; // a DictionaryArray<Int32Type> over a StringArray
//! assert_eq!(from_arrow(array.as_ref())?, dict);
//! # Ok::<(), serde_formats::Error>(())
//! ```

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, Date32Type, Decimal128Type, DurationMillisecondType, Float32Type,
    Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, IntervalYearMonthType, RunEndIndexType,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BooleanArray, DictionaryArray, Int32Array, PrimitiveArray,
    RunArray, StructArray,
};
use arrow_buffer::{ArrowNativeType, BooleanBuffer, Buffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, IntervalUnit, TimeUnit};

use super::arrow_values::{scalar_value, values_to_arrow};
use super::types::{Type, TYPE_DEPTH_LIMIT};
use super::value::Value;
use super::vector::{Body, FlatData, Vector};
use crate::error::{Error, ErrorKind, Result};

/// The Arrow type a vector of type `ty` converts to (see the [table](self)).
///
/// # Errors
/// [`ErrorKind::Unsupported`] for `HUGEINT`, at any depth.
pub fn arrow_type(ty: &Type) -> Result<DataType> {
    Ok(match ty {
        Type::Boolean => DataType::Boolean,
        Type::TinyInt => DataType::Int8,
        Type::SmallInt => DataType::Int16,
        Type::Integer => DataType::Int32,
        Type::BigInt => DataType::Int64,
        Type::Real => DataType::Float32,
        Type::Double => DataType::Float64,
        Type::Varchar | Type::Json => DataType::Utf8,
        Type::Varbinary => DataType::Binary,
        Type::Timestamp => DataType::Timestamp(TimeUnit::Nanosecond, None),
        Type::HugeInt => {
            return Err(unsupported(
                "HUGEINT has no Arrow type (Decimal128(38, 0) holds fewer values)",
            ))
        }
        Type::Date => DataType::Date32,
        &Type::Decimal { precision, scale } => DataType::Decimal128(precision, scale as i8),
        Type::IntervalDayTime => DataType::Duration(TimeUnit::Millisecond),
        Type::IntervalYearMonth => DataType::Interval(IntervalUnit::YearMonth),
        Type::Unknown => DataType::Null,
        Type::Array(element) => DataType::List(Arc::new(list_field(element)?)),
        Type::Map(key, value) => DataType::Map(Arc::new(entries_field(key, value)?), false),
        Type::Row(fields) => DataType::Struct(struct_fields(fields)?),
    })
}

/// The vector type an Arrow array of type `data_type` converts to (see the [table](self)).
///
/// # Errors
/// [`ErrorKind::Unsupported`] naming the Arrow type when no vector type holds it exactly;
/// [`ErrorKind::DepthLimitExceeded`] when it nests deeper than [`TYPE_DEPTH_LIMIT`].
pub fn type_from_arrow(data_type: &DataType) -> Result<Type> {
    nested_type_from_arrow(data_type, 1)
}

fn nested_type_from_arrow(data_type: &DataType, depth: usize) -> Result<Type> {
    if depth > TYPE_DEPTH_LIMIT {
        return Err(Error::with_message(
            ErrorKind::DepthLimitExceeded,
            format_args!("nesting too deep: an Arrow type nested deeper than the depth limit {TYPE_DEPTH_LIMIT}"),
        ));
    }
    let type_from_arrow = |inner: &DataType| nested_type_from_arrow(inner, depth + 1);
    Ok(match data_type {
        DataType::Boolean => Type::Boolean,
        DataType::Int8 => Type::TinyInt,
        DataType::Int16 => Type::SmallInt,
        DataType::Int32 => Type::Integer,
        DataType::Int64 => Type::BigInt,
        DataType::Float32 => Type::Real,
        DataType::Float64 => Type::Double,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Type::Varchar,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => Type::Varbinary,
        DataType::Timestamp(_, None) => Type::Timestamp,
        DataType::Date32 => Type::Date,
        &DataType::Decimal128(precision, scale) if scale >= 0 => {
            Type::decimal(precision, scale as u8).map_err(|_| unsupported_type(data_type))?
        }
        DataType::Duration(TimeUnit::Millisecond) => Type::IntervalDayTime,
        DataType::Interval(IntervalUnit::YearMonth) => Type::IntervalYearMonth,
        DataType::Null => Type::Unknown,
        DataType::List(field) | DataType::LargeList(field) => {
            Type::array(type_from_arrow(field.data_type())?)
        }
        DataType::Map(entries, _) => match entries.data_type() {
            DataType::Struct(fields) if fields.len() == 2 => Type::map(
                type_from_arrow(fields[0].data_type())?,
                type_from_arrow(fields[1].data_type())?,
            ),
            _ => return Err(unsupported_type(data_type)),
        },
        DataType::Struct(fields) => Type::Row(
            fields
                .iter()
                .map(|f| Ok((f.name().clone(), type_from_arrow(f.data_type())?)))
                .collect::<Result<_>>()?,
        ),
        DataType::Dictionary(_, values) => nested_type_from_arrow(values, depth)?,
        DataType::RunEndEncoded(_, values) => nested_type_from_arrow(values.data_type(), depth)?,
        _ => return Err(unsupported_type(data_type)),
    })
}

/// Converts a vector to an Arrow array of [`arrow_type`]`(vector.ty())` (a dictionary over a
/// flat scalar base gives a `DictionaryArray<Int32Type>` of it).
///
/// # Errors
/// [`ErrorKind::Unsupported`] for `HUGEINT`, a TIMESTAMP outside Arrow's nanosecond range, a
/// null MAP key or more than `i32::MAX` nested values; [`ErrorKind::NotLoaded`] through an
/// unloaded lazy vector.
pub fn to_arrow(vector: &Vector) -> Result<ArrayRef> {
    arrow_type(&vector.ty)?;
    match &vector.body {
        Body::Lazy(Some(loaded)) => Ok(to_arrow(loaded)?.slice(0, vector.size)),
        Body::Lazy(None) => Err(Error::new(ErrorKind::NotLoaded)),
        Body::Dictionary {
            nulls,
            indices,
            base,
        } if base.ty.is_scalar()
            && base.ty != Type::Unknown
            && matches!(base.body, Body::Flat { .. }) =>
        {
            let keys = Int32Array::new(
                ScalarBuffer::from(indices.clone()),
                nulls.as_deref().map(|bits| bitmap(bits, vector.size)),
            );
            let values = to_arrow(base)?;
            Ok(Arc::new(
                DictionaryArray::<Int32Type>::try_new(keys, values).map_err(arrow_err)?,
            ))
        }
        Body::Flat {
            nulls,
            data: FlatData::Row(children),
        } => {
            let Type::Row(fields) = &vector.ty else {
                return Err(unsupported("a ROW body of a non-ROW type"));
            };
            let mut arrays = Vec::with_capacity(children.len());
            for ((_, ty), child) in fields.iter().zip(children) {
                arrays.push(match child {
                    Some(child) => to_arrow(child)?.slice(0, vector.size),
                    None => arrow_array::new_null_array(&arrow_type(ty)?, vector.size),
                });
            }
            let nulls = nulls.as_deref().map(|bits| bitmap(bits, vector.size));
            struct_array(fields, arrays, nulls, vector.size)
        }
        Body::Constant(_) => {
            // One run of the value; a constant of no rows is a run array with no runs.
            let (run_ends, value) = if vector.size == 0 {
                (Vec::new(), Vec::new())
            } else {
                (vec![fit_i32(vector.size as i64)?], vec![vector.value(0)?])
            };
            let values = values_to_arrow(&vector.ty, &value)?;
            let run_ends = Int32Array::from(run_ends);
            Ok(Arc::new(
                RunArray::<Int32Type>::try_new(&run_ends, values.as_ref()).map_err(arrow_err)?,
            ))
        }
        Body::Flat {
            nulls,
            data: FlatData::Fixed(bytes),
        } => {
            let nulls = nulls.as_deref().map(|bits| bitmap(bits, vector.size));
            match fixed_to_arrow(&vector.ty, Source::Borrowed(bytes), vector.size, nulls) {
                Some(array) => Ok(array),
                None => values_to_arrow(&vector.ty, &all_values(vector)?),
            }
        }
        _ => values_to_arrow(&vector.ty, &all_values(vector)?),
    }
}

fn all_values(vector: &Vector) -> Result<Vec<Value>> {
    (0..vector.size).map(|row| vector.value(row)).collect()
}

/// A FLAT fixed-width vector whose bytes are already Arrow's values (same width, little-endian,
/// zero at null rows; the types of [`shares_layout`]): at most one copy into an aligned buffer,
/// no per-row work. `None` for the other types, whose values change form.
fn fixed_to_arrow(
    ty: &Type,
    bytes: Source<'_>,
    len: usize,
    nulls: Option<NullBuffer>,
) -> Option<ArrayRef> {
    fn primitive<T: ArrowPrimitiveType>(
        bytes: Source<'_>,
        len: usize,
        nulls: Option<NullBuffer>,
    ) -> Option<ArrayRef> {
        let width = std::mem::size_of::<T::Native>();
        let buffer = bytes.buffer(len.checked_mul(width)?, std::mem::align_of::<T::Native>())?;
        let values = ScalarBuffer::<T::Native>::new(buffer, 0, len);
        Some(Arc::new(PrimitiveArray::<T>::try_new(values, nulls).ok()?))
    }
    match ty {
        Type::Boolean => {
            let values = BooleanBuffer::new(bytes.buffer(len.div_ceil(8), 1)?, 0, len);
            Some(Arc::new(BooleanArray::new(values, nulls)))
        }
        Type::TinyInt => primitive::<Int8Type>(bytes, len, nulls),
        Type::SmallInt => primitive::<Int16Type>(bytes, len, nulls),
        Type::Integer => primitive::<Int32Type>(bytes, len, nulls),
        Type::BigInt => primitive::<Int64Type>(bytes, len, nulls),
        Type::Real => primitive::<Float32Type>(bytes, len, nulls),
        Type::Double => primitive::<Float64Type>(bytes, len, nulls),
        Type::Date => primitive::<Date32Type>(bytes, len, nulls),
        Type::IntervalDayTime => primitive::<DurationMillisecondType>(bytes, len, nulls),
        Type::IntervalYearMonth => primitive::<IntervalYearMonthType>(bytes, len, nulls),
        &Type::Decimal { precision, scale } if precision > 18 => {
            let array = primitive::<Decimal128Type>(bytes, len, nulls)?;
            let array = array.as_primitive::<Decimal128Type>().clone();
            Some(Arc::new(
                array
                    .with_precision_and_scale(precision, scale as i8)
                    .ok()?,
            ))
        }
        _ => None,
    }
}

/// A FLAT vector's value bytes on their way into an Arrow buffer.
enum Source<'a> {
    /// Copied into a 64-byte aligned buffer.
    Borrowed(&'a [u8]),
    /// Moved without a copy when the allocation is aligned for the values, else copied.
    Owned(Vec<u8>),
}

impl Source<'_> {
    /// The first `n` bytes as a buffer whose start is aligned to `align`; `None` if shorter.
    fn buffer(self, n: usize, align: usize) -> Option<Buffer> {
        match self {
            Source::Owned(mut bytes)
                if bytes.len() >= n && bytes.as_ptr().align_offset(align) == 0 =>
            {
                bytes.truncate(n);
                Some(Buffer::from_vec(bytes))
            }
            Source::Owned(bytes) => Some(Buffer::from_slice_ref(bytes.get(..n)?)),
            Source::Borrowed(bytes) => Some(Buffer::from_slice_ref(bytes.get(..n)?)),
        }
    }
}

/// Like [`to_arrow`], but consumes the vector so that fixed-width FLAT values (also the
/// children of a FLAT ROW) move into the Arrow array without a copy when their allocation is
/// aligned for the value type, as the global allocator's usually is; otherwise they are copied
/// once.
///
/// # Errors
/// As [`to_arrow`].
pub fn into_arrow(vector: Vector) -> Result<ArrayRef> {
    arrow_type(&vector.ty)?;
    let Vector { ty, size, body } = vector;
    match body {
        Body::Flat {
            nulls,
            data: FlatData::Fixed(bytes),
        } if shares_layout(&ty) => {
            let nulls = nulls.as_deref().map(|bits| bitmap(bits, size));
            fixed_to_arrow(&ty, Source::Owned(bytes), size, nulls).ok_or_else(|| {
                Error::with_message(ErrorKind::BadIndex, "values shorter than the vector")
            })
        }
        Body::Flat {
            nulls,
            data: FlatData::Row(children),
        } => {
            let Type::Row(fields) = &ty else {
                return Err(unsupported("a ROW body of a non-ROW type"));
            };
            let mut arrays = Vec::with_capacity(children.len());
            for ((_, field_ty), child) in fields.iter().zip(children) {
                arrays.push(match child {
                    Some(child) => into_arrow(child)?.slice(0, size),
                    None => arrow_array::new_null_array(&arrow_type(field_ty)?, size),
                });
            }
            let nulls = nulls.as_deref().map(|bits| bitmap(bits, size));
            struct_array(fields, arrays, nulls, size)
        }
        Body::Lazy(Some(loaded)) => Ok(into_arrow(*loaded)?.slice(0, size)),
        body => to_arrow(&Vector { ty, size, body }),
    }
}

/// True for the types [`fixed_to_arrow`] converts: FLAT bytes that are Arrow's values as they are.
fn shares_layout(ty: &Type) -> bool {
    match ty {
        Type::Boolean
        | Type::TinyInt
        | Type::SmallInt
        | Type::Integer
        | Type::BigInt
        | Type::Real
        | Type::Double
        | Type::Date
        | Type::IntervalDayTime
        | Type::IntervalYearMonth => true,
        Type::Decimal { precision, .. } => *precision > 18,
        _ => false,
    }
}

/// Converts an Arrow array to a vector of [`type_from_arrow`]`(array.data_type())`.
///
/// # Errors
/// [`ErrorKind::Unsupported`] naming the Arrow type when it has no vector type;
/// [`ErrorKind::BadIndex`] when a size, offset or dictionary key does not fit an `i32`.
pub fn from_arrow(array: &dyn Array) -> Result<Vector> {
    let ty = type_from_arrow(array.data_type())?;
    let len = array.len();
    match array.data_type() {
        DataType::Dictionary(key, _) => match key.as_ref() {
            DataType::Int8 => dictionary::<Int8Type>(array),
            DataType::Int16 => dictionary::<Int16Type>(array),
            DataType::Int32 => dictionary::<Int32Type>(array),
            DataType::Int64 => dictionary::<Int64Type>(array),
            _ => Err(unsupported_type(array.data_type())),
        },
        DataType::RunEndEncoded(run_ends, _) => match run_ends.data_type() {
            DataType::Int16 => run_ends_to_vector::<Int16Type>(array),
            DataType::Int32 => run_ends_to_vector::<Int32Type>(array),
            DataType::Int64 => run_ends_to_vector::<Int64Type>(array),
            _ => Err(unsupported_type(array.data_type())),
        },
        DataType::Struct(_) => {
            let array = array.as_struct();
            let children = array
                .columns()
                .iter()
                .map(|child| from_arrow(child.as_ref()).map(Some))
                .collect::<Result<Vec<_>>>()?;
            Vector::flat_row(ty, len, children, flags(array.nulls(), len))
        }
        DataType::List(_) => {
            let list = array.as_list::<i32>();
            let offsets: Vec<i64> = list.value_offsets().iter().map(|&o| i64::from(o)).collect();
            list_to_vector(&offsets, list.nulls(), list.values().as_ref())
        }
        DataType::LargeList(_) => {
            let list = array.as_list::<i64>();
            list_to_vector(list.value_offsets(), list.nulls(), list.values().as_ref())
        }
        DataType::Map(..) => {
            let map = array.as_map();
            let (starts, sizes) = ranges(
                map.value_offsets().iter().map(|&o| i64::from(o)),
                map.nulls(),
            )?;
            let keys = from_arrow(map.keys().as_ref())?;
            let values = from_arrow(map.values().as_ref())?;
            Vector::flat_map(starts, sizes, keys, values, flags(map.nulls(), len))
        }
        _ => {
            if let Some(vector) = fixed_from_arrow(array, &ty)? {
                return Ok(vector);
            }
            let values = (0..len)
                .map(|row| scalar_value(array, row))
                .collect::<Result<Vec<_>>>()?;
            Vector::from_values(ty, &values)
        }
    }
}

/// A FLAT vector straight from the values buffer of an Arrow array of a fixed-width type whose
/// values have the vector's layout (one copy, null rows zeroed); `None` for other types.
fn fixed_from_arrow(array: &dyn Array, ty: &Type) -> Result<Option<Vector>> {
    let len = array.len();
    let data = match array.data_type() {
        DataType::Boolean => {
            let mut bits = vec![0u8; len.div_ceil(8)];
            for (row, bit) in array.as_boolean().values().iter().enumerate() {
                if bit && array.is_valid(row) {
                    bits[row / 8] |= 1 << (row % 8);
                }
            }
            bits
        }
        DataType::Int8 => values_bytes::<Int8Type>(array),
        DataType::Int16 => values_bytes::<Int16Type>(array),
        DataType::Int32 => values_bytes::<Int32Type>(array),
        DataType::Int64 => values_bytes::<Int64Type>(array),
        DataType::Float32 => values_bytes::<Float32Type>(array),
        DataType::Float64 => values_bytes::<Float64Type>(array),
        DataType::Date32 => values_bytes::<Date32Type>(array),
        DataType::Duration(TimeUnit::Millisecond) => values_bytes::<DurationMillisecondType>(array),
        DataType::Interval(IntervalUnit::YearMonth) => values_bytes::<IntervalYearMonthType>(array),
        _ => return Ok(None),
    };
    let nulls = array.nulls().filter(|n| n.null_count() > 0).map(|n| {
        let mut bits = vec![0u8; len.div_ceil(8)];
        for row in (0..len).filter(|&row| n.is_valid(row)) {
            bits[row / 8] |= 1 << (row % 8);
        }
        bits
    });
    let body = Body::Flat {
        nulls,
        data: FlatData::Fixed(data),
    };
    Vector::checked(ty.clone(), len, body).map(Some)
}

/// The little-endian bytes of a primitive array's values (its slice only), zero at null rows.
fn values_bytes<T: ArrowPrimitiveType>(array: &dyn Array) -> Vec<u8> {
    let primitive = array.as_primitive::<T>();
    let width = std::mem::size_of::<T::Native>();
    let mut bytes = primitive.values().inner().as_slice().to_vec();
    if let Some(nulls) = primitive.nulls() {
        for row in (0..primitive.len()).filter(|&row| nulls.is_null(row)) {
            bytes[row * width..(row + 1) * width].fill(0);
        }
    }
    bytes
}

fn list_to_vector(
    offsets: &[i64],
    nulls: Option<&NullBuffer>,
    elements: &dyn Array,
) -> Result<Vector> {
    let (starts, sizes) = ranges(offsets.iter().copied(), nulls)?;
    let elements = from_arrow(elements)?;
    Vector::flat_array(
        starts,
        sizes,
        elements,
        nulls.map(|n| n.iter().map(|v| !v).collect()),
    )
}

/// `(offsets, sizes)` per row from Arrow's `len + 1` offsets; 0 and 0 at null rows.
fn ranges(
    offsets: impl Iterator<Item = i64>,
    nulls: Option<&NullBuffer>,
) -> Result<(Vec<i32>, Vec<i32>)> {
    let offsets: Vec<i64> = offsets.collect();
    let mut starts = Vec::with_capacity(offsets.len().saturating_sub(1));
    let mut sizes = Vec::with_capacity(starts.capacity());
    for (row, pair) in offsets.windows(2).enumerate() {
        if nulls.is_some_and(|n| n.is_null(row)) {
            starts.push(0);
            sizes.push(0);
        } else {
            starts.push(fit_i32(pair[0])?);
            sizes.push(fit_i32(pair[1] - pair[0])?);
        }
    }
    Ok((starts, sizes))
}

fn dictionary<K: ArrowDictionaryKeyType>(array: &dyn Array) -> Result<Vector> {
    let dict = array.as_dictionary::<K>();
    let base = from_arrow(dict.values().as_ref())?;
    let keys = dict.keys();
    let mut indices = Vec::with_capacity(keys.len());
    for row in 0..keys.len() {
        indices.push(if keys.is_null(row) {
            0
        } else {
            fit_i32(keys.value(row).to_i64().unwrap_or(i64::MAX))?
        });
    }
    Vector::dictionary(base, indices, flags(keys.nulls(), keys.len()))
}

fn run_ends_to_vector<R: RunEndIndexType>(array: &dyn Array) -> Result<Vector> {
    let run = array
        .as_any()
        .downcast_ref::<RunArray<R>>()
        .ok_or_else(|| unsupported_type(array.data_type()))?;
    let values = from_arrow(run.values().as_ref())?;
    let len = run.len();
    if len == 0 {
        return Vector::from_values(values.ty.clone(), &[]);
    }
    let first = run.get_physical_index(0);
    if first == run.get_physical_index(len - 1) {
        return Vector::constant(values, first, len);
    }
    let rows = (0..len)
        .map(|row| values.value(run.get_physical_index(row)))
        .collect::<Result<Vec<_>>>()?;
    Vector::from_values(values.ty.clone(), &rows)
}

pub(super) fn struct_array(
    fields: &[(String, Type)],
    arrays: Vec<ArrayRef>,
    nulls: Option<NullBuffer>,
    len: usize,
) -> Result<ArrayRef> {
    if fields.is_empty() {
        return Ok(Arc::new(StructArray::new_empty_fields(len, nulls)));
    }
    Ok(Arc::new(
        StructArray::try_new(struct_fields(fields)?, arrays, nulls).map_err(arrow_err)?,
    ))
}

fn struct_fields(fields: &[(String, Type)]) -> Result<Fields> {
    fields
        .iter()
        .map(|(name, ty)| Ok(Field::new(name, arrow_type(ty)?, true)))
        .collect()
}

pub(super) fn list_field(element: &Type) -> Result<Field> {
    Ok(Field::new("item", arrow_type(element)?, true))
}

pub(super) fn entries_field(key: &Type, value: &Type) -> Result<Field> {
    let fields = Fields::from(vec![
        Field::new("key", arrow_type(key)?, false),
        Field::new("value", arrow_type(value)?, true),
    ]);
    Ok(Field::new("entries", DataType::Struct(fields), false))
}

/// A validity bitmap (bit 1 = not null, LSB first, as Arrow's) as Arrow's null buffer of `len`
/// rows: one copy.
pub(super) fn bitmap(bits: &[u8], len: usize) -> NullBuffer {
    let mut bytes = vec![0u8; len.div_ceil(8)];
    let have = bytes.len().min(bits.len());
    bytes[..have].copy_from_slice(&bits[..have]);
    NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(bytes), 0, len))
}

/// Arrow's nulls as the constructors' flags (`true` = null).
fn flags(nulls: Option<&NullBuffer>, len: usize) -> Option<Vec<bool>> {
    nulls.map(|n| (0..len).map(|row| n.is_null(row)).collect())
}

pub(super) fn fit_i32(n: i64) -> Result<i32> {
    i32::try_from(n).map_err(|_| {
        Error::with_message(ErrorKind::BadIndex, format_args!("{n} does not fit an i32"))
    })
}

pub(super) fn unsupported(message: impl std::fmt::Display) -> Error {
    Error::with_message(ErrorKind::Unsupported, message)
}

pub(super) fn unsupported_type(data_type: &DataType) -> Error {
    unsupported(format_args!("Arrow type {data_type} has no vector type"))
}

pub(super) fn arrow_err(err: arrow_schema::ArrowError) -> Error {
    unsupported(format_args!("Arrow refused the array: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn into_arrow_moves_aligned_values_and_keeps_nulls() {
        let values: Vec<Value> = (0..1000)
            .map(|i| {
                if i % 7 == 0 {
                    Value::Null
                } else {
                    Value::BigInt(i)
                }
            })
            .collect();
        let vector = Vector::from_values(Type::BigInt, &values).unwrap();
        let Body::Flat {
            data: FlatData::Fixed(bytes),
            ..
        } = &vector.body
        else {
            panic!("not flat");
        };
        let start = bytes.as_ptr();
        let aligned = start.align_offset(8) == 0;
        let borrowed = to_arrow(&vector).unwrap();
        let row = Vector::flat_row(
            Type::row([("x", Type::BigInt)]),
            1000,
            vec![Some(vector)],
            None,
        )
        .unwrap();
        let owned = into_arrow(row).unwrap();
        let column = owned.as_struct().column(0).clone();
        assert_eq!(&column, &borrowed);
        assert_eq!(column.null_count(), 143);
        let moved = column.as_primitive::<Int64Type>().values().as_ptr() as *const u8;
        assert_eq!(moved == start, aligned, "moved without a copy iff aligned");
    }
}
