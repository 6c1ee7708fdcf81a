//! Vec and map containers: rows stored column by column.
//!
//! A `#[columnar(vec)]` / `#[columnar(map)]` row type implements [`EncodeRows`] and
//! [`DecodeRows`]; the wrappers here put its columns on the wire inside a table:
//!
//! ```text
//! vec container := varint(F) column* (index, varint len(X), X)*      X = varint len(col) col
//! map container := varint(F + 1) keys column* (index, varint len(X), X)*
//! ```
//!
//! where `F` counts the row's non-skipped fields, each required column is a byte string in
//! declaration order, and each optional column follows as a pair of its index and its column
//! wrapped in two byte-string lengths (as `serde_columnar` 0.3 writes it); see
//! `docs/spec/columnar.md` §4.2 and §4.3.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::column::{CodecDe, Wrapper};
use crate::context::{DecodeContext, LocatedBytes};
use crate::wire;
use crate::{Error, ErrorKind, Result};

/// A row type whose fields become columns (`#[columnar(vec)]` or `#[columnar(map)]`).
pub trait EncodeRows {
    /// Writes the columns of `rows`.
    ///
    /// # Errors
    /// An encode error of a column's codec or of a value's `Serialize` implementation.
    fn encode_rows<'r, I>(rows: I, columns: &mut ColumnsWriter) -> Result<()>
    where
        I: Iterator<Item = &'r Self>,
        Self: 'r;
}

/// A row type whose columns decode back into rows.
pub trait DecodeRows<'de>: Sized {
    /// Reads the columns from `columns` and zips them into rows.
    ///
    /// # Errors
    /// Malformed columns, columns of unequal lengths, a repeated optional index.
    fn decode_rows<A: SeqAccess<'de>>(
        columns: &mut ColumnsReader<'de, A>,
    ) -> std::result::Result<Vec<Self>, A::Error>;
}

/// Marks a row allowed in a `class = "vec"` field (`#[columnar(vec)]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a vec row",
    label = "add `#[columnar(vec)]` to `{Self}`"
)]
pub trait VecRow {}

/// Marks a row allowed in a `class = "map"` field (`#[columnar(map)]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a map row",
    label = "add `#[columnar(map)]` to `{Self}`"
)]
pub trait MapRow {}

/// The columns of one container, collected before they are written.
#[derive(Debug, Default)]
pub struct ColumnsWriter {
    required: Vec<Vec<u8>>,
    optional: Vec<(u64, Vec<u8>)>,
}

impl ColumnsWriter {
    /// Adds the next required column.
    pub fn required(&mut self, column: Vec<u8>) {
        self.required.push(column);
    }

    /// Adds the optional column with stable index `index`.
    pub fn optional(&mut self, index: u64, column: Vec<u8>) {
        // The body is itself a byte string: `varint len(col) col`.
        let mut body = Vec::with_capacity(column.len() + 5);
        wire::write_bytes(&mut body, &column);
        self.optional.push((index, body));
    }

    fn count(&self) -> usize {
        self.required.len() + self.optional.len()
    }

    fn write<S: SerializeSeq>(&self, seq: &mut S) -> std::result::Result<(), S::Error> {
        for column in &self.required {
            seq.serialize_element(&ByteString(column))?;
        }
        for (index, body) in &self.optional {
            seq.serialize_element(&(index, ByteString(body)))?;
        }
        Ok(())
    }
}

/// Serializes as a byte string.
struct ByteString<'a>(&'a [u8]);

impl Serialize for ByteString<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

fn encode_columns<'r, R, I>(rows: I) -> Result<ColumnsWriter>
where
    R: EncodeRows + 'r,
    I: Iterator<Item = &'r R>,
{
    let mut columns = ColumnsWriter::default();
    R::encode_rows(rows, &mut columns)?;
    Ok(columns)
}

/// A `class = "vec"` field on its way out: the rows of `C` as a vec container.
pub struct VecContainer<'a, R, C: ?Sized> {
    rows: &'a C,
    _row: PhantomData<fn(&R)>,
}

impl<'a, R, C: ?Sized> VecContainer<'a, R, C> {
    /// Wraps the rows.
    pub fn new(rows: &'a C) -> Self {
        VecContainer {
            rows,
            _row: PhantomData,
        }
    }
}

impl<'a, R, C> Serialize for VecContainer<'a, R, C>
where
    R: EncodeRows + VecRow + 'a,
    C: ?Sized,
    &'a C: IntoIterator<Item = &'a R>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let columns = encode_columns(self.rows.into_iter()).map_err(wire::ser_column_error)?;
        let mut seq = serializer.serialize_seq(Some(columns.count()))?;
        columns.write(&mut seq)?;
        seq.end()
    }
}

/// A `class = "map"` field on its way out: keys first, then the rows' columns.
pub struct MapContainer<'a, K, R, C: ?Sized> {
    map: &'a C,
    _entry: PhantomData<fn(&K, &R)>,
}

impl<'a, K, R, C: ?Sized> MapContainer<'a, K, R, C> {
    /// Wraps the map.
    pub fn new(map: &'a C) -> Self {
        MapContainer {
            map,
            _entry: PhantomData,
        }
    }
}

/// The keys of a map, as a postcard sequence.
struct Keys<'a, K, R, C: ?Sized>(&'a C, usize, PhantomData<fn(&K, &R)>);

impl<'a, K, R, C> Serialize for Keys<'a, K, R, C>
where
    K: Serialize + 'a,
    R: 'a,
    C: ?Sized,
    &'a C: IntoIterator<Item = (&'a K, &'a R)>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.1))?;
        for (key, _) in self.0 {
            seq.serialize_element(key)?;
        }
        seq.end()
    }
}

impl<'a, K, R, C> Serialize for MapContainer<'a, K, R, C>
where
    K: Serialize + 'a,
    R: EncodeRows + MapRow + 'a,
    C: ?Sized,
    &'a C: IntoIterator<Item = (&'a K, &'a R)>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let len = self.map.into_iter().count();
        let columns = encode_columns(self.map.into_iter().map(|(_, row)| row))
            .map_err(wire::ser_column_error)?;
        let mut seq = serializer.serialize_seq(Some(columns.count() + 1))?;
        seq.serialize_element(&Keys::<K, R, C>(self.map, len, PhantomData))?;
        columns.write(&mut seq)?;
        seq.end()
    }
}

// ---------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------

/// A container error raised inside a serde visitor, keeping its kind through our
/// deserializer.
pub(crate) fn container_error<E: de::Error>(kind: ErrorKind, message: &str) -> E {
    wire::de_column_error(Error::with_message(kind, message))
}

/// Reads the columns of one container, in order, checking that they have one length.
pub struct ColumnsReader<'de, A> {
    seq: A,
    len: Option<usize>,
    hint: crate::row_hint::RowsHint<'de>,
    _input: PhantomData<&'de [u8]>,
}

impl<'de, A: SeqAccess<'de>> ColumnsReader<'de, A> {
    /// Reads from the elements of a container sequence.
    pub fn new(seq: A) -> Self {
        ColumnsReader {
            seq,
            len: None,
            hint: Default::default(),
            _input: PhantomData,
        }
    }

    /// Reads the keys of a map container; their count is the row count.
    ///
    /// # Errors
    /// The deserializer's error for malformed keys or a missing key sequence.
    pub fn keys<K: Deserialize<'de>>(&mut self) -> std::result::Result<Vec<K>, A::Error> {
        let keys: Vec<K> = self.seq.next_element()?.ok_or_else(|| {
            container_error(ErrorKind::UnexpectedEnd, "map container without keys")
        })?;
        self.len = Some(keys.len());
        Ok(keys)
    }

    /// The row count fixed before any column was read: the number of keys of a map
    /// container, `None` for a vec container.
    pub fn expected_len(&self) -> Option<usize> {
        self.len
    }

    /// Reads the next required column as a streaming iterator.
    ///
    /// # Errors
    /// [`ErrorKind::UnexpectedEnd`] when the container has no more columns.
    pub fn required_iter<S: CodecDe<'de, T>, T>(
        &mut self,
    ) -> std::result::Result<S::Iter, A::Error> {
        let context = self
            .seq
            .next_element_seed(LocatedBytes)?
            .ok_or_else(|| container_error(ErrorKind::UnexpectedEnd, "missing column"))?;
        self.hint.see::<S, T>(context.bytes());
        Ok(S::iter(context))
    }

    /// The rows of this container, with room reserved for as many as the columns read so far
    /// say they hold (within a bound set by their size).
    pub fn rows<R>(&self) -> Rows<R> {
        Rows::with_hint(self.len, self.hint.rows::<R>())
    }

    /// Reads the remaining elements as optional columns `(index, column)` and hands each to
    /// `found`, which returns whether it knew the index. Unknown indexes are skipped.
    ///
    /// # Errors
    /// Malformed entries, and the errors `found` returns.
    pub fn optionals<F>(&mut self, found: F) -> std::result::Result<(), A::Error>
    where
        F: FnMut(u64, OptionalColumn<'de, '_>) -> Result<bool>,
    {
        self.read_optionals(found, true)
    }

    /// As [`optionals`](Self::optionals), for a table's optional fields, whose bytes are the
    /// value itself rather than a wrapped column.
    pub(crate) fn table_optionals<F>(&mut self, found: F) -> std::result::Result<(), A::Error>
    where
        F: FnMut(u64, OptionalColumn<'de, '_>) -> Result<bool>,
    {
        self.read_optionals(found, false)
    }

    fn read_optionals<F>(
        &mut self,
        mut found: F,
        column_in_byte_string: bool,
    ) -> std::result::Result<(), A::Error>
    where
        F: FnMut(u64, OptionalColumn<'de, '_>) -> Result<bool>,
    {
        while self
            .seq
            .next_element_seed(OptionalSeed {
                found: &mut found,
                column_in_byte_string,
                _input: PhantomData,
            })?
            .is_some()
        {}
        Ok(())
    }

    /// The underlying sequence, for table fields read one by one.
    pub fn seq(&mut self) -> &mut A {
        &mut self.seq
    }
}

/// One optional column (or optional table field) found in the input.
pub struct OptionalColumn<'de, 'a> {
    /// The bytes after the index, where they sit, and the depth left.
    context: DecodeContext<'de>,
    /// A container column is wrapped in a second byte string inside the bytes.
    wrapped: bool,
    _found: PhantomData<&'a ()>,
}

impl<'de> OptionalColumn<'de, '_> {
    /// Starts streaming the column with strategy `S` into `slot`.
    ///
    /// # Errors
    /// [`ErrorKind::BadHeader`] when `slot` is already filled.
    pub fn iter<S: CodecDe<'de, T>, T>(self, slot: &mut Option<S::Iter>) -> Result<bool> {
        let column = self.column()?;
        if slot.is_some() {
            // Reported where the repeated column starts.
            return Err(duplicate_index(column.offset()));
        }
        *slot = Some(S::iter(column));
        Ok(true)
    }

    /// The column inside its second byte string. Only known columns are unwrapped, so an
    /// unknown index may hold any bytes, as `serde_columnar` allows.
    fn column(&self) -> Result<DecodeContext<'de>> {
        if self.wrapped {
            self.context.inner_byte_string()
        } else {
            Ok(self.context)
        }
    }

    /// Decodes an optional table field through the wrapper `W` into `slot`.
    ///
    /// # Errors
    /// The value's decoding errors, trailing bytes, and [`ErrorKind::BadHeader`] when `slot` is
    /// already filled.
    pub fn value<W: Deserialize<'de> + Wrapper>(self, slot: &mut Option<W::Value>) -> Result<bool> {
        if slot.is_some() {
            return Err(duplicate_index(self.context.offset()));
        }
        let mut deserializer = self.context.deserializer();
        let value = W::deserialize(&mut deserializer)?;
        deserializer.end()?;
        *slot = Some(value.into_value());
        Ok(true)
    }
}

#[cold]
fn duplicate_index(at: usize) -> Error {
    Error::with_message(ErrorKind::BadHeader, "optional index given twice").or_offset(at as u64)
}

struct OptionalSeed<'a, F> {
    found: &'a mut F,
    /// Container columns are wrapped in a second byte string; table fields are not.
    column_in_byte_string: bool,
    _input: PhantomData<&'a ()>,
}

impl<'de, F> DeserializeSeed<'de> for OptionalSeed<'_, F>
where
    F: FnMut(u64, OptionalColumn<'de, '_>) -> Result<bool>,
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<(), D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de, F> Visitor<'de> for OptionalSeed<'_, F>
where
    F: FnMut(u64, OptionalColumn<'de, '_>) -> Result<bool>,
{
    type Value = ();
    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an optional field: index and bytes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        let index: u64 = seq.next_element()?.ok_or_else(|| {
            container_error(ErrorKind::UnexpectedEnd, "optional field without index")
        })?;
        let context = seq.next_element_seed(LocatedBytes)?.ok_or_else(|| {
            container_error(ErrorKind::UnexpectedEnd, "optional field without bytes")
        })?;
        let column = OptionalColumn {
            context,
            wrapped: self.column_in_byte_string,
            _found: PhantomData,
        };
        (self.found)(index, column).map_err(wire::de_column_error)?;
        Ok(())
    }
}

/// A container value read from the columns of a container sequence.
pub(crate) trait FromColumns<'de>: Sized {
    /// What the sequence is, for serde's "invalid type" errors.
    const EXPECTING: &'static str;

    /// Reads the value from the columns.
    fn from_columns<A: SeqAccess<'de>>(
        columns: &mut ColumnsReader<'de, A>,
    ) -> std::result::Result<Self, A::Error>;
}

/// Deserializes a container `T` from a sequence of columns: the one serde visitor of every
/// container wrapper.
pub(crate) fn deserialize_columns<'de, T, D>(deserializer: D) -> std::result::Result<T, D::Error>
where
    T: FromColumns<'de>,
    D: Deserializer<'de>,
{
    struct ColumnsVisitor<T>(PhantomData<fn() -> T>);
    impl<'de, T: FromColumns<'de>> Visitor<'de> for ColumnsVisitor<T> {
        type Value = T;
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str(T::EXPECTING)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<T, A::Error> {
            T::from_columns(&mut ColumnsReader::new(seq))
        }
    }
    deserializer.deserialize_seq(ColumnsVisitor(PhantomData))
}

/// A `class = "vec"` field on its way in.
pub struct VecContainerDe<R, C>(pub C, PhantomData<fn() -> R>);

impl<R, C> Wrapper for VecContainerDe<R, C> {
    type Value = C;
    fn into_value(self) -> C {
        self.0
    }
}

impl<'de, R: DecodeRows<'de>, C: FromIterator<R>> FromColumns<'de> for VecContainerDe<R, C> {
    const EXPECTING: &'static str = "a vec container";
    fn from_columns<A: SeqAccess<'de>>(
        columns: &mut ColumnsReader<'de, A>,
    ) -> std::result::Result<Self, A::Error> {
        let rows = R::decode_rows(columns)?;
        Ok(VecContainerDe(rows.into_iter().collect(), PhantomData))
    }
}

impl<'de, R, C> Deserialize<'de> for VecContainerDe<R, C>
where
    R: DecodeRows<'de> + VecRow,
    C: FromIterator<R>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserialize_columns(deserializer)
    }
}

/// A `class = "map"` field on its way in.
pub struct MapContainerDe<K, R, C>(pub C, PhantomData<fn() -> (K, R)>);

impl<K, R, C> Wrapper for MapContainerDe<K, R, C> {
    type Value = C;
    fn into_value(self) -> C {
        self.0
    }
}

impl<'de, K, R, C> FromColumns<'de> for MapContainerDe<K, R, C>
where
    K: Deserialize<'de>,
    R: DecodeRows<'de>,
    C: FromIterator<(K, R)>,
{
    const EXPECTING: &'static str = "a map container";
    fn from_columns<A: SeqAccess<'de>>(
        columns: &mut ColumnsReader<'de, A>,
    ) -> std::result::Result<Self, A::Error> {
        let keys: Vec<K> = columns.keys()?;
        let rows = R::decode_rows(columns)?;
        Ok(MapContainerDe(
            keys.into_iter().zip(rows).collect(),
            PhantomData,
        ))
    }
}

impl<'de, K, R, C> Deserialize<'de> for MapContainerDe<K, R, C>
where
    K: Deserialize<'de>,
    R: DecodeRows<'de> + MapRow,
    C: FromIterator<(K, R)>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserialize_columns(deserializer)
    }
}

/// Serializes a tuple `(index, bytes)`: an optional table entry.
pub struct OptionalEntry<'a>(pub u64, pub &'a [u8]);

impl Serialize for OptionalEntry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&self.0)?;
        tuple.serialize_element(&ByteString(self.1))?;
        tuple.end()
    }
}

/// The rows of a container being decoded.
pub struct Rows<T> {
    rows: Vec<T>,
    expected: Option<usize>,
}

impl<T> Rows<T> {
    /// Collects rows; `expected` is the row count fixed by a map's keys.
    pub fn new(expected: Option<usize>) -> Self {
        Rows {
            rows: Vec::new(),
            expected,
        }
    }

    /// As [`Rows::new`], with room for `hint` rows when they can be allocated (a vec
    /// container's hint; a map's rows are reserved from its key count, as they grow).
    pub fn with_hint(expected: Option<usize>, hint: usize) -> Self {
        let mut rows = Vec::new();
        if expected.is_none() {
            // Only a hint: on failure, rows grow as they decode.
            let _ = rows.try_reserve_exact(hint);
        }
        Rows { rows, expected }
    }

    /// How many rows were added.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row was added.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds a row.
    ///
    /// # Errors
    /// [`ErrorKind::ColumnLengthMismatch`] past the expected count,
    /// [`ErrorKind::RunCountTooLarge`] when the rows cannot be allocated.
    #[inline(always)]
    pub fn push(&mut self, row: T) -> Result<()> {
        if self.rows.len() == self.rows.capacity() {
            self.grow()?;
        }
        let len = self.rows.len();
        // SAFETY: `grow` left room for one more row (len < capacity), so the slot at `len`
        // is allocated and unused; writing it and then counting it is what `Vec::push` does.
        unsafe {
            self.rows.as_mut_ptr().add(len).write(row);
            self.rows.set_len(len + 1);
        }
        Ok(())
    }

    /// Makes room for one more row, or reports why there is none.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<()> {
        if self
            .expected
            .is_some_and(|expected| self.rows.len() >= expected)
        {
            return Err(self.mismatch());
        }
        // Doubling, or the keys' count; allocation failure is an error, not an abort.
        let want = self.expected.unwrap_or(self.rows.len().max(64));
        self.rows
            .try_reserve(want.saturating_sub(self.rows.len()).max(1))
            .map_err(|_| {
                Error::with_message(ErrorKind::RunCountTooLarge, "too many rows to allocate")
            })
    }

    /// The rows, once every column ended.
    ///
    /// # Errors
    /// [`ErrorKind::ColumnLengthMismatch`] when a map's keys and columns differ in length.
    pub fn finish(self) -> Result<Vec<T>> {
        match self.expected {
            Some(expected) if expected != self.rows.len() => Err(self.mismatch()),
            _ => Ok(self.rows),
        }
    }

    #[cold]
    fn mismatch(&self) -> Error {
        Error::with_message(
            ErrorKind::ColumnLengthMismatch,
            format_args!(
                "{} keys but columns of {}{} rows",
                self.expected.unwrap_or(0),
                if self.rows.len() >= self.expected.unwrap_or(0) {
                    "more than "
                } else {
                    ""
                },
                self.rows.len()
            ),
        )
    }
}

/// Turns an error found while decoding a container into the deserializer's error: itself
/// through this crate's deserializer (offsets are already in the whole input), its text
/// through another.
pub fn de_error<E: de::Error>(err: Error) -> E {
    wire::de_column_error(err)
}

#[cfg(test)]
mod tests {
    use super::Rows;
    use crate::ErrorKind;

    #[test]
    fn rows_grow_past_their_hint() {
        let mut rows = Rows::with_hint(None, 2);
        let expected: Vec<String> = (0..200).map(|i| format!("row {i}")).collect();
        for row in &expected {
            rows.push(row.clone()).unwrap();
        }
        assert_eq!(rows.finish().unwrap(), expected);
    }

    #[test]
    fn rows_of_a_zero_sized_type() {
        let mut rows = Rows::with_hint(None, 0);
        for _ in 0..1000 {
            rows.push(()).unwrap();
        }
        assert_eq!(rows.finish().unwrap().len(), 1000);
    }

    #[test]
    fn a_row_past_the_keys_is_a_mismatch() {
        let mut rows = Rows::new(Some(2));
        rows.push(1u8).unwrap();
        rows.push(2u8).unwrap();
        // Checked when the rows would grow past the keys' count, and at the end.
        rows.push(3u8).unwrap();
        assert_eq!(
            rows.finish().unwrap_err().kind(),
            ErrorKind::ColumnLengthMismatch
        );
        let mut rows = Rows::new(Some(2));
        let err = (0..100).find_map(|row| rows.push(row).err()).unwrap();
        assert_eq!(err.kind(), ErrorKind::ColumnLengthMismatch);
    }
}
