//! Column-oriented binary encoding, wire-compatible with `serde_columnar` 0.3.x.
//!
//! Values of one field are stored together in a column and compressed by a codec chosen per
//! field: [`codec`] holds the five codecs (Generic, Rle, DeltaRle, BoolRle, DeltaOfDelta).
#![deny(missing_docs)]

pub mod codec;
pub mod error;
pub mod wire;

pub use codec::{
    AnyRleEncoder, AnyRleIter, BoolRleColumn, BoolRleEncoder, BoolRleIter, DeltaOfDeltaColumn,
    DeltaOfDeltaEncoder, DeltaOfDeltaIter, DeltaOfDeltable, DeltaRleColumn, DeltaRleEncoder,
    DeltaRleIter, DeltaRleable, GenericColumn, GenericEncoder, GenericIter, RleColumn, Rleable,
};
pub use error::{Error, ErrorKind, Result};

/// Largest run length a decoder accepts, as in `serde_columnar`.
pub const MAX_RLE_COUNT: usize = 1_000_000_000;
