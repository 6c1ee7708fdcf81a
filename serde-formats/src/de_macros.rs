//! The serde deserializer method signatures that every format writes the same way, as macros:
//! `deserializer_methods!` writes `serde::Deserializer` methods from their argument names and
//! body, so a format's impl says what each method does rather than repeating serde's signatures;
//! `enum_access_via_de!` implements `EnumAccess` for the enums whose variant name is the next
//! value of the deserializer.

/// Writes `serde::Deserializer` methods, each `fn deserialize_x(self, args.., visitor) => body;`
/// (and `VariantAccess::struct_variant`, whose signature is as long).
///
/// The macro knows each method's argument types: a type `name` is `&'static str`, a tuple `len`
/// is `usize`, and the `fields` of a struct or `variants` of an enum are
/// `&'static [&'static str]`. The visitor's lifetime is the impl's `'de`. Attributes such as
/// `#[inline]` go before `fn`.
///
/// ```text
/// deserializer_methods! {
///     #[inline]
///     fn deserialize_byte_buf(self, visitor) => self.deserialize_bytes(visitor);
///     fn deserialize_tuple_struct(self, _name, len, visitor) =>
///         self.deserialize_tuple(len, visitor);
/// }
/// ```
macro_rules! deserializer_methods {
    ($($(#[$attr:meta])* fn $method:ident($self:ident, $($arg:tt),+) => $body:expr;)*) => {
        $(deserializer_methods!(@fn [$(#[$attr])*] $method($self, $($arg),+) $body);)*
    };
    (@fn $attrs:tt deserialize_tuple($self:ident, $len:tt, $visitor:ident) $body:expr) => {
        deserializer_methods!(@emit $attrs deserialize_tuple($self, $len: usize) $visitor $body);
    };
    (@fn $attrs:tt deserialize_tuple_struct($self:ident, $name:tt, $len:tt, $visitor:ident)
        $body:expr) => {
        deserializer_methods!(@emit $attrs deserialize_tuple_struct($self, $name: &'static str,
            $len: usize) $visitor $body);
    };
    // `VariantAccess::struct_variant`: the field names.
    (@fn $attrs:tt struct_variant($self:ident, $fields:tt, $visitor:ident) $body:expr) => {
        deserializer_methods!(@emit $attrs struct_variant($self,
            $fields: &'static [&'static str]) $visitor $body);
    };
    // `deserialize_unit_struct` and `deserialize_newtype_struct`: the type's name.
    (@fn $attrs:tt $method:ident($self:ident, $name:tt, $visitor:ident) $body:expr) => {
        deserializer_methods!(@emit $attrs $method($self, $name: &'static str) $visitor $body);
    };
    // `deserialize_struct` and `deserialize_enum`: the type's name and its field or variant names.
    (@fn $attrs:tt $method:ident($self:ident, $name:tt, $names:tt, $visitor:ident) $body:expr) => {
        deserializer_methods!(@emit $attrs $method($self, $name: &'static str,
            $names: &'static [&'static str]) $visitor $body);
    };
    (@fn $attrs:tt $method:ident($self:ident, $visitor:ident) $body:expr) => {
        deserializer_methods!(@emit $attrs $method($self) $visitor $body);
    };
    (@emit [$($attr:tt)*] $method:ident($self:ident $(, $arg:tt: $ty:ty)*) $visitor:ident
        $body:expr) => {
        $($attr)*
        fn $method<V: serde::de::Visitor<'de>>(
            $self,
            $($arg: $ty,)*
            $visitor: V,
        ) -> $crate::Result<V::Value> {
            $body
        }
    };
}

/// Implements `EnumAccess` for an enum access type `$ty<'_, 'de>` whose `de` field reads the
/// variant name as its next value; the access then serves as the `VariantAccess` too.
macro_rules! enum_access_via_de {
    ($ty:ident) => {
        impl<'de> serde::de::EnumAccess<'de> for $ty<'_, 'de> {
            type Error = $crate::Error;
            type Variant = Self;

            fn variant_seed<T: serde::de::DeserializeSeed<'de>>(
                self,
                seed: T,
            ) -> $crate::Result<(T::Value, Self)> {
                let variant = seed.deserialize(&mut *self.de)?;
                Ok((variant, self))
            }
        }
    };
}
