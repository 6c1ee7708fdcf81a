//! The serde access types the deserializer hands to visitors: a column's elements
//! ([`SeqAccess`]), a map's `[key, value]` entries ([`MapAccess`]), and enum variants
//! ([`UnitVariant`] for a bare name, [`VariantAccess`] for `Column[name, payload]`).

use serde::de::{self, value::BorrowedStrDeserializer, DeserializeSeed, IntoDeserializer, Visitor};

use super::super::wire::{Children, Cursor, Kind, Node};
use super::{mismatch, Deserializer};
use crate::error::{Error, ErrorKind, Result};

pub(super) struct SeqAccess<'a, 'de> {
    pub(super) de: &'a mut Deserializer<'de>,
    pub(super) children: Children,
    pub(super) len: usize,
    pub(super) index: usize,
    /// A column of the dense chain made of Float atoms, all within the input: its data, which
    /// a `Vec<f64>` (or any sequence read as `f64` elements) takes its elements from directly.
    floats: Option<&'de [u8]>,
}

impl<'a, 'de> SeqAccess<'a, 'de> {
    /// The elements of a column of `len`, none read yet.
    pub(super) fn new(de: &'a mut Deserializer<'de>, children: Children, len: usize) -> Self {
        let floats = match children {
            Children::ChainAtoms {
                kind: Kind::Float,
                base,
                size: 8,
            } => len
                .checked_mul(8)
                .and_then(|bytes| base.checked_add(bytes))
                .and_then(|end| de.layout.data().get(base..end)),
            _ => None,
        };
        SeqAccess {
            de,
            children,
            len,
            index: 0,
            floats,
        }
    }
}

/// Whether the seed is serde's for an `f64` element (`next_element::<f64>`), told by its type
/// name, a constant: that element deserializes a Float atom exactly as `visit_f64` of its value.
#[inline(always)]
fn is_f64_seed<T>() -> bool {
    std::any::type_name::<T>() == std::any::type_name::<std::marker::PhantomData<f64>>()
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        if is_f64_seed::<T>() {
            let at = self.index * 8;
            if let Some(bytes) = self
                .floats
                .and_then(|floats| floats.get(at..)?.first_chunk())
            {
                self.index += 1;
                let value = f64::from_le_bytes(*bytes);
                return seed.deserialize(value.into_deserializer()).map(Some);
            }
        }
        self.de.next = self.children.child(self.index);
        self.index += 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.index)
    }
}

pub(super) struct MapAccess<'a, 'de> {
    pub(super) de: &'a mut Deserializer<'de>,
    pub(super) children: Children,
    pub(super) len: usize,
    pub(super) index: usize,
    /// The pending value's cursor, after its key was read.
    pub(super) value: Option<Cursor>,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    /// The entries of a map column of `len`, none read yet.
    pub(super) fn new(de: &'a mut Deserializer<'de>, children: Children, len: usize) -> Self {
        MapAccess {
            de,
            children,
            len,
            index: 0,
            value: None,
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        let entry = self.children.child(self.index);
        self.index += 1;
        let node = self.de.layout.node(entry)?;
        let Node::Column { len: 2, children } = node else {
            return Err(self
                .de
                .fail(entry, mismatch(&node, "a [key, value] Column")));
        };
        // The entry column is entered here and left when its value has been read.
        self.de.enter(entry, 2, children)?;
        self.de.next = children.child(0);
        self.value = Some(children.child(1));
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some(cursor) = self.value.take() else {
            return Err(Error::with_message(
                ErrorKind::Message,
                "map value read before its key",
            ));
        };
        self.de.next = cursor;
        let value = seed.deserialize(&mut *self.de)?;
        self.de.depth.leave();
        Ok(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.len - self.index)
    }
}

pub(super) struct UnitVariant<'de> {
    pub(super) name: &'de str,
}

impl<'de> de::EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = BorrowedStrDeserializer::<'de, Error>::new(self.name);
        Ok((seed.deserialize(name)?, self))
    }
}

#[cold]
fn wrong_variant_form(found: &str, expected: &str) -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        format_args!("{found} where {expected} was expected"),
    )
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _: T) -> Result<T::Value> {
        Err(wrong_variant_form("a unit variant", "a newtype variant"))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value> {
        Err(wrong_variant_form("a unit variant", "a tuple variant"))
    }
    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], _: V) -> Result<V::Value> {
        Err(wrong_variant_form("a unit variant", "a struct variant"))
    }
}

pub(super) struct VariantAccess<'a, 'de> {
    pub(super) de: &'a mut Deserializer<'de>,
    pub(super) payload: Cursor,
}

enum_access_via_de!(VariantAccess);

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Err(self.de.fail(
            self.payload,
            wrong_variant_form("a variant with a payload", "a unit variant"),
        ))
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.de.next = self.payload;
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.de.next = self.payload;
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }
    deserializer_methods! {
        fn struct_variant(self, fields, visitor) =>
            de::VariantAccess::tuple_variant(self, fields.len(), visitor);
    }
}
