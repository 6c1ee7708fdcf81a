//! The deserializer: walks the tree from the root, checking each description as it is reached.
//!
//! [`Layout`] has already checked the array length and the dense chain. The walk checks each
//! description it reaches, claims every column's children (so no description is shared), and
//! [`Deserializer::end`] checks that no description was left unclaimed. A visitor must read every
//! element of a column it asks for, so a successful walk has checked every description.

use serde::de::{self, Visitor};

use super::claims::Claims;
use super::fraction::{Fraction, FRACTION_TOKEN};
use super::wire::{utf8, Children, Cursor, Kind, Layout, Node};
use crate::dense::{BlockDeserializer, ElementKind};
use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Depth, Nesting};

mod access;
use access::{MapAccess, SeqAccess, UnitVariant, VariantAccess};

/// The default limit on how deeply columns may nest.
pub use crate::limits::DEFAULT_DEPTH_LIMIT;

/// The typed-column deserializer, reading borrowed data.
///
/// `&mut Deserializer` implements [`serde::Deserializer`]. [`from_bytes`](super::from_bytes) and
/// [`from_columns`](super::from_columns) wrap it; use it directly to change the depth limit.
///
/// ```
/// use serde::Deserialize;
/// use serde_formats::typed_column::Deserializer;
///
/// let types = [4, 1, 1, 4, 2, 1, 4, 0, 0];
/// let mut de = Deserializer::from_columns(&types, &[])?.with_depth_limit(1);
/// let err = Vec::<Vec<()>>::deserialize(&mut de).unwrap_err();
/// assert_eq!(err.kind(), serde_formats::ErrorKind::DepthLimitExceeded);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Debug)]
pub struct Deserializer<'de> {
    layout: Layout<'de>,
    claims: Claims,
    next: Cursor,
    depth: Depth,
}

#[cold]
fn mismatch(node: &Node<'_>, expected: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format_args!("expected {expected}, found {}", node.kind().name()),
    )
}

impl<'de> Deserializer<'de> {
    /// A deserializer over a framed buffer (`u64` LE type word count, type words, data).
    ///
    /// # Errors
    /// The framing is truncated, the type array is not whole descriptions, or a compressed
    /// description is misplaced (see the module docs for every rule).
    pub fn from_bytes(bytes: &'de [u8]) -> Result<Self> {
        Ok(Deserializer::new(Layout::from_bytes(bytes)?))
    }

    /// A deserializer over the two arrays.
    ///
    /// # Errors
    /// As [`Deserializer::from_bytes`], without the framing.
    pub fn from_columns(types: &'de [u64], data: &'de [u8]) -> Result<Self> {
        Ok(Deserializer::new(Layout::from_columns(types, data)?))
    }

    fn new(layout: Layout<'de>) -> Self {
        Deserializer {
            claims: Claims::new(layout.tree_len()),
            layout,
            next: Cursor::Desc(0),
            depth: Depth::new(DEFAULT_DEPTH_LIMIT),
        }
    }

    /// Sets how deeply Columns may nest ([`DEFAULT_DEPTH_LIMIT`] by default; see "Limits and
    /// errors" in the module docs); deeper input is an error. Call it before reading.
    #[must_use]
    pub fn with_depth_limit(mut self, limit: usize) -> Self {
        self.depth = Depth::new(limit);
        self
    }

    /// Checks that the value read covered the whole input: every description of the type
    /// array, and the data up to its last byte.
    ///
    /// # Errors
    /// [`ErrorKind::NotATree`] at the first description no column claimed;
    /// [`ErrorKind::TrailingBytes`] at the first data byte after the last one used.
    pub fn end(&self) -> Result<()> {
        self.claims.finish(self.layout.tree_len())?;
        self.layout.check_trailing()
    }

    /// Takes the value at the cursor.
    #[inline]
    fn take(&mut self) -> Result<(Cursor, Node<'de>)> {
        let cursor = self.next;
        let node = self.layout.node(cursor)?;
        Ok((cursor, node))
    }

    /// Fast path for atoms: the `N` data bytes of a `kind` atom at the cursor, or `None`
    /// (then the ordinary path reads the value and reports errors).
    #[inline]
    fn fast_atom<const N: usize>(&self, kind: Kind) -> Option<&'de [u8; N]> {
        match self.next {
            Cursor::Desc(index) => self.layout.desc_atom(index, kind),
            Cursor::ChainAtom { kind: found, at } if found == kind => {
                self.layout.data().get(at..)?.first_chunk()
            }
            _ => None,
        }
    }

    /// Takes the value at the cursor, which must be a Column (else an error naming
    /// `expected`): its cursor, length and children.
    #[inline]
    fn take_column(&mut self, expected: &str) -> Result<(Cursor, usize, Children)> {
        self.take_column_up_to(usize::MAX, expected)
    }

    /// As [`Deserializer::take_column`], for a Column of at most `max` elements.
    #[inline]
    fn take_column_up_to(
        &mut self,
        max: usize,
        expected: &str,
    ) -> Result<(Cursor, usize, Children)> {
        if let Cursor::Desc(index) = self.next {
            if let Some((len, children)) = self.layout.desc_column(index) {
                if len <= max {
                    return Ok((self.next, len, children));
                }
            }
        }
        self.take_column_slow(max, expected)
    }

    /// [`Deserializer::take_column_up_to`] off its fast path, where errors are reported.
    #[inline(never)]
    fn take_column_slow(
        &mut self,
        max: usize,
        expected: &str,
    ) -> Result<(Cursor, usize, Children)> {
        let (cursor, node) = self.take()?;
        match node {
            Node::Column { len, children } if len <= max => Ok((cursor, len, children)),
            other => Err(self.fail(cursor, mismatch(&other, expected))),
        }
    }

    #[cold]
    fn fail(&self, cursor: Cursor, err: Error) -> Error {
        err.or_position(self.layout.position(cursor))
    }

    /// Enters a column of `len` elements at `children`: claims its children and checks the depth.
    #[inline]
    fn enter(&mut self, cursor: Cursor, len: usize, children: Children) -> Result<()> {
        if let Some((first, len)) = children.claim(len) {
            if !self.claims.claim(first, len) {
                return Err(self.shared(cursor, first));
            }
        }
        self.depth
            .enter(Nesting::Columns)
            .map_err(|err| self.too_deep(cursor, err))
    }

    /// The error for a column at `cursor` whose children from `first` another column claimed.
    #[cold]
    fn shared(&self, cursor: Cursor, first: usize) -> Error {
        Claims::shared(self.layout.position(cursor), first)
    }

    /// The depth error `err` of the column at `cursor`, placed there.
    #[cold]
    fn too_deep(&self, cursor: Cursor, err: Error) -> Error {
        err.with_position(self.layout.position(cursor))
    }

    /// Enters a column, reads each of its `len` elements with `read`, and leaves it.
    #[inline]
    fn each_element(
        &mut self,
        cursor: Cursor,
        len: usize,
        children: Children,
        mut read: impl FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.enter(cursor, len, children)?;
        for index in 0..len {
            self.next = children.child(index);
            read(self)?;
        }
        self.depth.leave();
        Ok(())
    }

    /// An empty Column read as unit or `None`: nothing to enter, but it counts against the
    /// depth like any Column, as the serializer counts it.
    #[inline]
    fn empty_column(&self, cursor: Cursor) -> Result<()> {
        let mut inside = self.depth;
        inside
            .enter(Nesting::Columns)
            .map_err(|err| err.with_position(self.layout.position(cursor)))
    }

    /// Visits a column as a sequence, requiring the visitor to read every element.
    fn visit_column<V: Visitor<'de>>(
        &mut self,
        cursor: Cursor,
        len: usize,
        children: Children,
        visitor: V,
    ) -> Result<V::Value> {
        self.enter(cursor, len, children)?;
        let mut seq = SeqAccess::new(self, children, len);
        let result = visitor.visit_seq(&mut seq);
        let read = seq.index;
        self.end_container(cursor, result, [read, len], ["column", "elements"])
    }

    /// Ends a container the visitor walked: its error at the container, or an error unless it
    /// read all `len` items (`counts` is `[read, len]`, `nouns` the container's and the items').
    fn end_container<T>(
        &mut self,
        cursor: Cursor,
        result: Result<T>,
        [read, len]: [usize; 2],
        [container, items]: [&str; 2],
    ) -> Result<T> {
        let value = result.map_err(|err| self.fail(cursor, err))?;
        if read != len {
            return Err(self.fail(
                cursor,
                Error::with_message(
                    ErrorKind::Unsupported,
                    format_args!("{container} of {len} {items}, {read} read"),
                ),
            ));
        }
        self.depth.leave();
        Ok(value)
    }

    #[inline]
    fn integer<T: TryFrom<i128>>(&mut self, type_name: &str) -> Result<T> {
        if let Some(bytes) = self.fast_atom::<16>(Kind::Fraction) {
            let fraction = Fraction::from_le_bytes(bytes);
            if fraction.den == 1 {
                if let Ok(value) = T::try_from(i128::from(fraction.num)) {
                    return Ok(value);
                }
            }
        }
        self.integer_slow(type_name)
    }

    /// [`Deserializer::integer`] off its fast path, where errors are reported.
    #[inline(never)]
    fn integer_slow<T: TryFrom<i128>>(&mut self, type_name: &str) -> Result<T> {
        let (cursor, node) = self.take()?;
        match node {
            Node::Fraction(fraction) => fraction
                .to_int(type_name)
                .map_err(|err| self.fail(cursor, err)),
            other => Err(self.fail(cursor, mismatch(&other, "a Fraction (integer)"))),
        }
    }

    /// A Boolean off the fast path of `deserialize_bool`, where errors are reported.
    #[inline(never)]
    fn boolean_slow(&mut self) -> Result<bool> {
        let (cursor, node) = self.take()?;
        match node {
            Node::Boolean(value) => Ok(value),
            other => Err(self.fail(cursor, mismatch(&other, "a Boolean"))),
        }
    }

    #[inline]
    fn float(&mut self) -> Result<f64> {
        if let Some(bytes) = self.fast_atom::<8>(Kind::Float) {
            return Ok(f64::from_le_bytes(*bytes));
        }
        self.float_slow()
    }

    /// [`Deserializer::float`] off its fast path, where errors are reported.
    #[inline(never)]
    fn float_slow(&mut self) -> Result<f64> {
        let (cursor, node) = self.take()?;
        match node {
            Node::Float(value) => Ok(value),
            Node::Fraction(fraction) => Ok(fraction.to_f64()),
            other => Err(self.fail(cursor, mismatch(&other, "a Float or Fraction"))),
        }
    }

    #[inline]
    fn string(&mut self) -> Result<(Cursor, &'de str)> {
        if let Cursor::Desc(index) = self.next {
            if let Some((bytes, at)) = self.layout.desc_string(index) {
                return Ok((self.next, utf8(bytes, at)?));
            }
        }
        self.string_slow()
    }

    /// [`Deserializer::string`] off its fast path, where errors are reported.
    #[inline(never)]
    fn string_slow(&mut self) -> Result<(Cursor, &'de str)> {
        let (cursor, node) = self.take()?;
        match node {
            Node::String { bytes, at } => Ok((cursor, utf8(bytes, at)?)),
            other => Err(self.fail(cursor, mismatch(&other, "a String"))),
        }
    }

    /// A dense `f64` sequence ([`crate::dense`]) over a column written dense: its cursor,
    /// length, children and the block of its Floats. `None` for any other input, which the
    /// ordinary path then reads (and reports errors in).
    #[allow(clippy::type_complexity)]
    fn dense_floats(&self) -> Option<(Cursor, usize, Children, &'de [u8])> {
        let cursor = self.next;
        let Ok(Node::Column {
            len,
            children:
                children @ Children::ChainAtoms {
                    kind: Kind::Float,
                    base,
                    size: 8,
                },
        }) = self.layout.node(cursor)
        else {
            return None;
        };
        let data = self.layout.data();
        let block = len
            .checked_mul(8)
            .and_then(|bytes| data.get(base..base.checked_add(bytes)?))?;
        Some((cursor, len, children, block))
    }

    /// A newtype struct: a dense `f64` block or a fraction where `name` asks for one, else
    /// the inner value.
    fn newtype<V: Visitor<'de>>(&mut self, name: &'static str, visitor: V) -> Result<V::Value> {
        if ElementKind::of_name(name) == Some(ElementKind::F64) {
            if let Some((cursor, len, children, block)) = self.dense_floats() {
                self.enter(cursor, len, children)?;
                let value = visitor
                    .visit_newtype_struct(BlockDeserializer(block))
                    .map_err(|err| self.fail(cursor, err))?;
                self.depth.leave();
                return Ok(value);
            }
        }
        if name == FRACTION_TOKEN {
            let (cursor, node) = self.take()?;
            return match node {
                Node::Fraction(fraction) => {
                    visitor.visit_newtype_struct(de::value::SeqDeserializer::<_, Error>::new(
                        [fraction.num, fraction.den].into_iter(),
                    ))
                }
                other => Err(self.fail(cursor, mismatch(&other, "a Fraction"))),
            };
        }
        visitor.visit_newtype_struct(self)
    }

    /// An enum: a String (a unit variant) or a Column `[name, payload]`.
    fn enum_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let (cursor, node) = self.take()?;
        match node {
            Node::String { bytes, at } => {
                let name = utf8(bytes, at)?;
                visitor
                    .visit_enum(UnitVariant { name })
                    .map_err(|err| self.fail(cursor, err))
            }
            Node::Column { len: 2, children } => {
                self.enter(cursor, 2, children)?;
                self.next = children.child(0);
                let value = visitor
                    .visit_enum(VariantAccess {
                        de: &mut *self,
                        payload: children.child(1),
                    })
                    .map_err(|err| self.fail(cursor, err))?;
                self.depth.leave();
                Ok(value)
            }
            other => Err(self.fail(
                cursor,
                mismatch(
                    &other,
                    "a String (unit variant) or a Column [name, payload]",
                ),
            )),
        }
    }

    /// Walks a value nobody reads, checking it all the same.
    fn skip(&mut self) -> Result<()> {
        let (cursor, node) = self.take()?;
        match node {
            Node::String { bytes, at } => utf8(bytes, at).map(|_| ()),
            Node::Column { len, children } => self.each_element(cursor, len, children, Self::skip),
            Node::Boolean(_) | Node::Fraction(_) | Node::Float(_) => Ok(()),
        }
    }
}

macro_rules! deserialize_integer {
    ($($method:ident => $visit:ident($ty:ty);)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let value: $ty = self.integer(stringify!($ty))?;
            visitor.$visit(value)
        })*
    };
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, node) = self.take()?;
        let result = match node {
            Node::Boolean(value) => visitor.visit_bool(value),
            Node::Fraction(fraction) if fraction.den == 1 => visitor.visit_i64(fraction.num),
            Node::Fraction(fraction) => visitor.visit_f64(fraction.to_f64()),
            Node::Float(value) => visitor.visit_f64(value),
            Node::String { bytes, at } => visitor.visit_borrowed_str(utf8(bytes, at)?),
            Node::Column { len, children } => {
                return self.visit_column(cursor, len, children, visitor)
            }
        };
        result.map_err(|err| self.fail(cursor, err))
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = match self.fast_atom(Kind::Boolean) {
            Some(&[byte]) => byte != 0,
            None => self.boolean_slow()?,
        };
        visitor.visit_bool(value)
    }

    deserialize_integer! {
        deserialize_i8 => visit_i8(i8);
        deserialize_i16 => visit_i16(i16);
        deserialize_i32 => visit_i32(i32);
        deserialize_i64 => visit_i64(i64);
        deserialize_i128 => visit_i128(i128);
        deserialize_u8 => visit_u8(u8);
        deserialize_u16 => visit_u16(u16);
        deserialize_u32 => visit_u32(u32);
        deserialize_u64 => visit_u64(u64);
        deserialize_u128 => visit_u128(u128);
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = self.float()?;
        visitor.visit_f32(value as f32)
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = self.float()?;
        visitor.visit_f64(value)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, s) = self.string()?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => visitor.visit_char(c),
            _ => Err(self.fail(
                cursor,
                Error::with_message(
                    ErrorKind::InvalidChar,
                    format_args!("string of {} chars read as a char", s.chars().count()),
                ),
            )),
        }
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, s) = self.string()?;
        visitor
            .visit_borrowed_str(s)
            .map_err(|err| self.fail(cursor, err))
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, node) = self.take()?;
        match node {
            Node::String { bytes, .. } => visitor.visit_borrowed_bytes(bytes),
            Node::Column { len, children } => {
                // Bounded by the input: each element has its own description or data bytes.
                let mut bytes = Vec::with_capacity(len.min(1 << 16));
                self.each_element(cursor, len, children, |de| {
                    bytes.push(de.integer::<u8>("u8")?);
                    Ok(())
                })?;
                visitor.visit_byte_buf(bytes)
            }
            other => Err(self.fail(cursor, mismatch(&other, "a Column of u8 or a String"))),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, len, children) =
            self.take_column_up_to(1, "a Column of 0 or 1 (an Option)")?;
        if len == 0 {
            self.empty_column(cursor)?;
            return visitor.visit_none();
        }
        self.enter(cursor, len, children)?;
        self.next = children.child(0);
        let value = visitor.visit_some(&mut *self)?;
        self.depth.leave();
        Ok(value)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, ..) = self.take_column_up_to(0, "an empty Column (unit)")?;
        self.empty_column(cursor)?;
        visitor.visit_unit()
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, len, children) = self.take_column("a Column")?;
        self.visit_column(cursor, len, children, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, len, children) = self.take_column("a Column of [key, value] Columns")?;
        self.enter(cursor, len, children)?;
        let mut map = MapAccess::new(self, children, len);
        let result = visitor.visit_map(&mut map);
        let read = map.index;
        self.end_container(cursor, result, [read, len], ["map", "entries"])
    }

    // The methods that only pass on to another: unit structs are units, tuples and structs are
    // sequences of their fields.
    deserializer_methods! {
        #[inline]
        fn deserialize_string(self, visitor) => self.deserialize_str(visitor);
        fn deserialize_byte_buf(self, visitor) => self.deserialize_bytes(visitor);
        fn deserialize_unit_struct(self, _name, visitor) => self.deserialize_unit(visitor);
        fn deserialize_newtype_struct(self, name, visitor) => self.newtype(name, visitor);
        fn deserialize_tuple(self, _len, visitor) => self.deserialize_seq(visitor);
        fn deserialize_tuple_struct(self, _name, _len, visitor) => self.deserialize_seq(visitor);
        #[inline]
        fn deserialize_struct(self, _name, _fields, visitor) => self.deserialize_seq(visitor);
        fn deserialize_enum(self, _name, _variants, visitor) => self.enum_value(visitor);
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (cursor, node) = self.take()?;
        let result = match node {
            Node::String { bytes, at } => visitor.visit_borrowed_str(utf8(bytes, at)?),
            Node::Fraction(fraction) => {
                let index: u64 = fraction.to_int("a variant index")?;
                visitor.visit_u64(index)
            }
            other => return Err(self.fail(cursor, mismatch(&other, "a String (a name)"))),
        };
        result.map_err(|err| self.fail(cursor, err))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip()?;
        visitor.visit_unit()
    }
}
