//! The serde serializer methods that every format writes the same way, as macros:
//! `forward_compound!` implements serde's compound traits (`SerializeSeq`, `SerializeTuple`,
//! ..., `SerializeStructVariant`) over a compound type's one element method and one finishing
//! method, `compound_types!` declares a serializer's associated types, and `refuse!` writes the
//! serializer methods that reject their input (the helper serializers that accept one shape of
//! value, such as a MessagePack extension or a fraction).

/// Implements serde compound traits for a type by forwarding to its own methods.
///
/// - `[generics] Type; Trait::method, ... => element, finish;` for positional traits: each
///   element or field is `self.element(value)`, `end` is `self.finish()`.
/// - `[generics] Type; named => field(key, value), finish;` for `SerializeStruct` and
///   `SerializeStructVariant`, passing the field name; `field(value)` drops it.
/// - `skip => skip_method` after the finishing method also forwards `skip_field(key)`.
macro_rules! forward_compound {
    ($gen:tt $ty:ty; $($trait:ident :: $method:ident),+ => $element:ident, $finish:ident;) => {
        $(forward_compound!(@positional $gen $ty; $trait $method $element $finish);)+
    };
    ($gen:tt $ty:ty; named => $field:ident(key, value), $finish:ident $(, skip => $skip:ident)?;) => {
        forward_compound!(@named $gen $ty; SerializeStruct [key, value] $field $finish $($skip)?);
        forward_compound!(@named $gen $ty; SerializeStructVariant [key, value] $field $finish $($skip)?);
    };
    ($gen:tt $ty:ty; named => $field:ident(value), $finish:ident $(, skip => $skip:ident)?;) => {
        forward_compound!(@named $gen $ty; SerializeStruct [_key, value] $field $finish $($skip)?);
        forward_compound!(@named $gen $ty; SerializeStructVariant [_key, value] $field $finish $($skip)?);
    };
    (@positional [$($gen:tt)*] $ty:ty; $trait:ident $method:ident $element:ident $finish:ident) => {
        impl<$($gen)*> serde::ser::$trait for $ty {
            type Ok = ();
            type Error = $crate::Error;
            #[inline]
            fn $method<T: ?Sized + serde::Serialize>(&mut self, value: &T) -> $crate::Result<()> {
                self.$element(value)
            }
            #[inline]
            fn end(self) -> $crate::Result<()> {
                self.$finish()
            }
        }
    };
    (@named [$($gen:tt)*] $ty:ty; $trait:ident [$key:ident, $value:ident] $field:ident
        $finish:ident $($skip:ident)?) => {
        impl<$($gen)*> serde::ser::$trait for $ty {
            type Ok = ();
            type Error = $crate::Error;
            #[inline]
            fn serialize_field<T: ?Sized + serde::Serialize>(
                &mut self,
                $key: &'static str,
                $value: &T,
            ) -> $crate::Result<()> {
                forward_compound!(@call self $field [$key, $value])
            }
            $(fn skip_field(&mut self, key: &'static str) -> $crate::Result<()> {
                self.$skip(key)
            })?
            #[inline]
            fn end(self) -> $crate::Result<()> {
                self.$finish()
            }
        }
    };
    (@call $self:ident $field:ident [_key, $value:ident]) => { $self.$field($value) };
    (@call $self:ident $field:ident [$key:ident, $value:ident]) => { $self.$field($key, $value) };
}

/// Declares a `serde::Serializer`'s associated types: `Ok = ()`, the crate's `Error`, and the
/// seven compound types.
///
/// - `Type => SerializeSeq SerializeMap ...; Other => ...;` names each compound type once,
///   grouped by the type that implements them.
/// - `tuple only` for a helper serializer that takes one tuple (`SerializeTuple = Self`) and no
///   other compound value (the rest are `Impossible`).
macro_rules! compound_types {
    (tuple only) => {
        compound_types! {
            Self => SerializeTuple;
            serde::ser::Impossible<(), $crate::Error> => SerializeSeq SerializeTupleStruct
                SerializeTupleVariant SerializeMap SerializeStruct SerializeStructVariant;
        }
    };
    ($($ty:ty => $($compound:ident)+;)+) => {
        type Ok = ();
        type Error = $crate::Error;
        $($(type $compound = $ty;)+)+
    };
}

/// Writes `serde::Serializer` methods that all return `Err($error)`, by name: list the methods
/// the serializer does not accept, e.g. `refuse!(not_a_pair(); serialize_bool serialize_seq);`.
macro_rules! refuse {
    ($error:expr; $($method:ident)*) => {
        $(refuse!(@one $error; $method);)*
    };
    (@one $error:expr; serialize_some) => {
        fn serialize_some<T: ?Sized + serde::Serialize>(self, _: &T) -> $crate::Result<Self::Ok> {
            Err($error)
        }
    };
    (@one $error:expr; serialize_newtype_struct) => {
        fn serialize_newtype_struct<T: ?Sized + serde::Serialize>(
            self,
            _: &'static str,
            _: &T,
        ) -> $crate::Result<Self::Ok> {
            Err($error)
        }
    };
    (@one $error:expr; serialize_newtype_variant) => {
        fn serialize_newtype_variant<T: ?Sized + serde::Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> $crate::Result<Self::Ok> {
            Err($error)
        }
    };
    (@one $error:expr; serialize_seq) => {
        refuse!(@fn $error; serialize_seq(Option<usize>) -> SerializeSeq);
    };
    (@one $error:expr; serialize_tuple) => {
        refuse!(@fn $error; serialize_tuple(usize) -> SerializeTuple);
    };
    (@one $error:expr; serialize_tuple_struct) => {
        refuse!(@fn $error; serialize_tuple_struct(&'static str, usize) -> SerializeTupleStruct);
    };
    (@one $error:expr; serialize_tuple_variant) => {
        refuse!(@fn $error; serialize_tuple_variant(&'static str, u32, &'static str, usize)
            -> SerializeTupleVariant);
    };
    (@one $error:expr; serialize_map) => {
        refuse!(@fn $error; serialize_map(Option<usize>) -> SerializeMap);
    };
    (@one $error:expr; serialize_struct) => {
        refuse!(@fn $error; serialize_struct(&'static str, usize) -> SerializeStruct);
    };
    (@one $error:expr; serialize_struct_variant) => {
        refuse!(@fn $error; serialize_struct_variant(&'static str, u32, &'static str, usize)
            -> SerializeStructVariant);
    };
    (@one $error:expr; serialize_bool) => { refuse!(@ok $error; serialize_bool(bool)); };
    (@one $error:expr; serialize_i8) => { refuse!(@ok $error; serialize_i8(i8)); };
    (@one $error:expr; serialize_i16) => { refuse!(@ok $error; serialize_i16(i16)); };
    (@one $error:expr; serialize_i32) => { refuse!(@ok $error; serialize_i32(i32)); };
    (@one $error:expr; serialize_i64) => { refuse!(@ok $error; serialize_i64(i64)); };
    (@one $error:expr; serialize_u8) => { refuse!(@ok $error; serialize_u8(u8)); };
    (@one $error:expr; serialize_u16) => { refuse!(@ok $error; serialize_u16(u16)); };
    (@one $error:expr; serialize_u32) => { refuse!(@ok $error; serialize_u32(u32)); };
    (@one $error:expr; serialize_u64) => { refuse!(@ok $error; serialize_u64(u64)); };
    (@one $error:expr; serialize_f32) => { refuse!(@ok $error; serialize_f32(f32)); };
    (@one $error:expr; serialize_f64) => { refuse!(@ok $error; serialize_f64(f64)); };
    (@one $error:expr; serialize_char) => { refuse!(@ok $error; serialize_char(char)); };
    (@one $error:expr; serialize_str) => { refuse!(@ok $error; serialize_str(&str)); };
    (@one $error:expr; serialize_bytes) => { refuse!(@ok $error; serialize_bytes(&[u8])); };
    (@one $error:expr; serialize_none) => { refuse!(@ok $error; serialize_none()); };
    (@one $error:expr; serialize_unit) => { refuse!(@ok $error; serialize_unit()); };
    (@one $error:expr; serialize_unit_struct) => {
        refuse!(@ok $error; serialize_unit_struct(&'static str));
    };
    (@one $error:expr; serialize_unit_variant) => {
        refuse!(@ok $error; serialize_unit_variant(&'static str, u32, &'static str));
    };
    (@ok $error:expr; $method:ident($($arg:ty),*)) => {
        fn $method(self, $(_: $arg),*) -> $crate::Result<Self::Ok> {
            Err($error)
        }
    };
    (@fn $error:expr; $method:ident($($arg:ty),*) -> $compound:ident) => {
        fn $method(self, $(_: $arg),*) -> $crate::Result<Self::$compound> {
            Err($error)
        }
    };
}
