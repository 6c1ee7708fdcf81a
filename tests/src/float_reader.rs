//! An `f64` read through its own visitor ([`Element`]): serde's `Vec` asks for it with a seed
//! that is not `f64`'s, so a `Vec<Element>` is read element by element where a `Vec<f64>` may
//! take a format's shortcut for columns of floats (typed-column's). The tests and the
//! `typed_column_from_bytes` fuzz target compare the two.

use serde::de::{Deserialize, Deserializer, Visitor};

/// An `f64`, deserialized with `deserialize_f64` by a visitor of its own.
#[derive(Debug, Clone, Copy)]
pub struct Element(pub f64);

impl<'de> Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Float;
        impl Visitor<'_> for Float {
            type Value = Element;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an f64")
            }
            fn visit_f64<E>(self, value: f64) -> Result<Element, E> {
                Ok(Element(value))
            }
        }
        deserializer.deserialize_f64(Float)
    }
}
