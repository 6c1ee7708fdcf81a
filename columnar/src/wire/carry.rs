//! How this crate's [`Error`] crosses serde's generic error types without losing its kind,
//! offset or message.
//!
//! A column decoder runs inside a serde visitor, which must return the deserializer's error
//! type `E`, known to it only as `E: serde::de::Error`. The only constructor serde offers is
//! `E::custom(text)`, which would turn a run count of 0 at byte 17 into a bare message. When
//! the (de)serializer is this crate's, `E` *is* [`Error`]: [`de_column_error`] and
//! [`ser_column_error`] then return the error itself, typed, and it travels up through `?`
//! unchanged to [`from_bytes`](super::from_bytes) / [`to_vec`](super::to_vec). For any other
//! (de)serializer (postcard, a user's), they fall back to `E::custom` with the error's text.
//!
//! Telling whether `E` is [`Error`] needs the type's identity, and `E` may borrow (serde does
//! not bound it by `'static`), so [`std::any::Any`] cannot be used: the `typeid` crate computes
//! the `TypeId` with lifetimes erased, which is exact here because [`Error`] has no lifetime
//! parameter. This replaces a thread-local slot matched by comparing message texts.

use std::any::TypeId;
use std::mem::ManuallyDrop;

use serde::{de, ser};

use crate::Error;

/// `err` as a value of type `E` when `E` is [`Error`], or back as `Err(err)`.
#[inline]
fn as_same_type<E>(err: Error) -> Result<E, Error> {
    if typeid::of::<E>() != TypeId::of::<Error>() {
        return Err(err);
    }
    let err = ManuallyDrop::new(err);
    // SAFETY: `E` and `Error` have the same `TypeId` once lifetimes are erased, and `Error`
    // has no lifetime to erase, so `E` is `Error`: this copy is a move of `err` into its own
    // type (`ManuallyDrop` keeps the original from being dropped twice).
    Ok(unsafe { std::mem::transmute_copy::<Error, E>(&err) })
}

/// Turns a decode error into the deserializer's error type `E`: itself when `E` is
/// [`Error`], else `E::custom` with its text.
#[cold]
pub(crate) fn de_column_error<E: de::Error>(err: Error) -> E {
    as_same_type(err).unwrap_or_else(|err| E::custom(err))
}

/// Turns an encode error into the serializer's error type `E`: itself when `E` is [`Error`],
/// else `E::custom` with its text.
#[cold]
pub(crate) fn ser_column_error<E: ser::Error>(err: Error) -> E {
    as_same_type(err).unwrap_or_else(|err| E::custom(err))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn an_error_of_this_crate_passes_through_unchanged() {
        let err = Error::with_message(ErrorKind::ZeroRunCount, "zero").or_offset(17);
        let passed: Error = de_column_error(err.clone());
        assert_eq!(passed, err);
        assert!(matches!(passed, Error::RleDecodeError(_)));
        let err = Error::at(ErrorKind::EncodeOverflow, 3);
        assert_eq!(ser_column_error::<Error>(err.clone()), err);
    }

    #[test]
    fn another_error_type_gets_the_text() {
        let err = Error::at(ErrorKind::ZeroRunCount, 17);
        let postcard: postcard::Error = de_column_error(err);
        assert_eq!(postcard, postcard::Error::SerdeDeCustom);
        let text: serde::de::value::Error = de_column_error(Error::at(ErrorKind::BadTag, 2));
        assert_eq!(
            text.to_string(),
            Error::at(ErrorKind::BadTag, 2).to_string()
        );
    }

    #[test]
    fn lifetimes_do_not_change_the_identity_but_types_do() {
        assert_eq!(typeid::of::<&'static str>(), TypeId::of::<&'static str>());
        fn borrowed<'a>(_: &'a str) -> TypeId {
            typeid::of::<&'a str>()
        }
        let local = String::from("x");
        assert_eq!(borrowed(&local), TypeId::of::<&'static str>());
        assert_ne!(typeid::of::<Error>(), TypeId::of::<String>());
    }
}
