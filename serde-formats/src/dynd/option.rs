//! Which options use a missing-value sentinel and which use a tag byte.
//!
//! DyND gives `?T` a sentinel for `bool`, the integers and the floats. serde hands a format only
//! `serialize_none()` for a missing value: no value to probe and no type. But every value reaches
//! the serializer through a generic call (`to_bytes::<T>`, `serialize_field::<T>`,
//! `serialize_element::<T>`, `serialize_some::<T>`, ...), where [`std::any::type_name`] tells
//! its static type. The serializer remembers the name of the value it is about to serialize
//! (except for fields and elements that are scalars, see [`is_scalar`], which never write a
//! missing value) and `serialize_none` / `serialize_some` classify it here. The deserializer
//! must choose before it reads a byte (the bytes `00` mean "int8 0" under a sentinel and
//! "missing" under a tag), and does the same with the name of the visitor's `Value` in
//! `deserialize_option`, which is `Option<P>` for every std `Option`. Both sides therefore
//! follow one rule on Rust types:
//!
//! `Option<P>` uses the sentinel exactly when `P` is `bool`, an integer primitive or a float
//! primitive (also behind `&`, `Box`, `Rc`, `Arc`); every other payload uses the tag.

use crate::hint::element_type_name;

/// How a serializer remembers the static type of the value it is about to serialize:
/// `std::any::type_name::<T>` itself, called only when an option needs classifying.
pub(crate) type TypeName = fn() -> &'static str;

/// The [`TypeName`] before any value: no type, so a bare `serialize_none` is refused.
pub(crate) fn no_type_name() -> &'static str {
    ""
}

/// Whether `T` is a primitive whose serde impl writes at least one byte and never a missing
/// value: `bool`, the integer and float primitives, `char`, `str`, `&str` and `String`. As
/// fields and elements, these skip remembering the type (only `serialize_none` reads it) and
/// the check for an element that took no bytes, about 30 of a log record's 200 instructions.
/// `type_name` is a constant, so each instantiation folds to `true` or `false`. Its text is not
/// guaranteed across Rust versions; a name that no longer matches only sends that type down
/// the general path, which records its type and counts it: slower, same bytes.
///
/// A reference to one of these is one too (`&T` serializes as `T`): serde's impls for slices,
/// `Vec` and the other collections hand their elements over as `&T`, so a `Vec<f64>` sends
/// `&f64` to `serialize_element` ([`element_type_name`]).
#[inline(always)]
pub(crate) fn is_scalar<T: ?Sized>() -> bool {
    matches!(
        element_type_name::<T>(),
        "bool"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "f32"
            | "f64"
            | "char"
            | "str"
            | "&str"
            | "alloc::string::String"
    )
}

/// How many bytes a value of `T` (or `&T`) takes when it is a fixed-width primitive: `bool`,
/// the integers and the floats; `None` for every other type. Found as [`is_scalar`] finds its
/// answer, so it folds to a constant.
#[inline(always)]
pub(crate) fn fixed_width<T: ?Sized>() -> Option<usize> {
    match element_type_name::<T>() {
        "bool" | "i8" | "u8" => Some(1),
        "i16" | "u16" => Some(2),
        "i32" | "u32" | "f32" => Some(4),
        "i64" | "u64" | "f64" | "isize" | "usize" => Some(8),
        "i128" | "u128" => Some(16),
        _ => None,
    }
}

/// A payload type that has a DyND missing-value sentinel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sentinel {
    Bool,
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
}

impl Sentinel {
    /// The datashape name of the payload, for error messages.
    pub(crate) fn datashape(self) -> &'static str {
        match self {
            Sentinel::Bool => "bool",
            Sentinel::I8 => "int8",
            Sentinel::I16 => "int16",
            Sentinel::I32 => "int32",
            Sentinel::I64 => "int64",
            Sentinel::I128 => "int128",
            Sentinel::U8 => "uint8",
            Sentinel::U16 => "uint16",
            Sentinel::U32 => "uint32",
            Sentinel::U64 => "uint64",
            Sentinel::U128 => "uint128",
            Sentinel::F32 => "float32",
            Sentinel::F64 => "float64",
        }
    }

    /// The sentinel for the Rust payload type called `name` (a `type_name` string), if any.
    pub(crate) fn of_payload(name: &str) -> Option<Sentinel> {
        Some(match strip_pointers(name) {
            "bool" => Sentinel::Bool,
            "i8" => Sentinel::I8,
            "i16" => Sentinel::I16,
            "i32" => Sentinel::I32,
            "i64" | "isize" => Sentinel::I64,
            "i128" => Sentinel::I128,
            "u8" => Sentinel::U8,
            "u16" => Sentinel::U16,
            "u32" => Sentinel::U32,
            "u64" | "usize" => Sentinel::U64,
            "u128" => Sentinel::U128,
            "f32" => Sentinel::F32,
            "f64" => Sentinel::F64,
            _ => return None,
        })
    }
}

/// How an option of some type is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OptionKind {
    /// Missing is the payload's sentinel bits, present is the payload as is.
    Sentinel(Sentinel),
    /// Missing is `00`, present is `01` and the payload.
    Tagged,
}

impl OptionKind {
    /// Classifies an option from the `type_name` of the `Option` itself. `None` when `name` is
    /// not a std `Option` (a custom type that calls `serialize_none` itself).
    pub(crate) fn of_option(name: &str) -> Option<OptionKind> {
        let payload = strip_pointers(name)
            .strip_prefix("core::option::Option<")?
            .strip_suffix('>')?;
        Some(Self::of_payload(payload))
    }

    /// Classifies an option from the `type_name` of its payload.
    pub(crate) fn of_payload(name: &str) -> OptionKind {
        match Sentinel::of_payload(name) {
            Some(sentinel) => OptionKind::Sentinel(sentinel),
            None => OptionKind::Tagged,
        }
    }
}

/// Removes references and the std smart pointers, whose `Serialize` forwards to the pointee.
fn strip_pointers(mut name: &str) -> &str {
    loop {
        let inner = if let Some(rest) = name.strip_prefix("&mut ") {
            Some(rest)
        } else if let Some(rest) = name.strip_prefix('&') {
            Some(rest)
        } else {
            ["alloc::boxed::Box<", "alloc::rc::Rc<", "alloc::sync::Arc<"]
                .iter()
                .find_map(|prefix| name.strip_prefix(prefix)?.strip_suffix('>'))
        };
        match inner {
            Some(inner) => name = inner,
            None => return name,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::any::type_name;
    use std::rc::Rc;
    use std::sync::Arc;

    #[test]
    fn primitive_payloads_use_sentinels() {
        assert_eq!(
            OptionKind::of_option(type_name::<Option<i8>>()),
            Some(OptionKind::Sentinel(Sentinel::I8))
        );
        assert_eq!(
            OptionKind::of_option(type_name::<Option<Box<f64>>>()),
            Some(OptionKind::Sentinel(Sentinel::F64))
        );
        assert_eq!(
            OptionKind::of_option(type_name::<Box<Option<Arc<Rc<&bool>>>>>()),
            Some(OptionKind::Sentinel(Sentinel::Bool))
        );
        assert_eq!(
            OptionKind::of_payload(type_name::<usize>()),
            OptionKind::Sentinel(Sentinel::U64)
        );
    }

    #[test]
    fn other_payloads_use_tags() {
        assert_eq!(
            OptionKind::of_option(type_name::<Option<String>>()),
            Some(OptionKind::Tagged)
        );
        assert_eq!(
            OptionKind::of_option(type_name::<Option<char>>()),
            Some(OptionKind::Tagged)
        );
        assert_eq!(
            OptionKind::of_option(type_name::<Option<Option<i8>>>()),
            Some(OptionKind::Tagged)
        );
        assert_eq!(
            OptionKind::of_option(type_name::<Option<(i8,)>>()),
            Some(OptionKind::Tagged)
        );
        assert_eq!(OptionKind::of_option(type_name::<Vec<Option<i8>>>()), None);
    }

    #[test]
    fn options_inside_tuples_and_arrays_keep_their_own_encoding() {
        // Tuples and arrays are written without remembering their own type: each member
        // records its own, so a `None` inside still gets its payload's sentinel or tag (the
        // expected bytes are the table in the module docs).
        let bytes = crate::dynd::to_bytes(&(Some(1i8), None::<i8>)).unwrap();
        assert_eq!(bytes, [0x01, 0x80]);
        let bytes = crate::dynd::to_bytes(&[None::<u16>, Some(7)]).unwrap();
        assert_eq!(bytes, [0xff, 0xff, 0x07, 0x00]);
        let bytes = crate::dynd::to_bytes(&((None::<String>,), [[None::<f64>]])).unwrap();
        assert_eq!(
            bytes,
            [0x00, 0xa2, 0x07, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f]
        );
        let bytes = crate::dynd::to_bytes(&vec![(None::<bool>, [Some(true)])]).unwrap();
        assert_eq!(bytes, [0x01, 0x02, 0x01]);
        // A `None` handed over directly, with no type, stays an encode error.
        struct Bare;
        impl serde::Serialize for Bare {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_none()
            }
        }
        let err = crate::dynd::to_bytes(&(Bare,)).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Unsupported, "{err}");
    }
}
