//! serde backends for four binary formats.
//!
//! Each format lives in its own module with serde_json-style entry points (`to_bytes`,
//! `from_bytes`, ...). All of them share one [`Error`] type carrying an [`ErrorKind`] and the
//! [`Position`] where the input went wrong.
//!
//! | module | format | use it for | specification |
//! | --- | --- | --- | --- |
//! | [`typed_column`] | a `u64` type array and a byte data array | handing values to a typed-array front end; reading in place with a [`View`](typed_column::View) | `docs/spec/typed-column.md` |
//! | [`dynd`] | canonical DyND bytes | content addresses: one byte string per value, [`digest`](dynd::digest) | `docs/spec/dynd.md` |
//! | [`toc`] | MessagePack with a table of contents, file-compatible with Python's `msglc` | large files read one part at a time with a [`Reader`](toc::Reader) | `docs/spec/toc-msgpack.md` |
//! | [`vector`] | Velox's VectorSaver | saving columnar vectors with their encodings | `docs/spec/vector-saver.md` |
//!
//! # Specification
//!
//! Each format's wire specification is a document in the repository, listed in the last column
//! above (index: `docs/spec/README.md`): primitive encodings, the layout of every construct,
//! worked examples in hex, limits, what a decoder rejects, and the differences from the
//! format's reference implementation. Each module's docs restate the rules next to the code.
//!
//! # Cargo features
//!
//! One feature per format and one for the `sfmt` tool, all on by default (as `cargo install
//! serde-formats` expects); a user who needs one format compiles only that one
//! (`default-features = false, features = ["toc"]`), which also leaves out the tool's
//! dependencies, and the module of a format that is off does not exist.
//!
//! | feature | enables | pulls in |
//! | --- | --- | --- |
//! | `typed-column` | `typed_column` | nothing more |
//! | `dynd` | `dynd` | `sha2` (digests), `serde_json` (value conversion) |
//! | `toc` | `toc` | `rmp`, `minicbor` (msglc's CBOR variant) |
//! | `vector` | `vector` | `serde_json` (Velox's type JSON) |
//! | `object-store` (off; on with `cli`) | [`toc::remote`]: TOC files in S3, GCS, Azure, HTTP(S), read with ranged requests; implies `toc` | `object_store`, `tokio`, `reqwest`/`rustls` (ring), … |
//! | `arrow` (off) | `vector::{to_arrow, from_arrow}`; implies `vector` | `arrow-array`, `arrow-schema`, `arrow-buffer` |
//! | `cli` | the `sfmt` binary; implies the four formats | `clap`, `indicatif`, `anyhow`, … |
//!
//! [`dense`] marks a `Vec` of numbers to be written and read as one block by these formats (and
//! as an ordinary sequence by any other serde format), like `serde_bytes` does for bytes.
//!
//! [`output::OutputFile`] writes a file at a path the way `cp` and editors do (atomically over
//! regular files, in place into devices and pipes); [`toc::write_file`] and the `sfmt` tool use it.
//!
//! # Quick start
//!
//! Any serde type plugs into every format:
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use serde_formats::{dynd, toc, typed_column};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Reading {
//!     sensor: String,
//!     values: Vec<f64>,
//! }
//!
//! let reading = Reading { sensor: "t1".into(), values: vec![20.5, 21.0] };
//!
//! let bytes = typed_column::to_bytes(&reading)?;
//! assert_eq!(typed_column::from_bytes::<Reading>(&bytes)?, reading);
//!
//! let bytes = dynd::to_bytes(&reading)?;
//! assert_eq!(bytes[..3], [2, b't', b'1']); // LEB128 length, then the UTF-8 bytes
//! assert_eq!(dynd::from_bytes::<Reading>(&bytes)?, reading);
//!
//! let bytes = toc::to_bytes(&reading)?;
//! let reader = toc::Reader::from_slice(&bytes)?;
//! assert_eq!(reader.get::<f64>("values/1")?, 21.0); // decodes only that float
//!
//! // Bad input is an error with a kind and a position, never a panic.
//! let err = dynd::from_bytes::<Reading>(&[0x05, b't']).unwrap_err();
//! assert_eq!(err.kind(), serde_formats::ErrorKind::LengthPastEnd);
//! # Ok::<(), serde_formats::Error>(())
//! ```
#![deny(missing_docs)]
// The shared modules (display, limits, read, varint, ser_macros, de_macros) serve all four formats; each
// format alone uses part of them. Dead code is checked when all four are built.
#![cfg_attr(
    not(all(
        feature = "typed-column",
        feature = "dynd",
        feature = "toc",
        feature = "vector"
    )),
    allow(dead_code, unused_macros)
)]

#[macro_use]
mod ser_macros;
#[macro_use]
mod de_macros;

pub mod dense;
mod display;
#[cfg(feature = "dynd")]
pub mod dynd;
pub mod error;
mod hint;
mod limits;
pub mod output;
mod read;
#[cfg(feature = "toc")]
pub mod toc;
#[cfg(feature = "typed-column")]
pub mod typed_column;
mod varint;
#[cfg(feature = "vector")]
pub mod vector;

pub use error::{Error, ErrorKind, Position, Result};
pub use limits::DEFAULT_DEPTH_LIMIT;

/// The README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "toc"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
