//! serde backends for four binary formats.
//!
//! Each format lives in its own module with serde_json-style entry points (`to_bytes`,
//! `from_bytes`, ...). All of them share one [`Error`] type carrying an [`ErrorKind`] and the
//! [`Position`] where the input went wrong.
#![deny(missing_docs)]

pub mod dynd;
pub mod error;
pub mod toc;
pub mod typed_column;
pub mod vector;

pub use error::{Error, ErrorKind, Position, Result};
