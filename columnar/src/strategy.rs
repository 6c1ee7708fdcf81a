//! How the derive turns one field of many rows into one column: a strategy marker per codec
//! and the traits that pick its encoder, decoder and iterator for a field type.
//!
//! The `#[columnar]` macro names these through `columnar::__private`; they are public so the
//! generated code can use them, and so that a field type the strategy cannot take fails to
//! compile with an error pointing at that field.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

use crate::codec::{
    AnyRleEncoder, AnyRleIter, BoolRleEncoder, BoolRleIter, BoolRleable, DeltaOfDeltaEncoder,
    DeltaOfDeltaIter, DeltaOfDeltable, DeltaRleEncoder, DeltaRleIter, DeltaRleable, GenericEncoder,
    GenericIter,
};
pub use crate::column::{CodecDe, ColumnIter, Wrapper};
use crate::container::{MapContainer, MapContainerDe, VecContainer, VecContainerDe};
use crate::context::DecodeContext;
use crate::{wire, Result};

/// No `strategy`: the values as a postcard sequence.
#[derive(Debug)]
pub enum Generic {}
/// `strategy = "Rle"`.
#[derive(Debug)]
pub enum Rle {}
/// `strategy = "DeltaRle"`.
#[derive(Debug)]
pub enum DeltaRle {}
/// `strategy = "BoolRle"`.
#[derive(Debug)]
pub enum BoolRle {}
/// `strategy = "DeltaOfDelta"`.
#[derive(Debug)]
pub enum DeltaOfDelta {}
/// A `borrow` field of type `Cow<str>` or `Cow<[u8]>` under strategy `S`: decoded values
/// borrow from the input.
#[derive(Debug)]
pub struct Borrow<S>(PhantomData<S>);
/// A field of a row with `class = "vec"`: a Generic column whose values are vec containers
/// of rows `R`.
#[derive(Debug)]
pub struct VecClass<R>(PhantomData<R>);
/// A field of a row with `class = "map"`: a Generic column of map containers.
#[derive(Debug)]
pub struct MapClass<K, R>(PhantomData<(K, R)>);

/// Collects the values of one column, one row at a time.
pub trait ColumnEncoder<'r, T: ?Sized>: Default {
    /// Adds the value of the next row.
    ///
    /// # Errors
    /// An encode error of the codec ([`crate::ErrorKind::EncodeOverflow`]) or of the value's
    /// `Serialize` implementation.
    fn push(&mut self, value: &'r T) -> Result<()>;
    /// Returns the codec output (without the byte-string length).
    ///
    /// # Errors
    /// As [`ColumnEncoder::push`].
    fn finish(self) -> Result<Vec<u8>>;
}

/// A strategy that can encode values of type `T`.
#[diagnostic::on_unimplemented(
    message = "a `{T}` field cannot be encoded with strategy `{Self}`",
    note = "Rle takes `PartialEq + Serialize` values, DeltaRle and DeltaOfDelta integers, BoolRle `bool`"
)]
pub trait Codec<'r, T: ?Sized> {
    /// The encoder for a column of `T` borrowed for `'r`.
    type Encoder: ColumnEncoder<'r, T>;
}

/// The column encoders of the codecs whose encoder is not generic (DeltaRle, BoolRle,
/// DeltaOfDelta): each feeds the values of `T` to the codec's encoder through `push`, and
/// the strategy's [`Codec`] impl names it.
macro_rules! column_encoder {
    ($(
        $(#[$doc:meta])*
        $name:ident($encoder:ident) for $strategy:ident, T: $bound:ident,
        push: |$value:ident| $push:expr;
    )*) => {$(
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<T>($encoder, PhantomData<fn(T)>);

        impl<T> Default for $name<T> {
            fn default() -> Self {
                $name($encoder::default(), PhantomData)
            }
        }

        impl<'r, T: $bound + 'r> ColumnEncoder<'r, T> for $name<T> {
            #[inline]
            fn push(&mut self, $value: &'r T) -> Result<()> {
                self.0.push($push)
            }
            fn finish(self) -> Result<Vec<u8>> {
                self.0.finish()
            }
        }

        impl<'r, T: $bound + 'r> Codec<'r, T> for $strategy {
            type Encoder = $name<T>;
        }
    )*};
}

macro_rules! column_iter {
    ($($iter:ty => $value:ty, [$($generics:tt)*] $(where $($bound:tt)*)?;)*) => {$(
        impl<$($generics)*> ColumnIter<$value> for $iter $(where $($bound)*)? {
            #[inline]
            fn column_start(&self) -> usize {
                <$iter>::column_start(self)
            }
        }
    )*};
}

column_iter! {
    GenericIter<'de, T> => T, ['de, T: Deserialize<'de>];
    AnyRleIter<'de, T> => T, ['de, T: Clone + Deserialize<'de>];
    DeltaRleIter<'de, T> => T, ['de, T: DeltaRleable];
    BoolRleIter<'de> => bool, ['de];
    DeltaOfDeltaIter<'de, T> => T, ['de, T: DeltaOfDeltable];
}

impl<T, I: ColumnIter<Borrowed<T>>> ColumnIter<T> for Unwrapped<I> {
    #[inline]
    fn column_start(&self) -> usize {
        self.0.column_start()
    }
}

impl<'de, W: Wrapper + Deserialize<'de>> ColumnIter<W::Value> for Converted<GenericIter<'de, W>> {
    #[inline]
    fn column_start(&self) -> usize {
        self.0.column_start()
    }
}

/// An empty encoder for strategy `S` and field type `T` (the lifetime comes from the rows).
#[inline]
pub fn encoder<'r, S: Codec<'r, T>, T: ?Sized + 'r>() -> S::Encoder {
    Default::default()
}

/// Encodes a whole column with strategy `S`, one value at a time as a table does: the body of
/// the whole-column `encode` of the codecs with a streaming encoder.
#[inline]
pub(crate) fn encode_column<'r, S: Codec<'r, T>, T: 'r>(values: &'r [T]) -> Result<Vec<u8>> {
    let mut encoder = encoder::<S, T>();
    for value in values {
        encoder.push(value)?;
    }
    encoder.finish()
}

// ---- Generic ----

/// Encoder of [`Generic`] columns.
#[derive(Debug)]
pub struct GenericColumnEncoder<T: ?Sized>(GenericEncoder<T>);

impl<T: ?Sized> Default for GenericColumnEncoder<T> {
    fn default() -> Self {
        GenericColumnEncoder(GenericEncoder::default())
    }
}

impl<'r, T: Serialize + ?Sized + 'r> ColumnEncoder<'r, T> for GenericColumnEncoder<T> {
    #[inline]
    fn push(&mut self, value: &'r T) -> Result<()> {
        self.0.push(value)
    }
    fn finish(self) -> Result<Vec<u8>> {
        self.0.finish()
    }
}

impl<'r, T: Serialize + ?Sized + 'r> Codec<'r, T> for Generic {
    type Encoder = GenericColumnEncoder<T>;
}

impl<'de, T: Deserialize<'de>> CodecDe<'de, T> for Generic {
    type Iter = GenericIter<'de, T>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        GenericIter::with_base(context.bytes(), context.offset())
            .with_depth_limit(context.depth_left())
    }
    const COUNTS: bool = true;
    fn count(bytes: &'de [u8]) -> Option<usize> {
        // A postcard sequence starts with its length.
        wire::Reader::new(bytes).read_varint_usize().ok()
    }
}

// ---- Rle ----

/// Encoder of [`Rle`] columns. It keeps references to the rows' values, so runs of strings
/// are compared without cloning them.
#[derive(Debug)]
pub struct RleColumnEncoder<'r, T>(AnyRleEncoder<&'r T>);

impl<T> Default for RleColumnEncoder<'_, T> {
    fn default() -> Self {
        RleColumnEncoder(AnyRleEncoder::default())
    }
}

impl<'r, T: PartialEq + Serialize + 'r> ColumnEncoder<'r, T> for RleColumnEncoder<'r, T> {
    #[inline]
    fn push(&mut self, value: &'r T) -> Result<()> {
        self.0.push(&value)
    }
    fn finish(self) -> Result<Vec<u8>> {
        self.0.finish()
    }
}

impl<'r, T: PartialEq + Serialize + 'r> Codec<'r, T> for Rle {
    type Encoder = RleColumnEncoder<'r, T>;
}

impl<'de, T: Clone + Deserialize<'de>> CodecDe<'de, T> for Rle {
    type Iter = AnyRleIter<'de, T>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        AnyRleIter::with_base(context.bytes(), context.offset())
            .with_depth_limit(context.depth_left())
    }
}

// ---- DeltaRle, BoolRle and DeltaOfDelta encoders ----

// The BoolRle encoder and its `Codec` impl are generic over the element type too (only `bool`
// is `BoolRleable`), so that a field of another type is reported once, by the derive's
// `T: BoolRleable` bound.
column_encoder! {
    /// Encoder of [`DeltaRle`] columns.
    DeltaRleColumnEncoder(DeltaRleEncoder) for DeltaRle, T: DeltaRleable, push: |value| value;
    /// Encoder of [`BoolRle`] columns.
    BoolRleColumnEncoder(BoolRleEncoder) for BoolRle, T: BoolRleable, push: |value| &value.to_bool();
    /// Encoder of [`DeltaOfDelta`] columns.
    DeltaOfDeltaColumnEncoder(DeltaOfDeltaEncoder) for DeltaOfDelta, T: DeltaOfDeltable, push: |value| value;
}

// ---- DeltaRle ----

impl<'de, T: DeltaRleable> CodecDe<'de, T> for DeltaRle {
    type Iter = DeltaRleIter<'de, T>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        DeltaRleIter::with_base(context.bytes(), context.offset())
    }
    const COUNTS: bool = true;
    fn count(bytes: &'de [u8]) -> Option<usize> {
        crate::codec::delta_rle::count(bytes)
    }
}

// ---- BoolRle ----

/// The streaming decoder of a [`BoolRle`] column of `T`.
#[derive(Debug)]
pub struct BoolRleColumnIter<'de, T>(BoolRleIter<'de>, PhantomData<fn() -> T>);

impl<T: BoolRleable> Iterator for BoolRleColumnIter<'_, T> {
    type Item = Result<T>;
    #[inline(always)]
    fn next(&mut self) -> Option<Result<T>> {
        self.0.next().map(|value| value.map(T::from_bool))
    }
}

impl<T: BoolRleable> ColumnIter<T> for BoolRleColumnIter<'_, T> {
    #[inline]
    fn column_start(&self) -> usize {
        self.0.column_start()
    }
}

impl<'de, T: BoolRleable> CodecDe<'de, T> for BoolRle {
    type Iter = BoolRleColumnIter<'de, T>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        BoolRleColumnIter(
            BoolRleIter::with_base(context.bytes(), context.offset()),
            PhantomData,
        )
    }
    const COUNTS: bool = true;
    fn count(bytes: &'de [u8]) -> Option<usize> {
        crate::codec::bool_rle::count(bytes)
    }
}

// ---- DeltaOfDelta ----

impl<'de, T: DeltaOfDeltable> CodecDe<'de, T> for DeltaOfDelta {
    type Iter = DeltaOfDeltaIter<'de, T>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        DeltaOfDeltaIter::with_base(context.bytes(), context.offset())
    }
}

// ---- borrow ----

/// Types a `borrow` field decodes without copying: `Cow<str>` and `Cow<[u8]>` become
/// `Cow::Borrowed` (serde's own `Cow` impl always copies).
pub trait BorrowDe<'de>: Sized {
    /// Deserializes `Self` borrowing from the input.
    ///
    /// # Errors
    /// The deserializer's error when the input holds no string / byte string.
    fn deserialize_borrowed<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error>;
}

impl<'de: 'a, 'a> BorrowDe<'de> for Cow<'a, str> {
    fn deserialize_borrowed<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        <&'de str>::deserialize(deserializer).map(Cow::Borrowed)
    }
}

impl<'de: 'a, 'a> BorrowDe<'de> for Cow<'a, [u8]> {
    fn deserialize_borrowed<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        <&'de [u8]>::deserialize(deserializer).map(Cow::Borrowed)
    }
}

/// A value decoded through `BorrowDe`; serializes as the value itself.
#[derive(Debug, Clone, PartialEq)]
#[repr(transparent)]
pub struct Borrowed<T>(pub T);

impl<T: Serialize> Serialize for Borrowed<T> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T: BorrowDe<'de>> Deserialize<'de> for Borrowed<T> {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        T::deserialize_borrowed(deserializer).map(Borrowed)
    }
}

/// An iterator of `Result<Borrowed<T>>` seen as one of `Result<T>`.
#[derive(Debug)]
pub struct Unwrapped<I>(I);

impl<T, I: Iterator<Item = Result<Borrowed<T>>>> Iterator for Unwrapped<I> {
    type Item = Result<T>;
    #[inline(always)]
    fn next(&mut self) -> Option<Result<T>> {
        self.0.next().map(|value| value.map(|value| value.0))
    }
}

impl<'r, T: ?Sized, S: Codec<'r, T>> Codec<'r, T> for Borrow<S> {
    type Encoder = S::Encoder;
}

impl<'de, T: BorrowDe<'de>, S: CodecDe<'de, Borrowed<T>>> CodecDe<'de, T> for Borrow<S> {
    type Iter = Unwrapped<S::Iter>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        Unwrapped(S::iter(context))
    }
    const COUNTS: bool = S::COUNTS;
    fn count(bytes: &'de [u8]) -> Option<usize> {
        S::count(bytes)
    }
}

// ---- containers nested in a row ----

/// Encoder of a row field with `class = "vec"`: each value is written as a vec container.
pub struct VecClassEncoder<'r, R, C: ?Sized>(GenericEncoder<VecContainer<'r, R, C>>);

impl<R, C: ?Sized> Default for VecClassEncoder<'_, R, C> {
    fn default() -> Self {
        VecClassEncoder(GenericEncoder::default())
    }
}

impl<'r, R, C> ColumnEncoder<'r, C> for VecClassEncoder<'r, R, C>
where
    R: crate::container::EncodeRows + crate::container::VecRow + 'r,
    C: ?Sized + 'r,
    &'r C: IntoIterator<Item = &'r R>,
{
    #[inline]
    fn push(&mut self, value: &'r C) -> Result<()> {
        self.0.push(&VecContainer::new(value))
    }
    fn finish(self) -> Result<Vec<u8>> {
        self.0.finish()
    }
}

impl<'r, R, C> Codec<'r, C> for VecClass<R>
where
    R: crate::container::EncodeRows + crate::container::VecRow + 'r,
    C: ?Sized + 'r,
    &'r C: IntoIterator<Item = &'r R>,
{
    type Encoder = VecClassEncoder<'r, R, C>;
}

/// An iterator of `Result<W>` seen as one of `Result<W::Value>`.
#[derive(Debug)]
pub struct Converted<I>(I);

impl<W: Wrapper, I: Iterator<Item = Result<W>>> Iterator for Converted<I> {
    type Item = Result<W::Value>;
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|value| value.map(Wrapper::into_value))
    }
}

impl<'de, R, C> CodecDe<'de, C> for VecClass<R>
where
    R: crate::container::DecodeRows<'de> + crate::container::VecRow,
    C: FromIterator<R>,
{
    type Iter = Converted<GenericIter<'de, VecContainerDe<R, C>>>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        Converted(
            GenericIter::with_base(context.bytes(), context.offset())
                .with_depth_limit(context.depth_left()),
        )
    }
}

/// Encoder of a row field with `class = "map"`: each value is written as a map container.
pub struct MapClassEncoder<'r, K, R, C: ?Sized>(GenericEncoder<MapContainer<'r, K, R, C>>);

impl<K, R, C: ?Sized> Default for MapClassEncoder<'_, K, R, C> {
    fn default() -> Self {
        MapClassEncoder(GenericEncoder::default())
    }
}

impl<'r, K, R, C> ColumnEncoder<'r, C> for MapClassEncoder<'r, K, R, C>
where
    K: Serialize + 'r,
    R: crate::container::EncodeRows + crate::container::MapRow + 'r,
    C: ?Sized + 'r,
    &'r C: IntoIterator<Item = (&'r K, &'r R)>,
{
    #[inline]
    fn push(&mut self, value: &'r C) -> Result<()> {
        self.0.push(&MapContainer::new(value))
    }
    fn finish(self) -> Result<Vec<u8>> {
        self.0.finish()
    }
}

impl<'r, K, R, C> Codec<'r, C> for MapClass<K, R>
where
    K: Serialize + 'r,
    R: crate::container::EncodeRows + crate::container::MapRow + 'r,
    C: ?Sized + 'r,
    &'r C: IntoIterator<Item = (&'r K, &'r R)>,
{
    type Encoder = MapClassEncoder<'r, K, R, C>;
}

impl<'de, K, R, C> CodecDe<'de, C> for MapClass<K, R>
where
    K: Deserialize<'de>,
    R: crate::container::DecodeRows<'de> + crate::container::MapRow,
    C: FromIterator<(K, R)>,
{
    type Iter = Converted<GenericIter<'de, MapContainerDe<K, R, C>>>;
    fn iter(context: DecodeContext<'de>) -> Self::Iter {
        Converted(
            GenericIter::with_base(context.bytes(), context.offset())
                .with_depth_limit(context.depth_left()),
        )
    }
}

/// Encodes one table field value on its own, as an optional table entry holds it.
///
/// # Errors
/// Any encode error of the value.
pub fn encode_value<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    wire::to_vec(value)
}

/// Turns an encode error into the serializer's error: itself through this crate's serializer,
/// its text through another.
pub fn ser_error<E: serde::ser::Error>(err: crate::Error) -> E {
    wire::ser_column_error(err)
}
