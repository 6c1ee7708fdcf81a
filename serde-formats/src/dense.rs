//! The opt-in bulk path for slices of fixed-width numbers, in the spirit of `serde_bytes`: the
//! wrapper types [`DenseSlice`] and [`DenseVec`], the `#[serde(with = "serde_formats::dense")]`
//! functions [`serialize`] and [`deserialize`], and the crate-private glue the formats use to
//! recognise them (the magic newtype names, `BlockWriter` and `BlockDeserializer`).
//!
//! serde hands a `Vec<f64>` to a serializer one element at a time, and a deserializer hands it
//! back the same way. Marking a field dense lets this crate's formats move it as one
//! little-endian block instead, while every other serde format (serde_json, postcard, bincode,
//! rmp-serde, …) still sees an ordinary sequence of numbers.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use serde_formats::dense::{DenseSlice, DenseVec};
//! use serde_formats::{dynd, typed_column};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Samples {
//!     rate: u32,
//!     #[serde(with = "serde_formats::dense")]
//!     values: Vec<f64>,
//! }
//!
//! let samples = Samples { rate: 48_000, values: vec![0.5, -1.0, 2.25] };
//! // The bytes are exactly those of the ordinary path: only the speed differs.
//! let plain = dynd::to_bytes(&(48_000u32, vec![0.5f64, -1.0, 2.25]))?;
//! assert_eq!(dynd::to_bytes(&samples)?, plain);
//! assert_eq!(dynd::from_bytes::<Samples>(&plain)?, samples);
//! assert_eq!(typed_column::from_bytes::<Samples>(&typed_column::to_bytes(&samples)?)?, samples);
//!
//! // Other formats see a sequence.
//! let json = serde_json::to_string(&DenseSlice(&[1u16, 2, 3][..])).unwrap();
//! assert_eq!(json, "[1,2,3]");
//! let back: DenseVec<u16> = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.0, [1, 2, 3]);
//! # Ok::<(), serde_formats::Error>(())
//! ```
//!
//! # What each format does with a dense sequence
//!
//! | format | element types written and read as one block | bytes |
//! | --- | --- | --- |
//! | [`dynd`](crate::dynd) | all ten ([`Element`]) | `var * T`: LEB128 count, then the elements, as the ordinary path |
//! | [`typed_column`](crate::typed_column) | `f64` (Float atoms are its bytes); other types take the ordinary path, since the format stores integers as 16-byte Fractions and `f32` widened | the same type and data arrays as the ordinary path |
//! | `toc`, `vector` | none: the ordinary path | unchanged |
//!
//! Reading a dense field through the block path needs the input in the block's shape: DyND
//! always is; for typed-column, a column written dense (see the module docs) is read as one
//! block and any other valid layout through the ordinary path, so every input the ordinary path
//! accepts is accepted. Errors keep their kinds and byte offsets (a count past the input is
//! [`ErrorKind::LengthPastEnd`] at the count).
//!
//! # Speed
//!
//! Measured with `cargo bench -p serde-formats --bench dynd vec_f64` and `--bench typed_column
//! dense_f64` (1M `f64`, 8 MB; criterion medians on a loaded 2-core machine, speed as a
//! fraction of copying the same bytes in the same run: DyND against a copy into a reused
//! buffer, typed-column against a copy into a fresh `Vec`; ±10-20% run to run):
//!
//! | path | DyND write | DyND read | typed-column `to_bytes` | typed-column `from_bytes` |
//! | --- | --- | --- | --- | --- |
//! | ordinary `Vec<f64>` | 0.31–0.39× | 0.24–0.25× | 0.33–0.41× | 0.32–0.40× |
//! | dense (this module) | 0.87–1.39× | 0.70–1.00× | 0.47–0.73× | 0.59–0.96× |
//!
//! (Three runs, each alternated with a build from before the ordinary path's fast path, which
//! measured 0.21–0.30× for the DyND write and 0.10–0.17× / 0.17–0.27× for typed-column; the
//! copies took 0.74–1.12 ms, so the machine was noisy.) For scale, borsh's own
//! element-by-element `Vec<f64>` write ran at 0.40–0.43× the same copy in those runs, and an
//! earlier run put it at 0.30× when its floats sit at DyND's odd addresses (`borsh_shifted` in
//! `benches/dynd.rs`): a path per element stays well below a copy whatever the format.
//! On a little-endian machine the dense write hands the slice's memory to the format as
//! one block, recognised by the format's block writer and copied in one step; on a big-endian
//! machine, and for every other serializer, the elements go one by one as a sequence. The
//! dense read checks the block's length once and converts it in one pass.
//!
//! Where the ordinary path's time goes (perf, callgrind): serde hands a `Vec<f64>` to the
//! serializer through `collect_seq`, which both formats take over: DyND writes a sequence of
//! fixed-width primitives of exact length in one loop with the output reserved once (14
//! instructions a float, 25 before), and typed-column feeds the floats to its dense path one
//! by one (16 a float, 42 before). What is left is the store of each element, one at a time,
//! into memory the copy writes in bulk (and, for DyND, at the odd addresses its LEB128 count
//! leaves). On read, serde's `Vec` visitor asks for one element at a time, preallocates at most
//! 1 MiB and then doubles; typed-column answers a request for an `f64` from a column of the
//! dense chain straight from the data, checked once (24 instructions a float, 30 before), and
//! DyND reads each float with a bounds check (25). No float
//! canonicalisation is done on either path: floats are written as their bits.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeSeq, Serializer};

use crate::{Error, ErrorKind, Result};

mod sealed {
    pub trait Sealed {}
}

/// A fixed-width number that can travel as a dense block: `u8`–`u64`, `i8`–`i64`, `f32`, `f64`.
///
/// Sealed: the formats of this crate know these ten layouts and no others.
pub trait Element:
    Copy + Serialize + for<'de> Deserialize<'de> + sealed::Sealed + Send + Sync + 'static
{
    /// Bytes of one element.
    const SIZE: usize;
    /// Which element this is, for the formats' block readers and writers.
    #[doc(hidden)]
    const KIND: ElementKind;
    /// The element from its little-endian bytes (`bytes.len() == SIZE`).
    #[doc(hidden)]
    fn from_le(bytes: &[u8]) -> Self;
}

/// The ten element types, as the formats see them.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementKind {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

/// The newtype name that marks a dense sequence of each element type. Not a Rust path, so no
/// user type is named like it by accident.
const NAMES: [(&str, ElementKind); 10] = [
    ("\0serde_formats::dense::u8", ElementKind::U8),
    ("\0serde_formats::dense::u16", ElementKind::U16),
    ("\0serde_formats::dense::u32", ElementKind::U32),
    ("\0serde_formats::dense::u64", ElementKind::U64),
    ("\0serde_formats::dense::i8", ElementKind::I8),
    ("\0serde_formats::dense::i16", ElementKind::I16),
    ("\0serde_formats::dense::i32", ElementKind::I32),
    ("\0serde_formats::dense::i64", ElementKind::I64),
    ("\0serde_formats::dense::f32", ElementKind::F32),
    ("\0serde_formats::dense::f64", ElementKind::F64),
];

impl ElementKind {
    /// Bytes of one element.
    pub(crate) const fn size(self) -> usize {
        match self {
            ElementKind::U8 | ElementKind::I8 => 1,
            ElementKind::U16 | ElementKind::I16 => 2,
            ElementKind::U32 | ElementKind::I32 | ElementKind::F32 => 4,
            ElementKind::U64 | ElementKind::I64 | ElementKind::F64 => 8,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }

    /// The magic newtype name of this element type.
    const fn name(self) -> &'static str {
        NAMES[self.index()].0
    }

    /// The element type a newtype name marks, if it is one of ours. Cheap for other names:
    /// they rarely start with a NUL byte.
    #[inline]
    pub(crate) fn of_name(name: &str) -> Option<ElementKind> {
        if !name.starts_with('\0') {
            return None;
        }
        NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, kind)| kind)
    }
}

macro_rules! element {
    ($($ty:ident $kind:ident),*) => {$(
        impl sealed::Sealed for $ty {}
        impl Element for $ty {
            const SIZE: usize = std::mem::size_of::<$ty>();
            const KIND: ElementKind = ElementKind::$kind;
            #[inline(always)]
            fn from_le(bytes: &[u8]) -> Self {
                let mut array = [0; std::mem::size_of::<$ty>()];
                array.copy_from_slice(bytes);
                <$ty>::from_le_bytes(array)
            }
        }
    )*};
}

element!(u8 U8, u16 U16, u32 U32, u64 U64, i8 I8, i16 I16, i32 I32, i64 I64, f32 F32, f64 F64);

/// A borrowed slice of numbers serialized as a dense block (by this crate's formats) or as an
/// ordinary sequence (by any other format).
///
/// ```
/// use serde_formats::dense::DenseSlice;
/// use serde_formats::dynd;
///
/// let values = [1.5f32, -0.0];
/// let bytes = dynd::to_bytes(&DenseSlice(&values[..]))?;
/// assert_eq!(bytes, dynd::to_bytes(&values.to_vec())?);
/// assert_eq!(bytes, [2, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0x80]);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DenseSlice<'a, T>(pub &'a [T]);

/// An owned vector of numbers serialized as a dense block (by this crate's formats) or as an
/// ordinary sequence (by any other format); it dereferences to the `Vec`.
///
/// ```
/// use serde_formats::dense::DenseVec;
/// use serde_formats::dynd;
///
/// let bytes = dynd::to_bytes(&vec![7u16, 8])?;
/// let values: DenseVec<u16> = dynd::from_bytes(&bytes)?;
/// assert_eq!(*values, [7, 8]);
/// assert_eq!(dynd::to_bytes(&values)?, bytes);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DenseVec<T>(pub Vec<T>);

impl<T> std::ops::Deref for DenseVec<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> std::ops::DerefMut for DenseVec<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T> From<Vec<T>> for DenseVec<T> {
    fn from(values: Vec<T>) -> Self {
        DenseVec(values)
    }
}

/// The elements inside the magic newtype: an ordinary sequence.
struct Elements<'a, T>(&'a [T]);

impl<T: Element> Serialize for Elements<'_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        // This crate's formats take the whole block in one copy; every other serializer (and
        // ours on a big-endian machine) gets the sequence.
        if let (true, Some(block)) = (is_block_writer::<S>(), little_endian_block(self.0)) {
            return serializer.serialize_bytes(block);
        }
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for element in self.0 {
            seq.serialize_element(element)?;
        }
        seq.end()
    }
}

impl<T: Element> Serialize for DenseSlice<'_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serialize(self.0, serializer)
    }
}

impl<T: Element> Serialize for DenseVec<T> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serialize(&self.0, serializer)
    }
}

impl<'de, T: Element> Deserialize<'de> for DenseVec<T> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserialize(deserializer).map(DenseVec)
    }
}

/// Serializes `values` as a dense block; use it as `#[serde(with = "serde_formats::dense")]`
/// (with [`deserialize`]) on a `Vec<T>` field, or `serialize_with` on a slice or `Vec` field.
///
/// # Errors
/// Those of the serializer.
#[inline]
pub fn serialize<T: Element, S: Serializer>(
    values: &[T],
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.serialize_newtype_struct(T::KIND.name(), &Elements(values))
}

/// Deserializes a `Vec<T>` written by [`serialize`], or any sequence of `T`.
///
/// # Errors
/// Those of the deserializer, and a block whose length is not a multiple of `T`'s size.
#[inline]
pub fn deserialize<'de, T: Element, D: Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Vec<T>, D::Error> {
    deserializer.deserialize_newtype_struct(T::KIND.name(), DenseVisitor(PhantomData))
}

/// Reads the magic newtype, and the sequence or block inside it.
struct DenseVisitor<T>(PhantomData<T>);

/// Preallocation for a sequence whose length came from the input: at most 1 MiB up front.
fn cautious<T>(hint: Option<usize>) -> usize {
    hint.unwrap_or(0)
        .min((1 << 20) / std::mem::size_of::<T>().max(1))
}

impl<'de, T: Element> Visitor<'de> for DenseVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a sequence of {}", std::any::type_name::<T>())
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Vec<T>, A::Error> {
        let mut values = Vec::with_capacity(cautious::<T>(seq.size_hint()));
        while let Some(value) = seq.next_element()? {
            values.push(value);
        }
        Ok(values)
    }

    /// The block of this crate's formats: little-endian elements back to back.
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> std::result::Result<Vec<T>, E> {
        if !bytes.len().is_multiple_of(T::SIZE) {
            return Err(E::invalid_length(bytes.len(), &self));
        }
        Ok(bytes.chunks_exact(T::SIZE).map(T::from_le).collect())
    }
}

/// Whether `S` is a [`BlockWriter`], told by its type name: serde has no other way to ask a
/// serializer what it is. Checked once per sequence; should the name ever read differently,
/// the elements take the sequence path, with the same bytes.
fn is_block_writer<S>() -> bool {
    let ours = std::any::type_name::<BlockWriter<'static, ()>>();
    let path = ours.split_inclusive('<').next().unwrap_or(ours);
    std::any::type_name::<S>().starts_with(path)
}

/// The elements' memory as bytes, which on a little-endian machine is exactly their
/// little-endian encoding; `None` on big-endian machines.
fn little_endian_block<T: Element>(values: &[T]) -> Option<&[u8]> {
    if cfg!(target_endian = "big") {
        return None;
    }
    // SAFETY: `Element` is sealed to the ten primitive integer and float types, which have no
    // padding and no invalid bit patterns, so every byte of the slice is initialised; `u8`
    // needs no alignment, and the length is the slice's size in bytes, within its allocation.
    Some(unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    })
}

/// Hands a checked block to [`DenseVisitor`]: the deserializer a format passes to
/// `visit_newtype_struct` when it recognises a dense sequence.
pub(crate) struct BlockDeserializer<'de>(pub(crate) &'de [u8]);

impl<'de> Deserializer<'de> for BlockDeserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// Where a [`BlockWriter`] puts the block: told the count first, then given the elements.
pub(crate) trait BlockSink {
    /// The sequence has `len` elements of `size` bytes.
    fn begin(&mut self, len: usize, size: usize) -> Result<()>;
    /// One element's little-endian bytes.
    fn put(&mut self, bytes: &[u8]) -> Result<()>;
}

/// Captures the elements of a dense sequence as little-endian bytes into a [`BlockSink`]:
/// the serializer a format passes the magic newtype's value to. It accepts one sequence of
/// elements of `kind` and refuses anything else.
pub(crate) struct BlockWriter<'a, S> {
    pub(crate) sink: &'a mut S,
    pub(crate) kind: ElementKind,
}

#[cold]
fn not_dense() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "a dense sequence must be a sequence of numbers of its element type",
    )
}

/// `serialize_$ty` of [`BlockWriter`] elements: writes the bytes if the kind matches.
macro_rules! element_writer {
    ($($method:ident($ty:ty) $kind:ident),*) => {$(
        #[inline(always)]
        fn $method(self, v: $ty) -> Result<()> {
            if self.kind != ElementKind::$kind {
                return Err(not_dense());
            }
            self.sink.put(&v.to_le_bytes())
        }
    )*};
}

impl<'a, S: BlockSink> Serializer for BlockWriter<'a, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = BlockSeq<'a, S>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<BlockSeq<'a, S>> {
        let len = len.ok_or_else(not_dense)?;
        self.sink.begin(len, self.kind.size())?;
        Ok(BlockSeq {
            sink: self.sink,
            kind: self.kind,
            left: len,
        })
    }

    element_writer!(
        serialize_u8(u8) U8, serialize_u16(u16) U16, serialize_u32(u32) U32,
        serialize_u64(u64) U64, serialize_i8(i8) I8, serialize_i16(i16) I16,
        serialize_i32(i32) I32, serialize_i64(i64) I64
    );

    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<()> {
        if self.kind != ElementKind::F32 {
            return Err(not_dense());
        }
        // The bits, as the formats write floats: NaN payloads and -0.0 kept.
        self.sink.put(&v.to_bits().to_le_bytes())
    }

    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<()> {
        if self.kind != ElementKind::F64 {
            return Err(not_dense());
        }
        self.sink.put(&v.to_bits().to_le_bytes())
    }

    /// The whole block at once, from [`Elements`]: its little-endian elements back to back.
    #[inline]
    fn serialize_bytes(self, bytes: &[u8]) -> Result<()> {
        let size = self.kind.size();
        if !bytes.len().is_multiple_of(size) {
            return Err(not_dense());
        }
        self.sink.begin(bytes.len() / size, size)?;
        self.sink.put(bytes)
    }

    refuse!(not_dense();
        serialize_bool serialize_char serialize_str serialize_none
        serialize_some serialize_unit serialize_unit_struct serialize_unit_variant
        serialize_newtype_struct serialize_newtype_variant serialize_tuple
        serialize_tuple_struct serialize_tuple_variant serialize_map serialize_struct
        serialize_struct_variant);
}

/// The elements of the one sequence a [`BlockWriter`] accepts; exactly as many as announced.
pub(crate) struct BlockSeq<'a, S> {
    sink: &'a mut S,
    kind: ElementKind,
    left: usize,
}

#[cold]
fn miscounted() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "a dense sequence gave another number of elements than it announced",
    )
}

impl<S: BlockSink> SerializeSeq for BlockSeq<'_, S> {
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.left = self.left.checked_sub(1).ok_or_else(miscounted)?;
        value.serialize(BlockWriter {
            sink: &mut *self.sink,
            kind: self.kind,
        })
    }

    #[inline]
    fn end(self) -> Result<()> {
        if self.left != 0 {
            return Err(miscounted());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
