//! `serde_columnar` 0.3.14's names that have no other home here: the encoder / decoder
//! handles, the container wrappers `ColumnarVec` / `ColumnarMap` with the row traits behind
//! them, and the column trait.
//!
//! The row traits are implemented by this crate for every `#[columnar(vec)]` /
//! `#[columnar(map)]` row (through [`EncodeRows`] and [`DecodeRows`]), so a row works in
//! [`ColumnarVec`] / [`ColumnarMap`] as it does in `serde_columnar`. A user may still
//! implement them by hand for a type that has no `#[columnar]` attribute.

use std::borrow::Cow;
use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::codec::{
    BoolRleColumn, DeltaOfDeltaColumn, DeltaOfDeltable, DeltaRleColumn, DeltaRleable,
    GenericColumn, RleColumn, Rleable,
};
use crate::container::{
    DecodeRows, EncodeRows, MapContainer, MapContainerDe, MapRow, VecContainer, VecContainerDe,
    VecRow,
};
use crate::{wire, Result};

/// `serde_columnar`'s encoder handle: a [`wire::Serializer`] that owns its output.
///
/// ```
/// use serde::Serialize;
/// let mut encoder = columnar::ColumnarEncoder::new();
/// (1u8, "a").serialize(&mut *encoder)?;
/// assert_eq!(encoder.into_bytes(), [0x01, 0x01, b'a']);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ColumnarEncoder {
    ser: wire::Serializer,
}

impl ColumnarEncoder {
    /// An encoder with an empty output.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.ser.into_inner()
    }
}

impl Deref for ColumnarEncoder {
    type Target = wire::Serializer;
    fn deref(&self) -> &wire::Serializer {
        &self.ser
    }
}

impl DerefMut for ColumnarEncoder {
    fn deref_mut(&mut self) -> &mut wire::Serializer {
        &mut self.ser
    }
}

/// `serde_columnar`'s decoder handle: a [`wire::Deserializer`] that can hand back the bytes
/// it did not read.
///
/// ```
/// use serde::Deserialize;
/// let mut decoder = columnar::ColumnarDecoder::new(&[0x01, 0x01, b'a', 0xff]);
/// assert_eq!(<(u8, &str)>::deserialize(&mut *decoder)?, (1, "a"));
/// assert_eq!(decoder.finalize()?, [0xff]);
/// # Ok::<(), columnar::Error>(())
/// ```
#[derive(Debug)]
pub struct ColumnarDecoder<'de> {
    de: wire::Deserializer<'de>,
}

impl<'de> ColumnarDecoder<'de> {
    /// A decoder over `bytes`.
    pub fn new(bytes: &'de [u8]) -> Self {
        ColumnarDecoder {
            de: wire::Deserializer::from_bytes(bytes),
        }
    }

    /// The bytes not read.
    ///
    /// # Errors
    /// None; the signature is `serde_columnar`'s.
    pub fn finalize(self) -> Result<&'de [u8]> {
        Ok(self.de.remaining())
    }
}

impl<'de> Deref for ColumnarDecoder<'de> {
    type Target = wire::Deserializer<'de>;
    fn deref(&self) -> &wire::Deserializer<'de> {
        &self.de
    }
}

impl<'de> DerefMut for ColumnarDecoder<'de> {
    fn deref_mut(&mut self) -> &mut wire::Deserializer<'de> {
        &mut self.de
    }
}

/// A vec-like container `IT` of rows `Self` that writes itself as columns
/// (`serde_columnar`'s trait behind [`ColumnarVec`]).
///
/// Every `#[columnar(vec)]` row implements it.
pub trait RowSer<IT>: Sized
where
    for<'c> &'c IT: IntoIterator<Item = &'c Self>,
{
    /// Writes `rows` as a vec container.
    ///
    /// # Errors
    /// The serializer's errors and the codecs' encode errors.
    fn serialize_columns<S: Serializer>(rows: &IT, ser: S) -> std::result::Result<S::Ok, S::Error>;
}

/// Reads a vec-like container `IT` of rows `Self` from columns.
///
/// Every `#[columnar(vec)]` row implements it.
pub trait RowDe<'de, IT>: Sized
where
    IT: FromIterator<Self>,
{
    /// Reads a vec container.
    ///
    /// # Errors
    /// The deserializer's errors and the codecs' decode errors.
    fn deserialize_columns<D: Deserializer<'de>>(de: D) -> std::result::Result<IT, D::Error>;
}

/// A map-like container `IT` of keys `K` and rows `Self` that writes itself as keys and
/// columns (`serde_columnar`'s trait behind [`ColumnarMap`]).
///
/// Every `#[columnar(map)]` row implements it.
pub trait KeyRowSer<K, IT>: Sized
where
    for<'c> &'c IT: IntoIterator<Item = (&'c K, &'c Self)>,
{
    /// Writes `rows` as a map container.
    ///
    /// # Errors
    /// The serializer's errors and the codecs' encode errors.
    fn serialize_columns<S: Serializer>(rows: &IT, ser: S) -> std::result::Result<S::Ok, S::Error>;
}

/// Reads a map-like container `IT` of keys `K` and rows `Self`.
///
/// Every `#[columnar(map)]` row implements it.
pub trait KeyRowDe<'de, K, IT>: Sized
where
    IT: FromIterator<(K, Self)>,
{
    /// Reads a map container.
    ///
    /// # Errors
    /// The deserializer's errors and the codecs' decode errors.
    fn deserialize_columns<D: Deserializer<'de>>(de: D) -> std::result::Result<IT, D::Error>;
}

impl<R, IT> RowSer<IT> for R
where
    R: EncodeRows + VecRow,
    for<'c> &'c IT: IntoIterator<Item = &'c R>,
{
    fn serialize_columns<S: Serializer>(rows: &IT, ser: S) -> std::result::Result<S::Ok, S::Error> {
        VecContainer::<R, IT>::new(rows).serialize(ser)
    }
}

impl<'de, R, IT> RowDe<'de, IT> for R
where
    R: DecodeRows<'de> + VecRow,
    IT: FromIterator<R>,
{
    fn deserialize_columns<D: Deserializer<'de>>(de: D) -> std::result::Result<IT, D::Error> {
        VecContainerDe::<R, IT>::deserialize(de).map(|container| container.0)
    }
}

impl<K, R, IT> KeyRowSer<K, IT> for R
where
    K: Serialize,
    R: EncodeRows + MapRow,
    for<'c> &'c IT: IntoIterator<Item = (&'c K, &'c R)>,
{
    fn serialize_columns<S: Serializer>(rows: &IT, ser: S) -> std::result::Result<S::Ok, S::Error> {
        MapContainer::<K, R, IT>::new(rows).serialize(ser)
    }
}

impl<'de, K, R, IT> KeyRowDe<'de, K, IT> for R
where
    K: Deserialize<'de>,
    R: DecodeRows<'de> + MapRow,
    IT: FromIterator<(K, R)>,
{
    fn deserialize_columns<D: Deserializer<'de>>(de: D) -> std::result::Result<IT, D::Error> {
        MapContainerDe::<K, R, IT>::deserialize(de).map(|container| container.0)
    }
}

/// A vec-like container of rows `T` that serializes as a vec container with any serde
/// format (postcard included), as a `class = "vec"` field does inside a table.
///
/// ```
/// use columnar::{columnar, ColumnarVec};
///
/// #[columnar(vec)]
/// #[derive(Debug, Clone, PartialEq)]
/// struct Row {
///     #[columnar(strategy = "DeltaRle")]
///     id: u32,
/// }
///
/// let rows = vec![Row { id: 1 }, Row { id: 2 }];
/// let bytes = postcard::to_allocvec(&ColumnarVec::new(&rows)).unwrap();
/// // one column: a run of two deltas of 1
/// assert_eq!(bytes, [0x01, 0x02, 0x04, 0x02]);
/// let back: ColumnarVec<'_, Row, Vec<Row>> = postcard::from_bytes(&bytes).unwrap();
/// assert_eq!(back.into_vec(), rows);
/// ```
#[derive(Debug, PartialEq, Clone)]
pub struct ColumnarVec<'c, T, IT>(pub Cow<'c, IT>)
where
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone;

impl<'c, T, IT> ColumnarVec<'c, T, IT>
where
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone,
{
    /// Borrows `vec`.
    pub fn new(vec: &'c IT) -> Self {
        ColumnarVec(Cow::Borrowed(vec))
    }

    /// The container, cloned if borrowed.
    pub fn into_vec(self) -> IT {
        self.0.into_owned()
    }
}

impl<T, IT> From<IT> for ColumnarVec<'_, T, IT>
where
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone,
{
    fn from(vec: IT) -> Self {
        ColumnarVec(Cow::Owned(vec))
    }
}

impl<'c, T, IT> From<&'c IT> for ColumnarVec<'c, T, IT>
where
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone,
{
    fn from(vec: &'c IT) -> Self {
        ColumnarVec(Cow::Borrowed(vec))
    }
}

impl<T, IT> Default for ColumnarVec<'_, T, IT>
where
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone + Default,
{
    fn default() -> Self {
        ColumnarVec(Cow::Owned(IT::default()))
    }
}

impl<T, IT> Serialize for ColumnarVec<'_, T, IT>
where
    T: RowSer<IT>,
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        T::serialize_columns(&self.0, serializer)
    }
}

impl<'de, T, IT> Deserialize<'de> for ColumnarVec<'_, T, IT>
where
    T: RowDe<'de, IT>,
    for<'a> &'a IT: IntoIterator<Item = &'a T>,
    IT: FromIterator<T> + Clone,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        T::deserialize_columns(deserializer).map(|rows| ColumnarVec(Cow::Owned(rows)))
    }
}

/// A map-like container of keys `K` and rows `T` that serializes as a map container with any
/// serde format, as a `class = "map"` field does inside a table.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct ColumnarMap<'c, K, T, IT>(pub Cow<'c, IT>)
where
    for<'a> &'a IT: IntoIterator<Item = (&'a K, &'a T)>,
    IT: FromIterator<(K, T)> + Clone,
    K: Eq + Clone;

impl<'c, K, T, IT> ColumnarMap<'c, K, T, IT>
where
    for<'a> &'a IT: IntoIterator<Item = (&'a K, &'a T)>,
    IT: FromIterator<(K, T)> + Clone,
    K: Eq + Clone,
{
    /// Borrows `map`.
    pub fn new(map: &'c IT) -> Self {
        ColumnarMap(Cow::Borrowed(map))
    }

    /// The container, cloned if borrowed.
    pub fn into_map(self) -> IT {
        self.0.into_owned()
    }
}

impl<K, T, IT> Default for ColumnarMap<'_, K, T, IT>
where
    for<'a> &'a IT: IntoIterator<Item = (&'a K, &'a T)>,
    IT: FromIterator<(K, T)> + Clone + Default,
    K: Eq + Clone,
{
    fn default() -> Self {
        ColumnarMap(Cow::Owned(IT::default()))
    }
}

impl<K, T, IT> Serialize for ColumnarMap<'_, K, T, IT>
where
    T: KeyRowSer<K, IT>,
    for<'a> &'a IT: IntoIterator<Item = (&'a K, &'a T)>,
    IT: FromIterator<(K, T)> + Clone,
    K: Eq + Clone,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        T::serialize_columns(&self.0, serializer)
    }
}

impl<'de, K, T, IT> Deserialize<'de> for ColumnarMap<'_, K, T, IT>
where
    T: KeyRowDe<'de, K, IT>,
    for<'a> &'a IT: IntoIterator<Item = (&'a K, &'a T)>,
    IT: FromIterator<(K, T)> + Clone,
    K: Eq + Clone,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        T::deserialize_columns(deserializer).map(|rows| ColumnarMap(Cow::Owned(rows)))
    }
}

/// `serde_columnar`'s per-column attribute. It is always empty there (only `index: None`
/// is ever built), so this crate's column types carry none; [`ColumnTrait::attr`] returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColumnAttr {
    /// Always `None`.
    pub index: Option<usize>,
}

/// What every column type offers (`serde_columnar`'s `ColumnTrait`).
pub trait ColumnTrait {
    /// The column's attribute (always empty).
    fn attr(&self) -> ColumnAttr {
        ColumnAttr::default()
    }
    /// The codec output.
    ///
    /// # Errors
    /// The codec's encode errors.
    fn encode(&self) -> Result<Vec<u8>>;
    /// A column from codec output.
    ///
    /// # Errors
    /// The codec's decode errors.
    fn decode(bytes: &[u8]) -> Result<Self>
    where
        Self: Sized;
    /// The number of values.
    fn len(&self) -> usize;
    /// Whether there are no values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

macro_rules! column_trait {
    ($column:ty, [$($bounds:tt)*]) => {
        impl<$($bounds)*> ColumnTrait for $column {
            fn encode(&self) -> Result<Vec<u8>> {
                <$column>::encode(self)
            }
            fn decode(bytes: &[u8]) -> Result<Self> {
                <$column>::decode(bytes)
            }
            fn len(&self) -> usize {
                <$column>::len(self)
            }
        }
    };
}

column_trait!(RleColumn<T>, [T: Rleable]);
column_trait!(DeltaRleColumn<T>, [T: DeltaRleable]);
column_trait!(DeltaOfDeltaColumn<T>, [T: DeltaOfDeltable]);
column_trait!(GenericColumn<T>, [T: Serialize + serde::de::DeserializeOwned]);
column_trait!(BoolRleColumn, []);
