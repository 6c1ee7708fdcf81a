//! The serde serializer methods that every format writes the same way, as macros:
//! `forward_compound!` implements serde's compound traits (`SerializeSeq`, `SerializeTuple`,
//! ..., `SerializeStructVariant`) over a compound type's one element method and one finishing
//! method, `compound_types!` declares a serializer's associated types (`tuple_into_self!` the
//! tuple of a helper that takes one), `serializer_methods!` writes the methods with long
//! signatures from their argument names, and `refuse!` writes the serializer methods that reject
//! their input (the helper serializers that accept one shape of value, such as a MessagePack
//! extension or a fraction).

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
            #[inline(always)]
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

/// Implements `SerializeTuple` for a helper serializer declared `compound_types!(tuple only)`:
/// the helper serializes each element itself, and the tuple ends with nothing more to write.
macro_rules! tuple_into_self {
    ($ty:ty) => {
        impl serde::ser::SerializeTuple for $ty {
            type Ok = ();
            type Error = $crate::Error;
            fn serialize_element<T: ?Sized + serde::Serialize>(
                &mut self,
                value: &T,
            ) -> $crate::Result<()> {
                value.serialize(&mut **self)
            }
            fn end(self) -> $crate::Result<()> {
                Ok(())
            }
        }
    };
}

/// Writes `serde::Serializer` methods, each `fn serialize_x(self, args..) => body;`, for the
/// methods whose signatures are long: a generic `value`, a type `name`, a variant `index` and
/// `variant` name, a `len`. The macro knows each method's argument and return types, as
/// `deserializer_methods!` does for deserializers; attributes such as `#[inline]` go before `fn`.
macro_rules! serializer_methods {
    ($($(#[$attr:meta])* fn $method:ident($self:ident $(, $arg:tt)*) => $body:expr;)*) => {
        $(serializer_methods!(@fn [$(#[$attr])*] $method($self $(, $arg)*) $body);)*
    };
    (@fn $a:tt serialize_some($s:ident, $value:tt) $body:expr) => {
        serializer_methods!(@value $a serialize_some($s) $value $body);
    };
    (@fn $a:tt serialize_newtype_struct($s:ident, $name:tt, $value:tt) $body:expr) => {
        serializer_methods!(@value $a serialize_newtype_struct($s, $name: &'static str) $value
            $body);
    };
    (@fn $a:tt serialize_newtype_variant($s:ident, $name:tt, $index:tt, $variant:tt, $value:tt)
        $body:expr) => {
        serializer_methods!(@value $a serialize_newtype_variant($s, $name: &'static str,
            $index: u32, $variant: &'static str) $value $body);
    };
    (@fn $a:tt serialize_unit_struct($s:ident, $name:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_unit_struct($s, $name: &'static str) -> Ok
            $body);
    };
    (@fn $a:tt serialize_unit_variant($s:ident, $name:tt, $index:tt, $variant:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_unit_variant($s, $name: &'static str,
            $index: u32, $variant: &'static str) -> Ok $body);
    };
    (@fn $a:tt serialize_seq($s:ident, $len:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_seq($s, $len: Option<usize>) -> SerializeSeq
            $body);
    };
    (@fn $a:tt serialize_map($s:ident, $len:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_map($s, $len: Option<usize>) -> SerializeMap
            $body);
    };
    (@fn $a:tt serialize_tuple($s:ident, $len:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_tuple($s, $len: usize) -> SerializeTuple $body);
    };
    (@fn $a:tt serialize_tuple_struct($s:ident, $name:tt, $len:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_tuple_struct($s, $name: &'static str,
            $len: usize) -> SerializeTupleStruct $body);
    };
    (@fn $a:tt serialize_struct($s:ident, $name:tt, $len:tt) $body:expr) => {
        serializer_methods!(@returns $a serialize_struct($s, $name: &'static str, $len: usize)
            -> SerializeStruct $body);
    };
    (@fn $a:tt serialize_tuple_variant($s:ident, $name:tt, $index:tt, $variant:tt, $len:tt)
        $body:expr) => {
        serializer_methods!(@returns $a serialize_tuple_variant($s, $name: &'static str,
            $index: u32, $variant: &'static str, $len: usize) -> SerializeTupleVariant $body);
    };
    (@fn $a:tt serialize_struct_variant($s:ident, $name:tt, $index:tt, $variant:tt, $len:tt)
        $body:expr) => {
        serializer_methods!(@returns $a serialize_struct_variant($s, $name: &'static str,
            $index: u32, $variant: &'static str, $len: usize) -> SerializeStructVariant $body);
    };
    (@value [$($attr:tt)*] $method:ident($s:ident $(, $arg:tt: $ty:ty)*) $value:tt
        $body:expr) => {
        $($attr)*
        fn $method<T: ?Sized + serde::Serialize>(
            $s,
            $($arg: $ty,)*
            $value: &T,
        ) -> $crate::Result<Self::Ok> {
            $body
        }
    };
    (@returns [$($attr:tt)*] $method:ident($s:ident $(, $arg:tt: $ty:ty)*) -> $ret:ident
        $body:expr) => {
        $($attr)*
        fn $method($s, $($arg: $ty),*) -> $crate::Result<Self::$ret> {
            $body
        }
    };
}

/// Writes `serde::Serializer` methods that all return `Err($error)`, by name: list the methods
/// the serializer does not accept, e.g. `refuse!(not_a_pair(); serialize_bool serialize_seq);`.
macro_rules! refuse {
    ($error:expr; $($method:ident)*) => {
        $(refuse!(@one $error; $method);)*
    };
    (@one $error:expr; serialize_some) => {
        serializer_methods!(fn serialize_some(self, _) => Err($error););
    };
    (@one $error:expr; serialize_newtype_struct) => {
        serializer_methods!(fn serialize_newtype_struct(self, _, _) => Err($error););
    };
    (@one $error:expr; serialize_newtype_variant) => {
        serializer_methods!(fn serialize_newtype_variant(self, _, _, _, _) => Err($error););
    };
    (@one $error:expr; serialize_seq) => {
        serializer_methods!(fn serialize_seq(self, _) => Err($error););
    };
    (@one $error:expr; serialize_tuple) => {
        serializer_methods!(fn serialize_tuple(self, _) => Err($error););
    };
    (@one $error:expr; serialize_tuple_struct) => {
        serializer_methods!(fn serialize_tuple_struct(self, _, _) => Err($error););
    };
    (@one $error:expr; serialize_tuple_variant) => {
        serializer_methods!(fn serialize_tuple_variant(self, _, _, _, _) => Err($error););
    };
    (@one $error:expr; serialize_map) => {
        serializer_methods!(fn serialize_map(self, _) => Err($error););
    };
    (@one $error:expr; serialize_struct) => {
        serializer_methods!(fn serialize_struct(self, _, _) => Err($error););
    };
    (@one $error:expr; serialize_struct_variant) => {
        serializer_methods!(fn serialize_struct_variant(self, _, _, _, _) => Err($error););
    };
    (@one $error:expr; serialize_unit_struct) => {
        serializer_methods!(fn serialize_unit_struct(self, _) => Err($error););
    };
    (@one $error:expr; serialize_unit_variant) => {
        serializer_methods!(fn serialize_unit_variant(self, _, _, _) => Err($error););
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
    (@ok $error:expr; $method:ident($($arg:ty),*)) => {
        fn $method(self, $(_: $arg),*) -> $crate::Result<Self::Ok> {
            Err($error)
        }
    };
}
