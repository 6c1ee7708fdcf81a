//! [`Fraction`], the format's exact number, and how it passes through serde.
//!
//! serde has no fraction type, so `Fraction` serializes as a newtype struct with a reserved name
//! wrapping the pair `(num, den)`. This format's serializer recognises the name and writes a
//! Fraction atom; every other format sees an ordinary pair (`[3, 4]` in JSON).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::error::{Error, ErrorKind, Result};

/// The newtype-struct name that marks a [`Fraction`] passing through serde.
pub(crate) const FRACTION_TOKEN: &str = "$serde_formats::typed_column::Fraction";

/// An exact rational number: the format's Fraction kind.
///
/// The sign lives in the numerator; the value is not normalised (`2/4` stays `2/4`). A
/// denominator of 0 stands for +∞ or −∞ by the numerator's sign (and NaN for `0/0` when read as
/// a float).
///
/// ```
/// use serde_formats::typed_column::{to_columns, from_columns, Fraction};
///
/// let half = Fraction { num: 1, den: 2 };
/// let columns = to_columns(&half)?;
/// assert_eq!(columns.types, [1, 0, 16]);
/// assert_eq!(columns.data, [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
/// assert_eq!(from_columns::<Fraction>(&columns.types, &columns.data)?, half);
/// # Ok::<(), serde_formats::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fraction {
    /// The numerator, carrying the sign.
    pub num: i64,
    /// The denominator; 0 means infinite.
    pub den: i64,
}

impl Fraction {
    /// The fraction `num / den`.
    pub const fn new(num: i64, den: i64) -> Self {
        Fraction { num, den }
    }

    /// The 16 data bytes: numerator then denominator, little-endian.
    #[inline]
    pub fn to_le_bytes(self) -> [u8; 16] {
        // One 128-bit word: built in registers, where two 8-byte halves stored to memory and
        // read back as one 16-byte copy wait for the stores to land (the integer write path).
        let word = u128::from(self.den as u64) << 64 | u128::from(self.num as u64);
        word.to_le_bytes()
    }

    /// Reads the 16 data bytes written by [`Fraction::to_le_bytes`].
    #[inline]
    pub fn from_le_bytes(bytes: &[u8; 16]) -> Self {
        // Inlined into the reader's integer path (it was a call per integer field).
        let word = u128::from_le_bytes(*bytes);
        Fraction {
            num: word as u64 as i64,
            den: (word >> 64) as u64 as i64,
        }
    }

    /// The nearest `f64`: `num / den`, ±∞ when `den` is 0 (NaN for `0/0`).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The integer this fraction equals, if it is one (`den` divides `num`).
    pub fn to_integer(self) -> Option<i128> {
        if self.den == 1 {
            return Some(i128::from(self.num));
        }
        let (num, den) = (i128::from(self.num), i128::from(self.den));
        if den != 0 && num % den == 0 {
            Some(num / den)
        } else {
            None
        }
    }

    /// Converts to the integer type `T`, or an error naming the value and the type.
    pub(crate) fn to_int<T: TryFrom<i128>>(self, type_name: &str) -> Result<T> {
        let Some(value) = self.to_integer() else {
            return Err(Error::with_message(
                ErrorKind::Unsupported,
                format_args!("fraction {self} is not an integer, cannot read it as {type_name}"),
            ));
        };
        T::try_from(value).map_err(|_| {
            Error::with_message(
                ErrorKind::IntegerOverflow,
                format_args!("fraction {self} does not fit {type_name}"),
            )
        })
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl From<i64> for Fraction {
    fn from(num: i64) -> Self {
        Fraction { num, den: 1 }
    }
}

impl Serialize for Fraction {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(FRACTION_TOKEN, &(self.num, self.den))
    }
}

impl<'de> Deserialize<'de> for Fraction {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(FRACTION_TOKEN, FractionVisitor)
    }
}

struct FractionVisitor;

impl<'de> Visitor<'de> for FractionVisitor {
    type Value = Fraction;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a fraction (numerator, denominator)")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Fraction, D::Error> {
        let (num, den) = <(i64, i64)>::deserialize(deserializer)?;
        Ok(Fraction { num, den })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Fraction, A::Error> {
        let num = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let den = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok(Fraction { num, den })
    }
}

/// Pulls `(num, den)` back out of a `Fraction`'s serialization.
pub(crate) fn extract(value: &(impl Serialize + ?Sized)) -> Result<Fraction> {
    let mut pair = PairExtractor {
        parts: [0; 2],
        seen: 0,
    };
    value.serialize(&mut pair)?;
    if pair.seen != 2 {
        return Err(not_a_pair());
    }
    Ok(Fraction {
        num: pair.parts[0],
        den: pair.parts[1],
    })
}

#[cold]
fn not_a_pair() -> Error {
    Error::with_message(
        ErrorKind::Unsupported,
        "a Fraction must serialize as a pair of i64",
    )
}

struct PairExtractor {
    parts: [i64; 2],
    seen: usize,
}

impl Serializer for &mut PairExtractor {
    compound_types!(tuple only);

    fn serialize_i64(self, v: i64) -> Result<()> {
        match self.parts.get_mut(self.seen) {
            Some(part) => {
                *part = v;
                self.seen += 1;
                Ok(())
            }
            None => Err(not_a_pair()),
        }
    }

    fn serialize_tuple(self, len: usize) -> Result<Self> {
        if len == 2 {
            Ok(self)
        } else {
            Err(not_a_pair())
        }
    }

    refuse!(not_a_pair();
        serialize_bool serialize_i8 serialize_i16 serialize_i32
        serialize_u8 serialize_u16 serialize_u32 serialize_u64
        serialize_f32 serialize_f64 serialize_char serialize_str serialize_bytes
        serialize_none serialize_some serialize_unit serialize_unit_struct
        serialize_unit_variant serialize_newtype_struct serialize_newtype_variant
        serialize_seq serialize_tuple_struct serialize_tuple_variant
        serialize_map serialize_struct serialize_struct_variant
    );
}

tuple_into_self!(&mut PairExtractor);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_conversion_names_value_and_type() {
        assert_eq!(Fraction::new(6, 3).to_int::<u8>("u8").unwrap(), 2);
        assert_eq!(
            Fraction::new(i64::MIN, -1).to_int::<u64>("u64").unwrap(),
            1 << 63
        );
        let err = Fraction::new(300, 1).to_int::<u8>("u8").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::IntegerOverflow);
        assert_eq!(err.message(), Some("fraction 300/1 does not fit u8"));
        let err = Fraction::new(3, 2).to_int::<i32>("i32").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported);
        assert_eq!(
            err.message(),
            Some("fraction 3/2 is not an integer, cannot read it as i32")
        );
        assert!(Fraction::new(1, 0).to_int::<i64>("i64").is_err());
    }

    /// The data bytes: the numerator's 8 little-endian bytes, then the denominator's.
    #[test]
    fn data_bytes_are_numerator_then_denominator() {
        let fraction = Fraction::new(-2, 0x0102_0304_0506_0708);
        let bytes = fraction.to_le_bytes();
        assert_eq!(bytes[..8], [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(bytes[8..], [8, 7, 6, 5, 4, 3, 2, 1]);
        let back = Fraction::from_le_bytes(&bytes);
        assert_eq!((back.num, back.den), (-2, 0x0102_0304_0506_0708));
        let extreme = Fraction::new(i64::MIN, i64::MAX);
        let back = Fraction::from_le_bytes(&extreme.to_le_bytes());
        assert_eq!((back.num, back.den), (i64::MIN, i64::MAX));
    }

    #[test]
    fn float_conversion_handles_zero_denominator() {
        assert_eq!(Fraction::new(1, 4).to_f64(), 0.25);
        assert_eq!(Fraction::new(-3, 0).to_f64(), f64::NEG_INFINITY);
        assert_eq!(Fraction::new(3, 0).to_f64(), f64::INFINITY);
        assert!(Fraction::new(0, 0).to_f64().is_nan());
    }
}
